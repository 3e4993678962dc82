"""Taking over a Sir Tommy game in progress: the layout on the table, from a photo or typed, as a game to go on with.

The rules lay "a row of four foundations and, below it, four waste piles" (001), each waste pile spread downwards
so that every card's corner index shows. So on a photo the cards of the upper row are the foundations' tops (or a
column of them beside the piles), and each column of cards below is a waste pile, from its bottom card to its top;
left to right they are foundations 0-3 and waste piles 0-3. Pure geometry on the reader's cards (``SeenCard``),
with a second look by the index classifier where a pile's card was not read. Typed, the same layout reads
``3h - As - / Jd 2d | - | - | -`` (the foundations' tops, ``-`` for an empty one, then the waste piles bottom
first). The cards under the tops are assumed (:meth:`TommyState.from_table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from assistant.cards import Card, CardError
from assistant.games.tommy_rules import PILES
from vision.boxes import card_size, long_side
from vision.results import SeenCard

ROW_GAP = 0.5  # cards starting within this (card sizes) of the highest one are the foundations' row...
FOUNDATION_ROW = 0.9  # ...when no card starts from there down to this (the waste piles lie a card's height below);
# a step this long within a column parts a foundation from the waste pile under it
COLUMN = 0.35  # cards whose left edges lie this close across the piles (card sizes) are one waste pile
MISSING = 0.45  # a pile's step this much wider than the usual one (in steps) holds a card not read
CORNER = 0.35  # a box under this share of a card's long side is a corner index alone
NEXT_CORNER = 0.45  # the next card's corner index in a spread pile lies within this (card sizes)
SECOND_LOOK = 0.6  # a card named this surely where a pile's corner was missing joins the pile
QUARTER_TURNS = [np.array(d, dtype=np.float64) for d in ((0, 1), (1, 0), (0, -1), (-1, 0))]
WHOLE = 0.85  # a box this share of a card's long side is a whole card (a pile's top), not a covered card's strip


@dataclass
class TableLayout:
    """The foundations' top cards (None: empty) and the waste piles (bottom first), with what the reading noted;
    ``turned``: a card turned and not placed yet (lying beside the stock)."""

    tops: list[Card | None]
    waste: list[list[Card]]
    notes: list[str] = field(default_factory=list)
    turned: Card | None = None

    def text(self) -> str:
        """The layout as typed: ``3h - As - / Jd 2d | - | - | -`` (``/ Qh`` after it: the Qh turned)."""
        tops = " ".join(str(c) if c else "-" for c in self.tops)
        turned = f" / {self.turned}" if self.turned else ""
        return f"{tops} / " + " | ".join(" ".join(map(str, p)) or "-" for p in self.waste) + turned


def parse_layout(text: str) -> TableLayout:
    """``3h - As - / Jd 2d | - | - | -``: four foundation tops (``-`` empty), then four waste piles bottom first, and
    optionally ``/ Qh``, a card turned and not placed yet. ValueError says what is wrong."""
    tops_text, slash, waste_text = text.partition("/")
    waste_text, _, turned = waste_text.partition("/")
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
                           [[Card.parse(c) for c in p] for p in piles],
                           turned=Card.parse(turned) if turned.strip() else None)
    except CardError as exc:
        raise ValueError(str(exc)) from None


def read_layout(reader, image, second_look: bool = True) -> TableLayout:
    """The table on ``image`` as ``reader`` (a ``vision.detector.Detector``, the photo models) reads it: its cards,
    laid out by :func:`layout_from_cards`, with the classifier's second look where a pile's card is missing."""
    look = (lambda boxes: reader.read_corners(image, boxes)) if second_look else None
    return layout_from_cards(reader.detect(image).cards, look)


def layout_from_cards(cards: list[SeenCard], second_look: Callable | None = None) -> TableLayout:
    """Foundations (the upper row) and waste piles (the columns below it) from the cards read on a photo.
    ``second_look(xyxy) -> [(card name or None, confidence)]``: the index classifier on boxes where a pile's corner
    was not read (``Detector.read_corners``); a card it names surely is taken into the pile. More than four columns
    of waste cards: the two closest are taken as one pile (said in a note). ValueError when more than four
    foundations are read."""
    if not cards:
        return TableLayout([None] * PILES, [[] for _ in range(PILES)], ["no cards were found on the table"])
    size = card_size(cards)
    down, upper, columns = _piles(cards, size)
    closer: list[SeenCard] = []
    if second_look is not None:
        closer = _look_closer(cards, columns, down, size, second_look)
        if closer:
            cards = cards + closer
            upper, columns = _rows(*_edges(cards, down), size=size)
    notes = []
    if not upper and columns:
        notes.append("one row of piles: all taken as waste piles (lay the foundations in a row above them)")
    start, side, mid = _edges(cards, down)
    while len(columns) > PILES:  # a pile read in two columns (a box off its line, a step too wide): the closest join
        k = min(range(len(columns) - 1), key=lambda k: side[columns[k + 1][0]] - side[columns[k][0]])
        a, b = columns[k], columns.pop(k + 1)
        notes.append(f"{len(columns) + 1} waste piles read: {' '.join(cards[i].card for i in a)} and "
                     f"{' '.join(cards[i].card for i in b)} taken as one")
        columns[k] = sorted(a + b, key=lambda i: mid[i])
    turned = None
    if len(upper) == PILES + 1:  # a card turned lies beside the stock, in the foundations' row: the one further out
        def apart(i, j):
            return float(np.hypot(*(_centre(cards[i].box) - _centre(cards[j].box))))

        gaps = [apart(upper[0], upper[1]), apart(upper[-1], upper[-2])]
        turned = upper.pop(0 if gaps[0] > gaps[1] else -1)
        notes.append(f"{cards[turned].card} taken as the card turned, not placed yet (it lies apart at the end of the "
                     "foundations' row)")
    if len(upper) > PILES:
        raise ValueError(f"{len(upper)} foundations are read, at most {PILES}: "
                         + " ".join(cards[i].card for i in upper))
    if closer:
        notes.append("read at a second look where a pile's card was missing: " + " ".join(c.card for c in closer))
    for gap in _gaps(columns, start)[1]:
        names = [cards[i].card for i in gap.column]
        if gap.after is None:
            notes.append(f"a card may be missing under {names[0]} (its pile starts lower than the others)")
        else:
            notes.append(f"a card may be missing between {names[gap.after]} and {names[gap.after + 1]} (a wider step "
                         "in their pile)")
    for column in columns:
        if long_side(cards[column[-1]].box) < WHOLE * size:
            notes.append(f"the waste pile of {' '.join(cards[i].card for i in column)}: its top card was not seen "
                         "whole (a card may be missing at its end)")
    tops: list[Card | None] = [Card.parse(cards[i].card) for i in upper]
    waste = [[Card.parse(cards[i].card) for i in column] for column in columns]
    return TableLayout(tops + [None] * (PILES - len(tops)), waste + [[] for _ in range(PILES - len(waste))], notes,
                       None if turned is None else Card.parse(cards[turned].card))


def _piles(cards: list[SeenCard], size: float) -> tuple[np.ndarray, list[int], list[list[int]]]:
    """Which way is down on the picture, the foundations and the waste piles' columns (see ``_rows``). The axis
    the piles are spread along is where each corner index's nearest neighbour lies (the next card's corner, a
    quarter card away; the piles lie further apart); which end is down, the one that reads spread piles as corners
    ending in a whole card. Without corners near each other, the quarter turn that reads so (the upright picture
    first on a tie), then the piles' own direction measured along the columns found."""
    whole = [long_side(c.box) >= WHOLE * size for c in cards]

    def fit(down):  # spread piles read as corners ending in a whole card, less the others
        upper, columns = _rows(*_edges(cards, down), size=size)
        spread = [whole[c[-1]] and not any(whole[i] for i in c[:-1]) for c in columns if len(c) > 1]
        return 2 * sum(spread) - len(spread) - 0.01 * len(columns), upper, columns

    axis = _fan_axis(cards, size)
    if axis is not None:
        down = max([axis, -axis], key=lambda d: fit(d)[0])
    else:
        down = max(QUARTER_TURNS, key=lambda d: fit(d)[0])
        down = _fan_direction(cards, fit(down)[2], down)
    return (down, *fit(down)[1:])


