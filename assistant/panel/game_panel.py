"""The whole assistant panel: the layout, the advisor's hint and a message line, in one rich Panel."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text



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


def game_panel(session, hint=None, message: str | None = None, title: str | None = None) -> Panel:
    kind = session.kind
    name = f"{kind.title} - {kind.describe(session.state, session.variant)}"
    parts = [kind.layout(session.state, hint)]
    if hint is not None and hint.options and not session.is_over:
        parts += [Text(""), *hint_parts(hint)]
    if session.is_over:
        parts += [Text(""), Text(session.result_line(), style="bold")]
    if message:
        parts += [Text(""), Text.from_markup(message)]
    subtitle = f"seed {session.seed} (the app calls the cards)" if session.seed is not None else None
    return Panel(Group(*parts), title=title or name, subtitle=subtitle, expand=False)
