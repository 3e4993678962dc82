"""Poker Patience advisor: for the turned card, every legal cell ranked by expected final score.

004, "Spielablauf": "Leg sie offen auf einen beliebigen freien Platz im Quadrat. [...] Eine gelegte Karte darfst du
nie mehr verschieben." and "Das Können steckt darin, jede Karte gut zu platzieren, ohne zu wissen, was noch kommt".

How a cell is valued (see docs/BENCHMARKS.md for the measured strength of each step):

1. A playing policy: each row and column has a value, learned in self-play for abstract partial lines
   (rank-multiplicity pattern, flush still possible, straight windows still open, row or column, cards on the
   grid; with free placement also the live cards of the line's ranks and the spare cards of its suit, counted
   from the cards on the grid: ``poker_values.json``); the card goes where the gain of its row plus its column is
   largest. Rows and columns have separate tables, so the policy finds the human plan of 004's tips by itself:
   "Halte eine oder zwei Spalten für Flushs frei: Dort sammelst du eine Farbe, in den Reihen dann Paare und Full
   Houses." (Bare policy, no search: 116.3 American / 50.7 English; greedy on the random-fill table: 98.3 / 44.5.)
2. Monte Carlo: for each candidate cell, the same sampled orders of the unseen cards (common random numbers) are
   played out by the policy; the cell's value is the mean final score. Empty rows are alike and empty columns
   are alike (free placement only), so only one cell of each kind is simulated. Candidates that are clearly
   worse (paired difference over 3 standard errors) stop being simulated.
3. With three empty cells or fewer the expectation is computed exactly (expectimax over every unseen card).

Pure: no I/O, no clock except the thinking budget. ``samples=`` fixes the work (exactly reproducible for a seed);
``work_ms=`` fixes it too, as the rollout card steps this machine makes in about that many ms
(:data:`CARD_STEPS_PER_MS`, measured once, as the Sir Tommy advisor's ``STEPS_PER_MS``): the live hint's way, so the
same position gets the same hint on any machine and under any load; ``budget_ms=`` stops by the clock between
fixed-size batches of sampled orders (the benchmarks' way: a seed still fixes every batch's cards).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from assistant.cards import Card
from assistant.games.poker import Placement, PokerRules, PokerState
from assistant.games.poker_hands import Scoring

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "PokerOption",
    "PokerAdvice",
    "advise",
    "advise_arrays",
    "policy_placement",
    "candidate_cells",
    "explain",
    "train_values",
    "value_tables",
    "warm_up",
    "BATCH",
]

#: Sampled card orders per batch; the budget is checked only between batches.
BATCH = 32
#: Rollout card steps (sampled orders x candidates x cards each plays out) per ms of ``work_ms``: measured on the
#: project machine (2-core x86_64, one thread, CPU time, while other jobs shared it): 776 a ms over 36 American
#: and English positions early, middle and late in a deal (batch bookkeeping included). Fixed, so that a work
#: budget means the same work, and the same advice, everywhere.
CARD_STEPS_PER_MS = 750.0
#: At most this many empty cells (counting the one the card goes to): exact expectimax instead of sampling.
EXACT_EMPTY = 3
#: A candidate stops being simulated when its paired mean deficit exceeds this many standard errors.
PRUNE_Z = 3.0
#: ... but not before this many sampled orders.
PRUNE_MIN = 4 * BATCH
#: Rollouts place their first card by a two-ply choice among this many best one-ply cells (0: one-ply policy only);
#: free placement with learned values only.
LOOKAHEAD_BEAM = 0

VALUES_FILE = Path(__file__).with_name("poker_values.json")


# ------------------------------------------------------------------------------------------------ values


@dataclass(frozen=True)
class PokerOption:
    """One legal cell for the turned card: the expected final score if the card goes there (then good play).

    ``stderr`` is the standard error of ``expected`` (0 when exact); ``low``/``high`` its 95% interval;
    ``samples`` the sampled card orders behind it (0 when exact).
    """

    placement: Placement
    expected: float
    stderr: float
    low: float
    high: float
    samples: int
    exact: bool = False

    def __str__(self) -> str:
        if self.exact:
            return f"{self.placement}: {self.expected:.1f} (exact)"
        return f"{self.placement}: {self.expected:.1f} ± {1.96 * self.stderr:.1f} ({self.samples} samples)"


@dataclass(frozen=True)
class PokerAdvice:
    """The advice for one turned card: every legal cell, best first."""

    card: Card
    scoring: str  # "american" | "english"
    adjacent_only: bool
    options: tuple[PokerOption, ...]
    method: str  # "only" (one legal cell), "exact" (expectimax), "monte-carlo"
    samples: int  # sampled card orders for the best option (0 when exact)

    @property
    def best(self) -> PokerOption:
        return self.options[0]

    @property
    def placement(self) -> Placement:
        return self.options[0].placement

    def option(self, placement: Placement | str | tuple[int, int]) -> PokerOption:
        p = Placement.coerce(placement)
        for o in self.options:
            if o.placement == p:
                return o
        raise KeyError(f"{p} is not a legal cell for {self.card}")


def _scoring(value: Scoring | str) -> Scoring:
    return Scoring.parse(value)


@lru_cache(maxsize=None)
def _random_fill_table(scoring: str) -> np.ndarray:
    from assistant.advisors import poker_kernels as K

    return K.build_random_fill_table(_points(scoring))


def _points(scoring: str) -> np.ndarray:
    from assistant.advisors import poker_kernels as K

    return K.AMERICAN if scoring == "american" else K.ENGLISH


def _table_name(scoring: str, adjacent: bool) -> str:
    return f"{scoring}-adjacent" if adjacent else scoring


@lru_cache(maxsize=None)
def _values_file() -> dict:
    try:
        return json.loads(VALUES_FILE.read_text(encoding="utf-8"))
    except OSError:
        return {}


@lru_cache(maxsize=None)
def _learned_table(scoring: str, adjacent: bool, deck_aware: bool = False) -> np.ndarray | None:
    """The learned table for the rules, or None: plain keys ``tables`` (all variants), deck-aware keys
    ``tables2`` (free placement)."""
    from assistant.advisors import poker_kernels as K

    data = _values_file()
    name = _table_name(scoring, adjacent)
    if deck_aware:
        packed = data.get("tables2", {}).get(name)
        return None if packed is None else _unpack(packed).reshape(2, 26, K.N_KEYS2)
    tables = data.get("tables", {})
    if name not in tables:
        return None
    return np.asarray(tables[name], dtype=np.float64).reshape(2, 26, K.N_KEYS)


def value_tables(scoring: Scoring | str, adjacent: bool = False, learned: bool | str = True):
    """(mode, T, V, points) for the kernels: mode 2 = learned deck-aware line values, 1 = learned plain line
    values, 0 = the random-fill table. ``learned``: True or "auto" (deck-aware where there is a table, else
    plain), "plain", "deck-aware", False or "random-fill"."""
    from assistant.advisors import poker_kernels as K

    s = _scoring(scoring).value
    pts = _points(s)
    if learned not in (True, False, "auto", "plain", "deck-aware", "random-fill"):
        raise ValueError(f"unknown line values {learned!r}: auto, deck-aware, plain or random-fill")
    if learned and learned != "random-fill":
        for mode, deck_aware in ((2, True), (1, False)):
            if learned == "plain" and deck_aware:
                continue
            V = _learned_table(s, bool(adjacent), deck_aware)
            if V is not None:
                return mode, np.zeros(1, dtype=np.float64), V, pts
    return 0, _random_fill_table(s), np.zeros((2, 26, K.N_KEYS), dtype=np.float64), pts


def warm_up(scoring: Scoring | str = "american", adjacent: bool = False, learned: bool | str = True) -> None:
    """Compile (or load from numba's cache) every kernel the advisor uses, so the first move is not slow."""
    rules = PokerRules(_scoring(scoring), adjacent_only=adjacent)
    state = PokerState(rules)
    from assistant.deals import deal_order

    deal = deal_order(0)
    rng = np.random.default_rng(0)
    for i in range(25):
        state.turn(deal[i])
        if i in (0, 1, 23):
            advise(state, rng, samples=BATCH, learned=learned)
        state.place(policy_placement(state, learned=learned))


# ------------------------------------------------------------------------------------------------ candidates


def _legal(grid: np.ndarray, adjacent: bool) -> list[int]:
    from assistant.advisors.poker_kernels import NEIGHBOURS

    occ = 0
    for i in range(25):
        if grid[i] >= 0:
            occ |= 1 << i
    return [i for i in range(25) if grid[i] < 0 and (not adjacent or occ == 0 or (occ & int(NEIGHBOURS[i])) != 0)]


def candidate_cells(grid: np.ndarray, adjacent: bool) -> dict[int, list[int]]:
    """Legal cells grouped by symmetry: {representative cell: [cells that are worth the same]}.

    With free placement, two empty rows are interchangeable (swapping them changes no column's cards) and so are
    two empty columns; with "only next to a card" the neighbours differ, so every legal cell stands alone."""
    legal = _legal(grid, adjacent)
    if adjacent:
        return {c: [c] for c in legal}
    g = np.asarray(grid).reshape(5, 5)
    empty_rows = [r for r in range(5) if (g[r] < 0).all()]
    empty_cols = [c for c in range(5) if (g[:, c] < 0).all()]
    groups: dict[int, list[int]] = {}
    for cell in legal:
        r, c = divmod(cell, 5)
        if r in empty_rows:
            r = empty_rows[0]
        if c in empty_cols:
            c = empty_cols[0]
        groups.setdefault(r * 5 + c, []).append(cell)
    return groups


# ------------------------------------------------------------------------------------------------ advice


def advise(state: PokerState, rng: np.random.Generator, budget_ms: float | None = None,
           samples: int | None = None, learned: bool | str = True, clock=None,
           lookahead: int | None = None, work_ms: float | None = None) -> PokerAdvice:
    """Rank every legal cell for the turned card of ``state`` (the rules' scoring and placement rule apply).

    ``samples``: sampled orders of the unseen cards per candidate (rounded up to a multiple of :data:`BATCH`);
    ``work_ms``: a fixed amount of work, about that many ms on the project machine (:data:`CARD_STEPS_PER_MS`):
    the advice depends only on the position and ``rng``, never on the machine's speed or load;
    ``budget_ms``: think for about that long instead (default 250 ms when neither is given), measured by
    ``clock`` (default ``time.perf_counter``, wall time; ``time.process_time`` counts only this process's CPU time,
    for benchmarks on a shared machine). ``lookahead``: the beam of the rollouts' two-ply first step (default
    :data:`LOOKAHEAD_BEAM`; 0 plays every rollout with the one-ply policy).
    """
    if state.rules.shuffle:
        raise ValueError("Poker Shuffle has no turned card to place one by one: use assistant.advisors.shuffle_solver")
    card = state.current
    if card is None:
        raise ValueError("no turned card waits to be placed: turn a card first")
    arrays = state.to_arrays()
    return advise_arrays(arrays.grid, card.index, arrays.unseen, state.rules.scoring, state.rules.adjacent_only,
                         rng, budget_ms=budget_ms, samples=samples, learned=learned, clock=clock,
                         lookahead=lookahead, work_ms=work_ms)


def advise_arrays(grid: np.ndarray, card: int, unseen: np.ndarray, scoring: Scoring | str, adjacent: bool,
                  rng: np.random.Generator, budget_ms: float | None = None, samples: int | None = None,
                  learned: bool | str = True, clock=None, lookahead: int | None = None,
                  work_ms: float | None = None) -> PokerAdvice:
    """:func:`advise` on the compact layout: grid int[25] (-1 empty), card index, unseen card indices."""
    from assistant.advisors import poker_kernels as K

    clock = clock or time.perf_counter
    start = clock()
    scoring_s = _scoring(scoring).value
    grid = np.asarray(grid, dtype=np.int64)
    unseen = np.asarray(unseen, dtype=np.int64)
    if samples is None and budget_ms is None and work_ms is None:
        budget_ms = 250.0
    groups = candidate_cells(grid, adjacent)
    if not groups:
        raise ValueError("no legal cell is left for the card")
    reps = np.array(sorted(groups), dtype=np.int64)
    empties = int((grid < 0).sum())
    mode, T, V, pts = value_tables(scoring_s, adjacent, learned)
    the_card = Card.from_index(int(card))

    def build(values: dict[int, tuple[float, float, int, bool]], method: str) -> PokerAdvice:
        opts = []
        for rep, cells in groups.items():
            mean, se, n, exact = values[rep]
            for cell in cells:
                opts.append(PokerOption(Placement.from_cell(cell), float(mean), float(se), float(mean - 1.96 * se),
                                        float(mean + 1.96 * se), int(n), exact))
        opts.sort(key=lambda o: (-o.expected, o.placement.cell))
        return PokerAdvice(the_card, scoring_s, bool(adjacent), tuple(opts), method, opts[0].samples)

    if empties <= EXACT_EMPTY or unseen.size < empties - 1:
        exact = K.exact_scores(grid, int(card), reps, unseen, bool(adjacent), pts)
        values = {int(r): (float(v), 0.0, 0, True) for r, v in zip(reps, exact)}
        return build(values, "exact")

    need = empties - 1
    n_un = unseen.size
    beam = LOOKAHEAD_BEAM if lookahead is None else int(lookahead)
    use_lookahead = beam > 0 and not adjacent and mode > 0
    first = np.full((25, 52), -1, dtype=np.int64)  # the rollouts' first follow-up cell by candidate and card
    target_batches = None if samples is None else max(1, math.ceil(samples / BATCH))
    step_budget = None if samples is not None or work_ms is None else max(1.0, work_ms) * CARD_STEPS_PER_MS
    steps = 0
    active = list(range(len(reps)))
    chunks: list[list[np.ndarray]] = [[] for _ in reps]
    done = 0
    last_dt_per_cand = 0.0
    while True:
        idx = np.argsort(rng.random((BATCH, n_un)), axis=1)[:, :need]
        decks = unseen[idx]
        t0 = clock()
        if use_lookahead:
            out = K.mc_scores_lookahead(grid, int(card), reps[active], decks, unseen, first, beam, mode, T, V, pts)
        else:
            out = K.mc_scores(grid, int(card), reps[active], decks, bool(adjacent), mode, T, V, pts)
        last_dt_per_cand = (clock() - t0) / len(active)
        steps += BATCH * need * len(active)
        for j, a in enumerate(active):
            chunks[a].append(out[j])
        done += 1
        if len(active) > 1 and done * BATCH >= PRUNE_MIN:
            mats = np.stack([np.concatenate(chunks[a]) for a in active])
            means = mats.mean(axis=1)
            b = int(np.argmax(means))
            keep = []
            for j, a in enumerate(active):
                if j == b:
                    keep.append(a)
                    continue
                d = mats[b] - mats[j]
                sd = d.std(ddof=1)
                if not (d.mean() > PRUNE_Z * sd / math.sqrt(d.size)):
                    keep.append(a)
            active = keep
        if len(active) == 1 and len(reps) > 1 or len(reps) == 1:
            break
        if target_batches is not None:
            if done >= target_batches:
                break
        elif step_budget is not None:
            # the same rule as the clock's below, on counted work: stop unless another batch fits
            if steps + BATCH * need * len(active) > step_budget * 0.96:
                break
        else:
            elapsed = (clock() - start) * 1000.0
            # stop unless another batch fits, with a margin for the noise of a busy machine
            if elapsed + 1.25 * last_dt_per_cand * len(active) * 1000.0 > budget_ms * 0.96 - 2.0:
                break
    values = {}
    for a, rep in enumerate(reps):
        x = np.concatenate(chunks[a])
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else float("inf")
        values[int(rep)] = (float(x.mean()), se, int(x.size), False)
    method = "only" if len(reps) == 1 and len(groups[int(reps[0])]) == 1 else "monte-carlo"
    return build(values, method)


def policy_placement(state: PokerState, learned: bool | str = True) -> Placement:
    """The bare playing policy's cell (no search; microseconds): the hint of a quick or weak advisor."""
    from assistant.advisors import poker_kernels as K

    arrays = state.to_arrays()
    if arrays.current < 0:
        raise ValueError("no turned card waits to be placed: turn a card first")
    mode, T, V, pts = value_tables(state.rules.scoring, state.rules.adjacent_only, learned)
    cell = K.policy_cell(arrays.grid.astype(np.int64), int(arrays.current), bool(state.rules.adjacent_only),
                         mode, T, V, pts)
    return Placement.from_cell(int(cell))


# ------------------------------------------------------------------------------------------------ training mode

TIPS = {
    "flush": "Halte eine oder zwei Spalten für Flushs frei: Dort sammelst du eine Farbe, in den Reihen dann Paare "
             "und Full Houses.",
    "ranks": "gleiche Werte in einer Reihe sammeln und Platz für die Paare lassen, die sicher noch kommen",
    "rare": "Paare und Drillinge kommen von selbst; plane lieber die selteneren Hände.",
    "straight": "Bei englischer Wertung sind Straßen viel wert – versuch es aber nur, wenn die Werte nah "
                "beieinanderliegen.",
    "trash": "Füll nicht zu früh eine Reihe ganz auf: Freie Plätze sind dein „Mülleimer“ für Karten, die nirgends "
             "passen.",
}


def _line_cells(li: int) -> list[int]:
    return [li * 5 + c for c in range(5)] if li < 5 else [r * 5 + (li - 5) for r in range(5)]


def explain(state: PokerState, advice: PokerAdvice) -> tuple[tuple[str, str], ...]:
    """Training mode: which of 004's tips ("Tipps für Einsteiger") the advised cell follows, as
    ``(tip quoted from 004, why it applies here)`` pairs; empty when none fits plainly."""
    card = advice.card
    best = advice.placement
    grid = state.cells
    out: list[tuple[str, str]] = []
    name_of = {0: "row", 1: "column"}
    for kind, li in ((0, best.row), (1, 5 + best.col)):
        others = [grid[i] for i in _line_cells(li) if grid[i] is not None]
        label = f"{name_of[kind]} {(li if li < 5 else li - 5) + 1}"
        same_rank = [c for c in others if c.rank == card.rank]
        if others and all(c.suit == card.suit for c in others) and len(others) >= 1 and not same_rank:
            out.append((TIPS["flush"], f"{card} joins {len(others)} {card.suit.name.lower()} in {label}: a flush "
                                       f"is still possible there"))
        if same_rank:
            what = {1: "a pair", 2: "three of a kind", 3: "four of a kind"}[len(same_rank)]
            out.append((TIPS["ranks"], f"{card} makes {what} in {label}"))
        ranks = sorted({c.rank for c in others} | {card.rank})
        if (advice.scoring == "english" and len(others) >= 2 and not same_rank and len(ranks) == len(others) + 1
                and (ranks[-1] - ranks[0] <= 4 or (ranks[0] == 1 and all(r >= 10 for r in ranks[1:])))
                and not all(c.suit == card.suit for c in others)):
            out.append((TIPS["straight"], f"{label} holds close ranks {', '.join(str(Card(r, card.suit).rank.label) for r in ranks)}: "
                                          "a straight is still possible"))
    if not out:
        # a card that fits nowhere goes to a line already spoiled: the "trash" cells
        row = [grid[i] for i in _line_cells(best.row) if grid[i] is not None]
        col = [grid[i] for i in _line_cells(5 + best.col) if grid[i] is not None]
        if row or col:
            out.append((TIPS["trash"], f"{card} helps no hand here; r{best.row + 1}c{best.col + 1} is a spare cell "
                                       "in lines with little promise"))
    return tuple(out)


# ------------------------------------------------------------------------------------------------ learning


def train_values(scoring: Scoring | str, adjacent: bool = False, iterations: int = 10, games: int = 200_000,
                 seed: int = 1, decay: float = 0.7, epsilon: float = 0.02, prior_weight: float = 5.0,
                 deck_aware: bool = False, start: np.ndarray | None = None,
                 eval_decks: np.ndarray | None = None, progress=None) -> tuple[np.ndarray, list[float]]:
    """Learn the abstract line values by policy iteration in self-play: play ``games`` deals with the current
    policy (``start``, a plain or deck-aware table, if given, else the random-fill table), average the final score
    of each line by its abstract state and time (older iterations decay by ``decay``), and repeat. Sparse entries
    lean on a prior: the same key pooled over time (plain keys), the plain key's value (deck-aware keys). Returns
    the table whose bare policy scored best on ``eval_decks`` and the bare policy's score after each iteration."""
    from assistant.advisors import poker_kernels as K

    s = _scoring(scoring).value
    pts = _points(s)
    T = _random_fill_table(s)
    if eval_decks is None:
        r = np.random.default_rng(seed + 10_000)
        eval_decks = np.array([r.permutation(52)[:25] for _ in range(20_000)])
    if start is None:
        mode, V = 0, np.zeros((2, 26, K.N_KEYS))
    else:  # a deck-aware start continues the training of a deck-aware table (issue 14)
        mode, V = (2 if start.shape[-1] == K.N_KEYS2 else 1), start
    new_mode = 2 if deck_aware else 1
    S = C = None
    best, best_V, history = -1.0, V, []
    w = prior_weight
    for it in range(iterations):
        sums, cnts, _ = K.selfplay_stats(games, seed * 1000 + it, bool(adjacent), mode, T, V, pts, epsilon, deck_aware)
        S = sums if S is None else S * decay + sums
        C = cnts if C is None else C * decay + cnts
        if deck_aware:
            S1 = S.reshape(2, 26, K.N_KEYS, 32).sum(-1)
            C1 = C.reshape(2, 26, K.N_KEYS, 32).sum(-1)
        else:
            S1, C1 = S, C
        pooled_s = S1.sum(axis=1, keepdims=True)
        pooled_c = C1.sum(axis=1, keepdims=True)
        prior = np.where(pooled_c > 0, pooled_s / np.maximum(pooled_c, 1e-9), 0.0)
        V = (S1 + w * prior) / (C1 + w)
        if deck_aware:
            V = (S + w * np.repeat(V, 32, axis=2)) / (C + w)
        mode = new_mode
        score = float(K.play_games(eval_decks, bool(adjacent), mode, T, V, pts).mean())
        history.append(score)
        if progress:
            progress(it, score)
        if score > best:
            best, best_V = score, V.copy()
    return best_V, history


def _pack(arr: np.ndarray) -> str:
    import base64
    import zlib

    return base64.b64encode(zlib.compress(np.ascontiguousarray(arr, dtype="<f4").tobytes(), 9)).decode("ascii")


def _unpack(text: str) -> np.ndarray:
    import base64
    import zlib

    return np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype="<f4").astype(np.float64)


