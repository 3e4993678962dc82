"""``patience bench tommy``: play Sir Tommy deals with the advisor; report win rate, time per decision, and the
perfect-information ceiling of the same deals (solver).

    patience bench tommy --deals 200 --seed 1 --budget-ms 250 --log runs/tommy.jsonl --json
    patience bench tommy --deals-file deals.txt --budget-ms 100 --variant aces-out-first

Reproducible: deal i is ``deal_order(seed * 1000003 + i)`` (or line i of the deals file); the advisor's rng for
game i is ``make_rng(advisor_seed * 1000003 + i)``; the budget is a fixed amount of work (see
``tommy_advisor.STEPS_PER_MS``), so the same command plays the same moves on any machine (only the times
differ).  ``--samples N`` caps the samples per option instead of / as well as the budget.

Log: one JSON object per game ``{"deck": [...], "moves": [...], "won": ..., "foundation_cards": ...}`` (plus
``"turned"``, every card in the order turned, when a shuffled redeal made it differ from the deck, and
``"variant"``); replay it with ``tommy_solver.replay``: each placement turns the next card first.
"""

from __future__ import annotations

import argparse
import time

from assistant.benchmarks import common


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common.add_common_arguments(parser, games_flag="--deals")
    parser.add_argument("--deals-file", metavar="FILE",
                        help="play every deal of FILE (one per line, cards in the order turned) instead of seeded deals")
    parser.add_argument("--variant", default="standard", help="rules preset (default standard)")
    parser.add_argument("--samples", type=int, default=None, help="cap on samples per option (exact reproducibility)")
    parser.add_argument("--advisor-seed", type=int, default=7, help="seed of the advisor's sampling (default 7)")
    parser.add_argument("--solver-nodes", type=int, default=20_000,
                        help="node budget of the perfect-information solver per deal (0: skip it; default 20000)")


def play(task: dict) -> dict:
    """One game with the advisor; the log record plus decision times."""
    from assistant.advisors.tommy_advisor import advise
    from assistant.deals import make_rng
    from assistant.games.tommy import TommyState
    from assistant.games.tommy_rules import REDEAL, TommyRules

    rules = TommyRules.preset(task["variant"])
    deck = task["deck"]
    state = TommyState(rules, order=deck, rng=make_rng(task["shuffle_seed"]))
    arng = make_rng(task["advisor_seed"])
    moves: list[str] = []
    turned: list[str] = []
    ms: list[float] = []
    cpu_ms: list[float] = []
    while not state.is_terminal():
        if state.hand:
            t0 = time.perf_counter()
            c0 = time.process_time()
            advice = advise(state, arng, task["budget_ms"], samples=task["samples"])
            ms.append((time.perf_counter() - t0) * 1000.0)
            cpu_ms.append((time.process_time() - c0) * 1000.0)
            for m in advice.best.moves:
                state.apply(m)
                moves.append(str(m))
        elif state.needs_card():
            turned.append(str(state.turn_next()))
        else:
            # stock out, hand empty: the plays that win if any order does (solver), else all that fit; then a
            # redeal if the rules allow one
            from assistant.advisors.tommy_solver import finish

            plays = finish(state, 50_000)
            for move in plays:
                if move.from_hand:
                    while state.needs_card():
                        turned.append(str(state.turn_next()))
                state.apply(move)
                moves.append(str(move))
            if not plays:
                if REDEAL in state.legal_moves():
                    state.apply(REDEAL)
                    moves.append("R")
                else:
                    break
    record = {
        "deck": [str(c) for c in deck],
        "moves": moves,
        "won": state.is_won(),
        "foundation_cards": state.foundation_cards(),
        "variant": rules.name,
        "decision_ms": ms,
        "decision_cpu_ms": cpu_ms,
    }
    if "R" in moves:
        record["turned"] = turned  # after a redeal the cards come in a new order
    if task["solver_nodes"] > 0:
        from assistant.advisors.tommy_solver import solve_deal
        from assistant.advisors.tommy_advisor import UnsupportedVariant

        try:
            record["solver"] = solve_deal(rules, deck, task["solver_nodes"]).status
        except UnsupportedVariant:
            record["solver"] = "unsupported"
    return record


