"""The Sir Tommy advisor: every legal placement of the turned card, ranked by the estimated chance to win.

Rules and tips quoted from shared/rules/001 (English) and 002 (Dutch):

* "Turn over the top card of the stock. You must place it straight away" ... "At any time you may also move the
  top card of a waste pile to a foundation, if it fits there." (001)
* "Keep one waste pile for Kings and other high cards, so they don't bury the low cards you need soon." (001)
* "Speel onmiddellijk naar de funderingen zodra een kaart past. Er is bijna nooit een reden om een funderingszet
  uit te stellen." (002: play to the foundations at once; there is *almost* never a reason to wait) -- the test
  below is one of the rare late positions where only waiting wins.

Unit tests use small sample counts; strength and speed are measured by ``patience bench tommy``.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import numpy as np
import pytest

from assistant.advisors.tommy_advisor import FOUND_WEIGHT, TommyAdvice, UnsupportedVariant, advise
from assistant.benchmarks import common
from assistant.benchmarks.tommy import play
from assistant.advisors.tommy_solver import replay
from assistant.deals import deal_order, make_rng
from assistant.games.tommy import TommyState
from assistant.games.tommy_rules import Move


def _state(foundations: str, waste: str, card: str, variant: str = "standard") -> TommyState:
    state = TommyState.from_layout(variant, foundations, waste)
    state.turn(card)
    return state


def test_every_option_is_legal_and_sorted_best_first():
    state = TommyState("standard", order=deal_order(4))
    rng = make_rng(1)
    for _ in range(8):
        state.turn_next()
        advice = advise(state, rng, None, samples=64)
        assert isinstance(advice, TommyAdvice)
        keys = [(not o.dropped, o.score) for o in advice.options]
        assert keys == sorted(keys, reverse=True)
        for o in advice.options:
            assert o.score == pytest.approx(o.win_prob + FOUND_WEIGHT * o.expected_foundation / 52)
        for option in advice.options:
            assert 0.0 <= option.win_ci[0] <= option.win_prob <= option.win_ci[1] <= 1.0
            assert option.move == option.moves[0] and option.move.from_hand
            trial = state.clone()
            for m in option.moves:
                trial.apply(m)  # raises IllegalMoveError if not legal
        for m in advice.best.moves:
            state.apply(m)


def test_the_advice_is_a_frozen_value():
    state = TommyState("standard", order=deal_order(2))
    state.turn_next()
    advice = advise(state, make_rng(0), None, samples=32)
    with pytest.raises(FrozenInstanceError):
        advice.options = ()  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        advice.best.win_prob = 1.0  # type: ignore[misc]


def test_same_seed_same_advice():
    state = _state("As 2s | Ah | - | -", "9c 5d | Kc Qd | 7h | -", "6s")
    a = advise(state, make_rng(42), None, samples=200)
    b = advise(state, make_rng(42), None, samples=200)
    assert a == b
    c = advise(state, make_rng(42), 20.0)  # a budget is a fixed amount of work too
    d = advise(state, make_rng(42), 20.0)
    assert c == d


def test_an_empty_pile_is_one_option_and_a_fitting_card_may_go_up_or_be_kept(monkeypatch):
    import assistant.advisors.tommy_advisor as A

    state = _state("As 2s | - | - | -", "9c | Kc | - | -", "3h")
    # Mid-deal the rollouts cannot tell keeping a fitting card from playing it up (a kept card goes up after the
    # next placement anyway), so only "play up" is offered: "Er is bijna nooit een reden om een funderingszet
    # uit te stellen" (002).
    advice = advise(state, make_rng(3), None, samples=32)
    assert {o.text for o in advice.options} == {"S>F0"}
    # With hold-back options on: "An Ace starts a new foundation. Any other card may go on a foundation whose top
    # card is one lower"; "If it doesn't fit, or you'd rather keep it, put it on any one of the four waste piles."
    monkeypatch.setattr(A, "HOLD_OPTIONS", True)
    advice = advise(state, make_rng(3), None, samples=32)
    placements = {str(o.move) for o in advice.options}
    assert placements == {"S>F0", "S>W0", "S>W1", "S>W2"}  # the two empty piles are one option


def test_does_not_bury_a_two_under_a_king():
    # No Ace is out yet, so the 2 on waste pile 0 is wanted soon; pile 3 is empty and pile 1 holds a King.
    state = _state("- | - | - | -", "8s 2h | Kc | Qh 7d | -", "Kd")
    advice = advise(state, make_rng(5), None, samples=400)
    assert str(advice.best.move) != "S>W0"
    worst_two = next(o for o in advice.options if str(o.move) == "S>W0")
    assert worst_two.expected_foundation < advice.best.expected_foundation


def test_prefers_the_best_fit():
    # "If you can, put a card on a higher card rather than a lower one" (001): the 5 fits on the 6.
    state = _state("As 2s 3s | Ah | - | -", "Kc Qd 6h | 9c 4d | Js 3c | Kh", "5c")
    advice = advise(state, make_rng(9), None, samples=400)
    assert str(advice.best.move) == "S>W0"


# A late position found with the solver (game 287 of deal_order, tests/README in docs/BENCHMARKS.md): the 8c goes
# on waste pile 1; playing the waste tops up afterwards loses against both orders of the two unseen cards (2c,
# Jd), holding them back wins against both.
HOLD_FOUNDATIONS = "Ac 2h 3d 4s 5c 6h 7h 8d 9d 10d Jc | Ad 2d 3s 4h 5s | Ah 2s | As"
HOLD_WASTE = "Jh 10s 7c 10c 5d 8s 6s 3h 7s 5h 3c | Qc Kd 9s Qh | Ks Qd Kh Js 10h Kc 9h Qs 7d 9c 6c | 6d 8h 4c 4d"


def test_holds_back_when_only_holding_back_wins():
    from assistant.advisors.tommy_solver import solve

    state = _state(HOLD_FOUNDATIONS, HOLD_WASTE, "8c")
    assert sorted(map(str, state.stock_cards())) == ["2c", "Jd"]
    # the solver's view: with the greedy closure every order loses; with S>W1 alone every order wins
    for moves, wins in (("S>W1", True), ("S>W1 W0>F2 W2>F1 W3>F2 W0>F2 W0>F1 W1>F1", False)):
        for order in (["2c", "Jd"], ["Jd", "2c"]):
            trial = state.clone()
            for m in moves.split():
                trial.apply(m)
            assert solve(trial, order, 100_000).won is wins, (moves, order)
    advice = advise(state, make_rng(1), None, samples=400)
    best = advice.best
    trial = state.clone()
    for m in best.moves:
        trial.apply(m)
    assert best.win_prob > 0.9
    assert any(trial.is_legal(m) for m in trial.legal_moves() if m.target == "F"), "a fitting card is held back"
    closed = [o for o in advice.options if "W1>F1" in o.text]
    assert closed and all(o.win_prob < best.win_prob for o in closed)


def test_logged_games_replay_legally_move_by_move(tmp_path):
    tasks = [
        {"deck": deal_order(1_000_003 + i), "variant": "standard", "budget_ms": None, "samples": 16,
         "advisor_seed": i, "shuffle_seed": i, "solver_nodes": 0}
        for i in range(2)
    ]
    records = [play(t) for t in tasks]
    log = tmp_path / "tommy.jsonl"
    common.write_log(log, records)
    for line in log.read_text().splitlines():
        game = json.loads(line)
        assert set(game) >= {"deck", "moves", "won", "foundation_cards"}
        state = TommyState("standard", order=game["deck"])
        for text in game["moves"]:
            move = Move.parse(text)
            if move.from_hand:
                state.turn_next()
            assert move in state.legal_moves(), (text, str(state))
            state.apply(move)
        assert state.is_won() == game["won"]
        assert state.foundation_cards() == game["foundation_cards"]
        assert replay("standard", game["deck"], game["moves"]).foundation_cards() == game["foundation_cards"]


@pytest.mark.parametrize(
    "variant", ["aces-out-first", "numerica", "in-suit", "calculation", "puss-in-the-corner", "one-redeal", "old-strict"]
)
def test_variants_get_legal_advice(variant):
    state = TommyState(variant, order=deal_order(7), rng=make_rng(1))
    rng = make_rng(2)
    for _ in range(5):
        state.turn_next()
        advice = advise(state, rng, None, samples=16)
        for option in advice.options:
            trial = state.clone()
            for m in option.moves:
                assert trial.is_legal(m), f"{variant}: {m} is not legal in {trial}"
                trial.apply(m)
        for m in advice.best.moves:
            state.apply(m)


def test_strategy_every_placement_wins():
    state = TommyState("strategy", order=deal_order(3))
    state.turn_next()
    advice = advise(state, make_rng(0), None, samples=16)
    assert advice.exact and all(o.win_prob == 1.0 for o in advice.options)


def test_four_at_a_time_places_all_four_cards_before_any_play():
    # "turn four cards at once and place all four before you move anything from the waste piles to the
    # foundations" (001)
    state = TommyState("four-at-a-time", order=deal_order(3))
    state.turn_next()
    with pytest.raises(ValueError, match="turn the rest"):
        advise(state, make_rng(0), None, samples=16)
    rng = make_rng(0)
    for _ in range(3):
        while state.needs_card():
            state.turn_next()
        advice = advise(state, rng, None, samples=16)
        for option in advice.options:
            placements = [m for m in option.moves if m.from_hand]
            assert len(placements) == len(state.hand)
            assert all(m.from_hand for m in option.moves[: len(placements)])  # plays only after the four
            trial = state.clone()
            for m in option.moves:
                trial.apply(m)
            assert not trial.hand
        for m in advice.best.moves:
            state.apply(m)


def test_rules_it_cannot_advise_on_are_refused_plainly():
    from assistant.games.tommy_rules import TommyRules

    rules = TommyRules("four-with-redeal", turn_count=4, redeals=1)
    state = TommyState(rules, order=deal_order(3))
    while state.needs_card():
        state.turn_next()
    with pytest.raises(UnsupportedVariant, match="four at a time"):
        advise(state, make_rng(0), None, samples=16)


def test_advice_from_arrays_matches_advice_from_the_state():
    state = _state("As | - | - | -", "9c | Kc 4d | - | -", "7h")
    a = advise(state, make_rng(11), None, samples=64)
    b = advise(state.to_arrays(), make_rng(11), None, samples=64)
    assert [(o.moves, o.win_prob, o.expected_foundation) for o in a.options] == [
        (o.moves, o.win_prob, o.expected_foundation) for o in b.options
    ]


def _late_position(seed: int, unseen: int):
    """A standard game played by the advisor (few samples) until ``unseen`` cards are left after the one in hand."""
    state = TommyState("standard", order=deal_order(seed))
    rng = make_rng(seed)
    while True:
        state.turn_next()
        if state.stock_count == unseen:
            return state
        for m in advise(state, rng, None, samples=16).best.moves:
            state.apply(m)


@pytest.mark.parametrize("seed, per_card", [(3, 6), (8, 6), (3, 1)])
def test_two_level_values_are_the_expectimax_over_the_next_card(seed, per_card):
    # With two unseen cards the next card is one of them (1/2 each) and the last card is then known, so every
    # sample of a (next card, placement) is the same play-out and the two-level value is exact: the mean over
    # the next card of the best placement's score (win + foundation cards / 52), computed here by brute force.
    from assistant.advisors import tommy_advisor as A
    from assistant.advisors import tommy_kernels as K

    state = _late_position(seed, 2)
    rules = state.rules
    pos, hand, pool, _, _ = A.position_from_arrays(state.to_arrays())
    P, NR = A.kernel_params(rules)
    W = K.DEFAULT_WEIGHTS
    opts = A._enumerate_options(pos, hand, P, NR, rules, hold=False)
    cp, cph, cfh, cfs = A._pack([q for _, q in opts])
    sel = np.arange(len(opts), dtype=np.int64)
    out = np.zeros(len(opts))
    steps = K.two_level(cp, cph, cfh, cfs, sel, pool, per_card, 1, P, NR, W, out)  # 1: one order per card
    assert steps > 0

    def value(k):
        total = 0.0
        for i, c in enumerate(pool):
            last = np.array([x for j, x in enumerate(pool) if j != i], np.int8)
            best = -1.0
            for p in range(5):  # p == 4: up, if it fits
                piles, ph, fh, fs = cp[k].copy(), cph[k].copy(), cfh[k].copy(), cfs[k].copy()
                f = K.fits(c, fh, fs, P, NR)
                if (f >= 0) != (p == 4):
                    continue
                if f >= 0:
                    K.put_found(c, f, fh, fs)
                    K.closure(piles, ph, fh, fs, P, NR)
                else:
                    piles[p, ph[p]] = c
                    ph[p] += 1
                stock = np.zeros(128, np.int8)
                stock[: len(last)] = last
                got = K.rollout(piles, ph, fh, fs, stock, 0, len(last), P, NR, W)
                best = max(best, (got == 52) + got / 52)
            total += best / len(pool)
        return total

    assert out == pytest.approx([value(k) for k in range(len(opts))])


def test_close_decisions_are_searched_one_ply_deeper_and_repeat_exactly(monkeypatch):
    # Two placements that the flat rollouts cannot tell apart early in a deal: with a budget, the leading options
    # are valued by the two-level search (their score is then its value, not the flat estimate), the same way
    # on every call; with the two-level search switched off the scores are the flat ones again.
    from assistant.advisors import tommy_advisor as A

    monkeypatch.setattr(A, "TWO_LEVEL", True)
    state = _state("- | - | - | -", "9c | 9d | - | -", "5h")
    a = advise(state, make_rng(4), 40.0)
    assert a == advise(state, make_rng(4), 40.0)
    deep = [o for o in a.options if abs(o.score - (o.win_prob + FOUND_WEIGHT * o.expected_foundation / 52)) > 1e-9]
    assert deep and a.best in deep
    monkeypatch.setattr(A, "TWO_LEVEL", False)
    b = advise(state, make_rng(4), 40.0)
    assert all(o.score == pytest.approx(o.win_prob + FOUND_WEIGHT * o.expected_foundation / 52) for o in b.options)


def test_a_run_in_pieces_plays_the_games_of_one_whole_run():
    from assistant.benchmarks.tommy import make_tasks

    def args(first, count):
        return type("A", (), {"deals_file": None, "count": count, "first": first, "seed": 101, "budget_ms": 250.0,
                              "samples": None, "advisor_seed": 7, "solver_nodes": 0})()

    whole = make_tasks(args(0, 5), "standard")
    piece = make_tasks(args(3, 2), "standard")
    assert piece == whole[3:5]
    assert whole[0]["deck"] == deal_order(101 * 1_000_003) and whole[4]["advisor_seed"] == 7 * 1_000_003 + 4


def test_options_dropped_near_the_leader_are_searched_deeper_too(monkeypatch):
    # TWO_LEVEL_DELTA: options the flat rollouts dropped within that score of the leader go to the two-level
    # search as well (at most TWO_LEVEL_TOP of them); with a delta that takes every option, the TOP best are.
    from assistant.advisors import tommy_advisor as A

    monkeypatch.setattr(A, "TWO_LEVEL", True)
    monkeypatch.setattr(A, "TWO_LEVEL_DELTA", 10.0)
    state = _state("As 2s | - | - | -", "9c | Kd 8d | Qh 5c | -", "7h")
    a = advise(state, make_rng(2), 60.0)
    flat = [o for o in a.options if o.score == pytest.approx(o.win_prob + FOUND_WEIGHT * o.expected_foundation / 52)]
    deep = [o for o in a.options if o not in flat]
    assert len(deep) == min(A.TWO_LEVEL_TOP, len(a.options)) and not any(o.dropped for o in deep)
    assert a.options[: len(deep)] == tuple(deep)


def test_a_search_setting_is_parsed_to_its_type_and_reaches_the_games(monkeypatch):
    from assistant.advisors import tommy_advisor as A
    from assistant.benchmarks.tommy import make_tasks, parse_search_settings
    from assistant.cli import UserError

    assert parse_search_settings(["z_drop=5", "TWO_LEVEL=off", "ENDGAME_UNSEEN=5"]) == {
        "Z_DROP": 5.0, "TWO_LEVEL": False, "ENDGAME_UNSEEN": 5}
    for bad in ("STEPS_PER_MS=1", "Z_DROP", "MIN_SAMPLES=many", "TWO_LEVEL=maybe"):
        with pytest.raises(UserError):
            parse_search_settings([bad])
    args = type("A", (), {"deals_file": None, "count": 1, "first": 0, "seed": 3, "budget_ms": None, "samples": 8,
                          "advisor_seed": 7, "solver_nodes": 0, "search_setting": ["MIN_SAMPLES=16"]})()
    (task,) = make_tasks(args, "standard")
    monkeypatch.setattr(A, "MIN_SAMPLES", 64)
    play(task)
    assert A.MIN_SAMPLES == 16


@pytest.mark.parametrize("weights", [None, [1.0, 1.0, 20.0, 0.0, 100.0, 1.0, 0.0, 0.5, 1.0]])
def test_the_rollout_on_ranks_plays_exactly_as_the_rollout_on_cards(weights):
    """Rank-only rules (the standard game, Aces out first, ...): the fast rollout that keeps only ranks must make
    every placement the card rollout makes, from any position (piles in any order, tops that fit held back)."""
    from assistant.advisors import tommy_advisor as A
    from assistant.advisors import tommy_kernels as K
    from assistant.games.tommy_rules import TommyRules

    rng = np.random.default_rng(3)
    W = K.DEFAULT_WEIGHTS if weights is None else np.array(weights, np.float64)
    for preset in ("standard", "aces-out-first"):
        P, NR = A.kernel_params(TommyRules.preset(preset), 0)
        assert K.rank_only(P, W)
        size = int(P[K.P_FOUND_SIZE])
        for _ in range(400):
            fh = rng.integers(0, 6, 4).astype(np.int8)
            up = {s * 13 + h for s, top in enumerate(fh) for h in range(top)}  # the foundations hold those
            rest = rng.permutation([c for c in range(52) if c not in up]).astype(np.int8)
            on_piles = int(rng.integers(0, 20))
            piles = np.zeros((4, K.MAXH), np.int8)
            ph = np.zeros(4, np.int8)
            for c in rest[:on_piles]:
                p = rng.integers(4)
                piles[p, ph[p]] = c
                ph[p] += 1
            stock = rest[on_piles:].copy()
            a = (piles.copy(), ph.copy(), fh.copy(), np.where(fh > 0, np.arange(4), -1).astype(np.int8))
            got_cards = K.rollout(*a, np.r_[stock, np.zeros(64, np.int8)], 0, len(stock), P, NR, W)
            rpiles = piles % 13 + 1
            b = (rpiles.astype(np.int8), ph.copy(), fh.copy())
            got_ranks = K.rank_rollout(*b, np.r_[stock % 13 + 1, np.zeros(64, np.int8)].astype(np.int8), 0,
                                       len(stock), size, W)
            assert got_ranks == got_cards
            assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
            for p in range(4):
                assert np.array_equal(a[0][p, :a[1][p]] % 13 + 1, b[0][p, :b[1][p]])


# Late in a deal, five clubs unseen (5c 6c 7c 8c Qc) and the 10c turned: on the 9c it buries the card the last
# foundation needs before it (lost on every order); anywhere else a good player wins every order.
SAMPLED_FOUNDATIONS = ("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks | Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | "
                       "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd | Ac 2c 3c 4c")


def test_the_sampled_endgame_values_each_order_as_the_solver_does():
    # tommy_solver.hindsight sets up its search once for all options and orders: every value must still be the one a
    # fresh search of that option and order gives (turn first, as the advisor's options end)
    import itertools

    from assistant.advisors import tommy_advisor as A
    from assistant.advisors.tommy_solver import hindsight, solve_arrays

    state = _state(SAMPLED_FOUNDATIONS, "Kc | Jc | 9c | -", "10c")
    rules, a = A._read_state(state)
    pos, hand, pool, _, _ = A.position_from_arrays(a)
    P, NR = A.kernel_params(rules)
    W = A.K.DEFAULT_WEIGHTS
    opts = A._enumerate_options(pos, hand, P, NR, rules, True)
    cp, cph, cfh, cfs = A._pack([q for _, q in opts])
    orders = np.array(list(itertools.permutations(pool)), np.int8)
    found = np.zeros((len(opts), len(orders)), np.int16)
    done, nodes, undecided = hindsight(cp, cph, cfh, cfs, orders, P, NR, W, 10**9, 10**6, 14, found)
    assert (done, undecided) == (len(orders), 0) and nodes > 0
    stock = np.zeros(5 + 64 + 52, np.int8)
    for j, order in enumerate(orders):
        for k in range(len(opts)):
            stock[:5] = order
            status, _, _ = solve_arrays(cp[k].copy(), cph[k].copy(), cfh[k].copy(), cfs[k].copy(), stock.copy(), 0, 5,
                                        P, NR, W, 10**6, 14, 1, True)
            assert status in (0, 1)
            assert (found[k, j] == 52) == (status == 1), (k, order)
    bury = next(k for k, (m, _) in enumerate(opts) if [str(x) for x in m] == ["S>W2"])
    assert (found[bury] < 52).all() and (found[[k for k in range(len(opts)) if k != bury]] == 52).all()


def test_the_sampled_endgame_picks_the_option_that_wins_and_repeats_exactly(monkeypatch):
    from assistant.advisors import tommy_advisor as A

    state = _state(SAMPLED_FOUNDATIONS, "Kc | Jc | 9c | -", "10c")
    monkeypatch.setattr(A, "SAMPLED_UNSEEN", 8)
    monkeypatch.setattr(A, "SAMPLED_ORDERS", 32)  # of the 120 orders: sampled, the same for every option
    a = advise(state, make_rng(3), 250.0)
    assert a == advise(state, make_rng(3), 250.0)
    assert not a.exact and a.best.samples == 32 and a.best.win_prob == 1.0
    assert str(a.best.move) != "S>W2"
    buried = next(o for o in a.options if str(o.move) == "S>W2")
    assert buried.win_prob == 0.0 and buried.samples == 32
    b = advise(state, make_rng(4), 250.0)
    assert b.best.win_prob == 1.0 and str(b.best.move) != "S>W2"
    # switched off, the same position is valued by the rollouts
    monkeypatch.setattr(A, "SAMPLED_UNSEEN", 0)
    c = advise(state, make_rng(3), 250.0)
    assert all(o.samples >= A.MIN_SAMPLES for o in c.options)
