"""The suit look: the corner-index crop named by suit at a higher resolution (``models/suitlook.onnx``) and its
fusion into the corner classifier's probabilities (``Detector.fuse_suits``).

No trained weights: the fake models of ``tests/fixtures/fake_models`` (the fake colour classifier stands in for the
suit look's file; its probabilities are given by hand or patched in).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.card_names import CARD_NAMES
from vision.detector import Detector
from vision.onnx_backend import ModelFileError

FAKE = Path(__file__).parent / "fixtures" / "fake_models"
SUITS = ["s", "h", "d", "c"]


def suit_models(tmp_path: Path, weight: float = 1.0, below: float = 1.01, classes=SUITS, none: bool = True) -> Path:
    """The fake models plus a suit look declared in vision.json (the fake classifier's file; never run here).
    ``none``: declare the corner classifier with a 53rd class "none" (the fake one has 52 outputs: only for tests
    that do not run it)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    for f in ("detector.onnx", "classifier.onnx"):
        shutil.copy(FAKE / f, tmp_path / f)
    shutil.copy(FAKE / "classifier.onnx", tmp_path / "suitlook.onnx")
    (tmp_path / "vision.json").write_text(json.dumps({
        "detector": {"file": "detector.onnx"},
        "classifier": {"file": "classifier.onnx", "classes": list(CARD_NAMES) + ["none"] * none},
        "suitlook": {"file": "suitlook.onnx", "classes": list(classes), "weight": weight, "below": below}}))
    return tmp_path


def probs(weights: dict[str, float]) -> np.ndarray:
    """A row over the 52 cards + none, 1e-3 where not given, summing to 1."""
    names = list(CARD_NAMES) + ["none"]
    p = np.full(len(names), 1e-3, np.float32)
    for name, v in weights.items():
        p[names.index(name)] = v
    return p / p.sum()


def crops(n: int) -> list[np.ndarray]:
    return [np.zeros((64, 64, 3), np.uint8) for _ in range(n)]


def test_a_sure_suit_look_turns_a_spade_corner_into_clubs_and_keeps_none(tmp_path):
    det = Detector(model_dir=suit_models(tmp_path))
    assert det.suit is not None
    p = np.stack([probs({"Js": 0.45, "Jc": 0.30, "Qs": 0.05, "none": 0.1}),
                  probs({"7h": 0.5, "7d": 0.4, "none": 0.05})])
    sp = np.array([[0.05, 0.0, 0.0, 0.95],    # clubs
                   [0.0, 0.1, 0.9, 0.0]], np.float32)   # diamonds
    fused = det.fuse_suits(crops(2), p, suit_p=sp)
    assert [det.classifier_names[j] for j in fused.argmax(axis=1)] == ["Jc", "7d"]
    assert np.allclose(fused.sum(axis=1), 1.0, atol=1e-5)
    none = det.classifier_names.index("")
    assert np.allclose(fused[:, none], p[:, none])  # the "not an index" probability is the corner's own
    # the rank stays the corner's: the suit look only moves mass between suits
    assert fused[0, CARD_NAMES.index("Jc")] > fused[0, CARD_NAMES.index("Qc")]


def test_the_weight_and_the_gate_decide_which_corners_change(tmp_path):
    p = probs({"Js": 0.55, "Jc": 0.35})[None]
    leaning = np.array([[0.3, 0.0, 0.0, 0.7]], np.float32)  # clubs, not sure
    weak = Detector(model_dir=suit_models(tmp_path / "a", weight=0.3))
    strong = Detector(model_dir=suit_models(tmp_path / "b", weight=1.0))
    assert weak.classifier_names[weak.fuse_suits(crops(1), p, suit_p=leaning).argmax()] == "Js"
    assert strong.classifier_names[strong.fuse_suits(crops(1), p, suit_p=leaning).argmax()] == "Jc"
    # a corner whose own suit is surer than the gate is not looked at again
    gated = Detector(model_dir=suit_models(tmp_path / "c", weight=1.0, below=0.5))
    assert np.array_equal(gated.fuse_suits(crops(1), p, suit_p=leaning), p)
    # nor is a corner the classifier calls "none"
    nothing = probs({"none": 0.6, "Js": 0.2, "Jc": 0.1})[None]
    assert np.array_equal(strong.fuse_suits(crops(1), nothing, suit_p=leaning), nothing)


def test_the_detector_reads_suits_through_the_suit_look_in_its_pipeline(tmp_path, monkeypatch):
    from tests.test_detector import fake_scene

    plain = Detector(model_dir=FAKE)
    assert plain.suit is None
    det = Detector(model_dir=suit_models(tmp_path, none=False))
    monkeypatch.setattr(det.suit, "probabilities", lambda x: np.full((len(x), 4), 0.25, np.float32))
    assert sorted(det.detect(fake_scene()).names) == sorted(plain.detect(fake_scene()).names) == ["10d", "9s", "Qh"]
    # a suit look sure of clubs for every corner: the red cards' corners, which the fake classifier reads with some
    # doubt, are renamed to clubs (its 9s is so sure that the clubs' 1e-6 floor does not overturn it)
    monkeypatch.setattr(det.suit, "probabilities", lambda x: np.tile([[0.0, 0.0, 0.0, 1.0]], (len(x), 1)).astype(np.float32))
    names = det.detect(fake_scene()).names
    assert "10d" not in names and "Qh" not in names
    assert {n[-1] for n in names if n != "9s"} == {"c"}
    off = Detector(model_dir=suit_models(tmp_path, none=False), suit=False)
    assert off.suit is None


def test_a_suit_look_must_name_the_four_suits(tmp_path):
    with pytest.raises(Exception):
        Detector(model_dir=suit_models(tmp_path, classes=["s", "h", "d", "x"]))
    with pytest.raises(Exception):
        Detector(model_dir=FAKE, suit_model=tmp_path / "missing.onnx")


def test_a_declared_suit_look_whose_file_is_missing_is_skipped_unless_asked_for(tmp_path):
    folder = suit_models(tmp_path)
    (folder / "suitlook.onnx").unlink()
    assert Detector(model_dir=folder).suit is None  # declared, file gone: corners are read without it
    with pytest.raises(ModelFileError, match="suit look .*suitlook.onnx not found"):
        Detector(model_dir=folder, suit=True)
    with pytest.raises(ModelFileError, match="suit look .*other.onnx not found"):
        Detector(model_dir=folder, suit_model=tmp_path / "other.onnx")
    assert Detector(model_dir=suit_models(tmp_path / "b"), suit=False).suit is None
