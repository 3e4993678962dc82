"""Progress on stderr: plain lines when it is not a terminal (issue 11: `patience bench ... 2>err` stayed silent)."""

import io

from assistant.benchmarks.common import run_games
from assistant.progress import BarProgress, PlainProgress, progress


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_off_a_terminal_progress_is_plain_lines_with_the_time_left():
    out = io.StringIO()
    clock = FakeClock()
    with PlainProgress("games", 100, out, every_s=30, clock=clock) as bar:
        for _ in range(100):
            clock.t += 2.7  # 4.5 minutes in all
            bar.advance()
    lines = out.getvalue().splitlines()
    assert lines[0] == "games: 0/100 started" and lines[-1] == "games: 100/100 (100%), 4:30 elapsed"
    assert "games: 10/100 (10%), 0:27 elapsed, about 4:03 left" in lines
    assert 10 <= len(lines) <= 25  # a line every tenth or 30 s, not one per game


def test_a_slow_run_prints_a_line_at_least_every_30_seconds():
    out, clock = io.StringIO(), FakeClock()
    with PlainProgress("games", 10, out, every_s=30, clock=clock) as bar:
        for _ in range(3):
            clock.t += 40
            bar.advance()
    assert len(out.getvalue().splitlines()) == 4


def test_the_bar_is_kept_for_a_terminal_and_lines_for_a_file():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert isinstance(progress("x", 3, Tty()), BarProgress)
    assert isinstance(progress("x", 3, io.StringIO()), PlainProgress)


def test_benchmarks_report_progress_in_plain_lines_when_stderr_is_a_file(capsys):
    assert run_games(lambda t: {"t": t}, list(range(5)), label="deals") == [{"t": t} for t in range(5)]
    err = capsys.readouterr().err
    assert err.startswith("deals: 0/5 started\n") and "deals: 5/5 (100%)" in err
