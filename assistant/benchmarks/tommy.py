"""``patience bench tommy``: play Sir Tommy deals with the advisor; report win rate, time per decision, and the
perfect-information ceiling of the same deals (solver).

    patience bench tommy --deals 200 --seed 1 --budget-ms 250 --log runs/tommy.jsonl --json
    patience bench tommy --deals-file deals.txt --budget-ms 100 --variant aces-out-first

Reproducible: deal i is ``deal_order(seed * 1000003 + i)`` (or line i of the deals file); the advisor's rng for
game i is ``make_rng(advisor_seed * 1000003 + i)``; the budget is a fixed amount of work (see
``tommy_advisor.STEPS_PER_MS``), so the same command plays the same moves on any machine (only the times
differ).  ``--samples N`` caps the samples per option instead of / as well as the budget.  ``--search-setting
NAME=VALUE`` changes one of the search's constants for a run (what the paired experiments in docs/BENCHMARKS.md
changed), so a variant that was tried is one command too.

Log: one JSON object per game ``{"deck": [...], "moves": [...], "won": ..., "foundation_cards": ...}`` (plus
``"turned"``, every card in the order turned, when a shuffled redeal made it differ from the deck, and
``"variant"``); replay it with ``tommy_solver.replay``: each placement turns the next card first.
"""

from __future__ import annotations

import argparse
import time

from assistant.benchmarks import common


# the advisor's module constants that ``--search-setting`` may change (numbers and switches of the search)
SEARCH_SETTINGS = ("BATCH", "MIN_SAMPLES", "Z_DROP", "EPS_SAME", "FOUND_WEIGHT", "ENDGAME_UNSEEN", "ENDGAME_NODES",
                   "ENDGAME_FREE", "SOLVER_NODES_PER_MS", "TWO_LEVEL", "FLAT_SHARE", "TWO_LEVEL_TOP", "TWO_LEVEL_MIN",
                   "TWO_LEVEL_DELTA", "SAMPLED_UNSEEN", "SAMPLED_ORDERS", "SAMPLED_MIN_ORDERS", "SAMPLED_SHARE",
                   "SAMPLED_SOLVE_NODES", "SAMPLED_HOLD")


def parse_search_settings(texts) -> dict:
    """``["Z_DROP=5", "TWO_LEVEL=false"]`` -> ``{"Z_DROP": 5.0, "TWO_LEVEL": False}``, each value of the type the
    constant has now; ``UserError`` for an unknown name or a value that is not one."""
    from assistant.advisors import tommy_advisor
    from assistant.cli import UserError

    out = {}
    for text in texts or ():
        name, sep, value = str(text).partition("=")
        name = name.strip().upper()
        if not sep or name not in SEARCH_SETTINGS:
            raise UserError(f"--search-setting {text!r}: give NAME=VALUE with NAME one of {' '.join(SEARCH_SETTINGS)}")
        current = getattr(tommy_advisor, name)
        try:
            if isinstance(current, bool):
                if value.strip().lower() not in ("true", "false", "1", "0", "on", "off"):
                    raise ValueError(value)
                out[name] = value.strip().lower() in ("true", "1", "on")
            else:
                out[name] = type(current)(value)
        except ValueError:
            raise UserError(f"--search-setting {text!r}: {name} takes a {type(current).__name__}") from None
    return out


