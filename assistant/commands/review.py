"""``patience review [GAME]``: after a game, the decisions that cost the most, the better move, and the tip.

GAME is a saved game's id or file (``patience resume --list`` shows them), or ``tommy`` / ``poker`` for the last
game of that kind; with nothing, the last game saved.
Every decision is valued again by the advisor with a fixed number of samples (``--samples``) and a fixed seed,
so the same game always gets the same review. For Sir Tommy, when every card was turned, the solver also says
whether the deal could be won with the order known, and how.
"""

from __future__ import annotations

import json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("review", help="review a finished game: costliest decisions and the tips behind them",
                              description=__doc__)
    p.add_argument("game", nargs="?", help="a saved game's id or file, or tommy / poker for the last game of that "
                   "kind (default: the last game saved)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument("--lang", help="language: en, de, nl or it (default: from the locale)")
    p.add_argument("--samples", type=int, help="sampled orders per option and decision (default: Sir Tommy 200, "
                   "Poker 256); more is slower and steadier")
    p.add_argument("--top", type=int, default=5, help="how many decisions to show (default 5)")
    p.add_argument("--solver-nodes", type=int, default=100_000, help="Sir Tommy: search budget of the solver")
    p.set_defaults(func=run)


def load_game(target: str | None) -> dict:
    """The save named by ``target`` -- a game id or file (as ``patience resume`` takes them), ``tommy``/``poker``
    for the last game of that kind, None for the last game saved -- as ``saves.read_save`` returns it."""
    from assistant import saves
    from assistant.cli import UserError

    try:
        if target is None or target in ("tommy", "poker"):
            games = [g for g in saves.list_games() if target is None or g.game == target]
            if not games:
                what = "game" if target is None else f"{target} game"
                raise UserError(f"no saved {what} to review in {saves.save_dir()}: play one with `patience play`")
            return saves.read_save(games[-1].path)
        return saves.read_save(saves.find_game(target).path)
    except saves.SaveError as exc:
        raise UserError(str(exc)) from None


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.coach.i18n import check_lang
    from assistant.coach.review import review_save

    try:
        lang = check_lang(args.lang)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.samples is not None and args.samples < 1:
        raise UserError("--samples must be at least 1")
    if args.top < 1:
        raise UserError("--top must be at least 1")
    data = load_game(args.game)
    try:
        review = review_save(data, lang, args.samples, args.top, args.solver_nodes)
    except ValueError as exc:
        raise UserError(f"cannot review this game: {exc}") from None
    if args.json:
        print(json.dumps(review.to_dict(), ensure_ascii=False))
    else:
        print("\n".join(review.lines))
    return 0
