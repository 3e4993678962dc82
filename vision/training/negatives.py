"""Crops of things that are NOT a corner index, for the classifier's 53rd class ``none``.

On real photos most false cards come from clutter the detector takes for an index (printed text, patterned cloth,
the court pictures and pips inside a card); the classifier, trained only on indices, then still names one of the 52
cards. Teaching it a ``none`` class lets the pipeline drop such corners. Negatives per rendered scene:

- the detector's own false positives (hard negatives): its ``index`` boxes whose crop window touches no index of the
  scene, covered or not;
- random boxes of the scene's index sizes whose crop window touches no index (card middles, pips, court art,
  backgrounds).

Crops are cut with the training crops' recipe and jitter (``vision.training.scenes.crop_index``) and written to
``crops/<split>/none/n<scene>_<k>.png``, seeded by the scene number, so a rebuild gives the same files.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.card_names import NONE_CLASS

NEGATIVE_PREFIX = "n"
TOUCH = 0.05  # a crop window overlapping an index's box by more than this share of either is not a negative
WINDOW = 1.6  # the largest crop window around a box (training jitter: 1.1-1.6x its long side)


def _index_boxes(meta: dict) -> np.ndarray:
    """Axis-aligned boxes of every index in the scene (covered ones too), (n, 4)."""
    boxes = [(min(p[0] for p in ix["quad"]), min(p[1] for p in ix["quad"]),
              max(p[0] for p in ix["quad"]), max(p[1] for p in ix["quad"])) for ix in meta["indices"]]
    return np.asarray(boxes, np.float32).reshape(-1, 4)


def window(box, expand: float = WINDOW) -> tuple[float, float, float, float]:
    """The square a crop of ``box`` may show: side ``expand`` x its long side, on its centre."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = expand * max(box[2] - box[0], box[3] - box[1]) / 2
    return cx - r, cy - r, cx + r, cy + r


def touches(box, boxes: np.ndarray, share: float = TOUCH) -> bool:
    """Does ``box`` overlap any of ``boxes`` by more than ``share`` of the smaller of the two areas?"""
    if not len(boxes):
        return False
    x0 = np.maximum(box[0], boxes[:, 0])
    y0 = np.maximum(box[1], boxes[:, 1])
    x1 = np.minimum(box[2], boxes[:, 2])
    y1 = np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return bool(np.any(inter > share * np.maximum(np.minimum(area, areas), 1e-6)))


def random_boxes(rng: np.random.Generator, hw: tuple[int, int], index_boxes: np.ndarray, n: int,
                 tries: int = 50) -> list[tuple[float, float, float, float]]:
    """Up to ``n`` boxes shaped like the scene's indices (10-60 px when it has none) that touch no index."""
    h, w = hw
    if len(index_boxes):
        sizes = np.stack([index_boxes[:, 2] - index_boxes[:, 0], index_boxes[:, 3] - index_boxes[:, 1]], 1)
        sizes = sizes[sizes.max(1) >= 8] if (sizes.max(1) >= 8).any() else sizes
    else:
        sizes = np.array([[20.0, 40.0]])
    out = []
    for _ in range(tries):
        if len(out) >= n:
            break
        bw, bh = sizes[rng.integers(len(sizes))] * rng.uniform(0.7, 1.5)
        if rng.random() < 0.5:
            bw, bh = bh, bw
        if bw >= w or bh >= h:
            continue
        x0, y0 = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
        box = (x0, y0, x0 + bw, y0 + bh)
        if not touches(window(box), index_boxes):
            out.append(box)
    return out


def scene_negatives(image: np.ndarray, meta: dict, rng: np.random.Generator, detected: np.ndarray | None = None,
                    n_random: int = 2, n_hard: int = 5, min_px: float = 8.0) -> list[np.ndarray]:
    """Negative crops (64x64 BGR) of one scene: up to ``n_hard`` detector boxes that touch no index (highest score
    first; ``detected`` (m, 5) = x0 y0 x1 y1 score) and ``n_random`` random boxes."""
    from vision.training.scenes import crop_index

    idx = _index_boxes(meta)
    boxes: list = []
    if detected is not None and len(detected):
        for row in detected[np.argsort(-detected[:, 4])]:
            b = row[:4]
            if max(b[2] - b[0], b[3] - b[1]) >= min_px and not touches(window(b), idx):
                boxes.append(tuple(float(v) for v in b))
            if len(boxes) >= n_hard:
                break
    boxes += random_boxes(rng, image.shape[:2], idx, n_random)
    return [crop_index(image, b, jitter=(rng, 0.08, 1.1, 1.6)) for b in boxes]


def build_negatives(build: Path, split: str, detector_path: Path | None = None, seed: int = 0,
                    n_random: int = 2, n_hard: int = 5, limit: int | None = None, progress=None) -> int:
    """Write negative crops for every scene of ``build/detect/images/<split>`` that has meta; resumable (scenes with
    a crop already written are skipped). ``detector_path``: the ONNX detector whose false positives are mined
    (None: random boxes only). Returns the number of crops written."""
    import cv2

    from vision.onnx_backend import OnnxYolo

    images = sorted((build / "detect" / "images" / split).glob("*.jpg"))[:limit]
    out = build / "crops" / split / NONE_CLASS
    out.mkdir(parents=True, exist_ok=True)
    yolo = OnnxYolo(detector_path, conf_threshold=0.05) if detector_path is not None else None
    index_class = yolo.classes.index("index") if yolo is not None and "index" in yolo.classes else 0
    done = {p.name.split("_")[0][len(NEGATIVE_PREFIX):] for p in out.glob(f"{NEGATIVE_PREFIX}*_*.png")}
    written = 0
    for k, path in enumerate(images):
        if progress is not None:
            progress(k, len(images))
        meta_file = build / "detect" / "meta" / split / f"{path.stem}.json"
        if not meta_file.is_file() or path.stem in done:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        meta = json.loads(meta_file.read_text())
        detected = None
        if yolo is not None:
            d = yolo.detect(image)
            d = d[d.class_id == index_class]
            detected = np.concatenate([d.xyxy, d.confidence[:, None]], 1) if len(d) else None
        rng = np.random.default_rng([seed, int(path.stem)])
        for j, crop in enumerate(scene_negatives(image, meta, rng, detected, n_random, n_hard)):
            cv2.imwrite(str(out / f"{NEGATIVE_PREFIX}{path.stem}_{j}.png"), crop)
            written += 1
    if progress is not None:
        progress(len(images), len(images))
    return written
