"""The pip look: the pips in the middle of a whole card cut out as silhouettes (``vision.pips``), a card's suit
evidence from its pips, and its fusion into the corner probabilities (``Detector.fuse_pips``).

No trained weights: drawn cards, and the fake models of ``tests/fixtures/fake_models`` (the fake colour classifier
stands in for the pip look's file; its probabilities are given by hand).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_cardface import corner_probs, models_with_look, one_card_boxes
from vision.card_names import CARD_NAMES
from vision.detector import PIP_WEIGHT_FLOOR, Detector
from vision.onnx_backend import ModelFileError
from vision.pips import PIP_SIZE, card_suit_evidence, pip_shapes



def drawn_card(pips: int = 4, colour=(20, 20, 20), shade: bool = False) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A white 100x140 card on a green table with ``pips`` filled discs in its middle; ``shade``: the card darkens
    from left to right (a lighting gradient), the pips with it."""
    img = np.full((240, 240, 3), (40, 120, 40), np.uint8)
    x0, y0 = 70, 50
    cv2.rectangle(img, (x0, y0), (x0 + 99, y0 + 139), (245, 245, 245), -1)
    spots = [(100, 90), (140, 90), (100, 150), (140, 150), (120, 120)][:pips]
    for cx, cy in spots:
        cv2.circle(img, (cx, cy), 9, colour, -1)
    cv2.putText(img, "7", (x0 + 2, y0 + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)  # the index, at the edge
    if shade:
        ramp = np.linspace(1.0, 0.45, img.shape[1], dtype=np.float32)[None, :, None]
        img = (img * ramp).astype(np.uint8)
    return img, (x0, y0, x0 + 100, y0 + 140)


def test_each_pip_in_the_middle_of_a_card_is_cut_out_and_the_index_is_not():
    img, box = drawn_card(pips=4)
    readings = pip_shapes(img, box)
    assert len(readings) == 1  # the card's outline is clearly taller than wide: one way to straighten it
    shapes = readings[0]
    assert shapes.shape == (4, PIP_SIZE, PIP_SIZE) and shapes.dtype == np.float32
    for s in shapes:  # a disc, centred, ink 1 and paper 0
        assert s[16, 16] > 0.9 and s[0, 0] == 0.0 and s[16, 0] < 0.1


def test_red_pips_and_a_shaded_card_give_the_same_silhouettes():
    black = pip_shapes(*drawn_card(pips=4))[0]
    red = pip_shapes(*drawn_card(pips=4, colour=(30, 30, 220)))[0]
    shaded = pip_shapes(*drawn_card(pips=4, shade=True))[0]
    assert len(red) == len(shaded) == 4
    assert np.abs(red - black).mean() < 0.05 and np.abs(shaded - black).mean() < 0.08


def test_a_card_too_small_or_a_blank_card_shows_no_pips():
    img, box = drawn_card(pips=0)
    assert [len(r) for r in pip_shapes(img, box)] == [0]
    small = cv2.resize(drawn_card(pips=4)[0], (48, 48), interpolation=cv2.INTER_AREA)
    assert pip_shapes(small, (14, 10, 34, 38)) == []


def test_a_card_seen_at_a_slant_is_read_both_ways_and_a_turned_card_is_straightened():
    img, box = drawn_card(pips=4)
    slanted = cv2.resize(img, (240, 172), interpolation=cv2.INTER_AREA)  # the card squashed to about square
    sx, sy = 1.0, 172 / 240
    readings = pip_shapes(slanted, (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy))
    assert len(readings) == 2 and max(len(r) for r in readings) == 4
    turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((120, 120), 30, 1.0), (240, 240), borderValue=(40, 120, 40))
    corners = cv2.transform(np.array([[[70, 50], [170, 50], [170, 190], [70, 190]]], np.float32),
                            cv2.getRotationMatrix2D((120, 120), 30, 1.0))[0]
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    readings = pip_shapes(turned, (x0, y0, x1, y1))
    assert len(readings) == 1 and len(readings[0]) == 4
    assert np.abs(readings[0] - pip_shapes(img, box)[0]).mean() < 0.1  # discs: the same silhouettes (a disc against nothing: ~0.4)


def test_a_cards_suit_evidence_weighs_each_blob_by_how_much_it_looks_like_a_pip():
    p = np.array([[0.1, 0.0, 0.0, 0.9, 0.0],     # a club
                  [0.2, 0.0, 0.0, 0.8, 0.0],     # a club
                  [0.05, 0.0, 0.0, 0.05, 0.9]])  # a piece of a picture: nearly no say
    suits, weight = card_suit_evidence(p)
    assert weight == pytest.approx(2.1)
    assert suits.argmax() == 3 and suits.sum() == pytest.approx(1.0)
    uniform, none = card_suit_evidence(np.zeros((0, 5), np.float32))
    assert none == 0.0 and np.allclose(uniform, 0.25)


