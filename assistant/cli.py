"""The ``patience`` command: one sub-command per module in assistant.commands.

Each command module exposes ``add_parser(subparsers)`` (registers its arguments and sets ``func``)
and a ``run(args) -> int``; modules are imported when the CLI starts, and heavy imports
(numba kernels, onnxruntime) happen inside ``run`` so ``patience --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from assistant import __version__

# Order here is the order in --help.
COMMANDS = ["demo", "play", "resume", "contest", "deal", "score", "score-photo", "shuffle-photo", "bench", "review", "stats", "detect", "dataset", "train"]


class UserError(Exception):
    """An error caused by the user's input: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="patience",
        description="Patience Lens: hints, scoring and card recognition for Sir Tommy and Poker Patience.",
    )
    parser.add_argument("--version", action="version", version=f"patience-lens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module_name = f"assistant.commands.{name.replace('-', '_')}"  # score-photo -> score_photo.py
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue  # command not built yet
            raise
        module.add_parser(sub)
        if name in sub.choices:
            _fill_descriptions(sub.choices[name], module.__doc__)
    return parser


def _fill_descriptions(parser: argparse.ArgumentParser, doc: str | None) -> None:
    """``--help`` of every command says what it does: a command without a description gets its module's
    docstring (examples kept as written), a sub-command without one its help line."""
    if parser.description is None and doc:
        parser.description = doc
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for sub_name, sub_parser in action.choices.items():
                if sub_parser.description is None and helps.get(sub_name):
                    sub_parser.description = helps[sub_name][:1].upper() + helps[sub_name][1:] + "."


#: Commands whose advisors are prepared in the background as soon as they start (assistant.warmup).
WARMUP_COMMANDS = ("demo", "play", "resume", "contest")


def _start_advisor_warmup(args) -> None:
    """A command that gives hints starts preparing the advisors at once, while the player sets up: on a first
    run numba compiles them for a minute or more (assistant.warmup says so with a spinner where a hint waits)."""
    if args.command not in WARMUP_COMMANDS or getattr(args, "no_hints", False):
        return
    from assistant.warmup import start_warmup

    game = getattr(args, "game", None)
    start_warmup(first=game if game in ("tommy", "poker") else None)


def interrupted_message() -> str:
    """What Ctrl-C prints: when a game is running, that it is saved and how to go on (every action is saved)."""
    saves = sys.modules.get("assistant.saves")
    running = saves.running_game() if saves is not None else None
    if running is None or running.game_id is None:
        return "interrupted"
    return f"interrupted - the game is saved ({running.game_id}): continue with `patience resume`"


def parse_with_trailing_files(parser, argv: list[str] | None):
    """``parser.parse_args``, but a command whose files may come after its options (``trailing_files``: the name of
    its list of files) also takes ``score-photo a.jpg --draw out b.jpg``; anything else left over is argparse's
    usual error."""
    args, extra = parser.parse_known_args(argv)
    where = getattr(args, "trailing_files", None)
    if extra and where and not any(e.startswith("-") and e != "-" for e in extra):
        getattr(args, where).extend(extra)
        return args
    return parser.parse_args(argv) if extra else args


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse_with_trailing_files(parser, argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    _start_advisor_warmup(args)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"patience {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted_message(), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
