"""The Sir Tommy layout as a rich renderable: foundations on top, the four waste piles fanned below.

Under the old strict rule (hidden piles) buried waste cards show as ``##``: the player must remember them.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from assistant.games.tommy import TommyState
from assistant.panel.cards_text import card_text


def tommy_layout(state: TommyState) -> Group:
    view = state.player_view()
    found = Table.grid(padding=(0, 2))
    for _ in range(4):
        found.add_column(justify="center", min_width=5)
    found.add_row(*[Text(f"F{i}", style="dim") for i in range(4)])
    found.add_row(*[card_text(p[-1] if p else None, 4) for p in view.foundations])
    found.add_row(*[Text(f"{len(p)}/{state.rules.foundation_size}", style="dim") for p in view.foundations])

    piles = Table.grid(padding=(0, 2))
    for _ in range(4):
        piles.add_column(justify="center", min_width=5)
    piles.add_row(*[Text(f"W{i}", style="dim") for i in range(4)])
    depth = max((len(p) for p in view.waste), default=0)
    for row in range(max(depth, 1)):
        cells = []
        for pile in view.waste:
            if row < len(pile):
                cell = card_text(pile[row], 4, hidden=pile[row] is None)
                if row == len(pile) - 1:
                    cell.stylize("underline")
                cells.append(cell)
            else:
                cells.append(Text("" if row else "  · ", style="dim"))
        piles.add_row(*cells)

    status = Text()
    if view.hand:
        status.append("turned: ")
        for i, c in enumerate(view.hand):
            if i:
                status.append(" ")
            status.append_text(card_text(c, 0))
        status.append("   ")
    status.append(f"stock: {view.stock_count}", style="dim")
    if state.rules.redeals:
        status.append(f"   redeals left: {view.redeals_left}", style="dim")
    status.append(f"   on foundations: {state.foundation_cards()}/{state.rules.cards_in_play}", style="bold")
    return Group(found, Text(""), piles, Text(""), status)