def pip_models(tmp_path: Path, weight: float = 1.0, min_pips: float = 1.0, classes=("s", "h", "d", "c", "none")) -> Path:
    """The fake models plus a pip look declared in vision.json (the fake classifier's file; never run here)."""
    return models_with_look(tmp_path, "pips", {"file": "pips.onnx", "classes": list(classes), "weight": weight,
                                               "min_pips": min_pips})


def test_clear_club_pips_turn_a_spade_reading_into_clubs_inside_their_card_only(tmp_path):
    det = Detector(model_dir=pip_models(tmp_path), pips=None)
    assert det.pips is not None
    n_cols = len(det.classifier_names)
    p = np.stack([corner_probs(n_cols, {"7s": 0.5, "7c": 0.3, "8s": 0.1})] * 3)
    clubs = (np.array([[0.05, 0.0, 0.0, 0.95]], np.float32), np.array([3.0], np.float32))
    fused = det.fuse_pips(None, one_card_boxes(), np.array([0, 1, 2]), p, evidence=clubs)
    assert [det.classifier_names[j] for j in fused.argmax(axis=1)] == ["7c", "7c", "7s"]  # corner 2: no card box
    assert np.allclose(fused.sum(axis=1), 1.0, atol=1e-5) and np.array_equal(fused[2], p[2])
    # only the suits are weighed: every club gains on its spade by the same factor, the ranks stay the corner's
    ratio = lambda q, rank: q[CARD_NAMES.index(rank + "c")] / q[CARD_NAMES.index(rank + "s")]
    assert ratio(fused[0], "8") / ratio(p[0], "8") == pytest.approx(0.95 / 0.05, rel=1e-3)
    assert ratio(fused[0], "7") / ratio(p[0], "7") == pytest.approx(0.95 / 0.05, rel=1e-3)


def test_hardly_a_pip_leaves_the_corners_as_they_were(tmp_path):
    det = Detector(model_dir=pip_models(tmp_path, min_pips=1.5), pips=None)
    p = corner_probs(len(det.classifier_names), {"7s": 0.5, "7c": 0.3})[None]
    faint = (np.array([[0.0, 0.0, 0.0, 1.0]], np.float32), np.array([PIP_WEIGHT_FLOOR * 0.9], np.float32))
    assert np.array_equal(det.fuse_pips(None, one_card_boxes(), np.array([0]), p, evidence=faint), p)


def test_fewer_pips_than_min_pips_count_in_proportion(tmp_path):
    det = Detector(model_dir=pip_models(tmp_path, weight=2.0, min_pips=1.5), pips=None)
    p = corner_probs(len(det.classifier_names), {"7s": 0.5, "7c": 0.3})[None]
    ratio = lambda q: q[0, CARD_NAMES.index("7c")] / q[0, CARD_NAMES.index("7s")]
    clubs = np.array([[0.1, 0.0, 0.0, 0.9]], np.float32)
    gains = {}
    for pips in (1.0, 1.5, 3.0):  # an ace's one pip; min_pips; a three
        fused = det.fuse_pips(None, one_card_boxes(), np.array([0]), p, evidence=(clubs, np.array([pips], np.float32)))
        gains[pips] = ratio(fused) / ratio(p)
    assert gains[1.0] == pytest.approx(9.0 ** (2.0 * 1.0 / 1.5), rel=1e-3)  # two thirds of the exponent
    assert gains[1.5] == pytest.approx(9.0 ** 2.0, rel=1e-3) == pytest.approx(gains[3.0], rel=1e-3)


def test_the_pip_look_is_for_photos_and_needs_the_four_suits(tmp_path):
    assert Detector(model_dir=pip_models(tmp_path)).pips is None  # a camera frame: too slow
    assert Detector(model_dir=pip_models(tmp_path), pips=None).pips is not None  # declared: a photo uses it
    with pytest.raises(ModelFileError, match="pip look"):
        Detector(model_dir=pip_models(tmp_path, classes=("a", "b", "c", "d")), pips=None)
    (tmp_path / "pips.onnx").unlink()
    assert Detector(model_dir=tmp_path, pips=None).pips is None  # declared but not there: as without it ...
    with pytest.raises(ModelFileError, match="pip look .* not found"):  # ... unless asked for
        Detector(model_dir=tmp_path, pips=True)


