"""``patience bench tips``: what each tip of the rules is worth on its own, played by a player who knows only tips.

The tips player values each legal choice by the tips it follows (+1) and breaks (-1), using the tips' raw checks
(assistant.coach.tips_tommy / tips_poker), and takes the best, ties broken at random (seeded). Sir Tommy: a choice
is the turned card's placement followed by every play up (so every player plays up after placing; whether the
turned card itself goes up is the ``play-up`` tip's business); the end of the deal is played up greedily. Poker:
a choice is a cell. Runs: no tip (random choice), each tip alone, all tips, and all tips but one (what the tip
adds to the others). Sir Tommy's ``--tie-break rule`` breaks the tips' ties by the advisor's rollout rule instead
of at random, so "no tip" is that rule alone and each row says what a tip adds to it (or takes away). Deal i is ``deal_order(seed * 1000003 + i)``; the tie-break generator of deal i is seeded
with i, so a run is reproducible move for move.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from assistant.benchmarks import common

VALUES_FILE = Path(__file__).resolve().parent.parent / "coach" / "tip_values.json"


def add_arguments(parser) -> None:
    parser.add_argument("--game", choices=("tommy", "poker", "both"), default="both", help="which game's tips")
    parser.add_argument("--deals", type=int, default=300, help="deals per player (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="deal seed (default 1)")
    parser.add_argument("--scoring", choices=("american", "english", "both"), default="both",
                        help="Poker points table (default both)")
    parser.add_argument("--no-ablation", action="store_true", help="skip the 'all tips but one' players")
    parser.add_argument("--tie-break", choices=("random", "rule"), default="random",
                        help="Sir Tommy: among the choices the tips like best, pick at random (default) or by the "
                             "advisor's rollout rule (best fit; what the tips add to it)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    parser.add_argument("--save", action="store_true",
                        help=f"write the figures to {VALUES_FILE.relative_to(VALUES_FILE.parents[2])} for the coach")
    parser.set_defaults(func=run)


# -- players ------------------------------------------------------------------------------------------------


def _choose(rng, candidates, scores):
    best = max(scores)
    ties = [c for c, s in zip(candidates, scores) if s == best]
    return ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]


def _tip_score(tips, state, move) -> int:
    total = 0
    for tip in tips:
        v = tip.check(state, move)
        if v is not None:
            total += 1 if v.follows else -1
    return total


def _rule_key(state, moves) -> tuple:
    """The advisor's rollout rule as a tie-break (best fit, empty piles kept for when no top is >= the card,
    equal ranks penalised; ``tommy_advisor._rule_cost``), then more plays up: larger is better."""
    from assistant.advisors import tommy_kernels as K
    from assistant.advisors.tommy_advisor import _rule_cost

    first = moves[0]
    if first.target == "F":
        cost = -5.0
    else:
        cost = _rule_cost(state.hand[0].index, tuple(c.index for c in state.waste[first.target_index]),
                          K.DEFAULT_WEIGHTS)
    return (-cost, len(moves))


def play_tommy(deck, tips, rng, tie_break: str = "random") -> tuple[bool, int]:
    """One deal of Sir Tommy (standard rules) by the tips player; (won, cards on the foundations).
    ``tie_break``: among the choices the tips like best, "random" or "rule" (the advisor's rollout rule)."""
    from assistant.coach.tips_tommy import alternatives, play_up
    from assistant.games.tommy import TommyState

    state = TommyState("standard", order=deck)
    while not state.is_terminal():
        if state.hand:
            cands = alternatives(state)
            scores = [_tip_score(tips, state, c) for c in cands]
            if tie_break == "rule":
                scores = [(s, _rule_key(state, c)) for s, c in zip(scores, cands)]
            choice = _choose(rng, cands, scores)
            for m in choice:
                state.apply(m)
            continue
        plays = play_up(state)
        for m in plays:
            state.apply(m)
        if state.needs_card():
            state.turn_next()
        elif not plays:
            break
    r = state.result()
    return r.won, r.foundation_cards


def play_poker(deck, tips, rng, scoring: str) -> int:
    from assistant.games.poker import PokerRules, PokerState

    state = PokerState(PokerRules(scoring))
    for card in deck[:25]:
        state.turn(card)
        cells = state.legal_cells()
        state.place(_choose(rng, cells, [_tip_score(tips, state, c) for c in cells]))
    return state.score().total


# -- runs ---------------------------------------------------------------------------------------------------


def players(all_tips, ablation: bool) -> list[tuple[str, tuple]]:
    out = [("no tip (random)", ())]
    out += [(t.name, (t,)) for t in all_tips]
    out.append(("all tips", tuple(all_tips)))
    if ablation:
        out += [(f"all but {t.name}", tuple(x for x in all_tips if x is not t)) for t in all_tips]
    return out


def run_tommy(deals: int, seed: int, ablation: bool, tie_break: str = "random") -> list[dict]:
    from assistant.coach.tips_tommy import TIPS

    decks = common.seeded_deals(deals, seed)
    rows = []
    for name, tips in players(TIPS, ablation):
        wins = cards = 0
        for i, deck in enumerate(decks):
            won, up = play_tommy(deck, tips, np.random.Generator(np.random.PCG64(i)), tie_break)
            wins += won
            cards += up
        lo, hi = common.wilson_interval(wins, deals)
        rows.append({"player": name, "deals": deals, "wins": wins, "win_rate": wins / deals, "ci95": [lo, hi],
                     "mean_cards": cards / deals, "tie_break": tie_break})
    return rows


def run_poker(deals: int, seed: int, scoring: str, ablation: bool) -> list[dict]:
    from assistant.coach.tips_poker import TIPS

    decks = common.seeded_deals(deals, seed)
    threshold = 200 if scoring == "american" else 70
    rows = []
    for name, tips in players(TIPS, ablation):
        scores = [play_poker(deck, tips, np.random.Generator(np.random.PCG64(i)), scoring)
                  for i, deck in enumerate(decks)]
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1))
        half = 1.96 * sd / math.sqrt(len(scores))
        rows.append({"player": name, "deals": deals, "scoring": scoring, "mean_score": mean,
                     "ci95": [mean - half, mean + half], "reached": sum(s >= threshold for s in scores)})
    return rows


