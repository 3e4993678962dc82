"""``patience contest tommy|poker --players Ann,Bob``: several players at one table, each with their own deck.

The app is the caller: it calls each card of a seeded shuffle (``--seed N``, or a random seed printed at the
start so the deal can be replayed), every player finds that card in their own deck and places it, and the next
card is called once everyone has placed the current one. Sir Tommy (002: "wedstrijd tussen twee spelers met
identiek geschudde stokken"): place the called card (w2 / f0), play waste tops up if you like (W1>F0), then Enter
or "done"; after the last card each player plays the game out. Poker Patience (004, Mehrere Spieler: "Einer
mischt und sagt jede aufgedeckte Karte an"): type the cell (r1c3 or 13); once everyone has placed, Enter has the
caller turn the next card, and until then u takes the latest placement back (u NAME: that player's). Saved after
every action in
contest.json next to the last game: ``patience contest --resume`` continues. At the end, the ranking.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable

CONTEST_FILE = "contest.json"

HELP = (
    "Sir Tommy: w2 / f0 place the called card (S>W2, S>F0), W1>F0 plays a waste top up, Enter or done ends your "
    "turn - Poker: r1c3 or 13 (Poker Shuffle: Qh r1c3), Enter once everyone has placed: the next card - "
    "u: undo the last action since the call (Poker: u Ann takes back Ann's placement) - h: this help - q: save and quit"
)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "contest", help="several players, each with their own deck, on one shuffle the app calls", description=__doc__,
    )
    p.add_argument("game", nargs="?", choices=["tommy", "poker"], help="tommy (Sir Tommy) or poker (Poker Patience)")
    p.add_argument("--players", help="the players' names, separated by commas: Ann,Bob")
    p.add_argument("--seed", type=int, help="the shuffle to call (default: a random one, printed so it can be replayed)")
    p.add_argument("--variant", help="rules variant, as for `patience play` (Sir Tommy: standard, four-at-a-time, ...; "
                   "Poker: american, english, american-adjacent, ..., american-shuffle)")
    p.add_argument("--resume", action="store_true", help="continue the saved contest")
    p.add_argument("--file", type=Path, help=f"the contest save (default: {CONTEST_FILE} next to the last game)")
    p.add_argument("--budget-ms", type=float, default=500.0, help="thinking time for each hint (default 500 ms)")
    p.add_argument("--no-hints", action="store_true", help="play without the advisor")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on stdout "
                   "(the table and prompts go to stderr)")
    p.set_defaults(func=run)


def contest_path(args=None) -> Path:
    from assistant.saves import save_dir

    given = getattr(args, "file", None)
    return given if given is not None else save_dir() / CONTEST_FILE


def save_contest(contest, path: Path) -> None:
    from assistant.saves import write_save

    write_save(contest.game, contest.to_dict(), {"kind": "contest"}, path=path)


def load_contest(path: Path, saver=None):
    """The saved contest; UserError (one line) when it is missing or cannot be read back."""
    from assistant.cli import UserError
    from assistant.contest import Contest
    from assistant.saves import SaveError, read_save

    if not path.exists():
        raise UserError(f"no contest saved at {path}: start one with `patience contest tommy --players Ann,Bob`")
    backup = path.with_suffix(path.suffix + ".bak")
    keep = f"; the previous save is kept: `patience contest --resume --file {backup}`" if backup.exists() else ""
    try:
        data = read_save(path, use_backup=False)  # a damaged contest save is reported; the player picks the .bak
        return Contest.from_dict(data["state"], saver=saver)
    except SaveError:
        raise UserError(f"the contest save {path} is corrupt{keep}") from None
    except ValueError as exc:
        raise UserError(f"the contest save {path} cannot be read back ({exc}){keep}") from None


def run(args) -> int:
    from rich.console import Console

    from assistant.cli import UserError
    from assistant.contest import Contest

    console = Console(stderr=True) if args.json else Console()
    prompt_stream = sys.stderr if args.json else sys.stdout
    path = contest_path(args)
    saver = lambda c: save_contest(c, path)  # noqa: E731
    if args.resume:
        if args.game or args.players or args.seed is not None or args.variant:
            raise UserError("--resume continues the saved contest: leave out the game, --players, --seed and --variant")
        contest = load_contest(path, saver)
        console.print(f"Contest resumed from {path}.")
    else:
        if not args.game:
            raise UserError("name the game (tommy or poker), or --resume to continue the saved contest")
        if not args.players:
            raise UserError("name the players: --players Ann,Bob")
        if args.seed is not None and args.seed < 0:
            raise UserError(f"the seed must be 0 or more, got {args.seed}")
        seed = args.seed
        if seed is None:
            from assistant.deals import make_rng

            seed = int(make_rng(None).integers(1_000_000))
        replaced = _unfinished(path)
        try:
            contest = Contest.new(args.game, args.players.split(","), seed, args.variant, saver=saver)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        how = "given" if args.seed is not None else "random"
        console.print(f"[bold]Seed {seed}[/] ({how}): replay the same deal with "
                      f"[bold]patience contest {args.game} --seed {seed}[/]", highlight=False)
        if replaced:
            console.print(f"An unfinished contest was replaced; it is kept as {path.name}.bak.")
    code = contest_loop(contest, console=console, hints=not args.no_hints, budget_ms=args.budget_ms,
                        read_line=lambda prompt: _stdin_line(prompt, prompt_stream))
    if args.json:
        print(json.dumps(contest.result()))
    return code


def _unfinished(path: Path) -> bool:
    """Whether ``path`` holds a contest that is not over (a new one replaces it)."""
    from assistant.contest import Contest
    from assistant.saves import read_save

    if not path.exists():
        return False
    try:
        return not Contest.from_dict(read_save(path)["state"]).is_over
    except ValueError:
        return False


def contest_loop(contest, *, hints: bool = True, budget_ms: float = 500.0, console=None,
                 read_line: Callable[[str], str | None] | None = None) -> int:
    """Show the table, ask the current player, apply, save - until the contest is over or someone quits."""
    from rich.console import Console

    from assistant.panel.contest_view import contest_panel, standings_table

    console = console or Console()
    read_line = read_line or (lambda prompt: _stdin_line(prompt, sys.stdout))
    message = f"Saved as you go. {HELP}"
    while True:
        if contest.is_over:
            console.print(contest_panel(contest, message=message))
            winners = contest.winners()
            console.print(f"[bold]{_names(winners)} win{'s' if len(winners) == 1 else ''} the contest.[/]"
                          if len(winners) < len(contest.seats) else "[bold]A tie: every player shares first place.[/]")
            return 0
        seat = contest.current
        if hints and seat is not None:
            from assistant.warmup import wait_ready

            wait_ready(console, seat.session)  # a spinner while a first run still compiles the advisor
        hint = _hint(seat.session, budget_ms) if hints and seat is not None else None
        console.print(contest_panel(contest, hint=hint, message=message))
        line = read_line(prompt(contest))
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            console.print(standings_table(contest))
            console.print("Contest saved. Continue with [bold]patience contest --resume[/].")
            return 0
        message = act(contest, line.strip())


def prompt(contest) -> str:
    """What the current player is asked for."""
    seat = contest.current
    if seat is None:  # Poker: everyone has placed; the caller waits so that a placement can be taken back
        what = "the next card" if not contest.all_called else "the result"
        return f"everyone has placed: Enter for {what} (u takes the last placement back, u NAME a player's)> "
    return contest.kind.contest_prompt(seat.name, seat.state, contest.all_called)


def act(contest, line: str) -> str:
    """Apply one line of the current player's input; returns the message (rich markup) for the next table.
    A bad input is one line and changes nothing."""
    from rich.markup import escape

    from assistant.contest import card_or_none

    seat = contest.current
    low = line.lower()
    try:
        words = line.split()
        if words and words[0].lower() in ("u", "undo") and len(words) <= 2:
            who = contest._undo_seat(words[1] if len(words) == 2 else None).name
            undone = contest.undo(who)
            return f"{escape(who)}: undone {escape(str(undone))}" + (
                f"; {escape(who)} to play" if contest.current is not None and contest.current.name == who
                and contest.current is not seat else "")
        if low in ("h", "help", "?"):
            return HELP
        if seat is None:  # waiting for the caller
            if not line or low in ("d", "done", "n", "next"):
                return escape(contest.call_next()) + _next_player(contest)
            return "[red]everyone has placed: Enter for the next card, or u to take a placement back[/]"
    except ValueError as exc:
        return f"[red]{escape(str(exc))}[/]"
    st = seat.state
    kind = contest.kind
    name = escape(seat.name)
    before = (seat, contest.called)
    try:
        own_turn = kind.plays_out and contest.all_called and st.needs_card() and not st.hand
        if not line or low in ("d", "done"):
            if not line and own_turn and len(st.chance_outcomes()) == 1:
                return f"{name} turned {escape(str(contest.turn_own()))}"
            if kind.caller_waits:  # placing ends the turn: there is nothing to end by hand
                return f"[red]place {escape(' '.join(map(str, seat.hand())))}: {kind.place_help}[/]"
            what = contest.done()
            return escape(what) + _news(contest, before, finished=False)
        card = card_or_none(line)
        if card is not None and own_turn:
            return f"{name} turned {escape(str(contest.turn_own(card)))}"
        if card is not None:
            called = " ".join(map(str, seat.hand() or contest.last_call()))
            return f"[red]the caller turned {escape(called)} for everyone: place it ({kind.place_help})[/]"
        parts = line.split(maxsplit=1)
        if kind.move_names_card and len(parts) == 2 and card_or_none(parts[0]) is not None:
            done = contest.play(parts[1], card=parts[0])
        else:
            done = contest.play(line)
        return f"{name}: {escape(done)}" + _news(contest, before)
    except ValueError as exc:  # CardError, IllegalMoveError, ContestError, parse errors: nothing changed
        return f"[red]{escape(str(exc))}[/]"


def _news(contest, before, finished: bool = True) -> str:
    """What followed the action: a finished game, the next player, a new call."""
    from rich.markup import escape

    seat, called = before
    out = ""
    if seat.finished and finished:
        out += f". {escape(seat.name)} has finished: {escape(contest.result_text(seat))}"
    if contest.called != called:
        out += f". The caller turns {escape(' '.join(map(str, contest.last_call())))} for everyone"
    nxt = contest.current
    if nxt is not None and nxt is not seat:
        out += f". {escape(nxt.name)} to play"
    if contest.waiting_for_call:
        out += ". Everyone has placed: Enter for the " + ("next card" if not contest.all_called else "result") + \
               " (u takes the placement back)"
    return out + ("." if out else "")


def _next_player(contest) -> str:
    from rich.markup import escape

    nxt = contest.current
    return f". {escape(nxt.name)} to play." if nxt is not None else "."


def _names(names: list[str]) -> str:
    from rich.markup import escape

    names = [escape(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _hint(session, budget_ms: float):
    from assistant.hints import hint_for

    return hint_for(session, budget_ms=budget_ms)


def _stdin_line(prompt_text: str, stream) -> str | None:
    """One line of input; the prompt goes to ``stream`` (stderr with --json, so stdout stays the result)."""
    try:
        if sys.stdin.isatty():
            stream.write(prompt_text)
            stream.flush()
            return input()
        stream.write(prompt_text)
        stream.flush()
        line = sys.stdin.readline()
        if not line:
            stream.write("\n")
            return None
        stream.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")
    except EOFError:
        return None
