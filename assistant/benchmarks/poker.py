"""``patience bench poker``: the Poker Patience advisor plays many deals; mean score, win share, time per move.

Each game: the deal's cards are turned one by one, the advisor (assistant.advisors.poker_advisor) picks the cell of
each; the game is scored by the rules engine. The log holds one JSON object per game:
``{"deck": [cards in the order turned], "placements": [[row, col], ...] (0-based, in deal order), "score": int}``.
"""

from __future__ import annotations

import time
from typing import Any

from assistant.benchmarks import common

POLICIES = ("mc", "policy", "greedy")


def add_arguments(parser) -> None:
    common.add_common_arguments(parser, games_flag="--games")
    parser.add_argument("--deals-file", metavar="FILE",
                        help="play these deals instead (one per line: cards in the order turned, space-separated)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what the budget counts: wall time (default) or this process's CPU time (a shared, "
                             "busy machine); the summary reports both")
    parser.add_argument("--scoring", choices=("american", "english"), default="american",
                        help="points table (default american)")
    parser.add_argument("--variant", choices=("adjacent",), default=None,
                        help="adjacent: 'Nur neben eine Karte', every card after the first next to a placed one")
    parser.add_argument("--samples", type=int, default=None,
                        help="sampled card orders per candidate cell instead of a time budget (reproducible work)")
    parser.add_argument("--values", choices=("auto", "deck-aware", "plain", "random-fill"), default="auto",
                        help="line values of the playing policy (default auto: deck-aware where a table exists)")
    parser.add_argument("--lookahead", type=int, default=None, metavar="BEAM",
                        help="beam of the rollouts' two-ply first step (default: the advisor's; 0: one-ply rollouts)")
    parser.add_argument("--policy", choices=POLICIES, default="mc",
                        help="mc: the advisor (default); policy: its bare playing policy, no search; "
                             "greedy: greedy on the random-fill line values (the baseline of ADVISORS.md)")


_WARM: set = set()


def play(task: dict) -> dict:
    """Play one deal; returns the log record plus the per-decision milliseconds."""
    import numpy as np

    from assistant.advisors import poker_advisor as A
    from assistant.cards import Card
    from assistant.games.poker import PokerRules, PokerState

    rules = PokerRules(task["scoring"], adjacent_only=task["adjacent"])
    key = (task["scoring"], task["adjacent"], task.get("values", "auto"))
    if key not in _WARM:
        A.warm_up(task["scoring"], task["adjacent"], key[2])
        _WARM.add(key)
    state = PokerState(rules)
    rng = np.random.default_rng(task["rng_seed"])
    deck = [Card.parse(t) for t in task["deck"]]
    clock = time.process_time if task.get("clock") == "cpu" else time.perf_counter
    placements, ms, wall = [], [], []
    for card in deck[:25]:
        state.turn(card)
        t0, w0 = clock(), time.perf_counter()
        if task["policy"] == "mc":
            cell = A.advise(state, rng, budget_ms=task["budget_ms"], samples=task["samples"], clock=clock,
                            learned=task.get("values", "auto"), lookahead=task.get("lookahead")).placement
        else:
            cell = A.policy_placement(state, learned=task.get("values", "auto") if task["policy"] == "policy" else False)
        ms.append((clock() - t0) * 1000.0)
        wall.append((time.perf_counter() - w0) * 1000.0)
        state.place(cell)
        placements.append([cell.row, cell.col])
    return {"deck": [str(c) for c in deck[:25]], "placements": placements, "score": int(state.score().total),
            "decision_ms": ms, "wall_ms": wall}


def load_deals(args, count_flag: str) -> tuple[list, dict[str, Any]]:
    """The deals to play (``--deals-file`` or seeded) and how they were chosen, for the summary."""
    from assistant.cli import UserError

    if args.deals_file:
        try:
            return common.load_deals_file(args.deals_file, expected_length=25), {"deals_file": args.deals_file}
        except common.DealsFileError as exc:
            raise UserError(str(exc)) from None
    if args.count < 1:
        raise UserError(f"{count_flag} must be at least 1")
    return common.seeded_deals(args.count, args.seed), {"seed": args.seed}


def log_records(records: list[dict]) -> list[dict]:
    """What the log keeps of each game: deck, placements, score (and the timing, which write_log drops)."""
    return [{k: v for k, v in r.items() if k not in ("restarts", "wall_ms")} for r in records]


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.games.poker import PokerRules

    deals, source = load_deals(args, "--games")
    if args.budget_ms is not None and args.budget_ms <= 0:
        raise UserError("--budget-ms must be positive")
    if args.samples is not None and args.samples < 1:
        raise UserError("--samples must be at least 1")
    adjacent = args.variant == "adjacent"
    tasks = [
        {"deck": [str(c) for c in d[:25]], "scoring": args.scoring, "adjacent": adjacent, "budget_ms": args.budget_ms,
         "samples": args.samples, "policy": args.policy, "rng_seed": [args.seed, i], "clock": args.clock,
         "values": args.values, "lookahead": args.lookahead}
        for i, d in enumerate(deals)
    ]
    label = f"poker {args.scoring}{' adjacent' if adjacent else ''}"
    records = common.run_games(play, tasks, jobs=args.jobs, label=label)
    common.write_log(args.log, log_records(records))
    scores = [r["score"] for r in records]
    threshold = PokerRules(args.scoring).win_threshold
    summary = {
        "benchmark": "poker",
        "scoring": args.scoring,
        "variant": args.variant or "standard",
        "policy": args.policy,
        "values": args.values if args.policy != "greedy" else "random-fill",
        "lookahead": args.lookahead,
        "budget_ms": None if args.samples is not None else args.budget_ms,
        "samples": args.samples,
        "jobs": args.jobs,
        **source,
        **common.score_summary(scores, threshold),
        "clock": args.clock,
        **common.decision_times(records),
    }
    if args.clock == "cpu":
        wall = common.decision_times([{"decision_ms": r["wall_ms"]} for r in records])
        summary.update({"median_wall_ms": wall["median_ms"], "p95_wall_ms": wall["p95_ms"]})
    common.print_summary(summary, args.json, f"Poker Patience, {label}")
    return 0
