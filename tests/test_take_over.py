"""Taking over a Sir Tommy game already under way: the table typed or read from a photo, the cards under the
foundation tops assumed (and exchanged for another of their rank when one of them is turned after all)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cards import Card, CardError
from assistant.games.tommy import TommyState
from assistant.take_over import layout_from_cards, parse_layout
from tests.live_sim import H, W, Camera, corner, whole

FIXTURE = Path(__file__).parent / "fixtures" / "take_over_tommy.jpg"


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


# -- the game ----------------------------------------------------------------------------------------------------
def test_a_foundation_top_brings_the_ranks_under_it_from_the_cards_not_on_the_table():
    state = TommyState.from_table("standard", ["3h", None, "As", None], "Jd 2d | - | - | -")
    below = state.foundations[0][:-1]
    assert [c.rank for c in below] == [1, 2] and not set(below) & {Card.parse("As"), Card.parse("2d")}
    assert state.stock_count == 52 - 6
    assert state.foundations[2] == cards("As") and state.waste[0] == cards("Jd 2d")


def test_an_assumed_card_turned_after_all_gives_its_place_to_another_of_its_rank_even_after_undo_and_a_save():
    state = TommyState.from_table("standard", ["3h", None, None, None], "- | - | - | -")
    assumed = state.foundations[0][1]  # a 2 the game put under the 3h
    state.turn(assumed)
    assert assumed not in state.foundations[0] and state.foundations[0][1].rank == 2
    assert state.hand == [assumed]
    state.apply("S>W0")
    again = TommyState.from_dict(state.to_dict())
    assert again.foundations == state.foundations and again.waste == state.waste
    state.undo()
    state.undo()
    assert assumed in state.stock_cards() and assumed not in state.foundations[0]  # exchanged for good


def test_the_last_card_of_a_rank_assumed_under_a_top_cannot_be_turned():
    state = TommyState.from_table("standard", ["2h", "As", "Ad", "Ac"], "- | - | - | -")
    (ace,) = state.foundations[0][:1]
    with pytest.raises(CardError, match="no other A is left"):
        state.turn(ace)


def test_a_table_that_cannot_be_says_why():
    with pytest.raises(ValueError, match="needs a 4 under it, and every one is elsewhere"):
        TommyState.from_table("standard", ["5h", "5s", "5d", "5c"], "4h | - | - | -")
    with pytest.raises(ValueError, match="needs the 2h under it"):
        TommyState.from_table("in-suit", ["3h", None, None, None], "2h | - | - | -")
    with pytest.raises(ValueError, match="every foundation has its base card"):
        TommyState.from_table("aces-out-first", ["3h", None, "Ad", "Ac"], "- | - | - | -")


def test_in_suit_the_cards_under_a_top_are_the_very_cards_of_its_suit():
    state = TommyState.from_table("in-suit", ["3h", None, None, None], "- | - | - | -")
    assert state.foundations[0] == cards("Ah 2h 3h")


def test_calculation_foundations_hold_the_ranks_of_their_steps():
    state = TommyState.from_table("calculation", ["3h", "6s", "9d", "4c"], "- | - | - | -")
    assert [[c.rank for c in p] for p in state.foundations] == [[1, 2, 3], [2, 4, 6], [3, 6, 9], [4]]


# -- the layout typed ------------------------------------------------------------------------------------------
def test_a_typed_layout_reads_tops_then_waste_piles():
    layout = parse_layout("3h - As - / Jd 2d | - | 10c | -")
    assert layout.tops == [Card.parse("3h"), None, Card.parse("As"), None]
    assert layout.waste == [cards("Jd 2d"), [], cards("10c"), []]
    assert layout.text() == "3h - As - / Jd 2d | - | 10c | -"


@pytest.mark.parametrize("text, why", [("3h - As - Jd 2d", "a slash"), ("3h - As / - | - | - | -", "4 tops"),
                                       ("- - - - / Jd | -", "4 are needed"), ("- - - - / Zz | - | - | -", "Zz")])
def test_a_typed_layout_that_cannot_be_read_says_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        parse_layout(text)


# -- the layout read from a photo's cards ------------------------------------------------------------------------
def table_cards(foundations, waste, cam: Camera, step: float = 0.25, drop=(), beside: int = 0) -> list:
    """The reader's cards of a Sir Tommy table: foundations whole in a row (``beside`` -1 / 1: in a column left /
    right of the waste piles), each waste pile below spread downwards (its covered cards by their corner, its top
    whole); ``drop``: cards not read."""
    seen = []
    for k, c in enumerate(foundations):
        if c:
            x = 300 - 1.6 * W if beside < 0 else 300 + 1.3 * W * 4 + 0.3 * W
            xy = (x, 150 + 1.15 * H * k) if beside else (300 + 1.3 * W * k, 150)
            seen.append(whole(Card.parse(c), xy, cam))
    for k, pile in enumerate(waste):
        for j, c in enumerate(pile):
            xy = (300 + 1.3 * W * k, 150 + (0 if beside else 1.35 * H) + j * step * H)
            seen.append((whole if j == len(pile) - 1 else corner)(Card.parse(c), xy, cam))
    return [s for s in seen if s.card not in drop]


FOUND = ["Ah", "3c", None, "As"]
WASTE = [["Kd", "9d", "7h"], ["Qs"], ["Jc", "Jd", "10h", "8s", "5c"], []]


@pytest.mark.parametrize("cam", [Camera(), Camera(angle_deg=8.0), Camera(angle_deg=90.0), Camera(angle_deg=180.0),
                                 Camera(angle_deg=-97.0, scale=0.7)], ids=["upright", "tilted", "quarter", "half",
                                                                         "quarter-small"])
def test_foundations_are_the_upper_row_and_each_column_below_a_waste_pile_however_the_camera_is_turned(cam):
    layout = layout_from_cards(table_cards(FOUND, WASTE, cam))
    assert layout.text() == "Ah 3c As - / Kd 9d 7h | Qs | Jc Jd 10h 8s 5c | -"
    assert layout.notes == []


@pytest.mark.parametrize("cam", [Camera(), Camera(angle_deg=-90.0)], ids=["upright", "turned"])
@pytest.mark.parametrize("beside", [-1, 1], ids=["left", "right"])
def test_foundations_in_a_column_beside_the_waste_piles_are_read_top_to_bottom(cam, beside):
    layout = layout_from_cards(table_cards(FOUND, WASTE, cam, beside=beside))
    assert layout.text() == "Ah 3c As - / Kd 9d 7h | Qs | Jc Jd 10h 8s 5c | -"


def test_a_covered_card_boxed_as_a_whole_card_over_the_cards_under_it_does_not_cut_its_pile():
    seen = table_cards(FOUND, WASTE, Camera(), drop=("10h",))
    covered = next(s for s in seen if s.card == "8s")  # under the 5c: boxed back over the cards under it
    x1, y1 = covered.box[:2]
    boxed = [replace(s, box=(x1, y1 - 0.7 * H, x1 + W, y1 + 0.3 * H), corners=2) if s is covered else s
             for s in seen]
    layout = layout_from_cards(boxed)
    assert layout.tops == cards("Ah 3c As") + [None] and layout.waste[2] == cards("Jc Jd 8s 5c")


def test_a_card_turned_beside_the_stock_at_the_end_of_the_foundations_row_is_the_card_in_hand():
    four = ["Ah", "3c", "As", "2d"]
    seen = table_cards(four, WASTE, Camera()) + [whole(Card.parse("Qd"), (300 - 1.6 * W, 150), Camera())]
    layout = layout_from_cards(seen)
    assert layout.text() == "Ah 3c As 2d / Kd 9d 7h | Qs | Jc Jd 10h 8s 5c | - / Qd"
    assert parse_layout(layout.text()) == replace(layout, notes=[])


def test_a_table_without_foundations_is_all_waste_piles():
    layout = layout_from_cards(table_cards([None] * 4, WASTE, Camera()))
    assert layout.tops == [None] * 4 and layout.waste == [cards(" ".join(p)) for p in WASTE]


def test_cards_not_read_in_a_pile_are_pointed_at():
    layout = layout_from_cards(table_cards(FOUND, WASTE, Camera(), drop=("Kd", "10h")))
    assert layout.waste[0] == cards("9d 7h") and layout.waste[2] == cards("Jc Jd 8s 5c")
    assert layout.notes == ["a card may be missing under 9d (its pile starts lower than the others)",
                            "a card may be missing between Jd and 8s (a wider step in their pile)"]


def test_six_cards_in_the_foundations_row_are_not_a_sir_tommy_table():
    with pytest.raises(ValueError, match="6 foundations are read, at most 4"):
        layout_from_cards(table_cards(["Ah", "3c", "As", "Kc", "Kh", "2d"], WASTE, Camera()))


def test_five_columns_of_waste_cards_are_four_piles_the_two_closest_one():
    seen = table_cards(FOUND, WASTE[:3] + [["2d", "3d"]], Camera())
    moved = [replace(s, box=(s.box[0] + 60, s.box[1], s.box[2] + 60, s.box[3])) if s.card in ("9d", "7h") else s
             for s in seen]  # two cards of the first pile read off its line
    layout = layout_from_cards(moved)
    assert layout.waste[0] == cards("Kd 9d 7h") and len([p for p in layout.waste if p]) == 4
    assert any("taken as one" in n for n in layout.notes)


# -- the command ---------------------------------------------------------------------------------------------------
PATIENCE = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")


def play(*args, stdin: str = "q\n", tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATIENCE_LENS_HOME": str(tmp_path), "COLUMNS": "100"}
    return subprocess.run([PATIENCE, "play", "tommy", "--manual", "--no-hints", *args],
                          input=stdin, capture_output=True, text=True, timeout=300, env=env)


def test_play_goes_on_from_a_typed_table_with_a_card_turned_and_not_placed(tmp_path):
    out = play("--layout", "3h - As - / Jd 2d | - | - | - / 5c", stdin="w1\nq\n", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    (save,) = (tmp_path / "games").glob("*.json")
    assert json.loads(save.read_text())["state"]["layout"]["waste"] == [["Jd", "2d"], ["5c"], [], []]


def test_play_goes_on_from_a_typed_table_and_saves_it(tmp_path):
    out = play("--layout", "3h - As - / Jd 2d | - | - | -", stdin="5c\nw1\nq\n", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    (save,) = (tmp_path / "games").glob("*.json")
    state = json.loads(save.read_text())["state"]
    assert state["layout"]["waste"] == [["Jd", "2d"], ["5c"], [], []]
    assert state["layout"]["foundations"][0][-1] == "3h" and len(state["layout"]["foundations"][0]) == 3


@pytest.mark.parametrize("args, why", [(["--layout", "3h - - - / - | - | - | -", "--seed", "4"], "not with --seed"),
                                       (["--layout", "5h 5s 5d 5c / 4h | - | - | -"], "every one is elsewhere"),
                                       (["--take-over", "missing.jpg"], "no such file")])
def test_play_refuses_a_table_it_cannot_take_over(args, why, tmp_path):
    out = play(*args, tmp_path=tmp_path)
    assert out.returncode == 2 and why in out.stderr, out.stderr


def test_play_takes_over_from_a_photo_every_card_read_in_its_own_pile_and_the_unread_ones_pointed_at(tmp_path):
    truth = json.loads(FIXTURE.with_suffix(".json").read_text())
    out = play("--take-over", str(FIXTURE), tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("read from"))
    layout = parse_layout(line.split(": ", 1)[1])
    assert [str(c) for c in layout.tops] == truth["foundations"]
    notes = [x.split() for x in out.stdout.splitlines() if "note:" in x]
    for read, pile in zip(layout.waste, truth["waste"]):
        names = [str(c) for c in read]
        assert names == [c for c in pile if c in names]  # in its own pile, in order
        for k, card in enumerate(pile):  # a card not read: a note names a card next to it in its pile
            if card not in names:
                near = {pile[j] for j in (k - 1, k + 1) if 0 <= j < len(pile)}
                assert any(near & set(n) for n in notes), (card, notes)


# -- the camera goes on from it ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed, turned", [(0, 10), (2, 30), (4, 25), (6, 40)])
def test_the_camera_follows_a_game_taken_over_mid_deal_to_its_end(seed, turned):
    """The game as typed or read from a photo after ``turned`` cards; the camera starts there, without ever having
    seen where the turned card lies before it is laid, and a card assumed under a foundation top may come up."""
    from assistant.session import Session
    from tests.live_sim import run_script, tommy_script

    script, final = tommy_script(seed)
    table, i = TommyState("standard"), 0
    while sum(isinstance(h, Card) for h in table.history) < turned or script.truth[i]["event"] != "card":
        e = script.truth[i]
        table.turn(e["card"]) if e["event"] == "card" else table.apply(e["move"])
        i += 1
    start = script.truth[i]["still_frame"] - 8
    script.frames, truth = script.frames[start:], script.truth[i:]
    session = Session.new("tommy", "standard")
    session.state = TommyState.from_table("standard", [p[-1] if p else None for p in table.foundations], table.waste)
    events = run_script(session, script)
    assert [(e["event"], e["card"], e.get("move")) for e in events if e["event"] in ("card", "move")] == \
        [(e["event"], e["card"], e.get("move")) for e in truth]
    assert not [e for e in events if e["event"] == "warning"]
    assert session.state.foundation_cards() == final.foundation_cards()
    assert [len(p) for p in session.state.waste] == [len(p) for p in final.waste]


def test_with_a_camera_and_no_photo_the_table_is_read_from_the_cameras_first_still_view(tmp_path):
    env = {**os.environ, "PATIENCE_LENS_HOME": str(tmp_path)}
    out = subprocess.run([PATIENCE, "play", "tommy", "--source", str(FIXTURE), "--take-over", "--headless", "--json",
                          "--no-hints"], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert f"read from the camera ({FIXTURE}): As Ah Ad Ac / " in out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]  # stdout keeps to JSON lines
    assert events[-1]["event"] == "result" and events[-1]["foundation_cards"] == 4


# -- the benchmark -------------------------------------------------------------------------------------------------
def test_the_benchmark_counts_cards_in_their_own_pile_in_order_and_the_missed_ones_a_note_points_at():
    from assistant.benchmarks.take_over import compare, in_order
    from assistant.take_over import TableLayout

    assert in_order(["a", "c", "b"], ["a", "b", "c"]) == 2 and in_order([], ["a"]) == 0
    truth = {"foundations": ["As", "3c", None, None], "waste": [["Kd", "9d", "7h"], ["Qs"], [], []]}
    layout = TableLayout(cards("3c As") + [None, None], [cards("Kd 7h"), cards("Qs 2h"), [], []],
                         ["a card may be missing between Kd and 7h (a wider step in their pile)"])
    assert compare(layout, truth) == {"exact": False, "tops_right": 2, "tops": 2, "cards_right": 3, "cards_wrong": 1,
                                      "cards_missed": 1, "missed_pointed": 1, "cards": 4}


def test_bench_take_over_reads_a_labelled_folder(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "t.jpg")
    shutil.copy(FIXTURE.with_suffix(".json"), tmp_path / "t.jpg.json")
    out = subprocess.run([PATIENCE, "bench", "take-over", str(tmp_path), "--json"], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    line, summary = (json.loads(x) for x in out.stdout.splitlines())
    assert line["tops_right"] == 4 and line["cards_wrong"] == 0 and line["cards_right"] >= 16
    assert summary["summary"]["photos"] == 1 and summary["summary"]["cards"] == 20
