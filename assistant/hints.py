"""Hints for the live panel: the advisors' answers turned into rows a player can read.

The advisors (assistant.advisors) are pure and return numbers; this adapter picks the advisor for the
game and variant, gives it the time budget and a seed derived from the position (so the same position
always gets the same hint), and formats the options. It hands the advisors only what the player has
seen: the engines' ``unseen()`` set, never the caller's seeded order.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HintOption:
    moves: tuple[str, ...]  # in the game's notation: ("S>W2",), ("S>F0", "W1>F0"), ("r1c3",), ("Qh r1c3",)
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
        HintOption((str(o.placement),), (f"{o.expected:.1f}", "exact" if o.exact else f"±{1.96 * o.stderr:.1f}"))
        for o in advice.options
    )
    tips = explain(state, advice)
    note = "; ".join(why for _, why in tips)
    return Hint(f"Where to put {advice.card.pretty}", ("expected score", "95%"), options, note)


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
        HintOption((f"{card} {Placement.from_cell(i)}",), (str(result.score),)) for i, card in enumerate(result.cells)
    )
    return Hint(f"Best arrangement found: {result.score} points", ("arrangement score",), options,
                "place the cards as listed, row by row")


def _tommy_hint(session, budget_ms: float) -> Hint | None:
    """One turned card: the advisor's options (placement plus the plays up that follow). Between turns with
    the stock used up: the end game, solved exactly (every remaining card is known)."""
    from assistant.advisors.tommy_advisor import UnsupportedVariant, advise

    state = session.state
    try:
        if len(state.hand) == 1:
            advice = advise(state, position_rng(session), budget_ms=budget_ms)
        elif not state.hand and not state.needs_card() and state.legal_moves():
            return _tommy_endgame_hint(state)
        else:
            return None  # a card must be turned (plays up were part of the last option), or four cards in hand
    except UnsupportedVariant as exc:
        return Hint("No hint", (), (), f"the advisor cannot advise here: {exc}")
    options = tuple(
        HintOption(tuple(str(m) for m in o.moves),
                   (f"{100 * o.win_prob:.1f}%", f"{100 * o.win_ci[0]:.0f}-{100 * o.win_ci[1]:.0f}%",
                    f"{o.expected_foundation:.1f}"))
        for o in advice.options
    )
    card = state.hand[0].pretty
    return Hint(f"Where to put {card}", ("win chance", "95%", "cards up"), options, advice.note)


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
        return Hint("The rest is won", ("",), (HintOption(tuple(str(m) for m in result.moves), ("wins",)),),
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
        moves.append(str(nxt))
        if nxt.is_redeal:
            break
    return Hint("Play up what fits", ("",), (HintOption(tuple(moves), ("",)),) if moves else (),
                "no winning line is left" if result is not None and result.status == "lost" else "")
