"""The intervals every benchmark and the Sir Tommy advisor report."""

import pytest

from assistant.stats import mean_interval, wilson_interval


def test_wilson_interval_matches_the_textbook_value():
    low, high = wilson_interval(65, 100)
    assert low == pytest.approx(0.5525, abs=1e-4) and high == pytest.approx(0.7364, abs=1e-4)


def test_wilson_interval_stays_inside_zero_and_one_at_the_edges():
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert 0 < wilson_interval(0, 10)[1] < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_is_centred_and_narrows_with_more_games():
    mean, low, high = mean_interval([1, 2, 3, 4])
    assert mean == 2.5 and low == pytest.approx(2.5 - 1.96 * 1.2910 / 2, abs=1e-3) and high - mean == pytest.approx(mean - low)
    assert mean_interval([1, 2, 3, 4] * 25)[2] - 2.5 < high - 2.5
