"""Poker Patience's tips (rule 004) as checks on a placement; grids written row by row as a player sees them."""

from __future__ import annotations

from assistant.cards import Card
from assistant.coach import tips_poker as T
from assistant.games.poker import PokerRules, PokerState


def position(rows: str, card: str, scoring: str = "american") -> PokerState:
    """Five rows separated by '/', cells by spaces, '--' empty; then ``card`` turned."""
    cells = [None if t == "--" else Card.parse(t) for row in rows.split("/") for t in row.split()]
    assert len(cells) == 25
    state = PokerState.from_grid(cells, PokerRules(scoring))
    state.turn(card)
    return state


def verdict(tip_name: str, state: PokerState, cell: str):
    for v in T.judge_placement(state, cell):
        if v.tip.name == tip_name:
            return v.follows
    return None


EMPTY = "-- -- -- -- --"


def test_flush_columns():
    """004: "Halte eine oder zwei Spalten für Flushs frei: Dort sammelst du eine Farbe"."""
    grid = f"2h -- -- -- -- / 7h -- -- -- -- / {EMPTY} / {EMPTY} / {EMPTY}"
    assert verdict("poker.flush-columns", position(grid, "9h"), "r3c1") is True
    assert verdict("poker.flush-columns", position(grid, "9s"), "r3c1") is False
    assert verdict("poker.flush-columns", position(grid, "9s"), "r3c2") is None


def test_pairs_rows():
    """004: "in den Reihen dann Paare und Full Houses"; "gleiche Werte in einer Reihe sammeln"."""
    grid = f"9c Kd -- -- -- / 4s -- -- -- -- / {EMPTY} / {EMPTY} / {EMPTY}"
    assert verdict("poker.pairs-rows", position(grid, "9h"), "r1c3") is True
    assert verdict("poker.pairs-rows", position(grid, "9h"), "r2c2") is False  # a row with a Nine has room


def test_plan_rare():
    """004: "Paare und Drillinge kommen von selbst; plane lieber die selteneren Hände." A Queen that pairs in
    row 3 but ends the hearts of column 1 breaks it; the same pair kept next to the flush follows it."""
    grid = f"2h -- -- -- -- / 7h -- -- -- -- / -- Qc -- -- -- / {EMPTY} / {EMPTY}"
    assert verdict("poker.plan-rare", position(grid, "Qs"), "r3c1") is False
    assert verdict("poker.plan-rare", position(grid, "Qh"), "r3c1") is True


def test_straights_only_with_english_scoring():
    """004: "Bei englischer Wertung sind Straßen viel wert – versuch es aber nur, wenn die Werte nah
    beieinanderliegen." """
    grid = f"5c 6d -- -- -- / {EMPTY} / {EMPTY} / {EMPTY} / {EMPTY}"
    assert verdict("poker.straights", position(grid, "7h", "english"), "r1c3") is True
    assert verdict("poker.straights", position(grid, "Kh", "english"), "r1c3") is False
    assert T.straights(position(grid, "7h", "american"), T.Placement(0, 2)) is None


def test_bin():
    """004: "Füll nicht zu früh eine Reihe ganz auf: Freie Plätze sind dein „Mülleimer“ für Karten, die nirgends
    passen." """
    full_soon = f"2c 5d 9h Js -- / {EMPTY} / {EMPTY} / {EMPTY} / {EMPTY}"
    assert verdict("poker.bin", position(full_soon, "Kd"), "r1c5") is False  # 20 cells still free
    mixed = f"2c 3d -- -- -- / 9d 4s -- -- -- / {EMPTY} / {EMPTY} / {EMPTY}"
    assert T.bin_cells(position(mixed, "Kh"), T.Placement(2, 0)).follows  # the King fits nowhere: column 1 mixes suits


def test_every_tip_has_an_id_and_comes_from_004():
    assert [t.id for t in T.TIPS] == ["flush-columns", "pairs-rows", "straights", "bin", "plan-rare"]
    assert all(t.sources == ("004",) for t in T.TIPS)
