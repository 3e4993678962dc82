"""Scoring recognition against labels (vision.training.evaluate): found / wrong / missed cards, false cards, confusions.
Uses the stand-in models on the stand-in scene (Qh with both corners, 9s, 10d; see test_detector.py)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from test_detector import FAKE, fake_scene  # tests/ is on sys.path (pytest's prepend import mode)
from vision.detector import Detector
from vision.training.evaluate import LabelledCard, LabelledImage, Tally, evaluate, format_report, load_edje, load_folder

# shared/ lies beside the repository (as on the developers' machines and in CI)
EDJE = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "real-dev" / "edje-train"


@pytest.fixture(scope="module")
def result():
    return Detector(model_dir=FAKE).detect(fake_scene())


def test_ranks_in_whole_card_boxes_edje_style(result):
    labelled = LabelledImage(Path("scene.png"), [
        LabelledCard(box=(80, 60, 220, 280), rank="Q"),    # the queen: found
        LabelledCard(box=(380, 60, 480, 200), rank="9"),   # the 9s: found
        LabelledCard(box=(480, 340, 600, 460), rank="9"),  # read as 10 there: wrong, a 9 -> 10 confusion
        LabelledCard(box=(0, 400, 60, 470), rank="K"),     # nothing there: missed
    ])
    t = Tally("edje")
    t.add(labelled, result)
    s = t.summary()
    assert (t.found, t.wrong, t.missed) == (2, 1, 1)
    assert s["recall"] == 0.5 and s["reported_cards"] == 3
    assert (t.false_outside, t.false_wrong) == (0, 1) and s["false_cards"] == pytest.approx(1 / 3)
    assert t.confusion[("9", "10")] == 1 and t.confusion[("K", "-")] == 1
    text = format_report("scene", t)
    assert "rank found in its box: 50.0%" in text and "9 -> 10: 1" in text


def test_full_names_and_traps_on_a_rendered_style_label(result):
    labelled = LabelledImage(Path("scene.png"), [
        LabelledCard(box=(85, 70, 215, 270), rank="Q", card="Qh", index_boxes=[(90, 65, 110, 95)]),
        LabelledCard(box=(390, 85, 410, 115), rank="9", card="9c", index_boxes=[(390, 85, 410, 115)]),
        LabelledCard(box=(508, 363, 532, 397), rank="6", card="6d", index_boxes=[(508, 363, 532, 397)]),
    ])
    t = Tally("rendered")
    t.add(labelled, result)
    s = t.summary()
    assert (t.found, t.wrong, t.missed) == (1, 2, 0)
    assert s["traps"]["suit s/c"] == 1  # 9c read as 9s
    assert s["traps"]["6/9"] == 0 and t.confusion[("6d", "10d")] == 1
    assert (t.index_labelled, t.index_found, t.index_named) == (3, 3, 1)  # all corners detected, one named right


def test_figures_by_scenario_and_by_card_size(result):
    """Issue 13 asks for recall by scenario (the scene's layout) and far cards apart from near ones."""
    grid = LabelledImage(Path("grid.png"), [
        LabelledCard(box=(85, 70, 215, 270), rank="Q", card="Qh", index_boxes=[(90, 65, 110, 95)]),  # 30 px: near
    ], scenario="flat (poker grid)")
    fan = LabelledImage(Path("fan.png"), [
        LabelledCard(box=(390, 85, 410, 115), rank="9", card="9c", index_boxes=[(390, 85, 410, 115)]),  # 30 px: read 9s, wrong
        LabelledCard(box=(0, 400, 10, 410), rank="K", card="Kd", index_boxes=[(0, 400, 8, 410)]),  # 10 px: missed
    ], scenario="fanned hand")
    t = Tally("rendered")
    t.add(grid, result)
    t.add(fan, result)
    s = t.summary()
    assert s["labelled_cards"] == 3 and t.images == 2
    assert s["by_scenario"]["flat (poker grid)"]["recall"] == 1.0
    assert s["by_scenario"]["fanned hand"]["labelled_cards"] == 2
    assert s["by_scenario"]["fanned hand"]["recall"] == 0.0 and s["by_scenario"]["fanned hand"]["missed"] == 0.5
    assert s["by_size"]["near (index >= 24 px)"] == {"cards": 2, "found": 0.5, "wrong": 0.5, "missed": 0.0}
    assert s["by_size"]["far (index < 12 px)"] == {"cards": 1, "found": 0.0, "wrong": 0.0, "missed": 1.0}
    assert "fanned hand" in format_report("two", t)


def test_load_folder_tells_edje_from_rendered_sets(tmp_path):
    (tmp_path / "labels.jsonl").write_text(json.dumps({"image": "a.png", "cards": [
        {"card": "Th", "index_boxes": [[0, 0, 10, 10], [50, 80, 60, 90]]}]}) + "\n")
    kind, images = load_folder(tmp_path)
    assert kind == "rendered" and images[0].cards[0].card == "10h" and images[0].cards[0].box == (0, 0, 60, 90)
    with pytest.raises(FileNotFoundError, match="labels.csv"):
        load_folder(tmp_path / "nothing")


def test_evaluate_reads_images_and_counts(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), fake_scene())
    li = LabelledImage(tmp_path / "a.png", [LabelledCard(box=(80, 60, 220, 280), rank="Q")])
    t = evaluate([li, li], Detector(model_dir=FAKE).detect, "edje")
    assert t.images == 2 and t.found == 2 and t.false_outside == 4


