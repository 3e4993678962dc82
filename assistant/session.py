"""A game being played: the engine state, who calls the cards, and saving after every action.

Every way of playing (typed lines, the camera, the contest, the demo) goes through one entry,
``Session.handle(event) -> Outcome`` (events in ``assistant.events``), so the rules are applied in one place and
a compound "turned and laid" is applied whole or not at all. The game-specific parts sit behind one interface
(``assistant.games.kinds``). The engines stay pure: saving happens through the ``saver`` callable handed in at
the edge, after every applied event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from assistant.cards import Card, CardError
from assistant.events import Event, Outcome, Play, Turn, TurnAndPlay, Undo
from assistant.games.kinds import GAME_KINDS, game_kind
from assistant.games.kinds import expand_tommy_shorthand, parse_cell  # noqa: F401 (kept importable from here)
from assistant.games.poker import Placement, PokerState
from assistant.games.tommy import Move, TommyState

GAMES = tuple(GAME_KINDS)


@dataclass
class Session:
    """One game: ``game`` is "tommy" or "poker"; ``seed`` set means the app calls the cards (the caller)."""

    game: str
    state: TommyState | PokerState
    variant: str
    seed: int | None = None
    saver: Callable[["Session"], object] | None = None
    meta: dict = field(default_factory=dict)

    @property
    def kind(self):
        return GAME_KINDS[self.game]

    # -- making one --------------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, variant: str | None = None, seed: int | None = None, saver=None,
            meta: dict | None = None) -> "Session":
        """A fresh game; unknown game or variant: ValueError listing the choices."""
        state, variant = game_kind(game).new_state(variant, seed)
        session = cls(game, state, variant, seed, saver, dict(meta or {}))
        session.save()
        return session

    def to_save(self) -> dict:
        return {"state": self.state.to_dict(), "meta": {"variant": self.variant, "seed": self.seed, **self.meta}}

    @classmethod
    def from_save(cls, game: str, state: dict, meta: dict, saver=None) -> "Session":
        """Rebuild a saved game (the engines replay and check the history; ValueError if corrupt)."""
        if game not in GAME_KINDS:
            raise ValueError(f"unknown game {game!r} in the save")
        st = GAME_KINDS[game].load_state(state)
        seed = meta.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ValueError(f"corrupt save: seed {seed!r} is not an integer")
        extra = {k: v for k, v in meta.items() if k not in ("variant", "seed")}
        return cls(game, st, str(meta.get("variant", "")), seed, saver, extra)

    def save(self) -> None:
        if self.saver is not None:
            self.saver(self)

    # -- the one entry ---------------------------------------------------------------------------------------
    def handle(self, event: Event) -> Outcome:
        """Apply one event and save; on a refusal (illegal move, impossible card) the game is unchanged and
        the outcome says why."""
        try:
            outcome = self._apply(event)
        except ValueError as exc:  # CardError, IllegalMoveError, parse errors: all ValueErrors
            return Outcome(False, error=str(exc))
        self.save()
        return outcome

    def _apply(self, event: Event) -> Outcome:
        kind = self.kind
        if isinstance(event, Turn):
            card = self._turn(event.card)
            return Outcome(True, (f"turned {card}",), cards=(card,))
        if isinstance(event, Play):
            return Outcome(True, (kind.apply(self.state, event.move, event.card),))
        if isinstance(event, TurnAndPlay):
            card = self._turn(event.card)
            try:
                text = kind.apply(self.state, event.move)
            except ValueError:
                self.state.undo()  # the turn alone is taken back: all or nothing
                raise
            return Outcome(True, (f"turned {card}", text), cards=(card,))
        if isinstance(event, Undo):
            last = self.state.undo()
            return Outcome(True, (f"undone: {last if last is not None else 'the last action'}",))
        raise TypeError(f"not a game event: {event!r}")

    def _turn(self, card: Card | None) -> Card:
        if card is None:
            return self.kind.caller_turn(self.state, self.seed)
        card = card if isinstance(card, Card) else Card.parse(card)
        if not self.state.needs_card():
            hand = self.hand
            if hand:
                raise CardError(f"place the turned card first ({' '.join(str(c) for c in hand)}), then turn {card}")
        expected = self.called_card()
        if expected is not None and expected != card:
            raise CardError(f"the caller turned {expected}, not {card}")
        self.state.turn(card)
        return card

    # -- queries --------------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.is_terminal()

    @property
    def hand(self) -> tuple[Card, ...]:
        """Turned cards not placed yet."""
        return self.kind.hand(self.state)

    def needs_card(self) -> bool:
        return bool(self.state.needs_card())

    def called_card(self) -> Card | None:
        """The card the caller turns next when the app calls a seeded order (None when the player turns it)."""
        return self.kind.called_card(self.state, self.seed)

    def parse_move(self, text: str) -> Play:
        """A typed move (``S>W2``, ``w2``, ``r1c3``, ``13``, Poker Shuffle ``Qh r1c3``) as a Play event."""
        parsed = self.kind.parse_move(text, self.state)
        if isinstance(parsed, tuple):
            return Play(*parsed)
        return Play(parsed)

    def result_line(self) -> str:
        """One line saying how the game ended (or stands)."""
        return self.kind.result_line(self.state, self.variant)

    def result_json(self) -> dict:
        return self.kind.result_json(self.state)

    # -- short forms (raise ValueError on refusal, as the engines do) ------------------------------------------
    def turn(self, card: Card | str | None = None) -> Card:
        """Turn ``card`` (typed by the player) or, with no card, the caller's next card."""
        outcome = self._checked(Turn(Card.parse(card) if isinstance(card, str) else card))
        return outcome.cards[0]

    def play(self, move: str | Move | Placement) -> str:
        """Make a move (Sir Tommy ``S>W2``; Poker ``r1c3``); returns its canonical text."""
        event = self.parse_move(move) if isinstance(move, str) else Play(move)
        return self._checked(event).applied[-1]

    def undo(self) -> str:
        return self._checked(Undo()).applied[0].removeprefix("undone: ")

    def _checked(self, event: Event) -> Outcome:
        """Like ``handle``, but a refusal raises the engine's ValueError (what the contest and the demo expect)."""
        outcome = self._apply(event)
        self.save()
        return outcome
