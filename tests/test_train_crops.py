"""What the classifier is trained on: scene crops filtered by readability, glyph and negative crops always."""

from __future__ import annotations

import json

import cv2
import numpy as np

from vision.training.train import CARD_NAMES, NONE_CLASS, _load_crops, crop_classes


def _crops(tmp_path, with_negatives: bool):
    root = tmp_path / "build"
    for split in ("train", "val"):
        for name in ("As", "Kc", NONE_CLASS):
            (root / "crops" / split / name).mkdir(parents=True)
    meta = root / "detect" / "meta" / "train"
    meta.mkdir(parents=True)
    small = [[0, 0], [6, 0], [6, 9], [0, 9]]  # a 9 px index: too small to learn from
    big = [[0, 0], [14, 0], [14, 30], [0, 30]]
    meta.joinpath("000001.json").write_text(json.dumps({"indices": [
        {"card": "As", "visible": 1.0, "quad": small}, {"card": "Kc", "visible": 1.0, "quad": big}]}))
    img = np.full((64, 64, 3), 200, np.uint8)
    for path in ("train/As/000001_0.png", "train/Kc/000001_1.png", "train/As/g000007.png"):
        cv2.imwrite(str(root / "crops" / path), img)
    if with_negatives:
        cv2.imwrite(str(root / "crops" / "train" / NONE_CLASS / "n000001_0.png"), img)
    return root / "crops"


def test_the_none_class_exists_only_when_there_are_negatives(tmp_path):
    assert crop_classes(_crops(tmp_path / "a", with_negatives=False)) == CARD_NAMES
    assert crop_classes(_crops(tmp_path / "b", with_negatives=True)) == CARD_NAMES + (NONE_CLASS,)


def test_unreadable_scene_crops_are_left_out_but_glyphs_and_negatives_kept(tmp_path):
    crops = _crops(tmp_path, with_negatives=True)
    classes = crop_classes(crops)
    x, y = _load_crops(crops / "train", size=32, min_px=12.0, min_visible=0.7, classes=classes)
    names = sorted(classes[i] for i in y)
    assert names == ["As", "Kc", NONE_CLASS]  # As from the glyph crop only; the 9 px scene crop is out
    assert x.shape == (3, 32, 32, 3) and x.dtype == np.uint8
    _, y_all = _load_crops(crops / "train", size=32, classes=classes)
    assert len(y_all) == 4


def test_other_typefaces_are_imitated_by_stretching_shearing_and_bolder_or_lighter_strokes():
    """``--shape-aug``: a dark bar on a light crop comes out of the glyph reshaper wider, narrower, bolder or lighter,
    never anything but a crop of the same size."""
    from vision.training.train import _reshape_glyphs

    crop = np.full((32, 32, 3), 230, np.uint8)
    crop[6:26, 14:18] = 20  # a 4 px stroke
    ink = lambda im: int((im[..., 0] < 120).sum())  # noqa: E731
    widths = lambda im: np.flatnonzero((im[16, :, 0] < 120)).size  # noqa: E731
    outs = [_reshape_glyphs(crop.copy(), np.random.default_rng(seed)) for seed in range(40)]
    assert all(o.shape == crop.shape and o.dtype == crop.dtype for o in outs)
    assert min(ink(o) for o in outs) < ink(crop) < max(ink(o) for o in outs)
    assert min(widths(o) for o in outs) < widths(crop) < max(widths(o) for o in outs)
    assert sum(np.array_equal(o, crop) for o in outs) < 20  # most crops are changed
