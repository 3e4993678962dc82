"""Poker Patience (Poker Squares) and its variants: rules, state, placements, scores (rules/004_*.txt).

004, "Überblick": "Du deckst 25 Karten nacheinander auf und legst jede in ein Quadrat aus fünf Reihen und fünf
Spalten. Jede Reihe und jede Spalte zählt am Ende als Pokerhand aus fünf Karten [...] Eine gelegte Karte bleibt, wo
sie ist."

004, "Spielablauf": "1. Deck die oberste Karte des Vorrats auf. 2. Leg sie offen auf einen beliebigen freien Platz im
Quadrat. [...] 3. Eine gelegte Karte darfst du nie mehr verschieben. 4. So geht es weiter, bis alle 25 Plätze belegt
sind."

Variants (004, "Varianten"), all in :class:`PokerRules`:

* "Nur neben eine Karte: In den ältesten Regeln muss jede Karte nach der ersten neben eine schon liegende Karte –
  darüber, darunter, daneben oder schräg." -> ``adjacent_only``.
* "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus, dann ordnest du sie beliebig an. Gewonnen ist ab 310
  Punkten (amerikanisch) oder 120 (englisch)." -> ``shuffle``: all 25 cards are turned first, then placed in any
  order into any free cells (undo takes a placement back, so any arrangement can be reached).
* "Mehrere Spieler: [...] Einer mischt und sagt jede aufgedeckte Karte an; die anderen [...] legen sie in ihr eigenes
  Quadrat. Die höchste Summe gewinnt." -> one PokerState per player fed the caller's cards
  (:func:`caller_cards`), then :func:`rank_players`.

The game is a game of chance: the state never draws a card itself. The caller (a person, the camera, or
``assistant.deals.deal_order(seed)``) names each turned card with :meth:`PokerState.turn`.

Cells are :class:`Placement` values, 0-based ``(row, col)``, written ``r1c3`` for people (1-based row, column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from assistant.cards import Card, CardError, full_deck
from assistant.games.errors import IllegalMoveError
from assistant.games.poker_hands import (
    LINE_NAMES,
    LINES,
    HandCategory,
    Scoring,
    classify,
    hand_points,
)

__all__ = [
    "IllegalMoveError",
    "PokerRules",
    "Placement",
    "LineScore",
    "GridScore",
    "PokerArrays",
    "Step",
    "PokerState",
    "parse_grid",
    "format_grid",
    "score_grid",
    "rank_players",
    "caller_cards",
    "SIZE",
    "CELLS",
]

SIZE = 5
CELLS = SIZE * SIZE
SAVE_FORMAT = "patience-lens/poker"
SAVE_VERSION = 1


# --------------------------------------------------------------------------------------------------- rules

_WIN = {  # (shuffle, scoring) -> points needed; 004 "Gewonnen?" and "Poker Shuffle"
    (False, Scoring.AMERICAN): 200,
    (False, Scoring.ENGLISH): 70,
    (True, Scoring.AMERICAN): 310,
    (True, Scoring.ENGLISH): 120,
}


@dataclass(frozen=True)
class PokerRules:
    """The rules agreed before the game (004: "Legt vorher fest, welche gilt." / "vor dem Spiel festlegen").

    ``scoring``: ``"american"`` or ``"english"`` (a :class:`Scoring`, which compares equal to the text).
    ``adjacent_only``: "Nur neben eine Karte" — after the first card every card goes next to a placed one
    (orthogonally or diagonally). ``shuffle``: Poker Shuffle — all 25 cards known first, free arrangement.
    """

    scoring: Scoring = Scoring.AMERICAN
    adjacent_only: bool = False
    shuffle: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "scoring", Scoring.parse(self.scoring))
        for name in ("adjacent_only", "shuffle"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.adjacent_only and self.shuffle:
            raise ValueError("'adjacent_only' (Nur neben eine Karte) does not apply to Poker Shuffle, "
                             "where the 25 cards are arranged freely")

    @property
    def win_threshold(self) -> int:
        """004: "gewonnen, wenn du mit amerikanischer Wertung 200 Punkte oder mit englischer Wertung 70 Punkte
        erreichst"; Poker Shuffle: "ab 310 Punkten (amerikanisch) oder 120 (englisch)"."""
        return _WIN[(self.shuffle, self.scoring)]

    @property
    def name(self) -> str | None:
        """The preset name of these rules (``"english-adjacent"``), None if they match no preset."""
        for n, r in _PRESETS.items():
            if r == self:
                return n
        return None

    def describe(self) -> str:
        parts = [f"{self.scoring.value} scoring"]
        if self.adjacent_only:
            parts.append("only next to a card (Nur neben eine Karte)")
        if self.shuffle:
            parts.append("Poker Shuffle")
        parts.append(f"win at {self.win_threshold}")
        return ", ".join(parts)

    @staticmethod
    def preset_names() -> list[str]:
        return list(_PRESETS) + list(_ALIASES)

    @classmethod
    def preset(cls, name: str) -> "PokerRules":
        """Rules by name: american, english, american-adjacent, english-adjacent, american-shuffle,
        english-shuffle; aliases adjacent (= american-adjacent), shuffle (= american-shuffle).
        Unknown name: ValueError listing the names."""
        key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
        key = _ALIASES.get(key, key)
        if key not in _PRESETS:
            raise ValueError(f"unknown Poker Patience rules {name!r}; choose one of: {', '.join(cls.preset_names())}")
        return _PRESETS[key]

    def to_dict(self) -> dict[str, Any]:
        return {"scoring": self.scoring.value, "adjacent_only": self.adjacent_only, "shuffle": self.shuffle}

    @classmethod
    def from_dict(cls, data: Any) -> "PokerRules":
        if not isinstance(data, dict):
            raise ValueError(f"poker rules must be an object, got {type(data).__name__}")
        unknown = set(data) - {"scoring", "adjacent_only", "shuffle"}
        if unknown:
            raise ValueError(f"unknown poker rules field(s): {', '.join(sorted(unknown))}")
        return cls(**data)


