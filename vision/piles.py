"""The cards of a table grouped into piles, each from its bottom card to its top: the basis for taking over a game
in progress from one photo.

A pile fanned so that each card's corner shows (a Sir Tommy waste pile, a fanned hand) is read as one whole card
(its top: the face shows, the reader gives the card's box) and a run of corner indices that lead away from it,
each ~0.15-0.3 of a card from the next. Neighbouring piles lie ~0.7 of a card or more apart, so corners closer than
``LINK`` card sizes belong to one run. A run is joined to the whole card its nearest corner touches; the cards of
a pile are ordered by their distance from the top card, the farthest at the bottom. Pure geometry on the reader's
cards (``SeenCard``): no image, no model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.boxes import card_size, long_side
from vision.results import SeenCard

LINK = 0.45  # corners closer than this (card sizes) are cards of one fanned run
TOUCH = 0.35  # a run whose nearest corner is this close to a whole card's box (card sizes) lies under that card
WHOLE = 0.6  # a box at least this share of a card's long side is a whole card, not a corner index


@dataclass(frozen=True)
class Pile:
    """Cards of one pile from the bottom to the top. ``top_known``: the top card's face was seen whole (else the
    order of a run of corners only is a guess along its line, and ``top`` is its last card)."""

    cards: tuple[SeenCard, ...]
    top_known: bool

    @property
    def top(self) -> SeenCard:
        return self.cards[-1]

    @property
    def box(self) -> tuple[float, float, float, float]:
        b = np.array([c.box for c in self.cards], dtype=np.float64)
        return (float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()), float(b[:, 3].max()))

    def to_json(self) -> dict:
        return {"cards": [c.card for c in self.cards], "top": self.top.card if self.top_known else None,
                "box": [round(v, 1) for v in self.box]}


def _centre(box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], dtype=np.float64)


def _box_distance(p: np.ndarray, box) -> float:
    """Distance from point ``p`` to a box (0 inside it)."""
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return float(np.hypot(dx, dy))


def _runs(points: np.ndarray, reach: float) -> list[list[int]]:
    """Single-linkage groups of points closer than ``reach``."""
    n = len(points)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.hypot(*(points[i] - points[j])) < reach:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def group_piles(cards: list[SeenCard], size: float | None = None) -> list[Pile]:
    """The piles on the table, in reading order of where each pile starts (top row first, left to right)."""
    if not cards:
        return []
    size = size or card_size(cards)
    whole = [c for c in cards if long_side(c.box) >= WHOLE * size]
    parts = [c for c in cards if long_side(c.box) < WHOLE * size]
    under: dict[int, list[SeenCard]] = {i: [] for i in range(len(whole))}
    loose: list[list[SeenCard]] = []
    points = np.array([_centre(c.box) for c in parts]).reshape(-1, 2)
    for run in _runs(points, LINK * size):
        members = [parts[i] for i in run]
        best, best_d = None, TOUCH * size
        for w, top in enumerate(whole):
            d = min(_box_distance(points[i], top.box) for i in run)
            if d <= best_d:
                best, best_d = w, d
        if best is None:
            loose.append(members)
        else:
            under[best].extend(members)
    piles = []
    for w, top in enumerate(whole):
        centre = _centre(top.box)
        below = sorted(under[w], key=lambda c: -np.hypot(*(_centre(c.box) - centre)))
        piles.append(Pile(tuple(below) + (top,), True))
    for members in loose:
        pts = np.array([_centre(c.box) for c in members])
        axis = np.linalg.svd(pts - pts.mean(axis=0))[2][0] if len(members) > 1 else np.array([0.0, 1.0])
        if axis[1] < 0 or (axis[1] == 0 and axis[0] < 0):
            axis = -axis  # a guess: fanned downwards (the lower corners lie on top)
        piles.append(Pile(tuple(sorted(members, key=lambda c: float(_centre(c.box) @ axis))), False))
    row = size * 0.5  # piles whose first card starts within half a card of height are one row
    return sorted(piles, key=lambda p: (round(p.box[1] / row), p.box[0]))