def test_a_court_card_keeps_its_corners_suit_whatever_blobs_its_picture_shows(tmp_path):
    det = Detector(model_dir=pip_models(tmp_path), pips=None)
    p = corner_probs(len(det.classifier_names), {"Qs": 0.6, "Qc": 0.3})[None]
    clubs = (np.array([[0.0, 0.0, 0.0, 1.0]], np.float32), np.array([4.0], np.float32))
    assert np.array_equal(det.fuse_pips(None, one_card_boxes(), np.array([0]), p, evidence=clubs), p)


def test_pips_weigh_suits_within_the_corners_colour_only(tmp_path):
    det = Detector(model_dir=pip_models(tmp_path), pips=None)
    p = corner_probs(len(det.classifier_names), {"As": 0.7, "Ah": 0.05, "Ac": 0.2})[None]
    upside_down_heart = (np.array([[0.3, 0.6, 0.05, 0.05]], np.float32), np.array([1.0], np.float32))
    fused = det.fuse_pips(None, one_card_boxes(), np.array([0]), p, evidence=upside_down_heart)
    assert det.classifier_names[fused.argmax()] == "As"  # black stays black; among the blacks, spades
    assert fused[0, CARD_NAMES.index("Ah")] / fused[0, CARD_NAMES.index("As")] < 0.1


def test_training_silhouettes_are_cut_from_whole_cards_of_rendered_scenes_and_labelled_by_suit(tmp_path):
    from vision.training.pips import PIP_CLASSES, cut_pip_set

    root = tmp_path / "detect"
    (root / "images" / "train").mkdir(parents=True)
    (root / "meta" / "train").mkdir(parents=True)
    img, box = drawn_card(pips=4)
    cv2.imwrite(str(root / "images" / "train" / "000000.jpg"), img)
    (root / "meta" / "train" / "000000.json").write_text(json.dumps({"cards": [
        {"card": "4c", "box": list(box)}]}))
    img2, box2 = drawn_card(pips=2, colour=(30, 30, 220))
    cv2.imwrite(str(root / "images" / "train" / "000001.jpg"), img2)
    (root / "meta" / "train" / "000001.json").write_text(json.dumps({"cards": [{"card": "Qh", "box": list(box2)}]}))
    out = cut_pip_set(roots=(root,), out=tmp_path / "pips.npz")
    d = np.load(out)
    assert d["x"].shape == (6, PIP_SIZE, PIP_SIZE) and d["x"].dtype == np.uint8
    assert [PIP_CLASSES[k] for k in d["y"]] == ["c"] * 4 + ["none"] * 2  # a court's blobs are pictures, not pips
    assert d["card"].tolist() == [0, 0, 0, 0, 1, 1]
    with pytest.raises(FileNotFoundError, match="dataset build"):
        cut_pip_set(roots=(tmp_path / "nothing",), out=tmp_path / "none.npz")


def test_the_camera_reads_pips_for_poker_grids_only(tmp_path):
    from assistant.live.app import reader_detector

    models = pip_models(tmp_path)
    assert reader_detector(models, 1, game="poker").pips is not None  # grid cards lie apart, whole
    assert reader_detector(models, 1, game="tommy").pips is None  # a fanned pair boxed together mixes two cards' pips
    assert reader_detector(models, 1).pips is None


def test_wiring_the_pip_look_declares_it_for_the_table_models_too(tmp_path):
    import json

    from vision.training.pips import write_pip_manifest

    (tmp_path / "table").mkdir()
    (tmp_path / "vision.json").write_text(json.dumps({"detector": {"file": "detector.onnx"}}))
    (tmp_path / "table" / "vision.json").write_text(json.dumps({"detector": {"file": "detector.onnx"}}))
    write_pip_manifest(tmp_path, 2.0, 1.5, ["s", "h", "d", "c", "none"], table_weight=3.0)
    main = json.loads((tmp_path / "vision.json").read_text())["pips"]
    table = json.loads((tmp_path / "table" / "vision.json").read_text())["pips"]
    assert main["file"] == "pips.onnx" and table["file"] == "../pips.onnx"
    assert (main["weight"], table["weight"]) == (2.0, 3.0) and main["min_pips"] == table["min_pips"] == 1.5
    (tmp_path / "table" / "vision.json").unlink()
    write_pip_manifest(tmp_path, 1.0, 1.5, ["s", "h", "d", "c", "none"])  # no table folder's manifest: none made
    assert not (tmp_path / "table" / "vision.json").exists()
