"""Perfect-information Sir Tommy solver: with the stock order known, is the deal winnable?

``solve(state, order, node_limit)`` / ``solve_deal(rules, deck, node_limit)`` answer ``SolveResult``:
``status`` is ``"won"`` (``moves`` is a winning line, replayable move by move in ``TommyState``), ``"lost"``
(every line was searched: none wins) or ``"undecided"`` (the node budget ran out first).

The search (``tommy_kernels.solve``, numba) is a depth-first search over every legal move -- a waste top to a
foundation, the turned card to a foundation, the turned card to each waste pile (one empty pile stands for all)
-- so holding a card back and the order of foundation plays are searched too.  It uses:

* a transposition table keyed by a hash that treats the waste piles (and, when the foundations are alike, the
  foundations) as multisets, so permuted piles and reordered plays are searched once;
* a sound dead-end cut: with M the highest foundation, a deal is lost once every card of rank M+1 not yet turned
  lies in a waste pile under a higher card;
* first a nested Monte Carlo search of level 2 (Cazenave 2009): every move at every step is scored by a level-1
  search from it (greedy on the rollout rule's result of each move), the best line found is followed; it finds
  most wins within a fraction of a second (measured: 33 of 40 deals, 0.9 s a deal);
* then a limited discrepancy search: first the line that the rollout-ordered moves give, then lines that
  leave it once, twice, 4, 8, ... times, and at last without a limit; only that last pass can answer "lost".
  The node budget counts search nodes and rollouts together.

Shuffled redeals (in suit) have an unknown order: the solver plays without them, so it can answer "won" or
"undecided" there, never "lost".  One-redeal's merged stock is searched (its order follows from the piles).
Four at a time and Strategy are not searched (``UnsupportedVariant``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from numba import njit

from assistant.advisors import tommy_kernels as K
from assistant.advisors.tommy_advisor import UnsupportedVariant, kernel_params, position_from_arrays
from assistant.cards import Card
from assistant.games.tommy import TommyState
from assistant.games.tommy_rules import REDEAL, Move, TommyRules

DEFAULT_NODES = 200_000
TABLE_BITS = 20

# -- compiled search (numba) ------------------------------------------------------------------------------

MOVE_S_W = 0  # turned card -> waste pile a
MOVE_S_F = 1  # turned card -> foundation b
MOVE_W_F = 2  # waste pile a top -> foundation b
MOVE_R = 3  # redeal


@njit(cache=True)
def _mix(x):
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return x


@njit(cache=True)
def _state_hash(piles, ph, fh, fs, pos, redeals, P, ZP, ZF):
    """Hash of a position; waste piles hashed as a multiset (they are interchangeable), foundations too when
    they are alike."""
    h = _mix(np.uint64(pos + 1) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(redeals))
    for p in range(4):
        x = np.uint64(0x12345 + ph[p])
        for i in range(ph[p]):
            x ^= ZP[i, piles[p, i]]
        h += _mix(x)
    for f in range(4):
        key = 0 if P[K.P_SAME_FOUND] != 0 else f + 1
        if P[K.P_IN_SUIT] != 0:
            key = 5 + fs[f]  # -1..3 -> 4..8
        h += ZF[key, fh[f]]
    return h


@njit(cache=True)
def _apply(kind, a, b, piles, ph, fh, fs, stock, pos):
    """Make a solver move; returns the new stock position."""
    if kind == MOVE_W_F:
        c = piles[a, ph[a] - 1]
        K.put_found(c, b, fh, fs)
        ph[a] -= 1
        return pos
    c = stock[pos]
    if kind == MOVE_S_F:
        K.put_found(c, b, fh, fs)
    else:
        piles[a, ph[a]] = c
        ph[a] += 1
    return pos + 1


@njit(cache=True)
def _moved(kind, a, piles, ph):
    """The waste top that a waste-to-foundation move plays (kept to take the move back), else -1."""
    return piles[a, ph[a] - 1] if kind == MOVE_W_F else np.int8(-1)


@njit(cache=True)
def _unapply(kind, a, b, old_fs, card, piles, ph, fh, fs):
    """Take a move back; ``card`` is the card a waste-to-foundation move played (``_moved``): its slot may have
    been written over since by a card placed on that pile and taken back."""
    if kind == MOVE_W_F:
        piles[a, ph[a]] = card
        ph[a] += 1
        fh[b] -= 1
        fs[b] = old_fs
    elif kind == MOVE_S_F:
        fh[b] -= 1
        fs[b] = old_fs
    else:
        ph[a] -= 1


@njit(cache=True)
def _probe(piles, ph, fh, fs, stock, pos, n, redeals, P, NR, W, sp, sph, sfh, sfs, sst):
    """Foundation cards at the end of the rollout rule's play from here, the order stock[pos:n] known."""
    sp[:, :] = piles
    sph[:] = ph
    sfh[:] = fh
    sfs[:] = fs
    m = n - pos
    sst[:m] = stock[pos:n]
    q = P.copy()
    q[K.P_REDEALS] = redeals if P[K.P_SHUFFLE] == 0 else 0
    return K.rollout(sp, sph, sfh, sfs, sst, 0, m, q, NR, W)


