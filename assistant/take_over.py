"""Taking over a Sir Tommy game in progress: the layout on the table, from a photo or typed, as a game to go on with.

The rules lay "a row of four foundations and, below it, four waste piles" (001), each waste pile spread downwards
so that every card's corner index shows. So on a photo the cards of the upper row are the foundations' tops, and
below them each column of cards is a waste pile, from its bottom card (highest up) to its top; left to right they
are foundations 0-3 and waste piles 0-3. Pure geometry on the reader's cards (``SeenCard``). Typed, the same layout reads ``3h - As - / Jd 2d | - | - | -``
(the foundations' tops, ``-`` for an empty one, then the waste piles bottom first). The cards under the tops are
assumed (:meth:`TommyState.from_table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assistant.cards import Card, CardError
from assistant.games.tommy_rules import PILES
from vision.boxes import card_size, long_side
from vision.results import SeenCard

ROW_GAP = 0.5  # cards starting within this (card sizes) of the highest one are the foundations' row...
FOUNDATION_ROW = 0.9  # ...when no card starts from there down to this: the waste piles lie a card's height below
#: (and a step this long within a column parts a foundation from the waste pile under it)
COLUMN = 0.35  # cards whose left edges lie this close across the piles (card sizes) are one waste pile
MISSING = 0.45  # a pile's step this much wider than the usual one (in steps) holds a card not read
QUARTER_TURNS = [np.array(d, dtype=np.float64) for d in ((0, 1), (1, 0), (0, -1), (-1, 0))]
WHOLE = 0.6  # a box at least this share of a card's long side is a whole card (a pile's top), not a corner


@dataclass
class TableLayout:
    """The foundations' top cards (None: empty) and the waste piles (bottom first), with what the reading noted."""

    tops: list[Card | None]
    waste: list[list[Card]]
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        """The layout as typed: ``3h - As - / Jd 2d | - | - | -``."""
        tops = " ".join(str(c) if c else "-" for c in self.tops)
        return f"{tops} / " + " | ".join(" ".join(map(str, p)) or "-" for p in self.waste)


def parse_layout(text: str) -> TableLayout:
    """``3h - As - / Jd 2d | - | - | -``: four foundation tops (``-`` empty), then four waste piles bottom first.
    ValueError says what is wrong."""
    tops_text, slash, waste_text = text.partition("/")
    if not slash:
        raise ValueError("write the foundations' tops, a slash, then the waste piles: 3h - As - / Jd 2d | - | - | -")
    words = tops_text.split()
    if len(words) != PILES:
        raise ValueError(f"the foundations: {PILES} tops are needed ('-' for an empty one), got {len(words)}")
    piles = [p.replace("-", " ").split() for p in waste_text.split("|")]
    if len(piles) != PILES:
        raise ValueError(f"the waste piles: {PILES} are needed, separated by '|' ('-' for an empty one), "
                         f"got {len(piles)}")
    try:
        return TableLayout([None if w == "-" else Card.parse(w) for w in words],
                           [[Card.parse(c) for c in p] for p in piles])
    except CardError as exc:
        raise ValueError(str(exc)) from None


def layout_from_cards(cards: list[SeenCard]) -> TableLayout:
    """Foundations (the upper row) and waste piles (the columns below it) from the cards read on a photo.
    ValueError when more than four foundations or waste piles are read."""
    if not cards:
        return TableLayout([None] * PILES, [[] for _ in range(PILES)], ["no cards were found on the table"])
    size = card_size(cards)
    whole = [long_side(c.box) >= WHOLE * size for c in cards]

    def fit(down):  # the piles read along ``down``: spread piles read as corners ending in a whole card, less others
        upper, columns = _rows(*_edges(cards, down), size)
        spread = [whole[c[-1]] and not any(whole[i] for i in c[:-1]) for c in columns if len(c) > 1]
        return 2 * sum(spread) - len(spread) - 0.01 * len(columns), upper, columns

    # which way is down: the quarter turn that reads spread piles as corners ending in a whole card (the upright
    # picture first on a tie), then the piles' own direction measured along its columns
    down = max(QUARTER_TURNS, key=lambda d: fit(d)[0])
    upper, columns = fit(down)[1:]
    down = _fan_direction(cards, columns, down)
    upper, columns = fit(down)[1:]
    notes = []
    if not upper and columns:
        notes.append("one row of piles: all taken as waste piles (lay the foundations in a row above them)")
    for what, row in (("foundations", upper), ("waste piles", [c[-1] for c in columns])):
        if len(row) > PILES:
            raise ValueError(f"{len(row)} {what} are read, at most {PILES}: " + " ".join(cards[i].card for i in row))
    waste = [[Card.parse(cards[i].card) for i in column] for column in columns]
    notes += _gaps(cards, columns, _edges(cards, down)[0])
    for column in columns:
        if not whole[column[-1]]:
            notes.append(f"the waste pile of {' '.join(cards[i].card for i in column)}: its top card was not seen "
                         "whole (a card may be missing at its end)")
    tops: list[Card | None] = [Card.parse(cards[i].card) for i in upper]
    return TableLayout(tops + [None] * (PILES - len(tops)), waste + [[] for _ in range(PILES - len(waste))], notes)


