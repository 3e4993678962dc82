"""``patience bench shuffle``: Poker Shuffle, the solver arranges many sets of 25 cards; mean score, time per set.

Each set is the first 25 cards of a seeded deal. The log holds one JSON object per set:
``{"deck": [the 25 cards], "placements": [[row, col], ...] (0-based, the cell of each card in deck order),
"score": int}``.
"""

from __future__ import annotations

import time

from assistant.benchmarks import common
from assistant.benchmarks.poker import load_deals, log_records


def add_arguments(parser) -> None:
    common.add_common_arguments(parser, games_flag="--sets")
    parser.set_defaults(budget_ms=2000.0)
    parser.add_argument("--deals-file", metavar="FILE", help="arrange these sets instead (first 25 cards of each line)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what the budget counts: wall time (default) or this process's CPU time (a shared, "
                             "busy machine); the summary reports both")
    parser.add_argument("--scoring", choices=("american", "english"), default="american",
                        help="points table (default american)")
    parser.add_argument("--restarts", type=int, default=None,
                        help="annealing runs per set instead of a time budget (reproducible work)")


_WARM = [False]


def play(task: dict) -> dict:
    import numpy as np

    from assistant.advisors import shuffle_solver as S
    from assistant.cards import Card

    if not _WARM[0]:
        S.warm_up()
        _WARM[0] = True
    deck = [Card.parse(t) for t in task["deck"]]
    clock = time.process_time if task.get("clock") == "cpu" else time.perf_counter
    t0, w0 = clock(), time.perf_counter()
    result = S.solve(deck, task["scoring"], np.random.default_rng(task["rng_seed"]), budget_ms=task["budget_ms"],
                     restarts=task["restarts"], clock=clock)
    ms = (clock() - t0) * 1000.0
    wall = (time.perf_counter() - w0) * 1000.0
    where = {c: p for c, p in result.placements}
    return {"deck": task["deck"], "placements": [[where[c].row, where[c].col] for c in deck], "score": result.score,
            "decision_ms": [ms], "wall_ms": [wall], "restarts": result.restarts}


def run(args) -> int:
    from assistant.cli import UserError
    from assistant.games.poker import PokerRules

    deals, source = load_deals(args, "--sets")
    if args.budget_ms is not None and args.budget_ms <= 0:
        raise UserError("--budget-ms must be positive")
    if args.restarts is not None and args.restarts < 1:
        raise UserError("--restarts must be at least 1")
    tasks = [{"deck": [str(c) for c in d[:25]], "scoring": args.scoring, "budget_ms": args.budget_ms,
              "restarts": args.restarts, "rng_seed": [args.seed, i], "clock": args.clock} for i, d in enumerate(deals)]
    records = common.run_games(play, tasks, jobs=args.jobs, label=f"shuffle {args.scoring}")
    common.write_log(args.log, log_records(records))
    import numpy as np

    scores = [r["score"] for r in records]
    threshold = PokerRules(args.scoring, shuffle=True).win_threshold
    times = common.decision_times(records)
    summary = {
        "benchmark": "shuffle",
        "scoring": args.scoring,
        "budget_ms": None if args.restarts is not None else args.budget_ms,
        "restarts": args.restarts,
        "jobs": args.jobs,
        **source,
        **common.score_summary(scores, threshold),
        "median_ms_per_set": times["median_ms"],
        "p95_ms_per_set": times["p95_ms"],
        "mean_restarts": float(np.mean([r["restarts"] for r in records])),
        "clock": args.clock,
    }
    if args.clock == "cpu":
        wall = common.decision_times([{"decision_ms": r["wall_ms"]} for r in records])
        summary.update({"median_wall_ms_per_set": wall["median_ms"], "p95_wall_ms_per_set": wall["p95_ms"]})
    common.print_summary(summary, args.json, f"Poker Shuffle, {args.scoring}")
    return 0
