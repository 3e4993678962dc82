"""``patience bench replay LOG...``: check benchmark logs move by move in the rules engines.

    patience bench replay runs/tommy.jsonl                        # Sir Tommy logs ("moves")
    patience bench replay runs/english.jsonl --rules english      # Poker logs ("placements"), scored as English
    patience bench replay runs/shuffle.jsonl --rules american-shuffle

Every game is played again from its deck: each Sir Tommy move must be legal where it is made (a placement turns
the next card first) and the game must be over at the end, with the recorded ``won`` and ``foundation_cards``;
each Poker placement must be legal (cell free; next to a card under "only next to a card") and the finished
grid must score the recorded ``score`` under ``--rules``. Prints what was checked and the figures recomputed from
the log; exit status 1 when any game fails (each failure is named with its line number).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from assistant.stats import mean_interval, wilson_interval


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG", help="benchmark logs (one JSON object per game and line)")
    parser.add_argument("--variant", default="standard",
                        help="Sir Tommy rules preset for games whose record names none (default standard)")
    parser.add_argument("--rules", default="american",
                        help="Poker rules preset the games were played under: american, english, american-adjacent, "
                             "english-adjacent, american-shuffle, english-shuffle (default american)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def check_tommy(record: dict, default_variant: str) -> str | None:
    """None when the Sir Tommy game replays legally to its end with the recorded result, else what is wrong."""
    from assistant.advisors.tommy_solver import replay

    try:
        state = replay(record.get("variant", default_variant), record["deck"], record["moves"], record.get("turned"))
    except StopIteration:
        return "a placement needs a card after the stock is used up"
    except Exception as exc:  # IllegalMoveError, CardError, ValueError: all mean the log is not a legal game
        return f"{type(exc).__name__}: {exc}"
    if not state.is_terminal():
        return "the game is not over after the last move (cards still to turn or to play up)"
    if bool(record["won"]) != state.is_won():
        return f"recorded won={record['won']}, replayed won={state.is_won()}"
    if int(record["foundation_cards"]) != state.foundation_cards():
        return f"recorded {record['foundation_cards']} foundation cards, replayed {state.foundation_cards()}"
    return None


def check_poker(record: dict, rules) -> tuple[str | None, int]:
    """(None or what is wrong, replayed score) for a Poker Patience / Poker Shuffle game."""
    from assistant.games.poker import PokerState

    state = PokerState(rules)
    try:
        deck, cells = record["deck"], record["placements"]
        if len(deck) != 25 or len(cells) != 25:
            return f"{len(deck)} cards and {len(cells)} placements, expected 25 of each", 0
        if rules.shuffle:  # all 25 laid out first, then each card to its cell (placements in deck order)
            for card in deck:
                state.turn(card)
            for card, (row, col) in zip(deck, cells):
                state.place((row, col), card)
        else:
            for card, (row, col) in zip(deck, cells):
                state.turn(card)
                state.place((row, col))
    except Exception as exc:  # IllegalMoveError, CardError, ValueError: not a legal game
        return f"{type(exc).__name__}: {exc}", 0
    score = state.score().total
    if int(record["score"]) != score:
        return f"recorded score {record['score']}, replayed {score}", score
    return None, score


def read_records(path: Path) -> list[tuple[int, dict]]:
    """(line number, record) for every non-blank line; a line that is not a JSON object is a UserError."""
    from assistant.cli import UserError

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UserError(f"{path}: cannot read the log ({exc.strerror or exc})") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(rec, dict) or "deck" not in rec or not ({"moves", "placements"} & rec.keys()):
            raise UserError(f"{path}:{n}: not a benchmark record (needs 'deck' and 'moves' or 'placements')")
        out.append((n, rec))
    return out


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.games.poker import PokerRules
    from assistant.games.tommy_rules import TommyRules

    try:
        poker_rules = PokerRules.preset(args.rules)
        TommyRules.preset(args.variant)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    failures: list[str] = []
    total = tommy_games = tommy_wins = 0
    foundation: list[float] = []
    scores: list[float] = []
    for name in args.logs:
        path = Path(name)
        for n, rec in read_records(path):
            total += 1
            if "moves" in rec:
                tommy_games += 1
                problem = check_tommy(rec, args.variant)
                if problem is None:
                    tommy_wins += bool(rec["won"])
                    foundation.append(float(rec["foundation_cards"]))
            else:
                problem, score = check_poker(rec, poker_rules)
                if problem is None:
                    scores.append(float(score))
            if problem is not None:
                failures.append(f"{path}:{n}: {problem}")
    summary: dict = {"logs": list(args.logs), "games": total, "failed": len(failures), "failures": failures[:20]}
    if tommy_games:
        low, high = wilson_interval(tommy_wins, len(foundation)) if foundation else (0.0, 0.0)
        summary["sir_tommy"] = {"games": tommy_games, "legal": len(foundation), "wins": tommy_wins,
                                "win_rate": tommy_wins / len(foundation) if foundation else 0.0,
                                "win_rate_95": [low, high],
                                "mean_foundation_cards": sum(foundation) / len(foundation) if foundation else 0.0}
    if scores:
        mean, low, high = mean_interval(scores)
        summary["poker"] = {"rules": poker_rules.name, "legal": len(scores), "mean_score": mean,
                            "mean_score_95": [low, high]}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['games']} games replayed, {summary['failed']} failed")
        if tommy_games:
            t = summary["sir_tommy"]
            print(f"Sir Tommy: {t['legal']} legal games, {t['wins']} won = {t['win_rate']:.1%} "
                  f"(95% {t['win_rate_95'][0]:.1%}-{t['win_rate_95'][1]:.1%}), "
                  f"{t['mean_foundation_cards']:.1f} foundation cards on average")
        if scores:
            p = summary["poker"]
            print(f"Poker ({p['rules']}): {p['legal']} legal games, mean score {p['mean_score']:.1f} "
                  f"(95% {p['mean_score_95'][0]:.1f}-{p['mean_score_95'][1]:.1f})")
        for f in failures[:20]:
            print(f"  {f}")
        if len(failures) > 20:
            print(f"  ... and {len(failures) - 20} more")
    return 1 if failures else 0
