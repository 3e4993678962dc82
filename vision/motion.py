"""Is the table still, and where does it move? A motion gate on small grey frames.

Hands, a card being carried, camera shake and a sudden light change all show as changed pixels between frames;
a still table (sensor noise aside, which the blur removes) shows almost none. ``Motion.mask`` says where: a card
is read only where nothing moves around it (a hand leaving at one side of the table does not stop the other side
from being read), and the whole picture counts as moving when much of it changes (the camera or the light).
"not seen" while a hand is in view never counts as "removed".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WIDTH = 160  # frames are compared at this width: cheap (~1 ms) and blind to sensor noise after the blur
LEVEL = 18  # grey levels of change that count as a changed pixel
SHARE = 0.002  # changed share of the picture above which the table is moving (a card is ~1 % of a frame)
LAG = 2  # compare with the frame this many steps back, to catch slow movements too
SETTLE = 2  # quiet frames in a row before the table counts as still


WHOLE = 0.25  # a change over this share of the picture: the camera or the light moved, nothing can be read
GROW = 3  # changed pixels are grown by this many small-frame pixels (about a finger's width at 160 px)


@dataclass(frozen=True)
class Motion:
    moving: bool  # something is moving (or the table has not been still for SETTLE frames yet)
    changed: float  # share of changed pixels, 0..1
    still_for: int  # quiet frames in a row so far (0 while moving)
    mask: np.ndarray | None = None  # changed pixels (grown), at the small size; None when nothing changed
    scale: float = 1.0  # small-frame pixels per picture pixel

    def still_at(self, box) -> bool:
        """Nothing moves inside ``box`` (x1, y1, x2, y2 in picture pixels) or just around it."""
        if self.changed >= WHOLE:
            return False
        if self.mask is None:
            return True
        h, w = self.mask.shape
        x1, y1, x2, y2 = (int(round(v * self.scale)) for v in box)
        x1, y1 = max(0, x1 - 1), max(0, y1 - 1)
        x2, y2 = min(w, x2 + 2), min(h, y2 + 2)
        if x2 <= x1 or y2 <= y1:
            return True
        return not self.mask[y1:y2, x1:x2].any()


class MotionGate:
    """Feed every frame in order; says whether the table is still."""

    def __init__(self, width: int = WIDTH, level: int = LEVEL, share: float = SHARE, lag: int = LAG,
                 settle: int = SETTLE):
        self.width, self.level, self.share, self.lag, self.settle = width, level, share, lag, settle
        self._recent: list[np.ndarray] = []
        self._still = 0

    def small(self, image: np.ndarray) -> np.ndarray:
        import cv2

        h, w = image.shape[:2]
        size = (self.width, max(1, round(h * self.width / w)))
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (5, 5), 0).astype(np.int16)

    def update(self, image: np.ndarray) -> Motion:
        import cv2

        small = self.small(image)
        changed, mask = 1.0, None
        if self._recent and self._recent[0].shape == small.shape:
            diff = np.maximum(np.abs(small - self._recent[0]), np.abs(small - self._recent[-1]))
            hot = diff > self.level
            changed = float(np.count_nonzero(hot)) / diff.size
            if changed > 0:
                kernel = np.ones((2 * GROW + 1, 2 * GROW + 1), np.uint8)
                mask = cv2.dilate(hot.astype(np.uint8), kernel) > 0
        self._recent.append(small)
        if len(self._recent) > self.lag:
            self._recent.pop(0)
        self._still = self._still + 1 if changed <= self.share else 0
        scale = small.shape[1] / image.shape[1]
        if changed >= 1.0:
            mask = np.ones(small.shape, bool)
        return Motion(self._still < self.settle, changed, self._still, mask, scale)
