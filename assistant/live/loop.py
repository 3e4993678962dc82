"""The live pipeline: frames -> motion gate -> card reader -> still view -> follower -> session -> worker.

``LiveGame.process(frame)`` is called for every frame from the source; it never waits for the advisor or for
saving (the worker does both). Everything it decides is published as plain dicts (the ``--json`` events), in
order: ``card``, ``move``, ``hint``, ``warning``, ``result``, each with the frame it was decided on. Player
commands (undo, correct a card read wrong, re-learn the layout) come through ``command(text)`` and are applied
between frames, on the same thread as the camera's events, so the game has one writer.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from assistant.cards import Card, CardError
from assistant.events import Outcome, Play, Turn, TurnAndPlay, Undo
from assistant.games.poker import Placement
from assistant.live.corrections import Corrections, unplaced
from assistant.live.follower import Follower
from assistant.live.held_up import HeldUpCard
from assistant.live.hint_worker import HintWorker, Job
from assistant.live.table_view import TableTracker, TableView
from vision.motion import SHARE, WHOLE, MotionGate

READ_BELOW = 0.08  # frames where more than this share of the picture moves are not read (a hand over the table)
MAX_UNREAD = 30  # after this many frames not read (a hand over the table for a while) every corner is named afresh


PICTURE_EVERY = 15  # frames between two looks at the light and focus of the picture (about a second)


def picture_condition(image) -> str:
    """How the card reader finds the frame's light, focus and colour (``Detector.prepare``, ``vision.colour``), for
    the panel: "" when all are fine."""
    from vision.colour import is_grey
    from vision.focus import SOFT, edge_steepness
    from vision.light import brightened, is_dim, paper_level

    parts = []
    if is_dim(paper_level(image)):
        parts.append("dim light: brightened (more light reads better)")
    if edge_steepness(brightened(image)) < SOFT:
        parts.append("soft focus: sharpened (a card too near the camera reads better further away)")
    if is_grey(image):
        parts.append("no colour: red suits may be read as black (set the camera to colour)")
    return ", ".join(parts)


@dataclass
class CameraStatus:
    """What the panel shows about the camera."""

    frames: int = 0
    fps: float = 0.0
    moving: bool = True
    seen: int = 0  # cards in the last still view
    last_reading: str = ""  # "Qh 0.93"
    read_ms: float = 0.0
    message: str = ""  # "hold still", "hand in view", a warning
    picture: str = ""  # "dim light: brightened (...)", "soft focus: ..." (what the reader does to the frames)


@dataclass
class Published:
    """The newest saved position and its hint, for the panel (replaced whole, never mutated)."""

    snapshot: object = None
    hint: object = None
    hint_frame: int = -1
    events: list = field(default_factory=list)


def session_copy(session):
    """A copy of the game with no saver: for the worker (saving, hints) while the camera goes on."""
    from assistant.session import Session

    return Session(session.game, session.state.clone(), session.variant, session.seed, None, dict(session.meta))


def reusable_previous(previous, motions):
    """The previous reading cut to the corners where nothing moved since it was read: the reader keeps a corner's
    name when it looks the same, and a card laid exactly on another one (a 3 played onto a 2) can look the same to
    that quick test; where something moved, every corner is named afresh."""
    if previous is None or not hasattr(previous, "detections"):
        return None
    if any(m.changed >= WHOLE for m in motions):
        return None
    d = previous.detections
    keep = [i for i in range(len(d)) if all(m.still_at(d.xyxy[i]) for m in motions)]
    if len(keep) == len(d):
        return previous
    return replace(previous, detections=d[np.asarray(keep, dtype=np.int64)])


def follower_class(game: str) -> type[Follower]:
    """How each game's table is read: the follower class for ``game``."""
    from assistant.live.poker_follower import PokerFollower
    from assistant.live.tommy_follower import TommyFollower

    return {"tommy": TommyFollower, "poker": PokerFollower}[game]


