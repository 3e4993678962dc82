"""A contest at a glance: every player's layout side by side (wrapping to the next line when the terminal is
narrow), the player to act framed in bold, the caller's card on top, and the ranking table at the end."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from assistant.panel.cards_text import cards_text
from assistant.panel.game_panel import hint_parts


def game_title(contest) -> str:
    kind = contest.kind
    return f"{kind.title} contest - {kind.describe(contest.seats[0].state, contest.variant)}"


def call_line(contest) -> Text:
    """``call 7 of 52: the caller turns Q♥``, or the state after the last call."""
    if contest.is_over:
        return Text(f"all {len(contest.order)} cards called - the contest is over", style="bold")
    if contest.all_called and contest.kind.plays_out:
        return Text(f"all {len(contest.order)} cards called: each player plays the game out in turn", style="bold")
    line = Text(f"call {contest.call_number} of {contest.calls_total}: the caller turns ", style="bold")
    return line.append_text(cards_text(contest.last_call()))


def seat_status(contest, seat) -> Text:
    current = contest.current
    if seat.finished:
        return Text(f"finished: {contest.result_text(seat)}", style="bold")
    if seat is current:
        return Text("to play", style="bold yellow")
    if seat.turn_done and not contest.all_called:
        return Text("done, waiting for the next card", style="dim")
    return Text("waiting", style="dim")


def seat_panel(contest, seat) -> Panel:
    """One player's layout in a frame; bold yellow for the player to act."""
    body = contest.kind.seat_layout(seat.state)
    is_current = seat is contest.current
    return Panel(
        Group(body, Text(""), seat_status(contest, seat)),
        title=Text(seat.name, style="bold"),
        border_style="bold yellow" if is_current else "dim",
        expand=False,
    )


def standings_table(contest) -> Table:
    """The ranking: place, player, result (equal results share a place)."""
    over = contest.is_over
    table = Table(title=Text("Result" if over else "Standing so far", style="bold"), title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    points, won = contest.kind.result_columns(contest.seats[0].state)
    table.add_column(points, justify="right")
    table.add_column(won)
    for s in contest.standings():
        style = "bold green" if s.place == 1 and over else ""
        table.add_row(str(s.place), Text(s.name), str(s.points), "yes" if s.won else "no", style=style)
    return table


def contest_panel(contest, hint=None, message: str | Text | None = None) -> Panel:
    """The whole table: the call, every layout, the current player's hint (when there is one) and a message."""
    parts: list = [call_line(contest), Text("")]
    parts.append(Columns([seat_panel(contest, s) for s in contest.seats], padding=(0, 1)))
    if hint is not None and hint.options and contest.current is not None:
        parts += [Text(""), Text(f"hint for {contest.current.name}", style="cyan"), *hint_parts(hint)]
    if contest.is_over:
        parts += [Text(""), standings_table(contest)]
    if message:
        parts += [Text(""), message if isinstance(message, Text) else Text.from_markup(message)]
    return Panel(Group(*parts), title=game_title(contest),
                 subtitle=f"seed {contest.seed}: replay with --seed {contest.seed}", expand=False)
