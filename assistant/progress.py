"""Progress of long runs on stderr: a rich bar on a terminal, plain lines when stderr is a file or a pipe.

A rich bar redrawn in place is invisible in ``2>err`` until the run ends (it writes nothing but the final state);
plain lines (``games: 40/100 (40%), 1:52 elapsed, about 2:48 left``), at most one every ``every_s`` seconds and
every tenth of the work, show that a long benchmark is alive and when it will end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class PlainProgress:
    """Progress as plain lines: "started", then one line per tenth of the work or after ``every_s`` seconds
    without one (whichever comes first), and the last step."""

    def __init__(self, label: str, total: int, stream: TextIO, every_s: float = 30.0, clock=time.monotonic):
        self.label, self.total, self.stream, self.every_s, self.clock = label, total, stream, every_s, clock
        self.done = 0
        self.start = clock()
        self.last_line_at = self.start  # the "started" line
        self.last_line_done = 0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        tenth = max(1, self.total // 10)
        due = (self.done >= self.total or self.done - self.last_line_done >= tenth
               or now - self.last_line_at >= self.every_s)
        if due:
            self._line(now)

    def _line(self, now: float) -> None:
        elapsed = now - self.start
        text = f"{self.label}: {self.done}/{self.total}"
        if self.total:
            text += f" ({100 * self.done / self.total:.0f}%)"
        text += f", {_clock(elapsed)} elapsed"
        if 0 < self.done < self.total:
            text += f", about {_clock(elapsed / self.done * (self.total - self.done))} left"
        print(text, file=self.stream, flush=True)
        self.last_line_at, self.last_line_done = now, self.done

    def __enter__(self) -> "PlainProgress":
        print(f"{self.label}: 0/{self.total} started", file=self.stream, flush=True)
        return self

    def __exit__(self, *exc) -> None:
        pass


class BarProgress:
    """The rich bar (a terminal): label, bar, done/total, elapsed, remaining."""

    def __init__(self, label: str, total: int, stream: TextIO):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn())
        self.progress = Progress(*columns, console=Console(file=stream), transient=False)
        self.label, self.total = label, total

    def __enter__(self) -> "BarProgress":
        self.progress.__enter__()
        self.task = self.progress.add_task(self.label, total=self.total)
        return self

    def advance(self, n: int = 1) -> None:
        self.progress.advance(self.task, n)

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)


def progress(label: str, total: int, stream: TextIO | None = None):
    """A context manager with ``advance(n=1)``: the rich bar when ``stream`` (default stderr) is a terminal,
    plain lines otherwise."""
    stream = stream or sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        return BarProgress(label, total, stream)
    return PlainProgress(label, total, stream)
