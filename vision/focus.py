"""Soft pictures sharpened before the cards are read: a webcam that cannot focus on a card held up close, a phone
photo taken in a hurry.

How soft a picture is: its steepest edges (the 99.9th percentile of the brightness step between neighbouring
pixels, on every fourth row) against its contrast (the 1st to 99.5th percentile of brightness). A sharp card edge or
index steps most of the contrast in a pixel or two (real development photos: 0.38 and more in 95 % of them); the
same photos blurred by 1.2 / 2 / 3 px are at about 0.24 / 0.16 / 0.11. A picture under ``SOFT`` gets an unsharp
mask whose radius grows as the edges soften. A picture whose edges are steep is left exactly as it is.
Measured in docs/BENCHMARKS.md, "Real photos made harder".
"""
from __future__ import annotations

import numpy as np

SOFT = 0.3          # edge steepness below which a picture is sharpened
ROW_STEP = 4        # the steps are read on every fourth row (about half a millisecond for a 640x480 frame)
MEASURE_SIDE = 1280  # a larger picture is judged shrunk to this long side: its cards are read from shrunk crops,
                     # so the softness of a phone photo's pixels does not matter (mask radius scaled up to match)
MIN_CONTRAST = 24   # a picture with less contrast than this (grey levels) has no edges worth measuring
MIN_SIDE = 8        # ... nor has a picture narrower than this


def edge_steepness(image_bgr: np.ndarray) -> float:
    """The steepest brightness steps between neighbouring pixels (99.9th percentile) over the picture's contrast:
    about 1 for crisp print, lower the softer the picture (judged at most ``MEASURE_SIDE`` px long). ``inf`` for
    a picture without contrast."""
    import cv2

    if min(image_bgr.shape[:2]) < MIN_SIDE:
        return float("inf")  # too small to have edges worth measuring
    scale = MEASURE_SIDE / max(image_bgr.shape[:2])
    if scale < 1.0:
        image_bgr = cv2.resize(image_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rows = image_bgr[::ROW_STEP, :, 1] if image_bgr.ndim == 3 else image_bgr[::ROW_STEP]  # green: the sharpest
    rows = np.ascontiguousarray(rows)
    steps = cv2.absdiff(rows[:, 1:], rows[:, :-1])
    counts = np.cumsum(np.bincount(steps.ravel(), minlength=256))
    steepest = float(np.searchsorted(counts, 0.999 * counts[-1]))
    levels = np.cumsum(np.bincount(rows[:, ::4].ravel(), minlength=256))
    contrast = float(np.searchsorted(levels, 0.995 * levels[-1]) - np.searchsorted(levels, 0.01 * levels[-1]))
    return steepest / contrast if contrast >= MIN_CONTRAST else float("inf")


def sharpened(image_bgr: np.ndarray) -> np.ndarray:
    """The picture with an unsharp mask when it is soft (``SOFT``); else the same array. The mask's radius is
    0.33 / steepness (1.5-3 px at the measured size) and its amount 0.5 + radius / 2: a blurrier picture gets a
    wider, stronger one."""
    import cv2

    steep = edge_steepness(image_bgr)
    if steep >= SOFT:
        return image_bgr
    radius = float(np.clip(0.33 / max(steep, 1e-3), 1.5, 3.0))
    amount = 0.5 + radius / 2.0
    blurred = cv2.GaussianBlur(image_bgr, (0, 0), radius * max(1.0, max(image_bgr.shape[:2]) / MEASURE_SIDE))
    return cv2.addWeighted(image_bgr, 1.0 + amount, blurred, -amount, 0)


def soft_note(image_bgr: np.ndarray) -> str | None:
    """A line for the player when the picture is read sharpened (``sharpened``); None otherwise."""
    if edge_steepness(image_bgr) >= SOFT:
        return None
    return "the photo is soft (its edges blurred: focus, shake or a low-resolution camera): read sharpened"