@njit(cache=True)
def _visit(piles, ph, fh, fs, pos, redeals, rem, P, ZP, ZF, table, tval, mask):
    """Transposition table: True when this position already failed with at least ``rem`` discrepancies left
    (else it is recorded now)."""
    h = _state_hash(piles, ph, fh, fs, pos, redeals, P, ZP, ZF)
    if h == np.uint64(0):
        h = np.uint64(1)
    slot = h & mask
    for probe in range(8):
        j = (slot + np.uint64(probe)) & mask
        v = table[j]
        if v == h:
            if tval[j] >= rem:
                return True
            tval[j] = rem
            return False
        if v == np.uint64(0):
            table[j] = h
            tval[j] = rem
            return False
    table[slot] = h  # a full bucket: overwrite
    tval[slot] = rem
    return False


@njit(cache=True)
def _gen(d, piles, ph, fh, fs, stock, pos, n, redeals, P, NR, W, mk, ma, mb, order, scratch, sst, turn_first):
    """The moves at depth d, best first: waste tops up, the turned card up, the turned card to each pile (one
    empty pile for all), redeal; ordered by how far the rollout rule gets after each (ties: that order).
    Returns how many."""
    nm = 0
    for p in range(4):
        if turn_first and pos < n:
            break  # the caller wants the next card turned before any play
        if ph[p] > 0:
            f = K.fits(piles[p, ph[p] - 1], fh, fs, P, NR)
            if f >= 0:
                mk[d, nm] = MOVE_W_F
                ma[d, nm] = p
                mb[d, nm] = f
                nm += 1
    if pos < n:
        c = stock[pos]
        f = K.fits(c, fh, fs, P, NR)
        if f >= 0:
            mk[d, nm] = MOVE_S_F
            ma[d, nm] = 0
            mb[d, nm] = f
            nm += 1
        first = K.policy_pile(c, piles, ph, fh, fs, P, NR, W)
        empty_done = False
        for k in range(5):
            if k == 0:
                p = first
            else:
                p = k - 1
                if p == first:
                    continue
            if ph[p] == 0:
                if empty_done:
                    continue
                empty_done = True
            mk[d, nm] = MOVE_S_W
            ma[d, nm] = p
            mb[d, nm] = 0
            nm += 1
    elif redeals > 0 and P[K.P_SHUFFLE] == 0:
        if ph[0] + ph[1] + ph[2] + ph[3] > 0:
            mk[d, nm] = MOVE_R
            ma[d, nm] = 0
            mb[d, nm] = 0
            nm += 1
    for i in range(nm):
        order[d, i] = i
    if nm > 1:
        sp = scratch[0]
        sph = scratch[1, 0, :4]
        sfh = scratch[1, 1, :4]
        sfs = scratch[1, 2, :4]
        mv = np.empty(nm, np.float64)
        for i in range(nm):
            if mk[d, i] == MOVE_R:
                mv[i] = -1.0
                continue
            old = fs[mb[d, i]]
            card = _moved(mk[d, i], ma[d, i], piles, ph)
            npos = _apply(mk[d, i], ma[d, i], mb[d, i], piles, ph, fh, fs, stock, pos)
            mv[i] = _probe(piles, ph, fh, fs, stock, npos, n, redeals, P, NR, W, sp, sph, sfh, sfs, sst) - 0.001 * i
            _unapply(mk[d, i], ma[d, i], mb[d, i], old, card, piles, ph, fh, fs)
        o = np.argsort(-mv)
        for i in range(nm):
            order[d, i] = o[i]
    return nm


