"""One deck in a photo: the suit odds are shifted only where the photo's own cards make the case."""

import numpy as np
import pytest

from vision.card_names import CARD_NAMES
from vision.deck_suits import apply_shifts, balance_suits, fit_shift, shift_notes

NAMES = list(CARD_NAMES) + [""]  # the classifier's columns: 52 cards, then "none"


def corners(reads: list[tuple[str, float, float]]) -> np.ndarray:
    """One row per corner: (rank, log odds clubs against spades, probability of "none")."""
    p = np.full((len(reads), len(NAMES)), 1e-6)
    for i, (rank, r, none) in enumerate(reads):
        club, spade = 1 / (1 + np.exp(-r)), 1 / (1 + np.exp(r))
        p[i, NAMES.index(rank + "c")] = club * (1 - none)
        p[i, NAMES.index(rank + "s")] = spade * (1 - none)
        p[i, -1] = none
    return p / p.sum(axis=1, keepdims=True)


def read(p: np.ndarray) -> list[str]:
    return [NAMES[k] for k in p.argmax(axis=1)]


def test_a_design_whose_clubs_all_read_as_spades_gets_its_clubs_back():
    # 6 clubs and 6 spades, two corners each; the classifier calls every one a spade, its clubs less surely
    clubs = [(r, -3.0 + 0.3 * k, 0.0) for k, r in enumerate("A 3 5 7 9 J".split()) for _ in range(2)]
    spades = [(r, -11.0 + 0.3 * k, 0.0) for k, r in enumerate("2 4 6 8 10 Q".split()) for _ in range(2)]
    p, shifts = balance_suits(corners(clubs + spades), NAMES)
    assert set(shifts) == {"cs"} and shifts["cs"] > 3
    assert read(p) == [r + "c" for r, _, _ in clubs] + [r + "s" for r, _, _ in spades]


def test_a_photo_read_with_both_suits_is_left_as_it_is():
    reads = [(r, 8.0, 0.0) for r in "A A 3 3 5 5".split()] + [(r, -8.0, 0.0) for r in "2 2 4 4 6 6 8 8".split()]
    p0 = corners(reads)
    p, shifts = balance_suits(p0, NAMES)
    assert shifts == {}
    assert np.allclose(p, p0, atol=1e-6)


def test_a_hand_of_sure_spades_stays_spades():
    # a photo may hold only spades: odds that are all sure and alike make no case for clubs
    reads = [(r, -10.0 + 0.1 * k, 0.0) for k, r in enumerate("A A 2 2 3 3 4 4 5 5".split())]
    p, shifts = balance_suits(corners(reads), NAMES)
    assert shifts == {}
    assert all(n.endswith("s") for n in read(p))


def test_too_few_corners_say_nothing_about_the_deck():
    assert fit_shift(np.array([-3.0, -3.5, -11.0, -12.0])) == 0.0


def test_none_answers_stay_none_and_keep_their_probability():
    clubs = [(r, -3.0, 0.0) for r in "A A 3 3 5 5 7 7".split()]
    spades = [(r, -11.0, 0.0) for r in "2 2 4 4 6 6 8 8".split()]
    clutter = [("K", -3.0, 0.9)]  # a corner the classifier calls "not an index"
    p0 = corners(clubs + spades + clutter)
    p, shifts = balance_suits(p0, NAMES)
    assert shifts and read(p)[-1] == ""
    assert p[-1, -1] == pytest.approx(p0[-1, -1], rel=1e-5)


def test_more_corners_of_the_same_photo_take_the_same_shift():
    p0 = corners([("9", -3.0, 0.0), ("9", -12.0, 0.0)])
    p = apply_shifts(p0, NAMES, {"cs": 6.0})
    assert read(p) == ["9c", "9s"]
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(apply_shifts(p0, NAMES, {}), p0, atol=1e-6)


def test_the_photo_reader_says_when_it_moved_the_odds():
    (note,) = shift_notes({"cs": 5.0})
    assert note.startswith("clubs against spades: odds moved 148 to 1 towards clubs")
    assert shift_notes({}) == []
