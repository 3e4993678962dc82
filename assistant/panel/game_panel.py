"""The whole assistant panel: the layout, the advisor's hint and a message line, in one rich Panel."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from assistant.panel.poker_view import poker_layout
from assistant.panel.tommy_view import tommy_layout


def hint_table(hint) -> Table:
    """The advisor's options, best first (a ``assistant.hints.Hint``)."""
    table = Table(title=Text(hint.headline, style="bold cyan"), title_justify="left", box=None, padding=(0, 1))
    table.add_column("move")
    for name in hint.columns:
        table.add_column(name, justify="right")
    for i, option in enumerate(hint.options[:6]):
        style = "bold green" if i == 0 else ""
        table.add_row(option.text, *option.values, style=style)
    return table


def hint_parts(hint) -> list:
    """The hint table, then what its order and columns mean, then the advisor's note (both dim)."""
    parts: list = [hint_table(hint)]
    for line in (getattr(hint, "legend", ""), hint.note):
        if line:
            parts.append(Text(line, style="dim"))
    return parts


def hinted_cell(hint) -> tuple[int, int] | None:
    """(row, col) of the best option's Poker cell, read from the option's Placement value."""
    from assistant.games.poker import Placement

    if hint is None or not hint.options or not hint.options[0].moves:
        return None
    try:
        p = Placement.coerce(hint.options[0].moves[0])
    except ValueError:
        return None
    return p.row, p.col


def game_panel(session, hint=None, message: str | None = None, title: str | None = None) -> Panel:
    state = session.state
    if session.game == "tommy":
        layout = tommy_layout(state)
        name = f"Sir Tommy - {session.variant}"
    else:
        cell = None if session.is_over else hinted_cell(hint)
        layout = poker_layout(state, {cell} if cell else set())
        name = f"Poker Patience - {state.rules.describe()}"
        if state.current is not None:
            layout = Group(Text.assemble("card to place: ", (state.current.pretty, "bold red" if state.current.suit.is_red else "bold")), layout)
    parts = [layout]
    if hint is not None and hint.options and not session.is_over:
        parts += [Text(""), *hint_parts(hint)]
    if session.is_over:
        parts += [Text(""), Text(session.result_line(), style="bold")]
    if message:
        parts += [Text(""), Text.from_markup(message)]
    subtitle = f"seed {session.seed} (the app calls the cards)" if session.seed is not None else None
    return Panel(Group(*parts), title=title or name, subtitle=subtitle, expand=False)
