"""Whole-card crops for the face classifier (``patience dataset faces``): the "second look" at cards seen whole.

Every rendered scene's meta file (``detect/meta/<split>/NNNNNN.json``, written by ``vision.training.synth``) lists
the faces that are at least 90 % visible with their axis-aligned box (``cards``: card, box) — the same thing the
detector's ``card`` class finds. For each such card at least ``min_px`` long, ``per_card`` crops are cut from the
saved picture with ``vision.crops.face_crop`` around a jittered box (centre +-``shift`` of the side, side x
``scale``), as the detector's boxes are never exact, and written to ``<dest>/<card>/NNNNNN_K_J.png`` (64 px).
The crop is computable at inference from the detector's box and the image alone (no upright warping).

Deterministic (crop ``NNNNNN_K_J`` from ``default_rng([seed, NNNNNN, K, J])``) and resumable (existing files are
kept). ``train`` crops come from training designs, ``val`` from held-out designs, as the scenes do.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.card_names import CARD_NAMES, normalize_card
from vision.crops import FACE_PAD, FACE_SIZE, face_crop

MIN_FACE_PX = 24.0  # smaller whole cards (longest side of the box, picture px) give no crop
SHIFT = 0.04
SCALE = (0.93, 1.1)


def jitter_box(box, rng: np.random.Generator, shift: float = SHIFT, scale: tuple[float, float] = SCALE) -> np.ndarray:
    """``box`` (x0, y0, x1, y1) moved by up to ``shift`` of its size and scaled by ``scale`` about its centre."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-shift, shift) * w
    cy = (y0 + y1) / 2 + rng.uniform(-shift, shift) * h
    s = rng.uniform(*scale)
    return np.array([cx - s * w / 2, cy - s * h / 2, cx + s * w / 2, cy + s * h / 2], np.float32)


def write_face_crops(build: Path, split: str, dest: Path, per_card: int = 1, seed: int = 0,
                     min_px: float = MIN_FACE_PX, progress=None) -> int:
    """Cut the whole-card crops of one split of a built scene set into ``dest/<card>/``; returns crops written."""
    import cv2

    build = Path(build)
    detect = build / "detect" if (build / "detect").is_dir() else build
    metas = sorted((detect / "meta" / split).glob("*.json"))
    for c in CARD_NAMES:
        (Path(dest) / c).mkdir(parents=True, exist_ok=True)
    made = 0
    for n, mf in enumerate(metas):
        if not (detect / "labels" / split / (mf.stem + ".txt")).is_file():
            continue  # still being rendered
        cards = json.loads(mf.read_text()).get("cards", [])
        img = None
        for k, c in enumerate(cards):
            box = np.asarray(c["box"], np.float32)
            if max(box[2] - box[0], box[3] - box[1]) < min_px:
                continue
            name = normalize_card(c["card"])
            for j in range(per_card):
                out = Path(dest) / name / f"{mf.stem}_{k}_{j}.png"
                if out.exists():
                    continue
                if img is None:
                    img = cv2.imread(str(detect / "images" / split / (mf.stem + ".jpg")), cv2.IMREAD_COLOR)
                rng = np.random.default_rng([seed, int(mf.stem), k, j])
                cv2.imwrite(str(out), face_crop(img, jitter_box(box, rng), FACE_SIZE, FACE_PAD))
                made += 1
        if progress:
            progress(n + 1, len(metas))
    return made
