"""The coach's notes with a hint, and the cost of a move that differs from it."""

from __future__ import annotations

from types import SimpleNamespace

from assistant.cards import Card
from assistant.coach.coach import coach_notes, move_cost, option_value
from assistant.games.poker import Placement, PokerRules, PokerState
from assistant.games.tommy import Move, TommyState
from assistant.session import Session


def tommy_session(foundations: str, waste: str, card: str) -> Session:
    state = TommyState.from_layout("standard", foundations, waste)
    state.turn(card)
    return Session("tommy", state, "standard")


def tommy_hint(*options):
    """Options as the hints carry them: moves (Move values) and the advisor's numbers."""
    return SimpleNamespace(columns=("cards up", "win chance", "95% range"), options=tuple(
        SimpleNamespace(moves=tuple(Move.parse(m) for m in moves.split()), values=(f"{cards:.1f}", f"{100 * win:.1f}%", ""),
                        win_prob=win, expected_foundation=cards, expected=None)
        for moves, win, cards in options))


def test_notes_name_the_tip_followed_and_the_one_the_alternative_breaks():
    """6♣ on the 9♦ follows "put a card on a higher card rather than a lower one"; on the 3♠ it would break it."""
    s = tommy_session("- | - | - | -", "9d | 3s | - | -", "6c")
    hint = tommy_hint(("S>W0", 0.12, 30.0), ("S>W1", 0.05, 27.0), ("S>W2", 0.04, 26.5))
    notes = coach_notes(s, hint, "en")
    assert any("follows" in n and "higher card rather than a lower" in n and "9♦" in n for n in notes)
    assert any(n.startswith("6♣ on waste pile 1 (S>W1) would break") and "3♠" in n for n in notes)
    assert 1 <= len(notes) <= 3


def test_where_the_advice_breaks_a_tip_the_numbers_say_why():
    s = tommy_session("- | - | - | -", "9d | 3s | - | -", "6c")
    hint = tommy_hint(("S>W1", 0.15, 31.0), ("S>W0", 0.12, 30.0))
    notes = coach_notes(s, hint, "de")
    breaking = [n for n in notes if "verstößt" in n and "trotzdem besser" in n]
    assert breaking and "15,0\u00a0%" in breaking[0] and "12,0\u00a0%" in breaking[0]


def test_notes_in_each_language_use_its_terms():
    s = tommy_session("- | - | - | -", "9d | 3s | - | -", "6c")
    hint = tommy_hint(("S>W0", 0.12, 30.0), ("S>W1", 0.05, 27.0))
    assert any("aflegstapel" in n for n in coach_notes(s, hint, "nl"))
    assert any("pila degli scarti" in n for n in coach_notes(s, hint, "it"))


def test_move_cost_in_win_chance_and_cards():
    s = tommy_session("- | - | - | -", "9d | 3s | - | -", "6c")
    hint = tommy_hint(("S>W0", 0.12, 30.0), ("S>W1", 0.05, 27.0))
    text = move_cost(s, hint, "S>W1", "en")
    assert "7.0 percentage points" in text and "5.0\u00a0%" in text and "12.0\u00a0%" in text and "3.0 cards" in text
    assert move_cost(s, hint, "S>W0", "en") is None  # the hint's own move costs nothing
    assert move_cost(s, hint, Move.parse("S>W1"), "nl").startswith("6♣ op aflegstapel 1")


def test_hints_with_texts_only_are_read_by_their_columns():
    """Hints that carry only display texts (older hints): the numbers are read from the columns."""
    option = SimpleNamespace(moves=("S>W0",), values=("12.5%", "9-16%", "30.1"))
    hint = SimpleNamespace(columns=("win chance", "95%", "cards up"), options=(option,))
    v = option_value(hint, option)
    assert abs(v.win - 0.125) < 1e-9 and v.cards == 30.1


def test_poker_notes_and_cost():
    cells = [None] * 25
    cells[0], cells[5] = Card.parse("2h"), Card.parse("7h")
    state = PokerState.from_grid(cells, PokerRules("american"))
    state.turn("9h")
    s = Session("poker", state, "american")
    hint = SimpleNamespace(columns=("expected score", "± 95%"), options=(
        SimpleNamespace(moves=(Placement(2, 0),), values=("120.0", "±3"), expected=120.0, win_prob=None,
                        expected_foundation=None),
        SimpleNamespace(moves=(Placement(2, 1),), values=("100.5", "±3"), expected=100.5, win_prob=None,
                        expected_foundation=None)))
    notes = coach_notes(s, hint, "de")
    assert any("Halte eine oder zwei Spalten für Flushs frei" in n and "Spalte 1" in n for n in notes)
    assert move_cost(s, hint, "r3c2", "en") == "9♥ to r3c2 instead of 9♥ to r3c1 cost 19.5 expected points (100.5 instead of 120.0)."
    assert move_cost(s, hint, "r3c1", "en") is None


def test_no_notes_without_a_placement_to_explain():
    state = TommyState.from_layout("standard", "- | - | - | -", "9d | - | - | -")
    assert coach_notes(Session("tommy", state, "standard"), None, "en") == []


def test_what_a_tip_is_worth_comes_from_the_benchmark(monkeypatch):
    from assistant.coach import coach
    from assistant.coach.tips_poker import BY_NAME

    values = {"poker_english": {"deals": 500, "none": 8.0, "all": 33.7,
                                "tips": {"poker.flush-columns": {"alone": 22.5, "without": 29.5}}}}
    monkeypatch.setattr(coach, "_tip_values", lambda: values)
    text = coach.tip_value_text("en", BY_NAME["poker.flush-columns"], "english")
    assert text == ("Measured on 500 deals: this tip alone scores 22.5 points on average; all the tips together 33.7, "
                    "without this one 29.5.")
    assert coach.tip_value_text("en", BY_NAME["poker.bin"], "english") == ""  # not measured
