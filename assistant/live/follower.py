"""What the camera loop asks of a game's follower: the one contract Sir Tommy's and Poker's followers keep.

A follower turns still views of the table (:class:`~assistant.live.table_view.TableView`) into the game's events,
applied through ``apply(event) -> Outcome`` (``Session.handle`` plus what the loop does with it). The loop
(:mod:`assistant.live.loop`) calls ``update(view)`` on each still view and shows the warnings it returns; the
player's commands call ``relearn()`` (``l``), ``rename``, ``move_as`` and ``unseen_card`` (``r Qh``, a card
held up) and ``typed_move`` (a move typed); the corrections (:mod:`assistant.live.corrections`) read ``pos``,
``card_size`` and ``visible()``.
"""

from __future__ import annotations

import numpy as np

from assistant.cards import Card
from assistant.live.problems import ProblemReport
from assistant.live.table_shift import TableShift, fit_shift
from assistant.live.table_view import GLIMPSE_FRAMES, MIN_FRAMES, TableView

MOVED = 0.5  # a card of the game seen this far (card sizes) from where it lay has been moved
STRIP = 0.8  # both corners read in a box shorter than this (card sizes): a covered card's strip, not a card read whole


class Follower:
    """The shared part: the session, where each card of the game was seen, the problem being reported."""

    scores_photo = False  # the s key scores the table as a photo (Poker)
    face_fuse: str | None = None  # how the reader's second look at whole cards is used (vision.reader)
    pips: bool | None = None  # the pip look: None as the model folder says, False never

    def __init__(self, session, apply):
        self.session = session
        self.apply = apply
        self.pos: dict[Card, np.ndarray] = {}  # where each card of the game was last seen lying (pixels)
        self.early: dict[Card, tuple[int, np.ndarray]] = {}  # a card not in the game yet: when and where first seen
        self._problems = ProblemReport()

    def _note_early(self, view: TableView, maybe_new: list[Card], may_come: set[Card]) -> None:
        """When and where each card about to join the game was first seen lying still a moment (a glimpse). Hands
        may keep a quick player's card from lying still long enough to join the game until the next card lies
        beside it: the one seen first came first (:meth:`_first_seen`). Forgotten once in the game (not in
        ``may_come``), or after the tracker's glimpse time."""
        for c in maybe_new:
            if view[c].frames >= MIN_FRAMES and c not in self.early:
                self.early[c] = (view.frame, self._xy(view, c))
        for c, (frame, _) in list(self.early.items()):
            if view.frame - frame > GLIMPSE_FRAMES or c not in may_come:
                del self.early[c]

    def _follow_shift(self, view: TableView) -> TableShift | None:
        """The table or the camera moved as a whole (:func:`~assistant.live.table_shift.fit_shift` on the game's
        cards read whole): every place learned moves with it (subclasses move their own places too)."""
        covered = self._covered()
        known = [c for c in self.pos if c in view and c not in covered and self._whole(view[c])]
        return self._move_by(fit_shift([self.pos[c] for c in known], [view[c].xy for c in known], self.card_size))

    def _move_by(self, shift: TableShift | None) -> TableShift | None:
        """Every place learned moved by ``shift`` (None: nothing moves)."""
        if shift is not None:
            self.pos = {c: shift.point(p) for c, p in self.pos.items()}
            self.early = {c: (frame, shift.point(p)) for c, (frame, p) in self.early.items()}
        return shift

    def _covered(self) -> set[Card]:
        """The game's cards another card lies over (a subclass says which): what shows of them, a corner or a
        strip, is not centred on them, so they neither show the table moved nor measure a card."""
        return set()

    def _whole(self, s) -> bool:
        """The whole face of the card read as ``s`` shows: its centre is the card's."""
        return s.whole(self.card_size)

    def _long_as_a_card(self, s) -> bool:
        """Read whole (:meth:`_whole`) in a box at least STRIP of a card long: not a covered card's strip, which
        shows both corners at one end in a box as long as the card is wide."""
        return s.whole(self.card_size) and s.long_side >= STRIP * self.card_size

    def _first_seen(self, cards, view: TableView) -> list[Card]:
        """``cards`` (new in ``view``) in the order they were first seen lying still; the steadier first among
        those seen together."""
        return sorted(cards, key=lambda c: (self.early.get(c, (view.frame,))[0], -view[c].share))

    def _xy(self, view: TableView, card: Card) -> np.ndarray:
        """Where ``card`` lies in ``view``."""
        return view[card].xy

    @property
    def state(self):
        return self.session.state

    def update(self, view: TableView) -> list[str]:
        """Apply what the still ``view`` shows happened; the warnings to show now."""
        raise NotImplementedError

    def relearn(self) -> None:
        """Forget the learned layout (the player moved the camera or the cards): it is learned again."""
        raise NotImplementedError

    def rename(self, old: Card, new: Card) -> None:
        """The card the game had as ``old`` is ``new`` (the player's correction): it lies where ``old`` did."""
        raise NotImplementedError

    def move_as(self, state, old: Card, card: Card, move):
        """The move laying ``card`` (the player's name for the misread ``old``) where ``move`` laid ``old``, in
        ``state`` before it: ``move`` itself unless where a card lies means another move for another name."""
        return move

    def typed_move(self, card: Card, move, where: np.ndarray | None) -> None:
        """The player typed ``move`` of ``card`` (the camera missed it): it lies ``where`` the move put it on the
        image (:meth:`hinted_position` before the move), or, not known, where the views show it afterwards."""
        if where is None:
            self.pos.pop(card, None)
        else:
            self.pos[card] = np.asarray(where, dtype=np.float64)

    def unseen_card(self, card: Card, view: TableView) -> str | None:
        """The player names ``card`` (a correction) and it explains the table as a card the camera never saw go
        where it lies (Sir Tommy: played up under the card now on it, or four at a time the batch's card not read):
        applied, and the text for the panel; None when it does not."""
        return None

    @property
    def card_size(self) -> float:
        """A card's long side on the table in pixels, as learned (0 until a card has been seen whole)."""
        raise NotImplementedError

    def visible(self) -> set[Card]:
        """The game's cards whose face may show on the table."""
        raise NotImplementedError

    def hinted_position(self, move) -> np.ndarray | None:
        """Where a hinted move (a value or its text) puts its card on the image, if the place is known."""
        raise NotImplementedError

    def result_json(self) -> dict:
        return self.session.result_json()

    @property
    def problem(self) -> str | None:
        """The problem being reported now (for the panel), or None."""
        return self._problems.reported

    @property
    def problem_now(self) -> str | None:
        """The problem of the latest view, reported yet or not (a correction may name the card it is about)."""
        return self._problems.current
