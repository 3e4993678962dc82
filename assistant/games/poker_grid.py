"""Poker Patience squares as scores and as text: each row's and column's hand and points, and the square written
``Ah Ad Js Jc Jh / 9h ...`` (read and written).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from assistant.cards import Card, CardError
from assistant.games.poker_hands import LINE_NAMES, LINES, HandCategory, Scoring, classify, hand_points
from assistant.games.poker_rules import _WIN, CELLS, SIZE


@dataclass(frozen=True)
class LineScore:
    """One row or column: its five cells (None = empty), its hand (None while incomplete) and points."""

    name: str  # "row 1" .. "column 5"
    cards: tuple[Card | None, ...]
    category: HandCategory | None
    points: int

    @property
    def complete(self) -> bool:
        return self.category is not None


@dataclass(frozen=True)
class GridScore:
    """004, "Wertung": "Ist das Quadrat voll, wertest du alle fünf Reihen und fünf Spalten – zusammen zehn Hände –
    und zählst die Punkte zusammen." Incomplete lines count 0 until they are full."""

    scoring: Scoring
    rows: tuple[LineScore, ...]
    columns: tuple[LineScore, ...]
    threshold: int

    @property
    def lines(self) -> tuple[LineScore, ...]:
        return self.rows + self.columns

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    @property
    def complete(self) -> bool:
        return all(line.complete for line in self.lines)

    @property
    def won(self) -> bool:
        """Full square and at least the threshold (200/70; Poker Shuffle 310/120)."""
        return self.complete and self.total >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        def line(ls: LineScore) -> dict[str, Any]:
            return {
                "cards": [None if c is None else str(c) for c in ls.cards],
                "hand": None if ls.category is None else ls.category.label,
                "points": ls.points,
            }

        return {
            "scoring": self.scoring.value,
            "total": self.total,
            "threshold": self.threshold,
            "won": self.won,
            "rows": [line(x) for x in self.rows],
            "columns": [line(x) for x in self.columns],
        }


def score_grid(cells: Sequence[Card | None], scoring: Scoring | str = Scoring.AMERICAN,
               threshold: int | None = None) -> GridScore:
    """Score a row-major list of 25 cells (Card or None). ``threshold`` defaults to the standard 200/70."""
    scoring = Scoring.parse(scoring)
    cells = list(cells)
    if len(cells) != CELLS:
        raise ValueError(f"a grid has {CELLS} cells, got {len(cells)}")
    lines = []
    for name, idx in zip(LINE_NAMES, LINES):
        cards = tuple(cells[i] for i in idx)
        if any(c is None for c in cards):
            lines.append(LineScore(name, cards, None, 0))
        else:
            cat = classify(cards)  # type: ignore[arg-type]
            lines.append(LineScore(name, cards, cat, hand_points(cat, scoring)))
    if threshold is None:
        threshold = _WIN[(False, scoring)]
    return GridScore(scoring, tuple(lines[:5]), tuple(lines[5:]), threshold)


# --------------------------------------------------------------------------------------------------- grid text


def parse_grid(text: str) -> list[Card]:
    """Read a full square of 25 cards, row-major: rows separated by ``/`` or by line breaks, cards by spaces or
    commas (``AH AD JS JC JH / 9H 7D 9S 9C 7H / ...``); 25 cards with no separator are read as 5 rows of 5.

    Errors (ValueError, CardError for card problems) name the row: a row without 5 cards, a text that is not a
    card, a card twice.
    """
    if not isinstance(text, str):
        raise ValueError(f"expected the grid as text, got {type(text).__name__}")
    if "/" in text:
        rows = text.split("/")
    else:
        rows = [ln for ln in text.splitlines() if ln.strip()]
    rows = [r.replace(",", " ").split() for r in rows]
    if len(rows) == 1 and len(rows[0]) == CELLS:
        rows = [rows[0][i:i + SIZE] for i in range(0, CELLS, SIZE)]
    if len(rows) != SIZE:
        total = sum(len(r) for r in rows)
        raise ValueError(f"a grid has {SIZE} rows of {SIZE} cards separated by '/', got {len(rows)} row(s) "
                         f"({total} card(s))")
    out: list[Card] = []
    where: dict[Card, int] = {}
    for r, tokens in enumerate(rows, 1):
        if len(tokens) != SIZE:
            raise ValueError(f"row {r} has {len(tokens)} card(s), a row needs {SIZE}: {' '.join(tokens) or '(empty)'}")
        for c, tok in enumerate(tokens, 1):
            try:
                card = Card.parse(tok)
            except CardError as exc:
                raise CardError(f"row {r}, card {c}: {exc}") from None
            if card in where:
                same = "row" if where[card] == r else f"rows {where[card]} and"
                raise CardError(f"{card} appears twice ({same} {r}): a deck has each card once")
            where[card] = r
            out.append(card)
    return out


def format_grid(cells: Sequence[Card | None], empty: str = "--") -> str:
    """The inverse of :func:`parse_grid`: ``Ah Ad Js Jc Jh / 9h ...`` (empty cells as ``--``)."""
    cells = list(cells)
    return " / ".join(" ".join(empty if x is None else str(x) for x in cells[r * SIZE:(r + 1) * SIZE])
                      for r in range(SIZE))


def format_grid_cards(cards: Iterable[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"
