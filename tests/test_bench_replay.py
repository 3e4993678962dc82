"""`patience bench replay`: a benchmark log is only evidence if every game in it replays legally in the engines
with the recorded result."""

from __future__ import annotations

import json
import subprocess

import pytest

from assistant.benchmarks.replay import check_poker, check_tommy
from assistant.deals import deal_order
from assistant.games.poker import PokerRules
from assistant.games.tommy import TommyState
from assistant.games.tommy_rules import TommyRules
from tests.test_cli_score import patience


def tommy_record(seed: int = 3) -> dict:
    """A whole legal game of standard Sir Tommy: always the first legal move, turning a card when the hand is empty."""
    deck = deal_order(seed)
    state = TommyState(TommyRules.preset("standard"), order=deck)
    moves = []
    while not state.is_terminal():
        if state.needs_card():
            state.turn_next()
            continue
        move = state.legal_moves()[0]
        state.apply(move)
        moves.append(str(move))
    return {"deck": [str(c) for c in deck], "moves": moves, "won": state.is_won(),
            "foundation_cards": state.foundation_cards()}


def poker_record(scoring: str = "american") -> dict:
    """25 cards placed row by row, with the score of that grid."""
    from assistant.games.poker import PokerState

    deck = [str(c) for c in deal_order(5)[:25]]
    state = PokerState(PokerRules.preset(scoring))
    cells = [[i // 5, i % 5] for i in range(25)]
    for card, cell in zip(deck, cells):
        state.turn(card)
        state.place(tuple(cell))
    return {"deck": deck, "placements": cells, "score": state.score().total}


def test_a_legal_sir_tommy_game_with_its_true_result_passes():
    assert check_tommy(tommy_record(), "standard") is None


def test_an_illegal_move_a_wrong_result_or_an_unfinished_game_fails():
    rec = tommy_record()
    first_up = next(i for i, m in enumerate(rec["moves"]) if m.startswith("S>W"))
    illegal = dict(rec, moves=rec["moves"][:first_up] + ["W2>F0"] + rec["moves"][first_up:])
    assert check_tommy(illegal, "standard") is not None
    assert "foundation cards, replayed" in check_tommy(dict(rec, foundation_cards=rec["foundation_cards"] + 1), "standard")
    assert "won" in check_tommy(dict(rec, won=not rec["won"]), "standard")
    assert "not over" in check_tommy(dict(rec, moves=rec["moves"][:-5]), "standard")


def test_poker_placements_must_be_legal_and_score_as_recorded_under_the_given_rules():
    rec = poker_record("american")
    assert check_poker(rec, PokerRules.preset("american")) == (None, rec["score"])
    problem, _ = check_poker(rec, PokerRules.preset("english"))
    assert problem is not None and "recorded score" in problem
    twice = dict(rec, placements=[rec["placements"][0]] * 25)
    assert "taken" in check_poker(twice, PokerRules.preset("american"))[0]


def test_only_next_to_a_card_rejects_a_jump():
    rec = poker_record("american")
    jump = dict(rec, placements=[[0, 0], [4, 4]] + rec["placements"][1:24])
    assert "next to" in check_poker(jump, PokerRules.preset("american-adjacent"))[0]


@pytest.mark.parametrize("tamper", [False, True])
def test_the_command_reports_the_figures_and_fails_on_a_bad_line(tmp_path, tamper):
    games = [tommy_record(s) for s in (1, 2, 3)]
    if tamper:
        games[1]["foundation_cards"] += 1
    log = tmp_path / "tommy.jsonl"
    log.write_text("".join(json.dumps(g) + "\n" for g in games))
    out = subprocess.run([patience(), "bench", "replay", str(log), "--json"],
                         capture_output=True, text=True)
    summary = json.loads(out.stdout)
    assert summary["games"] == 3
    if tamper:
        assert out.returncode == 1 and summary["failed"] == 1 and summary["failures"][0].startswith(f"{log}:2:")
    else:
        assert out.returncode == 0 and summary["sir_tommy"]["wins"] == sum(g["won"] for g in games)


def test_a_log_that_is_not_json_is_a_one_line_error(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text("{not json\n")
    out = subprocess.run([patience(), "bench", "replay", str(log)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and f"{log}:1: not JSON" in out.stderr
