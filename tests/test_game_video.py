"""The game-video renderer (vision/training/game_video.py) and its player (assistant/benchmarks/video_games.py):
the ground truth JSON must be a game the engines accept, move by move, with the result they compute, and every
``still_frame`` must be a frame where the card has come to rest. Procedural faces: no artwork needed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from assistant.benchmarks.video_games import play_poker, play_tommy  # noqa: E402
from assistant.cards import Card  # noqa: E402
from assistant.deals import deal_order  # noqa: E402
from assistant.games.poker import PokerRules, PokerState, score_grid  # noqa: E402
from assistant.games.tommy import TommyState  # noqa: E402
from vision.training.game_video import GameRenderer, VideoOptions, poker_table, procedural_faces  # noqa: E402
from vision.training.table_drawing import project  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
SMALL = VideoOptions(width=256, height=144, fps=8, speed=2.5, min_card_px=24, hand_passes=0.3)


@pytest.fixture(scope="module")
def faces():
    return procedural_faces(80, 112)


def render(script, faces, tmp_path, seed=1, options=SMALL):
    r = GameRenderer(script, faces, tmp_path / script["game"], seed, options, {"deck": "procedural", "held_out": False})
    truth = r.render()
    return r, truth


def video_frames(path: Path) -> int:
    cap = cv2.VideoCapture(str(path))
    n = 0
    while cap.read()[0]:
        n += 1
    return n


def replay_tommy(truth: dict) -> TommyState:
    """Sir Tommy: the turned cards come in ``deal_order(seed)`` (four at a time: a batch turned whole before any
    is placed), each move moves the card it names, and every move is legal."""
    state = TommyState(truth["variant"] or "standard", deal_order(truth["seed"]))
    for e in truth["events"]:
        if e["event"] != "move":
            continue
        if e["move"] == "R":  # a redeal: the waste piles gathered into the stock
            assert e["card"] is None and state.is_legal("R"), (e, str(state))
            state.apply("R")
            continue
        src = e["move"].split(">")[0]
        if src.startswith("S"):
            while state.needs_card():
                state.turn_next()
            assert str(state.hand[int(src[1:] or 0)]) == e["card"]
        else:
            assert str(state.waste[int(src[1])][-1]) == e["card"]
        assert state.is_legal(e["move"]), (e, str(state))
        state.apply(e["move"])
    return state


def first_use_order(moves: list[str], kind: str) -> list[int]:
    seen: list[int] = []
    for m in moves:
        target = m.split(">")[1]
        if target[0] == kind and int(target[1]) not in seen:
            seen.append(int(target[1]))
    return seen


def test_a_whole_sir_tommy_game_replays_through_the_engine(faces, tmp_path):
    script = play_tommy(5)
    r, truth = render(script, faces, tmp_path)
    state = replay_tommy(truth)
    assert state.is_terminal()
    assert truth["result"]["foundation_cards"] == state.foundation_cards()
    assert truth["result"]["won"] == state.is_won()
    moves = [e["move"] for e in truth["events"] if e["event"] == "move"]
    assert any(m.startswith("W") for m in moves), "waste tops are played up to the foundations"
    # Convention: engine index = the order in which places first appear on the table.
    assert first_use_order(moves, "W") == sorted(first_use_order(moves, "W"))
    assert first_use_order(moves, "F") == sorted(first_use_order(moves, "F"))
    assert truth["frames"] == video_frames(tmp_path / "tommy.mp4") == len(r.moving_trace)


def test_every_turned_card_is_seen_once_before_or_when_it_is_laid(faces, tmp_path):
    _, truth = render(play_tommy(2, turns=10), faces, tmp_path)
    cards = [e for e in truth["events"] if e["event"] == "card"]
    assert [e["card"] for e in cards] == [str(c) for c in deal_order(2)[:10]]
    laid = {e["card"]: e["still_frame"] for e in truth["events"] if e["event"] == "move" and e["move"].startswith("S>")}
    assert all(e["still_frame"] <= laid[e["card"]] for e in cards)
    frames = [e["still_frame"] for e in truth["events"]]
    assert frames == sorted(frames)


def test_still_frame_is_the_first_frame_the_card_is_at_rest(faces, tmp_path):
    r, truth = render(play_tommy(4, turns=8), faces, tmp_path, seed=3)
    for e in truth["events"]:
        f = e["still_frame"]
        assert e["card"] in r.moving_trace[f - 1], "the card was on the move just before"
        assert e["card"] not in r.moving_trace[f], "and lies still from still_frame on"


def test_places_are_a_random_permutation_and_all_in_view(faces, tmp_path):
    slots = set()
    for seed in range(4):
        r, truth = render(play_tommy(seed, turns=3), faces, tmp_path, seed=seed)
        lay = truth["layout"]
        slots.add(tuple(lay["camera"]["waste_slots"]))
        for x, y in [lay["stock"], lay["turned"], *lay["foundations"], *lay["waste"]]:
            assert 0 <= x < truth["width"] and 0 <= y < truth["height"]
    assert len(slots) > 1


def test_a_poker_game_replays_and_its_rows_are_the_grid_as_seen(faces, tmp_path):
    script = play_poker(7, variant="english")
    r, truth = render(script, faces, tmp_path, seed=2)
    state = PokerState(PokerRules.preset("english"))
    seen = {}
    for e, step in zip([e for e in truth["events"] if e["event"] == "move"], script["steps"]):
        state.turn(e["card"])
        state.place(tuple(step["cell"]))
        seen[tuple(e["cell"])] = e["card"]
    rows = truth["result"]["rows"]
    assert len(seen) == 25 and all(rows[rc[0]][rc[1]] == card for rc, card in seen.items())
    # the image's grid is the engine's grid turned by a quarter turn (or not): the score cannot change
    cells = [Card.parse(c) for row in rows for c in row]
    assert score_grid(cells, "english").total == truth["result"]["english"] == state.score("english").total
    assert score_grid(cells, "american").total == truth["result"]["american"]
    assert [e["card"] for e in truth["events"] if e["event"] == "card"] == [str(c) for c in deal_order(7)[:25]]
    assert truth["frames"] == video_frames(tmp_path / "poker.mp4")


def test_poker_rows_laid_over_each_other_lie_closer_than_a_card_and_are_drawn_in_the_order_laid():
    with_gaps = poker_table(np.random.default_rng(0), 100.0, 0.7)
    over = poker_table(np.random.default_rng(0), 100.0, 0.7, rows_overlap=0.3)
    assert with_gaps.places["1,0"][1] - with_gaps.places["0,0"][1] > 100.0 and not with_gaps.laid_order
    assert over.places["1,0"][1] - over.places["0,0"][1] == pytest.approx(70.0) and over.laid_order
    assert over.places["0,1"] == with_gaps.places["0,1"]  # the columns keep their gaps
    across = poker_table(np.random.default_rng(0), 100.0, 0.7, columns_overlap=0.35)
    assert across.places["0,1"][0] - across.places["0,0"][0] == pytest.approx(70.0 * 0.65) and across.laid_order
    assert across.places["1,0"] == with_gaps.places["1,0"]  # the rows keep theirs


@pytest.mark.parametrize("in_row", [True, False], ids=["laid-in-a-row", "from-the-hand"])
def test_four_at_a_time_turns_each_batch_whole_before_placing_it(faces, tmp_path, in_row):
    options = VideoOptions(**{**SMALL.__dict__, "hand_row": 1.0 if in_row else 0.0})
    r, truth = render(play_tommy(6, variant="four-at-a-time"), faces, tmp_path, options=options)
    state = replay_tommy(truth)
    assert state.is_terminal() and truth["result"]["foundation_cards"] == state.foundation_cards()
    assert ("hand_row" in truth["layout"]) == in_row
    events = [e for e in truth["events"] if e["event"] == "card" or e["move"].startswith("S")]
    order = [str(c) for c in deal_order(6)]
    for b in range(13):  # 52 cards, four at a time
        cards, moves = events[8 * b: 8 * b + 4], events[8 * b + 4: 8 * b + 8]
        assert all(e["event"] == "card" for e in cards) and all(e["event"] == "move" for e in moves)
        assert sorted(e["card"] for e in cards) == sorted(e["card"] for e in moves) == sorted(order[4 * b: 4 * b + 4])
        laid = {e["card"]: e["still_frame"] for e in moves}
        if in_row:  # seen in the row, in the order turned, before any is placed
            assert [e["card"] for e in cards] == order[4 * b: 4 * b + 4]
            assert max(e["still_frame"] for e in cards) < min(laid.values())
        else:  # seen first where it is laid
            assert all(e["still_frame"] == laid[e["card"]] for e in cards)
    for e in truth["events"]:
        assert e["card"] in r.moving_trace[e["still_frame"] - 1] and e["card"] not in r.moving_trace[e["still_frame"]]


@pytest.mark.parametrize("variant", ["calculation", "aces-out-first", "puss-in-the-corner"])
def test_the_variants_base_cards_lie_on_the_foundations_from_the_start_and_never_come_from_the_stock(
        faces, tmp_path, variant):
    script = play_tommy(3, turns=6, variant=variant)
    r, truth = render(script, faces, tmp_path)
    bases = [str(c) for c in TommyState(variant, deal_order(3)).bases]
    assert script["bases"] == bases and len(bases) == 4
    assert [r.table.piles[f"F{i}"][0] for i in range(4)] == bases  # set out before the first frame
    assert script["stock"] == (44 if variant == "puss-in-the-corner" else 48)  # its Kings out of play
    assert r.table.stock == script["stock"] - 6
    assert not set(bases) & {e["card"] for e in truth["events"]}
    replay_tommy(truth)


@pytest.mark.parametrize("variant, redeals", [("one-redeal", 1), ("in-suit", 2)])
def test_a_redeal_gathers_the_waste_piles_face_down_onto_the_stock_and_the_game_goes_on(
        faces, tmp_path, variant, redeals):
    r, truth = render(play_tommy(5, variant=variant), faces, tmp_path)
    gathered = [e for e in truth["events"] if e.get("move") == "R"]
    assert len(gathered) == redeals
    state = replay_tommy(truth)
    assert state.is_terminal() and truth["result"]["foundation_cards"] == state.foundation_cards()
    turned = [e for e in truth["events"] if e["event"] == "card"]
    for e in gathered:  # the gathered piles' cards are turned again after it
        before = {x["card"] for x in turned if x["still_frame"] < e["still_frame"]}
        after = [x["card"] for x in turned if x["still_frame"] > e["still_frame"]]
        assert after and set(after) <= before
        assert not r.moving_trace[e["still_frame"]], "the table lies still after the last pile is gathered"
    assert truth["frames"] == video_frames(tmp_path / "tommy.mp4") == len(r.moving_trace)


def test_a_poker_shuffle_is_laid_out_open_then_arranged_as_the_result_says(faces, tmp_path):
    script = play_poker(9, variant="english-shuffle")
    r, truth = render(script, faces, tmp_path, seed=4)
    cards = [e for e in truth["events"] if e["event"] == "card"]
    moves = [e for e in truth["events"] if e["event"] == "move"]
    assert truth["events"] == cards + moves and len(cards) == len(moves) == 25
    assert [e["card"] for e in cards] == [e["card"] for e in moves] == [str(c) for c in deal_order(9)[:25]]
    rows = truth["result"]["rows"]
    assert all(rows[e["cell"][0]][e["cell"][1]] == e["card"] for e in moves)
    (arranged,) = {e["still_frame"] for e in moves}  # placed at once, when the last card lies in the grid
    assert arranged > max(e["still_frame"] for e in cards)
    assert r.moving_trace[arranged - 1] and not r.moving_trace[arranged]  # the last card came to rest there
    cells = [Card.parse(c) for row in rows for c in row]
    assert score_grid(cells, "english").total == truth["result"]["english"]
    assert truth["result"]["english"] >= 70  # the shuffle solver's arrangement, not a random one
    for x, y in [*truth["layout"]["cells"].values(), *truth["layout"]["spread"]]:
        assert 0 <= x < truth["width"] and 0 <= y < truth["height"]


@pytest.mark.parametrize("game", ["tommy", "poker"])
def test_a_knocked_camera_moves_the_view_once_halfway_and_the_truth_keeps_the_layout_first_seen(
        faces, tmp_path, game):
    options = VideoOptions(**{**SMALL.__dict__, "nudge": 0.7, "width": 426, "height": 240, "min_card_px": 20})
    script = play_tommy(4, turns=8) if game == "tommy" else play_poker(4, cards=6)
    r, truth = render(script, faces, tmp_path / "knocked", options=options)
    plain = render(script, faces, tmp_path / "plain")[1]
    assert "nudge" not in plain
    knock = truth["nudge"]
    frames = [e["still_frame"] for e in truth["events"]]
    assert frames[0] < knock["frame"] < frames[-1]
    assert np.hypot(*knock["shift_px"]) >= 0.7 * 0.6 * truth["layout"]["camera"]["card_height_px"]
    assert abs(knock["turn_deg"]) <= 8 and 0.93 <= knock["scale"] <= 1.07
    assert not np.allclose(r.h_base, r.h_layout)
    for x, y in project(r.h_base, list(r.table.places.values()) if game == "tommy" else
                        [r.table.places[f"{row},{col}"] for row in range(5) for col in range(5)]):
        assert 0 <= x < truth["width"] and 0 <= y < truth["height"], "the layout stays in view"


def test_the_same_seed_renders_the_same_truth(faces, tmp_path):
    a = render(play_poker(3, cards=3), faces, tmp_path / "a", seed=9)[1]
    b = render(play_poker(3, cards=3), faces, tmp_path / "b", seed=9)[1]
    assert a == b


def test_the_test_clip_fixture_matches_its_truth():
    truth = json.loads((FIXTURES / "game_clip_poker.json").read_text())
    assert truth["game"] == "poker" and truth["frames"] == video_frames(FIXTURES / "game_clip_poker.mp4")
    state = PokerState(PokerRules.preset(truth["variant"]))
    moves = [e for e in truth["events"] if e["event"] == "move"]
    assert [e["card"] for e in moves] == [str(c) for c in deal_order(truth["seed"])[: len(moves)]]
    for e in moves:
        assert truth["result"]["rows"][e["cell"][0]][e["cell"][1]] == e["card"]
        state.turn(e["card"])
        state.place(tuple(e["cell"]))  # the seen grid is a turned engine grid: the same cells are free
    assert 0 < truth["events"][0]["still_frame"] < truth["frames"]


def test_the_sir_tommy_clip_fixture_replays_through_the_engine():
    truth = json.loads((FIXTURES / "game_clip_tommy.json").read_text())
    assert truth["game"] == "tommy" and truth["frames"] == video_frames(FIXTURES / "game_clip_tommy.mp4")
    state = replay_tommy(truth)
    assert truth["result"]["foundation_cards"] == state.foundation_cards() and not truth["result"]["finished"]
    moves = [e["move"] for e in truth["events"] if e["event"] == "move"]
    assert any(m.startswith("W") for m in moves) and any(m.startswith("S>F") for m in moves)


def test_the_cli_writes_video_and_truth(tmp_path):
    from assistant.cli import main

    out = tmp_path / "clip"
    assert main(["dataset", "video", "--game", "poker", "--seed", "1", "--cards", "2", "--procedural",
                 "--size", "192x108", "--fps", "6", "--speed", "3", "--out", str(out)]) == 0
    truth = json.loads(out.with_suffix(".json").read_text())
    assert truth["deck"] == "procedural" and truth["frames"] == video_frames(out.with_suffix(".mp4"))
    assert main(["dataset", "video", "--game", "poker", "--size", "big", "--procedural", "--out", str(out)]) == 2
    for bad in (["--game", "poker", "--rows-overlap", "0.7"], ["--game", "tommy", "--rows-overlap", "0.3"],
                ["--game", "poker", "--columns-overlap", "0.6"], ["--game", "tommy", "--columns-overlap", "0.3"]):
        assert main(["dataset", "video", *bad, "--procedural", "--out", str(out)]) == 2


def test_a_straight_player_lays_every_turned_card_where_it_goes_without_laying_it_beside_the_stock(tmp_path):
    """``--straight``: no card is shown beside the stock first (a player the camera never sees hold a card): each
    turned card is first seen at rest where it is laid."""
    from assistant.cli import main

    out = tmp_path / "straight"
    assert main(["dataset", "video", "--game", "tommy", "--seed", "3", "--turns", "6", "--procedural", "--straight",
                 "--size", "256x144", "--fps", "8", "--speed", "2.5", "--out", str(out)]) == 0
    events = json.loads(out.with_suffix(".json").read_text())["events"]
    turned = {e["card"]: e["still_frame"] for e in events if e["event"] == "card"}
    laid = {e["card"]: e["still_frame"] for e in events if e["event"] == "move" and e["move"].startswith("S>")}
    assert len(turned) == 6 and turned == laid
