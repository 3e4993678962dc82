"""``patience play tommy|poker --source S | --manual``: play with a real deck and get hints.

With ``--source`` (a webcam index, a video file, a stream URL or a folder of images) the camera follows the game
by itself: turn the cards, lay them, and the panel shows the layout, the hint and the score, no keyboard needed.
With ``--manual`` you type each card you turn and each move. Either way every action is saved at once, so
``patience resume`` continues after a crash, Ctrl-C or a lost camera.
"""

from __future__ import annotations

import sys
from typing import Callable



def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play a game with a real deck and get hints", description=__doc__,
    )
    p.add_argument("game", choices=["tommy", "poker"], help="tommy (Sir Tommy) or poker (Poker Patience)")
    p.add_argument("--manual", action="store_true", help="type the cards you turn (no camera)")
    add_camera_arguments(p)
    p.add_argument("--variant", help="rules variant (Sir Tommy: standard, aces-out-first, four-at-a-time, old-strict, "
                   "in-suit, strategy, numerica, calculation, puss-in-the-corner, one-redeal; Poker: american, "
                   "english, american-adjacent, english-adjacent, american-shuffle, english-shuffle)")
    p.add_argument("--seed", type=int, help="the app calls the cards of this seeded shuffle (same deal for every player)")
    p.add_argument("--bases", help="Calculation: the A, 2, 3 and 4 you laid out as base cards, e.g. Ad,2c,3h,4s "
                   "(default: the spades; with --source they are read from the table)")
    p.add_argument("--layout", metavar="TEXT", help="Sir Tommy, a game already under way: the foundations' top cards "
                   "and the waste piles (bottom card first), e.g. '3h - As - / Jd 2d | - | - | -' ('-' an empty one; "
                   "'/ Qh' after it: the Qh turned, not placed yet); the game goes on from there (the cards under the "
                   "tops are assumed)")
    p.add_argument("--take-over", metavar="PHOTO", nargs="?", const=True,
                   help="Sir Tommy, a game already under way: read its foundations (the upper row) and waste piles "
                   "(the row below, spread downwards) from a photo of the table; with --source and no PHOTO, from "
                   "the camera's first still view")
    p.add_argument("--budget-ms", type=float, help="thinking time for each hint (default 500 ms typed, 250 ms with "
                   "--source: the hint must follow the card within a second)")
    p.add_argument("--no-hints", action="store_true", help="play without the advisor")
    p.add_argument("--train", action="store_true", help="training mode: the rules' tips behind every hint, and what "
                   "a move other than the hint's cost")
    p.add_argument("--lang", help="language of the coach: en, de, nl or it (default: from the locale)")
    p.set_defaults(func=run)


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.session import Session

    if args.manual and args.source:
        raise UserError("choose one: --source S (the camera follows the game) or --manual (type the cards)")
    if not args.manual and not args.source:
        raise UserError("say how the cards reach the app: --source 0 (webcam 0; or a video file, a stream URL, a "
                        "folder of images) or --manual (type each card)")
    if (args.json or args.headless or args.show) and not args.source:
        raise UserError("--json, --headless and --show go with --source")
    if args.source:
        return run_camera(args, Session)
    session = new_session(args, Session)
    return play_loop(session, hints=not args.no_hints, budget_ms=args.budget_ms or 500.0, train=args.train,
                     lang=_lang(args))


def new_session(args, Session, meta: dict | None = None):
    """A new game as the options say, saved once it is set up: an option refused leaves no game behind."""
    from assistant.cli import UserError

    try:
        session = Session.new(args.game, args.variant, getattr(args, "seed", None), meta=meta)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    lay_out_bases(session, getattr(args, "bases", None))
    take_over(session, args)
    session.saver = new_game_saver()
    session.save()
    return session


def lay_out_bases(session, text: str | None) -> None:
    """``--bases``: Calculation's base cards as the player laid them out: the game starts on them."""
    from assistant.cli import UserError

    if not text:
        return
    state = session.state
    if session.game != "tommy" or not state.rules.calculation:
        raise UserError("--bases goes with Sir Tommy's Calculation (--variant calculation)")
    if session.seed is not None:
        raise UserError("--bases and --seed: a seeded deal sets out its own base cards (see patience deal)")
    try:
        session.state = state.with_bases(text.replace(",", " ").split())
    except ValueError as exc:
        raise UserError(f"--bases: {exc}") from None


