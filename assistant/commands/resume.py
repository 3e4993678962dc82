"""``patience resume``: continue the last game from its save (written after every action)."""

from __future__ import annotations

from pathlib import Path


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("resume", help="continue the last saved game", description=__doc__)
    p.add_argument("--file", type=Path, help="a save file (default: the last game)")
    p.add_argument("--budget-ms", type=float, default=500.0, help="thinking time for each hint (default 500 ms)")
    p.add_argument("--no-hints", action="store_true", help="play without the advisor")
    p.set_defaults(func=run)


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.commands.play import play_loop, save_session
    from assistant.saves import SaveError, read_save
    from assistant.session import Session

    try:
        data = read_save(args.file)
        session = Session.from_save(data["game"], data["state"], data["meta"], saver=save_session)
    except SaveError as exc:
        raise UserError(str(exc)) from None
    except ValueError as exc:
        raise UserError(f"the save cannot be read back ({exc}); start a new game with `patience play`") from None
    return play_loop(session, hints=not args.no_hints, budget_ms=args.budget_ms)
