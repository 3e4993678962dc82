"""``patience demo``: the app deals a seeded game of each and plays it itself in the live panel.

The cards are called by the app (seeded shuffles) and every move is the advisor's best, so the demo
shows what the assistant would tell a player at each step. It needs no camera, network or input.
"""

from __future__ import annotations

import time


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("demo", help="watch the advisors play a seeded game of each (no camera needed)",
                              description=__doc__)
    p.add_argument("--game", choices=["tommy", "poker", "both"], default="both", help="which game (default both)")
    p.add_argument("--seed", type=int, default=2026, help="the deal's seed (default 2026)")
    p.add_argument("--tommy-variant", default="standard", help="Sir Tommy variant (default standard)")
    p.add_argument("--poker-variant", default="american", help="Poker Patience variant (default american)")
    p.add_argument("--budget-ms", type=float, default=300.0, help="thinking time per decision (default 300 ms)")
    p.add_argument("--delay", type=float, default=0.15, help="pause after each move in seconds, to watch (default 0.15)")
    p.set_defaults(func=run)


def run(args) -> int:
    from rich.console import Console

    from assistant.cli import UserError
    from assistant.session import Session

    console = Console()
    games = ["tommy", "poker"] if args.game == "both" else [args.game]
    lines = []
    for game in games:
        variant = args.tommy_variant if game == "tommy" else args.poker_variant
        try:
            session = Session.new(game, variant, args.seed)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        try:
            autoplay(session, console, budget_ms=args.budget_ms, delay=args.delay)
        except NoAdvice as exc:
            raise UserError(str(exc)) from None
        lines.append(session.result_line())
    console.print()
    for line in lines:
        console.print(f"[bold]{line}[/]")
    return 0


class NoAdvice(Exception):
    """The advisor cannot answer for this game or variant."""


def autoplay(session, console, *, budget_ms: float, delay: float) -> None:
    """Play ``session`` to the end: the caller turns, the advisor's best option is played, the panel updates."""
    from assistant.hints import hint_for
    from assistant.panel.game_panel import game_panel
    from assistant.panel.live_view import live_panel
    from assistant.warmup import wait_ready

    message = "dealing..."
    with live_panel(game_panel(session, message=message), console, refresh_per_second=20, transient=False) as live:
        while not session.is_over:
            # A Sir Tommy option already holds the plays up that follow a placement (holding a card back
            # included), so whenever a card can be turned there is nothing left to decide first.
            if session.needs_card():
                card = session.turn()
                message = f"turned {card}"
                live.update(game_panel(session, message=message))
                continue
            wait_ready(what=session, on_wait=lambda text: live.update(game_panel(session, message=text)))
            hint = hint_for(session, budget_ms=budget_ms)
            if hint is None or not hint.options:
                raise NoAdvice(f"no advisor can play {session.game} ({session.variant}) yet")
            live.update(game_panel(session, hint=hint, message=message))
            best = hint.options[0]
            for move in best.moves:
                session.play(move)
            message = f"played {best.text}"
            live.update(game_panel(session, hint=hint, message=message))
            if delay:
                time.sleep(delay)
        live.update(game_panel(session))

