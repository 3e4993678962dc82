"""Hints for the live panel: the advisors' answers turned into rows a player can read.

The advisors (assistant.advisors) are pure and return numbers; this adapter picks the advisor for the
game and variant, gives it the time budget and a seed derived from the position (so the same position
always gets the same hint), and formats the options. None when no advisor can answer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HintOption:
    moves: tuple[str, ...]  # in the game's notation: ("S>W2",), ("S>F0", "W1>F0"), ("r1c3",)
    values: tuple[str, ...]  # one text per Hint.columns

    @property
    def move(self) -> str:
        return " ".join(self.moves)


@dataclass(frozen=True)
class Hint:
    headline: str
    columns: tuple[str, ...]
    options: tuple[HintOption, ...]
    note: str = ""


def hint_for(session, budget_ms: float = 500.0) -> Hint | None:
    """The best moves now, or None when there is no decision (a card must be turned) or no advisor."""
    return None