class LiveGame:
    """Follows one game from frames. ``read(image, previous)`` is the card reader (``Detector.detect``);
    ``publish(event_dict)`` receives the events; ``hints`` turns the advisor on."""

    def __init__(self, session, read: Callable, publish: Callable[[dict], None], *, hints: bool = True,
                 budget_ms: float = 500.0, skip_stale_hints: bool = False, save: Callable | None = None,
                 gate: MotionGate | None = None, train: bool = False, lang: str | None = None):
        self.session = session
        self.read = read
        self._publish_raw = publish
        self.gate = gate or MotionGate()
        self.tracker = TableTracker()
        self.follower = follower_class(session.game)(session, self._apply)
        self.corrections = Corrections()  # what the player renamed stays renamed where it lies
        self.held_up = HeldUpCard()  # a card held up to the camera: a correction without the keyboard
        self.status = CameraStatus()
        self.published = Published(snapshot=session_copy(session))
        self._lock = threading.Lock()
        self._frame = 0
        self._previous = None
        self._since_read: list = []  # the motion of every frame since the previous read (this one's included)
        self._pending: list[dict] = []
        self._commands: list[str] = []
        self._fps_t0 = time.perf_counter()
        self._fps_n = 0
        self.view: TableView | None = None
        self._train, self._lang = train, lang
        self._coached: dict[str, tuple] = {}  # card -> (position it was hinted in, hint): what a move cost
        self._hints_on = hints or train
        self._hint_position = None
        self._asked_ahead: set[str] = set()
        self.last_result = None
        self._result_key: str | None = None  # the position whose result was published last (None: none yet)
        self.session.saver = None  # the worker saves, off the frame path
        hint_fn = None
        if hints or train:
            from assistant.hints import hint_for

            def hint_fn(snapshot):
                from assistant.warmup import wait_ready

                # first run: the advisor is being prepared in the background; the panel says so, frames go on
                wait_ready(what=snapshot, on_wait=lambda text: setattr(self.status, "message", text))
                return hint_for(snapshot, budget_ms=budget_ms)

        self.worker = HintWorker(save, hint_fn, self._publish, self._on_hint, skip_stale_hints)
        self._submit(-1, [], want_hint=True)  # the starting position (a resumed game may need a hint at once)

    # -- frames --------------------------------------------------------------------------------------------------
    def process(self, frame_index: int, image) -> None:
        """One frame of the source: the motion gate, and the card reader where the picture is still enough."""
        if self.status.frames % PICTURE_EVERY == 0:
            self.status.picture = picture_condition(image)
        motion = self.gate.update(image)
        self._since_read.append(motion)
        if motion.changed >= WHOLE or len(self._since_read) > MAX_UNREAD:  # nothing of the old reading can be kept
            self._previous, self._since_read = None, []
        read = None
        if motion.changed < READ_BELOW:
            def read():
                result = self.read(image, reusable_previous(self._previous, self._since_read))
                self._previous = result
                self._since_read = []
                return result.cards
        self.process_reading(frame_index, motion.changed >= WHOLE, read, motion.changed, motion.still_at)

    def process_reading(self, frame_index: int, moving: bool, read, changed: float = 0.0, still_at=None) -> None:
        """The same for a frame whose motion is known: ``moving`` the whole picture, ``still_at(box)`` where;
        ``read()`` gives its cards (None: too much motion to read). Tests and cached-detection replays enter here."""
        self._frame = frame_index
        self._run_commands()
        self.status.frames += 1
        self._tick_fps()
        self.status.moving = moving or changed > SHARE
        if moving:
            self.tracker.moving()
            self.status.message = "the camera or the light moved: hold still"
            return
        if read is None:
            if still_at is not None:
                self.tracker.disturb(still_at)
            self.status.message = "hand in view"
            return
        start = time.perf_counter()
        cards = read()
        self.status.read_ms = (time.perf_counter() - start) * 1000.0
        if cards:
            best = max(cards, key=lambda c: c.confidence)
            self.status.last_reading = f"{best.card} {best.confidence:.2f}"
        held, shown = self.held_up.update(cards, self.follower.card_size)
        if held:  # the card in the player's hand covers the table: nothing of the table is read from this frame
            self.status.message = "card held up to the camera"
            if shown is not None:
                message = self.show_card(shown)
                self.status.message = message
                self._emit({"event": "warning", "frame": frame_index, "message": message})
            return
        view = self.tracker.update(frame_index, cards, still_at)
        if view is None:
            return
        view = self._corrected(view)
        self.view = view
        self.status.seen = len(view.cards)
        warnings = self.follower.update(view)
        for w in warnings:
            self._emit({"event": "warning", "frame": frame_index, "message": w})
        self.status.message = self.follower.problem or ("hand in view" if changed > SHARE else "")
        self._flush(frame_index)
        self._think_ahead(view)

    def _think_ahead(self, view: TableView) -> None:
        """Cards being read that the game has not seen yet: start their hints before they are certain."""
        if not self._hints_on or not self.session.needs_card():
            return
        unseen = set(self.session.state.unseen())
        for card in view.cards:
            if card in unseen and not view.sure(card):
                position = self._after_turn(card)
                if position is not None:
                    key = position_key(position)
                    if key not in self._asked_ahead:
                        self._asked_ahead.add(key)
                        self.worker.submit(Job(self._frame, position, key=key, ahead=True))

    def finish(self, wait: bool = True) -> None:
        """The source ended: finish the saves and hints; a game not over gets its standing as an unfinished result."""
        self._flush(self._frame)
        if self._result_key is None:
            self._result_key = position_key(self.session)
            self._submit(self._frame, [{"event": "result", "frame": self._frame, **self.result_json(),
                                        "finished": False}], want_hint=False)
        self.worker.close(wait=wait)

    # -- applying events -----------------------------------------------------------------------------------------
    def _after_turn(self, card: Card):
        """A copy of the game with ``card`` just turned (the position its hint is for), or None if it cannot be."""
        position = session_copy(self.session)
        return position if position.handle(Turn(card)).ok else None

    def _apply(self, event) -> Outcome:
        """Apply one follower event to the game and queue its card / move events (published once saved)."""
        session = self.session
        moved = None
        if isinstance(event, Play):
            moved = session.kind.moved_card(session.state, event.move)
        elif isinstance(event, TurnAndPlay):
            moved = event.card
        if isinstance(event, (Turn, TurnAndPlay)) and event.card is not None:
            self._hint_position = self._after_turn(event.card)  # a card's hint: where to put it, once turned
        outcome = session.handle(event)
        if not outcome.ok:
            self._hint_position = None
            return outcome
        frame = self._frame
        for card in outcome.cards:
            self._pending.append({"event": "card", "frame": frame, "card": str(card)})
        if isinstance(event, (Play, TurnAndPlay)):
            self._pending.append(self._move_event(frame, moved, event.move))
        if isinstance(event, Undo):  # the last card or move event no longer holds
            self._pending.append({"event": "undo", "frame": frame, "undone": outcome.message.removeprefix("undone: ")})
        if isinstance(event, Play) and getattr(event.move, "source", None) == "S" and session.state.hand:
            self._hint_position = session_copy(session)  # four at a time: the rest of the batch, hinted again
        return outcome

    def _move_event(self, frame: int, card: Card | None, move) -> dict:
        out = {"event": "move", "frame": frame, "card": str(card) if card is not None else None}
        if isinstance(move, Placement):
            out["cell"] = [move.row, move.col]
        else:
            out["move"] = str(move)
        return out

    def _flush(self, frame: int) -> None:
        """Hand the new position (if any event was applied) to the worker: save, publish, think."""
        if not self._pending:
            return
        events, self._pending = self._pending, []
        end = position_key(self.session) if self.session.is_over else None
        if end is not None and end != self._result_key:  # once a game; again if the end changes (Poker Shuffle:
            self._result_key = end  # cards rearranged)
            events.append({"event": "result", "frame": frame, **self.result_json()})
        position, self._hint_position = self._hint_position, None
        self._submit(frame, events, want_hint=position is not None, hint_position=position)

    def result_json(self) -> dict:
        return self.follower.result_json()

    def _submit(self, frame: int, events: list[dict], want_hint: bool, hint_position=None) -> None:
        position = hint_position if hint_position is not None else (session_copy(self.session) if want_hint else None)
        key = position_key(position) if position is not None else ""
        self.worker.submit(Job(frame, session_copy(self.session), events, want_hint, position, key))

    def _emit(self, event: dict) -> None:
        """Events that need no save (warnings) go out at once, in order with the worker's."""
        self._submit(event["frame"], [event], want_hint=False)

    def _publish(self, event: dict) -> None:
        with self._lock:
            self.published = Published(self.published.snapshot, self.published.hint, self.published.hint_frame,
                                       (self.published.events + [event])[-12:])
        self._publish_raw(event)
        if self._train and event.get("event") == "move":
            self._coach_move(event)

    def _on_hint(self, hint, job: Job, ms: float) -> None:
        with self._lock:  # the table as saved, with the hint for the card just turned (even if laid already)
            self.published = Published(job.snapshot, hint, job.frame, self.published.events)
        if hint is None or not hint.options:
            return
        event = hint_event(hint, job, ms)
        if self._train and job.hint_position is not None:
            from assistant.coach.coach import coach_notes

            event["notes"] = coach_notes(job.hint_position, hint, self._lang)
            if event["notes"]:
                self.status.message = " ".join(event["notes"])
            if event["card"]:
                self._coached[event["card"]] = (job.hint_position, hint)
        self._publish_raw(event)
        for e in job.events:  # turned and laid at once: the move came before its hint
            if self._train and e.get("event") == "move":
                self._coach_move(e)

    def _coach_move(self, event: dict) -> None:
        """Training mode: a move other than the hint's, and what it cost (on the worker, after the hint)."""
        from assistant.coach.coach import move_cost

        hinted = self._coached.pop(event.get("card"), None)
        if hinted is None:
            return
        position, hint = hinted
        played = event.get("move") or "r{}c{}".format(*(x + 1 for x in event["cell"]))
        cost = move_cost(position, hint, played, self._lang)
        if cost:
            self.status.message = cost
            self._publish_raw({"event": "coach", "frame": event["frame"], "card": event["card"], "message": cost})

    # -- the player's commands -----------------------------------------------------------------------------------
    def command(self, text: str) -> None:
        """Queue a typed command (applied before the next frame): ``u`` undo, ``r Qh`` a card read wrong is the Qh,
        ``l`` learn the layout again, ``s`` (Poker) score the grid on the table from the picture."""
        self._commands.append(text)

    def _run_commands(self) -> None:
        while self._commands:
            text = self._commands.pop(0).strip()
            message = self.run_command(text)
            self.status.message = message
            self._emit({"event": "warning", "frame": self._frame, "message": message})

    def run_command(self, text: str) -> str:
        low = text.lower()
        if low in ("u", "undo"):
            out = self._apply(Undo())
            self._flush(self._frame)
            self._after_correction()
            return out.message
        if low in ("l", "learn", "relearn"):
            self.follower.relearn()
            self.corrections.forget_places()
            self.tracker.reset()
            return "layout forgotten: it is learned again from the cards on the table"
        if low.startswith("r ") or low.startswith("rename "):
            try:
                card = Card.parse(text.split(None, 1)[1])
            except CardError as exc:
                return str(exc)
            return self.correct(card)
        if low in ("s", "score") and self.follower.scores_photo:
            return self.score_table()
        typed = self.play_typed(text)
        if typed is not None:
            return typed
        return ("commands: u (undo the last move), r Qh (the card read wrong is the Qh: the new card the game cannot "
                "place, else the last card turned), l (learn the layout again)"
                + (", s (score the grid on the table as a photo)" if self.follower.scores_photo else "")
                + f"; what the camera missed: a card turned (Qh) or a move ({self.session.kind.move_examples})")

    def play_typed(self, text: str) -> str | None:
        """A card turned or a move that the player types because the camera missed it (``2c``, ``2c>W0``,
        ``W1>F0``, Poker ``r1c3``): applied as if seen, its place on the table learned from the views that show it.
        The text for the panel; None when ``text`` is neither."""
        session = self.session
        try:
            event = Turn(Card.parse(text))
        except CardError:
            try:
                event = session.parse_move(text)
            except ValueError:
                return None
        card = event.card if isinstance(event, Turn) or event.card is not None else \
            session.kind.moved_card(session.state, event.move)
        where = self.follower.hinted_position(event.move) if isinstance(event, Play) else None
        outcome = self._apply(event)
        if not outcome.ok:
            return outcome.error
        if isinstance(event, Play) and card is not None:
            self.follower.typed_move(card, event.move, where)
        self._flush(self._frame)
        return f"typed: {outcome.message}" if isinstance(event, Turn) else f"typed: {card} {outcome.message}"

    def rename_last(self, card: Card) -> Outcome:
        """The last card turned is really ``card``: the game is replayed with it, and the reader's name for it
        where it lies is taken as ``card`` from now on (:mod:`assistant.live.corrections`)."""
        last = self.session.kind.last_turn(self.session.state)
        spot = None
        if last is not None:
            old = last[0]
            spot = self.follower.pos.get(old)
            if spot is None and self.view is not None and old in self.view:
                spot = self.view[old].xy
        out = rename_last_card(self.session, card, self.follower.move_as)
        if out.ok:
            self.corrections.add(last[0], card, spot)
            self.follower.rename(last[0], card)
            self._after_correction()
        return out

    def correct(self, card: Card) -> str:
        """The player says a card is ``card`` (``r Qh``, or the card held up): the new card the game cannot place
        (read as a card in play at a second spot, or lying where no legal move puts it) when there is one, else
        the last card turned. The text for the panel."""
        in_play = set(self.session.kind.turned_cards(self.session.state))
        # the last view, with the corrections made since it was seen
        view = None if card in in_play or self.view is None else self._corrected(self.view)
        unseen = None if view is None else self.follower.unseen_card(card, view)
        if unseen is not None:
            self._after_correction()
            return unseen
        new = None if view is None else unplaced(view, in_play, self.follower.pos, self.follower.card_size,
                                                 self.follower.problem_now)
        if new is None:
            return self.rename_last(card).message
        read_as, spot = new
        if read_as == card:
            return f"{card} is read so: the game cannot place it ({self.follower.problem_now or 'not yet'})"
        self.corrections.add(read_as, card, spot, waiting=len(in_play))
        return f"the new card read as {read_as} is {card}"

    def show_card(self, card: Card) -> str:
        """A card held up to the camera: a correction (:meth:`correct`) unless the game has it already. The text
        for the panel."""
        kind, state = self.session.kind, self.session.state
        if card in set(kind.turned_cards(state)):
            last = kind.last_turn(state)
            if last is not None and last[0] == card:
                return f"{card} held up: the game has it so"
            return f"{card} held up: it is in the game already"
        return f"{card} held up: {self.correct(card)}"

    def _corrected(self, view: TableView) -> TableView:
        """``view`` with the player's corrections applied: where the reader keeps misnaming a corrected card."""
        if not self.corrections.items:
            return view  # nearly always: nothing to look up on the frame path
        in_play = set(self.session.kind.turned_cards(self.session.state))
        return self.corrections.apply(view, in_play, self.follower.pos, self.follower.visible())

    def score_table(self) -> str:
        """The grid on the table scored from the last frame read, as ``patience score-photo`` would."""
        from assistant.games.poker import Scoring, parse_grid, score_grid
        from assistant.photo_grid import grid_from_detection

        if self._previous is None:
            return "no frame has been read yet: hold the table still"
        reading = grid_from_detection(self._previous)
        if not reading.found:
            return "no grid on the table to score" + (f" ({reading.warnings[0]})" if reading.warnings else "")
        rows = self._as_corrected(reading.rows)
        text = " / ".join(" ".join(c or "--" for c in row) for row in rows)
        if any(c is None for row in rows for c in row):
            return f"the grid on the table: {text} (not complete: {'; '.join(reading.warnings[:2])})"
        cells = parse_grid(text)
        return (f"the grid on the table: {text} = {score_grid(cells, Scoring.AMERICAN).total} American, "
                f"{score_grid(cells, Scoring.ENGLISH).total} English")

    def _as_corrected(self, rows: list[list[str | None]]) -> list[list[str | None]]:
        """A grid read from one frame with the player's corrections: a misreading of a corrected card (a name not
        in play, where the card the player named is in play and not read elsewhere) is that card."""
        in_play = {str(c) for c in self.session.kind.turned_cards(self.session.state)}
        named = {str(c.read_as): str(c.card) for c in self.corrections.items
                 if str(c.card) in in_play and str(c.read_as) not in in_play}
        read = {x for row in rows for x in row if x}
        return [[named[x] if x in named and named[x] not in read else x for x in row] for row in rows]

    def _after_correction(self) -> None:
        self.tracker.reset()
        self._submit(self._frame, [], want_hint=True)

    def _tick_fps(self) -> None:
        self._fps_n += 1
        now = time.perf_counter()
        if now - self._fps_t0 >= 1.0:
            self.status.fps = self._fps_n / (now - self._fps_t0)
            self._fps_t0, self._fps_n = now, 0