@pytest.mark.skipif(not (EDJE / "labels.csv").is_file(), reason="the shared edje-train photos are not on this machine")
def test_the_edje_labels_load():
    images = load_edje(EDJE)
    assert len(images) == 296 and sum(len(i.cards) for i in images) == 527
    assert {c.rank for i in images for c in i.cards} == {"9", "10", "J", "Q", "K", "A"}


def test_real_photos_with_a_suit_column_are_scored_by_whole_names(tmp_path, result):
    """datasets/real-dev-suits adds each card's suit to edje-style labels: the folder is then "real", a card is
    found only under its whole name, and a suit read wrong is a wrong card."""
    cv2.imwrite(str(tmp_path / "a.png"), fake_scene())
    (tmp_path / "labels.csv").write_text("filename,width,height,class,xmin,ymin,xmax,ymax,suit\n"
                                         "a.png,640,480,queen,80,60,220,280,h\n"
                                         "a.png,640,480,nine,380,60,480,200,c\n")
    kind, images = load_folder(tmp_path)
    assert kind == "real" and [c.card for c in images[0].cards] == ["Qh", "9c"]
    t = Tally(kind)
    t.add(images[0], result)
    assert (t.found, t.wrong) == (1, 1) and t.summary()["traps"]["suit s/c"] == 1  # the 9s there is not a 9c
    assert "card found in its box: 50.0%" in format_report("a", t)


def test_a_folder_without_suits_stays_ranked(tmp_path):
    (tmp_path / "labels.csv").write_text("filename,width,height,class,xmin,ymin,xmax,ymax\n"
                                         "a.png,640,480,queen,80,60,220,280\n")
    kind, images = load_folder(tmp_path)
    assert kind == "edje" and images[0].cards[0].card is None


def test_the_suit_labels_cover_every_edje_card_once():
    """The committed suits of the real development photos: one per labelled card, in the shared labels' order."""
    import csv

    rows = list(csv.DictReader((Path(__file__).resolve().parents[1] / "datasets" / "real-dev-suits"
                                / "edje-train.csv").open()))
    assert len(rows) == 527 and {r["suit"] for r in rows} == set("shdc")
    if (EDJE / "labels.csv").is_file():
        shared = list(csv.DictReader((EDJE / "labels.csv").open()))
        assert [{k: v for k, v in r.items() if k != "suit"} for r in rows] == shared


def test_a_real_photo_is_overlapping_when_two_cards_cover_each_other():
    from vision.training.evaluate import real_scenario

    apart = [LabelledCard(box=(0, 0, 100, 150), rank="Q"), LabelledCard(box=(120, 0, 220, 150), rank="9")]
    fanned = [LabelledCard(box=(0, 0, 100, 150), rank="Q"), LabelledCard(box=(30, 0, 130, 150), rank="9")]
    touching = [LabelledCard(box=(0, 0, 100, 150), rank="Q"), LabelledCard(box=(95, 0, 195, 150), rank="9")]
    assert real_scenario(apart) == "apart (real)" and real_scenario(touching) == "apart (real)"
    assert real_scenario(fanned) == "overlapping (real)" and real_scenario(fanned[:1]) == "apart (real)"
