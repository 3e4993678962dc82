"""Poker hands of five cards and their points in Poker Patience (rules: /work/shared/rules/004_*.txt).

004, "Pokerhände": "Eine Pokerhand besteht aus fünf Karten. [...] Das Ass zählt in einer Straße hoch (10-B-D-K-A)
oder niedrig (A-2-3-4-5), aber eine Straße geht nicht „um die Ecke“ (D-K-A-2-3 ist keine Straße)."
"Jede Reihe und Spalte zählt nur ihre beste Kombination."

004, "Wertung": "Üblich sind zwei Wertungen: Die amerikanische richtet sich danach, wie selten die Hände im echten
Poker sind, die englische danach, wie schwer sie in diesem Spiel zu bauen sind (eine Straße ist hier schwerer als ein
Flush)." The hand table of 004 did not survive; the values are those of rules/README.md (Morehead & Mott-Smith,
Neller's Poker Squares framework), fixed by 004's example (full house 25/10, flush 20/5, straight 15/12).

Two evaluators that always agree:

* :func:`classify` — one hand of five ``Card`` objects (or card indices), pure Python.
* :func:`classify_many` — many hands at once: an integer array of card indices of shape ``(n, 5)``
  (``Card.index = suit * 13 + rank - 1``), vectorised with numpy; a hand holding a negative index (an empty cell)
  is incomplete and gets category ``-1`` (:data:`INCOMPLETE`) and 0 points.

:func:`score_grids` scores many 5x5 grids (shape ``(m, 25)``, row-major) in one go: the ten lines of each
(:data:`LINES`: rows 1-5 then columns 1-5), their categories and the American and English totals.
The numeric tables :data:`POINTS` (``POINTS[scoring_code, category]``) are there for compiled advisors.
"""

from __future__ import annotations

import enum
from typing import Iterable, Sequence

import numpy as np

from assistant.cards import Card, CardError

__all__ = [
    "HandCategory",
    "Scoring",
    "INCOMPLETE",
    "POINTS",
    "AMERICAN_POINTS",
    "ENGLISH_POINTS",
    "LINES",
    "LINE_NAMES",
    "classify",
    "hand_points",
    "classify_many",
    "points_many",
    "score_grids",
]


class HandCategory(enum.IntEnum):
    """The poker hands, weakest to best; the value is the code used by the array evaluator."""

    NOTHING = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """English name as in the rules table: ``"full house"``, ``"nothing"``."""
        return _LABELS[self]

    def __str__(self) -> str:
        return self.label

    def points(self, scoring: "Scoring | str") -> int:
        return int(POINTS[Scoring.parse(scoring).code, self])

    @classmethod
    def from_label(cls, label: str) -> "HandCategory":
        key = " ".join(str(label).lower().replace("_", " ").replace("-", " ").split())
        for cat in cls:
            if cat.label == key:
                return cat
        raise ValueError(f"{label!r} is not a poker hand; known: {', '.join(c.label for c in cls)}")


_LABELS = (
    "nothing",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "royal flush",
)

#: Category code of a line that still has an empty cell (array evaluator only).
INCOMPLETE = -1


