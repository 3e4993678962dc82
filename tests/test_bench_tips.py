"""The tips-only players of assistant/benchmarks/tips.py: they play legal games, reproducibly."""

from __future__ import annotations

import numpy as np

from assistant.benchmarks import tips as B
from assistant.coach.tips_poker import TIPS as POKER_TIPS
from assistant.coach.tips_tommy import TIPS as TOMMY_TIPS
from assistant.deals import deal_order


def test_tommy_tips_player_is_reproducible_and_plays_whole_deals():
    a = [B.play_tommy(deal_order(i), TOMMY_TIPS, np.random.Generator(np.random.PCG64(i))) for i in range(3)]
    b = [B.play_tommy(deal_order(i), TOMMY_TIPS, np.random.Generator(np.random.PCG64(i))) for i in range(3)]
    assert a == b and all(0 <= up <= 52 for _, up in a)


def test_poker_tips_beat_random_cells():
    rng = lambda i: np.random.Generator(np.random.PCG64(i))  # noqa: E731
    tips = sum(B.play_poker(deal_order(i), POKER_TIPS, rng(i), "american") for i in range(12))
    none = sum(B.play_poker(deal_order(i), (), rng(i), "american") for i in range(12))
    assert tips > none


def test_players_alone_all_and_all_but_one():
    names = [n for n, _ in B.players(TOMMY_TIPS, ablation=True)]
    assert names[0] == "no tip (random)" and "all tips" in names and f"all but {TOMMY_TIPS[0].name}" in names
    assert len(names) == 2 + 2 * len(TOMMY_TIPS)
