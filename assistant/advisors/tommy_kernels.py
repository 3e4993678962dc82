"""Compiled (numba) hot loops for the Sir Tommy advisor and solver.

Compact layout of one position (all int8 unless said; cards are ``Card.index`` = suit*13 + rank-1)::

    piles  int8[4, 64]   waste pile p from bottom (0) to top (ph[p]-1)
    ph     int8[4]       waste pile heights
    fh     int8[4]       foundation heights: cards on foundation f (bases of Aces-out-first / Calculation count)
    fs     int8[4]       foundation suit (in suit: the suit of its Ace), -1 while empty
    P      int64[8]      rule parameters, see ``P_*`` below
    NR     int8[4, 14]   NR[f, h]: the rank foundation f takes at height h (0 when complete)

A card ``c`` fits foundation ``f`` when ``NR[f, fh[f]] == rank(c)`` and, in suit, the suit matches (an empty
foundation takes any suit).  Foundations are scanned left to right, so an Ace always starts the leftmost empty
foundation (Numerica's rule is kept automatically).

Randomness: every kernel that samples takes an integer ``seed`` and calls ``np.random.seed(seed)`` inside
(numba's own generator), so a result is a deterministic function of its arguments.  No clock, no I/O.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAXH = 64
P_FOUND_SIZE = 0  # cards on a complete foundation (13, or 12 without Kings)
P_IN_SUIT = 1
P_REDEALS = 2  # redeals left
P_SHUFFLE = 3  # redeal shuffles the gathered cards (else W0..W3 bottom to top)
P_SAME_FOUND = 4  # all foundations alike (hash them as a multiset)
P_VALUE_BY_NEED = 5  # Calculation: compare cards by how soon a foundation needs them, not by rank
P_TURN = 6  # cards turned at a time: 1 (0 means 1), or 4 (placed in the order turned, plays after the four)
P_RANK_ORDER = 7  # every foundation takes Ace, 2, 3, ... in order (NR[f, h] == h + 1): cards up are countable by rank

# Rollout policy weights (tuned on the policy's own win rate, see docs/BENCHMARKS.md).
W_FIT = 0  # per rank of gap when the pile top is >= the card
W_EQ = 1  # extra for stacking on an equal rank
W_EMPTY = 2  # an empty pile
W_EMPTY_HIGH = 3  # minus this per rank of the card on an empty pile (empty piles cheap for high cards)
W_BURY = 4  # pile top lower than the card (it gets buried)
W_BURY_HIGH = 5  # minus this per rank of the buried top (bury the highest top)
W_AVOID_DEAD = 6  # > 0: when the rule buries a lower top, avoid piles that make the deal lost in the relaxation
W_FIT_DEPTH = 7  # per card already on the pile (prefer short piles among fits)
W_FIT_COUNT = 8  # per card still to come up whose rank lies strictly between the card and the top (card counting)
N_WEIGHTS = 9

# The rule's own win rate (standard, 100,000 random deals) is 8.3% with these weights; plain best fit (no equal-rank
# penalty, no cheap empties) wins 9.7% and best fit with card counting ([1, 1, 20, 0, 100, 1, 0, 0, 1]) 10.4%, but
# as the rollout rule of the advisor neither did better (flat MC, 200 samples, 300 paired deals: 157 / 150 / 157
# won), so these stay (docs/BENCHMARKS.md).
DEFAULT_WEIGHTS = np.array([1.0, 3.0, 20.0, 0.6, 100.0, 1.0, 0.0, 0.0, 0.0], dtype=np.float64)


@njit(cache=True)
def rank_of(c):
    return c % 13 + 1


@njit(cache=True)
def fits(c, fh, fs, P, NR):
    """The leftmost foundation that takes card c, or -1."""
    r = c % 13 + 1
    s = c // 13
    for f in range(4):
        if NR[f, fh[f]] == r:
            if P[P_IN_SUIT] == 0 or fs[f] < 0 or fs[f] == s:
                return f
    return -1


@njit(cache=True)
def put_found(c, f, fh, fs):
    fh[f] += 1
    if fs[f] < 0:
        fs[f] = c // 13


@njit(cache=True)
def found_total(fh):
    return fh[0] + fh[1] + fh[2] + fh[3]


@njit(cache=True)
def closure(piles, ph, fh, fs, P, NR):
    """Play waste tops to the foundations while any fits (left to right, repeated); returns cards played."""
    played = 0
    changed = True
    while changed:
        changed = False
        for p in range(4):
            while ph[p] > 0:
                c = piles[p, ph[p] - 1]
                f = fits(c, fh, fs, P, NR)
                if f < 0:
                    break
                put_found(c, f, fh, fs)
                ph[p] -= 1
                played += 1
                changed = True
    return played


@njit(cache=True)
def need_distance(c, fh, fs, P, NR):
    """How many cards a foundation still needs before it takes c (0: fits now; 99: never)."""
    r = c % 13 + 1
    s = c // 13
    best = 99
    size = P[P_FOUND_SIZE]
    for f in range(4):
        if P[P_IN_SUIT] != 0 and fs[f] >= 0 and fs[f] != s:
            continue
        h = fh[f]
        while h < size:
            if NR[f, h] == r:
                if h - fh[f] < best:
                    best = h - fh[f]
                break
            h += 1
    return best


@njit(cache=True)
def card_value(c, fh, fs, P, NR):
    """The order the policy compares cards in: the rank, or (Calculation) 1 + how soon it is needed."""
    if P[P_VALUE_BY_NEED] != 0:
        d = need_distance(c, fh, fs, P, NR)
        return 13 if d > 12 else d + 1
    return c % 13 + 1


@njit(cache=True)
def _still_to_come_between(r, t, fh):
    """Rank-ordered foundations: cards of the ranks strictly between r and t that are not on a foundation yet."""
    if t - r <= 1:
        return 0
    up = 0
    for f in range(4):
        k = fh[f] - r  # ranks r+1 .. fh[f] are on foundation f
        if k > t - r - 1:
            k = t - r - 1
        if k > 0:
            up += k
    return 4 * (t - r - 1) - up


@njit(cache=True)
def policy_pile(c, piles, ph, fh, fs, P, NR, W):
    """The tuned rule: best fit (the gap to the top counted in ranks and, with rank-ordered foundations, in cards
    of the ranks between that are still to come up); an empty pile only when no top is >= the card; else the
    highest top; stacking on an equal rank penalised.  Returns the pile index."""
    r = card_value(c, fh, fs, P, NR)
    count = W[W_FIT_COUNT] != 0.0 and P[P_RANK_ORDER] != 0 and P[P_VALUE_BY_NEED] == 0
    best = 0
    bestcost = 1e18
    seen_empty = False
    for p in range(4):
        h = ph[p]
        if h == 0:
            if seen_empty:
                continue
            seen_empty = True
            cost = W[W_EMPTY] - W[W_EMPTY_HIGH] * r
        else:
            t = card_value(piles[p, h - 1], fh, fs, P, NR)
            if t >= r:
                cost = W[W_FIT] * (t - r) + W[W_FIT_DEPTH] * h
                if count:
                    cost += W[W_FIT_COUNT] * _still_to_come_between(r, t, fh)
                if t == r:
                    cost += W[W_EQ]
            else:
                cost = W[W_BURY] - W[W_BURY_HIGH] * t
        if cost < bestcost:
            bestcost = cost
            best = p
    return best


@njit(cache=True)
def redeal(piles, ph, stock, P):
    """Gather the waste piles into a new stock (W0..W3, each bottom to top; shuffled if the rules say so).
    Returns the new stock length (written to stock[0:n])."""
    n = 0
    for p in range(4):
        for i in range(ph[p]):
            stock[n] = piles[p, i]
            n += 1
        ph[p] = 0
    if P[P_SHUFFLE] != 0:
        for i in range(n - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            t = stock[i]
            stock[i] = stock[j]
            stock[j] = t
    return n


@njit(cache=True)
def _dead(piles, ph, fh, stock, pos, n, P, NR):
    """Sound dead-end test for rank-ordered foundations (not Calculation), from a relaxation of the game: a card
    of rank r may go up once *any* card of rank r-1 is up (no limit of four foundations), and every card still in
    the stock may go up whenever its rank may (as if it could always be placed out of the way).  Let M be the
    highest rank reached; a waste card is free once every card above it has rank <= M+1 (those can go up).  While
    a card of rank M+1 is in the stock or free, M grows.  If M never reaches the top rank, some card can never be
    played in the relaxed game, so neither in the real one."""
    if P[P_VALUE_BY_NEED] != 0 or P[P_REDEALS] > 0:
        return False
    size = P[P_FOUND_SIZE]
    M = 0
    for f in range(4):
        if fh[f] > M:
            M = fh[f]
    in_stock = np.zeros(16, np.bool_)
    for i in range(pos, n):
        in_stock[stock[i] % 13 + 1] = True
    while M < size:
        need = M + 1
        ok = in_stock[need]
        if not ok:
            for p in range(4):
                for i in range(ph[p] - 1, -1, -1):
                    r = piles[p, i] % 13 + 1
                    if r == need:
                        ok = True
                        break
                    if r > need:
                        break
                if ok:
                    break
        if not ok:
            return True
        M += 1
    return False


@njit(cache=True)
def _safer_bury(c, p0, piles, ph, fh, stock, pos, n, P, NR):
    """The rule chose to bury the top of pile p0 under c: keep p0 unless that makes the position dead in the
    relaxation of ``_dead`` (which uses only the set of cards still to come); then the highest other top
    whose burial is not dead, else p0."""
    piles[p0, ph[p0]] = c
    ph[p0] += 1
    dead = _dead(piles, ph, fh, stock, pos, n, P, NR)
    ph[p0] -= 1
    if not dead:
        return p0
    best = p0
    besttop = -1
    for p in range(4):
        if p == p0 or ph[p] == 0:
            continue
        t = piles[p, ph[p] - 1] % 13
        if t <= besttop:
            continue
        piles[p, ph[p]] = c
        ph[p] += 1
        d = _dead(piles, ph, fh, stock, pos, n, P, NR)
        ph[p] -= 1
        if not d:
            best = p
            besttop = t
    return best


@njit(cache=True)
def rollout(piles, ph, fh, fs, stock, pos, n, P, NR, W):
    """Play the stock stock[pos:n] out with the tuned rule (cards fitting a foundation go up at once, and after
    every placement every waste top that fits);
    the arrays are changed in place.  Returns the cards on the foundations at the end."""
    redeals = P[P_REDEALS]
    target = 4 * P[P_FOUND_SIZE]
    batch = P[P_TURN] if P[P_TURN] > 1 else 1
    while True:
        for i in range(pos, n):
            c = stock[i]
            f = fits(c, fh, fs, P, NR)
            up = f >= 0
            if up:
                put_found(c, f, fh, fs)
            else:
                p = policy_pile(c, piles, ph, fh, fs, P, NR, W)
                if W[W_AVOID_DEAD] > 0.0 and ph[p] > 0 and piles[p, ph[p] - 1] % 13 < c % 13:
                    p = _safer_bury(c, p, piles, ph, fh, stock, i + 1, n, P, NR)
                piles[p, ph[p]] = c
                ph[p] += 1
            # after every placement all that fits goes up (a top held back by the option under test too); four
            # at a time: only once the four turned cards are placed.  One at a time, a card that went to a waste
            # pile changed no foundation, so once the first placement's plays are made (a held-back top goes up
            # then) only a card that went up can let tops follow: the closure is skipped otherwise (same play).
            if batch == 1:
                if up or i == pos:
                    closure(piles, ph, fh, fs, P, NR)
            elif (i - pos) % batch == batch - 1:
                closure(piles, ph, fh, fs, P, NR)
        closure(piles, ph, fh, fs, P, NR)
        tot = found_total(fh)
        if tot == target or redeals <= 0:
            return tot
        redeals -= 1
        n = redeal(piles, ph, stock, P)
        pos = 0


@njit(cache=True)
def rank_only(P, W):
    """The rules and rule weights that ``rank_rollout`` plays exactly as ``rollout``: foundations Ace to King (or
    Queen) in any suit, one pass, one card at a time, and no rule term that needs the cards themselves."""
    return (P[P_RANK_ORDER] != 0 and P[P_IN_SUIT] == 0 and P[P_REDEALS] <= 0 and P[P_TURN] <= 1
            and P[P_VALUE_BY_NEED] == 0 and W[W_AVOID_DEAD] <= 0.0)


@njit(cache=True)
def _rank_fits(r, fh, size):
    """The leftmost foundation that takes rank r (rank-ordered foundations in any suit), or -1."""
    if r > size:
        return -1
    for f in range(4):
        if fh[f] == r - 1:
            return f
    return -1


@njit(cache=True)
def _rank_closure(piles, ph, fh, size):
    """``closure`` on ranks."""
    changed = True
    while changed:
        changed = False
        for p in range(4):
            while ph[p] > 0:
                f = _rank_fits(piles[p, ph[p] - 1], fh, size)
                if f < 0:
                    break
                fh[f] += 1
                ph[p] -= 1
                changed = True


@njit(cache=True)
def rank_rollout(piles, ph, fh, stock, pos, n, size, W):
    """``rollout`` for ``rank_only`` rules with the piles and the stock holding ranks (1..13) instead of cards: the
    same play and result, several times faster (no suits, no rule switches in the inner loop)."""
    count = W[W_FIT_COUNT] != 0.0
    for i in range(pos, n):
        r = stock[i]
        f = _rank_fits(r, fh, size)
        if f >= 0:
            fh[f] += 1
            _rank_closure(piles, ph, fh, size)
            continue
        # ``policy_pile`` on ranks, written out here: a shared cost function made this loop 2-3x slower (measured)
        best = 0
        bestcost = 1e18
        seen_empty = False
        for p in range(4):
            h = ph[p]
            if h == 0:
                if seen_empty:
                    continue
                seen_empty = True
                cost = W[W_EMPTY] - W[W_EMPTY_HIGH] * r
            else:
                t = piles[p, h - 1]
                if t >= r:
                    cost = W[W_FIT] * (t - r) + W[W_FIT_DEPTH] * h
                    if count:
                        cost += W[W_FIT_COUNT] * _still_to_come_between(r, t, fh)
                    if t == r:
                        cost += W[W_EQ]
                else:
                    cost = W[W_BURY] - W[W_BURY_HIGH] * t
            if cost < bestcost:
                bestcost = cost
                best = p
        piles[best, ph[best]] = r
        ph[best] += 1
        if i == pos:  # the option under test may have held a fitting top back: it goes up after this placement
            _rank_closure(piles, ph, fh, size)
    _rank_closure(piles, ph, fh, size)
    return fh[0] + fh[1] + fh[2] + fh[3]


@njit(cache=True)
def _to_ranks(cards, out):
    for i in range(cards.shape[0]):
        out[i] = cards[i] % 13 + 1


@njit(cache=True)
def mc_batch(cpiles, cph, cfh, cfs, alive, unseen, n_samples, seed, P, NR, W, out_found):
    """Flat Monte Carlo with common random numbers: for each of n_samples random orders of ``unseen``, play
    every alive candidate position out with the rollout rule.  out_found[k, s] = foundation cards at the end
    (-1 where the candidate is not alive)."""
    np.random.seed(seed)
    K = cpiles.shape[0]
    U = unseen.shape[0]
    order = unseen.copy()
    stock = np.empty(128, np.int8)
    piles = np.empty((4, MAXH), np.int8)
    ph = np.empty(4, np.int8)
    fh = np.empty(4, np.int8)
    fs = np.empty(4, np.int8)
    ranks = rank_only(P, W)
    rpiles = np.empty_like(cpiles)
    if ranks:
        for k in range(K):
            for p in range(4):
                _to_ranks(cpiles[k, p, :cph[k, p]], rpiles[k, p])
    rorder = np.empty(U, np.int8)
    for s in range(n_samples):
        for i in range(U - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            t = order[i]
            order[i] = order[j]
            order[j] = t
        rseed = np.random.randint(0, 2**31 - 1)
        if ranks:
            _to_ranks(order, rorder)
        for k in range(K):
            if not alive[k]:
                out_found[k, s] = -1
                continue
            ph[:] = cph[k]
            fh[:] = cfh[k]
            if ranks:
                piles[:, :] = rpiles[k]
                stock[:U] = rorder
                out_found[k, s] = rank_rollout(piles, ph, fh, stock, 0, U, P[P_FOUND_SIZE], W)
                continue
            piles[:, :] = cpiles[k]
            fs[:] = cfs[k]
            stock[:U] = order
            if P[P_REDEALS] > 0 and P[P_SHUFFLE] != 0:
                np.random.seed(rseed)  # the same redeal shuffles for every candidate (common random numbers)
            out_found[k, s] = rollout(piles, ph, fh, fs, stock, 0, U, P, NR, W)
        if P[P_REDEALS] > 0 and P[P_SHUFFLE] != 0:
            np.random.seed(seed + 7919 * (s + 1))
    return out_found


@njit(cache=True)
def play_games(decks, P, NR, W, fh0, seed):
    """The rollout rule alone on whole deals (rows of ``decks``); returns foundation cards per deal."""
    np.random.seed(seed)
    G = decks.shape[0]
    n = decks.shape[1]
    out = np.empty(G, np.int32)
    stock = np.empty(128, np.int8)
    piles = np.empty((4, MAXH), np.int8)
    ph = np.zeros(4, np.int8)
    fh = np.zeros(4, np.int8)
    fs = np.zeros(4, np.int8)
    ranks = rank_only(P, W)
    for g in range(G):
        ph[:] = 0
        fh[:] = fh0
        for f in range(4):
            fs[f] = -1 if fh0[f] == 0 else f
        if ranks:
            _to_ranks(decks[g], stock)
            out[g] = rank_rollout(piles, ph, fh, stock, 0, n, P[P_FOUND_SIZE], W)
        else:
            stock[:n] = decks[g]
            out[g] = rollout(piles, ph, fh, fs, stock, 0, n, P, NR, W)
    return out




@njit(cache=True)
def two_level(cpiles, cph, cfh, cfs, sel, unseen, per_card, seed, P, NR, W, out_value):
    """One ply deeper than ``mc_batch`` (expectimax over the next card): for each option ``sel[a]`` and each rank
    the next card may have, the card is placed every distinct way (up if it fits a foundation, else on each
    waste pile, empty piles alike), each of those is played out with the rollout rule on ``per_card`` * (cards of
    that rank) random orders of the rest, and the best placement's mean score counts with the rank's
    probability (the best placement is picked on half the orders and valued on the other half, both ways, so
    the maximum of noisy means does not favour options with more placements).  So the next card is placed by the
    search, not by the rule, which removes one step of the rule's bias.  Same orders for every option (common
    random numbers).  Needs rank-only rules (not in suit, no
    shuffled redeals, one card at a time).  out_value[a] = sum over ranks of P(rank) * max over placements of
    mean(win + foundation cards / target); returns the rollout card steps made (the budget's unit).  With
    per_card = 0 nothing is played: the steps of one sample per unseen card are returned (to size the call)."""
    A = sel.shape[0]
    U = unseen.shape[0]
    target = 4 * P[P_FOUND_SIZE]
    for a in range(A):
        out_value[a] = 0.0
    if U == 0:
        return 0
    bpiles = np.empty((A, 4, 4, MAXH), np.int8)
    bph = np.empty((A, 4, 4), np.int8)
    bfh = np.empty((A, 4, 4), np.int8)
    bfs = np.empty((A, 4, 4), np.int8)
    nb = np.zeros(A, np.int64)
    acc = np.zeros((2, A, 4), np.float64)  # even / odd samples
    rest = np.empty(U, np.int8)
    stock = np.empty(128, np.int8)
    piles = np.empty((4, MAXH), np.int8)
    ph = np.empty(4, np.int8)
    fh = np.empty(4, np.int8)
    fs = np.empty(4, np.int8)
    ranks = rank_only(P, W)
    rbpiles = np.empty_like(bpiles)
    rrest = np.empty(U, np.int8)
    steps = 0
    for r in range(1, 14):
        cnt = 0
        c0 = -1
        for i in range(U):
            if unseen[i] % 13 + 1 == r:
                if c0 < 0:
                    c0 = unseen[i]
                cnt += 1
        if cnt == 0:
            continue
        m = 0
        skipped = False
        for i in range(U):
            if unseen[i] == c0 and not skipped:
                skipped = True
                continue
            rest[m] = unseen[i]
            m += 1
        # the distinct placements of c0 after each option
        for a in range(A):
            k = sel[a]
            nb[a] = 0
            f = fits(c0, cfh[k], cfs[k], P, NR)
            seen_empty = False
            for p in range(4):
                if f < 0:
                    if cph[k, p] == 0:
                        if seen_empty:
                            continue
                        seen_empty = True
                elif p > 0:
                    break
                b = nb[a]
                bpiles[a, b] = cpiles[k]
                bph[a, b] = cph[k]
                bfh[a, b] = cfh[k]
                bfs[a, b] = cfs[k]
                if f >= 0:
                    put_found(c0, f, bfh[a, b], bfs[a, b])
                    closure(bpiles[a, b], bph[a, b], bfh[a, b], bfs[a, b], P, NR)
                else:
                    bpiles[a, b, p, bph[a, b, p]] = c0
                    bph[a, b, p] += 1
                nb[a] += 1
        if per_card == 0:  # only the cost of one sample per card
            for a in range(A):
                steps += cnt * nb[a] * (m + 8)
            continue
        np.random.seed(seed + 7919 * r)
        n_s = per_card * cnt
        acc[:, :, :] = 0.0
        if ranks:
            for a in range(A):
                for b in range(nb[a]):
                    for p in range(4):
                        _to_ranks(bpiles[a, b, p, :bph[a, b, p]], rbpiles[a, b, p])
        for s in range(n_s):
            for i in range(m - 1, 0, -1):
                j = np.random.randint(0, i + 1)
                t = rest[i]
                rest[i] = rest[j]
                rest[j] = t
            if ranks:
                _to_ranks(rest[:m], rrest)
            for a in range(A):
                for b in range(nb[a]):
                    ph[:] = bph[a, b]
                    fh[:] = bfh[a, b]
                    if ranks:
                        piles[:, :] = rbpiles[a, b]
                        stock[:m] = rrest[:m]
                        got = rank_rollout(piles, ph, fh, stock, 0, m, P[P_FOUND_SIZE], W)
                    else:
                        piles[:, :] = bpiles[a, b]
                        fs[:] = bfs[a, b]
                        stock[:m] = rest[:m]
                        got = rollout(piles, ph, fh, fs, stock, 0, m, P, NR, W)
                    acc[s % 2, a, b] += (1.0 if got == target else 0.0) + got / target
                    steps += m + 8
        # the best placement chosen on one half of the samples is valued on the other half, and vice versa:
        # the max of noisy means would favour options with more distinct placements
        n_odd = n_s // 2
        n_even = n_s - n_odd
        for a in range(A):
            if n_odd == 0:  # one sample: its best placement
                v = -1.0
                for b in range(nb[a]):
                    if acc[0, a, b] > v:
                        v = acc[0, a, b]
                out_value[a] += (cnt / U) * v
                continue
            v = 0.0
            for h in range(2):
                b_best = 0
                for b in range(1, nb[a]):
                    if acc[h, a, b] > acc[h, a, b_best]:
                        b_best = b
                v += acc[1 - h, a, b_best] / (n_odd if h == 0 else n_even)
            out_value[a] += (cnt / U) * 0.5 * v
    return steps
