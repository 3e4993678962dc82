"""Compiled (numba) kernels for the Poker Patience advisor and the Poker Shuffle solver.

Compact layout, independent of the rules engine's objects:

* card index ``c = suit * 13 + rank - 1`` (rank 1..13, Ace = 1), as ``Card.index``;
* grid ``int8[25]``, cell ``row * 5 + col``, ``-1`` for an empty cell;
* lines 0..4 are the rows, 5..9 the columns.

Hand categories (index into the points tables): 0 nothing, 1 one pair, 2 two pair, 3 three of a kind,
4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush, 9 royal flush. "Das Ass zählt in einer
Straße hoch (10-B-D-K-A) oder niedrig (A-2-3-4-5), aber eine Straße geht nicht „um die Ecke“" (004).

Two line-value functions drive the playing policy (a line = a row or a column):

* ``T``: the exact expected score of a line if its empty cells were filled at random from the 52 cards less
  the line's own, indexed by the line's card set (combinatorial number system); built once per process
  (about a second).
* ``V``: learned values of abstract partial lines (rank-multiplicity pattern, flush alive, number of
  straight windows still open, row or column, cards on the grid), the average final line score seen in
  self-play of the policy itself (``train_values``). The tables ship in ``poker_values.json``. Mode 1 uses these
  plain keys (``N_KEYS``); mode 2 adds deck awareness (``N_KEYS2``): the live cards of the line's ranks (not on
  the grid, capped at 7) and the spare cards of its suit for a flush (0..3), kept incrementally in the state.

The policy puts the card where ``gain(row) + gain(column)`` is largest, the gain of a line being its value
with the card minus its value without it. Monte Carlo rollouts of that policy rank the candidate cells.
"""

from __future__ import annotations

import numpy as np
from numba import njit

AMERICAN = np.array([0, 2, 5, 10, 15, 20, 25, 50, 75, 100], dtype=np.float64)
ENGLISH = np.array([0, 1, 3, 6, 12, 5, 10, 16, 30, 30], dtype=np.float64)
CATEGORY_NAMES = (
    "nothing", "one pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush", "royal flush",
)

# ---------------------------------------------------------------- hand evaluation

_STRAIGHT_MASKS = np.zeros(10, dtype=np.int64)
# bit r-1 for rank r; windows A-5, 2-6, ..., 9-K, then 10-J-Q-K-A
for _lo in range(1, 10):
    _STRAIGHT_MASKS[_lo - 1] = sum(1 << (r - 1) for r in range(_lo, _lo + 5))
_STRAIGHT_MASKS[9] = (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12)
ROYAL_MASK = int(_STRAIGHT_MASKS[9])


@njit(cache=True, inline="always")
def _is_straight(mask):
    for i in range(10):
        if mask == _STRAIGHT_MASKS[i]:
            return True
    return False


@njit(cache=True, inline="always")
def hand_category(c0, c1, c2, c3, c4):
    """Category 0..9 of five distinct cards given by index."""
    s = c0 // 13
    flush = (c1 // 13 == s) and (c2 // 13 == s) and (c3 // 13 == s) and (c4 // 13 == s)
    r0 = c0 % 13
    r1 = c1 % 13
    r2 = c2 % 13
    r3 = c3 % 13
    r4 = c4 % 13
    # number of equal pairs: 1 one pair, 2 two pair, 3 trips, 4 full house, 6 quads
    p = (
        (r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4) + (r1 == r2)
        + (r1 == r3) + (r1 == r4) + (r2 == r3) + (r2 == r4) + (r3 == r4)
    )
    if p == 0:
        mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
        st = _is_straight(mask)
        if st and flush:
            return 9 if mask == ROYAL_MASK else 8
        if flush:
            return 5
        if st:
            return 4
        return 0
    return _PAIR_CATEGORY[p]


_PAIR_CATEGORY = np.array([0, 1, 2, 3, 6, 0, 7], dtype=np.int64)


@njit(cache=True)
def grid_score(grid, pts):
    """Score of a full grid (int8[25]) under a points table."""
    total = 0.0
    for r in range(5):
        b = r * 5
        total += pts[hand_category(grid[b], grid[b + 1], grid[b + 2], grid[b + 3], grid[b + 4])]
    for c in range(5):
        total += pts[hand_category(grid[c], grid[c + 5], grid[c + 10], grid[c + 15], grid[c + 20])]
    return total


@njit(cache=True)
def grid_categories(grid):
    """Categories of the 10 lines of a full grid: rows 0..4 then columns 0..4."""
    out = np.zeros(10, dtype=np.int64)
    for r in range(5):
        b = r * 5
        out[r] = hand_category(grid[b], grid[b + 1], grid[b + 2], grid[b + 3], grid[b + 4])
    for c in range(5):
        out[5 + c] = hand_category(grid[c], grid[c + 5], grid[c + 10], grid[c + 15], grid[c + 20])
    return out


# ---------------------------------------------------------------- random-fill line table T

BINOM = np.zeros((53, 6), dtype=np.int64)
for _n in range(53):
    BINOM[_n, 0] = 1
    for _k in range(1, 6):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k] if _n > 0 else 0
