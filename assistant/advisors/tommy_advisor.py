"""Sir Tommy advisor: for the turned card, every legal placement ranked by its estimated chance to win the deal.

Design (measured in docs/BENCHMARKS.md, section "Sir Tommy advisor"):

* **Options.** A decision is the placement of the turned card *plus the waste-to-foundation plays that follow it
  until the next card is turned* (the engine allows plays only with an empty hand, so that is the whole of the
  player's choice between two turns).  Every distinct end position reachable that way is one option: the card on
  each foundation that takes it or on each waste pile (empty piles are alike: one option), followed by every
  subset and order of waste plays that leads to a different position -- "play everything that fits" as well as
  holding a fitting card back, or playing one of two same-rank tops and not the other (same-rank cards compete
  for the foundations).  Options are compared on positions, so two orders of the same plays are one option.
* **Evaluation.** Flat Monte Carlo with common random numbers: each sample is one random order of the cards the
  player has not seen (the unseen cards are known as a set, not as an order), and every option is played out on
  the *same* orders with the tuned rollout rule (``tommy_kernels.policy_pile``: best fit; an empty pile only when
  no top is >= the card, cheap for high cards; else the highest top; stacking on an equal rank penalised; cards
  go up as soon as they fit).
* **Score.** Per sample an option scores ``win + FOUND_WEIGHT * foundation cards / cards in play`` (1 for a win
  plus 1 for its full foundations).  The rollout rule alone wins only about 1 deal in 10, so early in a deal
  nearly every rollout loses and the win indicator alone is noise; how far the rollout got is the informative
  part.  Measured (flat MC, 100 samples, 150-300 deals): weight 0 -> 21% wins, 0.05 -> 23%, 0.5-1000 -> 33-37%.
* **Anytime, deterministic.** Samples run in batches; after each batch an option whose paired score difference
  to the leader is below zero by more than ``Z_DROP`` standard errors, or is within ``EPS_SAME`` of it with that
  confidence, is dropped (successive elimination), so the samples go to the close options.  The budget ``budget_ms``
  is turned into a number of card steps (``STEPS_PER_MS``, measured once on the project machine) and the loop
  stops between batches when that work is done: the advice is a deterministic function of (position, rng
  state, budget_ms) on every machine.  ``samples=N`` caps the samples per option instead; ``strict_time=True``
  also stops at the wall clock (then results depend on the machine's speed).
* **Two-level search on close decisions.** When the flat rollouts have used ``FLAT_SHARE`` of the budget and two
  or more options are still in the race (or, with ``TWO_LEVEL_DELTA`` > 0, were dropped within that score of the
  leader), the ``TWO_LEVEL_TOP`` best are valued one ply deeper with the rest of the budget: the next card is drawn
  (each rank with its probability among the unseen cards) and placed every distinct way, each placement played
  out by the rule, and the best placement counts (``tommy_kernels.two_level``).  The next card is then placed by
  the search rather than by the rule, which removes one step of the rule's bias; such options are ranked first,
  by that value (their ``score``).  Measured in paired runs (docs/BENCHMARKS.md).
* **Sampled hindsight endgame.**  With ENDGAME_UNSEEN + 1 .. ``SAMPLED_UNSEEN`` (5-12) unseen cards the options,
  hold-backs included, are valued as in the exact endgame but on ``SAMPLED_ORDERS`` sampled orders of the unseen
  cards (common to all options), each searched by the solver within a small node limit (``_sampled_endgame``,
  ``tommy_solver.hindsight``); the rollouts take over if too few orders fit the budget.  Measured in paired runs
  (docs/BENCHMARKS.md, session 14).
* **Ranking.** Options are sorted by their mean score (``TommyOption.score``), options still in the race before
  dropped ones; ``win_prob`` (with its interval) and ``expected_foundation`` are reported beside it.  The win
  probability is that of the rollout rule after the option, so it underestimates the chances of a strong player
  (about 10% for a fresh deal, where the advisor itself wins several times as often); it ranks options well.

Variants: standard, old-strict (the advisor sees what the player remembers), aces-out-first, numerica, in-suit
(with its two shuffled redeals: the rollouts redeal when stuck), calculation, puss-in-the-corner, one-redeal
(the merged second stock W0..W3 is simulated; once it is turned the order is known and every sample is that
order) and Strategy (any-suit foundations with waste-to-waste moves: every deal is won once the stock is out,
so every placement has win probability 1 exactly).  Four at a time: an option places all four turned cards (in
any order, ``S0``..``S3``) and then plays up; the rollouts place each batch of four in the order turned and play
up after it; there is no exact endgame (the solver does not search four at a time).  Rules outside the presets
that the advisor cannot handle raise ``UnsupportedVariant``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from assistant.advisors import tommy_kernels as K
from assistant.stats import wilson_interval
from assistant.games.tommy_rules import Move, TommyRules

# Card steps per millisecond of budget: rollout card steps the kernel makes per ms on the project machine
# (2-core x86_64, one thread, while another job shares the CPU).  Fixed so that a budget means the same work, and
# the same advice, everywhere.  6,000 until the rollouts stopped re-checking the foundations after a card that went
# to a waste pile (same play, ~17% faster: 6,266 -> 7,338 steps a ms CPU on the same positions).  Rank-only rules
# (the standard game) roll out on ranks since session 9, the same play about 6.5-7x faster: their decisions do this
# work in a seventh of the CPU.  Measured to buy nothing as 7x the work at 250 ms CPU (625 vs 634 won of 1,000
# paired deals; docs/BENCHMARKS.md), so the work stays and the speed goes to quicker hints.
STEPS_PER_MS = 7000.0
BATCH = 32  # samples per batch (every option alive gets the same samples)
# before any option is dropped, and the z of the drop: 128 / 5 (was 64 / 3) spend more of the budget on close
# decisions: +2.3 points of wins over 600 paired deals (se 1.1), ~1.6x the CPU a game (docs/BENCHMARKS.md)
MIN_SAMPLES = 128
Z_DROP = 5.0  # an option is dropped when the leader beats it by more than this many standard errors
EPS_SAME = 0.002  # ... or when the two are within this score of each other with that confidence (indifference)
FOUND_WEIGHT = 1.0  # weight of the foundation fraction in the per-sample score (see the module doc)
MAX_OPTIONS = 48
MAX_STARTS = 800  # four at a time: distinct positions after placing the four cards (searched)
MAX_FOUR_OPTIONS = 24  # ... of which the rollout rule's favourites are valued
HOLD_OPTIONS = "endgame"  # hold-back options: "endgame" (where the solver values them), True (always), False
ENDGAME_UNSEEN = 4  # with this few unseen cards (or a known order) options are valued by the solver, every order
ENDGAME_NODES = 20_000
ENDGAME_FREE = 3  # up to this many unseen cards the endgame search is not counted against the budget (as before)
SOLVER_NODES_PER_MS = 120.0  # solver nodes per ms of budget (measured: ~127 a ms CPU on the project machine)
# Sampled hindsight endgame (off when SAMPLED_UNSEEN <= ENDGAME_UNSEEN; session 14, docs/BENCHMARKS.md): with
# ENDGAME_UNSEEN + 1 .. SAMPLED_UNSEEN unseen cards each option is valued by the solver on SAMPLED_ORDERS random
# orders of the unseen cards (every order when there are no more), the same orders for every option, within
# SAMPLED_SHARE of the decision's budget in solver nodes and SAMPLED_SOLVE_NODES a search; with fewer than
# SAMPLED_MIN_ORDERS orders done the rollouts value the closed options with the rest.  SAMPLED_HOLD: hold-back
# options are offered there too.  8 with hold-backs (64 orders, 300 nodes): +1.2 points of wins over 1,600 paired
# deals (se 0.52; without hold-backs +0.1); 12 with hold-backs (128 orders, 100 nodes), with the solver's
# take-back fixed (session 15): +2.8 more over deals 0-999 (se 0.76; 67.2 % won).
SAMPLED_UNSEEN = 12
SAMPLED_ORDERS = 128
SAMPLED_MIN_ORDERS = 8
SAMPLED_SHARE = 0.8
SAMPLED_SOLVE_NODES = 100
SAMPLED_HOLD = True
MAX_SAMPLES_DEFAULT = 200_000
# Two-level search on close decisions (``tommy_kernels.two_level``): when the flat rollouts have used FLAT_SHARE of
# the budget and several options are still in the race, the TWO_LEVEL_TOP best of them are valued one ply deeper
# (the next card placed by the search, not by the rule) with the rest of the budget, if that gives at least
# TWO_LEVEL_MIN samples per unseen card.
TWO_LEVEL = True
FLAT_SHARE = 0.3
TWO_LEVEL_TOP = 3
TWO_LEVEL_MIN = 4
TWO_LEVEL_DELTA = 0.0  # > 0: options dropped within this flat score of the leader are searched too (see _two_level)


class UnsupportedVariant(ValueError):
    """The advisor cannot advise on these rules (yet); the message says which and why."""


@dataclass(frozen=True)
class TommyOption:
    """One choice: ``move`` places the turned card, ``moves`` is the whole sequence (placement then waste plays).

    ``win_prob`` is the estimated chance to win the deal after these moves, ``win_ci`` its 95% Wilson interval and
    ``win_se`` its standard error, over ``samples`` random orders of the unseen cards; ``expected_foundation`` is
    the mean number of cards on the foundations at the end; ``score`` = win_prob + FOUND_WEIGHT *
    expected_foundation / cards in play, the ranking criterion.  ``dropped`` is True when the option left the race
    early because another option was clearly better (it then has fewer samples)."""

    move: Move
    moves: tuple[Move, ...]
    win_prob: float
    win_ci: tuple[float, float]
    win_se: float
    expected_foundation: float
    samples: int
    dropped: bool = False
    score: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(str(m) for m in self.moves)


@dataclass(frozen=True)
class TommyAdvice:
    """The options for one decision, best first; ``samples`` = rollouts made in all; ``exact`` when the values
    are certain (Strategy, or a known stock order)."""

    options: tuple[TommyOption, ...]
    samples: int
    variant: str
    exact: bool = False
    note: str = ""

    @property
    def best(self) -> TommyOption:
        return self.options[0]


# ------------------------------------------------------------------------------------------------------------
# Rules -> kernel parameters
# ------------------------------------------------------------------------------------------------------------


def kernel_params(rules: TommyRules, redeals_left: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(P, NR) for the kernels: see ``tommy_kernels``'s module docstring."""
    P = np.zeros(8, np.int64)
    size = rules.foundation_size
    P[K.P_FOUND_SIZE] = size
    P[K.P_IN_SUIT] = int(rules.in_suit)
    P[K.P_REDEALS] = rules.redeals if redeals_left is None else redeals_left
    P[K.P_SHUFFLE] = int(rules.shuffle_on_redeal)
    P[K.P_SAME_FOUND] = int(not rules.calculation and not rules.in_suit)
    P[K.P_VALUE_BY_NEED] = 0
    P[K.P_TURN] = rules.turn_count
    NR = np.zeros((4, 14), np.int8)
    for f in range(4):
        top = None
        for h in range(size):
            need = rules.next_rank(f, top)
            if need is None:
                break
            NR[f, h] = need
            top = need
    P[K.P_RANK_ORDER] = int(all(NR[f, h] == h + 1 for f in range(4) for h in range(size)))
    return P, NR


