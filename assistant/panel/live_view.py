"""A live panel that ends its last line: rich's ``Live`` writes its final frame without a newline when the output
is not a terminal (``patience demo > out.txt``), so the next panel started on the same line."""

from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def live_panel(renderable, console, **live_options):
    """``rich.live.Live`` over ``renderable`` (yielded, for ``update``); on leaving, the output ends with a
    newline whether or not the console is a terminal."""
    from rich.live import Live

    live = Live(renderable, console=console, **live_options)
    with live:
        yield live
    if not console.is_terminal and not live_options.get("transient", False):
        console.line()