T_OFFSETS = np.array([0, 1, 1 + 52, 1 + 52 + 1326, 1 + 52 + 1326 + 22100, 1 + 52 + 1326 + 22100 + 270725], dtype=np.int64)


@njit(cache=True)
def _colex(sorted_cards, k):
    r = 0
    for i in range(k):
        r += BINOM[sorted_cards[i], i + 1]
    return r


@njit(cache=True)
def build_random_fill_table(pts):
    """T[offset[k] + colex(set)] = expected points of a line holding ``set`` (k <= 4 cards) completed at random."""
    T = np.zeros(T_OFFSETS[5], dtype=np.float64)
    s = np.zeros(5, dtype=np.int64)
    # k = 4: average over the 48 completing cards
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    tot = 0.0
                    for e in range(52):
                        if e != a and e != b and e != c and e != d:
                            tot += pts[hand_category(a, b, c, d, e)]
                    s[0] = a
                    s[1] = b
                    s[2] = c
                    s[3] = d
                    T[T_OFFSETS[4] + _colex(s, 4)] = tot / 48.0
    # k = 3, 2, 1, 0: average of T[k+1] over the next card
    tmp = np.zeros(5, dtype=np.int64)
    for k in range(3, -1, -1):
        n_fill = 52 - k
        # enumerate k-subsets by iterating colex ranks through an explicit combination
        comb = np.arange(k).astype(np.int64)
        total_sets = BINOM[52, k]
        for _ in range(total_sets):
            tot = 0.0
            for e in range(52):
                inside = False
                for i in range(k):
                    if comb[i] == e:
                        inside = True
                if inside:
                    continue
                # insert e into sorted position
                j = 0
                placed = False
                for i in range(k):
                    if not placed and e < comb[i]:
                        tmp[j] = e
                        j += 1
                        placed = True
                    tmp[j] = comb[i]
                    j += 1
                if not placed:
                    tmp[j] = e
                T_idx = T_OFFSETS[k + 1] + _colex(tmp, k + 1)
                tot += T[T_idx]
            T[T_OFFSETS[k] + _colex(comb, k)] = tot / n_fill
            # next combination in colex order
            i = 0
            while i < k:
                limit = comb[i + 1] if i + 1 < k else 52
                if comb[i] + 1 < limit:
                    comb[i] += 1
                    for jj in range(i):
                        comb[jj] = jj
                    break
                i += 1
    return T


# ---------------------------------------------------------------- abstract line keys for V

# rank-multiplicity patterns of 0..4 cards, sorted descending, as a code
N_PATTERNS = 12
N_KEYS = N_PATTERNS * 2 * 6  # pattern x flush alive x open straight windows (0..5)


@njit(cache=True)
def _pattern_id(k, distinct, mx, pairs):
    # k=0: 0 | k=1: 1 | k=2: (1,1)=2 (2)=3 | k=3: (1,1,1)=4 (2,1)=5 (3)=6
    # k=4: (1,1,1,1)=7 (2,1,1)=8 (2,2)=9 (3,1)=10 (4)=11
    if k == 0:
        return 0
    if k == 1:
        return 1
    if k == 2:
        return 2 if distinct == 2 else 3
    if k == 3:
        if distinct == 3:
            return 4
        return 5 if mx == 2 else 6
    if distinct == 4:
        return 7
    if distinct == 3:
        return 8
    if mx == 2:
        return 9
    return 10 if mx == 3 else 11


@njit(cache=True)
def line_key(cards, k, extra):
    """Abstract key of a line holding ``cards[:k]`` plus ``extra`` (or -1): pattern, flush alive, straight windows."""
    cnt = np.zeros(13, dtype=np.int8)
    mask = 0
    suit = -1
    flush = 1
    n = k
    for i in range(k):
        c = cards[i]
        r = c % 13
        cnt[r] += 1
        mask |= 1 << r
        s = c // 13
        if suit < 0:
            suit = s
        elif s != suit:
            flush = 0
    if extra >= 0:
        r = extra % 13
        cnt[r] += 1
        mask |= 1 << r
        s = extra // 13
        if suit >= 0 and s != suit:
            flush = 0
        n += 1
    distinct = 0
    mx = 0
    pairs = 0
    for i in range(13):
        if cnt[i] > 0:
            distinct += 1
            if cnt[i] > mx:
                mx = cnt[i]
            if cnt[i] == 2:
                pairs += 1
    windows = 0
    if distinct == n and n > 0:
        for i in range(10):
            if (mask & _STRAIGHT_MASKS[i]) == mask:
                windows += 1
        if windows > 5:
            windows = 5
    p = _pattern_id(n, distinct, mx, pairs)
    return (p * 2 + flush) * 6 + windows


