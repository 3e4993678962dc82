"""What a player (by keyboard or camera) can do to a game: the events ``Session.handle`` takes, and its answer.

Typed lines, camera decisions and the contest all become one of these values, so the rules are applied in one
place. ``TurnAndPlay`` is the camera's "turned and laid in one quick motion": applied whole or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from assistant.cards import Card
from assistant.games.poker import Placement
from assistant.games.tommy import Move


@dataclass(frozen=True)
class Turn:
    """A card was turned (``card``), or, with ``card=None``, the caller turns the next card of the seeded order."""

    card: Card | None = None


@dataclass(frozen=True)
class Play:
    """A move: a Sir Tommy ``Move`` or a Poker ``Placement`` (Poker Shuffle: ``card`` names the open card)."""

    move: Move | Placement
    card: Card | None = None


@dataclass(frozen=True)
class TurnAndPlay:
    """A card turned and laid at once: the turn and the move are applied together or not at all."""

    card: Card
    move: Move | Placement


@dataclass(frozen=True)
class Undo:
    """Take back the last action."""


Event = Union[Turn, Play, TurnAndPlay, Undo]


@dataclass(frozen=True)
class Outcome:
    """What ``Session.handle`` did: ``ok`` with the applied actions' texts (``"turned Qh"``, ``"S>W2"``), or the
    reason it refused (``error``; the game is unchanged)."""

    ok: bool
    applied: tuple[str, ...] = ()
    error: str = ""
    cards: tuple[Card, ...] = field(default=())  # cards turned by this event

    @property
    def message(self) -> str:
        return "; ".join(self.applied) if self.ok else self.error
