"""The Poker Patience square as a rich table, with each finished row's and column's hand and points."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from assistant.games.poker import Placement, PokerState
from assistant.panel.cards_text import card_text, cards_text


def _line_text(line) -> Text:
    if not line.complete:
        return Text("")
    if not line.points:
        return Text("-", style="dim")
    return Text(f"{line.category.label} {line.points}", style="green")


def poker_layout(state: PokerState, highlight: set[tuple[int, int]] | None = None) -> Table:
    """The 5x5 grid; ``highlight`` marks cells (row, col) the advisor suggests."""
    score = state.score()
    highlight = highlight or set()
    table = Table(show_header=True, header_style="dim", box=None, padding=(0, 1))
    table.add_column("")
    for c in range(5):
        table.add_column(f"c{c + 1}", justify="center", min_width=4)
    table.add_column("row hand", justify="left", min_width=12)
    for r, row in enumerate(state.grid):
        cells = []
        for c, card in enumerate(row):
            t = card_text(card, 4)
            if (r, c) in highlight:
                t = Text("[ ]" if card is None else t.plain, style="bold reverse yellow")
            cells.append(t)
        table.add_row(Text(f"r{r + 1}", style="dim"), *cells, _line_text(score.rows[r]))
    table.add_row(Text(""), *[_line_text(col) for col in score.columns], Text(f"total {score.total}", style="bold"))
    return table


def hinted_cell(hint) -> tuple[int, int] | None:
    """(row, col) of the best option's Poker cell, read from the option's Placement value."""
    if hint is None or not hint.options or not hint.options[0].moves:
        return None
    try:
        p = Placement.coerce(hint.options[0].moves[0])
    except ValueError:
        return None
    return p.row, p.col


def poker_panel_layout(state: PokerState, hint=None):
    """The assistant panel's square: the hint's cell marked while the game goes on, the card to place on top."""
    cell = None if state.is_terminal() else hinted_cell(hint)
    layout = poker_layout(state, {cell} if cell else set())
    if state.current is not None:
        layout = Group(Text.assemble("card to place: ", (state.current.pretty, "bold red" if state.current.suit.is_red else "bold")), layout)
    return layout


def poker_seat_layout(state: PokerState):
    """A contest player's square, under the called card(s) still to place."""
    body = poker_layout(state)
    if state.current is not None:
        body = Group(Text("card to place: ").append_text(cards_text(state.pending)), body)
    return body
