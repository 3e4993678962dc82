"""Poker Shuffle solver (assistant/advisors/shuffle_solver.py).

004, "Varianten": "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus, dann ordnest du sie beliebig an.
Gewonnen ist ab 310 Punkten (amerikanisch) oder 120 (englisch)."
"""

import json

import numpy as np
import pytest

from assistant.advisors import shuffle_solver as S
from assistant.benchmarks import common
from assistant.benchmarks import shuffle as bench_shuffle
from assistant.deals import deal_order
from assistant.games.poker import Placement, PokerRules, PokerState, parse_grid, score_grid

REFERENCE = "AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D"


@pytest.mark.parametrize("scoring", ["american", "english"])
def test_beats_the_naive_arrangement_and_reports_the_engines_score(scoring):
    for seed in range(3):
        cards = deal_order(100 + seed)[:25]
        naive = score_grid(cards, scoring).total
        result = S.solve(cards, scoring, np.random.default_rng(seed), restarts=2, iterations=50_000)
        assert sorted(result.cells) == sorted(cards)  # the same 25 cards, each once
        assert result.score == score_grid(result.cells, scoring).total
        assert result.score > naive


def test_finds_at_least_the_reference_grid():
    # rules/README.md: the reference grid scores 197 American, 66 English; its cards can do at least that.
    cards = parse_grid(REFERENCE)
    shuffled = [cards[i] for i in np.random.default_rng(0).permutation(25)]
    assert S.solve(shuffled, "american", np.random.default_rng(1), restarts=3).score >= 197
    assert S.solve(shuffled, "english", np.random.default_rng(1), restarts=3).score >= 66


def test_same_seed_same_arrangement():
    cards = deal_order(7)[:25]
    a = S.solve(cards, "american", np.random.default_rng(4), restarts=2, iterations=20_000)
    b = S.solve(cards, "american", np.random.default_rng(4), restarts=2, iterations=20_000)
    assert a == b


def test_arrangement_can_be_laid_out_under_the_shuffle_rules():
    cards = deal_order(9)[:25]
    result = S.solve(cards, "english", np.random.default_rng(0), restarts=1)
    state = PokerState(PokerRules("english", shuffle=True))
    for c in cards:
        state.turn(c)
    for card, cell in result.placements:
        state.place(cell, card)
    assert state.score().total == result.score


def test_rejects_a_wrong_set():
    with pytest.raises(ValueError):
        S.solve(deal_order(1)[:24], "american", np.random.default_rng(0), restarts=1)


def test_logged_sets_replay_to_the_logged_score(tmp_path):
    deals = common.seeded_deals(2, 3)
    tasks = [{"deck": [str(c) for c in d[:25]], "scoring": "american", "budget_ms": None, "restarts": 1,
              "rng_seed": [3, i]} for i, d in enumerate(deals)]
    records = [bench_shuffle.play(t) for t in tasks]
    log = tmp_path / "sets.jsonl"
    common.write_log(log, bench_shuffle.log_records(records))
    for line in log.read_text().splitlines():
        game = json.loads(line)
        state = PokerState(PokerRules("american", shuffle=True))
        for card in game["deck"]:
            state.turn(card)
        for card, (row, col) in zip(game["deck"], game["placements"]):
            state.place(Placement(row, col), card)
        assert state.score().total == game["score"]
