"""A game being played: the engine state, who calls the cards, and saving after every action.

The session is what the manual play loop, the demo and (later) the camera path drive. It keeps the
rules engines pure: saving happens through the ``saver`` callable handed in at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from assistant.cards import Card, CardError
from assistant.deals import deal_order
from assistant.games.poker import Placement, PokerRules, PokerState
from assistant.games.tommy import Move, TommyRules, TommyState

GAMES = ("tommy", "poker")


@dataclass
class Session:
    """One game: ``game`` is "tommy" or "poker"; ``seed`` set means the app calls the cards (the caller)."""

    game: str
    state: TommyState | PokerState
    variant: str
    seed: int | None = None
    saver: Callable[["Session"], object] | None = None
    meta: dict = field(default_factory=dict)

    # -- making one --------------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, variant: str | None = None, seed: int | None = None, saver=None) -> "Session":
        """A fresh game; unknown game or variant: ValueError listing the choices."""
        if game == "tommy":
            rules = TommyRules.preset(variant or "standard")
            state = TommyState(rules, order=deal_order(seed) if seed is not None else None)
            variant = rules.name
        elif game == "poker":
            rules = PokerRules.preset(variant or "american")
            state = PokerState(rules)
            variant = rules.name or (variant or "american")
        else:
            raise ValueError(f"unknown game {game!r}: choose tommy or poker")
        session = cls(game, state, variant, seed, saver)
        session.save()
        return session

    def to_save(self) -> dict:
        return {"state": self.state.to_dict(), "meta": {"variant": self.variant, "seed": self.seed, **self.meta}}

    @classmethod
    def from_save(cls, game: str, state: dict, meta: dict, saver=None) -> "Session":
        """Rebuild a saved game (the engines replay and check the history; ValueError if corrupt)."""
        if game == "tommy":
            st = TommyState.from_dict(state)
        elif game == "poker":
            st = PokerState.from_dict(state)
        else:
            raise ValueError(f"unknown game {game!r} in the save")
        seed = meta.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ValueError(f"corrupt save: seed {seed!r} is not an integer")
        extra = {k: v for k, v in meta.items() if k not in ("variant", "seed")}
        return cls(game, st, str(meta.get("variant", "")), seed, saver, extra)

    def save(self) -> None:
        if self.saver is not None:
            self.saver(self)

    # -- playing --------------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.is_terminal()

    def needs_card(self) -> bool:
        return bool(self.state.needs_card())

    def called_card(self) -> Card | None:
        """The card the caller turns next when the app calls a seeded order (None when the player types it)."""
        if self.seed is None or not self.needs_card():
            return None
        if self.game == "tommy":
            outcomes = self.state.chance_outcomes()
            return outcomes[0] if len(outcomes) == 1 else None
        dealt = len(self.state.dealt)
        return deal_order(self.seed)[dealt]

    def turn(self, card: Card | str | None = None) -> Card:
        """Turn ``card`` (typed by the player) or, with no card, the caller's next card."""
        if card is None:
            if self.game == "tommy" and self.seed is not None:
                card = self.state.turn_next()
                self.save()
                return card
            card = self.called_card()
            if card is None:
                raise CardError("type the card you turned")
        card = card if isinstance(card, Card) else Card.parse(card)
        self.state.turn(card)
        self.save()
        return card

    def play(self, move: str | Move | Placement) -> str:
        """Make a move (Sir Tommy ``S>W2``; Poker ``r1c3``); returns its canonical text."""
        if self.game == "tommy":
            move = move if isinstance(move, Move) else Move.parse(expand_tommy_shorthand(str(move), self.state))
            self.state.apply(move)
        elif isinstance(move, Placement):
            move = self.state.place(move)
        else:
            parts = str(move).split()
            if len(parts) == 2 and not parts[0].isdigit():  # Poker Shuffle: "Qh r1c3" names the open card to place
                move = self.state.place(parse_cell(parts[1]), Card.parse(parts[0]))
            else:
                move = self.state.place(parse_cell(str(move)))
        self.save()
        return str(move)

    def undo(self) -> str:
        last = self.state.undo()
        self.save()
        return str(last) if last is not None else "the last action"

    def result_line(self) -> str:
        """One line saying how the game ended (or stands)."""
        if self.game == "tommy":
            r = self.state.result()
            verdict = "won" if r.won else ("lost" if self.is_over else "in progress")
            return f"Sir Tommy ({self.variant}): {verdict}, {r.foundation_cards} of {r.cards_in_play} cards on the foundations"
        score = self.state.score()
        rules = self.state.rules
        verdict = "" if not self.is_over else (" - won!" if score.total >= rules.win_threshold else f" (a win needs {rules.win_threshold})")
        return f"Poker Patience ({rules.describe()}): {score.total} points{verdict}"


def expand_tommy_shorthand(text: str, state: TommyState) -> str:
    """Let players type ``w2`` / ``f1`` for the single turned card (``S>W2``), and ``2`` for ``S>W2``."""
    t = text.strip().upper().replace(" ", "")
    if len(state.hand) == 1 and (t[:1] in ("W", "F") and t[1:].isdigit()):
        return f"S>{t}"
    if len(state.hand) == 1 and t.isdigit() and len(t) == 1:
        return f"S>W{t}"
    return t


def parse_cell(text: str) -> Placement:
    """``r1c3``, or two digits ``13`` / ``1 3`` (row, column, 1-based)."""
    t = text.strip().replace(",", " ")
    digits = t.replace(" ", "")
    if digits.isdigit() and len(digits) == 2:
        return Placement(int(digits[0]) - 1, int(digits[1]) - 1)
    return Placement.parse(t)
