"""The perfect-information solver: with the whole order known, a deal is winnable, lost, or undecided.

Rules quoted from shared/rules/001 (English): "There is only one pass through the stock – no redeal. When the
stock is used up, keep moving waste-pile cards to the foundations for as long as you can. You win when all 52
cards lie on the four foundations."
"""

from __future__ import annotations

import pytest

from assistant.advisors.tommy_advisor import UnsupportedVariant
from assistant.advisors.tommy_solver import replay, solve, solve_deal
from assistant.cards import parse_cards
from assistant.deals import deal_order
from assistant.games.tommy import TommyState


def test_a_winning_line_replays_legally_to_a_win():
    found = 0
    for seed in range(12):
        deck = deal_order(seed)
        result = solve_deal("standard", deck, 20_000)
        assert result.status in ("won", "undecided", "lost")
        if result.won:
            found += 1
            state = replay("standard", deck, result.moves)  # raises on an illegal move
            assert state.is_won() and state.foundation_cards() == 52
    assert found >= 3


def test_a_sorted_deck_is_won_without_search():
    deck = [c for rank in range(1, 14) for c in parse_cards(f"{_r(rank)}s {_r(rank)}h {_r(rank)}d {_r(rank)}c")]
    result = solve_deal("standard", deck, 1_000)
    assert result.won and result.nodes < 300
    assert all(str(m).startswith("S>F") for m in result.moves)


def _r(rank: int) -> str:
    return "A 2 3 4 5 6 7 8 9 10 J Q K".split()[rank - 1]


def test_all_four_twos_buried_under_kings_is_proven_lost():
    # "above all don't bury all four cards of one rank under higher cards – that blocks every foundation" (001)
    state = TommyState.from_layout(
        "standard",
        "As | Ah | Ad | Ac",
        "2s Ks | 2h Kh | 2d Kd | 2c Kc",
    )
    order = sorted(state.stock_cards())
    result = solve(state, order, 50_000)
    assert result.status == "lost"


def test_a_tiny_node_budget_answers_undecided():
    result = solve_deal("standard", deal_order(5), 5)
    assert result.status in ("undecided", "won")
    assert result.status == "undecided" or result.nodes <= 5


def test_variants_the_solver_searches_replay_legally():
    for variant in ("aces-out-first", "puss-in-the-corner", "calculation", "one-redeal", "numerica"):
        for seed in range(4):
            deck = deal_order(100 + seed)
            result = solve_deal(variant, deck, 5_000)
            if result.won:
                assert replay(variant, deck, result.moves).is_won()


def test_four_at_a_time_is_not_searched():
    with pytest.raises(UnsupportedVariant):
        solve_deal("four-at-a-time", deal_order(1), 100)


def test_a_won_endgame_is_found_when_a_pile_gives_a_card_up_and_takes_another():
    """Seven cards to come; the win starts 2♠ up, 3♠ and 4♥ after it, 6♠ from the last pile up (from a game of
    tests/fixtures/review_tommy_mistakes.json).  Searching it means taking back a waste top played up after
    another card was tried on that pile: the taken-back move must restore that top (it once restored the tried
    card instead, and the solver 'proved' this deal lost)."""
    order = parse_cards("2s Kc Jc 10d 5d Qc 7c")
    state = TommyState.from_layout(
        "standard",
        "Ah 2c 3c 4c 5c 6d 7d 8h 9c 10c Jh Qs Ks | Ad 2d 3d 4d 5h | As 2h 3h 4s 5s | Ac",
        "Jd Js 8s 8c 3s | Qh Kh 10h Qd 9s | 6c 7s 6h 10s 4h | Kd 7h 9d 9h 8d 6s",
        order=order,
    )
    result = solve(state, order, 200_000)
    assert result.status == "won"
    for move in result.moves:
        if move.from_hand:
            state.turn_next()
        state.apply(move)  # raises on an illegal move
    assert state.is_won()
