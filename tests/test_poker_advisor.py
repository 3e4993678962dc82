"""Poker Patience advisor (assistant/advisors/poker_advisor.py, poker_kernels.py) against the rules of 004.

004, "Spielablauf": "Leg sie offen auf einen beliebigen freien Platz im Quadrat." — "Das Können steckt darin, jede
Karte gut zu platzieren, ohne zu wissen, was noch kommt: eine Spalte für einen Flush freihalten, gleiche Werte in
einer Reihe sammeln".
"""

import json

import numpy as np
import pytest

from assistant.advisors import poker_advisor as A
from assistant.advisors import poker_kernels as K
from assistant.benchmarks import common
from assistant.benchmarks import poker as bench_poker
from assistant.cards import Card, parse_cards
from assistant.deals import deal_order
from assistant.games.poker import Placement, PokerRules, PokerState, parse_grid, score_grid
from assistant.games.poker_hands import classify

REFERENCE = "AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D"


def idx(cards):
    return np.array([c.index for c in cards], dtype=np.int64)


def state_with(cells_text: dict[str, str], turned: str, rules: PokerRules | None = None) -> PokerState:
    """A state holding the given cells ({"r1c1": "Ah", ...}) and the turned card waiting."""
    cells = [None] * 25
    for where, card in cells_text.items():
        cells[Placement.parse(where).cell] = Card.parse(card)
    state = PokerState.from_grid(cells, rules)
    state.turn(Card.parse(turned))
    return state


# ------------------------------------------------------------------------------------------------ compiled scorer


def placed_by_policy(seed: int, placed: int, rules: PokerRules | None = None) -> tuple[PokerState, list]:
    """The shuffle ``deal_order(seed)``: its first ``placed`` cards placed by the rollout policy, the next turned."""
    state = PokerState(rules) if rules is not None else PokerState()
    deal = deal_order(seed)
    for card in deal[:placed]:
        state.turn(card)
        state.place(A.policy_placement(state))
    state.turn(deal[placed])
    return state, deal


def test_kernel_hand_scorer_agrees_with_the_rules_engine():
    rng = np.random.default_rng(3)
    for _ in range(3000):
        hand = rng.permutation(52)[:5]
        assert K.hand_category(*[int(x) for x in hand]) == int(classify([int(x) for x in hand]))
    # "aber eine Straße geht nicht um die Ecke (D-K-A-2-3 ist keine Straße)"
    corner = idx(parse_cards("Qs Kh Ad 2c 3s"))
    assert K.hand_category(*corner) == 0
    assert K.hand_category(*idx(parse_cards("10h Jh Qh Kh Ah"))) == 9
    assert K.hand_category(*idx(parse_cards("Ah 2h 3h 4h 5h"))) == 8


def test_kernel_grid_score_matches_the_reference_grid():
    grid = idx(parse_grid(REFERENCE))
    assert K.grid_score(grid, K.AMERICAN) == 197
    assert K.grid_score(grid, K.ENGLISH) == 66


def test_random_fill_table_is_the_exact_expectation():
    T = A._random_fill_table("american")
    # a random five-card hand: the classic frequencies over C(52,5) = 2,598,960 hands
    freq = {1: 1098240, 2: 123552, 3: 54912, 4: 10200, 5: 5108, 6: 3744, 7: 624, 8: 36, 9: 4}
    expected = sum(n * K.AMERICAN[c] for c, n in freq.items()) / 2598960
    assert T[0] == pytest.approx(expected, rel=1e-9)
    # four aces: every fifth card makes four of a kind (50)
    aces = np.sort(idx(parse_cards("As Ah Ad Ac")))
    colex = sum(K.BINOM[c, i + 1] for i, c in enumerate(aces))
    assert T[K.T_OFFSETS[4] + colex] == pytest.approx(50.0)


# ------------------------------------------------------------------------------------------------ candidates


def test_empty_rows_and_columns_are_alike():
    empty = np.full(25, -1)
    groups = A.candidate_cells(empty, adjacent=False)
    assert list(groups) == [0] and len(groups[0]) == 25  # the first move has one candidate
    one = empty.copy()
    one[0] = 5
    groups = A.candidate_cells(one, adjacent=False)
    assert sorted(groups) == [1, 5, 6]  # same row, same column, neither: three candidates
    assert sum(len(v) for v in groups.values()) == 24


