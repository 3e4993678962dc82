"""``patience resume [ID|FILE]``: continue a saved game (every game is saved after every action, in a file of
its own). Without an argument: the unfinished game saved last. ``--list`` shows every saved game, finished
ones too (they are kept for statistics)."""

from __future__ import annotations

from pathlib import Path


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("resume", help="continue a saved game (default: the last unfinished one)",
                              description=__doc__)
    p.add_argument("game", nargs="?", metavar="ID|FILE",
                   help="the game's id as --list shows it (or the start of it), or a save file")
    p.add_argument("--list", action="store_true", help="list the saved games, newest last, and exit")
    p.add_argument("--file", type=Path, help="a save file (same as giving FILE)")
    p.add_argument("--budget-ms", type=float, help="thinking time for each hint (default 500 ms typed, 250 ms with "
                   "--source)")
    p.add_argument("--no-hints", action="store_true", help="play without the advisor")
    from assistant.commands.play import add_camera_arguments

    add_camera_arguments(p)  # --source: continue with the camera (a camera game continues typed without it)
    p.set_defaults(func=run)


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.commands.play import play_loop
    from assistant.saves import SaveError, find_game, read_save, resume_saver
    from assistant.session import Session

    if args.list:
        if args.game or args.file:
            raise UserError("--list lists every saved game: leave out the game")
        print_list()
        return 0
    if args.game and args.file:
        raise UserError("name the game once: ID|FILE or --file")
    try:
        if args.file is not None:
            data = read_save(args.file)
        elif args.game:
            data = read_save(find_game(args.game).path)
        else:
            data = read_save()
        if data.get("finished"):
            raise UserError(f"that game is over ({data.get('result') or 'finished'}): start a new one with "
                            "`patience play`, or `patience resume --list` for the unfinished ones")
        session = Session.from_save(data["game"], data["state"], data["meta"], saver=resume_saver(data))
    except SaveError as exc:
        raise UserError(str(exc)) from None
    except ValueError as exc:
        raise UserError(f"the save cannot be read back ({exc}); start a new game with `patience play`") from None
    if data.get("recovered_from"):
        from rich.console import Console

        Console().print(f"The save {data['path']} was damaged: continuing from its backup (the action before "
                        "the last may have to be made again).", highlight=False)
        session.save()  # the recovered game goes back to its main file at once
    if args.source:
        from assistant.commands.play import run_camera

        return run_camera(args, Session, session=session)
    if args.json or args.headless or args.show:
        raise UserError("--json, --headless and --show go with --source")
    return play_loop(session, hints=not args.no_hints, budget_ms=args.budget_ms or 500.0)


def print_list() -> None:
    """The saved games as a table: id, game, variant, started, last saved, state (result line)."""
    from rich.console import Console
    from rich.table import Table

    from assistant.saves import list_games, save_dir

    console = Console()
    games = list_games()
    if not games:
        console.print(f"No saved games in {save_dir()}: start one with `patience play tommy --manual`.", highlight=False)
        return
    table = Table(title=f"Saved games ({save_dir()})", title_justify="left")
    for name in ("id", "game", "variant", "started", "last saved", "state"):
        table.add_column(name)
    for g in games:
        state = f"finished: {g.result}" if g.finished else "unfinished"
        table.add_row(g.id, g.game, g.variant, g.started.replace("T", " ")[:16], g.updated.replace("T", " ")[:16],
                      state, style="" if g.finished else "bold")
    console.print(table)
    console.print("Continue one with `patience resume ID`; without an ID, the last unfinished one.", highlight=False)
