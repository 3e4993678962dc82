"""The table (or the camera) moved as a whole: the one turn, scale and shift taking the game's cards from where they
lay to where they lie now.

A player nudges the webcam or bumps the table mid-game: every card then lies somewhere new at once, which, card by
card, would read as moves no rule allows (and the game would stall until the layout is learned again). When the
game's cards seen whole now lie where one similarity transform puts them (each within a small part of a card) and
it moves some of them more than a nudge, a follower moves every place it learned by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

AGREE = 0.15  # each card this close (card sizes) to where the transform puts it
NUDGE = 0.2  # a transform moving no card this far (card sizes) is left to the followers' drift following
SPREAD = 0.5  # the cards must lie this far apart (card sizes, spread about their centre) to show a turn
SCALES = (0.8, 1.25)  # a zoom beyond these is not a nudge: the layout is learned again (the player's l)
MAX_TURN = np.deg2rad(30.0)  # nor a turn beyond this


@dataclass(frozen=True)
class TableShift:
    """``point(p) = scale * rotation @ p + offset`` on image points; directions (a fan step) are only turned."""

    rotation: np.ndarray
    scale: float
    offset: np.ndarray

    @property
    def angle(self) -> float:
        """The turn in radians (image axes: positive turns x towards y)."""
        return float(np.arctan2(self.rotation[1, 0], self.rotation[0, 0]))

    def point(self, p: np.ndarray) -> np.ndarray:
        return self.scale * self.rotation @ np.asarray(p, dtype=np.float64) + self.offset

    def direction(self, v: np.ndarray) -> np.ndarray:
        return self.rotation @ np.asarray(v, dtype=np.float64)


def fit_shift(before, after, card_size: float) -> TableShift | None:
    """The turn, scale and shift taking the points ``before`` to ``after`` (matched, pixels), when the points lying
    apart agree with it, all of them or all but one (a card moved in the same view), and it moves at least three of
    them a nudge or more; None otherwise (nothing moved, or cards moved one by one)."""
    a = np.asarray(before, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(after, dtype=np.float64).reshape(-1, 2)
    if len(a) < 3 or card_size <= 0 or np.count_nonzero(_moved(a, b, card_size)) < 3:
        return None  # (nor can any subset show a nudge: the views where one card moved stop here)
    shift = _fit(a, b, card_size)
    for k in range(len(a)) if shift is None and len(a) >= 4 else ():
        keep = np.arange(len(a)) != k
        shift = _fit(a[keep], b[keep], card_size)
        if shift is not None:
            break
    return shift


def _fit(a: np.ndarray, b: np.ndarray, card_size: float) -> TableShift | None:
    """:func:`fit_shift` on points that must all agree, at least three of them moved a nudge or more (a turn and
    a zoom about two cards that stayed put could carry a third card anywhere)."""
    if np.count_nonzero(_moved(a, b, card_size)) < 3:
        return None
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    da, db = a - ca, b - cb
    spread = float((da ** 2).sum()) / len(a)
    if spread < (SPREAD * card_size) ** 2:
        return None
    u, s, vt = np.linalg.svd(db.T @ da / len(a))  # Umeyama: the best rotation, never a mirror
    flip = np.diag([1.0, np.sign(np.linalg.det(u @ vt)) or 1.0])
    rotation = u @ flip @ vt
    scale = float(np.trace(np.diag(s) @ flip)) / spread
    shift = TableShift(rotation, scale, cb - scale * rotation @ ca)
    if not SCALES[0] <= scale <= SCALES[1] or abs(shift.angle) > MAX_TURN:
        return None
    fitted = scale * a @ rotation.T + shift.offset
    return None if np.linalg.norm(fitted - b, axis=1).max() > AGREE * card_size else shift


def _moved(a: np.ndarray, b: np.ndarray, card_size: float) -> np.ndarray:
    """Which points moved a nudge or more."""
    return np.linalg.norm(b - a, axis=1) >= NUDGE * card_size