def take_over(session, args) -> None:
    """``--layout`` / ``--take-over PHOTO``: the game starts from a Sir Tommy table already under way."""
    from assistant.cli import UserError
    from assistant.games.tommy import TommyState
    from assistant.take_over import parse_layout

    text, photo = getattr(args, "layout", None), getattr(args, "take_over", None)
    if not text and not photo:
        return
    if text and photo:
        raise UserError("choose one: --layout (the table typed) or --take-over PHOTO (read from a photo)")
    if session.game != "tommy":
        raise UserError("--layout and --take-over go with Sir Tommy (the camera reads a Poker grid under way card by "
                        "card)")
    if session.seed is not None or getattr(args, "bases", None):
        raise UserError("--layout and --take-over start from the table: not with --seed or --bases")
    try:
        layout = parse_layout(text) if text else _layout_from_photo(photo, args)
        session.state = TommyState.from_table(session.state.rules, layout.tops, layout.waste)
        if layout.turned is not None:
            session.state.turn(layout.turned)
    except ValueError as exc:
        raise UserError(f"{'--layout' if text else '--take-over'}: {exc}") from None


def _layout_from_photo(photo: str, args):
    """The table read from ``photo``, shown (stderr with --json) and, typing at a terminal, confirmed or retyped."""
    from pathlib import Path

    from assistant.cli import UserError
    from assistant.commands.detect import read_image, table_reader
    from assistant.take_over import parse_layout, read_layout

    if photo is True:
        if not getattr(args, "source", None):
            raise UserError("--take-over without a PHOTO reads the table from the camera: add --source S, or give "
                            "a photo")
        image, photo = _still_view(args.source), f"the camera ({args.source})"
    else:
        try:
            image = read_image(Path(photo))
        except ValueError as exc:
            raise UserError(f"{photo}: {exc}") from None
    reader = table_reader(getattr(args, "model", None), getattr(args, "threads", None))
    layout = read_layout(reader, image)
    out = sys.stderr if getattr(args, "json", False) else sys.stdout
    print(f"read from {photo}: {layout.text()}", file=out)
    for note in layout.notes:
        print(f"  note: {note}", file=out)
    if getattr(args, "manual", False) and sys.stdin.isatty():
        typed = input("Enter to play on from it, or type the table as it lies (foundations / waste piles): ").strip()
        if typed:
            return parse_layout(typed)
    else:
        print(f"  (a card read wrong: start again with --layout '{layout.text()}' corrected)", file=out)
    return layout


STILL_WAIT_FRAMES = 150  # a camera whose picture never settles: its view after this many frames is read


def _still_view(spec):
    """The first view of the source ``spec`` in which the table has been still a moment, to read it whole."""
    from assistant.cli import UserError
    from vision.motion import MotionGate
    from vision.video import SourceError, open_source

    try:
        source = open_source(spec)
    except SourceError as exc:
        raise UserError(str(exc)) from None
    gate, image = MotionGate(), None
    try:
        for frame in source:
            image = frame.image
            if not gate.update(image).moving or frame.index + 1 >= STILL_WAIT_FRAMES:
                break
    except SourceError as exc:
        raise UserError(str(exc)) from None
    finally:
        source.close()
    if image is None:
        raise UserError(f"no picture came from {spec}: check the camera")
    return image


def _lang(args) -> str | None:
    from assistant.cli import UserError
    from assistant.coach.i18n import check_lang

    try:
        return check_lang(getattr(args, "lang", None))
    except ValueError as exc:
        raise UserError(str(exc)) from None


def run_camera(args, Session, session=None) -> int:
    """The live assistant on ``args.source`` (a new game, or ``session`` to continue one)."""
    from rich.console import Console

    from assistant.live.app import run_live

    if session is None:
        session = new_session(args, Session, meta={"source": str(args.source)})
    console = None if args.headless else Console()
    return run_live(session, args.source, as_json=args.json, headless=args.headless, show=args.show,
                    hints=not getattr(args, "no_hints", False), budget_ms=getattr(args, "budget_ms", None) or 250.0,
                    save=session.saver, model_dir=args.model, threads=args.threads, console=console,
                    train=getattr(args, "train", False), lang=_lang(args) if getattr(args, "train", False) else None)


def new_game_saver():
    """Every game in a file of its own, saved after every action (assistant.saves)."""
    from assistant.saves import new_game_saver as saver

    return saver()


def add_camera_arguments(p) -> None:
    """The camera options, shared by ``play`` and ``resume``."""
    p.add_argument("--source", metavar="S", help="the camera: a webcam index (0), a video file, a stream URL (a phone "
                   "as webcam) or a folder of images (name order)")
    p.add_argument("--headless", action="store_true", help="with --source: no panel (use with --json)")
    p.add_argument("--json", action="store_true", help="with --source: one JSON object per line and event "
                   "(card, hint, move, undo, warning, result), each with the frame it was decided on; an undo "
                   "takes back the last card or move")
    p.add_argument("--show", action="store_true", help="with --source: a window with the video, the cards read "
                   "and the suggested place (needs OpenCV with windows)")
    p.add_argument("--model", metavar="DIR", help="card recognition models (default: the committed models/)")
    p.add_argument("--threads", type=int, help="threads for the card reader (default 2)")


