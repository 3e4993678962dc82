"""Contests: several players at one table, each with their own deck, on one seeded shuffle the app calls.

002 (Sir Tommy): "Soms gespeeld als wedstrijd tussen twee spelers met identiek geschudde stokken; de eerste die de
gift wint (of de speler met de meeste kaarten op de funderingen wanneer beiden vastlopen) wint de ronde."
004 (Poker Patience, Varianten): "Mehrere Spieler: Jeder hat ein eigenes Blatt. Einer mischt und sagt jede
aufgedeckte Karte an; die anderen suchen dieselbe Karte aus ihrem Blatt und legen sie in ihr eigenes Quadrat. Die
höchste Summe gewinnt."

A :class:`Contest` holds one :class:`~assistant.session.Session` per player (a seat), all on the order of
``deal_order(seed)``; the app is the caller. Pure: no I/O, no clock; saving goes through the ``saver`` handed in.

Readings, where the texts leave a detail open:

* A call is what one player would turn at once: Sir Tommy one card (four at a time: four, "fewer at the end");
  Poker Patience one card, Poker Shuffle all 25 ("Alle 25 Karten liegen zuerst offen aus"). Cards set out before
  play (aces out first, Calculation's bases) are the same for everyone and are never called.
* The caller calls the next card once every player has placed the current one and ended their turn. Players act
  in seat order. Sir Tommy: a turn is placing the called card(s), then playing waste tops up as the player likes
  ("Na elke plaatsing mag je ook de huidige bovenkant van een aflegstapel naar een fundering spelen"), ended by
  :meth:`Contest.done`. Poker Patience: placing the called card ends the turn ("Eine gelegte Karte bleibt, wo sie
  ist"); in Poker Shuffle placing the 25th ends it. Once everyone has placed, the caller turns the next card only
  when asked (:meth:`Contest.call_next`, Enter at the table; after the last call it ends the contest), so that a
  player who mistyped a cell can take the placement back until then: "bleibt, wo sie ist" is read as "once the
  play has moved on", as a player at a real table may still correct a card before the next one is shown.
* Undo takes back only actions since the last call: undoing past a call would let a player replay a card knowing
  the next one. Sir Tommy: the current player's own. Poker Patience: the current player's, else the latest
  placement (in seat order, the order players place in), or a named player's (:meth:`Contest.undo` ``name``);
  that player is then to play again.
* Sir Tommy after the last call: each player in turn plays the game out (waste tops up, a redeal of their own
  waste piles, which differ from player to player, so nothing is called any more) until the game is over or the
  player says done.
* Ranking: Sir Tommy by :func:`~assistant.games.tommy.compare_results` (a win beats a loss, else more foundation
  cards); for more than two players the same comparison gives places. Two wins share a place: "de eerste die de
  gift wint" is about time, and players taking turns at one app finish in seat order, not in a race. Poker
  Patience by the highest total. Equal results share a place and the next place is skipped (1, 1, 3).

What differs between the games (who ends a turn, what a call is, how a result reads) is asked of the game's kind
(``assistant.games.kinds``): this module never branches on the game's name.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence

from assistant.cards import Card, CardError
from assistant.games.kinds import GAME_KINDS, game_kind
from assistant.games.poker import PokerState
from assistant.games.tommy import TommyResult, TommyState, compare_results
from assistant.session import Session

SAVE_FORMAT = "patience-lens/contest/1"
MAX_NAME = 24


class ContestError(ValueError):
    """An action the contest does not allow now; the message is one line saying why (nothing changed)."""


def caller_order(game: str, seed: int, variant: str | None = None) -> tuple[list[Card], list[Card]]:
    """(cards set out before play, the cards the caller calls, in order) for ``seed``: the same for every player."""
    return game_kind(game).caller_order(seed, variant)


def check_names(names: Sequence[str]) -> list[str]:
    """The players' names, stripped; ValueError for fewer than two, an empty or overlong name, or a name twice."""
    out = [str(n).strip() for n in names]
    if len(out) < 2:
        raise ValueError("a contest needs at least two players, e.g. --players Ann,Bob")
    seen: set[str] = set()
    for n in out:
        if not n:
            raise ValueError("a player's name is empty")
        if len(n) > MAX_NAME or not n.isprintable():
            raise ValueError(f"player name {n[:MAX_NAME]!r}...: at most {MAX_NAME} printable characters")
        if n.casefold() in seen:
            raise ValueError(f"{n} is named twice: every player needs their own name")
        seen.add(n.casefold())
    return out


