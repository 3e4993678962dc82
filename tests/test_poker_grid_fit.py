"""The Poker follower's whole-grid fit: the cells of cards lying on a table, from their positions alone."""

import numpy as np
import pytest

from assistant.live.poker_follower import fit_cells

CARD = np.array([70.0, 100.0])  # a card's width and height in pixels


def lay(cells, tilt_deg: float, gap: float = 1.3, origin=(300.0, 200.0)) -> np.ndarray:
    """Centres of cards in ``cells`` (row, col) of a grid turned by ``tilt_deg``, cells ``gap`` card sizes apart."""
    a = np.deg2rad(tilt_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    steps = np.array([[c * CARD[0] * gap, r * CARD[1] * gap] for r, c in cells])
    return steps @ rot.T + np.array(origin)


def tilts(*degrees):
    return [(np.deg2rad(d), 0.0) for d in degrees]


@pytest.mark.parametrize("tilt", [0.0, -7.0, 12.0, 30.0])
def test_cards_on_a_turned_grid_get_their_cells_counted_from_the_top_left_card(tilt):
    cells = [(3, 0), (4, 3), (0, 4), (1, 2), (2, 2)]
    fit = fit_cells(lay(cells, tilt), CARD, tilts(*range(-44, 45)))
    assert fit is not None
    assert [tuple(map(int, c)) for c in fit[0]] == cells
    assert np.rad2deg(fit[2]) == pytest.approx(tilt, abs=1.0)


def test_a_card_halfway_between_cells_fits_no_grid():
    points = lay([(0, 0), (0, 1), (1, 0), (1, 1)], 0.0)
    points = np.vstack([points, points[0] + 0.5 * (points[3] - points[0])])  # in the middle of the four
    assert fit_cells(points, CARD, tilts(0.0)) is None


def test_cards_spread_wider_than_five_cells_fit_no_grid():
    assert fit_cells(lay([(0, 0), (0, 1), (0, 2), (0, 6)], 0.0), CARD, tilts(0.0)) is None  # neighbours show the pitch


def test_the_usual_gap_settles_what_two_cards_leave_open_and_wider_gaps_are_read_as_such():
    two = lay([(0, 0), (0, 2)], 0.0, gap=1.15)  # 2.3 card widths apart: two cells of 1.15 (not one of 2.3)
    assert [tuple(map(int, c)) for c in fit_cells(two, CARD, tilts(0.0))[0]] == [(0, 0), (0, 2)]
    rows_too = lay([(0, 0), (0, 3), (2, 0)], 0.0, gap=1.4)  # the rows' gap shows the columns' too
    assert [tuple(map(int, c)) for c in fit_cells(rows_too, CARD, tilts(0.0))[0]] == [(0, 0), (0, 3), (2, 0)]
