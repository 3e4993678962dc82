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
        table.add_row(option.move, *option.values, style=style)
    return table


def game_panel(session, hint=None, message: str | None = None, title: str | None = None) -> Panel:
    state = session.state
    if session.game == "tommy":
        layout = tommy_layout(state)
        name = f"Sir Tommy - {session.variant}"
    else:
        cells = set()
        if hint is not None and hint.options and not session.is_over:
            from assistant.session import parse_cell

            p = parse_cell(hint.options[0].move)
            cells = {(p.row, p.col)}
        layout = poker_layout(state, cells)
        name = f"Poker Patience - {state.rules.describe()}"
        if state.current is not None:
            layout = Group(Text.assemble("card to place: ", (state.current.pretty, "bold red" if state.current.suit.is_red else "bold")), layout)
    parts = [layout]
    if hint is not None and hint.options and not session.is_over:
        parts += [Text(""), hint_table(hint)]
        if hint.note:
            parts.append(Text(hint.note, style="dim"))
    if session.is_over:
        parts += [Text(""), Text(session.result_line(), style="bold")]
    if message:
        parts += [Text(""), Text.from_markup(message)]
    subtitle = f"seed {session.seed} (the app calls the cards)" if session.seed is not None else None
    return Panel(Group(*parts), title=title or name, subtitle=subtitle, expand=False)