def check_supported(rules: TommyRules) -> None:
    """Raise UnsupportedVariant for rules the advisor cannot advise on (none of the presets at present)."""
    if rules.turn_count not in (1, 4):
        raise UnsupportedVariant(f"the advisor cannot advise on {rules.turn_count} cards at a time")
    if rules.turn_count == 4 and (rules.redeals or rules.waste_to_waste):
        raise UnsupportedVariant(
            f"the advisor cannot advise on {rules.name!r}: four at a time is built only without redeals and "
            "waste-to-waste moves"
        )


# ------------------------------------------------------------------------------------------------------------
# Positions (plain tuples: piles of card indices bottom first, foundation heights and suits)
# ------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pos:
    piles: tuple[tuple[int, ...], ...]
    fh: tuple[int, ...]
    fs: tuple[int, ...]

    def key(self, same_found: bool) -> tuple:
        found = tuple(sorted(zip(self.fh, self.fs))) if same_found else (self.fh, self.fs)
        return (tuple(sorted(self.piles)), found)


def _fits_at(card: int, f: int, pos: _Pos, P: np.ndarray, NR: np.ndarray) -> bool:
    r = card % 13 + 1
    if NR[f, pos.fh[f]] != r:
        return False
    return not P[K.P_IN_SUIT] or pos.fs[f] < 0 or pos.fs[f] == card // 13