def apply_search_settings(settings: dict) -> None:
    """Set the advisor's constants for the games of this process (a run's settings are the same for all)."""
    from assistant.advisors import tommy_advisor

    for name, value in settings.items():
        setattr(tommy_advisor, name, value)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common.add_common_arguments(parser, games_flag="--deals")
    parser.add_argument("--deals-file", metavar="FILE",
                        help="play every deal of FILE (one per line, cards in the order turned) instead of seeded deals")
    parser.add_argument("--variant", default="standard", help="rules preset (default standard)")
    parser.add_argument("--samples", type=int, default=None, help="cap on samples per option (exact reproducibility)")
    parser.add_argument("--advisor-seed", type=int, default=7, help="seed of the advisor's sampling (default 7)")
    parser.add_argument("--solver-nodes", type=int, default=20_000,
                        help="node budget of the perfect-information solver per deal (0: skip it; default 20000)")
    parser.add_argument("--first", type=int, default=0,
                        help="seeded deals: start at deal FIRST (deals FIRST..FIRST+COUNT-1, advisor seeds as in a "
                             "run from 0, so runs in pieces pair with one whole run; default 0)")
    parser.add_argument("--search-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="experiments: one of the advisor's search constants for this run, e.g. Z_DROP=5, "
                             f"FLAT_SHARE=0.15 (any of: {' '.join(SEARCH_SETTINGS)}; assistant/advisors/"
                             "tommy_advisor.py); repeatable; the summary records them")
    parser.add_argument("--solver-only", action="store_true",
                        help="only the perfect-information ceiling of the deals (no advisor games)")


def play(task: dict) -> dict:
    """One game with the advisor; the log record plus decision times."""
    from assistant.advisors.tommy_advisor import advise
    from assistant.deals import make_rng
    from assistant.games.tommy import TommyState
    from assistant.games.tommy_rules import REDEAL, TommyRules

    apply_search_settings(task.get("search_settings", {}))
    rules = TommyRules.preset(task["variant"])
    deck = task["deck"]
    state = TommyState(rules, order=deck, rng=make_rng(task["shuffle_seed"]))
    arng = make_rng(task["advisor_seed"])
    moves: list[str] = []
    turned: list[str] = []
    ms: list[float] = []
    cpu_ms: list[float] = []
    while not state.is_terminal():
        if state.needs_card():
            turned.append(str(state.turn_next()))
        elif state.hand:
            t0 = time.perf_counter()
            c0 = time.process_time()
            advice = advise(state, arng, task["budget_ms"], samples=task["samples"])
            ms.append((time.perf_counter() - t0) * 1000.0)
            cpu_ms.append((time.process_time() - c0) * 1000.0)
            for m in advice.best.moves:
                state.apply(m)
                moves.append(str(m))
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


def solve_task(task: dict) -> dict:
    """The perfect-information solver alone on one deal."""
    from assistant.advisors.tommy_advisor import UnsupportedVariant
    from assistant.advisors.tommy_solver import solve_deal

    try:
        result = solve_deal(task["variant"], task["deck"], task["solver_nodes"])
    except UnsupportedVariant:
        return {"deck": [str(c) for c in task["deck"]], "solver": "unsupported"}
    return {"deck": [str(c) for c in task["deck"]], "solver": result.status, "nodes": result.nodes,
            "line": [str(m) for m in result.moves]}


def make_tasks(args, variant: str) -> list[dict]:
    """One task per deal: seeded deals ``first``..``first+count-1`` (or a deals file), each with the advisor seed
    it has in a run from deal 0, so a run in pieces (``--first``) plays exactly the games of one whole run."""
    from assistant.cli import UserError
    from assistant.deals import deal_order

    if args.deals_file:
        try:
            deals = common.load_deals_file(args.deals_file, expected_length=52)
        except common.DealsFileError as exc:
            raise UserError(str(exc)) from None
        first = 0
    else:
        if args.count <= 0:
            raise UserError("--deals must be positive")
        first = getattr(args, "first", 0) or 0
        if first < 0:
            raise UserError("--first must be >= 0")
        deals = [deal_order(args.seed * 1_000_003 + first + i) for i in range(args.count)]
    settings = parse_search_settings(getattr(args, "search_setting", None))
    return [
        {
            "deck": deck,
            "variant": variant,
            "budget_ms": args.budget_ms,
            "samples": args.samples,
            "advisor_seed": args.advisor_seed * 1_000_003 + first + i,
            "shuffle_seed": args.advisor_seed * 1_000_003 + first + i + 500_000,
            "solver_nodes": args.solver_nodes,
            **({"search_settings": settings} if settings else {}),
        }
        for i, deck in enumerate(deals)
    ]


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
    tasks = make_tasks(args, rules.name)
    t0 = time.perf_counter()
    if args.solver_only:
        if args.solver_nodes <= 0:
            raise UserError("--solver-only needs --solver-nodes > 0")
        records = common.run_games(solve_task, tasks, jobs=args.jobs, label=f"Sir Tommy {rules.name} solver")
        common.write_log(args.log, records)
        summary = {"variant": rules.name, "deals": len(records), **_solver_summary(records, args),
                   "seed": None if args.deals_file else args.seed, "deals_file": args.deals_file,
                   "wall_s": time.perf_counter() - t0}
        common.print_summary(summary, args.json, f"Sir Tommy perfect-information solver ({rules.name})")
        return 0
    if args.jobs <= 1 and args.log:
        # one process: each game is appended to the log (and its decision times to LOG.times) as it ends, so a
        # long run that has to be stopped keeps the games it finished (``summarize_logs`` reads them back)
        records = _run_logged(tasks, args.log, rules.name)
    else:
        records = common.run_games(play, tasks, jobs=args.jobs, label=f"Sir Tommy {rules.name}")
        common.write_log(args.log, [{k: v for k, v in r.items() if k != "decision_cpu_ms"} for r in records])
    wall = time.perf_counter() - t0
    summary = summarize(records, args, rules.name, wall)
    common.print_summary(summary, args.json, f"Sir Tommy advisor ({rules.name})")
    return 0


