"""``patience score`` through the real console script (rules/004 "Wertung", rules/README.md points table).

004: "Ist das Quadrat voll, wertest du alle fünf Reihen und fünf Spalten – zusammen zehn Hände – und zählst die
Punkte zusammen. Üblich sind zwei Wertungen: Die amerikanische [...] die englische [...]."
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.cards import Card
from assistant.games.poker_hands import AMERICAN_POINTS, ENGLISH_POINTS, LINES

REFERENCE = "AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D"


def patience() -> str:
    """The installed console script: next to the running interpreter, else on PATH."""
    here = Path(sys.executable).parent / "patience"
    if here.exists():
        return str(here)
    found = shutil.which("patience")
    if not found:
        pytest.skip("the patience console script is not installed")
    return found


def run(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([patience(), "score", *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "COLUMNS": "120"})


def test_table_for_people_shows_lines_hands_both_scorings_and_the_verdict():
    # README: the reference grid "scores 197 American, 66 English"; 004 "Gewonnen?": 200 / 70.
    res = run(*REFERENCE.split())  # unquoted works too
    assert res.returncode == 0, res.stderr
    out = res.stdout
    for text in ["row 1", "column 5", "full house", "four of a kind", "three of a kind", "two pair", "flush",
                 "one pair", "197", "66", "200", "70", "not reached"]:
        assert text in out, text


def test_json_with_a_bad_card_prints_an_error_object_on_stdout():
    """Issue 11: `score --json` printed nothing on stdout for a bad card (the stream mode prints an error object)."""
    res = run(REFERENCE.replace("QH", "QX"), "--json")
    assert res.returncode == 2 and "QX" in res.stderr
    obj = json.loads(res.stdout)
    assert set(obj) == {"error"} and "QX" in obj["error"]


def test_json_for_one_grid():
    # README reference grid: 197 American, 66 English; 004 example values: full house 25 / 10.
    res = run(REFERENCE, "--json")
    assert res.returncode == 0, res.stderr
    obj = json.loads(res.stdout)
    assert obj["american"] == 197 and obj["english"] == 66
    assert obj["thresholds"] == {"american": 200, "english": 70} and obj["won"] == {"american": False, "english": False}
    assert obj["rows"][0] == {"cards": ["Ah", "Ad", "Js", "Jc", "Jh"], "hand": "full house", "american": 25,
                              "english": 10}
    assert [c["hand"] for c in obj["columns"]] == ["flush"] * 4 + ["one pair"]


def test_shuffle_thresholds():
    # 004 "Poker Shuffle: [...] Gewonnen ist ab 310 Punkten (amerikanisch) oder 120 (englisch)."
    obj = json.loads(run(REFERENCE, "--json", "--shuffle").stdout)
    assert obj["thresholds"] == {"american": 310, "english": 120}


@pytest.mark.parametrize(
    "grid, message",
    [
        (REFERENCE.replace("AH AD JS JC JH", "AH AD JS JC"), "row 1 has 4"),
        (REFERENCE.replace("2D", "AH"), "Ah appears twice"),
        (REFERENCE.replace("TS", "XS"), "'XS'"),
    ],
)
def test_a_bad_grid_is_one_line_on_stderr_and_exit_code_2(grid, message):
    # "genau fünf Reihen mit je fünf Karten"; each card once.
    res = run(grid)
    assert res.returncode == 2 and res.stdout == ""
    assert message in res.stderr and res.stderr.count("\n") == 1


# ------------------------------------------------------------------------------------------------ stdin stream

_RANK_SPELLINGS = [["A", "a"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7"], ["8"], ["9"], ["10", "T", "t"], ["J", "j"],
                   ["Q", "q"], ["K", "k"]]
_SUIT_SPELLINGS = [["s", "S", "♠"], ["h", "H", "♥"], ["d", "D", "♦"], ["c", "C", "♣"]]


def random_grid_lines(n: int, seed: int) -> tuple[np.ndarray, list[str]]:
    """n random squares (25 distinct cards each) written with every spelling the rules allow."""
    rng = np.random.Generator(np.random.PCG64(seed))
    grids = np.argsort(rng.random((n, 52)), axis=1)[:, :25]
    lines = []
    for g in grids:
        words = []
        for i in g:
            r = _RANK_SPELLINGS[i % 13]
            s = _SUIT_SPELLINGS[i // 13]
            words.append(r[rng.integers(len(r))] + s[rng.integers(len(s))])
        lines.append(" / ".join(" ".join(words[k:k + 5]) for k in range(0, 25, 5)))
    return grids, lines


def test_stream_of_3000_random_grids_agrees_with_treys_for_both_scorings():
    # One JSON object per input line; each line's hand and points as the independent evaluator treys sees them,
    # priced by the README table.
    treys = pytest.importorskip("treys")
    grids, lines = random_grid_lines(3000, seed=197)
    res = run("-", stdin="\n".join(lines) + "\n")
    assert res.returncode == 0, res.stderr[:500]
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(out) == len(grids)

    ev = treys.Evaluator()
    tcards = [treys.Card.new("A23456789TJQK"[i % 13] + "shdc"[i // 13]) for i in range(52)]
    names = {"Royal Flush": 9, "Straight Flush": 8, "Four of a Kind": 7, "Full House": 6, "Flush": 5,
             "Straight": 4, "Three of a Kind": 3, "Two Pair": 2, "Pair": 1, "High Card": 0}
    labels = ["nothing", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "royal flush"]
    for n, (grid, obj) in enumerate(zip(grids, out), 1):
        assert obj["line"] == n
        am = en = 0
        for line, got in zip(LINES, obj["rows"] + obj["columns"]):
            hand = [int(grid[i]) for i in line]
            rank = ev.evaluate([tcards[i] for i in hand[:2]], [tcards[i] for i in hand[2:]])
            cat = 9 if rank == 1 else names[ev.class_to_string(ev.get_rank_class(rank))]
            assert got["cards"] == [str(Card.from_index(i)) for i in hand]
            assert got["hand"] == labels[cat], (n, got)
            assert got["american"] == AMERICAN_POINTS[cat] and got["english"] == ENGLISH_POINTS[cat]
            am += int(AMERICAN_POINTS[cat])
            en += int(ENGLISH_POINTS[cat])
        assert (obj["american"], obj["english"]) == (am, en)


def test_stream_marks_bad_lines_and_goes_on_then_exits_2():
    # A square that is not "fünf Reihen mit je fünf Karten" of distinct cards is reported with its line number;
    # the other squares are still scored.
    lines = [
        REFERENCE,  # 1
        "",  # 2: blank, skipped
        "# a comment",  # 3: skipped
        REFERENCE.replace("TS", "1S"),  # 4: not a card
        REFERENCE.replace(" / 6H", " 6H"),  # 5: four rows
        REFERENCE.replace("2D", "AH"),  # 6: a card twice
        REFERENCE.replace(" / ", " "),  # 7: 25 cards without '/', read as 5 rows of 5
    ]
    res = run("-", stdin="\n".join(lines) + "\n")
    assert res.returncode == 2
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 4, 5, 6, 7]
    assert out[0]["american"] == 197 and out[4]["english"] == 66
    assert "'1S'" in out[1]["error"] and "row" in out[2]["error"] and "Ah appears twice" in out[3]["error"]
    err = res.stderr.splitlines()
    assert [e.split(":")[1].strip() for e in err] == ["line 4", "line 5", "line 6"]


def test_stream_of_good_lines_exits_0_and_empty_input_prints_nothing():
    # Card text in any case (cards.py: "any case"); the reference grid scores 197 American however written.
    assert run("-", stdin="").returncode == 0 and run("-", stdin="").stdout == ""
    res = run("-", stdin=REFERENCE + "\n" + REFERENCE.lower())
    assert res.returncode == 0 and [json.loads(x)["american"] for x in res.stdout.splitlines()] == [197, 197]