@njit(cache=True)
def _search(piles, ph, fh, fs, stock, pos0, n0, redeals0, rem0, P, NR, W, ZP, ZF, table, tval, mask, counters,
            best_path, node_limit, scratch, sst, turn_first):
    """Iterative depth-first search (limited to ``rem0`` discrepancies: every move but a node's first costs one).
    Returns 1 (won: best_path[:counters[1]] is the line), 0 (no win within the limit), -1 (node budget out)."""
    D = 320
    mk = np.zeros((D, 12), np.int64)
    ma = np.zeros((D, 12), np.int64)
    mb = np.zeros((D, 12), np.int64)
    order = np.zeros((D, 12), np.int64)
    nm = np.zeros(D, np.int64)
    idx = np.zeros(D, np.int64)
    rem = np.zeros(D, np.int64)
    dpos = np.zeros(D, np.int64)
    dn = np.zeros(D, np.int64)
    dred = np.zeros(D, np.int64)
    oldfs = np.zeros(D, np.int8)
    oldcard = np.zeros(D, np.int8)
    savedp = np.zeros((8, 4, K.MAXH), np.int8)  # piles before each redeal (at most 8 redeals deep)
    savedh = np.zeros((8, 4), np.int8)
    nsaved = 0
    target = 4 * P[K.P_FOUND_SIZE]
    # the root
    counters[0] += 1
    if K.found_total(fh) == target:
        counters[1] = 0
        return 1
    if _visit(piles, ph, fh, fs, pos0, redeals0, rem0, P, ZP, ZF, table, tval, mask):
        return 0
    if K._dead(piles, ph, fh, stock, pos0, n0, P, NR):
        return 0
    d = 0
    dpos[0] = pos0
    dn[0] = n0
    dred[0] = redeals0
    rem[0] = rem0
    idx[0] = 0
    nm[0] = _gen(0, piles, ph, fh, fs, stock, pos0, n0, redeals0, P, NR, W, mk, ma, mb, order, scratch, sst, turn_first)
    while d >= 0:
        if idx[d] >= nm[d] or (idx[d] > 0 and rem[d] < 1):
            # this node is exhausted: back up and take back the move that led here
            d -= 1
            if d < 0:
                break
            i = order[d, idx[d] - 1]
            if mk[d, i] == MOVE_R:
                nsaved -= 1
                piles[:, :] = savedp[nsaved]
                ph[:] = savedh[nsaved]
            else:
                _unapply(mk[d, i], ma[d, i], mb[d, i], oldfs[d], oldcard[d], piles, ph, fh, fs)
            continue
        i = order[d, idx[d]]
        cost = 1 if idx[d] > 0 else 0
        idx[d] += 1
        kind = mk[d, i]
        best_path[d, 0] = kind
        best_path[d, 1] = ma[d, i]
        best_path[d, 2] = mb[d, i]
        if kind == MOVE_R:
            savedp[nsaved] = piles
            savedh[nsaved] = ph
            nsaved += 1
            n = dn[d]
            m = 0
            for p in range(4):
                for q in range(ph[p]):
                    stock[n + m] = piles[p, q]
                    m += 1
                ph[p] = 0
            npos = n
            nn = n + m
            nred = dred[d] - 1
        else:
            oldfs[d] = fs[mb[d, i]]
            oldcard[d] = _moved(kind, ma[d, i], piles, ph)
            npos = _apply(kind, ma[d, i], mb[d, i], piles, ph, fh, fs, stock, dpos[d])
            nn = dn[d]
            nred = dred[d]
        nrem = rem[d] - cost
        counters[0] += 1
        if counters[0] > node_limit:
            return -1
        if K.found_total(fh) == target:
            counters[1] = d + 1
            return 1
        if (d + 1 >= D - 1 or _visit(piles, ph, fh, fs, npos, nred, nrem, P, ZP, ZF, table, tval, mask)
                or K._dead(piles, ph, fh, stock, npos, nn, P, NR)):
            # a known failure or a dead end: take the move back at once
            if kind == MOVE_R:
                nsaved -= 1
                piles[:, :] = savedp[nsaved]
                ph[:] = savedh[nsaved]
            else:
                _unapply(kind, ma[d, i], mb[d, i], oldfs[d], oldcard[d], piles, ph, fh, fs)
            continue
        d += 1
        dpos[d] = npos
        dn[d] = nn
        dred[d] = nred
        rem[d] = nrem
        idx[d] = 0
        nm[d] = _gen(d, piles, ph, fh, fs, stock, npos, nn, nred, P, NR, W, mk, ma, mb, order, scratch, sst, False)
    return 0


