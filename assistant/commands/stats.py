"""``patience stats``: every finished game kept on this computer: games, wins, streaks, recent win rates, scores.

Sir Tommy: the win rate over all games and over the last 50 and 100 deals (rules 002/003: "Spelers houden soms
het winstpercentage bij over 50 tot 100 giften"), streaks and the mean cards on the foundations. Poker Patience:
mean, best and last score, and how often the win mark (200 American / 70 English) was reached. ``--plot FILE.png``
draws the score and win-rate history (needs matplotlib: ``pip install 'patience-lens[plot]'``).
"""

from __future__ import annotations

import json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("stats", help="your statistics: games, wins, streaks, win rate, Poker scores",
                              description=__doc__)
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument("--lang", help="language: en, de, nl or it (default: from the locale)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the score and win-rate history into this image")
    p.set_defaults(func=run)


def summary(records) -> list[dict]:
    """One group per game and variant, in the order first played, with its figures (each game's own: its kind's
    ``record_summary``)."""
    from assistant.games.kinds import GAME_KINDS
    from assistant.records import streaks

    groups: dict[tuple[str, str], list] = {}
    for r in records:
        groups.setdefault((r.game, r.variant), []).append(r)
    out = []
    for (game, variant), rows in groups.items():
        won = [r.won for r in rows]
        s = streaks(won)
        g = {"game": game, "variant": variant, "games": len(rows), "wins": sum(won),
             "win_rate": sum(won) / len(rows), "longest_streak": s.longest_won, "current_streak": s.current}
        g.update(GAME_KINDS[game].record_summary(rows))
        out.append(g)
    return out


def text_lines(groups: list[dict], lang: str) -> list[str]:
    from assistant.coach.i18n import percent, tr
    from assistant.games.kinds import GAME_KINDS

    if not groups:
        return [tr(lang, "stats.none")]
    lines = []
    for g in groups:
        if lines:
            lines.append("")
        lines.append(tr(lang, "stats.header", game=tr(lang, f"game.{g['game']}"), variant=g["variant"]))
        lines.append(tr(lang, "stats.games", n=g["games"], wins=g["wins"], rate=percent(lang, g["win_rate"])))
        cur = g["current_streak"]
        now = tr(lang, "stats.streak.won" if cur > 0 else "stats.streak.lost", n=abs(cur))
        lines.append(tr(lang, "stats.streaks", best=g["longest_streak"], current=now))
        lines += GAME_KINDS[g["game"]].summary_lines(lang, g)
    return lines


def plot(records, path: str, lang: str) -> None:
    """Sir Tommy's win rate over the last 50 deals and Poker scores, game by game, into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from assistant.coach.i18n import tr
    from assistant.games.kinds import GAME_KINDS

    by_game = [(kind, [r for r in records if r.game == name]) for name, kind in GAME_KINDS.items()]
    panels = [(kind, rows) for kind, rows in by_game if rows] or [(None, [])]
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 3.2 * len(panels)), squeeze=False)
    for ax, (kind, rows) in zip(axes[:, 0], panels):
        if rows:
            kind.plot_history(ax, rows, lang)
        ax.set_xlabel(tr(lang, "stats.plot.game"))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.coach.i18n import check_lang, tr
    from assistant.records import load_records

    try:
        lang = check_lang(args.lang)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    records = load_records()
    groups = summary(records)
    if args.json:
        print(json.dumps({"groups": groups}, ensure_ascii=False))
    else:
        print("\n".join(text_lines(groups, lang)))
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UserError(tr(lang, "stats.plot.missing")) from None
        plot(records, args.plot, lang)
        if not args.json:
            print(tr(lang, "stats.plot.saved", path=args.plot))
    return 0
