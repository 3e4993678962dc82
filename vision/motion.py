"""Is the table still? A motion gate on small grey frames, so cards are read only when nothing moves.

Hands, a card being carried, camera shake and a sudden light change all show as many changed pixels between
frames; a still table (sensor noise aside, which the blur removes) shows almost none. Decisions about the game
are taken only on quiet frames: "not seen" while a hand is in view never counts as "removed".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WIDTH = 160  # frames are compared at this width: cheap (~1 ms) and blind to sensor noise after the blur
LEVEL = 18  # grey levels of change that count as a changed pixel
SHARE = 0.002  # changed share of the picture above which the table is moving (a card is ~1 % of a frame)
LAG = 2  # compare with the frame this many steps back, to catch slow movements too
SETTLE = 2  # quiet frames in a row before the table counts as still


@dataclass(frozen=True)
class Motion:
    moving: bool  # something is moving (or the table has not been still for SETTLE frames yet)
    changed: float  # share of changed pixels, 0..1
    still_for: int  # quiet frames in a row so far (0 while moving)


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
        small = self.small(image)
        changed = 1.0
        if self._recent and self._recent[0].shape == small.shape:
            diff = np.maximum(np.abs(small - self._recent[0]), np.abs(small - self._recent[-1]))
            changed = float(np.count_nonzero(diff > self.level)) / diff.size
        self._recent.append(small)
        if len(self._recent) > self.lag:
            self._recent.pop(0)
        self._still = self._still + 1 if changed <= self.share else 0
        return Motion(self._still < self.settle, changed, self._still)
