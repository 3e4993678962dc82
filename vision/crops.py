"""The corner-index crop recipe shared by training (classifier data) and inference (the detector's second stage).

One function, so that the crops the classifier learns from are cut exactly like the crops it is shown:
a SQUARE around the centre of the index box, side ``max(w, h) * (1 + 2 * pad)``, pixels outside the image
filled by replicating the border, warped to ``size x size``. The classifier's input is that crop (resized to the
classifier's input size when that differs from the 64 px training crops) as RGB float32 in 0..1, CHW
(ultralytics' classify ONNX layout). The training side cuts its crops with ``vision.training.scenes.crop_index``
(``CROP_SIZE = 64``, ``CROP_EXPAND = 1.3``); ``tests/test_detections.py`` checks the two agree.
"""

from __future__ import annotations

import cv2
import numpy as np

DEFAULT_SIZE = 64
DEFAULT_PAD = 0.15
# Whole-card crops for the face classifier ("second look" at a card the detector boxes whole): the square around
# the detector's axis-aligned ``card`` box plus a thin margin, any rotation, cut like the index crops.
FACE_SIZE = 64
FACE_PAD = 0.04


def square_box(box_xyxy, pad: float = DEFAULT_PAD) -> np.ndarray:
    """The square (x1, y1, x2, y2) float32 cut around ``box_xyxy``: same centre, side ``max(w, h) * (1 + 2 pad)``."""
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * pad) / 2
    return np.array([cx - half, cy - half, cx + half, cy + half], dtype=np.float32)


def index_crop(image: np.ndarray, box_xyxy, size: int = DEFAULT_SIZE, pad: float = DEFAULT_PAD) -> np.ndarray:
    """Cut the square around ``box_xyxy`` out of ``image`` (H, W[, C]) and resize it to (size, size[, C]), same dtype.

    One affine warp, the same arithmetic as the training crops (``vision.training.scenes.crop_index`` with
    ``expand = 1 + 2 * pad``): centre of the box, side ``expand * max(w, h)`` (at least 2 px), edge pixels
    replicated outside the picture.
    """
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max((1 + 2 * pad) * max(x2 - x1, y2 - y1), 2.0)
    s = size / side
    m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float32)
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def face_crop(image: np.ndarray, box_xyxy, size: int = FACE_SIZE, pad: float = FACE_PAD) -> np.ndarray:
    """The face classifier's crop of one whole-card box: the square around ``box_xyxy`` (side ``max(w, h)`` plus
    ``pad`` each side), any rotation, warped to ``size`` px; what inference can compute from the detector's box.
    Training cuts its crops with this same function (``vision.training.faces``)."""
    return index_crop(image, box_xyxy, size, pad)


def thinned(crop: np.ndarray) -> np.ndarray:
    """The crop with its ink a pixel thinner (a 3x3 grey dilation: the light paper grows into the dark strokes).
    The thin look reads it: bold clubs that the classifier takes for spades read right thinner."""
    return cv2.dilate(crop, np.ones((3, 3), np.uint8))


def resize_crops(crops: list[np.ndarray], size: int) -> list[np.ndarray]:
    """Crops cut at the training crop size, brought to the classifier's input size (area filter when shrinking)."""
    if not crops or crops[0].shape[0] == size:
        return crops
    interp = cv2.INTER_AREA if crops[0].shape[0] > size else cv2.INTER_LINEAR
    return [cv2.resize(c, (size, size), interpolation=interp) for c in crops]


def crops_to_tensor(crops_bgr: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(n, size, size, 3) uint8 BGR crops -> (n, 3, size, size) float32 RGB in 0..1 (the classifier's input)."""
    arr = np.asarray(crops_bgr)
    if arr.ndim == 3:
        arr = arr[None]
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
