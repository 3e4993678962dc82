"""Box arithmetic in numpy: IoU, non-maximum suppression, letterbox and its inverse.

Boxes are ``(n, 4)`` float arrays ``x1, y1, x2, y2`` in pixels (x right, y down, x2 > x1).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def long_side(box) -> float:
    """The longer side of one box (x1, y1, x2, y2)."""
    return float(max(box[2] - box[0], box[3] - box[1]))


def card_size(cards) -> float:
    """A card's long side in pixels from the cards read in one picture (objects with ``box`` and ``corners``): the
    median over cards read on both corners (their box is the whole card), else five times the median corner box
    (an index is about a fifth of a card's long side); 0 with no cards."""
    whole = [long_side(c.box) for c in cards if c.corners >= 2]
    if whole:
        return float(np.median(whole))
    part = [long_side(c.box) for c in cards]
    return 5.0 * float(np.median(part)) if part else 0.0


def box_area(xyxy: np.ndarray) -> np.ndarray:
    """(n, 4) -> (n,) areas (0 for degenerate boxes)."""
    xyxy = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    return np.clip(xyxy[:, 2] - xyxy[:, 0], 0, None) * np.clip(xyxy[:, 3] - xyxy[:, 1], 0, None)


def _intersections(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, 4), (m, 4) -> the boxes as float32 arrays and the (n, m) areas of their pairwise intersections."""
    a = np.asarray(a, dtype=np.float32).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float32).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    wh = np.clip(rb - lt, 0, None)
    return a, b, wh[..., 0] * wh[..., 1]


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n, 4), (m, 4) -> (n, m) intersection over union."""
    a, b, inter = _intersections(a, b)
    union = box_area(a)[:, None] + box_area(b)[None, :] - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0).astype(np.float32)


def box_ioa(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n, 4), (m, 4) -> (n, m) intersection over the area of each box of ``a`` (1.0 = a inside b)."""
    a, _, inter = _intersections(a, b)
    return (inter / np.maximum(box_area(a)[:, None], 1e-9)).astype(np.float32)


def nms(xyxy: np.ndarray, confidence: np.ndarray, iou_threshold: float = 0.5,
        class_id: np.ndarray | None = None) -> np.ndarray:
    """Greedy non-maximum suppression. Returns the kept indices, best confidence first.

    With ``class_id`` boxes only suppress boxes of their own class (offset trick: boxes of different classes are
    moved apart so they never overlap).
    """
    xyxy = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    confidence = np.asarray(confidence, dtype=np.float32).reshape(-1)
    if len(xyxy) == 0:
        return np.zeros(0, dtype=np.int64)
    boxes = xyxy
    if class_id is not None:
        span = float(np.abs(xyxy).max()) + 1.0
        boxes = xyxy + (np.asarray(class_id, dtype=np.float32).reshape(-1, 1) * 2 * span)
    order = np.argsort(-confidence, kind="stable")
    keep: list[int] = []
    areas = box_area(boxes)
    while order.size:
        i = order[0]
        keep.append(int(i))
        if order.size == 1:
            break
        rest = order[1:]
        lt = np.maximum(boxes[i, :2], boxes[rest, :2])
        rb = np.minimum(boxes[i, 2:], boxes[rest, 2:])
        wh = np.clip(rb - lt, 0, None)
        inter = wh[:, 0] * wh[:, 1]
        iou = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        order = rest[iou <= iou_threshold]
    return np.asarray(keep, dtype=np.int64)


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the model input: ``input = image * scale + (pad_x, pad_y)``."""

    scale: float
    pad_x: float
    pad_y: float
    input_hw: tuple[int, int]
    image_hw: tuple[int, int]

    def to_image(self, xyxy: np.ndarray) -> np.ndarray:
        """Boxes in model-input pixels -> boxes in image pixels, clipped to the image."""
        out = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        h, w = self.image_hw
        out[:, [0, 2]] = out[:, [0, 2]].clip(0, w)
        out[:, [1, 3]] = out[:, [1, 3]].clip(0, h)
        return out

    def to_input(self, xyxy: np.ndarray) -> np.ndarray:
        """Boxes in image pixels -> boxes in model-input pixels."""
        out = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4).copy()
        out[:, [0, 2]] = out[:, [0, 2]] * self.scale + self.pad_x
        out[:, [1, 3]] = out[:, [1, 3]] * self.scale + self.pad_y
        return out


def letterbox(image: np.ndarray, input_hw: tuple[int, int], color: int = 114,
              max_scale: float | None = None) -> tuple[np.ndarray, Letterbox]:
    """Resize ``image`` (H, W, C) keeping its aspect to fit ``input_hw`` and pad the rest with ``color``, centred.

    Small images are enlarged (a 200 px crop of one card fills the input), at most ``max_scale`` times.
    """
    ih, iw = image.shape[:2]
    th, tw = input_hw
    scale = min(th / ih, tw / iw)
    if max_scale is not None:
        scale = min(scale, max_scale)
    nw, nh = max(1, round(iw * scale)), max(1, round(ih * scale))
    if (nw, nh) != (iw, ih):
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        resized = cv2.resize(image, (nw, nh), interpolation=interp)
    else:
        resized = image
    pad_x, pad_y = (tw - nw) / 2, (th - nh) / 2
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    bottom, right = th - nh - top, tw - nw - left
    out = cv2.copyMakeBorder(resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(color,) * 3)
    # Effective scale per axis can differ by rounding; use the x scale (difference < 1 px).
    return out, Letterbox(scale=nw / iw, pad_x=float(left), pad_y=float(top), input_hw=(th, tw), image_hw=(ih, iw))