def test_adjacent_variant_only_offers_cells_next_to_a_card():
    # "muss jede Karte nach der ersten neben eine schon liegende Karte – darüber, darunter, daneben oder schräg"
    state = state_with({"r3c3": "7h"}, "8h", PokerRules("american", adjacent_only=True))
    advice = A.advise(state, np.random.default_rng(0), samples=32)
    cells = sorted(str(o.placement) for o in advice.options)
    assert cells == sorted(str(p) for p in state.legal_cells())
    assert len(cells) == 8


# ------------------------------------------------------------------------------------------------ advice


def test_advice_ranks_every_legal_cell_best_first():
    state, deal = placed_by_policy(11, 6)
    advice = A.advise(state, np.random.default_rng(1), samples=64)
    assert advice.card == deal[6]
    assert sorted(o.placement for o in advice.options) == sorted(state.legal_cells())
    values = [o.expected for o in advice.options]
    assert values == sorted(values, reverse=True)
    for o in advice.options:
        assert o.low <= o.expected <= o.high
        assert o.samples >= 32
    assert advice.placement == advice.options[0].placement


def test_same_seed_same_advice():
    state, _ = placed_by_policy(4, 8, PokerRules("english"))
    a = A.advise(state, np.random.default_rng(9), samples=96)
    b = A.advise(state, np.random.default_rng(9), samples=96)
    assert a == b


def test_completes_the_flush_column():
    # Column 1 holds four hearts; the turned Kh completes the flush (20) there and nowhere helps as much.
    cells = {"r1c1": "2h", "r2c1": "5h", "r3c1": "9h", "r4c1": "Jh",
             "r1c2": "3s", "r1c3": "8d", "r1c4": "Qc", "r2c2": "4c", "r2c3": "10s", "r3c2": "6d",
             "r4c4": "7c", "r5c5": "Ad"}
    state = state_with(cells, "Kh")
    advice = A.advise(state, np.random.default_rng(2), samples=256)
    assert advice.placement == Placement.parse("r5c1")
    tips = A.explain(state, advice)
    assert any("Flush" in tip for tip, _ in tips)


def test_makes_four_of_a_kind():
    # Row 2 holds three sevens and a king; the fourth seven belongs there (50 American, 16 English).
    cells = {"r2c1": "7s", "r2c2": "7h", "r2c3": "7d", "r2c4": "Kc",
             "r1c1": "2c", "r3c2": "9s", "r4c3": "Jd", "r5c4": "3h", "r1c5": "5d", "r4c5": "Qs"}
    for scoring in ("american", "english"):
        state = state_with(cells, "7c", PokerRules(scoring))
        advice = A.advise(state, np.random.default_rng(3), samples=256)
        assert advice.placement == Placement.parse("r2c5"), scoring


def test_exact_endgame_is_the_mean_over_the_unseen_cards():
    state, deal = placed_by_policy(21, 23)
    advice = A.advise(state, np.random.default_rng(0))
    assert advice.method == "exact"
    last_two = [p for p in state.legal_cells()]
    for option in advice.options:
        other = [p for p in last_two if p != option.placement][0]
        totals = []
        for card in state.unseen():
            s = state.clone()
            s.place(option.placement)
            s.turn(card)
            s.place(other)
            totals.append(s.score().total)
        assert option.expected == pytest.approx(np.mean(totals))
        assert option.exact and option.stderr == 0


def test_learned_policy_plays_legal_games_in_every_variant():
    for rules in (PokerRules("american"), PokerRules("english", adjacent_only=True)):
        state = PokerState(rules)
        for card in deal_order(8)[:25]:
            state.turn(card)
            state.place(A.policy_placement(state))  # place() raises on an illegal cell
        assert state.is_terminal()


# ------------------------------------------------------------------------------------------------ benchmark log


@pytest.mark.parametrize("scoring,adjacent", [("american", False), ("english", True)])
def test_logged_games_replay_legally_to_the_logged_score(tmp_path, scoring, adjacent):
    deals = common.seeded_deals(2, 5)
    tasks = [{"deck": [str(c) for c in d[:25]], "scoring": scoring, "adjacent": adjacent, "budget_ms": None,
              "samples": 32, "policy": "mc", "rng_seed": [5, i]} for i, d in enumerate(deals)]
    records = [bench_poker.play(t) for t in tasks]
    log = tmp_path / "games.jsonl"
    common.write_log(log, bench_poker.log_records(records))
    lines = log.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        game = json.loads(line)
        assert set(game) == {"deck", "placements", "score"}
        state = PokerState(PokerRules(scoring, adjacent_only=adjacent))
        for card, (row, col) in zip(game["deck"], game["placements"]):
            state.turn(card)
            state.place(Placement(row, col))  # raises if illegal
        assert state.is_terminal()
        assert state.score().total == game["score"]
        assert score_grid(state.cells, scoring).total == game["score"]


