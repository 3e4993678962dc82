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
    """One group per game and variant, in the order first played, with its figures."""
    from assistant.records import last_rate, streaks

    groups: dict[tuple[str, str], list] = {}
    for r in records:
        groups.setdefault((r.game, r.variant), []).append(r)
    out = []
    for (game, variant), rows in groups.items():
        won = [r.won for r in rows]
        s = streaks(won)
        g = {"game": game, "variant": variant, "games": len(rows), "wins": sum(won),
             "win_rate": sum(won) / len(rows), "longest_streak": s.longest_won, "current_streak": s.current}
        if game == "tommy":
            for n in (50, 100):
                w, k = last_rate(won, n)
                g[f"last_{n}"] = {"wins": w, "games": k, "rate": w / k}
            g["mean_foundation_cards"] = sum(r.foundation_cards or 0 for r in rows) / len(rows)
        else:
            scores = [r.score or 0 for r in rows]
            g.update(mean_score=sum(scores) / len(scores), best_score=max(scores), last_score=scores[-1],
                     threshold=rows[-1].threshold, reached=sum(won))
        out.append(g)
    return out


def text_lines(groups: list[dict], lang: str) -> list[str]:
    from assistant.coach.i18n import number, percent, tr

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
        if g["game"] == "tommy":
            for n in (50, 100):
                x = g[f"last_{n}"]
                lines.append(tr(lang, "stats.last", n=n, rate=percent(lang, x["rate"]), wins=x["wins"], games=x["games"]))
            lines.append(tr(lang, "stats.foundation", x=number(lang, g["mean_foundation_cards"])))
        else:
            lines.append(tr(lang, "stats.scores", mean=number(lang, g["mean_score"]), best=g["best_score"],
                            last=g["last_score"]))
            lines.append(tr(lang, "stats.threshold", threshold=g["threshold"], n=g["reached"], games=g["games"],
                            rate=percent(lang, g["win_rate"])))
    return lines


def plot(records, path: str, lang: str) -> None:
    """Sir Tommy's win rate over the last 50 deals and Poker scores, game by game, into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from assistant.coach.i18n import tr
    from assistant.records import rolling_rate

    tommy = [r for r in records if r.game == "tommy"]
    poker = [r for r in records if r.game == "poker"]
    panels = [p for p in (tommy, poker) if p] or [[]]
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 3.2 * len(panels)), squeeze=False)
    for ax, rows in zip(axes[:, 0], panels):
        if rows and rows[0].game == "tommy":
            ax.plot(range(1, len(rows) + 1), [100 * x for x in rolling_rate([r.won for r in rows], 50)])
            ax.set_ylabel(tr(lang, "stats.plot.winrate") + " (%)")
            ax.set_title(tr(lang, "game.tommy"))
        elif rows:
            ax.plot(range(1, len(rows) + 1), [r.score or 0 for r in rows], marker=".")
            for t in sorted({r.threshold for r in rows if r.threshold}):
                ax.axhline(t, linestyle="--", linewidth=0.8)
            ax.set_ylabel(tr(lang, "stats.plot.score"))
            ax.set_title(tr(lang, "game.poker"))
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
