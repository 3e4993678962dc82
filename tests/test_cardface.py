"""The second look at whole cards: the face crop (``vision.crops.face_crop``), its training writer
(``vision.training.faces``) and the fusion of face and corner probabilities (``Detector.fuse_faces``).

No artwork and no trained weights: the fake models of ``tests/fixtures/fake_models`` (the fake colour classifier
stands in for the face classifier) and probabilities given by hand.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card_names import CARD_NAMES
from vision.crops import FACE_PAD, face_crop
from vision.detections import Detections
from vision.detector import Detector

FAKE = Path(__file__).parent / "fixtures" / "fake_models"


def models_with_look(tmp_path: Path, key: str, look: dict) -> Path:
    """The fake models plus a second look declared in vision.json under ``key`` (``look``: its entry, whose
    ``file`` is a copy of the fake colour classifier)."""
    for f in ("detector.onnx", "classifier.onnx"):
        shutil.copy(FAKE / f, tmp_path / f)
    shutil.copy(FAKE / "classifier.onnx", tmp_path / look["file"])
    (tmp_path / "vision.json").write_text(json.dumps({
        "detector": {"file": "detector.onnx"},
        "classifier": {"file": "classifier.onnx", "classes": list(CARD_NAMES)},
        key: look}))
    return tmp_path


def face_models(tmp_path: Path, fuse: str = "card", weight: float = 1.0) -> Path:
    """The fake models plus a face classifier (the fake colour classifier again) declared in vision.json."""
    return models_with_look(tmp_path, "cardface", {"file": "cardface.onnx", "classes": list(CARD_NAMES),
                                                   "weight": weight, "fuse": fuse})


def one_card_boxes() -> Detections:
    """Two corner indices inside one whole-card box, and a third corner outside it."""
    xyxy = np.array([[100, 100, 120, 130],   # corner 0, inside the card box
                     [180, 240, 200, 270],   # corner 1, inside
                     [400, 100, 420, 130],   # corner 2, no card box around it
                     [95, 95, 205, 275]],    # the whole-card box
                    np.float32)
    return Detections(xyxy=xyxy, confidence=np.array([0.9, 0.8, 0.7, 0.85], np.float32),
                      class_id=np.array([0, 0, 0, 1], np.int64), data={})


def corner_probs(n_cols: int, weights: dict[str, float]) -> np.ndarray:
    p = np.full(n_cols, 1e-3, np.float32)
    for name, v in weights.items():
        p[CARD_NAMES.index(name)] = v
    return p / p.sum()


def test_face_crop_is_the_square_around_the_card_box_with_a_thin_margin():
    img = np.zeros((300, 400, 3), np.uint8)
    cv2.rectangle(img, (150, 100), (209, 199), (0, 0, 255), -1)   # a 60 x 100 red "card"
    crop = face_crop(img, (150, 100, 210, 200), size=64)
    assert crop.shape == (64, 64, 3)
    red = crop[..., 2] > 128
    rows, cols = np.flatnonzero(red.any(axis=1)), np.flatnonzero(red.any(axis=0))
    side = 100 * (1 + 2 * FACE_PAD)  # the square's side in picture pixels: the long side plus the margins
    assert rows.max() - rows.min() + 1 == pytest.approx(64 * 100 / side, abs=1.5)
    assert cols.max() - cols.min() + 1 == pytest.approx(64 * 60 / side, abs=1.5)
    assert not red[0].any() and not red[:, 0].any()  # a margin all round; the short side centred
    assert (rows.min() + rows.max()) / 2 == pytest.approx(31.5, abs=1) and (cols.min() + cols.max()) / 2 == pytest.approx(31.5, abs=1)
    # a box running off the picture: border pixels replicated, same size
    assert face_crop(img, (-50, -50, 60, 120)).shape == (64, 64, 3)


def test_the_face_crop_writer_cuts_every_whole_card_from_the_scene_meta(tmp_path):
    from vision.training.faces import write_face_crops

    build = tmp_path / "build" / "detect"
    for sub in ("images", "labels", "meta"):
        (build / sub / "val").mkdir(parents=True)
    img = np.full((240, 320, 3), 30, np.uint8)
    cv2.rectangle(img, (40, 30), (119, 139), (255, 255, 255), -1)
    cv2.imwrite(str(build / "images" / "val" / "000003.jpg"), img)
    (build / "labels" / "val" / "000003.txt").write_text("")
    (build / "meta" / "val" / "000003.json").write_text(json.dumps({"cards": [
        {"card": "Jc", "box": [40, 30, 120, 140]},
        {"card": "2h", "box": [200, 200, 215, 218]}]}))  # under 24 px: too small, no crop
    dest = tmp_path / "faces" / "val"
    assert write_face_crops(tmp_path / "build", "val", dest, per_card=2) == 2
    files = sorted(p.name for p in (dest / "Jc").glob("*.png"))
    assert files == ["000003_0_0.png", "000003_0_1.png"] and not list((dest / "2h").glob("*.png"))
    crop = cv2.imread(str(dest / "Jc" / files[0]))
    assert crop.shape == (64, 64, 3) and crop[32, 32].min() > 200  # the white card in the middle
    first = (dest / "Jc" / files[0]).read_bytes()
    (dest / "Jc" / files[0]).unlink()
    assert write_face_crops(tmp_path / "build", "val", dest, per_card=2) == 1  # resumes; the same crop again
    assert (dest / "Jc" / files[0]).read_bytes() == first


def test_a_strong_face_turns_a_weak_spade_corner_into_clubs(tmp_path):
    det = Detector(model_dir=face_models(tmp_path))
    assert det.face is not None
    n_cols = len(det.classifier_names)
    boxes = one_card_boxes()
    idx = np.array([0, 1, 2])
    weak_js = corner_probs(n_cols, {"Js": 0.40, "Jc": 0.30, "Qs": 0.1})
    p = np.stack([weak_js, weak_js, weak_js])
    face = corner_probs(52, {"Jc": 0.80, "Js": 0.05, "Qc": 0.05})[None]  # the one card box: clubs, clearly
    fused = det.fuse_faces(None, boxes, idx, p, face_p=face)
    names = [det.classifier_names[j] for j in fused.argmax(axis=1)]
    assert names == ["Jc", "Jc", "Js"]  # the corner outside the card box keeps its own reading
    assert np.allclose(fused.sum(axis=1), 1.0, atol=1e-5)
    assert np.array_equal(fused[2], p[2])
    # a corner that is sure of itself is not overruled by a face that only leans the other way
    sure = corner_probs(n_cols, {"Js": 0.97})[None]
    leaning = corner_probs(52, {"Jc": 0.6, "Js": 0.3})[None]
    assert det.classifier_names[det.fuse_faces(None, boxes, idx[:1], sure, face_p=leaning).argmax()] == "Js"


def test_suit_fusion_takes_only_the_faces_suit(tmp_path):
    det = Detector(model_dir=face_models(tmp_path, fuse="suit"))
    n_cols = len(det.classifier_names)
    p = corner_probs(n_cols, {"Js": 0.40, "Jc": 0.30, "Qc": 0.25})[None]
    face = corner_probs(52, {"2c": 0.45, "5c": 0.45})[None]  # clubs, and a wrong rank
    fused = det.fuse_faces(None, one_card_boxes(), np.array([0]), p, face_p=face)
    assert det.classifier_names[fused.argmax()] == "Jc"  # the rank stays the corner's


def test_without_a_face_model_the_corners_are_read_as_before(tmp_path):
    plain = Detector(model_dir=FAKE)
    assert plain.face is None
    p = corner_probs(len(plain.classifier_names), {"Js": 0.40, "Jc": 0.30})[None]
    assert np.array_equal(plain.fuse_faces(None, one_card_boxes(), np.array([0]), p), p)
    off = Detector(model_dir=face_models(tmp_path), face=False)
    assert off.face is None
    from tests.test_detector import fake_scene

    assert sorted(off.detect(fake_scene()).names) == sorted(plain.detect(fake_scene()).names) == ["10d", "9s", "Qh"]


def test_the_detector_fuses_the_face_of_the_card_box_in_its_pipeline(tmp_path, monkeypatch):
    from tests.test_detector import fake_scene

    det = Detector(model_dir=face_models(tmp_path))
    uniform = lambda image, b: np.full((len(b), 52), 1 / 52, np.float32)  # noqa: E731
    monkeypatch.setattr(det, "face_probabilities", uniform)
    assert sorted(det.detect(fake_scene()).names) == ["10d", "9s", "Qh"]  # a face with no opinion changes nothing
    # a face sure of the 8h (the fake corner classifier's second choice for the queen's corners, ~2 %)
    sure_8h = lambda image, b: np.tile(corner_probs(52, {"8h": 1.0}), (len(b), 1))  # noqa: E731
    monkeypatch.setattr(det, "face_probabilities", sure_8h)
    r = det.detect(fake_scene())
    idx = r.detections[r.detections.data["label"] == "index"]
    # the two queen corners sit in the whole-card box: renamed by the face; the 9s and 10d corners are outside it
    assert sorted(idx.data["card"].tolist()) == ["10d", "8h", "8h", "9s"]
    with pytest.raises(Exception):
        Detector(model_dir=FAKE, face_model=tmp_path / "missing.onnx")
