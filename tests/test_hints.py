"""Hints: the advisors' best moves for the position, legal, reproducible, and blind to the caller's order."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from assistant.games.tommy import TommyState
from assistant.hints import hint_for
from assistant.session import Session

PATIENCE = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")


def seeded(game, seed, steps, variant=None):
    """A session where the app called ``steps`` cards of seed ``seed`` and the advisor's moves were played."""
    s = Session.new(game, variant, seed)
    for _ in range(steps):
        s.turn()
        hint = hint_for(s, budget_ms=20)
        for move in hint.options[0].moves:
            s.play(move)
    s.turn()
    return s


def test_every_tommy_option_is_a_legal_sequence_of_moves():
    s = seeded("tommy", 5, 10)
    hint = hint_for(s, budget_ms=30)
    assert hint.options
    for option in hint.options:
        probe = s.state.clone()
        for move in option.moves:
            probe.apply(move)  # raises if illegal
        assert not probe.hand


def test_every_poker_option_is_a_free_cell():
    s = seeded("poker", 5, 6)
    hint = hint_for(s, budget_ms=30)
    free = {str(p) for p in s.state.legal_cells()}
    assert {o.move for o in hint.options} == free


def test_the_same_position_gets_the_same_hint():
    a, b = seeded("tommy", 9, 6), seeded("tommy", 9, 6)
    assert hint_for(a, budget_ms=30) == hint_for(b, budget_ms=30)


def test_the_hint_does_not_peek_at_the_callers_order():
    """The advisor knows the unseen cards as a set (as the player does), never the seeded order."""
    called = seeded("tommy", 11, 8)
    typed = Session.new("tommy")  # the same game, cards typed by the player: the engine knows no order
    typed.state = TommyState.from_dict({**called.state.to_dict(), "order": None})
    assert hint_for(typed, budget_ms=30) == hint_for(called, budget_ms=30)


def buried(piles: list[str]) -> Session:
    """Sir Tommy with every card turned and laid on the waste piles as given (each pile bottom to top), nothing
    played up: the stock is used up and the end game is all that is left."""
    s = Session.new("tommy")
    for i, pile in enumerate(piles):
        for card in pile.split():
            s.turn(card)
            s.play(f"S>W{i}")
    assert not s.needs_card() and not s.state.hand and not s.is_over
    return s


SUITS_DOWN = [" ".join(f"{r}{suit}" for r in "KQJT98765432A") for suit in "shdc"]  # each pile K at the bottom, A on top


def test_with_the_stock_used_up_the_end_game_is_solved():
    """Every remaining card is known once the stock is out: the hint is the solver's winning line, and it wins.
    (Before, the test's game was already over, so the end-game hint never ran.)"""
    s = buried(SUITS_DOWN)
    hint = hint_for(s)
    assert hint.headline == "The rest is won" and len(hint.options[0].moves) == 52
    for move in hint.options[0].moves:
        s.play(move)
    assert s.state.is_won()


def test_with_the_last_card_turned_choices_that_do_exactly_as_well_are_one_option():
    """Every card known, the last one turned: the A♠ goes up and everything follows. The advisor's 48 end
    positions (the same plays, stopped after 0 to 47 of them) all win: one option, the rest said in a line, not
    48 walls of the same moves."""
    s = Session.new("tommy")
    piles = [p.split() for p in SUITS_DOWN]
    last = piles[0].pop()  # the A♠, on top of the spades
    for i, pile in enumerate(piles):
        for card in pile:
            s.turn(card)
            s.play(f"S>W{i}")
    s.turn(last)
    hint = hint_for(s)
    assert len(hint.options) == 1 and hint.options[0].values == ("52.0", "100%", "exact")
    assert len(hint.options[0].moves) == 52 and "47 other choices do exactly as well" in hint.note


