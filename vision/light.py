"""Dim pictures brightened before the cards are read: a room lit by one lamp, a webcam's short exposure.

The models were trained on rendered tables whose card paper is at least about 140 of 255 bright; in a dimmer
picture the paper is grey and the indices lose contrast. Real development photos made a third as bright were read 95.8 % right (ranks) instead of
98.5 %, half as bright 97.2 %; brightened so that their paper is white again, 98.7 % and 98.5 % (docs/BENCHMARKS.md,
"Real photos made harder"). A picture whose paper is already bright is left exactly as it is, so every figure
measured on such pictures stands; a brightened picture is no longer dim, so brightening twice changes nothing
(unless the gain was capped: a nearly black picture). ``Detector.prepare`` brightens, then sharpens
(``vision.focus``).
"""
from __future__ import annotations

import numpy as np

# A picture is dim when its bright end (the 99.9th percentile of each pixel's brightest channel: the card paper)
# is below this. The 99.9th, not a lower one: at the start of a Sir Tommy game one small card may be all the paper
# in a webcam frame (0.4 % of it), and a frame read as dim from its table was brightened into misreading it.
# 140, not higher: the renderer's light goes down to about 140 and the models read such pictures as trained
# (brightening the rendered grids at 178-185 lost cells); real photos made half / a third as bright are at 88-139 /
# 61-98, real photos as they are at 174-255.
DIM_LEVEL = 140.0
MAX_GAIN = 4.0      # at most this much brighter: a nearly black frame (a covered lens) stays dark, not noise
MIN_LEVEL = 16.0    # a frame darker than this at its bright end is left alone (nothing to see)
SAMPLE_PIXELS = 20_000  # the level is read on about this many pixels, evenly spread (well under 1 ms at any size)


def paper_level(image_bgr: np.ndarray) -> float:
    """The picture's bright end: the 99.9th percentile of each pixel's brightest channel, read on a nearest-pixel
    thumbnail of about ``SAMPLE_PIXELS``."""
    import cv2

    h, w = image_bgr.shape[:2]
    f = min(1.0, (SAMPLE_PIXELS / max(h * w, 1)) ** 0.5)
    small = cv2.resize(image_bgr, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_NEAREST)
    if small.ndim == 3:
        small = cv2.max(cv2.max(small[..., 0], small[..., 1]), small[..., 2])
    counts = np.cumsum(np.bincount(small.ravel(), minlength=256))
    return float(np.searchsorted(counts, 0.999 * counts[-1]))


def is_dim(level: float) -> bool:
    """A picture whose paper is at ``level`` (``paper_level``) is brightened: under ``DIM_LEVEL``, and not so dark
    that there is nothing to see."""
    return MIN_LEVEL <= level < DIM_LEVEL


def brightened(image_bgr: np.ndarray) -> np.ndarray:
    """The picture made brighter, so that its paper is white, when it is dim (``DIM_LEVEL``); else the same array."""
    import cv2

    level = paper_level(image_bgr)
    if not is_dim(level):
        return image_bgr
    gain = min(MAX_GAIN, 255.0 / level)
    return cv2.LUT(image_bgr, np.clip(np.arange(256, dtype=np.float32) * gain, 0, 255).astype(np.uint8))


def dim_note(image_bgr: np.ndarray) -> str | None:
    """A line for the player when the picture is read brightened (``brightened``); None otherwise."""
    level = paper_level(image_bgr)
    if not is_dim(level):
        return None
    return (f"the photo is dim (its brightest paper at {level / 255:.0%} of white): read brightened; more light "
            "reads better")