def play_loop(session, *, hints: bool = True, budget_ms: float = 500.0, console=None,
              read_line: Callable[[str], str | None] | None = None, train: bool = False,
              lang: str | None = None) -> int:
    """Show, ask, apply, save - until the game is over or the player quits. Returns an exit code.
    ``train``: the rules' tips behind every hint, and what a move other than the hint's cost (assistant.coach)."""
    from types import SimpleNamespace

    from rich.console import Console

    from assistant.help_texts import session_help
    from assistant.panel.game_panel import game_panel
    from assistant.warmup import wait_ready

    console = console or Console()
    read_line = read_line or _stdin_line
    message = f"Saved as you go. {session_help(session)}"
    while True:
        hint = None
        if (hints or train) and not session.is_over:
            wait_ready(console, session)
            hint = _hint(session, budget_ms)
        if train and hint is not None:
            from assistant.coach.coach import coach_notes

            notes = coach_notes(session, hint, lang)
            if notes:
                message = "\n".join([message, *notes])
        console.print(game_panel(session, hint=hint, message=message))
        if session.is_over:
            record_finished(session)
            console.print(f"[bold]{session.result_line()}[/] (see the mistakes that mattered: patience review)")
            return 0
        line = read_line(_prompt(session))
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            console.print(f"Game saved. Continue with [bold]patience resume[/]. {session.result_line()}")
            return 0
        before = SimpleNamespace(game=session.game, state=session.state.clone())
        message, played = _act(session, line.strip())
        if train and hint is not None and played is not None:
            from assistant.coach.coach import move_cost

            cost = move_cost(before, hint, played, lang)
            if cost:
                message = f"{message}\n[yellow]{cost}[/]"


def record_finished(session) -> None:
    """A finished game goes into the statistics (patience stats); a disk problem never ends a game."""
    import sqlite3

    from assistant.records import record_finished_game

    try:
        record_finished_game(session)
    except (OSError, sqlite3.Error, ValueError) as exc:
        print(f"the game could not be added to the statistics: {exc}", file=sys.stderr)


def _prompt(session) -> str:
    if session.needs_card():
        caller = session.called_card() is not None or (session.seed is not None and session.game == "tommy")
        return "Enter for the next card, or a move> " if caller else "card turned (or a move)> "
    return "your move> "


def _act(session, line: str) -> tuple[str, str | None]:
    """Apply one line of input through ``Session.handle``; returns the message for the next panel (a refusal is
    one line and the game is unchanged) and the move played, if one was."""
    from assistant.cards import Card, CardError
    from assistant.events import Turn, Undo
    from assistant.help_texts import not_understood, session_help

    low = line.lower()
    if low in ("u", "undo"):
        return _said(session.handle(Undo())), None
    if low in ("h", "hint", "?", "help"):
        return session_help(session), None
    if not line:
        if session.needs_card() and session.seed is not None:
            return _said(session.handle(Turn())), None
        return "type a card or a move (h for help)", None
    try:
        card = Card.parse(line)
    except CardError:
        card = None
    if card is not None:
        if not session.needs_card():
            return f"[red]place the turned card first ({_hand_text(session)}), then turn the next one[/]", None
        expected = session.called_card()
        if expected is not None and expected != card:
            return f"the caller turned {expected}, not {card}: press Enter to take it", None
        return _said(session.handle(Turn(card))), None
    try:
        event = session.parse_move(line)
    except ValueError as exc:
        return f"[red]{not_understood(session.game, line, needs_card=session.needs_card(), reason=str(exc))}[/]", None
    outcome = session.handle(event)
    return (f"played {outcome.applied[-1]}", outcome.applied[-1]) if outcome.ok else (f"[red]{outcome.error}[/]", None)


def _said(outcome) -> str:
    return outcome.message if outcome.ok else f"[red]{outcome.error}[/]"


def _is_card(text: str) -> bool:
    from assistant.cards import Card, CardError

    try:
        Card.parse(text)
        return True
    except CardError:
        return False


def _hand_text(session) -> str:
    return " ".join(str(c) for c in session.hand)


def _hint(session, budget_ms: float):
    from assistant.hints import hint_for

    return hint_for(session, budget_ms=budget_ms)


def _stdin_line(prompt: str) -> str | None:
    try:
        if sys.stdin.isatty():
            return input(prompt)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")
    except EOFError:
        return None
