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

The engine is split as Sir Tommy's is: ``poker_rules`` (rules, placements), ``poker_grid`` (scores, grid text),
``poker_io`` (saves), ``poker_players`` (the caller, the ranking) and this module (the state). Every name stays
importable from here (``from assistant.games.poker import Placement, score_grid, ...``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Sequence

import numpy as np

from assistant.cards import Card, CardError, full_deck
from assistant.games.errors import IllegalMoveError
from assistant.games.poker_grid import GridScore, LineScore, format_grid, format_grid_cards, parse_grid, score_grid
from assistant.games.poker_hands import Scoring
from assistant.games.poker_io import SAVE_FORMAT, SAVE_VERSION, state_from_dict, state_to_dict
from assistant.games.poker_players import caller_cards, rank_players
from assistant.games.poker_rules import _WIN, CELLS, SIZE, Placement, PokerRules

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
    "format_grid_cards",
    "score_grid",
    "rank_players",
    "caller_cards",
    "SIZE",
    "CELLS",
    "SAVE_FORMAT",
    "SAVE_VERSION",
]


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

    # -- save files (assistant/games/poker_io.py) ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe save: rules, cards in the order turned, placements in the order played."""
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "PokerState":
        """Rebuild a state saved by :meth:`to_dict` by replaying it; corrupt data: ValueError saying what is wrong."""
        return state_from_dict(cls, data)

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
