"""Hints for the live panel: the advisors' answers turned into options a player can read and a program can play.

The advisors (assistant.advisors) are pure and return numbers; this adapter picks the advisor for the
game and variant, gives it a fixed amount of work (``budget_ms`` is turned into rollouts, calibrated to take about
that long on the project machine) and a seed derived from the position, so the same position always gets the same
hint, and formats the options. It hands the advisors only what the player has seen: the engines' ``unseen()``
set, never the caller's seeded order.

An option carries its moves as values (``assistant.games.tommy.Move``, ``assistant.games.poker.Placement``; Poker
Shuffle adds the open ``card`` to place), its numbers, and their display texts; ``text`` is what a player reads.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from assistant.cards import Card


@dataclass(frozen=True)
class HintOption:
    """One choice: ``moves`` in order (Sir Tommy: the placement and the plays up that follow; Poker: one cell),
    ``values`` one display text per ``Hint.columns``, and the numbers behind them."""

    moves: tuple  # Move / Placement values: (Move("S>W2"),), (Move("S>F0"), Move("W1>F0")), (Placement(0, 2),)
    values: tuple[str, ...]
    card: Card | None = None  # Poker Shuffle: the open card that goes to moves[0]
    win_prob: float | None = None  # Sir Tommy: chance to win after these moves (0..1)
    expected_foundation: float | None = None  # Sir Tommy: mean cards on the foundations at the end
    expected: float | None = None  # Poker: expected final score
    label: str | None = None  # what a player reads, where the notation does not name the cards (four at a time)

    @property
    def text(self) -> str:
        """The moves in the game's notation: ``S>W2 W1>F0``, ``r1c3``, ``Qh r1c3``; four at a time each turned
        card by name: ``Qd>W0 3s>F1``."""
        if self.label is not None:
            return self.label
        moves = " ".join(str(m) for m in self.moves)
        return f"{self.card} {moves}" if self.card is not None else moves

    @property
    def move(self) -> str:  # the older name of ``text``
        return self.text


@dataclass(frozen=True)
class Hint:
    headline: str
    columns: tuple[str, ...]
    options: tuple[HintOption, ...]
    note: str = ""
    legend: str = ""  # what the columns and the order mean, in one line


def percent(p: float) -> str:
    """A chance as a percentage: whole percents from 10 % up, one decimal below (``3.7%``, ``42%``)."""
    x = 100.0 * p
    return f"{x:.0f}%" if x >= 9.95 else f"{x:.1f}%"


def percent_range(low: float, high: float) -> str:
    """An interval of chances, never ``4-4%``: one decimal whenever whole percents would blur it."""
    lo, hi = 100.0 * low, 100.0 * high
    if hi >= 9.95 and round(lo) != round(hi) and hi - lo >= 2.0:
        return f"{lo:.0f}-{hi:.0f}%"
    return f"{lo:.1f}-{hi:.1f}%"


def position_rng(session) -> np.random.Generator:
    """A generator seeded by the position's history: the same position always gets the same hint."""
    history = " ".join(str(x) for x in session.state.to_dict().get("history", session.state.to_dict().get("dealt", [])))
    history += "|" + " ".join(str(p) for p in session.state.to_dict().get("placements", []))
    return np.random.Generator(np.random.PCG64(zlib.crc32(history.encode())))


def hint_for(session, budget_ms: float = 500.0) -> Hint | None:
    """The best moves now, or None when there is no decision (a card must be turned) or no advisor."""
    if session.is_over:
        return None
    if session.game == "poker":
        return _poker_hint(session, budget_ms)
    return _tommy_hint(session, budget_ms)


def _poker_hint(session, budget_ms: float) -> Hint | None:
    state = session.state
    if state.rules.shuffle:
        return _shuffle_hint(session, budget_ms)
    if state.current is None:
        return None
    from assistant.advisors.poker_advisor import advise, explain

    advice = advise(state, position_rng(session), work_ms=budget_ms)  # fixed work: same position, same hint
    options = tuple(
        HintOption((o.placement,), (f"{o.expected:.1f}", "exact" if o.exact else f"±{1.96 * o.stderr:.1f}"),
                   expected=o.expected)
        for o in advice.options
    )
    tips = explain(state, advice)
    note = "; ".join(why for _, why in tips)
    legend = ("best first by expected score: the mean final score when the card goes there and the game is played "
              "on well; ± is the 95 % margin of that estimate (sampled orders of the unseen cards)")
    return Hint(f"Where to put {advice.card.pretty}", ("expected score", "± 95%"), options, note, legend)


