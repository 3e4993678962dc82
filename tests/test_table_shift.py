"""The table or the camera nudged as a whole: one turn, scale and shift for every card, or none."""

import numpy as np

from assistant.live.table_shift import fit_shift

SIZE = 140.0  # a card's long side in pixels
PLACES = np.array([[300.0, 100.0], [430.0, 100.0], [560.0, 100.0], [300.0, 300.0], [430.0, 330.0]])


def nudged(points, angle_deg=0.0, scale=1.0, offset=(0.0, 0.0)):
    a = np.deg2rad(angle_deg)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return scale * points @ turn.T + np.asarray(offset)


def test_a_table_shifted_turned_and_zoomed_as_a_whole_is_one_transform():
    after = nudged(PLACES, angle_deg=6.0, scale=1.1, offset=(40.0, -25.0))
    shift = fit_shift(PLACES, after, SIZE)
    assert shift is not None
    assert np.allclose([shift.point(p) for p in PLACES], after)
    assert np.isclose(np.rad2deg(shift.angle), 6.0) and np.isclose(shift.scale, 1.1)
    assert np.allclose(shift.direction([0.0, 1.0]), nudged(np.array([[0.0, 1.0]]), angle_deg=6.0)[0])


def test_a_card_moved_in_the_same_view_as_the_nudge_does_not_hide_it():
    after = PLACES + [90.0, 0.0]
    after[2] += [0.0, 200.0]  # a waste top played up while the camera moved
    shift = fit_shift(PLACES, after, SIZE)
    assert shift is not None and np.allclose(shift.offset, [90.0, 0.0])


def test_cards_moved_one_by_one_are_no_shift():
    after = PLACES.copy()
    after[0] += [0.0, 200.0]
    after[3] += [130.0, 0.0]
    assert fit_shift(PLACES, after, SIZE) is None


def test_one_card_moved_far_from_two_that_stayed_is_no_turn_about_them():
    """A card moved from the row beside the stock to a foundation, two waste tops still: a turn and a zoom about
    the two could carry the third there, but only one card moved."""
    before = np.array([[703.0, 911.0], [553.0, 1.0], [582.0, -113.0]])
    after = np.array([[553.0, 762.0], [553.0, 1.0], [582.0, -113.0]])
    assert fit_shift(before, after, SIZE) is None


def test_a_nudge_smaller_than_the_drift_the_followers_follow_themselves_is_no_shift():
    assert fit_shift(PLACES, PLACES + [10.0, 5.0], SIZE) is None


def test_fewer_than_three_cards_or_cards_in_one_place_show_no_turn():
    assert fit_shift(PLACES[:2], PLACES[:2] + [90.0, 0.0], SIZE) is None
    one_pile = np.array([[300.0, 100.0], [300.0, 130.0], [300.0, 160.0]])
    assert fit_shift(one_pile, one_pile + [90.0, 0.0], SIZE) is None


def test_a_mirror_a_big_zoom_or_a_big_turn_is_not_a_nudge():
    mirrored = PLACES * [-1.0, 1.0] + [1000.0, 0.0]
    assert fit_shift(PLACES, mirrored, SIZE) is None
    assert fit_shift(PLACES, nudged(PLACES, scale=1.5), SIZE) is None
    assert fit_shift(PLACES, nudged(PLACES, angle_deg=45.0), SIZE) is None