@njit(cache=True)
def _moves(piles, ph, fh, fs, stock, pos, n, P, NR, W, mk, ma, mb):
    """The moves of a position (no redeal): waste tops up, the turned card up, to each pile (one empty pile)."""
    nm = 0
    for p in range(4):
        if ph[p] > 0:
            f = K.fits(piles[p, ph[p] - 1], fh, fs, P, NR)
            if f >= 0:
                mk[nm] = MOVE_W_F; ma[nm] = p; mb[nm] = f; nm += 1
    if pos < n:
        c = stock[pos]
        f = K.fits(c, fh, fs, P, NR)
        if f >= 0:
            mk[nm] = MOVE_S_F; ma[nm] = 0; mb[nm] = f; nm += 1
        empty_done = False
        for p in range(4):
            if ph[p] == 0:
                if empty_done: continue
                empty_done = True
            mk[nm] = MOVE_S_W; ma[nm] = p; mb[nm] = 0; nm += 1
    return nm

@njit(cache=True)
def _level1(piles, ph, fh, fs, stock, pos, n, P, NR, W, line, counters, scratch, sst):
    """Nested Monte Carlo search, level 1, from a copy of the position: at every step the move whose rollout
    (the rule's play of the known rest) gets furthest, moves into relaxed dead ends last.  Writes the line,
    returns (foundation cards at the end, length of the line)."""
    p2 = piles.copy(); ph2 = ph.copy(); fh2 = fh.copy(); fs2 = fs.copy()
    mk = np.empty(12, np.int64); ma = np.empty(12, np.int64); mb = np.empty(12, np.int64)
    sp = scratch[0]; sph = scratch[1, 0, :4]; sfh = scratch[1, 1, :4]; sfs = scratch[1, 2, :4]
    L = 0
    while True:
        nm = _moves(p2, ph2, fh2, fs2, stock, pos, n, P, NR, W, mk, ma, mb)
        if nm == 0:
            break
        best = 0; bv = -1.0
        if nm > 1:
            for i in range(nm):
                old = fs2[mb[i]]
                card = _moved(mk[i], ma[i], p2, ph2)
                npos = _apply(mk[i], ma[i], mb[i], p2, ph2, fh2, fs2, stock, pos)
                if K._dead(p2, ph2, fh2, stock, npos, n, P, NR):
                    v = -0.5
                else:
                    v = _probe(p2, ph2, fh2, fs2, stock, npos, n, 0, P, NR, W, sp, sph, sfh, sfs, sst) - 0.001 * i
                counters[0] += 1
                _unapply(mk[i], ma[i], mb[i], old, card, p2, ph2, fh2, fs2)
                if v > bv:
                    bv = v; best = i
        line[L, 0] = mk[best]; line[L, 1] = ma[best]; line[L, 2] = mb[best]; L += 1
        pos = _apply(mk[best], ma[best], mb[best], p2, ph2, fh2, fs2, stock, pos)
    return K.found_total(fh2), L