def test_a_lost_end_game_plays_up_what_fits():
    """Three Aces lie under twos and every three at the bottom of a pile: after A♠ and 2♣ go up (foundations take
    any suit) no top fits anywhere, and no order of plays helps."""
    fours_up = "KQJT987654"
    piles = ["Ah Ad Ac 2h 2d 2c As",
             "3s 3h 3d 3c " + " ".join(f"{r}s" for r in fours_up) + " 2s",
             " ".join(f"{r}h" for r in fours_up),
             " ".join(f"{r}d" for r in fours_up) + " " + " ".join(f"{r}c" for r in fours_up)]
    s = buried(piles)
    hint = hint_for(s)
    assert hint.headline == "Play up what fits" and [str(m) for m in hint.options[0].moves] == ["W0>F0"] * 2
    assert hint.note == "no winning line is left"


def test_the_demo_plays_both_games_to_the_end():
    env = {**os.environ, "COLUMNS": "100"}
    out = subprocess.run([PATIENCE, "demo", "--delay", "0", "--budget-ms", "20"], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "Sir Tommy (standard):" in out.stdout and "of 52 cards on the foundations" in out.stdout
    assert "Poker Patience (american scoring, win at 200):" in out.stdout and "points" in out.stdout
    # both videos are followed to the result they show (the camera pipeline, not the advisors, decides this)
    assert out.stdout.count("as in the video") == 2, out.stdout[-2000:]


def test_the_same_poker_position_gets_the_same_hint_even_on_a_busy_machine(monkeypatch):
    """The live hint is a fixed amount of work, not a wall-clock budget: a machine ten times slower (a clock that
    runs fast) gives the identical hint, sample counts included."""
    import itertools
    import time

    a = seeded("poker", 5, 6)
    quiet = hint_for(a, budget_ms=60)
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.05)  # 50 ms pass between two looks
    monkeypatch.setattr(time, "process_time", lambda: next(ticks) * 0.05)
    busy = hint_for(seeded("poker", 5, 6), budget_ms=60)
    assert busy == quiet
    assert len(quiet.options) > 1


def test_the_poker_shuffle_arrangement_is_a_fixed_amount_of_work_too(monkeypatch):
    import itertools
    import time

    def open_25():
        s = Session.new("poker", "american-shuffle", 4)
        while s.needs_card():
            s.turn()
        return s

    quiet = hint_for(open_25(), budget_ms=400)
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.05)
    assert hint_for(open_25(), budget_ms=400) == quiet


def test_options_carry_moves_as_values_and_a_text_to_read():
    from assistant.games.poker import Placement
    from assistant.games.tommy import Move

    tommy = hint_for(seeded("tommy", 5, 4), budget_ms=20)
    assert all(isinstance(m, Move) for o in tommy.options for m in o.moves)
    assert tommy.options[0].text == " ".join(str(m) for m in tommy.options[0].moves)
    assert tommy.options[0].win_prob is not None and tommy.options[0].expected_foundation is not None
    poker = hint_for(seeded("poker", 5, 4), budget_ms=20)
    assert all(isinstance(o.moves[0], Placement) and o.expected is not None for o in poker.options)


def test_four_at_a_time_is_hinted_once_all_four_are_turned_with_each_card_named():
    """Four at a time: all four are placed before anything is played up, so the hint places the whole batch (none
    while it is half turned); S0 means whichever card is first in hand at that moment, so each move names its card."""
    s = Session.new("tommy", "four-at-a-time", 3)
    s.turn()
    assert len(s.state.hand) == 1 and hint_for(s, budget_ms=20) is None  # three more to turn
    for _ in range(3):
        s.turn()
    hint = hint_for(s, budget_ms=20)
    hand = [str(c) for c in s.state.hand]
    assert all(c.pretty in hint.headline for c in s.state.hand)
    for option in hint.options:
        probe = s.state.clone()
        named = []
        for move in option.moves:
            if move.source == "S":
                named.append(f"{probe.hand[move.source_index]}>{str(move).split('>')[1]}")
            probe.apply(move)  # raises if illegal
        assert not probe.hand
        assert sorted(n.split(">")[0] for n in named) == sorted(hand)
        assert [w for w in option.text.split() if w[0] not in "WF"] == named
