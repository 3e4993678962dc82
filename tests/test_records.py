"""Finished games kept in SQLite (assistant.records) and ``patience stats``; nothing is lost when a writer dies."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assistant import records
from assistant.cli import main
from assistant.commands.stats import summary, text_lines
from assistant.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    return tmp_path


def session_from(name: str) -> Session:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return Session.from_save(data["game"], data["state"], data["meta"])


def test_a_finished_game_is_recorded_once(home):
    tommy = session_from("review_tommy_mistakes.json")
    poker = session_from("review_poker_mistake.json")
    assert records.record_finished_game(tommy) and records.record_finished_game(poker)
    assert not records.record_finished_game(tommy)  # the same game again changes nothing
    rows = records.load_records()
    assert [(r.game, r.won) for r in rows] == [("tommy", False), ("poker", False)]
    assert rows[0].foundation_cards == 42 and rows[0].cards_in_play == 52
    assert rows[1].score == 53 and rows[1].threshold == 200
    assert records.db_path() == home / "records.sqlite"


def test_an_unfinished_game_is_not_recorded():
    s = Session.new("tommy", seed=3)
    with pytest.raises(ValueError):
        records.record_finished_game(s)


def test_streaks_and_recent_win_rates():
    """002/003: "Spelers houden soms het winstpercentage bij over 50 tot 100 giften"."""
    won = [True, True, False, True, True, True, False, False]
    assert records.streaks(won) == records.Streaks(longest_won=3, current=-2)
    assert records.streaks([True]) == records.Streaks(1, 1) and records.streaks([]) == records.Streaks(0, 0)
    assert records.last_rate(won, 4) == (2, 4) and records.last_rate(won, 50) == (5, 8)
    assert records.rolling_rate([True, False, True], 2) == [1.0, 0.5, 0.5]


def test_stats_figures_and_text():
    for i in range(120):
        records.record_game("tommy", "standard", i % 10 == 0, {"deal": i}, foundation_cards=40, cards_in_play=52)
    for score in (150, 210, 90):
        records.record_game("poker", "american", score >= 200, {"s": score}, score=score, threshold=200)
    groups = summary(records.load_records())
    tommy, poker = groups
    assert tommy["games"] == 120 and tommy["wins"] == 12 and tommy["last_50"] == {"wins": 5, "games": 50, "rate": 0.1}
    assert tommy["current_streak"] == -9 and tommy["longest_streak"] == 1
    assert poker["mean_score"] == 150 and poker["best_score"] == 210 and poker["reached"] == 1
    lines = text_lines(groups, "de")
    assert "Gewinnquote der letzten 100 Spiele: 10,0\u00a0% (10 von 100)" in lines
    assert any(line.startswith("200 Punkte oder mehr") for line in lines)


def test_stats_command(capsys):
    assert main(["stats", "--lang", "it"]) == 0
    assert "Nessuna partita" in capsys.readouterr().out
    records.record_game("tommy", "standard", True, {"x": 1}, foundation_cards=52, cards_in_play=52)
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["wins"] == 1


def test_stats_plot(home, capsys):
    pytest.importorskip("matplotlib")
    records.record_game("tommy", "standard", True, {"x": 1}, foundation_cards=52, cards_in_play=52)
    records.record_game("poker", "english", False, {"x": 2}, score=60, threshold=70)
    out = home / "history.png"
    assert main(["stats", "--plot", str(out), "--lang", "en"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


WRITER = textwrap.dedent("""
    import sys
    from assistant import records
    for i in range(100000):
        records.record_game("tommy", "standard", i % 3 == 0, {"deal": i}, foundation_cards=i % 53, cards_in_play=52)
        print(i, flush=True)
""")


def test_records_survive_a_kill_during_writes(home):
    """A writer killed (SIGKILL) in the middle of a stream of writes: every game it reported is there, nothing
    half-written, and the file passes SQLite's integrity check."""
    env = dict(os.environ, PATIENCE_LENS_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", WRITER], stdout=subprocess.PIPE, env=env, text=True)
    last = -1
    for line in proc.stdout:
        last = int(line)
        if last >= 40:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    conn = sqlite3.connect(str(home / "records.sqlite"))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    rows = records.load_records()
    assert last + 1 <= len(rows) <= last + 3  # the reported ones, and at most the one(s) being written
    states = [json.loads(s)["deal"] for (s,) in sqlite3.connect(str(home / "records.sqlite")).execute(
        "SELECT state FROM games ORDER BY id")]
    assert states == list(range(len(rows)))


KILLED_MID_TRANSACTION = textwrap.dedent("""
    import os, signal
    from assistant import records
    records.record_game("poker", "american", False, {"first": 1}, score=100, threshold=200)
    conn = records.connect()
    conn.execute("BEGIN")
    conn.execute("INSERT INTO games (key, finished_at, game, variant, won, state) VALUES ('k', 't', 'poker', 'x', 0, '{}')")
    conn.execute("UPDATE games SET score = 0")
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_a_kill_inside_a_transaction_leaves_the_last_committed_state(home):
    env = dict(os.environ, PATIENCE_LENS_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", KILLED_MID_TRANSACTION], env=env)
    assert proc.returncode == -signal.SIGKILL
    rows = records.load_records()  # opening rolls the journal back
    assert [(r.game, r.score) for r in rows] == [("poker", 100)]