@njit(cache=True)
def _level2(piles, ph, fh, fs, stock, pos, n, P, NR, W, limit):
    """Nested Monte Carlo search, level 2 (Cazenave 2009): at every step each move is scored by a level-1 search
    from it; the best line found so far is followed (memorised).  Returns (1 won / 0 not found / -1 budget out,
    rollouts made, the winning line)."""
    counters = np.zeros(2, np.int64)
    scratch = np.zeros((2, 4, K.MAXH), np.int8); sst = np.zeros(stock.shape[0] + 64, np.int8)
    p2 = piles.copy(); ph2 = ph.copy(); fh2 = fh.copy(); fs2 = fs.copy()
    mk = np.empty(12, np.int64); ma = np.empty(12, np.int64); mb = np.empty(12, np.int64)
    tmp = np.zeros((320, 3), np.int64)
    bestline = np.zeros((320, 3), np.int64); bestlen = 0; bestscore = -1
    prefix = np.zeros((320, 3), np.int64); L = 0
    target = 4 * P[K.P_FOUND_SIZE]
    while True:
        nm = _moves(p2, ph2, fh2, fs2, stock, pos, n, P, NR, W, mk, ma, mb)
        if nm == 0:
            break
        for i in range(nm):
            old = fs2[mb[i]]
            card = _moved(mk[i], ma[i], p2, ph2)
            npos = _apply(mk[i], ma[i], mb[i], p2, ph2, fh2, fs2, stock, pos)
            sc, l = _level1(p2, ph2, fh2, fs2, stock, npos, n, P, NR, W, tmp, counters, scratch, sst)
            _unapply(mk[i], ma[i], mb[i], old, card, p2, ph2, fh2, fs2)
            if sc > bestscore:
                bestscore = sc
                bestline[:L] = prefix[:L]
                bestline[L, 0] = mk[i]; bestline[L, 1] = ma[i]; bestline[L, 2] = mb[i]
                bestline[L + 1:L + 1 + l] = tmp[:l]
                bestlen = L + 1 + l
                if sc == target:
                    return 1, counters[0], bestline[:bestlen].copy()
            if counters[0] > limit:
                return -1, counters[0], bestline[:0].copy()
        # follow the best line found so far (memorised)
        k = bestline[L, 0]; a = bestline[L, 1]; b = bestline[L, 2]
        prefix[L, 0] = k; prefix[L, 1] = a; prefix[L, 2] = b; L += 1
        pos = _apply(k, a, b, p2, ph2, fh2, fs2, stock, pos)
    return 0, counters[0], bestline[:0].copy()


@njit(cache=True)
def _zobrist(seed):
    """The hash keys of the transposition table (pile slots x cards, foundations x heights), drawn from ``seed``."""
    np.random.seed(seed)
    ZP = np.empty((K.MAXH * 2, 52), np.uint64)
    for i in range(K.MAXH * 2):
        for c in range(52):
            ZP[i, c] = _mix(np.uint64(np.random.randint(1, 2**62)) * np.uint64(3) + np.uint64(i * 52 + c))
    ZF = np.empty((9, 16), np.uint64)
    for i in range(9):
        for j in range(16):
            ZF[i, j] = _mix(np.uint64(np.random.randint(1, 2**62)) + np.uint64(i * 16 + j + 77))
    return ZP, ZF