def _main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - offline training
    """Write poker_values.json: ``python -m assistant.advisors.poker_advisor [iterations] [games] [plain]``.

    Trains the plain tables of the four rule sets (only with ``plain``; otherwise those in the file are kept),
    then the deck-aware tables of free placement, starting from the plain ones.
    ``python -m assistant.advisors.poker_advisor 2 1000000 continue english`` instead continues the training of
    one deck-aware table from the one in the file (seed 7) and keeps it if its bare policy is better (issue 14:
    English 50.8 -> 51.9)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    iterations = int(args[0]) if args else 6
    games = int(args[1]) if len(args) > 1 else 150_000
    data = dict(_values_file())
    tables = dict(data.get("tables", {}))
    scores = dict(data.get("bare_policy_mean", {}))
    if len(args) > 3 and args[2] == "continue":
        name = _table_name(args[3], False)
        start = _learned_table(args[3], False, True)
        V, hist = train_values(args[3], False, iterations, games, deck_aware=True, start=start, seed=7,
                               progress=lambda i, sc: print(f"{name} deck-aware iteration {i}: bare policy {sc:.2f}", flush=True))
        key = name + " deck-aware"
        if max(hist) > scores.get(key, -1.0):
            data["tables2"] = {**data.get("tables2", {}), name: _pack(V)}
            data["bare_policy_mean"] = {**scores, key: round(max(hist), 2)}
            data["continued"] = {**data.get("continued", {}),
                                 name: f"{iterations} iterations of {games} deals from the previous table, seed 7"}
            VALUES_FILE.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        return 0
    if len(args) > 2 and args[2] == "plain" or not tables:
        for scoring in ("american", "english"):
            for adjacent in (False, True):
                name = _table_name(scoring, adjacent)
                V, hist = train_values(scoring, adjacent, iterations, games,
                                       progress=lambda i, sc, n=name: print(f"{n} iteration {i}: bare policy {sc:.2f}", flush=True))
                tables[name] = [round(float(x), 3) for x in V.ravel()]
                scores[name] = round(max(hist), 2)
    tables2 = {}
    for scoring in ("american", "english"):
        name = _table_name(scoring, False)
        start = np.asarray(tables[name], dtype=np.float64).reshape(2, 26, -1)
        V, hist = train_values(scoring, False, iterations, games, deck_aware=True, start=start, seed=2,
                               progress=lambda i, sc, n=name: print(f"{n} deck-aware iteration {i}: bare policy {sc:.2f}", flush=True))
        tables2[name] = _pack(V)
        scores[name + " deck-aware"] = round(max(hist), 2)
    out = {
        "about": "Learned line values for the Poker Patience policy, made by "
                 "assistant.advisors.poker_advisor.train_values. tables: V[line type, cards on grid, key] (plain "
                 "keys, poker_kernels.N_KEYS), flattened; tables2: deck-aware keys (N_KEYS2), float32 zlib base64.",
        "iterations": iterations,
        "games_per_iteration": games,
        "bare_policy_mean": scores,
        "tables": tables,
        "tables2": tables2,
    }
    VALUES_FILE.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