# ---------------------------------------------------------------- the playing policy

NEIGHBOURS = np.zeros(25, dtype=np.int64)
for _cell in range(25):
    _r, _c = divmod(_cell, 5)
    _m = 0
    for _dr in (-1, 0, 1):
        for _dc in (-1, 0, 1):
            if (_dr or _dc) and 0 <= _r + _dr < 5 and 0 <= _c + _dc < 5:
                _m |= 1 << ((_r + _dr) * 5 + _c + _dc)
    NEIGHBOURS[_cell] = _m

# pattern transitions: NEXT_PATTERN[p, m] = pattern after adding a card whose rank is already there m times
_PATTERNS = [(), (1,), (1, 1), (2,), (1, 1, 1), (2, 1), (3,), (1, 1, 1, 1), (2, 1, 1), (2, 2), (3, 1), (4,)]
NEXT_PATTERN = np.full((N_PATTERNS, 4), -1, dtype=np.int64)
for _p, _mult in enumerate(_PATTERNS):
    for _m in range(4):
        _l = list(_mult)
        if _m == 0:
            _l.append(1)
        elif _m in _l:
            _l[_l.index(_m)] += 1
        else:
            continue
        _t = tuple(sorted(_l, reverse=True))
        if _t in _PATTERNS:
            NEXT_PATTERN[_p, _m] = _PATTERNS.index(_t)
ALL_DISTINCT = np.array([1 if all(x == 1 for x in _t) else 0 for _t in _PATTERNS], dtype=np.int64)
WINDOWS = np.zeros(1 << 13, dtype=np.int64)
for _mask in range(1 << 13):
    WINDOWS[_mask] = min(5, sum(1 for _w in _STRAIGHT_MASKS if (_mask & int(_w)) == _mask))


@njit(cache=True)
def _line_value(cards, k, extra, t, ltype, mode, T, V, pts, tmp):
    """Value of a line (sorted cards[:k] plus extra or -1) when ``t`` cards lie on the grid (reference
    implementation; the rollouts use the incremental state below)."""
    n = k + (1 if extra >= 0 else 0)
    if n == 5:
        if extra >= 0:
            return pts[hand_category(cards[0], cards[1], cards[2], cards[3], extra)]
        return pts[hand_category(cards[0], cards[1], cards[2], cards[3], cards[4])]
    if mode == 0:
        j = 0
        placed = extra < 0
        for i in range(k):
            if not placed and extra < cards[i]:
                tmp[j] = extra
                j += 1
                placed = True
            tmp[j] = cards[i]
            j += 1
        if not placed:
            tmp[j] = extra
        r = 0
        for i in range(n):
            r += BINOM[tmp[i], i + 1]
        return T[T_OFFSETS[n] + r]
    return V[ltype, t, line_key(cards, k, extra)]


class _State:
    """Documentation only: the rollout state is a set of arrays (numba has no cheap classes).

    grid int64[25]; lines int64[10, 5] sorted cards; counts int64[10]; rcnt int64[13, 13]: rows 0-9 rank counts of each line, row 10 rank counts of the grid, row 11 (0-3) suit
    counts of the grid, row 12 (0-9) live cards of each line's ranks (not on the grid);
    mask int64[10] rank bits; lsuit int64[10] (-1 no card, -2 mixed, else the suit); pat int64[10] pattern;
    key int64[10] abstract key; occ: occupied-cell bits (returned by the functions that change it).
    """


@njit(cache=True)
def _new_state():
    grid = np.full(25, -1, dtype=np.int64)
    lines = np.zeros((10, 5), dtype=np.int64)
    counts = np.zeros(10, dtype=np.int64)
    rcnt = np.zeros((13, 13), dtype=np.int64)
    mask = np.zeros(10, dtype=np.int64)
    lsuit = np.full(10, -1, dtype=np.int64)
    pat = np.zeros(10, dtype=np.int64)
    key = np.zeros(10, dtype=np.int64)
    for li in range(10):
        key[li] = (0 * 2 + 1) * 6 + 0
    return grid, lines, counts, rcnt, mask, lsuit, pat, key


@njit(cache=True)
def _fill_base(base, grid0):
    """Place the cards of ``grid0`` (-1 = empty) into the fresh state ``base``; (occupied bitmask, cards placed)."""
    occ0 = 0
    t0 = 0
    for cell in range(25):
        if grid0[cell] >= 0:
            _place_state(cell, grid0[cell], base[0], base[1], base[2], base[3], base[4], base[5], base[6], base[7])
            occ0 |= 1 << cell
            t0 += 1
    return occ0, t0


