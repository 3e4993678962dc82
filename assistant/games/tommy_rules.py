"""Sir Tommy rules as a value: ``TommyRules`` (variants are fields), the named presets, and ``Move``.

The rules texts in ``shared/rules`` (000 German, 001 English, 002 Dutch, 003 Italian) are the authority.
The base game (001): "You turn the cards over one by one and try to build four piles from Ace up to King.
Suits don't matter. Every card that doesn't fit yet goes on one of four waste piles".

Presets (``TommyRules.preset(name)``, ``PRESETS``)::

    standard            001/000 as written: one card at a time, one pass, no redeal
    aces-out-first      "take out the four Aces as foundations before you start" (Asse vorab)
    four-at-a-time      "turn four cards at once and place all four before you move anything from the
                        waste piles to the foundations" (Vier auf einmal)
    old-strict          "square up the waste piles so that you can only see the top card, and remember what
                        lies below" (Alte strenge Regel): same play, the player view hides buried cards
    in-suit             "build the foundations in suit (only the 2h on the Ah). Cheney (1869) allowed two
                        redeals for this much harder version: pick up the waste piles, shuffle them and play
                        them through again" (Nach Farbe)
    strategy            002: "Staat verplaatsingen van aflegstapel naar aflegstapel toe" (waste-to-waste moves)
    numerica            002: "je kunt geen nieuwe fundering op de tweede stapel beginnen totdat de eerste is
                        gestart" (foundations started strictly left to right)
    calculation         002: foundations built by 1, 2, 3, 4 "met wrap-around bij de Heer"
    puss-in-the-corner  002: "Azen worden in de hoeken geplaatst ...; Heren worden voor het spel uit het
                        kaartspel verwijderd"
    one-redeal          002: "Sir Tommy met hertrek": the waste piles gathered into a stock once, at the end

Where the texts leave details open we looked at PySolFC's games of the same names: its Calculation puts
the base cards A, 2, 3, 4 out first (we do the same); its Numerica (one waste card, rows) and Strategy
(eight rows, foundations only after the stock is out, in suit) and its Puss in the Corner (built by colour,
Kings in) are different games from the 002 variants, so there we follow the text and say so in
``assistant/games/tommy.py``, which lists every reading.

Move notation (docs/CONVENTIONS.md), piles and foundations numbered 0-3::

    S>W2    the turned card to waste pile 2        S>F1    the turned card to foundation 1
    S0>W1   four-at-a-time: the first card still in hand (S0..S3 = the turned cards still in hand,
            in the order turned; S alone means S0)
    W2>F0   top of waste pile 2 to foundation 0    W1>W3   waste to waste (Strategy only)
    R       redeal: gather the waste piles into a new stock
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from assistant.cards import Card, Rank, full_deck
from assistant.games.errors import IllegalMoveError

PILES = 4  # waste piles and foundations


class MoveParseError(IllegalMoveError):
    """A text that is not a move in the Sir Tommy notation; the message quotes the text."""


_MOVE_RE = re.compile(
    r"^\s*(?:(?P<r>R)|(?P<s>S)(?P<si>[0-3])?\s*>\s*(?P<sd>[WF])(?P<sj>[0-3])"
    r"|W(?P<wi>[0-3])\s*>\s*(?P<wd>[WF])(?P<wj>[0-3]))\s*$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Move:
    """One player move; ``str(move)`` is the notation and ``Move.parse`` reads it back.

    ``source`` is ``"S"`` (a turned card in hand), ``"W"`` (a waste pile top) or ``"R"`` (redeal).
    ``source_index`` is the waste pile, or the hand position for ``S0``..``S3`` (None for plain ``S``).
    ``target`` is ``"W"`` or ``"F"`` with ``target_index`` 0-3 (both None for a redeal).

    >>> Move.parse("s > w2")
    Move.parse('S>W2')
    >>> str(Move.parse("W1>F0")), str(Move.parse("S3>F1")), str(Move.parse("R"))
    ('W1>F0', 'S3>F1', 'R')
    """

    source: str
    source_index: int | None = None
    target: str | None = None
    target_index: int | None = None

    def __post_init__(self) -> None:
        ok = (
            (self.source == "R" and self.source_index is None and self.target is None and self.target_index is None)
            or (
                self.source in ("S", "W")
                and self.target in ("W", "F")
                and isinstance(self.target_index, int)
                and 0 <= self.target_index < PILES
                and (
                    (self.source == "S" and (self.source_index is None or 0 <= self.source_index < PILES))
                    or (self.source == "W" and isinstance(self.source_index, int) and 0 <= self.source_index < PILES)
                )
            )
        )
        if not ok:
            raise MoveParseError(
                f"not a Sir Tommy move: {self.source!r} {self.source_index!r} -> {self.target!r} {self.target_index!r}"
            )

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``S>W2``, ``S0>F1``, ``W2>F0``, ``W1>W3`` or ``R`` (any case, spaces allowed)."""
        if not isinstance(text, str):
            raise MoveParseError(f"expected a move as text, got {text!r}")
        m = _MOVE_RE.match(text)
        if not m:
            hint = ""
            if re.match(r"^\s*F", text, re.I):
                hint = " (cards never move back from a foundation)"
            raise MoveParseError(
                f"{text!r} is not a move{hint}: write S>W2 (turned card to waste pile 2), S>F1, W2>F0, "
                f"W1>W3 (Strategy), S0>W1 (four at a time) or R (redeal); piles 0-3"
            )
        if m.group("r"):
            return REDEAL
        if m.group("s"):
            si = m.group("si")
            return cls("S", int(si) if si is not None else None, m.group("sd").upper(), int(m.group("sj")))
        return cls("W", int(m.group("wi")), m.group("wd").upper(), int(m.group("wj")))

    @classmethod
    def redeal(cls) -> "Move":
        return REDEAL

    @property
    def is_redeal(self) -> bool:
        return self.source == "R"

    @property
    def from_hand(self) -> bool:
        return self.source == "S"

    @property
    def to_foundation(self) -> bool:
        return self.target == "F"

    def __str__(self) -> str:
        if self.source == "R":
            return "R"
        src = "S" if self.source == "S" and self.source_index is None else f"{self.source}{self.source_index}"
        return f"{src}>{self.target}{self.target_index}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


