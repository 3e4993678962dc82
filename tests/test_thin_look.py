"""The thin look: clubs against spades settled again on the corner crop with its ink a pixel thinner
(``Detector.settle_black_suits``, declared for the photo models by ``thin_weight`` in vision.json).

No trained weights: the fake models of ``tests/fixtures/fake_models``, the classifier's answers given by hand.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES
from vision.crops import thinned
from vision.detector import Detector

FAKE = Path(__file__).parent / "fixtures" / "fake_models"
NAMES = list(CARD_NAMES) + ["none"]


def thin_models(tmp_path: Path, weight: float = 0.5, min_px: float = 32) -> Path:
    """The fake models with the thin look declared (a 53rd class "none": the classifier is never run here)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    for f in ("detector.onnx", "classifier.onnx"):
        shutil.copy(FAKE / f, tmp_path / f)
    (tmp_path / "vision.json").write_text(json.dumps({
        "detector": {"file": "detector.onnx"},
        "classifier": {"file": "classifier.onnx", "classes": NAMES, "thin_weight": weight, "thin_min_px": min_px}}))
    return tmp_path


def probs(weights: dict[str, float]) -> np.ndarray:
    """A row over the 52 cards + none, 1e-3 where not given, summing to 1."""
    p = np.full(len(NAMES), 1e-3, np.float32)
    for name, v in weights.items():
        p[NAMES.index(name)] = v
    return p / p.sum()


def crops(n: int) -> list[np.ndarray]:
    return [np.full((64, 64, 3), 255, np.uint8) for _ in range(n)]


class Looks:
    """Stands in for the classifier's second run: answers ``rows`` and counts the crops it was shown."""

    def __init__(self, rows: np.ndarray):
        self.rows, self.seen = rows, 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        self.seen += len(x)
        return self.rows[:len(x)]


def test_a_club_read_as_a_spade_reads_as_a_club_when_its_thinner_ink_says_so(tmp_path, monkeypatch):
    det = Detector(model_dir=thin_models(tmp_path))
    first = probs({"Js": 0.6, "Jc": 0.2, "Qs": 0.05, "none": 0.1})[None]
    monkeypatch.setattr(det.classifier, "probabilities", Looks(probs({"Jc": 0.9, "Js": 0.02})[None]))
    settled = det.settle_black_suits(crops(1), np.array([[0, 0, 40, 40]], np.float64), first)
    assert NAMES[settled.argmax()] == "Jc"
    # each rank's spade + club total, the red cards and "none" stay the first look's: only spades and clubs trade
    for rank in ("J", "Q", "A", "10"):
        s, c = NAMES.index(rank + "s"), NAMES.index(rank + "c")
        assert np.isclose(settled[0, s] + settled[0, c], first[0, s] + first[0, c])
    red = [j for j, n in enumerate(NAMES) if n[-1] in "hd" or n == "none"]
    assert np.array_equal(settled[0, red], first[0, red])
    js, jc = NAMES.index("Js"), NAMES.index("Jc")
    # the split is that of both looks' probabilities averaged, the thin one's with weight 0.5
    both = 0.5 * first[0] + 0.5 * probs({"Jc": 0.9, "Js": 0.02})
    assert np.isclose(settled[0, jc] / (settled[0, js] + settled[0, jc]), both[jc] / (both[js] + both[jc]))


def test_small_corners_and_corners_of_no_black_card_are_not_looked_at_again(tmp_path, monkeypatch):
    det = Detector(model_dir=thin_models(tmp_path, min_px=32))
    looks = Looks(np.tile(probs({"Jc": 0.9})[None], (3, 1)))
    monkeypatch.setattr(det.classifier, "probabilities", looks)
    first = np.stack([probs({"Js": 0.8}), probs({"Js": 0.8}), probs({"7h": 0.6, "7d": 0.3})])
    boxes = np.array([[0, 0, 20, 30], [0, 0, 40, 40], [0, 0, 40, 40]], np.float64)  # 30 px, 40 px, 40 px
    settled = det.settle_black_suits(crops(3), boxes, first)
    assert looks.seen == 1  # only the big black corner
    assert np.array_equal(settled[[0, 2]], first[[0, 2]])
    assert NAMES[settled[1].argmax()] == "Jc"


def test_the_thin_look_is_off_unless_the_model_folder_declares_it(tmp_path):
    assert Detector(model_dir=FAKE).thin_weight == 0  # the camera's models: one classifier run a corner
    det = Detector(model_dir=thin_models(tmp_path), thin_weight=0)
    assert det.thin_weight == 0
    assert Detector(model_dir=thin_models(tmp_path / "b", weight=0.7)).thin_weight == 0.7


def test_thinned_ink_loses_a_pixel_on_each_side_and_hairlines_vanish():
    crop = np.full((16, 16, 3), 255, np.uint8)
    crop[2:14, 3:8] = 0    # a bar 5 px wide
    crop[2:14, 11] = 0     # a hairline
    thin = thinned(crop)
    assert (thin[8, :, 0] == 0).sum() == 3
    assert (thin[:, 11, 0] == 255).all()


def test_writing_the_manifest_again_keeps_the_thin_look_and_the_pip_look(tmp_path):
    from vision.training.train import write_manifest

    (tmp_path / "vision.json").write_text(json.dumps({
        "detector": {"file": "detector.onnx"},
        "classifier": {"file": "classifier.onnx", "thin_weight": 0.5, "thin_min_px": 32},
        "pips": {"file": "../pips.onnx", "weight": 3.0}}))
    m = json.loads(write_manifest(out=tmp_path).read_text())
    assert m["classifier"]["thin_weight"] == 0.5 and m["classifier"]["thin_min_px"] == 32
    assert m["pips"]["weight"] == 3.0
