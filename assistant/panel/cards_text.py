"""Cards as rich Text: red suits in red, black in bold white, so a glance tells the colour."""

from __future__ import annotations

from rich.text import Text

from assistant.cards import Card


def card_text(card: Card | None, width: int = 3, hidden: bool = False) -> Text:
    """One card, padded to ``width``; None prints as a dim dot, hidden as ``##``."""
    if hidden:
        return Text("##".rjust(width), style="dim")
    if card is None:
        return Text("·".rjust(width), style="dim")
    style = "bold red" if card.suit.is_red else "bold"
    return Text(card.pretty.rjust(width), style=style)


def cards_text(cards, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c, width=0))
    return out
