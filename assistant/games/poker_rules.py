"""Poker Patience rules and placements: the variants agreed before the game, and the cells a card goes to.

004, "Varianten": "Legt vorher fest, welche gilt." -- American or English scoring, "Nur neben eine Karte", Poker
Shuffle (:class:`PokerRules`, by preset name). Cells are :class:`Placement` values, 0-based ``(row, col)``,
written ``r1c3`` for people (1-based row, column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from assistant.games.errors import IllegalMoveError
from assistant.games.poker_hands import Scoring

SIZE = 5
CELLS = SIZE * SIZE


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
