"""Manual play through the real console script: type cards and moves, every action saved, resume continues."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PATIENCE = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")


def run(args, stdin="", home=None):
    env = {**os.environ, "PATIENCE_LENS_HOME": str(home), "COLUMNS": "100"}
    return subprocess.run([PATIENCE, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120)


def saved(home):
    """The game saved last (each game has its own file in games/)."""
    files = sorted((Path(home) / "games").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    return json.loads(files[-1].read_text())


def test_the_console_script_is_installed():
    assert PATIENCE, "the `patience` console script is not on PATH; install with pip install -e ."


def test_typed_cards_and_moves_are_saved_after_every_action(tmp_path):
    out = run(["play", "tommy", "--manual", "--no-hints"], "Qh\nw1\nAs\nf0\n", tmp_path)
    assert out.returncode == 0, out.stderr
    state = saved(tmp_path)["state"]
    assert state["history"] == ["Qh", "S>W1", "As", "S>F0"]
    assert state["layout"]["foundations"][0] == ["As"] and state["layout"]["waste"][1] == ["Qh"]


def test_an_illegal_move_is_refused_in_one_line_and_changes_nothing(tmp_path):
    out = run(["play", "tommy", "--manual", "--no-hints"], "5h\nf0\n", tmp_path)
    assert out.returncode == 0
    assert "does not fit" in out.stdout or "takes an Ace" in out.stdout
    assert saved(tmp_path)["state"]["history"] == ["5h"]


def test_a_card_seen_twice_is_refused(tmp_path):
    out = run(["play", "tommy", "--manual", "--no-hints"], "Qh\nw0\nQh\n", tmp_path)
    assert "Qh" in out.stdout and "already" in out.stdout
    assert saved(tmp_path)["state"]["history"] == ["Qh", "S>W0"]


def test_resume_continues_the_saved_game(tmp_path):
    run(["play", "poker", "--manual", "--variant", "english", "--no-hints"], "Ah\nr1c1\n", tmp_path)
    out = run(["resume", "--no-hints"], "Kh\n15\n", tmp_path)
    assert out.returncode == 0, out.stderr
    state = saved(tmp_path)["state"]
    assert state["placements"] == [["Ah", "r1c1"], ["Kh", "r1c5"]]
    assert state["rules"]["scoring"] == "english"


def test_undo_takes_back_the_last_action(tmp_path):
    run(["play", "poker", "--manual", "--no-hints"], "Ah\nr1c1\n2h\nu\nu\n", tmp_path)
    assert saved(tmp_path)["state"]["dealt"] == ["Ah"]


def test_with_a_seed_the_app_calls_the_cards(tmp_path):
    from assistant.deals import deal_order

    out = run(["play", "poker", "--manual", "--seed", "7", "--no-hints"], "\nr3c3\n\n", tmp_path)
    assert out.returncode == 0, out.stderr
    first, second = (str(c) for c in deal_order(7)[:2])
    assert saved(tmp_path)["state"]["dealt"] == [first, second]


def test_a_damaged_save_resumes_from_its_backup_and_says_so(tmp_path):
    run(["play", "tommy", "--manual", "--no-hints"], "Qh\nw1\n", tmp_path)
    (path,) = (tmp_path / "games").glob("*.json")
    path.write_text("{not json")
    out = run(["resume", "--no-hints"], "q\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "damaged" in out.stdout and "backup" in out.stdout
    assert saved(tmp_path)["state"]["history"] == ["Qh"]  # the backup is one action behind; the game goes on


def test_a_new_game_keeps_the_unfinished_one_and_resume_lists_and_continues_either(tmp_path):
    """Issue 11: a Sir Tommy game, then a Poker game: the Sir Tommy game was silently lost."""
    run(["play", "tommy", "--manual", "--no-hints"], "7s\nw0\nq\n", tmp_path)
    run(["play", "poker", "--manual", "--no-hints"], "5h\nq\n", tmp_path)
    listing = run(["resume", "--list"], "", tmp_path)
    assert listing.returncode == 0, listing.stderr
    rows = [line.split() for line in listing.stdout.splitlines() if line.startswith("│") and "unfinished" in line]
    ids = [row[1] for row in rows]
    assert [i.split("-")[0] for i in ids] == ["tommy", "poker"]
    out = run(["resume", "--no-hints"], "r1c1\nq\n", tmp_path)  # the last unfinished game: poker
    assert saved(tmp_path)["state"]["placements"] == [["5h", "r1c1"]]
    out = run(["resume", ids[0], "--no-hints"], "Qh\nw1\nq\n", tmp_path)
    assert out.returncode == 0, out.stderr
    assert saved(tmp_path)["state"]["history"] == ["7s", "S>W0", "Qh", "S>W1"]


def test_resume_without_a_save_says_how_to_start(tmp_path):
    out = run(["resume"], "", tmp_path)
    assert out.returncode == 2 and "patience play" in out.stderr


def test_without_manual_the_missing_camera_is_said_plainly(tmp_path):
    out = run(["play", "tommy"], "", tmp_path)
    assert out.returncode == 2 and "--manual" in out.stderr


@pytest.mark.parametrize("game, count", [("tommy", 52), ("poker", 25)])
def test_deal_prints_the_callers_seeded_order(game, count, tmp_path):
    out = run(["deal", game, "--seed", "2", "--json"], "", tmp_path)
    data = json.loads(out.stdout)
    assert len(data["order"]) == count == len(set(data["order"]))
    again = json.loads(run(["deal", game, "--seed", "2", "--json"], "", tmp_path).stdout)
    assert again == data
    assert json.loads(run(["deal", game, "--seed", "3", "--json"], "", tmp_path).stdout)["order"] != data["order"]


def test_deal_sets_out_the_aces_first_when_the_variant_says_so(tmp_path):
    data = json.loads(run(["deal", "tommy", "--seed", "2", "--variant", "aces-out-first", "--json"], "", tmp_path).stdout)
    assert sorted(data["set_out"]) == ["Ac", "Ad", "Ah", "As"]
    assert len(data["order"]) == 48 and not any(c.startswith("A") for c in data["order"])