def run(args) -> int:
    from assistant.advisors.tommy_advisor import UnsupportedVariant, check_supported
    from assistant.cli import UserError
    from assistant.games.tommy_rules import TommyRules

    try:
        rules = TommyRules.preset(args.variant)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        check_supported(rules)
    except UnsupportedVariant as exc:
        raise UserError(str(exc)) from None
    if args.deals_file:
        try:
            deals = common.load_deals_file(args.deals_file, expected_length=52)
        except common.DealsFileError as exc:
            raise UserError(str(exc)) from None
    else:
        if args.count <= 0:
            raise UserError("--deals must be positive")
        deals = common.seeded_deals(args.count, args.seed)
    tasks = [
        {
            "deck": deck,
            "variant": rules.name,
            "budget_ms": args.budget_ms,
            "samples": args.samples,
            "advisor_seed": args.advisor_seed * 1_000_003 + i,
            "shuffle_seed": args.advisor_seed * 1_000_003 + i + 500_000,
            "solver_nodes": args.solver_nodes,
        }
        for i, deck in enumerate(deals)
    ]
    t0 = time.perf_counter()
    records = common.run_games(play, tasks, jobs=args.jobs, label=f"Sir Tommy {rules.name}")
    wall = time.perf_counter() - t0
    common.write_log(args.log, [{k: v for k, v in r.items() if k != "decision_cpu_ms"} for r in records])
    summary = summarize(records, args, rules.name, wall)
    common.print_summary(summary, args.json, f"Sir Tommy advisor ({rules.name})")
    return 0


def _cpu_times(records: list[dict]) -> dict:
    """Per-decision CPU time of this process (the wall time above includes waiting for a shared CPU)."""
    import numpy as np

    ms = np.concatenate([np.asarray(r.get("decision_cpu_ms", []), np.float64) for r in records] or [np.zeros(0)])
    if ms.size == 0:
        return {}
    return {"median_cpu_ms": float(np.median(ms)), "p95_cpu_ms": float(np.percentile(ms, 95))}


def summarize(records: list[dict], args, variant: str, wall_s: float) -> dict:
    games = len(records)
    wins = sum(1 for r in records if r["won"])
    lo, hi = common.wilson_interval(wins, games)
    fmean, flo, fhi = common.mean_interval(r["foundation_cards"] for r in records)
    summary = {
        "variant": variant,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else float("nan"),
        "win_rate_ci95": [lo, hi],
        "foundation_cards_mean": fmean,
        "foundation_cards_ci95": [flo, fhi],
        **common.decision_times(records),
        **_cpu_times(records),
        "budget_ms": args.budget_ms,
        "samples_cap": args.samples,
        "seed": None if args.deals_file else args.seed,
        "deals_file": args.deals_file,
        "advisor_seed": args.advisor_seed,
        "jobs": args.jobs,
        "wall_s": wall_s,
    }
    solved = [r.get("solver") for r in records if r.get("solver") not in (None, "unsupported")]
    if solved:
        won = sum(1 for s in solved if s == "won")
        slo, shi = common.wilson_interval(won, len(solved))
        summary.update(
            {
                "solver_nodes": args.solver_nodes,
                "solver_winnable": won,
                "solver_lost": sum(1 for s in solved if s == "lost"),
                "solver_undecided": sum(1 for s in solved if s == "undecided"),
                "solver_winnable_rate": won / len(solved),
                "solver_winnable_ci95": [slo, shi],
                "advisor_wins_of_winnable": sum(1 for r in records if r["won"] and r.get("solver") == "won"),
            }
        )
    return summary
