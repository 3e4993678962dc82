"""The camera assistant end to end: a short rendered clip through ``patience play --source CLIP --headless --json``
with the committed models, every event checked against the clip's record; and the plain errors of bad sources.

"The test suite plays one short clip end to end through --headless --json and checks every event."
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.benchmarks.camera import _trim, compare
from assistant.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def play_json(capsys, game: str, clip: Path, *extra) -> list[dict]:
    code = main(["play", game, "--source", str(clip), "--headless", "--json", *extra])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def saves_here(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))


def test_a_sir_tommy_clip_gives_every_card_and_move_of_its_record_in_order(capsys):
    clip = FIXTURES / "game_clip_tommy.mp4"
    truth = json.loads(clip.with_suffix(".json").read_text())
    events = play_json(capsys, "tommy", clip, "--no-hints")
    got = [(e["event"], e["card"], e.get("move")) for e in events if e["event"] in ("card", "move")]
    want = [(e["event"], e["card"], e.get("move")) for e in truth["events"]]
    assert got == want
    for e, t in zip([e for e in events if e["event"] in ("card", "move")], truth["events"]):
        assert t["still_frame"] <= e["frame"] <= t["still_frame"] + 30  # decided after it lay still, within 2 s
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["foundation_cards"] == truth["result"]["foundation_cards"] and result["finished"] is False


def test_a_poker_clip_places_every_card_where_the_video_shows_it_with_hints(capsys):
    clip = FIXTURES / "game_clip_poker.mp4"
    truth = json.loads(clip.with_suffix(".json").read_text())
    events = play_json(capsys, "poker", clip)
    cards = [e["card"] for e in events if e["event"] == "card"]
    assert cards == [e["card"] for e in truth["events"] if e["event"] == "card"]
    (result,) = [e for e in events if e["event"] == "result"]
    assert _trim(result["rows"]) == _trim(truth["result"]["rows"])
    hints = [e for e in events if e["event"] == "hint"]
    assert {h["card"] for h in hints} == set(cards)  # a hint for every card, naming a cell
    assert all(h["best"].startswith("r") and h["options"] for h in hints)


@pytest.mark.parametrize("source, says", [
    ("no/such/clip.mp4", "not found"),
    ("EMPTY_FOLDER", "holds no images"),
    ("TEXT_AS_VIDEO", "cannot be read as a video"),
])
def test_a_source_that_cannot_be_read_is_one_plain_message_and_exit_code_2(tmp_path, capsys, source, says):
    if source == "EMPTY_FOLDER":
        source = str(tmp_path)
    elif source == "TEXT_AS_VIDEO":
        bad = tmp_path / "clip.mp4"
        bad.write_text("this is not a video")
        source = str(bad)
    assert main(["play", "poker", "--source", source, "--headless", "--json"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_a_broken_image_in_a_folder_source_is_named(tmp_path, capsys):
    (tmp_path / "001.jpg").write_bytes(b"\xff\xd8\xff not really a jpeg")
    assert main(["play", "poker", "--source", str(tmp_path), "--headless", "--json", "--no-hints"]) == 2
    assert "001.jpg" in capsys.readouterr().err


def test_the_s_key_scores_the_grid_on_the_table_from_the_picture():
    import cv2

    from assistant.live.loop import LiveGame
    from assistant.session import Session
    from vision.detector import Detector

    detector = Detector()
    game = LiveGame(Session.new("poker"), lambda image, previous: detector.detect(image, previous), lambda e: None,
                    hints=False)
    assert "hold the table still" in game.run_command("s")
    photo = cv2.imread(str(FIXTURES / "score_photo" / "grid_tilted.jpg"))
    for frame in range(3):  # the first frame has nothing to compare with: it counts as moving
        game.process(frame, photo)
    answer = game.run_command("s")
    game.finish()
    assert answer.startswith("the grid on the table:") and answer.count(" / ") == 4  # five rows, scored when complete


def test_an_hd_frame_of_any_width_is_read_at_a_size_the_detector_takes():
    import numpy as np

    from assistant.live.app import _reader

    read = _reader(None, 1)
    result = read(np.full((480, 854, 3), 90, np.uint8), None)  # 854 wide: read at 832, a multiple of 32
    assert result.cards == []


def test_a_camera_that_is_not_there_is_one_plain_line_without_opencvs_own_log():
    """OpenCV logs its own '[ERROR:0@0.04] ... Camera index out of range' on stderr (below Python, where capsys
    cannot see it): a separate process shows what the player sees."""
    import shutil
    import subprocess
    import sys

    patience = shutil.which("patience", path=str(Path(sys.executable).parent)) or shutil.which("patience")
    out = subprocess.run([patience, "play", "poker", "--source", "9", "--headless", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [out.stderr.strip()] and "camera 9 cannot be opened" in out.stderr


def test_the_camera_benchmark_judges_a_four_at_a_time_move_by_its_card_not_its_hand_position():
    """From the hand, the camera learns the cards in the order they are laid, not the order turned: the same
    card placed on the same pile is the same move whatever its hand index."""
    truth = {"game": "tommy", "fps": 15, "result": {"won": False, "foundation_cards": 0},
             "events": [{"event": "card", "card": "5s", "still_frame": 10},
                        {"event": "card", "card": "Kd", "still_frame": 20},
                        {"event": "move", "card": "5s", "move": "S1>W0", "still_frame": 20},
                        {"event": "move", "card": "Kd", "move": "S0>W1", "still_frame": 20}]}
    seen = [{"event": "card", "card": "5s", "frame": 12}, {"event": "card", "card": "Kd", "frame": 22},
            {"event": "move", "card": "5s", "move": "S0>W0", "frame": 22},
            {"event": "move", "card": "Kd", "move": "S0>W1", "frame": 23},
            {"event": "result", "won": False, "foundation_cards": 0}]
    assert compare(truth, seen)["exact"]
    wrong_pile = seen[:3] + [{**seen[3], "move": "S0>W2"}] + seen[4:]
    assert compare(truth, wrong_pile)["wrong"] == 1


def test_a_four_at_a_time_clip_is_followed_batch_by_batch_from_the_row_beside_the_stock(capsys):
    """The real reader on a rendered clip: each batch's four cards turned as they are laid in the row, then each
    placed as it moves to its pile, and the waste top played up after."""
    clip = FIXTURES / "game_clip_tommy_four.mp4"
    truth = json.loads(clip.with_suffix(".json").read_text())
    events = play_json(capsys, "tommy", clip, "--variant", "four-at-a-time", "--no-hints")
    report = compare(truth, events)
    assert report["exact"], report
    assert report["moves_right"] == report["moves"] == 9