def _shuffle_hint(session, budget_ms: float) -> Hint | None:
    """Poker Shuffle: once all 25 are open, the best arrangement found; the hint is where the next card goes."""
    state = session.state
    if state.needs_card() or not state.pending:
        return None
    from assistant.advisors.shuffle_solver import restarts_for, solve
    from assistant.games.poker import Placement

    placed = {i for i, c in enumerate(state.cells) if c is not None}
    if placed:
        return None  # the solver arranges all 25 at once; after the player's own first placements it stays quiet
    result = solve(list(state.pending), state.rules.scoring, position_rng(session), restarts=restarts_for(budget_ms))
    options = tuple(
        HintOption((Placement.from_cell(i),), (str(result.score),), card=card, expected=float(result.score))
        for i, card in enumerate(result.cells)
    )
    return Hint(f"Best arrangement found: {result.score} points", ("arrangement score",), options,
                "place the cards as listed, row by row")


def _tommy_hint(session, budget_ms: float) -> Hint | None:
    """One turned card: the advisor's options (placement plus the plays up that follow). Between turns with
    the stock used up: the end game, solved exactly (every remaining card is known)."""
    from assistant.advisors.tommy_advisor import UnsupportedVariant, advise

    state = session.state
    try:
        if state.hand and not state.needs_card():  # one turned card, or (four at a time) the whole batch turned
            advice = advise(state, position_rng(session), budget_ms=budget_ms)
        elif not state.hand and not state.needs_card() and state.legal_moves():
            return _tommy_endgame_hint(state)
        else:
            return None  # a card must be turned (plays up were part of the last option, or a batch is half turned)
    except UnsupportedVariant as exc:
        return Hint("No hint", (), (), f"the advisor cannot advise here: {exc}")
    out_of = state.rules.cards_in_play
    several = len(state.hand) > 1
    options = tuple(
        HintOption(tuple(o.moves),
                   (f"{o.expected_foundation:.1f}", percent(o.win_prob),
                    "exact" if advice.exact else percent_range(*o.win_ci)),
                   win_prob=o.win_prob, expected_foundation=o.expected_foundation,
                   label=_named_moves(state, o.moves) if several else None)
        for o in advice.options
    )
    note = advice.note
    if advice.exact:  # valued over every order: ties are exact (often one line of plays, stopped sooner or later)
        def alike(a, b) -> bool:
            return abs(a.win_prob - b.win_prob) < 1e-9 and abs(a.expected_foundation - b.expected_foundation) < 1e-9

        kept = tuple(o for i, o in enumerate(options) if not any(alike(o, p) for p in options[:i]))
        if len(kept) < len(options):
            n = len(options) - len(kept)
            note = "; ".join(filter(None, (note, f"{n} other choice{'s do' if n > 1 else ' does'} exactly as well")))
            options = kept
    card = " ".join(c.pretty for c in state.hand)
    legend = (f"best first by cards up and wins together (each sampled game scores 1 for a win plus the share of the "
              f"{out_of} cards it gets up); cards up: the mean at the end; win chance: of a simple player after this "
              "move (yours is higher); 95% range: where that chance lies, 19 times in 20")
    return Hint(f"Where to put {card}", ("cards up", "win chance", "95% range"), options, note, legend)


def _named_moves(state, moves) -> str:
    """Moves from a hand of several turned cards with each card named (``Qd>W0 10h>F1 W0>F1``): ``S0`` names
    whichever card is first in the hand at that moment."""
    probe = state.clone()
    words = []
    for m in moves:
        text = str(m)
        if m.source == "S":
            text = f"{probe.hand[m.source_index or 0]}{text[text.index('>'):]}"
        words.append(text)
        probe.apply(m)
    return " ".join(words)


def _tommy_endgame_hint(state) -> Hint:
    """The stock is used up: every card is known, so the solver finds a winning line if there is one;
    otherwise play up whatever fits (nothing else can change the outcome), then redeal if allowed."""
    from assistant.advisors.tommy_advisor import UnsupportedVariant
    from assistant.advisors.tommy_solver import solve

    try:
        result = solve(state, [])
    except (UnsupportedVariant, ValueError):
        result = None
    if result is not None and result.won:
        return Hint("The rest is won", ("",), (HintOption(tuple(result.moves), ("wins",), win_prob=1.0),),
                    "every remaining card is known: this line clears the waste piles")
    probe = state.clone()
    moves = []
    while True:
        legal = probe.legal_moves()
        up = [m for m in legal if m.to_foundation]
        nxt = up[0] if up else next((m for m in legal if m.is_redeal), None)
        if nxt is None:
            break
        probe.apply(nxt)
        moves.append(nxt)
        if nxt.is_redeal:
            break
    return Hint("Play up what fits", ("",), (HintOption(tuple(moves), ("",)),) if moves else (),
                "no winning line is left" if result is not None and result.status == "lost" else "")