def _edges(cards: list[SeenCard], down: np.ndarray) -> tuple[list[float], list[float]]:
    """Where each card's top edge lies along ``down`` and its left edge across it (a corner index lies at both, so
    a card read by a corner alone is placed as one read whole)."""
    across = np.array([down[1], -down[0]])  # left to right when the piles are spread downwards
    corners = [_corners(c.box) for c in cards]
    return ([min(float(np.dot(q, down)) for q in cs) for cs in corners],
            [min(float(np.dot(q, across)) for q in cs) for cs in corners])


def _rows(start: list[float], side: list[float], size: float) -> tuple[list[int], list[list[int]]]:
    """The foundations (left to right, top to bottom) and the waste piles (left to right, each bottom card first).

    Cards are first put in columns by their left edges, and a column cut where a card starts more than
    ``FOUNDATION_ROW`` below the one before it: a waste pile is spread a quarter card a step (a card or two of it
    not read leave a wider step), a foundation lies a whole card and more apart.
    A piece of two or more cards is a waste pile, and the row its bottom card starts in is the waste piles' row; a
    single card is a foundation unless it starts in that row (a waste pile of one card) and no single card lies
    below that row in its column (the foundations laid in a column beside the waste piles). With no spread pile on the table,
    the cards of the upper of two rows are the foundations (one row: waste piles of a card each)."""
    pieces: list[list[int]] = []
    for column in _columns(side, size):
        column.sort(key=lambda i: start[i])
        pieces.append([column[0]])
        for a, b in zip(column, column[1:]):
            if start[b] - start[a] > FOUNDATION_ROW * size:
                pieces.append([])
            pieces[-1].append(b)
    spread = [p for p in pieces if len(p) > 1]
    singles = [p[0] for p in pieces if len(p) == 1]
    if spread:
        row = float(np.median([start[p[0]] for p in spread]))
        off = {i for i in singles if abs(start[i] - row) > ROW_GAP * size}  # above (or below) the waste piles' row
        stacked = {i for column in _columns(side, size) if any(start[j] > row for j in column if j in off)
                   for i in column if i in singles}  # a column of foundations beside the waste piles
        upper = [i for i in singles if i in off or i in stacked]
    else:
        first = min(start)
        apart = not any(ROW_GAP * size < s - first < FOUNDATION_ROW * size for s in start)
        upper = [i for i in singles if start[i] - first <= ROW_GAP * size] if apart else []
        if len(upper) == len(singles):
            upper = []  # every card in one row: waste piles of a card each
    waste = [p for p in pieces if len(p) > 1 or p[0] not in upper]
    return (sorted(upper, key=lambda i: (round(side[i] / (COLUMN * size)), start[i])),
            sorted(waste, key=lambda p: side[p[0]]))


def _columns(side: list[float], size: float) -> list[list[int]]:
    """Cards whose left edges lie within ``COLUMN`` card sizes of the next one's, left to right."""
    columns: list[list[int]] = []
    for i in sorted(range(len(side)), key=lambda i: side[i]):
        if columns and side[i] - side[columns[-1][-1]] <= COLUMN * size:
            columns[-1].append(i)
        else:
            columns.append([i])
    return columns


def _gaps(cards: list[SeenCard], columns: list[list[int]], start: list[float]) -> list[str]:
    """Where a waste pile's card may not have been read: a step between two of its cards much wider than the
    piles' usual step, or a pile starting lower than the others (its bottom card not read)."""
    steps = [start[b] - start[a] for c in columns for a, b in zip(c, c[1:])]
    if not steps:
        return []
    step = float(np.median(steps))
    notes = []
    row = min(start[c[0]] for c in columns)
    for column in columns:
        names = [cards[i].card for i in column]
        if start[column[0]] - row > MISSING * step:
            notes.append(f"a card may be missing under {names[0]} (its pile starts lower than the others)")
        for (a, b), x, y in zip(zip(column, column[1:]), names, names[1:]):
            if start[b] - start[a] > (1 + MISSING) * step:
                notes.append(f"a card may be missing between {x} and {y} (a wider step in their pile)")
    return notes


def _fan_direction(cards: list[SeenCard], columns: list[list[int]], down: np.ndarray) -> np.ndarray:
    """Which way the waste piles are spread (bottom card to top) on the image: along the corner indices of the
    columns that show two or more (a corner lies the same way on every card of a pile); ``down`` without them."""
    steps = [_centre(cards[c[-2]].box) - _centre(cards[c[0]].box) for c in columns if len(c) > 2]
    if not steps:
        return down
    mean = np.mean(steps, axis=0)
    norm = float(np.hypot(*mean))
    return mean / norm if norm > 0 else down


def _corners(box) -> list[np.ndarray]:
    x1, y1, x2, y2 = box
    return [np.array(p, dtype=np.float64) for p in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))]


def _centre(box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], dtype=np.float64)