@dataclass
class Seat:
    """One player: their name and their own game (a Session without a saver: the contest saves)."""

    name: str
    session: Session
    since_call: int = 0  # the player's own actions since the last call: what undo may take back
    turn_done: bool = False  # ended the turn for the current call
    finished: bool = False  # the game is over (or the player stopped after the last call)

    @property
    def state(self) -> TommyState | PokerState:
        return self.session.state

    def hand(self) -> tuple[Card, ...]:
        """Called (or turned) cards still to place."""
        return self.session.hand


@dataclass(frozen=True)
class Standing:
    """One line of the final table. ``points``: foundation cards (Sir Tommy) or the grid's total (Poker)."""

    place: int
    name: str
    won: bool
    points: int
    out_of: int | None  # cards in play (Sir Tommy), None for Poker
    finished: bool

    def to_dict(self, game: str) -> dict:
        d = {"place": self.place, "name": self.name, "won": self.won, "finished": self.finished}
        d.update(GAME_KINDS[game].standing_fields(self.points, self.out_of))
        return d


def rank_by(items: dict[str, object], cmp: Callable[[object, object], int]) -> list[tuple[int, str, object]]:
    """Standard competition ranking (1, 1, 3) of ``{name: result}``, best first; ``cmp(a, b) > 0`` when ``a`` is
    better, 0 for a tie. Tied results list by name."""
    ordered = sorted(items.items(), key=lambda kv: kv[0])
    ordered.sort(key=functools.cmp_to_key(lambda x, y: -cmp(x[1], y[1])))
    out: list[tuple[int, str, object]] = []
    for i, (name, result) in enumerate(ordered):
        place = out[-1][0] if out and cmp(out[-1][2], result) == 0 else i + 1
        out.append((place, name, result))
    return out


def tommy_ranking(results: dict[str, TommyResult | TommyState]) -> list[tuple[int, str, TommyResult]]:
    """002 for N players: ``[(place, name, result), ...]`` best first, by :func:`compare_results` (a win beats a
    loss, else more foundation cards). Equal results share a place."""
    res = {n: r.result() if isinstance(r, TommyState) else r for n, r in results.items()}
    return rank_by(res, compare_results)  # type: ignore[arg-type]


