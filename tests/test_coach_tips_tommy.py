"""Sir Tommy's tips (rules 000-003) as checks: positions written out as a player sees them, the rule quoted."""

from __future__ import annotations

import pytest

from assistant.coach import tips_tommy as T
from assistant.games.tommy import TommyState


def position(foundations: str, waste: str, card: str) -> TommyState:
    """Foundations and waste piles bottom first ("Ah 2h | - | - | -"), then ``card`` turned."""
    state = TommyState.from_layout("standard", foundations, waste)
    state.turn(card)
    return state


def verdict(tip_name: str, state: TommyState, moves: str):
    """The tip's verdict where the player had a choice: True follows, False breaks, None says nothing."""
    for v in T.judge_decision(state, moves):
        if v.tip.name == tip_name:
            return v.follows
    return None


def test_high_pile():
    """000/001: "Keep one waste pile for Kings and other high cards, so they don't bury the low cards you need
    soon." (002/003: "Reserve one waste pile for high cards (Jacks, Queens, Kings)")"""
    s = position("Ah 2h | - | - | -", "Kc Qd | 7s | 9d 4c | -", "Jh")
    assert verdict("tommy.high-pile", s, "S>W0") is True  # on the pile of high cards
    assert verdict("tommy.high-pile", s, "S>W1") is False  # covers the 7
    assert T.high_pile(s, T.as_moves("S>W3")) is None  # a second pile for high cards: "one" pile
    fresh = position("- | - | - | -", "9d | 7s | - | -", "Kh")
    assert verdict("tommy.high-pile", fresh, "S>W2") is True  # no pile kept yet: an empty one starts it
    low = position("Ah 2h | - | - | -", "Kc Qd | 7s | 9d 4c | -", "6c")
    assert verdict("tommy.high-pile", low, "S>W0") is False  # a low card spoils the pile kept for high cards
    assert verdict("tommy.high-pile", low, "S>W3") is True


def test_higher_not_lower():
    """000/001: "If you can, put a card on a higher card rather than a lower one: then the piles come off in the
    right order." """
    s = position("- | - | - | -", "9d | 3s | - | -", "6c")
    assert verdict("tommy.higher-not-lower", s, "S>W0") is True
    assert verdict("tommy.higher-not-lower", s, "S>W1") is False
    only_lower = position("- | - | - | -", "3d | 3s | 2c | 4h", "6c")
    assert verdict("tommy.higher-not-lower", only_lower, "S>W0") is None  # no higher card to choose: not broken


def test_same_rank():
    """000/001: "Try not to put two cards of the same rank on one pile"."""
    s = position("- | - | - | -", "9d 6h | 8s | - | -", "6c")
    assert verdict("tommy.same-rank", s, "S>W0") is False
    assert verdict("tommy.same-rank", s, "S>W1") is True


def test_bury_all_four():
    """000/001: "above all don't bury all four cards of one rank under higher cards – that blocks every
    foundation." Three Sevens are buried; covering the last free one buries all four."""
    s = position("Ah 2h 3h | As 2s 3s | Ac 2c | -", "7h 9h | 7s Js | 7c Qc | 7d", "8c")
    assert verdict("tommy.bury-all-four", s, "S>W3") is False
    assert verdict("tommy.bury-all-four", s, "S>W0") is True
    assert T.bury_all_four(s, T.as_moves("S>W3")).fields["rank"].rank == 7


def test_spread_low():
    """002/003: "Spread low cards (Twos, Threes, Fours) over several waste piles"."""
    s = position("- | - | - | -", "9d 3h | 8s | - | -", "4c")
    assert verdict("tommy.spread-low", s, "S>W0") is False
    assert verdict("tommy.spread-low", s, "S>W1") is True
    assert T.spread_low(position("- | - | - | -", "9d 3h | 8s | - | -", "5c"), T.as_moves("S>W0")) is None


def test_play_up_at_once():
    """002/003: "Play to the foundations as soon as a card fits. There is almost never a reason to delay a
    foundation move." """
    s = position("Ah 2h | - | - | -", "9d 4s | - | - | -", "3c")
    assert verdict("tommy.play-up", s, "S>F0 W0>F0") is True
    assert verdict("tommy.play-up", s, "S>W1") is False  # the 3 fits but stays on a waste pile
    assert verdict("tommy.play-up", s, "S>F0") is False  # the 4 on waste pile 0 then fits and stays


def test_watch_seen():
    """002/003: "Watch which cards have already appeared." The Threes: two are up, the 3♦ lies buried, so the
    3♥ is the last free one; three Fours are still to come."""
    s = position("Ah 2h 3s | As 2s 3c | Ac 2c | -", "9d 3h | 3d Ks | 4d | -", "5c")
    assert verdict("tommy.watch-seen", s, "S>W0") is False
    assert verdict("tommy.watch-seen", s, "S>W2") is True
    assert T.watch_seen(s, T.as_moves("S>W2")).fields["n"] == 3
    assert T.watch_seen(s, T.as_moves("S>W1")).follows  # on the King: nothing lower is covered


def test_two_under_three():
    """002/003: "Never bury a 2 under a 3 in the same waste pile until both Aces are already on the foundations;
    otherwise the 2 gets locked in." """
    s = position("- | - | - | -", "9d 2c | 8s | - | -", "3d")
    assert verdict("tommy.two-under-three", s, "S>W0") is False
    assert verdict("tommy.two-under-three", s, "S>W1") is True
    two_aces = position("Ah | As | - | -", "9d 2c 5h | 8s | - | -", "3d")
    assert T.two_under_three(two_aces, T.as_moves("S>W0")) is None


def test_same_or_one_higher():
    """002/003: "prefer the pile that already has a card of the same rank or one rank higher on top"."""
    s = position("- | - | - | -", "7h | 9s | Kd | -", "6c")
    assert verdict("tommy.same-or-one-higher", s, "S>W0") is True
    assert verdict("tommy.same-or-one-higher", s, "S>W2") is None  # a preference: other piles do not break it


def test_every_tip_has_an_id_sources_and_a_check():
    names = [t.name for t in T.TIPS]
    assert len(set(names)) == len(names) == 9
    assert all(t.sources and set(t.sources) <= {"000", "001", "002", "003"} for t in T.TIPS)


def test_alternatives_are_the_placements_then_every_play_up():
    s = position("Ah 2h | - | - | -", "9d 4s | - | - | -", "3c")
    alts = {" ".join(map(str, a)) for a in T.alternatives(s)}
    assert "S>F0 W0>F0" in alts
    assert "S>W1 W1>F0 W0>F0" in alts  # the 3 put on a waste pile goes up from there: the same end
    assert T.play_up_at_once(s, T.as_moves("S>W1 W1>F0 W0>F0")).follows


def test_a_decision_needs_one_turned_card():
    state = TommyState.from_layout("standard", "- | - | - | -", "9d | - | - | -")
    with pytest.raises(ValueError):
        T.judge_decision(state, "S>W0")