@njit(cache=True)
def solve_arrays(piles, ph, fh, fs, stock, pos, n, P, NR, W, node_limit, table_bits, seed, turn_first=False):
    """Search every line with the whole order ``stock[pos:n]`` known.

    Returns (status, nodes, moves): status 1 = winnable (moves int16[k, 3] is a winning line: kind, pile,
    foundation), 0 = proven lost, -1 = undecided within node_limit.  ``stock`` needs room for a redeal
    (length >= n + 52).  ``turn_first``: no play before the next card is turned (the value of a position at
    the end of an advisor option, whose plays before that turn are other options).  Shuffled redeals are not searched (their order is unknown): with them a search
    that finds no win answers undecided, never lost.
    """
    ZP, ZF = _zobrist(seed)
    size = 1 << table_bits
    table = np.zeros(size, np.uint64)
    mask = np.uint64(size - 1)
    counters = np.zeros(2, np.int64)
    best_path = np.zeros((320, 3), np.int16)
    p2 = piles.copy()
    ph2 = ph.copy()
    fh2 = fh.copy()
    fs2 = fs.copy()
    st2 = stock.copy()
    tval = np.zeros(size, np.int16)
    scratch = np.zeros((2, 4, K.MAXH), np.int8)
    sst = np.zeros(stock.shape[0] + 64, np.int8)
    if not turn_first and P[K.P_REDEALS] == 0:
        # first a nested Monte Carlo search (finds most wins fast), then the exhaustive search for the rest
        r1, used, line = _level2(p2, ph2, fh2, fs2, st2, pos, n, P, NR, W, node_limit // 2)
        counters[0] += used
        if r1 == 1:
            return 1, counters[0], line.astype(np.int16)
    res = _discrepancy_passes(p2, ph2, fh2, fs2, st2, pos, n, P, NR, W, ZP, ZF, table, tval, mask, counters, best_path,
                              node_limit, scratch, sst, turn_first)
    if res == 0 and P[K.P_REDEALS] > 0 and P[K.P_SHUFFLE] != 0:
        res = -1
    k = counters[1] if res == 1 else 0
    return res, counters[0], best_path[:k].copy()


@njit(cache=True)
def _discrepancy_passes(p2, ph2, fh2, fs2, stock, pos, n, P, NR, W, ZP, ZF, table, tval, mask, counters, best_path,
                        node_limit, scratch, sst, turn_first):
    """Limited discrepancy search: the rollout rule's own line, then lines leaving it 1, 2, 4, ... times, finally
    without a limit (the only pass that can prove a deal lost). The last pass's status (1, 0, -1)."""
    rem = 0
    while True:
        full = rem >= 300
        res = _search(p2, ph2, fh2, fs2, stock, pos, n, P[K.P_REDEALS], 30000 if full else rem, P, NR, W, ZP, ZF, table,
                      tval, mask, counters, best_path, node_limit, scratch, sst, turn_first)
        if res != 0 or full:
            return res
        rem = rem * 2 if rem > 0 else 1


@njit(cache=True)
def _load(piles, ph, fh, fs, order, p2, ph2, fh2, fs2, stock):
    """Copy a candidate position into the work arrays and the order into the stock's front."""
    p2[:, :] = piles
    ph2[:] = ph
    fh2[:] = fh
    fs2[:] = fs
    stock[:order.shape[0]] = order


@njit(cache=True)
def hindsight(cp, cph, cfh, cfs, orders, P, NR, W, node_cap, solve_nodes, table_bits, out_found):
    """Hindsight values of candidate positions on given orders of the unseen cards (the sampled endgame of
    ``tommy_advisor``): for each order (a row of ``orders``, the same for every candidate) and candidate k,
    out_found[k, j] = all cards (a win) when the rollout rule wins with that order known or the solver
    (``turn_first``, at most ``solve_nodes`` nodes a search) finds a win, else the rule's foundation count.

    A fixed amount of work: orders are taken in turn until ``node_cap`` solver nodes are used; an order whose
    searches would pass the cap is left out (so every counted order has a value for every candidate).  A search
    that runs out of its own ``solve_nodes`` counts as not won (the rule's count).  Returns (orders done, nodes
    used, searches left undecided)."""
    Kn = cp.shape[0]
    n_ord, U = orders.shape
    target = 4 * P[K.P_FOUND_SIZE]
    ZP, ZF = _zobrist(1)
    size = 1 << table_bits
    table = np.zeros(size, np.uint64)
    tval = np.zeros(size, np.int16)
    mask = np.uint64(size - 1)
    counters = np.zeros(2, np.int64)
    best_path = np.zeros((320, 3), np.int16)
    scratch = np.zeros((2, 4, K.MAXH), np.int8)
    stock = np.zeros(U + 64 + 52, np.int8)
    sst = np.zeros(stock.shape[0] + 64, np.int8)
    p2 = np.empty((4, K.MAXH), np.int8)
    ph2 = np.empty(4, np.int8)
    fh2 = np.empty(4, np.int8)
    fs2 = np.empty(4, np.int8)
    nodes = 0
    undecided = 0
    done = 0
    for j in range(n_ord):
        if nodes >= node_cap:
            break
        complete = True
        und = 0
        used_here = 0
        for k in range(Kn):
            _load(cp[k], cph[k], cfh[k], cfs[k], orders[j], p2, ph2, fh2, fs2, stock)
            got = K.rollout(p2, ph2, fh2, fs2, stock, 0, U, P, NR, W)
            if got == target:
                out_found[k, j] = target
                continue
            _load(cp[k], cph[k], cfh[k], cfs[k], orders[j], p2, ph2, fh2, fs2, stock)
            limit = min(solve_nodes, node_cap - nodes - used_here)
            table[:] = 0
            tval[:] = 0
            counters[0] = 0
            counters[1] = 0
            res = _discrepancy_passes(p2, ph2, fh2, fs2, stock, 0, U, P, NR, W, ZP, ZF, table, tval, mask, counters,
                                      best_path, limit, scratch, sst, True)
            used_here += counters[0]
            if res == -1 and limit < solve_nodes:
                complete = False  # the cap, not this search's own limit, stopped it
                break
            if res == -1:
                und += 1
            out_found[k, j] = target if res == 1 else got
        nodes += used_here
        if not complete:
            break
        undecided += und
        done += 1
    return done, nodes, undecided


@dataclass(frozen=True)
class SolveResult:
    status: str  # "won", "lost" or "undecided"
    moves: tuple[Move, ...]
    nodes: int

    @property
    def won(self) -> bool:
        return self.status == "won"


def _check(rules: TommyRules) -> None:
    if rules.turn_count != 1:
        raise UnsupportedVariant(f"the solver does not search {rules.name!r} (four cards at a time)")
    if rules.waste_to_waste:
        raise UnsupportedVariant(f"the solver does not search {rules.name!r} (waste-to-waste moves)")


def solve(state: TommyState, order: Sequence[Card | str], node_limit: int = DEFAULT_NODES, seed: int = 1) -> SolveResult:
    """Solve ``state`` (hand empty: between turns) with the rest of the stock in ``order`` (first turned first)."""
    rules = state.rules
    _check(rules)
    if state.hand:
        raise ValueError("solve() needs a position between turns (no card in hand)")
    cards = [c if isinstance(c, Card) else Card.parse(c) for c in order]
    if sorted(cards) != state.stock_cards():
        raise ValueError("order must hold exactly the stock cards")
    a = state.to_arrays()
    pos, _, _, _, redeals_left = position_from_arrays(a)
    P, NR = kernel_params(rules, redeals_left)
    piles = np.zeros((4, K.MAXH), np.int8)
    ph = np.zeros(4, np.int8)
    for p in range(4):
        ph[p] = len(pos.piles[p])
        piles[p, : ph[p]] = pos.piles[p]
    fh = np.array(pos.fh, np.int8)
    fs = np.array(pos.fs, np.int8)
    stock = np.zeros(len(cards) + 64 + 52, np.int8)
    stock[: len(cards)] = [c.index for c in cards]
    status, nodes, path = solve_arrays(piles, ph, fh, fs, stock, 0, len(cards), P, NR, K.DEFAULT_WEIGHTS,
                                  int(node_limit), TABLE_BITS, int(seed))
    moves = []
    for kind, a1, a2 in path:
        if kind == MOVE_S_W:
            moves.append(Move("S", None, "W", int(a1)))
        elif kind == MOVE_S_F:
            moves.append(Move("S", None, "F", int(a2)))
        elif kind == MOVE_W_F:
            moves.append(Move("W", int(a1), "F", int(a2)))
        else:
            moves.append(REDEAL)
    return SolveResult({1: "won", 0: "lost"}.get(int(status), "undecided"), tuple(moves), int(nodes))


def solve_deal(rules: TommyRules | str, deck: Sequence[Card | str], node_limit: int = DEFAULT_NODES) -> SolveResult:
    """Solve a whole deal: ``deck`` in the order turned (the whole deck; bases and removed cards are taken out
    as ``TommyState`` does)."""
    state = TommyState(rules, order=deck)
    cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
    stock = set(state.stock_cards())
    return solve(state, [c for c in cards if c in stock], node_limit)


def replay(
    rules: TommyRules | str,
    deck: Sequence[Card | str],
    moves: Sequence[Move | str],
    turned: Sequence[Card | str] | None = None,
) -> TommyState:
    """Play ``moves`` on the deal ``deck`` in the engine, turning the next card whenever a placement needs one
    (from ``turned``, every card in the order turned, when given: needed after a shuffled redeal); raises
    IllegalMoveError (or CardError) on the first illegal step."""
    state = TommyState(rules, order=deck)
    cards = iter(turned) if turned is not None else None
    for m in moves:
        m = m if isinstance(m, Move) else Move.parse(m)
        if m.from_hand:
            while state.needs_card():  # an empty hand, or a batch of four still being turned
                if cards is not None:
                    state.turn(next(cards))
                else:
                    state.turn_next()
        state.apply(m)
    return state


def finish(state: TommyState, node_limit: int = DEFAULT_NODES) -> tuple[Move, ...]:
    """With the stock out and the hand empty: the plays that win if any order of them does (the order of plays
    to the foundations matters when same-rank cards compete), else every play that fits, left to right.
    With a known redeal order (one-redeal) the line may include ``R`` and the placements after it."""
    if state.hand or state.needs_card():
        raise ValueError("finish() is for the end: the stock used up and no card in hand")
    try:
        order = [] if not state.stock_cards() else None
        if order is not None and not (state.redeals_left > 0 and state.rules.shuffle_on_redeal):
            result = solve(state, order, node_limit)
            if result.won:
                return result.moves
    except UnsupportedVariant:
        pass
    trial = state.clone()
    moves = []
    while True:
        up = [m for m in trial.legal_moves() if m.target == "F"]
        if not up:
            break
        trial.apply(up[0])
        moves.append(up[0])
    return tuple(moves)