@njit(cache=True)
def _copy_state(base, grid, lines, counts, rcnt, mask, lsuit, pat, key):
    """Reset a rollout's working state to ``base`` (the position being advised), in place."""
    grid[:] = base[0]
    lines[:, :] = base[1]
    counts[:] = base[2]
    rcnt[:, :] = base[3]
    mask[:] = base[4]
    lsuit[:] = base[5]
    pat[:] = base[6]
    key[:] = base[7]

@njit(cache=True)
def _reset_state(grid, lines, counts, rcnt, mask, lsuit, pat, key):
    grid[:] = -1
    counts[:] = 0
    rcnt[:, :] = 0
    mask[:] = 0
    lsuit[:] = -1
    pat[:] = 0
    key[:] = 6


@njit(cache=True, inline="always")
def _add_to_line(li, card, lines, counts, rcnt, mask, lsuit, pat, key):
    k = counts[li]
    j = k
    while j > 0 and lines[li, j - 1] > card:
        lines[li, j] = lines[li, j - 1]
        j -= 1
    lines[li, j] = card
    counts[li] = k + 1
    r = card % 13
    s = card // 13
    if k + 1 < 5:
        pat[li] = NEXT_PATTERN[pat[li], rcnt[li, r]]
    if rcnt[li, r] == 0:
        rcnt[12, li] += 4 - rcnt[10, r]
    rcnt[li, r] += 1
    mask[li] |= 1 << r
    if lsuit[li] == -1:
        lsuit[li] = s
    elif lsuit[li] != s:
        lsuit[li] = -2
    if k + 1 < 5:
        fl = 1 if lsuit[li] >= 0 else 0
        w = WINDOWS[mask[li]] if ALL_DISTINCT[pat[li]] == 1 else 0
        key[li] = (pat[li] * 2 + fl) * 6 + w


