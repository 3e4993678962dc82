"""``patience demo``: the live assistant follows a bundled video of a real-looking table, no camera needed.

Two short videos ship with the app (``assistant/demo_media``: a Sir Tommy game and a Poker game, rendered from
free card artwork): every frame goes through the whole pipeline (motion gate, card reader, the game followed
move by move, the advisor's hints) in the live panel, and the result is checked against the video's own record.
``--advisor`` instead lets the advisors play a seeded deal by themselves (no video, no card reader).
"""

from __future__ import annotations

import time
from pathlib import Path


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("demo", help="watch the advisors play a seeded game of each (no camera needed)",
                              description=__doc__)
    p.add_argument("--game", choices=["tommy", "poker", "both"], default="both", help="which game (default both)")
    p.add_argument("--seed", type=int, default=2026, help="the deal's seed (default 2026)")
    p.add_argument("--tommy-variant", default="standard", help="Sir Tommy variant (default standard)")
    p.add_argument("--poker-variant", default="american", help="Poker Patience variant (default american)")
    p.add_argument("--budget-ms", type=float, default=300.0, help="thinking time per decision (default 300 ms)")
    p.add_argument("--delay", type=float, default=0.15, help="with --advisor: pause after each move in seconds "
                   "(default 0.15)")
    p.add_argument("--advisor", action="store_true", help="no video: the advisors play a seeded deal by themselves")
    p.add_argument("--no-hints", action="store_true", help="follow the videos without the advisor")
    p.add_argument("--show", action="store_true", help="also a window with the video and the cards read (needs "
                   "OpenCV with windows)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.advisor:
        return run_advisors(args)
    return run_videos(args)


def demo_media() -> Path:
    return Path(__file__).resolve().parents[1] / "demo_media"


def run_videos(args) -> int:
    """Each game's bundled video through the live assistant, then what it saw against the video's record."""
    import json

    from rich.console import Console

    from assistant.cli import UserError
    from assistant.live.app import run_live
    from assistant.session import Session

    console = Console()
    games = ["tommy", "poker"] if args.game == "both" else [args.game]
    lines = []
    for game in games:
        video = demo_media() / f"{game}.mp4"
        truth_file = video.with_suffix(".json")
        if not video.is_file() or not truth_file.is_file():
            raise UserError(f"the demo video {video} is missing: reinstall, or try `patience demo --advisor`")
        truth = json.loads(truth_file.read_text())
        session = Session.new(game, truth.get("variant"))
        console.print(f"[bold]{session.kind.title}[/]: following {video.name} ({truth['frames']} frames, "
                      f"{truth['deck']} deck) ...", highlight=False)
        run_live(session, str(video), hints=not args.no_hints, budget_ms=args.budget_ms, console=console,
                 read_keys=False, show=args.show)
        lines.append(_checked(session, truth))
    console.print()
    for line in lines:
        console.print(line, highlight=False)
    return 0


def _checked(session, truth: dict) -> str:
    """The result line, and whether it is the one the video shows."""
    want = truth["result"]
    same = all(want.get(k) == v for k, v in session.result_json().items())
    verdict = "[green]as in the video[/]" if same else "[red]the video shows another result[/]"
    return f"[bold]{session.result_line()}[/] - {verdict}"


def run_advisors(args) -> int:
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

