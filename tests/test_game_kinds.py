"""The two game kinds (assistant.games.kinds): one interface, so that callers never branch on a game's name."""

from __future__ import annotations

import random

from assistant.contest import Contest
from assistant.games.kinds import GAME_KINDS
from assistant.games.poker_players import rank_players


def public(kind) -> set[str]:
    return {n for n in dir(kind) if not n.startswith("_")}


def test_both_games_answer_the_same_questions():
    """A method or attribute that only one game has would send callers back to asking which game it is."""
    tommy, poker = GAME_KINDS["tommy"], GAME_KINDS["poker"]
    assert public(tommy) == public(poker), public(tommy) ^ public(poker)
    assert [k.name for k in GAME_KINDS.values()] == list(GAME_KINDS)


def test_a_poker_contest_ranks_as_rank_players():
    """The contest ranks through the kind's comparison: for Poker the same places and order (ties by name) as
    004's ``rank_players`` on the totals."""
    cells = [f"r{r}c{c}" for r in range(1, 6) for c in range(1, 6)]
    for seed in range(6):
        rng = random.Random(seed)
        names = ["Ann", "Bob", "Cy", "Dee"][:2 + seed % 3]
        orders = {n: rng.sample(cells, 25) for n in names}
        orders[names[-1]] = orders[names[0]]  # one tie at least
        c = Contest.new("poker", names, seed=seed, variant="english")
        while not c.is_over:
            seat = c.current
            if seat is None:
                c.call_next()
                continue
            c.play(orders[seat.name][seat.state.placed_count])
        totals = {s.name: s.state.score().total for s in c.seats}
        assert [(s.place, s.name, s.points) for s in c.standings()] == rank_players(totals)
