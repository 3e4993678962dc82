"""The corner-index crop recipe shared by training (classifier data) and inference (the detector's second stage).

One function, so that the crops the classifier learns from are cut exactly like the crops it is shown:
a SQUARE around the centre of the index box, side ``max(w, h) * (1 + 2 * pad)``, pixels outside the image
filled by replicating the border, resized to ``size x size`` (INTER_AREA when shrinking, INTER_LINEAR when
enlarging). The classifier's input is that crop as RGB float32 in 0..1, CHW (ultralytics' classify ONNX layout).

Training code should call :func:`index_crop` on ground-truth index boxes with some jitter of the box
(:func:`jitter_box`) so the classifier tolerates detector boxes that are a little off.
"""

from __future__ import annotations

import cv2
import numpy as np

DEFAULT_SIZE = 64
DEFAULT_PAD = 0.15


def square_box(box_xyxy, pad: float = DEFAULT_PAD) -> np.ndarray:
    """The square (x1, y1, x2, y2) float32 cut around ``box_xyxy``: same centre, side ``max(w, h) * (1 + 2 pad)``."""
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * pad) / 2
    return np.array([cx - half, cy - half, cx + half, cy + half], dtype=np.float32)


def index_crop(image: np.ndarray, box_xyxy, size: int = DEFAULT_SIZE, pad: float = DEFAULT_PAD) -> np.ndarray:
    """Cut the square around ``box_xyxy`` out of ``image`` (H, W[, C]) and resize it to (size, size[, C]), same dtype."""
    h, w = image.shape[:2]
    sx1, sy1, sx2, sy2 = square_box(box_xyxy, pad)
    ix1, iy1 = int(np.floor(sx1)), int(np.floor(sy1))
    side = max(int(np.ceil(sx2 - sx1)), 1)
    ix2, iy2 = ix1 + side, iy1 + side
    # The part inside the image (at least one pixel, so replication has something to copy).
    cx1, cy1 = min(max(ix1, 0), w - 1), min(max(iy1, 0), h - 1)
    cx2, cy2 = max(min(ix2, w), cx1 + 1), max(min(iy2, h), cy1 + 1)
    region = image[cy1:cy2, cx1:cx2]
    top, left = max(cy1 - iy1, 0), max(cx1 - ix1, 0)
    bottom, right = max(iy2 - cy2, 0), max(ix2 - cx2, 0)
    if top or left or bottom or right:
        region = cv2.copyMakeBorder(region, top, bottom, left, right, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    return cv2.resize(region, (size, size), interpolation=interp)


def crops_to_tensor(crops_bgr: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(n, size, size, 3) uint8 BGR crops -> (n, 3, size, size) float32 RGB in 0..1 (the classifier's input)."""
    arr = np.asarray(crops_bgr)
    if arr.ndim == 3:
        arr = arr[None]
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def jitter_box(box_xyxy, rng: np.random.Generator, shift: float = 0.1, scale: float = 0.15) -> np.ndarray:
    """A copy of the box moved by up to ``shift`` of its size and resized by up to ``scale`` (for training crops)."""
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-shift, shift) * w
    cy = (y1 + y2) / 2 + rng.uniform(-shift, shift) * h
    w *= 1 + rng.uniform(-scale, scale)
    h *= 1 + rng.uniform(-scale, scale)
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dtype=np.float32)
