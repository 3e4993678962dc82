"""Labelled photos made harder: every change keeps each label on its card."""
import csv

import cv2
import numpy as np
import pytest

from assistant.commands.dataset import HARDER_CHANGES
from vision.training.harder_photos import CHANGES, CLOSEUP_SIZE, make_closeups, make_harder


def labelled_folder(src, width, height, cards):
    """An edje-style folder ``src`` with one photo ``a.png``: bright cards ``(class, x1, y1, x2, y2)`` on a dark table."""
    (src / "images").mkdir(parents=True)
    image = np.full((height, width, 3), 30, np.uint8)
    for _, x1, y1, x2, y2 in cards:
        image[y1:y2, x1:x2] = 230
    cv2.imwrite(str(src / "images" / "a.png"), image)
    with (src / "labels.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["filename", "width", "height", "class", "xmin", "ymin", "xmax", "ymax"])
        w.writerows(["a.png", width, height, *card] for card in cards)
    return src


@pytest.fixture
def folder(tmp_path):
    """One 120x80 photo with a bright card (box 10,20 - 40,70) on a dark table, labelled edje-style."""
    return labelled_folder(tmp_path / "src", 120, 80, [("king", 10, 20, 40, 70)])


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_label_stays_on_the_card(folder, tmp_path, change):
    out = tmp_path / change
    assert make_harder(folder, out, change) == 1
    row = next(csv.DictReader((out / "labels.csv").open()))
    image = cv2.imread(str(out / "images" / "a.png"))
    assert (int(row["width"]), int(row["height"])) == (image.shape[1], image.shape[0]) and row["class"] == "king"
    x1, y1, x2, y2 = (int(float(row[k])) for k in ("xmin", "ymin", "xmax", "ymax"))
    inside, outside = image[y1 + 2:y2 - 2, x1 + 2:x2 - 2].mean(), np.delete(image, np.s_[y1:y2], axis=0).mean()
    assert inside > 2 * outside  # the card is where its box now says


def test_turning_a_quarter_swaps_width_and_height(folder, tmp_path):
    make_harder(folder, tmp_path / "t", "turn90")
    row = next(csv.DictReader((tmp_path / "t" / "labels.csv").open()))
    assert (row["width"], row["height"]) == ("80", "120")
    assert [float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")] == [10.0, 10.0, 60.0, 40.0]


def test_bad_input_is_said_plainly(folder, tmp_path):
    with pytest.raises(ValueError, match="unknown change"):
        make_harder(folder, tmp_path / "x", "sepia")
    with pytest.raises(FileNotFoundError, match="labels.csv"):
        make_harder(tmp_path / "nowhere", tmp_path / "x", "dark")


def test_the_command_line_offers_every_change():
    assert set(HARDER_CHANGES) == set(CHANGES) | {"closeup"}


def test_a_closeup_fills_the_frame_with_its_card_and_labels_only_whole_cards(tmp_path):
    """A 400x300 photo with two cards far apart: each close-up shows its card large, labelled where it now lies;
    the other card, out of the frame, is not labelled there."""
    src = labelled_folder(tmp_path / "src", 400, 300, [("king", 10, 20, 110, 180), ("nine", 290, 140, 390, 300)])
    out = tmp_path / "close"
    assert make_closeups(src, out) == 2
    rows = list(csv.DictReader((out / "labels.csv").open()))
    assert sorted((r["filename"], r["class"]) for r in rows) == [("a_c0.jpg", "king"), ("a_c1.jpg", "nine")]
    for r in rows:
        frame = cv2.imread(str(out / "images" / r["filename"]))
        assert (frame.shape[1], frame.shape[0]) == CLOSEUP_SIZE
        x1, y1, x2, y2 = (int(float(r[k])) for k in ("xmin", "ymin", "xmax", "ymax"))
        assert y2 - y1 >= 0.4 * CLOSEUP_SIZE[1]  # the card fills a good part of the frame
        assert frame[y1 + 3:y2 - 3, x1 + 3:x2 - 3].mean() > 200  # ... and is where its box says
