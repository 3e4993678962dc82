"""Poker Shuffle: the best arrangement of 25 known cards that can be found within a budget.

004, "Varianten": "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus, dann ordnest du sie beliebig an.
Gewonnen ist ab 310 Punkten (amerikanisch) oder 120 (englisch)."

Simulated annealing over arrangements (poker_kernels.anneal): a move swaps two cards; only the (at most four)
rows and columns the two cards lie in are scored again; worse arrangements are accepted with probability
exp(delta / temperature), the temperature falling geometrically. Runs alternate: the first from a random
arrangement, the second from the best arrangement so far heated again, the third from a new random arrangement,
and so on. Reheating alone was better with few runs (208.3 against 207.0 American on 20 sets at the same work) but
stays in the best arrangement's neighbourhood: at 2 s of CPU (about 70 runs) it missed by 18-42 points on 3 of 200
sets what independent restarts found; alternating found the better of the two on all 10 sets where they differed.
Pure:
no I/O; ``restarts=`` fixes the work (same seed, same arrangement); ``budget_ms=`` runs restarts until the time is
spent (each restart is a fixed, seeded piece of work).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from assistant.cards import Card, check_distinct
from assistant.games.poker import Placement
from assistant.games.poker_hands import Scoring

__all__ = ["ShuffleResult", "solve", "restarts_for", "ITERATIONS", "TEMPERATURES", "RUNS_PER_MS"]

#: Annealing runs per ms of CPU on the project machine (2-core x86_64, one thread, shared): 23.5-24.2 ms a run
#: (30 runs, American and English). Turns a hint's budget into a fixed number of runs: the same hint everywhere.
RUNS_PER_MS = 1 / 24.0


def restarts_for(work_ms: float) -> int:
    """The number of annealing runs that take about ``work_ms`` on the project machine (at least one)."""
    return max(1, int(work_ms * RUNS_PER_MS))

#: Swap moves per restart.
ITERATIONS = 200_000
#: (start, end) temperature of the cooling per scoring, in points.
TEMPERATURES = {"american": (3.5, 0.3), "english": (1.5, 0.15)}


@dataclass(frozen=True)
class ShuffleResult:
    """An arrangement: ``cells`` row-major (25 cards), its ``score`` under ``scoring``, the work done."""

    cells: tuple[Card, ...]
    score: int
    scoring: str
    restarts: int
    iterations: int

    @property
    def placements(self) -> tuple[tuple[Card, Placement], ...]:
        """Each card with its cell, row-major."""
        return tuple((c, Placement.from_cell(i)) for i, c in enumerate(self.cells))

    def rows(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self.cells[r * 5:(r + 1) * 5] for r in range(5))


def solve(cards: Sequence[Card], scoring: Scoring | str, rng: np.random.Generator, budget_ms: float | None = None,
          restarts: int | None = None, iterations: int = ITERATIONS, clock=None) -> ShuffleResult:
    """Arrange the 25 ``cards`` for the highest score under ``scoring`` (American or English).

    ``restarts``: that many annealing runs (exactly reproducible for a seeded ``rng``); otherwise runs until
    ``budget_ms`` (default 2000) is spent, at least one run, measured by ``clock`` (default wall time,
    ``time.perf_counter``; ``time.process_time`` for CPU time)."""
    from assistant.advisors import poker_kernels as K

    cards = list(cards)
    if len(cards) != 25:
        raise ValueError(f"Poker Shuffle arranges 25 cards, got {len(cards)}")
    check_distinct(cards)
    s = Scoring.parse(scoring).value
    pts = K.AMERICAN if s == "american" else K.ENGLISH
    t_start, t_end = TEMPERATURES[s]
    clock = clock or time.perf_counter
    start = clock()
    if restarts is None and budget_ms is None:
        budget_ms = 2000.0
    base = np.array([c.index for c in cards], dtype=np.int64)
    best_grid, best = base.copy(), float(K.grid_score(base, pts))
    current = base[rng.permutation(25)]
    done = 0
    per_run = 0.0
    while True:
        seed = int(rng.integers(0, 2**31 - 1))
        t0 = clock()
        grid, score = K.anneal(current, pts, seed, 1, iterations, t_start, t_end, True)
        per_run = clock() - t0
        done += 1
        if score > best:
            best, best_grid = score, grid.copy()
        # alternate: reheat the best arrangement, then a fresh random one (diversity), ...
        current = best_grid if done % 2 == 1 else base[rng.permutation(25)]
        if restarts is not None:
            if done >= restarts:
                break
        elif (clock() - start + 1.2 * per_run) * 1000.0 > budget_ms * 0.97:  # margin for a busy machine
            break
    cells = tuple(Card.from_index(int(i)) for i in best_grid)
    return ShuffleResult(cells, int(round(best)), s, done, done * iterations)


def warm_up() -> None:
    """Compile (or load from numba's cache) the annealing kernel."""
    from assistant.deals import deal_order

    solve(deal_order(0)[:25], "american", np.random.default_rng(0), restarts=1, iterations=100)