_PRESETS: dict[str, PokerRules] = {
    "american": PokerRules(Scoring.AMERICAN),
    "english": PokerRules(Scoring.ENGLISH),
    "american-adjacent": PokerRules(Scoring.AMERICAN, adjacent_only=True),
    "english-adjacent": PokerRules(Scoring.ENGLISH, adjacent_only=True),
    "american-shuffle": PokerRules(Scoring.AMERICAN, shuffle=True),
    "english-shuffle": PokerRules(Scoring.ENGLISH, shuffle=True),
}
_ALIASES = {"adjacent": "american-adjacent", "shuffle": "american-shuffle"}


# --------------------------------------------------------------------------------------------------- placements

_PLACEMENT_RE = re.compile(r"^\s*r\s*(\d+)\s*c\s*(\d+)\s*$", re.I)


@dataclass(frozen=True, order=True, slots=True)
class Placement:
    """A cell of the 5x5 square, 0-based. Text for people: ``r1c3`` = row 1, column 3 (1-based)."""

    row: int
    col: int

    def __post_init__(self) -> None:
        for name in ("row", "col"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"placement {name} must be an integer, got {v!r}")
            if not 0 <= v < SIZE:
                raise IllegalMoveError(f"{name} {v + 1} is outside the square (rows and columns 1-{SIZE})")
            object.__setattr__(self, name, int(v))

    @property
    def cell(self) -> int:
        """Row-major cell index 0..24, as in :meth:`PokerState.to_arrays`."""
        return self.row * SIZE + self.col

    @classmethod
    def from_cell(cls, cell: int) -> "Placement":
        if not 0 <= cell < CELLS:
            raise IllegalMoveError(f"cell {cell} is outside the square (0..{CELLS - 1})")
        return cls(cell // SIZE, cell % SIZE)

    @classmethod
    def parse(cls, text: str) -> "Placement":
        """Read ``r1c3`` (also ``R1C3``, ``r 1 c 3``); ValueError naming the text otherwise."""
        m = _PLACEMENT_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"{text!r} is not a cell: write r<row>c<column>, 1-based, e.g. r1c3")
        return cls(int(m.group(1)) - 1, int(m.group(2)) - 1)

    @classmethod
    def coerce(cls, value: "Placement | str | tuple[int, int]") -> "Placement":
        if isinstance(value, Placement):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, tuple) and len(value) == 2:
            return cls(*value)
        raise ValueError(f"{value!r} is not a cell: give a Placement, (row, col) 0-based, or text like r1c3")

    def neighbours(self) -> list["Placement"]:
        """The up to eight cells around this one: "darüber, darunter, daneben oder schräg" (004)."""
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = self.row + dr, self.col + dc
                if (dr or dc) and 0 <= r < SIZE and 0 <= c < SIZE:
                    out.append(Placement(r, c))
        return out

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}"


