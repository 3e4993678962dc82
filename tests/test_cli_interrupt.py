"""Ctrl-C in the middle of a game: the player is told the game is saved and how to go on."""

from assistant import saves
from assistant.cli import main


class TypedThenCtrlC:
    """stdin that yields the typed lines, then the player presses Ctrl-C."""

    def __init__(self, *lines):
        self.lines = list(lines)

    def isatty(self):
        return False

    def readline(self):
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0)


def test_ctrl_c_during_a_game_says_it_is_saved(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    monkeypatch.setattr(saves, "_PROCESS_GAME", None)
    monkeypatch.setattr(saves, "_RUNNING", None)
    monkeypatch.setattr("sys.stdin", TypedThenCtrlC("Qh\n", "w1\n"))
    assert main(["play", "tommy", "--manual", "--no-hints"]) == 130
    err = capsys.readouterr().err
    assert "the game is saved" in err and "patience resume" in err
    assert saves.read_save()["state"]["history"] == ["Qh", "S>W1"]


def test_ctrl_c_with_no_game_running_says_only_interrupted(monkeypatch, capsys):
    monkeypatch.setattr(saves, "_RUNNING", None)
    monkeypatch.setattr("sys.stdin", TypedThenCtrlC())
    monkeypatch.setattr("assistant.commands.score.run", lambda args: (_ for _ in ()).throw(KeyboardInterrupt))
    main(["score", "-"])
    assert capsys.readouterr().err.strip() == "interrupted"