class Scoring(str, enum.Enum):
    """004: "Üblich sind zwei Wertungen: Die amerikanische [...] die englische [...]". Compares equal to its text."""

    AMERICAN = "american"
    ENGLISH = "english"

    def __str__(self) -> str:
        return self.value

    @property
    def code(self) -> int:
        """Row of :data:`POINTS`: 0 American, 1 English."""
        return 0 if self is Scoring.AMERICAN else 1

    @classmethod
    def parse(cls, value: "Scoring | str") -> "Scoring":
        """``Scoring.AMERICAN``, ``"american"``, ``"English"`` ...; anything else: ValueError listing the names."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            key = value.strip().lower()
            for s in cls:
                if s.value == key:
                    return s
        raise ValueError(f"unknown scoring {value!r}; choose one of: {', '.join(s.value for s in cls)}")


#: Points per category (index = HandCategory value), rules/README.md table.
AMERICAN_POINTS = np.array([0, 2, 5, 10, 15, 20, 25, 50, 75, 100], dtype=np.int16)
ENGLISH_POINTS = np.array([0, 1, 3, 6, 12, 5, 10, 16, 30, 30], dtype=np.int16)
#: ``POINTS[Scoring.code, category]``.
POINTS = np.stack([AMERICAN_POINTS, ENGLISH_POINTS])
POINTS.setflags(write=False)
AMERICAN_POINTS.setflags(write=False)
ENGLISH_POINTS.setflags(write=False)

#: The ten lines of a row-major 5x5 grid as cell indices: rows 1-5, then columns 1-5.
LINES = np.array([[r * 5 + c for c in range(5)] for r in range(5)] + [[r * 5 + c for r in range(5)] for c in range(5)],
                 dtype=np.intp)
LINES.setflags(write=False)
LINE_NAMES = tuple([f"row {i}" for i in range(1, 6)] + [f"column {i}" for i in range(1, 6)])


# --------------------------------------------------------------------------------------------------- scalar


def _as_index(card: Card | int) -> int:
    if isinstance(card, Card):
        return card.index
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool) and 0 <= card < 52:
        return int(card)
    raise CardError(f"{card!r} is not a card (a Card or an index 0..51)")


def classify(cards: Sequence[Card | int]) -> HandCategory:
    """The best poker hand the five ``cards`` make (Cards or indices 0..51).

    Raises ValueError unless there are exactly five cards, CardError if one appears twice.
    """
    idx = [_as_index(c) for c in cards]
    if len(idx) != 5:
        raise ValueError(f"a poker hand has 5 cards, got {len(idx)}")
    if len(set(idx)) != 5:
        dup = next(i for i in idx if idx.count(i) > 1)
        raise CardError(f"{Card.from_index(dup)} appears twice in one hand")
    ranks = sorted(i % 13 for i in idx)  # 0 = ace .. 12 = king
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return HandCategory.FOUR_OF_A_KIND
    if shape == [3, 2]:
        return HandCategory.FULL_HOUSE
    if shape[0] == 3:
        return HandCategory.THREE_OF_A_KIND
    if shape == [2, 2, 1]:
        return HandCategory.TWO_PAIR
    if shape[0] == 2:
        return HandCategory.ONE_PAIR
    flush = len({i // 13 for i in idx}) == 1
    broadway = ranks == [0, 9, 10, 11, 12]  # 10-J-Q-K-A, ace high
    straight = broadway or ranks[4] - ranks[0] == 4  # includes the wheel A-2-3-4-5; Q-K-A-2-3 spans 12
    if straight and flush:
        return HandCategory.ROYAL_FLUSH if broadway else HandCategory.STRAIGHT_FLUSH
    if flush:
        return HandCategory.FLUSH
    if straight:
        return HandCategory.STRAIGHT
    return HandCategory.NOTHING


def hand_points(cards: Sequence[Card | int] | HandCategory, scoring: Scoring | str) -> int:
    """Points of a hand (five cards, or an already known category) under ``scoring``."""
    cat = cards if isinstance(cards, HandCategory) else classify(cards)
    return int(POINTS[Scoring.parse(scoring).code, cat])


# --------------------------------------------------------------------------------------------------- vectorised


def classify_many(hands: np.ndarray | Iterable[Sequence[int]], check: bool = True) -> np.ndarray:
    """Categories (int8, HandCategory codes) of many hands: ``hands`` is ``(n, 5)`` card indices 0..51.

    A hand with a negative index (an empty cell) gets :data:`INCOMPLETE` (-1). With ``check`` (default), an index
    above 51 or a card twice in one complete hand raises ValueError naming the hand's row number (0-based).
    """
    a = np.asarray(hands)
    if a.ndim != 2 or a.shape[1] != 5:
        raise ValueError(f"expected hands of shape (n, 5), got {a.shape}")
    if a.dtype.kind not in "iu":
        raise ValueError(f"expected integer card indices, got dtype {a.dtype}")
    a = a.astype(np.int16, copy=False)
    n = a.shape[0]
    out = np.empty(n, dtype=np.int8)
    if n == 0:
        return out
    incomplete = (a < 0).any(axis=1)
    if check:
        bad = np.nonzero((a > 51).any(axis=1))[0]
        if bad.size:
            raise ValueError(f"hand {bad[0]}: card index above 51 in {a[bad[0]].tolist()}")
    srt = np.sort(a, axis=1)
    if check:
        dup = np.nonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1) & ~incomplete)[0]
        if dup.size:
            cards = [str(Card.from_index(int(i))) for i in a[dup[0]]]
            raise ValueError(f"hand {dup[0]}: a card appears twice in {' '.join(cards)}")
    ranks = np.sort(srt % 13, axis=1)  # 0 = ace .. 12 = king (negatives are masked below)
    suits = a // 13
    flush = (suits == suits[:, :1]).all(axis=1)
    eq = ranks[:, 1:] == ranks[:, :-1]
    e0, e1, e2, e3 = eq[:, 0], eq[:, 1], eq[:, 2], eq[:, 3]
    npairs = eq.sum(axis=1)
    four = (e0 & e1 & e2) | (e1 & e2 & e3)
    trips = (e0 & e1) | (e1 & e2) | (e2 & e3)
    distinct = npairs == 0
    broadway = distinct & (ranks[:, 0] == 0) & (ranks[:, 1] == 9)  # A 10 J Q K
    straight = distinct & ((ranks[:, 4] - ranks[:, 0] == 4) | broadway)  # wheel spans 4; Q-K-A-2-3 spans 12
    out[:] = HandCategory.NOTHING
    out[npairs == 1] = HandCategory.ONE_PAIR
    out[(npairs == 2) & ~trips] = HandCategory.TWO_PAIR
    out[(npairs == 2) & trips] = HandCategory.THREE_OF_A_KIND
    out[(npairs == 3) & ~four] = HandCategory.FULL_HOUSE
    out[four] = HandCategory.FOUR_OF_A_KIND
    out[straight] = HandCategory.STRAIGHT
    out[flush & distinct] = HandCategory.FLUSH
    sf = straight & flush
    out[sf] = HandCategory.STRAIGHT_FLUSH
    out[sf & broadway] = HandCategory.ROYAL_FLUSH
    out[incomplete] = INCOMPLETE
    return out


def points_many(categories: np.ndarray, scoring: Scoring | str) -> np.ndarray:
    """Points (int16) for an array of category codes; :data:`INCOMPLETE` scores 0."""
    cats = np.asarray(categories)
    table = np.append(POINTS[Scoring.parse(scoring).code], 0)  # index -1 -> the appended 0
    return table[cats]


def score_grids(grids: np.ndarray | Iterable[Sequence[int]], check: bool = True):
    """Score many row-major 5x5 grids of card indices (shape ``(m, 25)``; -1 = empty cell).

    Returns ``(categories, american, english)``: int8 ``(m, 10)`` per line in :data:`LINES` order
    (rows 1-5 then columns 1-5; -1 for a line with an empty cell), and the int32 totals ``(m,)``.
    With ``check``, a card twice in one grid raises ValueError naming the grid's number (0-based).
    """
    g = np.asarray(grids)
    if g.ndim != 2 or g.shape[1] != 25:
        raise ValueError(f"expected grids of shape (m, 25), got {g.shape}")
    if check and g.shape[0]:
        s = np.sort(g.astype(np.int16, copy=False), axis=1)
        dup = np.nonzero(((s[:, 1:] == s[:, :-1]) & (s[:, 1:] >= 0)).any(axis=1))[0]
        if dup.size:
            raise ValueError(f"grid {dup[0]}: a card appears twice")
    m = g.shape[0]
    cats = classify_many(g[:, LINES].reshape(m * 10, 5), check=check).reshape(m, 10)
    american = points_many(cats, Scoring.AMERICAN).sum(axis=1, dtype=np.int32)
    english = points_many(cats, Scoring.ENGLISH).sum(axis=1, dtype=np.int32)
    return cats, american, english
