"""Negative crops for the classifier's "none" class never show a corner index of the scene."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.training.negatives import random_boxes, scene_negatives, touches, window


def test_a_box_touches_an_index_only_when_they_overlap_more_than_a_sliver():
    idx = np.array([[100, 100, 120, 140]], np.float32)
    assert touches((110, 110, 130, 130), idx)
    assert not touches((121, 100, 140, 140), idx)  # beside it
    assert not touches((119.5, 100, 140, 140), idx)  # a sliver of 0.5 px: under 5 % of the index
    assert not touches((0, 0, 10, 10), np.zeros((0, 4), np.float32))


def test_random_negatives_keep_their_whole_crop_window_off_every_index():
    rng = np.random.default_rng(3)
    idx = np.array([[100, 100, 120, 140], [300, 200, 320, 240], [500, 50, 520, 90]], np.float32)
    boxes = random_boxes(rng, (480, 640), idx, 40, tries=400)
    assert len(boxes) >= 20
    for b in boxes:
        assert not touches(window(b), idx)
        assert 0 <= b[0] < b[2] <= 640 and 0 <= b[1] < b[3] <= 480
        assert 0.7 * 20 <= min(b[2] - b[0], b[3] - b[1]) and max(b[2] - b[0], b[3] - b[1]) <= 1.5 * 40


def test_the_detectors_false_boxes_become_negatives_and_its_true_ones_do_not():
    rng = np.random.default_rng(0)
    image = np.full((480, 640, 3), 200, np.uint8)
    meta = {"indices": [{"quad": [[100, 100], [120, 100], [120, 140], [100, 140]]}]}
    detected = np.array([[101, 99, 121, 141, 0.9],    # the real index
                         [400, 300, 420, 340, 0.5],   # clutter
                         [2, 2, 4, 4, 0.8]], np.float32)  # too small to be read
    crops = scene_negatives(image, meta, rng, detected, n_random=0, n_hard=5)
    assert len(crops) == 1 and crops[0].shape == (64, 64, 3)
    assert len(scene_negatives(image, meta, rng, None, n_random=2, n_hard=5)) == 2


def test_negatives_are_written_once_per_scene_and_a_rerun_writes_nothing(tmp_path):
    import json

    import cv2

    from vision.training.negatives import build_negatives

    (tmp_path / "detect" / "images" / "val").mkdir(parents=True)
    (tmp_path / "detect" / "meta" / "val").mkdir(parents=True)
    rng = np.random.default_rng(1)
    cv2.imwrite(str(tmp_path / "detect" / "images" / "val" / "000004.jpg"), rng.integers(0, 255, (480, 640, 3), np.uint8))
    quad = [[100, 100], [120, 100], [120, 140], [100, 140]]
    (tmp_path / "detect" / "meta" / "val" / "000004.json").write_text(json.dumps({"indices": [{"quad": quad}]}))
    assert build_negatives(tmp_path, "val", None, n_random=2) == 2
    files = sorted(p.name for p in (tmp_path / "crops" / "val" / "none").glob("*.png"))
    assert files == ["n000004_0.png", "n000004_1.png"]
    assert build_negatives(tmp_path, "val", None, n_random=2) == 0


def test_the_cli_mines_with_the_committed_detector_unless_told_none():
    """`patience dataset negatives` without --model mines the committed detector's false boxes (it once read an
    absent option as "none" and cut random boxes only); `--model none` means random boxes only."""
    from assistant.commands.dataset import negatives_model

    default = Path("models/detector.onnx")
    assert negatives_model(None, default) == default
    assert negatives_model(Path("none"), default) is None
    assert negatives_model(Path("runs/x.onnx"), default) == Path("runs/x.onnx")