def _to_found(pos: _Pos, card: int, f: int) -> _Pos:
    fh = list(pos.fh)
    fs = list(pos.fs)
    fh[f] += 1
    if fs[f] < 0:
        fs[f] = card // 13
    return _Pos(pos.piles, tuple(fh), tuple(fs))


def _foundation_targets(card: int, pos: _Pos, P, NR, in_order: bool) -> list[int]:
    out = []
    for f in range(4):
        if _fits_at(card, f, pos, P, NR):
            if in_order and pos.fh[f] == 0 and any(pos.fh[g] == 0 for g in range(f)):
                continue  # Numerica: only the leftmost empty foundation
            out.append(f)
    return out


def _enumerate_options(pos: _Pos, hand, P, NR, rules: TommyRules, hold: bool = True) -> list[tuple[tuple[Move, ...], _Pos]]:
    """Every distinct end position: the turned card(s) placed, then any waste-to-foundation plays (module doc).

    Four at a time: the four cards in hand are placed in any order (``S0``..``S3`` index the cards still in
    hand, in the order turned), each on a foundation that takes it then or on a waste pile; plays come after."""
    if isinstance(hand, (int, np.integer)):
        hand = [int(hand)]
    same = bool(P[K.P_SAME_FOUND])
    in_order = rules.foundations_in_order
    one = rules.turn_count == 1
    starts: list[tuple[tuple[Move, ...], _Pos]] = []
    costs: dict = {}
    seen: set = set()
    visited: set = set()
    W = K.DEFAULT_WEIGHTS

    def place(moves, q: _Pos, left: tuple[int, ...], cost: float = 0.0):
        if not left:
            k = q.key(same)
            if k not in seen:
                seen.add(k)
                starts.append((moves, q))
                costs[id(starts[-1])] = cost
            return
        vk = (q.key(same), tuple(sorted(left)))
        if vk in visited or len(starts) >= MAX_STARTS:
            return
        visited.add(vk)
        for i, card in enumerate(left):
            if i > 0 and card in left[:i]:
                continue
            src = None if one else i
            rest = left[:i] + left[i + 1:]
            for f in _foundation_targets(card, q, P, NR, in_order):
                place(moves + (Move("S", src, "F", f),), _to_found(q, card, f), rest, cost - 5.0)
            empty_done = False
            for p in range(4):
                if not q.piles[p]:
                    if empty_done:
                        continue
                    empty_done = True
                piles = list(q.piles)
                piles[p] = piles[p] + (card,)
                place(moves + (Move("S", src, "W", p),), _Pos(tuple(piles), q.fh, q.fs), rest,
                      cost + _rule_cost(card, q.piles[p], W))

    place((), pos, tuple(hand))
    if len(hand) > 1 and len(starts) > MAX_FOUR_OPTIONS:
        # four at a time: keep the placements the rollout rule likes best (sum of its costs), so the samples
        # are not spread over hundreds of poor options
        order = sorted(range(len(starts)), key=lambda i: costs[id(starts[i])])
        starts = [starts[i] for i in order[:MAX_FOUR_OPTIONS]]
    # Each placement, then its plays: depth-first, "play" before "stop", so each placement's first end
    # position listed after the plain placement is the greedy closure.
    out: list[tuple[tuple[Move, ...], _Pos]] = []
    ends: set = set()

    def grow(moves, q: _Pos):
        k = q.key(same)
        if k in ends or len(out) >= 4 * max(MAX_OPTIONS, len(starts)):
            return
        ends.add(k)
        out.append((moves, q))
        for p in range(4):
            if q.piles[p]:
                top = q.piles[p][-1]
                for f in _foundation_targets(top, q, P, NR, in_order):
                    piles = list(q.piles)
                    piles[p] = piles[p][:-1]
                    nxt = _to_found(_Pos(tuple(piles), q.fh, q.fs), top, f)
                    grow(moves + (Move("W", p, "F", f),), nxt)

    for moves, q in starts:
        grow(moves, q)
    if not hold:
        out = [x for x in out if _closed(x[1], P, NR)]
    limit = max(MAX_OPTIONS, len(starts) if not hold else 0)
    if len(out) > limit:
        # keep every plain placement and its greedy closure first, then the rest in order found
        greedy = {id(x) for x in out if _closed(x[1], P, NR)}
        plain = {id(x) for x in out if len(x[0]) == 1}
        first = [x for x in out if id(x) in greedy or id(x) in plain]
        rest = [x for x in out if id(x) not in greedy and id(x) not in plain]
        out = (first + rest)[:limit]
    return out