def _run_logged(tasks: list[dict], log: str, variant: str) -> list[dict]:
    import json
    import sys
    from pathlib import Path

    path = Path(log)
    path.parent.mkdir(parents=True, exist_ok=True)
    times = Path(str(path) + ".times")
    records = []
    with path.open("w", encoding="utf-8") as out, times.open("w", encoding="utf-8") as tout:
        for i, task in enumerate(tasks):
            record = play(task)
            print(f"Sir Tommy {variant}: game {i + 1}/{len(tasks)} {'won' if record['won'] else 'lost'}",
                  file=sys.stderr, flush=True)
            records.append(record)
            out.write(json.dumps({k: v for k, v in record.items() if k not in ("decision_ms", "decision_cpu_ms")}) + "\n")
            tout.write(json.dumps({"decision_ms": record["decision_ms"], "decision_cpu_ms": record["decision_cpu_ms"]}) + "\n")
            out.flush()
            tout.flush()
    return records


def summarize_logs(logs: list[str], budget_ms: float) -> dict:
    """The summary of finished games read back from logs written with ``--jobs 1 --log`` (and their .times)."""
    import json
    from pathlib import Path

    records = []
    for log in logs:
        games = Path(log).read_text().splitlines()
        times = Path(log + ".times").read_text().splitlines() if Path(log + ".times").exists() else []
        for k, line in enumerate(games):
            record = json.loads(line)
            if k < len(times):
                record.update(json.loads(times[k]))
            records.append(record)
    args = type("A", (), {"budget_ms": budget_ms, "samples": None, "seed": None, "deals_file": None,
                          "advisor_seed": None, "jobs": 1, "solver_nodes": None})()
    return summarize(records, args, records[0].get("variant", "?") if records else "?", float("nan"))


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
    settings = parse_search_settings(getattr(args, "search_setting", None))
    if settings:
        summary["search_settings"] = settings
    solver = _solver_summary(records, args)
    if solver:
        solver["advisor_wins_of_winnable"] = sum(1 for r in records if r["won"] and r.get("solver") == "won")
        summary.update(solver)
    return summary


def _solver_summary(records: list[dict], args) -> dict:
    """The perfect-information ceiling: proven winnable (a winning line found), proven lost, undecided."""
    solved = [r.get("solver") for r in records if r.get("solver") not in (None, "unsupported")]
    if not solved:
        return {}
    won = sum(1 for s in solved if s == "won")
    slo, shi = common.wilson_interval(won, len(solved))
    return {
        "solver_nodes": args.solver_nodes,
        "solver_winnable": won,
        "solver_lost": sum(1 for s in solved if s == "lost"),
        "solver_undecided": sum(1 for s in solved if s == "undecided"),
        "solver_winnable_rate": won / len(solved),
        "solver_winnable_ci95": [slo, shi],
    }
