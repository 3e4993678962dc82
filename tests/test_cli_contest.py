"""``patience contest`` through the real console script: the app calls a seeded shuffle for every player, each
action is saved in contest.json, ``--resume`` continues, the end is a ranking (``--json``: one object on stdout).

004: "Einer mischt und sagt jede aufgedeckte Karte an; die anderen suchen dieselbe Karte aus ihrem Blatt und legen
sie in ihr eigenes Quadrat. Die höchste Summe gewinnt."
"""

import json
import os
import re
import shutil
import sys
from pathlib import Path

import subprocess

from assistant.deals import deal_order

PATIENCE = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")
ROW_MAJOR = [f"r{r}c{c}" for r in range(1, 6) for c in range(1, 6)]


def run(args, stdin="", home=None):
    env = {**os.environ, "PATIENCE_LENS_HOME": str(home), "COLUMNS": "120"}
    return subprocess.run([PATIENCE, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120)


def saved(home):
    data = json.loads((Path(home) / "contest.json").read_text())
    assert data["meta"] == {"kind": "contest"}
    return data["state"]


def history(home, player):
    return saved(home)["players"][player]["state"]["history"]


def test_a_poker_contest_to_the_end_ranks_the_players(tmp_path):
    """Ann and Bob fill their squares in different orders; --json prints only the result on stdout."""
    moves = "".join(f"{a}\n{b}\n\n" for a, b in zip(ROW_MAJOR, ROW_MAJOR[::-1]))  # Enter: the next card
    out = run(["contest", "poker", "--players", "Ann,Bob", "--seed", "4", "--no-hints", "--json"], moves, tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["complete"] and result["seed"] == 4 and result["game"] == "poker"
    assert result["called"] == [str(c) for c in deal_order(4)[:25]]
    scores = [s["score"] for s in result["standings"]]
    assert scores == sorted(scores, reverse=True) and {s["name"] for s in result["standings"]} == {"Ann", "Bob"}
    assert result["winners"] == [s["name"] for s in result["standings"] if s["place"] == 1]
    assert "Result" in out.stderr and "win" in out.stderr
    assert not (tmp_path / "last-game.json").exists()  # a contest never overwrites the single game


def test_sir_tommy_to_the_end_through_the_console(tmp_path):
    """Both players bury every card on waste pile 0 and end each turn: the same play on the same shuffle ties."""
    out = run(["contest", "tommy", "--players", "Ann,Bob", "--seed", "3", "--no-hints", "--json"], "w0\n\n" * 110,
              tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["complete"] and len(result["called"]) == 52
    assert [s["place"] for s in result["standings"]] == [1, 1] and result["winners"] == ["Ann", "Bob"]
    assert "A tie" in out.stderr


def test_every_action_is_saved_and_resume_continues(tmp_path):
    first, second = (str(c) for c in deal_order(7)[:2])
    out = run(["contest", "tommy", "--players", "Ann,Bob", "--seed", "7", "--no-hints"], "w0\n\nw1\n", tmp_path)
    assert out.returncode == 0, out.stderr
    # Bob has placed the card but not ended his turn: the next card is not called yet
    assert history(tmp_path, 0) == [first, "S>W0"] and history(tmp_path, 1) == [first, "S>W1"]
    out = run(["contest", "--resume", "--no-hints"], "done\nw2\n\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert history(tmp_path, 0) == [first, "S>W0", second, "S>W2"]
    assert history(tmp_path, 1) == [first, "S>W1", second]
    assert "patience contest --resume" in out.stdout


def test_a_random_seed_is_printed_so_the_deal_can_be_replayed(tmp_path):
    out = run(["contest", "poker", "--players", "Ann,Bob", "--no-hints"], "q\n", tmp_path)
    assert out.returncode == 0, out.stderr
    seed = int(re.search(r"Seed (\d+)", out.stdout).group(1))
    assert f"--seed {seed}" in out.stdout
    state = saved(tmp_path)
    assert state["seed"] == seed
    assert state["players"][0]["state"]["dealt"] == [str(deal_order(seed)[0])]


def test_bad_input_is_one_line_and_changes_nothing(tmp_path):
    """A move that is not one, a card that does not fit, a card typed instead of a move, ending a turn too early."""
    first = deal_order(7)[0]
    assert first.rank != 1
    out = run(["contest", "tommy", "--players", "Ann,Bob", "--seed", "7", "--no-hints"], f"x\nf0\n{first}\n\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "is not a move" in out.stdout and "takes an Ace" in out.stdout
    assert f"the caller turned {first} for everyone" in out.stdout and f"place {first} first" in out.stdout
    assert history(tmp_path, 0) == [str(first)] and history(tmp_path, 1) == [str(first)]


def test_undo_takes_back_the_players_own_move_but_never_the_called_card(tmp_path):
    first = str(deal_order(2)[0])
    out = run(["contest", "tommy", "--players", "Ann,Bob", "--seed", "2", "--no-hints"], "w3\nu\nu\nw1\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "undone S>W3" in out.stdout and "nothing of yours to undo" in out.stdout
    assert history(tmp_path, 0) == [first, "S>W1"]


def test_a_poker_player_takes_a_mistyped_cell_back_until_the_next_card(tmp_path):
    """Issue 11: after a typo the turn passed at once and u answered "nothing of yours to undo"."""
    out = run(["contest", "poker", "--players", "Ann,Bob", "--seed", "4", "--no-hints"],
              "11\nu\n12\n55\nu\n54\n\nu\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Ann: undone" in out.stdout and "Bob: undone" in out.stdout
    ann, bob = (saved(tmp_path)["players"][i]["state"]["placements"] for i in (0, 1))
    first = str(deal_order(4)[0])
    assert ann == [[first, "r1c2"]] and bob == [[first, "r5c4"]]
    assert "nothing of yours to undo" in out.stdout  # after the next card, the placements stay


def test_poker_shuffle_names_the_card_and_the_cell(tmp_path):
    """004 "Poker Shuffle": all 25 cards are called at once; a player picks which card goes where."""
    cards = [str(c) for c in deal_order(5)[:25]]
    out = run(["contest", "poker", "--players", "Ann,Bob", "--seed", "5", "--variant", "american-shuffle", "--no-hints"],
              f"{cards[24]} r3c3\nu\n{cards[10]} 11\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert saved(tmp_path)["players"][0]["state"]["placements"] == [[cards[10], "r1c1"]]


def test_resume_without_a_save_and_a_corrupt_save_are_one_line_errors(tmp_path):
    out = run(["contest", "--resume"], "", tmp_path)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and "patience contest" in out.stderr
    run(["contest", "poker", "--players", "Ann,Bob", "--seed", "1", "--no-hints"], "11\n", tmp_path)
    (tmp_path / "contest.json").write_text("{not json")
    out = run(["contest", "--resume"], "", tmp_path)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "corrupt" in out.stderr and "contest.json.bak" in out.stderr
    out = run(["contest", "--resume", "--file", str(tmp_path / "contest.json.bak"), "--no-hints"], "q\n", tmp_path)
    assert out.returncode == 0, out.stderr


def test_bad_arguments_are_one_line_errors(tmp_path):
    for args, words in (
        (["contest", "tommy", "--players", "Ann"], "at least two"),
        (["contest", "tommy", "--players", "Ann,Ann"], "twice"),
        (["contest", "tommy"], "--players"),
        (["contest", "--players", "Ann,Bob"], "tommy or poker"),
        (["contest", "poker", "--players", "Ann,Bob", "--variant", "nope"], "nope"),
        (["contest", "tommy", "--players", "Ann,Bob", "--seed", "-1"], "seed"),
        (["contest", "tommy", "--resume"], "--resume"),
    ):
        out = run(args, "", tmp_path)
        assert out.returncode == 2, args
        assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr, (args, out.stderr)


def test_a_new_contest_keeps_the_unfinished_one_as_a_backup(tmp_path):
    run(["contest", "poker", "--players", "Ann,Bob", "--seed", "1", "--no-hints"], "11\n", tmp_path)
    out = run(["contest", "tommy", "--players", "Cy,Dan", "--seed", "2", "--no-hints"], "q\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "unfinished contest was replaced" in out.stdout
    backup = json.loads((tmp_path / "contest.json.bak").read_text())["state"]
    assert [p["name"] for p in backup["players"]] == ["Ann", "Bob"]
    assert [p["name"] for p in saved(tmp_path)["players"]] == ["Cy", "Dan"]
