"""Labelled photos made harder: every change keeps each label on its card."""
import csv

import cv2
import numpy as np
import pytest

from assistant.commands.dataset import HARDER_CHANGES
from vision.training.harder_photos import CHANGES, make_harder


@pytest.fixture
def folder(tmp_path):
    """One 120x80 photo with a bright card (box 10,20 - 40,70) on a dark table, labelled edje-style."""
    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    image = np.full((80, 120, 3), 30, np.uint8)
    image[20:70, 10:40] = 230
    cv2.imwrite(str(src / "images" / "a.png"), image)
    with (src / "labels.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["filename", "width", "height", "class", "xmin", "ymin", "xmax", "ymax"])
        w.writerow(["a.png", 120, 80, "king", 10, 20, 40, 70])
    return src


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
    assert set(HARDER_CHANGES) == set(CHANGES)