def _rule_cost(card: int, pile: tuple[int, ...], W: np.ndarray) -> float:
    """The rollout rule's cost of putting ``card`` on ``pile`` (as ``tommy_kernels.policy_pile``, by rank)."""
    r = card % 13 + 1
    if not pile:
        return float(W[K.W_EMPTY] - W[K.W_EMPTY_HIGH] * r)
    t = pile[-1] % 13 + 1
    if t >= r:
        return float(W[K.W_FIT] * (t - r) + W[K.W_FIT_DEPTH] * len(pile) + (W[K.W_EQ] if t == r else 0.0))
    return float(W[K.W_BURY] - W[K.W_BURY_HIGH] * t)


def _closed(pos: _Pos, P, NR) -> bool:
    return not any(pile and any(_fits_at(pile[-1], f, pos, P, NR) for f in range(4)) for pile in pos.piles)


# ------------------------------------------------------------------------------------------------------------
# State -> position
# ------------------------------------------------------------------------------------------------------------


def _read_state(state_or_arrays: Any) -> tuple[TommyRules | None, Mapping[str, np.ndarray]]:
    if isinstance(state_or_arrays, Mapping):
        return None, state_or_arrays
    return state_or_arrays.rules, state_or_arrays.to_arrays()


def _rules_from_params(params: np.ndarray) -> TommyRules:
    t, aces, suit, redeals, shuffle, w2w, in_order, calc, max_rank, hidden = (int(x) for x in params[:10])
    return TommyRules(
        "arrays", aces_out_first=bool(aces), turn_count=t, hidden_piles=bool(hidden), in_suit=bool(suit),
        redeals=redeals, shuffle_on_redeal=bool(shuffle), waste_to_waste=bool(w2w),
        foundations_in_order=bool(in_order), calculation=bool(calc), kings_removed=max_rank == 12,
    )