def rename_last_card(session, card: Card, move_as=None) -> Outcome:
    """The last turned card was misread: take back it and the moves after it, turn ``card`` instead, replay.
    ``move_as(state, old, card, move)``: the move that lays ``card`` where ``move`` laid the misread ``old`` (the
    follower's reading of the spot under the right name); the same move without it."""
    last = session.kind.last_turn(session.state)
    if last is None:
        return Outcome(False, error="no card has been turned yet")
    old, moves = last
    trial = session.state.clone()
    try:
        for _ in range(len(moves) + 1):
            trial.undo()
        trial.turn(card)
        laid = False
        for m in moves:
            if move_as is not None and not laid and session.kind.moved_card(trial, m) == card:
                m, laid = move_as(trial, old, card, m), True
            trial.apply(m)
    except ValueError as exc:
        return Outcome(False, error=f"cannot rename {old} to {card}: {exc}")
    session.state = trial
    session.save()
    return Outcome(True, (f"{old} renamed {card}",))


def position_key(session) -> str:
    """The identity of a position (its whole history), for hints thought out ahead."""
    return json.dumps(session.state.to_dict(), sort_keys=True, default=str)


def hint_event(hint, job: Job, ms: float) -> dict:
    """The ``hint`` JSON event: the card it is for, the best move and each option's numbers."""
    snapshot = job.hint_position if job.hint_position is not None else job.snapshot
    hand = snapshot.hand
    options = []
    for o in hint.options:
        row = {"move": " ".join(str(m) for m in o.moves)}
        for name, value in zip(hint.columns, o.values):
            number = _number(value)
            if number is not None and name:
                row[name.replace(" ", "_")] = number
        options.append(row)
    return {"event": "hint", "frame": job.frame, "card": str(hand[0]) if hand else None,
            "best": options[0]["move"] if options else None, "options": options, "ms": round(ms, 1)}


def _number(text) -> float | None:
    if isinstance(text, (int, float)):
        return float(text)
    t = str(text).strip()
    try:
        if t.endswith("%"):
            return round(float(t[:-1]) / 100.0, 4)
        return float(t.lstrip("±"))
    except ValueError:
        return None