@dataclass(frozen=True)
class _Gap:
    """Cards of a waste pile not read: ``count`` of them after the pile's card ``after`` (an index into ``column``;
    None: under its bottom card)."""

    column: list[int]
    after: int | None
    count: int


def _gaps(columns: list[list[int]], start: list[float]) -> tuple[float, list[_Gap]]:
    """The piles' usual step, and where a waste pile's card may not have been read: a step between two of its
    cards much wider than that, or a pile starting lower than the others (its bottom card not read)."""
    steps = [start[b] - start[a] for c in columns for a, b in zip(c, c[1:])]
    if not steps:
        return 0.0, []
    step = float(np.median(steps))
    row = min(start[c[0]] for c in columns)
    gaps = []
    for column in columns:
        if start[column[0]] - row > MISSING * step:
            gaps.append(_Gap(column, None, max(1, round((start[column[0]] - row) / step))))
        for k, (a, b) in enumerate(zip(column, column[1:])):
            if start[b] - start[a] > (1 + MISSING) * step:
                gaps.append(_Gap(column, k, max(1, round((start[b] - start[a]) / step) - 1)))
    return step, gaps


def _look_closer(cards: list[SeenCard], columns: list[list[int]], down: np.ndarray, size: float,
                 second_look: Callable) -> list[SeenCard]:
    """The cards read at a second look where a pile's corner index was not found: the corner box of the card next
    to the gap (a corner box, not a whole card's) moved along the pile by one step for each card missing."""
    step, gaps = _gaps(columns, _edges(cards, down)[0])
    boxes = []
    for gap in gaps:
        anchor = cards[gap.column[0 if gap.after is None else gap.after]]
        if long_side(anchor.box) >= CORNER * size:
            continue
        sign = -1.0 if gap.after is None else 1.0
        for j in range(1, gap.count + 1):
            dx, dy = sign * j * step * down
            x1, y1, x2, y2 = anchor.box
            boxes.append((x1 + dx, y1 + dy, x2 + dx, y2 + dy))
    if not boxes:
        return []
    seen = {c.card for c in cards}
    found = []
    for box, (name, confidence) in zip(boxes, second_look(np.asarray(boxes, dtype=np.float64))):
        if name is not None and confidence >= SECOND_LOOK and name not in seen:
            seen.add(name)
            found.append(SeenCard(name, float(confidence), tuple(float(v) for v in box), 1))
    return found