# --------------------------------------------------------------------------------------------------- scores


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


# --------------------------------------------------------------------------------------------------- state


class PokerArrays(NamedTuple):
    """The state as arrays for compiled advisors."""

    grid: np.ndarray  # int8[25], row-major card index or -1 for an empty cell
    current: int  # index of the turned card waiting to be placed, -1 if none (Poker Shuffle: first pending)
    pending: np.ndarray  # int8[k]: turned but not yet placed cards (k <= 1; up to 25 in Poker Shuffle)
    unseen: np.ndarray  # int8[m]: cards not turned yet, ascending index


@dataclass(frozen=True)
class Step:
    """One placed card, in the order played."""

    card: Card
    placement: Placement

    def __str__(self) -> str:
        return f"{self.card} on {self.placement}"


class PokerState:
    """One player's square. Alternate :meth:`turn` (the caller names the card) and :meth:`place`.

    Poker Shuffle: :meth:`turn` all 25 cards first ("Alle 25 Karten liegen zuerst offen aus"), then
    :meth:`place` each into any free cell (``card=`` picks which open card; default the first).
    """

    def __init__(self, rules: PokerRules | None = None) -> None:
        self.rules = rules if rules is not None else PokerRules()
        self._grid: list[Card | None] = [None] * CELLS
        self._dealt: list[Card] = []  # every turned card, in order
        self._pending: list[Card] = []  # turned, not yet placed (in turn order)
        self._history: list[Step] = []

    # ------------------------------------------------------------------ queries

    @property
    def grid(self) -> tuple[tuple[Card | None, ...], ...]:
        """5 rows of 5 cells (Card or None)."""
        return tuple(tuple(self._grid[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))

    @property
    def cells(self) -> tuple[Card | None, ...]:
        """The 25 cells, row-major."""
        return tuple(self._grid)

    def at(self, cell: Placement | str | tuple[int, int]) -> Card | None:
        return self._grid[Placement.coerce(cell).cell]

    @property
    def history(self) -> tuple[Step, ...]:
        """Placed cards in the order played."""
        return tuple(self._history)

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Turned cards in the order turned."""
        return tuple(self._dealt)

    @property
    def pending(self) -> tuple[Card, ...]:
        """Turned cards not placed yet (at most one, except in Poker Shuffle)."""
        return tuple(self._pending)

    @property
    def current(self) -> Card | None:
        """The card to place next (Poker Shuffle: the first open card), None if none is waiting."""
        return self._pending[0] if self._pending else None

    @property
    def placed_count(self) -> int:
        return len(self._history)

    def needs_card(self) -> bool:
        """True when the next action is turning a card (Poker Shuffle: until all 25 are open)."""
        if self.rules.shuffle:
            return len(self._dealt) < CELLS
        return not self._pending and len(self._history) < CELLS

    def is_terminal(self) -> bool:
        """004: "So geht es weiter, bis alle 25 Plätze belegt sind.\""""
        return len(self._history) == CELLS

    def unseen(self) -> list[Card]:
        """Cards not turned yet, in index order."""
        seen = set(self._dealt)
        return [c for c in full_deck() if c not in seen]

    def legal_cells(self) -> list[Placement]:
        """Cells where the next card may go, row-major: any free cell ("einen beliebigen freien Platz");
        with ``adjacent_only``, after the first card only free cells next to a placed card (also diagonally)."""
        free = [Placement.from_cell(i) for i in range(CELLS) if self._grid[i] is None]
        if self.rules.adjacent_only and self._history:
            free = [p for p in free if self._touches_card(p)]
        return free

    def _touches_card(self, p: Placement) -> bool:
        return any(self._grid[n.cell] is not None for n in p.neighbours())

    def score(self, scoring: Scoring | str | None = None) -> GridScore:
        """Score under the rules' scoring (or ``scoring``); incomplete lines count 0."""
        s = self.rules.scoring if scoring is None else Scoring.parse(scoring)
        threshold = _WIN[(self.rules.shuffle, s)]
        return score_grid(self._grid, s, threshold)

    # ------------------------------------------------------------------ actions

    def turn(self, card: Card | str) -> Card:
        """The caller names the next turned card. A card seen before: CardError naming it; turning while a card
        waits to be placed, or after the 25th: IllegalMoveError. State unchanged on error."""
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            raise CardError(f"expected a card, got {card!r}")
        if card in self._dealt:
            raise CardError(f"{card} was already turned in this game: a deck has each card once")
        if not self.needs_card():
            if self._pending and not self.rules.shuffle:
                raise IllegalMoveError(f"place {self._pending[0]} first: one card is turned at a time")
            raise IllegalMoveError("all 25 cards are already turned")
        self._dealt.append(card)
        self._pending.append(card)
        return card

    def place(self, cell: Placement | str | tuple[int, int], card: Card | str | None = None) -> Placement:
        """Put the waiting card on ``cell`` (``r1c3``, ``(0, 2)`` or a Placement); in Poker Shuffle ``card`` picks
        which open card. Illegal: IllegalMoveError with the reason, state unchanged."""
        p = Placement.coerce(cell)
        if self.rules.shuffle and len(self._dealt) < CELLS:
            raise IllegalMoveError(f"Poker Shuffle: all 25 cards are laid out first, {CELLS - len(self._dealt)} "
                                   "still to turn")
        if not self._pending:
            raise IllegalMoveError("no card to place: turn the next card first")
        if card is None:
            chosen = self._pending[0]
        else:
            chosen = Card.parse(card) if isinstance(card, str) else card
            if chosen not in self._pending:
                raise IllegalMoveError(f"{chosen} is not waiting to be placed")
            if not self.rules.shuffle and chosen != self._pending[0]:
                raise IllegalMoveError(f"the card to place is {self._pending[0]}, not {chosen}")
        occupant = self._grid[p.cell]
        if occupant is not None:
            raise IllegalMoveError(f"{p} is taken by {occupant}: a placed card never moves")
        if self.rules.adjacent_only and self._history and not self._touches_card(p):
            raise IllegalMoveError(f"{p} is not next to a placed card (Nur neben eine Karte: above, below, beside "
                                   "or diagonal)")
        self._pending.remove(chosen)
        self._grid[p.cell] = chosen
        self._history.append(Step(chosen, p))
        return p

    def apply(self, placement: Placement | str | tuple[int, int]) -> Placement:
        """Same as :meth:`place` (the advisor's name for it)."""
        return self.place(placement)

    def undo(self) -> Step | Card:
        """Take back the last action: a placement (its card waits again; returns the Step) or, if a turned card
        is waiting and nothing was placed after it, that turn (the card is unseen again; returns the Card).
        Nothing to undo: IllegalMoveError."""
        if self.rules.shuffle:
            if self._history:
                return self._unplace()
            if self._dealt:
                card = self._dealt.pop()
                self._pending.remove(card)
                return card
            raise IllegalMoveError("nothing to undo")
        if self._pending:
            self._pending.pop()
            return self._dealt.pop()
        if self._history:
            return self._unplace()
        raise IllegalMoveError("nothing to undo")

    def _unplace(self) -> Step:
        step = self._history.pop()
        self._grid[step.placement.cell] = None
        self._pending.append(step.card)
        order = {c: i for i, c in enumerate(self._dealt)}
        self._pending.sort(key=order.__getitem__)
        return step

    def clone(self) -> "PokerState":
        other = PokerState.__new__(PokerState)
        other.rules = self.rules
        other._grid = list(self._grid)
        other._dealt = list(self._dealt)
        other._pending = list(self._pending)
        other._history = list(self._history)
        return other

    # ------------------------------------------------------------------ arrays and saves

    def to_arrays(self) -> PokerArrays:
        """``grid`` int8[25] (card index or -1, row-major), ``current`` (index or -1), ``pending`` and ``unseen``
        int8 arrays of card indices."""
        grid = np.array([-1 if c is None else c.index for c in self._grid], dtype=np.int8)
        pending = np.array([c.index for c in self._pending], dtype=np.int8)
        seen = np.zeros(52, dtype=bool)
        seen[[c.index for c in self._dealt]] = True
        unseen = np.nonzero(~seen)[0].astype(np.int8)
        current = int(pending[0]) if pending.size else -1
        return PokerArrays(grid, current, pending, unseen)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe save: rules, cards in the order turned, placements in the order played."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": self.rules.to_dict(),
            "dealt": [str(c) for c in self._dealt],
            "placements": [[str(s.card), str(s.placement)] for s in self._history],
        }

    @classmethod
    def from_dict(cls, data: Any) -> "PokerState":
        """Rebuild a state saved by :meth:`to_dict` by replaying it; corrupt data: ValueError saying what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"not a Poker Patience save: expected an object, got {type(data).__name__}")
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a Poker Patience save (format {data.get('format')!r}, expected {SAVE_FORMAT!r})")
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"unsupported Poker Patience save version {data.get('version')!r} "
                             f"(this program reads {SAVE_VERSION})")
        for key in ("rules", "dealt", "placements"):
            if key not in data:
                raise ValueError(f"corrupt Poker Patience save: '{key}' is missing")
        try:
            rules = PokerRules.from_dict(data["rules"])
        except (TypeError, ValueError) as exc:
            raise ValueError(f"corrupt Poker Patience save: rules: {exc}") from None
        dealt, placements = data["dealt"], data["placements"]
        if not isinstance(dealt, list) or not isinstance(placements, list):
            raise ValueError("corrupt Poker Patience save: 'dealt' and 'placements' must be lists")
        state = cls(rules)
        try:
            cards = [Card.parse(t) for t in dealt]
            steps = []
            for i, item in enumerate(placements, 1):
                if not (isinstance(item, list) and len(item) == 2):
                    raise ValueError(f"placement {i} must be [card, cell], got {item!r}")
                steps.append((Card.parse(item[0]), Placement.parse(item[1])))
            if rules.shuffle:
                for c in cards:
                    state.turn(c)
                for c, p in steps:
                    state.place(p, c)
            else:
                if len(steps) > len(cards) or len(cards) > len(steps) + 1:
                    raise ValueError(f"{len(cards)} card(s) turned but {len(steps)} placed")
                for i, c in enumerate(cards):
                    state.turn(c)
                    if i < len(steps):
                        if steps[i][0] != c:
                            raise ValueError(f"placement {i + 1} is {steps[i][0]} but card {i + 1} turned was {c}")
                        state.place(steps[i][1])
        except ValueError as exc:  # CardError and IllegalMoveError are ValueErrors
            raise ValueError(f"corrupt Poker Patience save: {exc}") from None
        return state

    @classmethod
    def from_grid(cls, cards: Sequence[Card | None], rules: PokerRules | None = None) -> "PokerState":
        """A state holding ``cards`` (25 cells row-major, None = empty), as if placed in row-major order.
        With ``adjacent_only`` the row-major order may be illegal for a sparse grid: then IllegalMoveError."""
        cards = list(cards)
        if len(cards) != CELLS:
            raise ValueError(f"a grid has {CELLS} cells, got {len(cards)}")
        state = cls(rules)
        placed = [(i, c) for i, c in enumerate(cards) if c is not None]
        if state.rules.shuffle:
            if len(placed) != CELLS:
                raise ValueError("a Poker Shuffle state from a grid needs all 25 cards")
            for _, c in placed:
                state.turn(c)
            for i, c in placed:
                state.place(Placement.from_cell(i), c)
            return state
        for i, c in placed:
            state.turn(c)
            state.place(Placement.from_cell(i))
        return state

    def __repr__(self) -> str:
        return f"PokerState({self.rules.name or self.rules}, {format_grid(self._grid)}, pending={format_grid_cards(self._pending)})"


def format_grid_cards(cards: Iterable[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


# --------------------------------------------------------------------------------------------------- players


def caller_cards(seed: int, count: int = CELLS) -> list[Card]:
    """The caller's first ``count`` cards for ``seed`` (004, Mehrere Spieler: "Einer mischt und sagt jede
    aufgedeckte Karte an"); every player gets the same order from ``assistant.deals.deal_order(seed)``."""
    from assistant.deals import deal_order

    return deal_order(seed)[:count]


def rank_players(scores: dict[str, int]) -> list[tuple[int, str, int]]:
    """004: "Die höchste Summe gewinnt." -> ``[(place, name, score), ...]``, best first. Equal scores share a
    place and the next place is skipped (standard competition ranking: 1, 1, 3); equal scores list by name."""
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    out: list[tuple[int, str, int]] = []
    for i, (name, score) in enumerate(ordered):
        place = out[-1][0] if out and out[-1][2] == score else i + 1
        out.append((place, name, score))
    return out