# ------------------------------------------------------------------------------------------------ line abstraction


def _key_from_scratch(grid, li, deck_aware):
    """The documented abstraction, computed directly: rank-multiplicity pattern, flush still possible, open
    straight windows; deck-aware: live cards of the line's ranks (cap 7) and spare cards of its suit (0..3)."""
    cells = [li * 5 + c for c in range(5)] if li < 5 else [r * 5 + li - 5 for r in range(5)]
    cards = [int(grid[c]) for c in cells if grid[c] >= 0]
    k = len(cards)
    ranks = [c % 13 for c in cards]
    mult = tuple(sorted((ranks.count(r) for r in set(ranks)), reverse=True))
    pattern = K._PATTERNS.index(mult)
    flush = 1 if len({c // 13 for c in cards}) <= 1 else 0
    windows = 0
    if len(set(ranks)) == k and k > 0:
        m = sum(1 << r for r in ranks)
        windows = min(5, sum(1 for w in K._STRAIGHT_MASKS if (m & int(w)) == m))
    key = (pattern * 2 + flush) * 6 + windows
    if not deck_aware:
        return key
    on_grid = [int(c) for c in grid if c >= 0]
    outs = min(7, sum(4 - sum(1 for c in on_grid if c % 13 == r) for r in set(ranks)))
    fo = 0
    if flush and k > 0:
        live = 13 - sum(1 for c in on_grid if c // 13 == cards[0] // 13)
        need = 5 - k
        fo = min(3, live - need + 1) if live >= need else 0
    return (key * 8 + outs) * 4 + fo


def test_incremental_line_keys_match_the_definition():
    rng = np.random.default_rng(5)
    for _ in range(200):
        deck = rng.permutation(52)
        grid = np.full(25, -1, dtype=np.int64)
        n = int(rng.integers(1, 25))
        grid[rng.permutation(25)[:n]] = deck[:n]
        for deck_aware in (False, True):
            got = K.state_keys(grid, deck_aware)
            for li in range(10):
                cells = [li * 5 + c for c in range(5)] if li < 5 else [r * 5 + li - 5 for r in range(5)]
                if all(grid[c] >= 0 for c in cells):
                    assert got[li] == -1
                else:
                    assert got[li] == _key_from_scratch(grid, li, deck_aware), (grid, li, deck_aware)


def test_line_values_can_be_chosen():
    state, _ = placed_by_policy(2, 5)
    modes = {v: A.value_tables("american", False, v)[0] for v in ("auto", "deck-aware", "plain", "random-fill")}
    assert modes == {"auto": 2, "deck-aware": 2, "plain": 1, "random-fill": 0}
    assert A.value_tables("american", True, "auto")[0] == 1  # "Nur neben eine Karte": plain table only
    for values in modes:
        advice = A.advise(state, np.random.default_rng(0), samples=32, learned=values)
        assert sorted(o.placement for o in advice.options) == sorted(state.legal_cells())
    with pytest.raises(ValueError):
        A.value_tables("american", False, "best")


# ------------------------------------------------------------------------------------------------ two-ply rollouts


def _lines_total_from_scratch(grid, V, pts):
    """Sum of the plain learned values of the ten lines of ``grid`` (points of full lines)."""
    t = int((grid >= 0).sum())
    keys = K.state_keys(grid, False)
    total = 0.0
    for li in range(10):
        if keys[li] < 0:
            total += K._line_points(grid, li, pts)
        else:
            total += V[0 if li < 5 else 1, t, keys[li]]
    return total


def test_two_ply_choice_is_the_best_expectation_over_the_next_card():
    # "Das Können steckt darin, jede Karte gut zu platzieren, ohne zu wissen, was noch kommt" (004): the two-ply
    # choice is the cell whose line values, after the best cell for the next card, are largest on average over
    # every card that can come next.
    mode, T, V, pts = A.value_tables("english", False, "plain")
    rng = np.random.default_rng(3)
    for trial in range(3):
        deck = rng.permutation(52)
        n = 9 + 4 * trial
        grid = np.full(25, -1, dtype=np.int64)
        grid[rng.permutation(25)[:n]] = deck[:n]
        card = int(deck[n])
        others = np.array(deck[n + 1:], dtype=np.int64)
        empty = [c for c in range(25) if grid[c] < 0]
        expected = {}
        for x in empty:
            g = grid.copy()
            g[x] = card
            values = []
            for c in others:
                best = -1e18
                for y in empty:
                    if y != x:
                        g[y] = c
                        best = max(best, _lines_total_from_scratch(g, V, pts))
                        g[y] = -1
                values.append(best)
            expected[x] = float(np.mean(values))
        st, tmp = K._new_state(), K._new_state()
        for cell in range(25):
            if grid[cell] >= 0:
                K._place_state(cell, grid[cell], *st)
        cell = K._lookahead_cell(card, n, others, 0, mode, T, V, pts, st, tmp, np.zeros(10),
                                 np.zeros(25, dtype=np.int64), np.zeros(25))
        top = max(expected.values())
        assert expected[int(cell)] == pytest.approx(top), (trial, cell, expected)


def test_rollouts_with_a_beam_of_one_are_the_one_ply_rollouts():
    mode, T, V, pts = A.value_tables("american")
    state, deal = placed_by_policy(31, 7)
    arrays = state.to_arrays()
    grid = arrays.grid.astype(np.int64)
    unseen = np.asarray(arrays.unseen, dtype=np.int64)
    cells = np.array([c for c in range(25) if grid[c] < 0][:5], dtype=np.int64)
    decks = np.array([np.random.default_rng(i).permutation(unseen)[:17] for i in range(16)], dtype=np.int64)
    plain = K.mc_scores(grid, int(arrays.current), cells, decks, False, mode, T, V, pts)
    first = np.full((25, 52), -1, dtype=np.int64)
    beam1 = K.mc_scores_lookahead(grid, int(arrays.current), cells, decks, unseen, first, 1, mode, T, V, pts)
    assert np.array_equal(plain, beam1)
    assert (first[cells] >= 0).sum() > 0


def test_two_ply_rollouts_are_reproducible_and_legal():
    state, deal = placed_by_policy(12, 6, PokerRules("english"))
    a = A.advise(state, np.random.default_rng(4), samples=64, lookahead=4)
    b = A.advise(state, np.random.default_rng(4), samples=64, lookahead=4)
    assert a == b
    assert sorted(o.placement for o in a.options) == sorted(state.legal_cells())
    assert A.advise(state, np.random.default_rng(4), samples=64, lookahead=0).options  # one-ply rollouts still there


def test_both_rollout_kernels_share_one_per_sample_loop():
    """Issue 11: mc_scores and mc_scores_lookahead repeated their per-sample loop; now both call _rollout_scores."""
    import inspect

    from assistant.advisors import poker_kernels as K

    for kernel in (K.mc_scores, K.mc_scores_lookahead):
        source = inspect.getsource(kernel.py_func)
        assert "_rollout_scores(" in source and "while t < 25" not in source
    assert "while t < 25" in inspect.getsource(K._rollout_scores.py_func)


def test_a_two_ply_beam_of_one_plays_as_the_one_ply_policy():
    """With a beam of one cell the two-ply first step is the one-ply policy's cell: the same play, the same scores."""
    from assistant.advisors import poker_kernels as K
    from assistant.advisors.poker_advisor import value_tables

    mode, T, V, pts = value_tables("american", False, True)
    order = [c.index for c in deal_order(5)]
    grid = np.full(25, -1, np.int64)
    grid[[0, 6, 12, 18, 24, 3]] = order[:6]
    unseen = np.array(sorted(set(range(52)) - set(order[:7])), np.int64)
    rng = np.random.default_rng(5)
    decks = unseen[np.argsort(rng.random((8, unseen.size)), axis=1)[:, :18]]
    cells = np.array([1, 2, 5, 7], np.int64)
    one_ply = K.mc_scores(grid, order[6], cells, decks, False, mode, T, V, pts)
    first = np.full((25, 52), -1, np.int64)
    beam_one = K.mc_scores_lookahead(grid, order[6], cells, decks, unseen, first, 1, mode, T, V, pts)
    assert np.array_equal(one_ply, beam_one)