def position_from_arrays(a: Mapping[str, np.ndarray]) -> tuple[_Pos, list[int], np.ndarray, np.ndarray | None, int]:
    """(position, hand cards, sample pool, known stock order or None, redeals left) from ``to_arrays()``."""
    piles = tuple(tuple(int(c) for c in a["waste"][p, : int(a["waste_len"][p])]) for p in range(4))
    fh = tuple(int(x) for x in a["found_len"])
    fs = tuple(int(a["found"][f, 0]) // 13 if fh[f] > 0 else -1 for f in range(4))
    hand = [int(c) for c in a["hand"][: int(a["hand_len"][0])]]
    pool = np.flatnonzero(a["stock_mask"]).astype(np.int8)
    order = a["stock_order"]
    known = order[order >= 0].astype(np.int8) if (order >= 0).any() else None
    redeals_left = int(a["scalars"][2])
    return _Pos(piles, fh, fs), hand, pool, known, redeals_left


def _pack(positions: list[_Pos]) -> tuple[np.ndarray, ...]:
    n = len(positions)
    cp = np.zeros((n, 4, K.MAXH), np.int8)
    cph = np.zeros((n, 4), np.int8)
    cfh = np.zeros((n, 4), np.int8)
    cfs = np.zeros((n, 4), np.int8)
    for k, q in enumerate(positions):
        for p in range(4):
            cph[k, p] = len(q.piles[p])
            cp[k, p, : len(q.piles[p])] = q.piles[p]
        cfh[k] = q.fh
        cfs[k] = q.fs
    return cp, cph, cfh, cfs


# ------------------------------------------------------------------------------------------------------------
# The advisor
# ------------------------------------------------------------------------------------------------------------


def advise(
    state_or_arrays: Any,
    rng: np.random.Generator,
    budget_ms: float | None = 250.0,
    *,
    samples: int | None = None,
    strict_time: bool = False,
    weights: np.ndarray | None = None,
) -> TommyAdvice:
    """Rank every option for the turned card (a ``TommyState`` with a card in hand, or its ``to_arrays()``).

    ``rng`` (numpy Generator) seeds the sampling: one integer is drawn from it per call.  ``budget_ms`` sets the
    work (a deterministic number of rollout card steps, see ``STEPS_PER_MS``); ``samples`` caps the samples per
    option (exactly reproducible, whatever the budget); with both, the smaller limit applies.  Raises
    ``UnsupportedVariant`` for rules it cannot advise on, ``ValueError`` when no card is in hand.
    """
    rules, a = _read_state(state_or_arrays)
    if rules is None:
        rules = _rules_from_params(a["params"])
    check_supported(rules)
    pos, hand, pool, known, redeals_left = position_from_arrays(a)
    if not hand:
        raise ValueError("the advisor needs the turned card in hand (turn a card first)")
    if rules.turn_count == 1 and len(hand) != 1:
        raise ValueError("one card at a time: exactly one turned card must be in hand")
    if int(a["scalars"][1]) > 0:
        raise ValueError(f"turn the rest of the {rules.turn_count} cards first: all are placed together")
    P, NR = kernel_params(rules, redeals_left)
    W = K.DEFAULT_WEIGHTS if weights is None else np.asarray(weights, np.float64)
    n_hidden = len(known) if known is not None else len(pool)
    endgame = (
        (known is not None or n_hidden <= ENDGAME_UNSEEN)
        and not (P[K.P_REDEALS] > 0 and P[K.P_SHUFFLE])
        and rules.turn_count == 1
    )
    sampled = (
        not endgame and known is None and ENDGAME_UNSEEN < n_hidden <= SAMPLED_UNSEEN
        and not (P[K.P_REDEALS] > 0 and P[K.P_SHUFFLE]) and rules.turn_count == 1
    )
    hold = HOLD_OPTIONS is True or (HOLD_OPTIONS == "endgame" and (endgame or (sampled and SAMPLED_HOLD)))
    opts = _enumerate_options(pos, hand, P, NR, rules, hold)
    target = 4 * rules.foundation_size
    seed = int(rng.integers(0, 2**31 - 1))

    if rules.waste_to_waste and not rules.in_suit and not rules.calculation:
        # Strategy: any buried card can be dug out once the stock is out, so every line wins.
        options = tuple(
            TommyOption(m[0], m, 1.0, (1.0, 1.0), 0.0, float(target), 0, False, 1.0 + FOUND_WEIGHT) for m, _ in opts
        )
        return TommyAdvice(options, 0, rules.name, exact=True,
                           note="Strategy: with waste-to-waste moves every deal is won once the stock is out")

    if known is not None:
        sample_cards = known
        n_max = 1  # the order is known: one play-out is exact for the rollout rule
    else:
        sample_cards = pool
        n_max = MAX_SAMPLES_DEFAULT
    if samples is not None:
        n_max = min(n_max, max(1, int(samples)))
    U = int(sample_cards.shape[0])
    step_budget = math.inf if budget_ms is None else max(1.0, budget_ms) * STEPS_PER_MS
    if budget_ms is None and samples is None:
        raise ValueError("give budget_ms or samples")

    Kn = len(opts)
    cp, cph, cfh, cfs = _pack([q for _, q in opts])
    alive = np.ones(Kn, np.bool_)
    two_value: dict[int, float] = {}
    t0 = time.perf_counter()
    exact_found = None
    if endgame:
        # up to ENDGAME_FREE unseen cards the search is small and runs whole; with more (24 orders of 4 cards) it
        # gets the decision's budget in solver nodes and gives way to the rollouts when that is spent
        node_cap = None
        if known is None and n_hidden > ENDGAME_FREE and budget_ms is not None:
            node_cap = max(1.0, budget_ms) * SOLVER_NODES_PER_MS
        exact_found, used = _endgame(cp, cph, cfh, cfs, sample_cards, known is not None, P, NR, W, target, node_cap)
        if node_cap is not None:
            step_budget = max(1.0, step_budget - used * STEPS_PER_MS / SOLVER_NODES_PER_MS)  # the rest to the rollouts
    hind_found = None
    if sampled and Kn > 1:
        # hindsight values on sampled orders, within a share of the budget in solver nodes (the rest: rollouts)
        node_cap = 1 << 62 if budget_ms is None else int(max(1.0, budget_ms) * SOLVER_NODES_PER_MS * SAMPLED_SHARE)
        n_orders = SAMPLED_ORDERS if samples is None else min(SAMPLED_ORDERS, max(1, int(samples)))
        hind_found, used = _sampled_endgame(cp, cph, cfh, cfs, sample_cards, seed, n_orders, P, NR, W, node_cap)
        step_budget = max(1.0, step_budget - used * STEPS_PER_MS / SOLVER_NODES_PER_MS)
    if (endgame or sampled) and exact_found is None and hind_found is None and HOLD_OPTIONS == "endgame" \
            and known is None and hold:
        # the rollouts value hold-back options badly (module doc): only the closed options go on
        opts = [x for x in opts if _closed(x[1], P, NR)]
        Kn = len(opts)
        cp, cph, cfh, cfs = _pack([q for _, q in opts])
        alive = np.ones(Kn, np.bool_)
    if exact_found is not None:
        found = exact_found
        n = found.shape[1]
        exact = True
    elif hind_found is not None:
        found = hind_found
        n = found.shape[1]
        exact = False
    elif U == 0 or known is not None:
        # no chance left (or the order is known): one play-out per option in that order
        found = np.zeros((Kn, 1), np.int16)
        for k in range(Kn):
            found[k, 0] = _play_out(cp[k], cph[k], cfh[k], cfs[k], sample_cards, P, NR, W)
        n = 1
        exact = True
    else:
        exact = False
        two = (
            TWO_LEVEL and math.isfinite(step_budget) and U >= 2 and Kn > 1 and rules.turn_count == 1
            and not P[K.P_IN_SUIT] and not (P[K.P_REDEALS] > 0 and P[K.P_SHUFFLE])
        )
        full_budget = step_budget
        if two:
            step_budget = FLAT_SHARE * full_budget
        cap = int(min(n_max, MAX_SAMPLES_DEFAULT))
        found = np.full((Kn, cap), -1, np.int16)
        steps = 0.0
        n = 0
        batch_no = 0
        while n < cap:
            # batches grow with n (a quarter of the samples so far) so the bookkeeping stays small; a batch is
            # cut to the work left in the budget
            b = min(max(BATCH, n // 4), cap - n)
            per_sample = int(alive.sum()) * (U + 8)
            if math.isfinite(step_budget):
                b = max(1, min(b, int((step_budget - steps) / per_sample) + 1))
            out = found[:, n:n + b]
            buf = np.zeros((Kn, b), np.int16)
            K.mc_batch(cp, cph, cfh, cfs, alive, sample_cards, b, seed + 104729 * batch_no, P, NR, W, buf)
            out[:, :] = buf
            batch_no += 1
            n += b
            steps += b * per_sample
            if Kn > 1 and n >= MIN_SAMPLES:
                _drop(found, alive, target, n)
            if int(alive.sum()) == 1 and n >= MIN_SAMPLES:
                break
            if steps >= step_budget:
                break
            if strict_time and budget_ms is not None and (time.perf_counter() - t0) * 1000.0 >= budget_ms:
                break
        found = found[:, :n]
        if two:
            two_value = _two_level(found, alive, cp, cph, cfh, cfs, sample_cards, seed, P, NR, W, target,
                                   full_budget - steps)

    options = []
    for k, (moves, _) in enumerate(opts):
        row = found[k]
        valid = row[row >= 0]
        m = int(valid.size)
        wins = int((valid == target).sum())
        p = wins / m if m else 0.0
        ef = float(valid.mean()) if m else 0.0
        score = p + FOUND_WEIGHT * ef / target
        deep = two_value.get(k)
        if deep is not None:
            score = deep
        options.append(
            (
                (bool(alive[k]), deep is not None, score, sum(opts[k][1].fh)),  # ties: more cards up
                TommyOption(
                    moves[0], moves, p, (p, p) if exact else wilson_interval(wins, m),
                    0.0 if exact else math.sqrt(p * (1 - p) / m) if m else 1.0,
                    ef, m, not bool(alive[k]), score,
                ),
            )
        )
    options.sort(key=lambda x: x[0], reverse=True)
    total = int((found >= 0).sum())
    return TommyAdvice(tuple(o for _, o in options), total, rules.name, exact=exact)


def _endgame(cp, cph, cfh, cfs, cards, known: bool, P, NR, W, target,
             node_cap: float | None = None) -> tuple[np.ndarray | None, int]:
    """Exact values late in a deal: every order of the few unseen cards (or the one known order), each option
    searched by the perfect-information solver.  Once this card is placed at most ENDGAME_UNSEEN - 1 cards are
    hidden, and their order is known when one is left, so the solver's hindsight is exact for up to 2 unseen
    cards and nearly so for 3, good for 4 (measured: flat MC at 200 samples, 300 paired deals, 162 won instead of
    157).  Returns (found, solver nodes used): found[k, j] = cards in play for a win, else the rollout rule's
    count; None if a search ran out of nodes, or all searches together used more than ``node_cap`` nodes."""
    import itertools

    from assistant.advisors.tommy_solver import solve_arrays

    orders = [np.array(cards, np.int8)] if known else [np.array(o, np.int8) for o in itertools.permutations(cards)]
    Kn = cp.shape[0]
    found = np.zeros((Kn, len(orders)), np.int16)
    stock = np.zeros(len(cards) + 64 + 52, np.int8)
    nodes = 0
    for j, order in enumerate(orders):
        for k in range(Kn):
            got = _play_out(cp[k], cph[k], cfh[k], cfs[k], order, P, NR, W)
            if got == target:
                found[k, j] = target
                continue
            stock[: len(order)] = order
            status, used, _ = solve_arrays(cp[k].copy(), cph[k].copy(), cfh[k].copy(), cfs[k].copy(), stock, 0,
                                           len(order), P, NR, W, ENDGAME_NODES, 14, 1, True)
            nodes += int(used)
            if status < 0 or (node_cap is not None and nodes > node_cap):
                return None, nodes
            found[k, j] = target if status == 1 else got
    return found, nodes


def _sampled_endgame(cp, cph, cfh, cfs, cards, seed: int, n_orders: int, P, NR, W,
                     node_cap: int) -> tuple[np.ndarray | None, int]:
    """Hindsight values on sampled orders (``SAMPLED_UNSEEN``): ``n_orders`` random orders of the unseen cards
    drawn from ``seed`` (every order when there are no more than that), the same for every option, each option
    valued per order as in ``_endgame`` (all cards when the rule or the solver, the order known, wins; else the
    rule's count) by ``tommy_solver.hindsight`` within ``node_cap`` solver nodes.  Returns (found[k, j] over the
    orders done, nodes used); found is None when fewer than SAMPLED_MIN_ORDERS orders were done."""
    import itertools

    from assistant.advisors.tommy_solver import hindsight

    cards = np.asarray(cards, np.int8)
    if math.factorial(len(cards)) <= n_orders:
        orders = np.array(list(itertools.permutations(cards)), np.int8)
    else:
        rng = np.random.default_rng(seed)
        orders = np.array([rng.permutation(cards) for _ in range(n_orders)], np.int8)
    found = np.zeros((cp.shape[0], len(orders)), np.int16)
    done, used, _ = hindsight(cp, cph, cfh, cfs, orders, P, NR, W, int(node_cap), int(SAMPLED_SOLVE_NODES), 14,
                              found)
    if done < min(SAMPLED_MIN_ORDERS, len(orders)):
        return None, int(used)
    return found[:, :done], int(used)


def _two_level(found, alive, cp, cph, cfh, cfs, cards, seed, P, NR, W, target, steps_left) -> dict[int, float]:
    """The TWO_LEVEL_TOP best options by flat score among those still in the race and those dropped within
    TWO_LEVEL_DELTA of the leader's flat score, valued one ply deeper with at most ``steps_left`` rollout steps
    (``tommy_kernels.two_level``) when there are two or more: {option index: value}; they are marked alive
    again.  Empty if fewer than two, or if the budget left gives fewer than TWO_LEVEL_MIN samples per unseen card."""
    f = found.astype(np.float64)
    valid = found >= 0
    per = np.where(valid, (f == target) + FOUND_WEIGHT * f / target, 0.0)
    flat = per.sum(axis=1) / np.maximum(1, valid.sum(axis=1))
    lead = flat[alive].max() if alive.any() else flat.max()
    cand = np.flatnonzero(alive | (flat >= lead - TWO_LEVEL_DELTA)) if TWO_LEVEL_DELTA > 0 else np.flatnonzero(alive)
    if len(cand) < 2:
        return {}
    sel = cand[np.argsort(-flat[cand], kind="stable")[:TWO_LEVEL_TOP]].astype(np.int64)
    out = np.zeros(len(sel), np.float64)
    unit = K.two_level(cp, cph, cfh, cfs, sel, cards, 0, seed, P, NR, W, out)
    per_card = int(steps_left // max(1, unit))
    if per_card < TWO_LEVEL_MIN:
        return {}
    K.two_level(cp, cph, cfh, cfs, sel, cards, per_card, seed + 15485863, P, NR, W, out)
    alive[sel] = True
    return {int(k): float(v) for k, v in zip(sel, out)}


def _play_out(piles, ph, fh, fs, order, P, NR, W) -> int:
    """The rollout rule's play of the stock in this known order (no sampling)."""
    stock = np.zeros(len(order) + 64 + 52, np.int8)
    stock[: len(order)] = order
    return int(K.rollout(piles.copy(), ph.copy(), fh.copy(), fs.copy(), stock, 0, len(order), P, NR, W))


def _drop(found: np.ndarray, alive: np.ndarray, target: int, n: int) -> None:
    """Successive elimination on paired per-sample scores (all alive options share every sample)."""
    idx = np.flatnonzero(alive)
    f = found[idx, :n].astype(np.float64)  # alive options have every sample
    score = (f == target) + FOUND_WEIGHT * f / target
    means = score.mean(axis=1)
    lead = int(np.argmax(means))
    for j, k in enumerate(idx):
        if j == lead:
            continue
        d = score[lead] - score[j]
        half = Z_DROP * d.std(ddof=1) / math.sqrt(n)
        if d.mean() > half or abs(d.mean()) + half < EPS_SAME:
            alive[k] = False
