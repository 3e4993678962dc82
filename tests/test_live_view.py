"""Panels written to a file stay apart (issue 11: `patience demo > out.txt` joined two panels on one line)."""

import io

from rich.console import Console
from rich.panel import Panel

from assistant.panel.live_view import live_panel


def test_two_live_panels_in_a_file_start_on_lines_of_their_own():
    console = Console(file=io.StringIO(), width=40, color_system=None)
    assert not console.is_terminal
    for name in ("Sir Tommy", "Poker"):
        with live_panel(Panel("...", title=name), console) as live:
            live.update(Panel("done", title=name))
    lines = console.file.getvalue().splitlines()
    assert sum(line.startswith("╭") for line in lines) == 2
    assert not any("╯╭" in line for line in lines) and console.file.getvalue().endswith("\n")
