"""What is in a model folder: the manifest ``vision.json`` (files, classes, crop recipe) or the plain file names,
and where the default folder is (``$PATIENCE_LENS_MODELS``, else ``models/`` beside the ``vision`` package).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from vision.crops import DEFAULT_PAD, DEFAULT_SIZE, FACE_PAD, FACE_SIZE
from vision.onnx_backend import ModelFileError

MANIFEST = "vision.json"
ENV_MODELS = "PATIENCE_LENS_MODELS"


def default_model_dir() -> Path:
    env = os.environ.get(ENV_MODELS)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "models"


#: The models for reading photos at leisure (``patience detect``, ``--table``, ``score-photo``, ``shuffle-photo``):
#: a detector fine-tuned with fanned hands added (models/README.md, sessions 6, 7 and 26) and a wider index
#: classifier (sessions 13 and 21), sharing the face, suit and pip looks of the camera's.
TABLE_SUBDIR = "table"


def table_model_dir(model_dir: str | Path | None = None) -> Path:
    """The ``table/`` folder inside the model folder when it has one (with a manifest), else the folder itself.

    Every photo read at leisure (``patience detect``, ``score-photo``, ``shuffle-photo``) uses it: its detector
    knows fanned hands too and its index classifier is larger than the camera's 40 ms a frame allows."""
    base = Path(model_dir) if model_dir is not None else default_model_dir()
    sub = base / TABLE_SUBDIR
    return sub if (sub / MANIFEST).is_file() else base


@dataclass(frozen=True)
class ModelSpec:
    """What is in a model folder."""

    detector: Path
    detector_classes: list[str] | None = None
    classifier: Path | None = None
    classifier_classes: list[str] | None = None
    crop_size: int = DEFAULT_SIZE  # the training crops' size; resized to the classifier's input after cutting
    crop_pad: float = DEFAULT_PAD
    # the thin look (classifier keys "thin_weight", "thin_min_px"): clubs against spades settled again on the crop
    # with its ink thinned; weight 0: off
    thin_weight: float = 0.0
    thin_min_px: float = 32.0
    # optional whole-card face classifier (the "second look" at cards boxed whole; manifest key "cardface")
    face: Path | None = None
    face_classes: list[str] | None = None
    face_crop_size: int = FACE_SIZE
    face_crop_pad: float = FACE_PAD
    face_weight: float = 1.0  # exponent of the face probabilities in the product with a corner's
    face_fuse: str = "card"   # "card": all 52 names; "suit" / "rank": that marginal only; "rank+suit": both
    face_suit_weight: float = 1.0  # "rank+suit": the suit marginal's exponent
    # optional suit look: the corner-index crop at a higher resolution, named by suit only (manifest key "suitlook")
    suit: Path | None = None
    suit_classes: list[str] | None = None
    suit_weight: float = 1.0  # exponent of the suit probabilities in the product with a corner's
    suit_below: float = 1.01  # only corners whose own best suit is less sure than this get the suit look
    # optional pip look: the suit of each pip silhouette in a whole card's middle (manifest key "pips")
    pips: Path | None = None
    pip_classes: list[str] | None = None
    pip_weight: float = 1.0  # exponent of a card's pip suit evidence in the product with its corners'
    min_pips: float = 1.0    # the summed pip weight (blobs that look like pips) from which a card's evidence counts fully

    @classmethod
    def from_dir(cls, model_dir: str | Path) -> "ModelSpec":
        d = Path(model_dir)
        if not d.is_dir():
            raise ModelFileError(f"model folder {d} not found: pass --model DIR with detector.onnx (and classifier.onnx)")
        manifest = d / MANIFEST
        if manifest.is_file():
            try:
                m = json.loads(manifest.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise ModelFileError(f"{manifest} is not valid JSON ({exc})") from exc
            det = m.get("detector") or {}
            clf = m.get("classifier") or None
            det_file = d / det.get("file", "detector.onnx")
            clf_file = d / clf.get("file", "classifier.onnx") if clf else None
            face = m.get("cardface") or {}
            suit = m.get("suitlook") or {}
            pips = m.get("pips") or {}
            return cls(detector=det_file, detector_classes=det.get("classes"),
                       classifier=clf_file, classifier_classes=(clf or {}).get("classes"),
                       crop_size=int((clf or {}).get("crop_size", DEFAULT_SIZE)), crop_pad=float((clf or {}).get("crop_pad", DEFAULT_PAD)),
                       thin_weight=float((clf or {}).get("thin_weight", 0.0)),
                       thin_min_px=float((clf or {}).get("thin_min_px", 32.0)),
                       face=d / face["file"] if face.get("file") else None, face_classes=face.get("classes"),
                       face_crop_size=int(face.get("crop_size", FACE_SIZE)), face_crop_pad=float(face.get("crop_pad", FACE_PAD)),
                       face_weight=float(face.get("weight", 1.0)), face_fuse=str(face.get("fuse", "card")),
                       face_suit_weight=float(face.get("suit_weight", face.get("weight", 1.0))),
                       suit=d / suit["file"] if suit.get("file") else None, suit_classes=suit.get("classes"),
                       suit_weight=float(suit.get("weight", 1.0)), suit_below=float(suit.get("below", 1.01)),
                       pips=d / pips["file"] if pips.get("file") else None, pip_classes=pips.get("classes"),
                       pip_weight=float(pips.get("weight", 1.0)), min_pips=float(pips.get("min_pips", 1.0)))
        det_file = d / "detector.onnx"
        if not det_file.is_file():
            onnx = sorted(p for p in d.glob("*.onnx") if "cls" not in p.name and "classif" not in p.name)
            if len(onnx) == 1:
                det_file = onnx[0]
        clf_file = d / "classifier.onnx"
        return cls(detector=det_file, classifier=clf_file if clf_file.is_file() else None)
