"""The live panel: the game as the engine sees it, the hint, and how the camera is doing."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from assistant.panel.game_panel import game_panel


def live_panel(game, source_text: str = ""):
    """One rich renderable for ``rich.live.Live``, built from what the worker last published (saved positions)."""
    published = game.published
    status = game.status
    snapshot = published.snapshot
    hint = published.hint
    camera = Text.assemble(
        ("camera ", "dim"), (source_text + "  ", ""),
        (f"{status.fps:4.1f} fps  ", ""),
        ("moving  " if status.moving else "still  ", "yellow" if status.moving else "green"),
        (f"{status.seen} cards in view  ", ""),
        (f"last reading {status.last_reading}  " if status.last_reading else "", "dim"),
        (f"read {status.read_ms:.0f} ms  " if status.read_ms else "", "dim"),
        (status.picture, "yellow"),
    )
    lines = [camera]
    if status.message:
        style = "bold red" if status.message.startswith("table differs") else "yellow"
        lines.append(Text(status.message, style=style))
    recent = [e for e in published.events if e.get("event") in ("card", "move", "warning")][-3:]
    for e in recent:
        lines.append(Text(_describe(e), style="dim"))
    score_key = "s Enter score the grid as a photo - " if game.follower.scores_photo else ""
    missed = "Qh>W0" if game.session.game == "tommy" else "r2c3"
    lines.append(Text("a card read wrong: hold the right one up to the camera - keys: u Enter undo - "
                      "r Qh Enter the card read wrong is the Qh - l Enter learn the layout again - "
                      f"Qh or {missed} Enter a card or move the camera missed - {score_key}q Enter quit (saved)",
                      style="dim"))
    return Group(game_panel(snapshot, hint=hint), *lines)


def _describe(e: dict) -> str:
    if e["event"] == "card":
        return f"frame {e['frame']}: turned {e['card']}"
    if e["event"] == "move":
        where = e.get("move") or "cell r{}c{}".format(*(x + 1 for x in e["cell"]))
        return f"frame {e['frame']}: {e['card']} -> {where}"
    return f"frame {e['frame']}: {e['message']}"