def run(args) -> int:
    from assistant.cli import UserError

    if args.deals < 1:
        raise UserError("--deals must be at least 1")
    result: dict = {"deals": args.deals, "seed": args.seed}
    if args.game in ("tommy", "both"):
        result["tommy" if args.tie_break == "random" else "tommy_rule"] = run_tommy(
            args.deals, args.seed, not args.no_ablation, args.tie_break)
    if args.game in ("poker", "both"):
        for scoring in (("american", "english") if args.scoring == "both" else (args.scoring,)):
            result[f"poker_{scoring}"] = run_poker(args.deals, args.seed, scoring, not args.no_ablation)
    if args.json:
        print(json.dumps(result))
    else:
        for key, rows in result.items():
            if not isinstance(rows, list):
                continue
            print(f"\n{key} ({args.deals} deals, seed {args.seed})")
            for r in rows:
                if "win_rate" in r:
                    print(f"  {r['player']:<34} {100 * r['win_rate']:5.1f}% "
                          f"({100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%)  cards {r['mean_cards']:.1f}")
                else:
                    print(f"  {r['player']:<34} {r['mean_score']:6.1f} ({r['ci95'][0]:.1f}-{r['ci95'][1]:.1f})  "
                          f"reached {r['reached']}")
    if args.save:
        save_values(result)
    return 0


def save_values(result: dict) -> None:
    """Keep what each tip achieves alone and what it adds to the others, for the coach (tip_values.json):
    ``{"tommy": {"deals", "none", "all", "tips": {name: {"alone", "without"}}}, "poker_american": ..., ...}`` with
    win rates for Sir Tommy and mean scores for Poker."""
    values = json.loads(VALUES_FILE.read_text()) if VALUES_FILE.exists() else {}
    for key, rows in result.items():
        if not isinstance(rows, list):
            continue
        metric = "win_rate" if key.startswith("tommy") else "mean_score"
        entry = {"deals": rows[0]["deals"], "seed": result.get("seed"), "tips": {}}
        for r in rows:
            x = round(r[metric], 4 if metric == "win_rate" else 1)
            name = r["player"]
            if name == "no tip (random)":
                entry["none"] = x
            elif name == "all tips":
                entry["all"] = x
            elif name.startswith("all but "):
                entry["tips"].setdefault(name[len("all but "):], {})["without"] = x
            else:
                entry["tips"].setdefault(name, {})["alone"] = x
        values[key] = entry
    VALUES_FILE.write_text(json.dumps(values, indent=1, sort_keys=True) + "\n")


def main(argv=None) -> int:  # ``python -m assistant.benchmarks.tips`` (same arguments as ``patience bench tips``)
    import argparse

    parser = argparse.ArgumentParser(prog="python -m assistant.benchmarks.tips", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
