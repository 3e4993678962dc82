"""What every benchmark shares: deals, the parallel game runner with a progress bar, intervals, logs.

A benchmark supplies one picklable, module-level function ``play(task) -> dict`` that plays one game
and returns its log record plus ``"decision_ms": [float, ...]``; ``run_games`` runs the tasks (in
``jobs`` processes when jobs > 1), shows progress on stderr (a bar, or plain lines off a terminal) and returns the records in task order.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from assistant.cards import Card, CardError, check_distinct, parse_cards
from assistant.deals import deal_order
from assistant.stats import mean_interval, wilson_interval  # noqa: F401 (wilson_interval re-exported for the benchmarks)

# One thread per numeric process (see docs/CONVENTIONS.md); set before numba/numpy pools start.
for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


class DealsFileError(ValueError):
    """A deals file line that is not a valid deal."""


def seeded_deals(count: int, seed: int, cards: Sequence[Card] | None = None) -> list[list[Card]]:
    """``count`` deals: deal i is ``deal_order(seed * 1_000_003 + i)``, so any single deal can be replayed alone."""
    return [deal_order(seed * 1_000_003 + i, list(cards) if cards is not None else None) for i in range(count)]


def load_deals_file(path: str | Path, expected_length: int | None = None) -> list[list[Card]]:
    """One deal per line, cards in the order turned (first card first), space-separated; '#' starts a comment."""
    deals = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DealsFileError(f"cannot read deals file {path}: {exc.strerror or exc}") from exc
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            cards = parse_cards(line)
            check_distinct(cards)
        except CardError as exc:
            raise DealsFileError(f"{path}, line {number}: {exc}") from exc
        if expected_length is not None and len(cards) < expected_length:
            raise DealsFileError(f"{path}, line {number}: {len(cards)} cards, a deal needs {expected_length}")
        deals.append(cards)
    if not deals:
        raise DealsFileError(f"{path} holds no deals (one deal per line: cards in the order turned)")
    return deals


def run_games(play: Callable[[Any], dict], tasks: Sequence[Any], jobs: int = 1, label: str = "games") -> list[dict]:
    """Play every task, ``jobs`` processes at a time, showing progress on stderr (a bar on a terminal, plain
    lines in a file or pipe: ``assistant.progress``); results in task order."""
    from assistant.progress import progress

    results: list[dict | None] = [None] * len(tasks)
    with progress(label, len(tasks), sys.stderr) as bar:
        if jobs <= 1:
            for i, task in enumerate(tasks):
                results[i] = play(task)
                bar.advance()
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(play, task): i for i, task in enumerate(tasks)}
                from concurrent.futures import as_completed

                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    bar.advance()
    return [r for r in results if r is not None]


def score_summary(scores: Sequence[float], threshold: int) -> dict[str, float]:
    """Mean score with its 95% interval, median, and the share of games reaching ``threshold`` (Wilson 95%)."""
    mean, low, high = mean_interval(scores)
    wins = sum(s >= threshold for s in scores)
    w_low, w_high = wilson_interval(wins, len(scores))
    return {
        "games": len(scores), "mean_score": mean, "mean_low": low, "mean_high": high,
        "median_score": float(np.median(scores)), "win_threshold": threshold, "win_share": wins / len(scores),
        "win_low": w_low, "win_high": w_high,
    }


def decision_times(records: Sequence[dict]) -> dict[str, float]:
    """Median and 95th percentile of the per-decision milliseconds over all games."""
    ms = np.concatenate([np.asarray(r.get("decision_ms", []), dtype=np.float64) for r in records] or [np.zeros(0)])
    if ms.size == 0:
        return {"decisions": 0, "median_ms": float("nan"), "p95_ms": float("nan")}
    return {"decisions": int(ms.size), "median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95))}


def write_log(path: str | Path | None, records: Sequence[dict]) -> None:
    """One JSON object per game, without the timing detail (logs are for replaying games)."""
    if not path:
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps({k: v for k, v in r.items() if k != "decision_ms"}) + "\n")


def print_summary(summary: dict, as_json: bool, title: str) -> None:
    """The summary as one JSON object (``--json``) or a small rich table for people."""
    if as_json:
        print(json.dumps(summary))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    for key, value in summary.items():
        table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    Console().print(table)


def add_common_arguments(parser, *, games_flag: str = "--games") -> None:
    """The arguments every benchmark takes."""
    parser.add_argument(games_flag, "-n", dest="count", type=int, default=100, help="how many games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1); deal i uses seed*1000003+i")
    parser.add_argument("--budget-ms", type=float, default=250.0, help="thinking time per decision in ms (default 250)")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="games played in parallel processes (default 1)")
    parser.add_argument("--log", metavar="FILE", help="write one JSON object per game to FILE")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