def _edges(cards: list[SeenCard], down: np.ndarray) -> tuple[list[float], list[float], list[float]]:
    """Where each card's top edge lies along ``down``, its left edge across it (a corner index lies at both, so a
    card read by a corner alone is placed as one read whole), and its middle along ``down`` (the order within a
    pile: a covered card's box may reach past its own edge over the card under it, its middle does not)."""
    across = np.array([down[1], -down[0]])  # left to right when the piles are spread downwards
    corners = [_corners(c.box) for c in cards]
    return ([min(float(np.dot(q, down)) for q in cs) for cs in corners],
            [min(float(np.dot(q, across)) for q in cs) for cs in corners],
            [float(np.dot(_centre(c.box), down)) for c in cards])


def _rows(start: list[float], side: list[float], mid: list[float], size: float) -> tuple[list[int], list[list[int]]]:
    """The foundations (left to right, top to bottom) and the waste piles (left to right, each bottom card first).

    Cards are first put in columns by their left edges, each in the order of their middles along the piles, and a
    column is cut where a card starts more than ``FOUNDATION_ROW`` below the one before it: a waste pile is spread a
    quarter card a step (a card or two of it not read leave a wider step), a foundation lies a whole card and more
    apart, above its waste pile (so a column is never cut after two cards spread: a covered card boxed as a whole
    card, its box reaching back over the cards under it, leaves a wide step before the pile's top). A piece of two
    or more cards is a waste pile, and the row its bottom card starts in is the waste piles' row; a single card is a
    foundation unless it starts in that row (a waste pile of one card) and no single card lies below that row in its
    column (the foundations laid in a column beside the waste piles). With no spread pile on the table, the cards of
    the upper of two rows are the foundations (one row: waste piles of a card each)."""
    pieces: list[list[int]] = []
    for column in _columns(side, size):
        column.sort(key=lambda i: mid[i])
        pieces.append([column[0]])
        for a, b in zip(column, column[1:]):
            if start[b] - start[a] > FOUNDATION_ROW * size and len(pieces[-1]) < 2:
                pieces.append([])  # nothing lies beyond a spread pile in its column but its own cards
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


def _fan_axis(cards: list[SeenCard], size: float) -> np.ndarray | None:
    """The axis (either way) from each corner index to its nearest corner index within ``NEXT_CORNER`` card sizes,
    averaged as doubled angles (a vector and its opposite agree); None with fewer than two such pairs."""
    small = np.array([_centre(c.box) for c in cards if long_side(c.box) < CORNER * size]).reshape(-1, 2)
    if len(small) < 3:
        return None
    d = np.hypot(*(small[:, None, :] - small[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    near = d.argmin(axis=1)
    steps = [small[near[i]] - small[i] for i in range(len(small)) if d[i, near[i]] < NEXT_CORNER * size]
    if len(steps) < 2:
        return None
    angle = np.array([np.arctan2(v[1], v[0]) for v in steps])
    half = np.arctan2(np.sin(2 * angle).mean(), np.cos(2 * angle).mean()) / 2
    return np.array([np.cos(half), np.sin(half)])


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