class Contest:
    """Several players on one seeded shuffle. ``Contest.new("tommy", ["Ann", "Bob"], seed=7)`` starts one and
    calls the first card; then the current player acts (:meth:`play`, :meth:`done`, :meth:`undo`,
    :meth:`turn_own`) until :attr:`is_over`; :meth:`standings` ranks them. Every action is saved."""

    def __init__(self, game: str, variant: str, seed: int, seats: list[Seat], order: list[Card],
                 set_out: list[Card], called: int = 0, saver: Callable[["Contest"], object] | None = None) -> None:
        self.game = game
        self.variant = variant
        self.seed = seed
        self.seats = seats
        self.order = order  # the caller's cards, in order
        self.set_out = set_out  # cards set out before play (not called)
        self.called = called  # how many of ``order`` have been called
        self.saver = saver

    # -- making one --------------------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, names: Sequence[str], seed: int, variant: str | None = None, saver=None) -> "Contest":
        """A fresh contest with the first card called; ValueError for a bad game, variant, seed or names."""
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"the seed must be 0 or more, got {seed}")
        names = check_names(names)
        seats = [Seat(n, Session.new(game, variant, seed)) for n in names]
        variant_name = seats[0].session.variant
        set_out, order = caller_order(game, seed, variant_name)
        contest = cls(game, variant_name, seed, seats, order, set_out, 0, saver)
        contest._advance()
        contest.save()
        return contest

    def save(self) -> None:
        if self.saver is not None:
            self.saver(self)

    # -- where it stands ---------------------------------------------------------------------------------------
    @property
    def kind(self):
        """The game's kind: what differs between Sir Tommy and Poker Patience."""
        return GAME_KINDS[self.game]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def batch_size(self) -> int:
        """Cards per call: Sir Tommy 1 (four at a time: 4), Poker 1 (Poker Shuffle: all 25)."""
        return self.kind.cards_per_call(self.seats[0].state, len(self.order))

    @property
    def all_called(self) -> bool:
        return self.called >= len(self.order)

    def last_call(self) -> list[Card]:
        """The cards of the latest call."""
        if not self.called:
            return []
        start = ((self.called - 1) // self.batch_size) * self.batch_size
        return self.order[start:self.called]

    @property
    def call_number(self) -> int:
        """How many calls have been made (1 for the first)."""
        return -(-self.called // self.batch_size)

    @property
    def calls_total(self) -> int:
        return -(-len(self.order) // self.batch_size)

    @property
    def current(self) -> Seat | None:
        """The player to act now; None when the contest is over or everyone waits for the caller
        (:attr:`waiting_for_call`)."""
        for seat in self.seats:
            if not seat.finished and (self.all_called and self.kind.plays_out or not seat.turn_done):
                return seat
        return None

    @property
    def waiting_for_call(self) -> bool:
        """Poker Patience: everyone still playing has placed the called card(s); the caller turns the next card
        (or, after the last call, ends the contest) with :meth:`call_next`. Until then placements can be taken
        back."""
        return self.kind.caller_waits and not self.is_over and all(s.turn_done for s in self.seats if not s.finished)

    @property
    def is_over(self) -> bool:
        return all(s.finished for s in self.seats)

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    # -- actions of the current player -------------------------------------------------------------------------
    def _now(self) -> Seat:
        seat = self.current
        if seat is None:
            if self.waiting_for_call:
                what = "turn the next card" if not self.all_called else "end the contest"
                raise ContestError(f"everyone has placed: the caller may {what} (Enter), or u takes a placement back")
            raise ContestError("the contest is over")
        return seat

    def play(self, move: str, card: Card | str | None = None) -> str:
        """The current player's move: Sir Tommy ``S>W2`` / ``W1>F0`` (``w2`` / ``f0`` for the single called card);
        Poker a cell ``r1c3`` / ``13`` (Poker Shuffle: ``card`` picks which open card). Returns the move's text;
        an illegal move raises ValueError and changes nothing."""
        seat = self._now()
        text = self.kind.contest_play(seat.session, move, card)
        seat.since_call += 1
        self._after_action(seat)
        self.save()
        return text

    def done(self) -> str:
        """End the current player's turn (their called cards must be placed); after the last call, end their game."""
        seat = self._now()
        if seat.hand():
            cards = " ".join(str(c) for c in seat.hand())
            raise ContestError(f"place {cards} first")
        if self.all_called:
            seat.finished = True
            what = f"{seat.name} ends the game: {self.result_text(seat)}"
        else:
            seat.turn_done = True
            what = f"{seat.name} is done"
        self._advance()
        self.save()
        return what

    def undo(self, name: str | None = None) -> str:
        """Take back the last action since the last call: the current player's own; in Poker Patience, when the
        current player has placed nothing since the call, the latest placement (seat order), or ``name``'s.
        The player whose placement is taken back is to play again."""
        seat = self._undo_seat(name)
        last = seat.session.undo()
        seat.since_call -= 1
        if self.kind.caller_waits:
            seat.turn_done = False
        self.save()
        return last

    def _undo_seat(self, name: str | None) -> Seat:
        called = " ".join(str(c) for c in self.last_call())
        if name is not None:
            try:
                seat = self.seat(name)
            except KeyError:
                raise ContestError(f"no player {name!r}: {', '.join(self.names)}") from None
            if not self.kind.caller_waits and seat is not self.current:
                raise ContestError(f"in {self.kind.title} only the player to play ({self.current.name if self.current else 'nobody'}) can undo")
            if seat.finished or seat.since_call <= 0:
                raise ContestError(f"nothing of {seat.name}'s to undo since the caller turned {called}")
            return seat
        seat = self.current
        if seat is not None and seat.since_call > 0:
            return seat
        if self.kind.caller_waits:
            placed = [s for s in self.seats if not s.finished and s.turn_done and s.since_call > 0]
            if placed:
                return placed[-1]
        if seat is None:
            raise ContestError("the contest is over")
        raise ContestError(f"nothing of yours to undo since the caller turned {called}")

    def call_next(self) -> str:
        """Poker Patience, once everyone has placed: the caller turns the next card (after the last call: every
        game is complete and the contest ends). Returns what happened, one line."""
        if not self.waiting_for_call:
            seat = self.current
            if seat is None:
                raise ContestError("the contest is over")
            raise ContestError(f"{seat.name} has not placed {' '.join(str(c) for c in seat.hand())} yet")
        if self.all_called:
            for seat in self.seats:
                seat.finished = True
            self.save()
            return "every square is full: the contest is over"
        self._advance()
        self.save()
        return f"the caller turns {' '.join(str(c) for c in self.last_call())} for everyone"

    def turn_own(self, card: Card | str | None = None) -> Card:
        """Sir Tommy after the last call: turn a card of the player's own stock after a redeal (``card`` as turned;
        None: the next card when its order is known, as after one-redeal's unshuffled gathering)."""
        seat = self._now()
        st = seat.state
        if not self.all_called or not self.kind.plays_out:
            raise ContestError("the caller turns the cards for everyone: place the called card")
        if not st.needs_card():
            raise ContestError("place the turned card first" if st.hand else "no card to turn: your stock is empty")
        if card is None:
            outcomes = st.chance_outcomes()
            if len(outcomes) != 1:
                raise ContestError("type the card you turned from your own shuffled stock")
            card = outcomes[0]
        turned = seat.session.turn(card)
        seat.since_call += 1
        self._after_action(seat)
        self.save()
        return turned

    # -- the caller ------------------------------------------------------------------------------------------
    def _after_action(self, seat: Seat) -> None:
        st = seat.state
        if self.kind.caller_waits:
            if not seat.hand():
                seat.turn_done = True  # the caller waits (call_next): the placement can still be taken back
        elif self.all_called and st.is_terminal():
            seat.finished = True
            self._advance()

    def _advance(self) -> None:
        """Call the next cards once every player still playing has ended the turn."""
        if self.all_called or (self.called and self.current is not None):
            return
        batch = self.order[self.called:self.called + self.batch_size]
        for seat in self.seats:
            if seat.finished:
                continue
            for card in batch:
                seat.state.turn(card)
            seat.since_call = 0
            seat.turn_done = False
        self.called += len(batch)

    # -- results -----------------------------------------------------------------------------------------------
    def result_text(self, seat: Seat) -> str:
        return self.kind.contest_result(seat.state)

    def standings(self) -> list[Standing]:
        """The ranking, best first (as it stands while the contest is going on)."""
        finished = {s.name: s.finished for s in self.seats}
        ranked = rank_by({s.name: s.state for s in self.seats}, self.kind.compare)
        return [Standing(p, n, *self.kind.standing(st), finished[n]) for p, n, st in ranked]

    def winners(self) -> list[str]:
        return [s.name for s in self.standings() if s.place == 1]

    def result(self) -> dict:
        """The contest's result as JSON-safe data (``complete`` False while it is going on: standings so far, no
        winners yet)."""
        return {
            "game": self.game,
            "variant": self.variant,
            "seed": self.seed,
            "complete": self.is_over,
            "called": [str(c) for c in self.order[:self.called]],
            "winners": self.winners() if self.is_over else [],
            "standings": [s.to_dict(self.game) for s in self.standings()],
        }

    # -- saves -------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "game": self.game,
            "variant": self.variant,
            "seed": self.seed,
            "called": self.called,
            "players": [
                {"name": s.name, "state": s.state.to_dict(), "since_call": s.since_call, "turn_done": s.turn_done,
                 "finished": s.finished}
                for s in self.seats
            ],
        }

    @classmethod
    def from_dict(cls, data: dict, saver=None) -> "Contest":
        """Rebuild a saved contest (each game replays its history); ValueError says what is corrupt."""
        try:
            return cls._from_dict(data, saver)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"corrupt contest save: {exc}") from None

    @classmethod
    def _from_dict(cls, data: dict, saver) -> "Contest":
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a contest save (format {SAVE_FORMAT!r})")
        game, variant, seed, called = data["game"], data["variant"], data["seed"], data["called"]
        if game not in GAME_KINDS:
            raise ValueError(f"unknown game {game!r}")
        kind = GAME_KINDS[game]
        if type(seed) is not int or seed < 0 or type(called) is not int or not isinstance(variant, str):
            raise ValueError("seed, called and variant must be an integer >= 0, an integer and a text")
        players = data["players"]
        if not isinstance(players, list):
            raise ValueError("'players' must be a list")
        names = check_names([p["name"] for p in players])
        set_out, order = caller_order(game, seed, variant)
        if not 0 < called <= len(order):
            raise ValueError(f"called must be 1..{len(order)}, got {called}")
        seats = []
        for name, p in zip(names, players):
            session = Session.from_save(game, p["state"], {"variant": variant, "seed": seed})
            flags = (p["since_call"], p["turn_done"], p["finished"])
            if type(flags[0]) is not int or flags[0] < 0 or not all(type(f) is bool for f in flags[1:]):
                raise ValueError(f"{name}: since_call, turn_done and finished must be an integer >= 0 and booleans")
            seat = Seat(name, session, *flags)
            st = session.state
            if st.rules.name != variant:
                raise ValueError(f"{name} plays {st.rules.name}, the contest {variant}")
            turned = kind.turned_cards(st)
            mine = turned[:called] if called >= len(order) else turned
            if mine != order[:called]:
                raise ValueError(f"{name}'s cards are not the caller's order for seed {seed}")
            seats.append(seat)
        contest = cls(game, variant, seed, seats, order, set_out, called, saver)
        if called % contest.batch_size and called != len(order):
            raise ValueError(f"called {called} is not a whole number of calls")
        for seat in seats:
            st, name = seat.state, seat.name
            if seat.since_call != contest._actions_since_call(seat):
                raise ValueError(f"{name}: since_call does not match the history")
            if seat.finished and called < len(order):
                raise ValueError(f"{name} finished before the last call")
            if seat.turn_done and seat.hand() or seat.finished and not kind.plays_out and not st.is_terminal():
                raise ValueError(f"{name} ended a turn with cards still to place")
        return contest

    def _actions_since_call(self, seat: Seat) -> int:
        """The player's own actions after the latest call, read from the game's history."""
        return self.kind.actions_since_call(seat.state, self.called, self.called - len(self.last_call()))


def card_or_none(text: str) -> Card | None:
    """``text`` as a card, or None when it is not one."""
    try:
        return Card.parse(text)
    except CardError:
        return None