REDEAL = Move("R")


@dataclass(frozen=True)
class TommyRules:
    """The parameters of one Sir Tommy game (OpenSpiel style: variants are fields, not subclasses).

    Fields:
      name                  preset name (informative only; equality compares all fields)
      aces_out_first        the four Aces start on the foundations (0-3 in suit order s h d c); stock 48
      turn_count            1, or 4 for "four at a time" (fewer when fewer are left: the rest is turned)
      hidden_piles          old strict rule: the player view shows only the waste pile tops
      in_suit               foundations built in suit ("only the 2h on the Ah")
      redeals               how many times the waste piles may be gathered into a new stock (move ``R``)
      shuffle_on_redeal     the gathered stock is shuffled (its order is a chance outcome again); if False
                            it is the waste piles W0, W1, W2, W3 each from bottom to top (each pile picked
                            up, turned face down and put under the previous ones): the order is known
      waste_to_waste        Strategy: a waste top may move onto another waste pile
      foundations_in_order  Numerica: an Ace may start only the leftmost empty foundation
      calculation           Calculation: foundation k starts with a base card of rank k+1 (A, 2, 3, 4, placed
                            before play as in PySolFC's Calculation) and is built by k+1, wrapping at the King
                            (13 cards each); suits never matter
      kings_removed         the Kings are taken out before the game; foundations run Ace to Queen
    """

    name: str = "standard"
    aces_out_first: bool = False
    turn_count: int = 1
    hidden_piles: bool = False
    in_suit: bool = False
    redeals: int = 0
    shuffle_on_redeal: bool = True
    waste_to_waste: bool = False
    foundations_in_order: bool = False
    calculation: bool = False
    kings_removed: bool = False

    piles: ClassVar[int] = PILES

    def __post_init__(self) -> None:
        if self.turn_count not in (1, 4):
            raise ValueError(f"turn_count must be 1 or 4, got {self.turn_count!r}")
        if not isinstance(self.redeals, int) or self.redeals < 0:
            raise ValueError(f"redeals must be an int >= 0, got {self.redeals!r}")
        if self.calculation and (self.aces_out_first or self.in_suit or self.foundations_in_order or self.kings_removed):
            raise ValueError(
                "calculation cannot be combined with aces_out_first, in_suit, foundations_in_order or kings_removed"
            )

    # -- presets ---------------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> "TommyRules":
        """The preset called ``name`` (or an alias such as ``asse-vorab``); ValueError lists the names."""
        key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
        key = ALIASES.get(key, key)
        try:
            return PRESETS[key]
        except KeyError:
            raise ValueError(f"unknown Sir Tommy variant {name!r}; choose one of: {', '.join(PRESETS)}") from None

    def replace(self, **changes) -> "TommyRules":
        return dataclasses.replace(self, **changes)

    # -- derived -------------------------------------------------------------------------------------------
    @property
    def max_rank(self) -> int:
        """The highest rank in play: 12 (Queen) with the Kings removed, else 13."""
        return 12 if self.kings_removed else 13

    @property
    def foundation_size(self) -> int:
        """Cards on a complete foundation (13, or 12 without Kings)."""
        return self.max_rank

    @property
    def cards_in_play(self) -> int:
        """52, or 48 with the Kings removed: the foundation cards of a won game."""
        return 4 * self.max_rank

    @property
    def has_bases(self) -> bool:
        """Whether four base cards are put on the foundations before play."""
        return self.aces_out_first or self.calculation

    def deck(self) -> list[Card]:
        """The cards in play, in index order."""
        return [c for c in full_deck() if c.rank <= self.max_rank]

    def step(self, foundation: int) -> int:
        """How a foundation builds: +1, or +k+1 on foundation k in Calculation."""
        return foundation + 1 if self.calculation else 1

    def next_rank(self, foundation: int, top: Rank | int | None) -> int | None:
        """The rank foundation ``foundation`` takes on ``top`` (None: empty), or None when it is complete.

        Calculation wraps at the King: foundation 1 runs 2-4-6-8-10-Q-A-3-5-7-9-J-K.
        """
        if top is None:
            return foundation + 1 if self.calculation else 1
        if top == 13 or top == self.max_rank and not self.calculation:
            return None  # a King ends every foundation (13 * step is 0 mod 13)
        return (int(top) + self.step(foundation) - 1) % 13 + 1

    def to_params(self) -> np.ndarray:
        """The fields as int32[10] for compiled kernels, in this order:
        [turn_count, aces_out_first, in_suit, redeals, shuffle_on_redeal, waste_to_waste,
         foundations_in_order, calculation, max_rank, hidden_piles]."""
        return np.array(
            [self.turn_count, self.aces_out_first, self.in_suit, self.redeals, self.shuffle_on_redeal,
             self.waste_to_waste, self.foundations_in_order, self.calculation, self.max_rank, self.hidden_piles],
            dtype=np.int32,
        )

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "TommyRules":
        """Rules from ``to_dict()``; ValueError names a wrong or unknown field."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict, got {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(fields)
        if unknown:
            raise ValueError(f"unknown rules field(s): {', '.join(sorted(unknown))}")
        for key, value in data.items():
            want = str if key == "name" else int if key in ("turn_count", "redeals") else bool
            if type(value) is not want:
                raise ValueError(f"rules field {key!r} must be {want.__name__}, got {value!r}")
        return cls(**data)


PRESETS: dict[str, TommyRules] = {
    "standard": TommyRules("standard"),
    "aces-out-first": TommyRules("aces-out-first", aces_out_first=True),
    "four-at-a-time": TommyRules("four-at-a-time", turn_count=4),
    "old-strict": TommyRules("old-strict", hidden_piles=True),
    "in-suit": TommyRules("in-suit", in_suit=True, redeals=2, shuffle_on_redeal=True),
    "strategy": TommyRules("strategy", waste_to_waste=True),
    "numerica": TommyRules("numerica", foundations_in_order=True),
    "calculation": TommyRules("calculation", calculation=True),
    "puss-in-the-corner": TommyRules("puss-in-the-corner", aces_out_first=True, kings_removed=True),
    "one-redeal": TommyRules("one-redeal", redeals=1, shuffle_on_redeal=False),
}

# Names from the rules texts (000 German, 002 Dutch) and common spellings.
ALIASES: dict[str, str] = {
    "sir-tommy": "standard",
    "old-patience": "standard",
    "try-again": "standard",
    "aces-out": "aces-out-first",
    "asse-vorab": "aces-out-first",
    "four": "four-at-a-time",
    "vier-auf-einmal": "four-at-a-time",
    "strict": "old-strict",
    "alte-strenge-regel": "old-strict",
    "suit": "in-suit",
    "nach-farbe": "in-suit",
    "puss": "puss-in-the-corner",
    "redeal": "one-redeal",
    "hertrek": "one-redeal",
    "met-hertrek": "one-redeal",
    "sir-tommy-met-hertrek": "one-redeal",
}