@njit(cache=True, inline="always")
def _place_state(cell, card, grid, lines, counts, rcnt, mask, lsuit, pat, key):
    grid[cell] = card
    r = card % 13
    rcnt[10, r] += 1
    rcnt[11, card // 13] += 1
    for li in range(10):
        if rcnt[li, r] > 0:
            rcnt[12, li] -= 1
    _add_to_line(cell // 5, card, lines, counts, rcnt, mask, lsuit, pat, key)
    _add_to_line(5 + cell % 5, card, lines, counts, rcnt, mask, lsuit, pat, key)


N_KEYS2 = N_KEYS * 8 * 4


@njit(cache=True, inline="always")
def _key2(li, extra, placed, lines, counts, rcnt, mask, lsuit, pat, key):
    """Abstract key with deck awareness: base key, live cards of the line's ranks (0..7), flush outs (0..3).
    ``extra``: a card added to the line (or -1); ``placed``: a card counted as on the grid (or -1)."""
    k = counts[li]
    if extra >= 0:
        r = extra % 13
        s = extra // 13
        np_ = NEXT_PATTERN[pat[li], rcnt[li, r]]
        fl = 1 if (lsuit[li] == -1 or lsuit[li] == s) else 0
        m = mask[li] | (1 << r)
        w = WINDOWS[m] if ALL_DISTINCT[np_] == 1 else 0
        base = (np_ * 2 + fl) * 6 + w
        k += 1
        suit = s if fl == 1 else -2
    else:
        base = key[li]
        m = mask[li]
        suit = lsuit[li]
    ps = placed // 13 if placed >= 0 else -1
    outs = rcnt[12, li]
    if placed >= 0:
        pr = placed % 13
        if rcnt[li, pr] > 0:
            outs -= 1
        elif extra >= 0:
            outs += 3 - rcnt[10, pr]
    if outs > 7:
        outs = 7
    fo = 0
    if suit >= 0 and k > 0:
        live = 13 - rcnt[11, suit] - (1 if suit == ps else 0)
        need = 5 - k
        if live >= need:
            fo = live - need + 1
            if fo > 3:
                fo = 3
    return (base * 8 + outs) * 4 + fo


@njit(cache=True, inline="always")
def _gain(li, card, t1, mode, T, V, pts, lines, counts, rcnt, mask, lsuit, pat, key):
    """Value of line ``li`` with ``card`` added minus its value without, ``t1`` cards on the grid after."""
    k = counts[li]
    if k == 4:
        new_v = pts[hand_category(lines[li, 0], lines[li, 1], lines[li, 2], lines[li, 3], card)]
    elif mode == 2:
        new_v = V[0 if li < 5 else 1, t1, _key2(li, card, card, lines, counts, rcnt, mask, lsuit, pat, key)]
    elif mode == 1:
        r = card % 13
        s = card // 13
        np_ = NEXT_PATTERN[pat[li], rcnt[li, r]]
        fl = 1 if (lsuit[li] == -1 or lsuit[li] == s) else 0
        w = WINDOWS[mask[li] | (1 << r)] if ALL_DISTINCT[np_] == 1 else 0
        new_v = V[0 if li < 5 else 1, t1, (np_ * 2 + fl) * 6 + w]
    else:
        # colex rank of the set with the card inserted
        rk = 0
        pos = 0
        for i in range(k):
            c = lines[li, i]
            if c < card:
                rk += BINOM[c, i + 1]
                pos += 1
            else:
                rk += BINOM[c, i + 2]
        rk += BINOM[card, pos + 1]
        new_v = T[T_OFFSETS[k + 1] + rk]
    if mode == 2:
        old_v = V[0 if li < 5 else 1, t1, _key2(li, -1, card, lines, counts, rcnt, mask, lsuit, pat, key)]
    elif mode == 1:
        old_v = V[0 if li < 5 else 1, t1, key[li]]
    else:
        rk = 0
        for i in range(k):
            rk += BINOM[lines[li, i], i + 1]
        old_v = T[T_OFFSETS[k] + rk]
    return new_v - old_v


@njit(cache=True, inline="always")
def _policy(card, t, occ, adjacent, mode, T, V, pts, gains, grid, lines, counts, rcnt, mask, lsuit, pat, key):
    for li in range(10):
        if counts[li] < 5:
            gains[li] = _gain(li, card, t + 1, mode, T, V, pts, lines, counts, rcnt, mask, lsuit, pat, key)
    best = -1
    best_v = -1e18
    need_adj = adjacent and occ != 0
    for cell in range(25):
        if grid[cell] >= 0:
            continue
        if need_adj and (occ & NEIGHBOURS[cell]) == 0:
            continue
        v = gains[cell // 5] + gains[5 + cell % 5]
        if v > best_v:
            best_v = v
            best = cell
    return best


@njit(cache=True)
def policy_cell(grid0, card, adjacent, mode, T, V, pts):
    """The bare policy's cell for ``card`` on ``grid0`` (int8 or int64[25]); -1 if none is legal."""
    grid, lines, counts, rcnt, mask, lsuit, pat, key = _new_state()
    occ = 0
    t = 0
    for cell in range(25):
        if grid0[cell] >= 0:
            _place_state(cell, grid0[cell], grid, lines, counts, rcnt, mask, lsuit, pat, key)
            occ |= 1 << cell
            t += 1
    gains = np.zeros(10, dtype=np.float64)
    return _policy(card, t, occ, adjacent, mode, T, V, pts, gains, grid, lines, counts, rcnt, mask, lsuit, pat, key)


@njit(cache=True)
def state_keys(grid0, deck_aware):
    """The abstract key of each line of ``grid0`` as the policy sees it (-1 for a full line)."""
    grid, lines, counts, rcnt, mask, lsuit, pat, key = _new_state()
    for cell in range(25):
        if grid0[cell] >= 0:
            _place_state(cell, grid0[cell], grid, lines, counts, rcnt, mask, lsuit, pat, key)
    out = np.full(10, -1, dtype=np.int64)
    for li in range(10):
        if counts[li] < 5:
            out[li] = _key2(li, -1, -1, lines, counts, rcnt, mask, lsuit, pat, key) if deck_aware else key[li]
    return out


@njit(cache=True)
def mc_scores(grid0, card, cells, decks, adjacent, mode, T, V, pts):
    """Final scores [len(cells), len(decks)]: ``card`` put on each candidate cell, then the policy plays
    the cards of each sampled deck in order (common random numbers: the same decks for every cell)."""
    no_first = np.full((1, 1), -1, dtype=np.int64)
    return _rollout_scores(grid0, card, cells, decks, adjacent, np.zeros(0, dtype=np.int64), no_first, 0,
                           mode, T, V, pts)


@njit(cache=True)
def _lines_total(t, mode, V, pts, lines, counts, rcnt, mask, lsuit, pat, key):
    """Sum of the ten line values (points of the full lines) with ``t`` cards on the grid (learned values)."""
    tot = 0.0
    for li in range(10):
        lt = 0 if li < 5 else 1
        if counts[li] == 5:
            tot += pts[hand_category(lines[li, 0], lines[li, 1], lines[li, 2], lines[li, 3], lines[li, 4])]
        elif mode == 2:
            tot += V[lt, t, _key2(li, -1, -1, lines, counts, rcnt, mask, lsuit, pat, key)]
        else:
            tot += V[lt, t, key[li]]
    return tot


@njit(cache=True)
def _lookahead_cell(card, t, others, beam, mode, T, V, pts, st, tmp, gains, cand, candv):
    """Two-ply choice (free placement, learned values): of the ``beam`` cells with the largest one-ply gain,
    the one whose value after the card is largest in expectation over the next card (every card of ``others``
    equally likely) placed at its best cell. ``t``: cards on the grid before ``card``."""
    grid, lines, counts, rcnt, mask, lsuit, pat, key = st
    g2, l2, c2, r2, m2, s2, p2, k2 = tmp
    for li in range(10):
        if counts[li] < 5:
            gains[li] = _gain(li, card, t + 1, mode, T, V, pts, lines, counts, rcnt, mask, lsuit, pat, key)
    nc = 0
    for cell in range(25):
        if grid[cell] < 0:
            cand[nc] = cell
            candv[nc] = gains[cell // 5] + gains[5 + cell % 5]
            nc += 1
    nb = nc if (beam <= 0 or beam > nc) else beam
    for j in range(nb):  # the beam: partial selection sort, ties to the lower cell as the one-ply policy
        b = j
        for q in range(j + 1, nc):
            if candv[q] > candv[b] or (candv[q] == candv[b] and cand[q] < cand[b]):
                b = q
        cc = cand[j]
        cand[j] = cand[b]
        cand[b] = cc
        vv = candv[j]
        candv[j] = candv[b]
        candv[b] = vv
    if nb == 1 or t + 2 >= 25 or others.shape[0] == 0:
        return cand[0]
    best = cand[0]
    best_v = -1e18
    for j in range(nb):
        cell = cand[j]
        g2[:] = grid
        l2[:, :] = lines
        c2[:] = counts
        r2[:, :] = rcnt
        m2[:] = mask
        s2[:] = lsuit
        p2[:] = pat
        k2[:] = key
        _place_state(cell, card, g2, l2, c2, r2, m2, s2, p2, k2)
        tot = 0.0
        for q in range(others.shape[0]):
            c = others[q]
            for li in range(10):
                if c2[li] < 5:
                    gains[li] = _gain(li, c, t + 2, mode, T, V, pts, l2, c2, r2, m2, s2, p2, k2)
            bv = -1e18
            for x in range(25):
                if g2[x] < 0:
                    v = gains[x // 5] + gains[5 + x % 5]
                    if v > bv:
                        bv = v
            tot += bv
        v = _lines_total(t + 2, mode, V, pts, l2, c2, r2, m2, s2, p2, k2) + tot / others.shape[0]
        if v > best_v:
            best_v = v
            best = cell
    return best


@njit(cache=True)
def mc_scores_lookahead(grid0, card, cells, decks, unseen, first, beam, mode, T, V, pts):
    """:func:`mc_scores` (free placement, learned values) whose rollouts place their first card by the two-ply
    choice (:func:`_lookahead_cell` over the other unseen cards), the rest by the one-ply policy. The first card's
    cell depends only on the candidate and the card, so it is kept in ``first[candidate, card]`` (-1: not yet
    known) from batch to batch."""
    return _rollout_scores(grid0, card, cells, decks, False, unseen, first, beam, mode, T, V, pts)


@njit(cache=True)
def _rollout_scores(grid0, card, cells, decks, adjacent, unseen, first, beam, mode, T, V, pts):
    """The per-sample loop of both rollout kernels: for each candidate cell and sampled deck, ``card`` goes on the
    cell, then the deck's cards are placed in order, the first by the two-ply choice when ``beam`` > 0 (free
    placement; cached in ``first``), every other by the one-ply policy; the final grid's score."""
    nc = cells.shape[0]
    ns = decks.shape[0]
    out = np.zeros((nc, ns), dtype=np.float64)
    base = _new_state()
    occ0, t0 = _fill_base(base, grid0)
    grid, lines, counts, rcnt, mask, lsuit, pat, key = _new_state()
    gains = np.zeros(10, dtype=np.float64)
    tmp = _new_state()
    cand = np.zeros(25, dtype=np.int64)
    candv = np.zeros(25, dtype=np.float64)
    others = np.zeros(max(unseen.shape[0] - 1, 1), dtype=np.int64)
    for a in range(nc):
        for s in range(ns):
            _copy_state(base, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            _place_state(cells[a], card, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            occ = occ0 | (1 << cells[a])
            t = t0 + 1
            i = 0
            while t < 25:
                c = decks[s, i]
                i += 1
                if i == 1 and beam > 0:
                    cell = first[cells[a], c]
                    if cell < 0:
                        n = 0
                        for q in range(unseen.shape[0]):
                            if unseen[q] != c:
                                others[n] = unseen[q]
                                n += 1
                        cell = _lookahead_cell(c, t, others[:n], beam, mode, T, V, pts,
                                               (grid, lines, counts, rcnt, mask, lsuit, pat, key), tmp, gains,
                                               cand, candv)
                        first[cells[a], c] = cell
                else:
                    cell = _policy(c, t, occ, adjacent, mode, T, V, pts, gains, grid, lines, counts, rcnt, mask,
                                   lsuit, pat, key)
                _place_state(cell, c, grid, lines, counts, rcnt, mask, lsuit, pat, key)
                occ |= 1 << cell
                t += 1
            out[a, s] = grid_score(grid, pts)
    return out


@njit(cache=True)
def play_games_lookahead(decks, beam, mode, T, V, pts):
    """Scores of the two-ply policy (:func:`_lookahead_cell`, next card over every unseen card) on ``decks``."""
    out = np.zeros(decks.shape[0], dtype=np.float64)
    st = _new_state()
    tmp = _new_state()
    gains = np.zeros(10, dtype=np.float64)
    cand = np.zeros(25, dtype=np.int64)
    candv = np.zeros(25, dtype=np.float64)
    others = np.zeros(52, dtype=np.int64)
    for g in range(decks.shape[0]):
        _reset_state(st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7])
        used = np.zeros(52, dtype=np.bool_)
        for t in range(25):
            c = decks[g, t]
            used[c] = True
            n = 0
            for q in range(52):
                if not used[q]:
                    others[n] = q
                    n += 1
            cell = _lookahead_cell(c, t, others[:n], beam, mode, T, V, pts, st, tmp, gains, cand, candv)
            _place_state(cell, c, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7])
        out[g] = grid_score(st[0], pts)
    return out


@njit(cache=True)
def play_games(decks, adjacent, mode, T, V, pts):
    """Scores of the bare policy (no search) on the given decks (rows of 25+ card indices)."""
    out = np.zeros(decks.shape[0], dtype=np.float64)
    grid, lines, counts, rcnt, mask, lsuit, pat, key = _new_state()
    gains = np.zeros(10, dtype=np.float64)
    for g in range(decks.shape[0]):
        _reset_state(grid, lines, counts, rcnt, mask, lsuit, pat, key)
        occ = 0
        for t in range(25):
            c = decks[g, t]
            cell = _policy(c, t, occ, adjacent, mode, T, V, pts, gains, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            _place_state(cell, c, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            occ |= 1 << cell
        out[g] = grid_score(grid, pts)
    return out


@njit(cache=True)
def selfplay_stats(n_games, seed, adjacent, mode, T, V, pts, epsilon, record2=False):
    """Play ``n_games`` random deals with the policy (a random legal cell with probability ``epsilon``) and
    return (sum, count) of final line scores by [line type, cards on grid, abstract key], and the mean score."""
    np.random.seed(seed)
    nk = N_KEYS2 if (mode == 2 or record2) else N_KEYS
    sums = np.zeros((2, 26, nk), dtype=np.float64)
    cnts = np.zeros((2, 26, nk), dtype=np.float64)
    keys = np.zeros((25, 10), dtype=np.int64)
    grid, lines, counts, rcnt, mask, lsuit, pat, key = _new_state()
    gains = np.zeros(10, dtype=np.float64)
    deck = np.arange(52)
    legal = np.zeros(25, dtype=np.int64)
    final = np.zeros(10, dtype=np.float64)
    total = 0.0
    for g in range(n_games):
        _reset_state(grid, lines, counts, rcnt, mask, lsuit, pat, key)
        np.random.shuffle(deck)
        occ = 0
        for t in range(25):
            card = deck[t]
            if epsilon > 0 and np.random.random() < epsilon:
                nl = 0
                for cell in range(25):
                    if grid[cell] < 0 and (not adjacent or occ == 0 or (occ & NEIGHBOURS[cell]) != 0):
                        legal[nl] = cell
                        nl += 1
                cell = legal[np.random.randint(nl)]
            else:
                cell = _policy(card, t, occ, adjacent, mode, T, V, pts, gains, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            _place_state(cell, card, grid, lines, counts, rcnt, mask, lsuit, pat, key)
            occ |= 1 << cell
            for li in range(10):
                if counts[li] >= 5:
                    keys[t, li] = -1
                elif nk == N_KEYS2:
                    keys[t, li] = _key2(li, -1, -1, lines, counts, rcnt, mask, lsuit, pat, key)
                else:
                    keys[t, li] = key[li]
        for li in range(10):
            final[li] = _line_points(grid, li, pts)
            total += final[li]
        for t in range(24):
            for li in range(10):
                k = keys[t, li]
                if k >= 0:
                    lt = 0 if li < 5 else 1
                    sums[lt, t + 1, k] += final[li]
                    cnts[lt, t + 1, k] += 1.0
    return sums, cnts, total / n_games


@njit(cache=True)
def _line_points(grid, li, pts):
    if li < 5:
        b = li * 5
        return pts[hand_category(grid[b], grid[b + 1], grid[b + 2], grid[b + 3], grid[b + 4])]
    c = li - 5
    return pts[hand_category(grid[c], grid[c + 5], grid[c + 10], grid[c + 15], grid[c + 20])]


# ---------------------------------------------------------------- exact expectimax for the last cards

@njit(cache=True)
def exact_scores(grid0, card, cells, unseen, adjacent, pts):
    """Expected final score for each candidate cell by full expectimax over the unseen cards (the player
    then picks the best cell for every later card): exact, for the last few empty cells."""
    nc = cells.shape[0]
    out = np.zeros(nc, dtype=np.float64)
    g = np.empty(25, dtype=np.int64)
    for a in range(nc):
        for i in range(25):
            g[i] = grid0[i]
        g[cells[a]] = card
        out[a] = _expectimax(g, unseen, adjacent, pts)
    return out


@njit(cache=True)
def _expectimax(grid, unseen, adjacent, pts):
    empties = 0
    occ = 0
    for cell in range(25):
        if grid[cell] < 0:
            empties += 1
        else:
            occ |= 1 << cell
    if empties == 0:
        return grid_score(grid, pts)
    n = unseen.shape[0]
    total = 0.0
    rest = np.empty(max(n - 1, 1), dtype=unseen.dtype)
    for i in range(n):
        c = unseen[i]
        j = 0
        for q in range(n):
            if q != i:
                rest[j] = unseen[q]
                j += 1
        best = -1e18
        for cell in range(25):
            if grid[cell] >= 0:
                continue
            if adjacent and occ != 0 and (occ & NEIGHBOURS[cell]) == 0:
                continue
            grid[cell] = c
            if empties == 1:
                v = grid_score(grid, pts)
            else:
                v = _expectimax(grid, rest[: n - 1], adjacent, pts)
            grid[cell] = -1
            if v > best:
                best = v
        total += best
    return total / n


# ---------------------------------------------------------------- Poker Shuffle: simulated annealing

@njit(cache=True)
def anneal(cards, pts, seed, restarts, iters, t_start, t_end, reheat=False):
    """Best arrangement of 25 cards found by ``restarts`` runs of simulated annealing with swap moves
    (``iters`` each, geometric cooling from ``t_start`` to ``t_end``); returns (grid, score). Each run starts
    from a random arrangement, or with ``reheat`` from the best one so far (the first from ``cards`` as given)."""
    np.random.seed(seed)
    best_grid = cards.copy()
    best = grid_score(best_grid, pts)
    grid = cards.copy()
    lv = np.zeros(10, dtype=np.float64)
    for _rs in range(restarts):
        if reheat:
            grid[:] = best_grid  # the given cards first, then the best arrangement so far, heated again
        else:
            np.random.shuffle(grid)
        for li in range(10):
            lv[li] = _line_points(grid, li, pts)
        cur = lv.sum()
        run_best = cur
        run_grid = grid.copy()
        alpha = (t_end / t_start) ** (1.0 / max(iters, 1))
        temp = t_start
        for _ in range(iters):
            a = np.random.randint(25)
            b = np.random.randint(24)
            if b >= a:
                b += 1
            ra = a // 5
            ca = a % 5
            rb = b // 5
            cb = b % 5
            tmpc = grid[a]
            grid[a] = grid[b]
            grid[b] = tmpc
            n_ra = _line_points(grid, ra, pts) if ra != rb else lv[ra]
            n_rb = _line_points(grid, rb, pts) if ra != rb else lv[rb]
            n_ca = _line_points(grid, 5 + ca, pts) if ca != cb else lv[5 + ca]
            n_cb = _line_points(grid, 5 + cb, pts) if ca != cb else lv[5 + cb]
            delta = 0.0
            if ra != rb:
                delta += n_ra - lv[ra] + n_rb - lv[rb]
            if ca != cb:
                delta += n_ca - lv[5 + ca] + n_cb - lv[5 + cb]
            if delta >= 0 or (delta > -25.0 * temp and np.random.random() < np.exp(delta / temp)):
                if ra != rb:
                    lv[ra] = n_ra
                    lv[rb] = n_rb
                if ca != cb:
                    lv[5 + ca] = n_ca
                    lv[5 + cb] = n_cb
                cur += delta
                if cur > run_best:
                    run_best = cur
                    run_grid[:] = grid
            else:
                tmpc = grid[a]
                grid[a] = grid[b]
                grid[b] = tmpc
            temp *= alpha
        if run_best > best:
            best = run_best
            best_grid[:] = run_grid
        grid[:] = run_grid
    return best_grid, grid_score(best_grid, pts)
