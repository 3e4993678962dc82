"""Saved games: one file per game, nothing ever overwritten or lost, not even by a crash in the middle of a save."""

import json
import os
from pathlib import Path

import pytest

from assistant import saves
from assistant.saves import (SaveError, find_game, list_games, new_game_saver, read_save, resume_saver,
                             running_game, write_save)
from assistant.session import Session


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    monkeypatch.setattr(saves, "_PROCESS_GAME", None)
    monkeypatch.setattr(saves, "_RUNNING", None)
    return tmp_path


def test_a_new_game_never_replaces_an_unfinished_one():
    """Issue 11: a Sir Tommy game, then a Poker game: both are kept, each in its own file."""
    tommy = Session.new("tommy", saver=new_game_saver())
    tommy.turn("7s")
    tommy.play("w0")
    poker = Session.new("poker", saver=new_game_saver())
    poker.turn("5h")
    games = list_games()
    assert [g.game for g in games] == ["tommy", "poker"]
    assert all(not g.finished for g in games)
    assert read_save(find_game(games[0].id).path)["state"]["history"] == ["7s", "S>W0"]
    assert read_save()["game"] == "poker"  # the default: the unfinished game saved last


def test_the_file_is_named_by_game_and_start_time_and_two_games_in_one_second_get_two_files(home):
    a, b = Session.new("tommy", saver=new_game_saver()), Session.new("tommy", saver=new_game_saver())
    assert a.saver.path != b.saver.path
    for s in (a, b):
        assert s.saver.path.parent == home / "games"
        assert s.saver.path.name.startswith("tommy-20") and s.saver.path.suffix == ".json"


def test_a_finished_game_is_kept_and_marked_for_statistics():
    s = Session.new("poker", seed=3, saver=new_game_saver())
    while not s.is_over:
        s.turn()
        s.play(str(s.state.legal_cells()[0]))
    (game,) = list_games()
    assert game.finished and "points" in game.result
    assert saves.latest_unfinished() is None
    with pytest.raises(SaveError, match="no unfinished saved game"):
        read_save()


def test_a_resumed_game_goes_on_in_its_own_file():
    s = Session.new("tommy", saver=new_game_saver())
    s.turn("Qh")
    data = read_save()
    again = Session.from_save(data["game"], data["state"], data["meta"], saver=resume_saver(data))
    again.play("w1")
    assert len(list_games()) == 1
    assert read_save()["state"]["history"] == ["Qh", "S>W1"]
    assert read_save()["started"] == data["started"]


def test_a_crash_before_the_last_rename_keeps_the_previous_save(monkeypatch):
    """The new content is complete in a temporary file before it replaces the save in one atomic rename."""
    s = Session.new("tommy", saver=new_game_saver())
    s.turn("Qh")
    path = s.saver.path
    real_replace = os.replace

    def crash_on_the_final_rename(src, dst):
        if Path(dst) == path:
            raise KeyboardInterrupt("power cut")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash_on_the_final_rename)
    with pytest.raises(KeyboardInterrupt):
        s.play("w1")
    monkeypatch.setattr(os, "replace", real_replace)
    assert read_save(path)["state"]["history"] == ["Qh"]


def test_the_save_is_never_moved_away_and_a_lost_or_damaged_file_falls_back_to_its_backup():
    """Before the fix the current file was renamed to .bak and a crash before the next rename left no save."""
    s = Session.new("tommy", saver=new_game_saver())
    s.turn("Qh")
    s.play("w1")
    path = s.saver.path
    assert json.loads(saves.backup_path(path).read_text())["state"]["history"] == ["Qh"]
    path.write_text('{"format": 1, "game": "tom')  # a torn write
    data = read_save(path)
    assert data["state"]["history"] == ["Qh"] and data["recovered_from"].endswith(".bak")
    path.unlink()  # the state the old code left after a crash between its two renames
    assert read_save()["state"]["history"] == ["Qh"]
    assert [g.id for g in list_games()] == [saves.game_id(path)]


def test_both_copies_damaged_is_a_one_line_error(home):
    path = write_save("tommy", {"history": []}, path=home / "x.json")
    write_save("tommy", {"history": []}, path=path)
    path.write_text("{")
    saves.backup_path(path).write_text("{")
    with pytest.raises(SaveError, match="corrupt.*backup") as err:
        read_save(path)
    assert "\n" not in str(err.value)


def test_an_unknown_or_ambiguous_id_says_what_to_do():
    Session.new("tommy", saver=new_game_saver())
    Session.new("tommy", saver=new_game_saver())
    with pytest.raises(SaveError, match="--list"):
        find_game("poker")
    with pytest.raises(SaveError, match="2 games"):
        find_game("tommy")


def test_the_running_game_is_known_until_it_ends():
    """What Ctrl-C reports as saved: the unfinished game this process is playing."""
    assert running_game() is None
    s = Session.new("poker", seed=1, saver=new_game_saver())
    assert running_game() is s.saver
    while not s.is_over:
        s.turn()
        s.play(str(s.state.legal_cells()[0]))
    assert running_game() is None


def test_an_old_single_save_is_still_listed_and_resumable(home):
    (home / "last-game.json").write_text(json.dumps({"format": 1, "game": "tommy", "state": {"history": []}, "meta": {}}))
    assert [g.id for g in list_games()] == ["last-game"]


def test_platformdirs_gives_the_folder_without_the_override(monkeypatch):
    monkeypatch.delenv("PATIENCE_LENS_HOME")
    import platformdirs

    assert saves.save_dir() == Path(platformdirs.user_data_dir("patience-lens", appauthor=False))
