"""One deck in a photo: a shift of the classifier's suit odds, fitted to the photo's own cards.

A deck design the models never saw can be read with a bias: gnome-plastic's rounded clubs all come out as spades,
although its clubs still score as "more club-like" than its spades. When a photo shows many cards of one deck
(a dealt Poker grid, a fanned hand, a whole table), the suits of its black cards (and of its red cards) should
split about evenly; a reading with (say) 0 clubs and 12 spades is very unlikely. :func:`balance_suits` fits one
shift of the clubs-vs-spades log odds (and one of diamonds-vs-hearts) per photo, the maximum of

    sum over corners of log sigmoid(|r_i + shift|)          (the cut runs through a gap between the corners)
  + PRIOR_WEIGHT * log Binomial(clubs; cards, 1/2)          (the two suits about evenly represented)
  - shift ** 2 / (2 * SHIFT_SD ** 2)                        (the classifier is believed unless the photo says no)

over the cuts between the corners' log odds r_i, and applies it to every card column of that pair. Fitted on
rendered grids of held-out designs (datasets/gridtune, seed 1; the reported set gridval is seed 0); figures in
docs/BENCHMARKS.md. Used by the photo commands only: a camera frame shows too few cards. The prior is wrong for a
photo of cards sorted by suit (all the spades of a deck): read surely they stay as read (the cut must run through
a gap and pay for its shift), read unsurely some may be moved; ``--no-balance`` turns it off.
"""

from __future__ import annotations

from math import exp, lgamma, log

import numpy as np

# chosen on datasets/gridtune (docs/BENCHMARKS.md): prior weight 1-2 and shift sd 3-6 did about as well there with
# the session-21 photo classifier; with the blended one of session 45 sd 6-8 read the most cells
PRIOR_WEIGHT = 1.0
SHIFT_SD = 6.0  # log-odds units
MIN_GAIN = 0.5  # the best shift must beat none by this much (log units) to be applied
MIN_CORNERS = 8  # corners of one colour needed before the photo's own balance is trusted
CORNERS_PER_CARD = 2.0  # a card of a grid or a fan shows about two indices: the prior counts cards, not corners
PAIRS = (("c", "s"), ("d", "h"))


def _log_binomial(k: float, n: float) -> float:
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + n * log(0.5)


def fit_shift(r: np.ndarray, prior_weight: float = PRIOR_WEIGHT, shift_sd: float = SHIFT_SD,
              min_corners: int = MIN_CORNERS, min_gain: float = MIN_GAIN) -> float:
    """The shift of log odds ``r`` (first suit against second, one per corner) that best splits them (see module
    doc); 0.0 when there are fewer than ``min_corners`` corners or the best shift beats no shift by less than
    ``min_gain`` (log units: the photo must make a clear case against the classifier)."""
    r = np.sort(np.asarray(r, np.float64))
    n = len(r)
    if n < min_corners:
        return 0.0
    cards = n / CORNERS_PER_CARD
    # a cut between two neighbouring corners (and beyond both ends); shift = -cut. 0 is always a candidate.
    cuts = np.r_[r[0] - 1.0, (r[1:] + r[:-1]) / 2, r[-1] + 1.0]
    shifts = np.r_[0.0, -cuts]
    best, best_j, j0 = 0.0, -np.inf, None
    for s in shifts:
        z = r + s
        fit = -np.logaddexp(0.0, -np.abs(z)).sum()  # sum of log sigmoid(|z|)
        first = float((z > 0).sum()) / CORNERS_PER_CARD
        j = fit + prior_weight * _log_binomial(first, cards) - s * s / (2 * shift_sd * shift_sd)
        j0 = j if j0 is None else j0  # the first candidate is no shift
        if j > best_j + 1e-9:
            best, best_j = float(s), j
    return best if best_j - j0 >= min_gain else 0.0


def balance_suits(p: np.ndarray, names, **fit) -> tuple[np.ndarray, dict[str, float]]:
    """Corner probabilities ``p`` (corners x classes, columns named by ``names``: card names and ``""`` for
    "none") with each suit pair's odds shifted by :func:`fit_shift` over the corners read as that colour.
    Returns (new probabilities, {"cs": shift, "dh": shift} for the pairs that moved)."""
    p = np.asarray(p, np.float64)
    shifts: dict[str, float] = {}
    if len(p):
        suit = _suits(names)
        for a, b in PAIRS:
            rows = _pair_rows(p, suit, a, b)
            r = np.log(p[rows][:, suit == a].sum(axis=1) + 1e-12) - np.log(p[rows][:, suit == b].sum(axis=1) + 1e-12)
            s = fit_shift(r, **fit)
            if s != 0.0:
                shifts[a + b] = s
    return apply_shifts(p, names, shifts), shifts


def apply_shifts(p: np.ndarray, names, shifts: dict[str, float]) -> np.ndarray:
    """``p`` with the shifts of :func:`balance_suits` applied to the corners read as each pair's colour (more
    corners of the same photo, e.g. a second look at unread cells); the "none" column is kept as it was."""
    out = np.array(p, np.float64, copy=True)
    if not len(out) or not shifts:
        return out.astype(np.float32)
    suit = _suits(names)
    cards = suit != ""
    for pair, s in shifts.items():
        a, b = pair
        rows = _pair_rows(out, suit, a, b)
        q = out[rows]
        mass = q[:, cards].sum(axis=1)
        q[:, suit == a] *= np.exp(s / 2)
        q[:, suit == b] *= np.exp(-s / 2)
        q[:, cards] *= (mass / np.maximum(q[:, cards].sum(axis=1), 1e-300))[:, None]
        out[rows] = q
    return out.astype(np.float32)


def _suits(names) -> np.ndarray:
    return np.array([n[-1] if n else "" for n in names])


def _pair_rows(p: np.ndarray, suit: np.ndarray, a: str, b: str) -> np.ndarray:
    """Corners named as a card (not "none") whose colour is the pair's: more of their mass on ``a`` and ``b``
    than on the other two suits."""
    named = suit[p.argmax(axis=1)] != ""
    pair = p[:, (suit == a) | (suit == b)].sum(axis=1)
    others = p[:, (suit != a) & (suit != b) & (suit != "")].sum(axis=1)
    return named & (pair > others)


def shift_notes(shifts: dict[str, float]) -> list[str]:
    """Say when the photo's own balance of suits changed the classifier's odds (``vision.deck_suits``)."""
    pairs = {"cs": ("clubs", "spades"), "dh": ("diamonds", "hearts")}
    out = []
    for pair, s in sorted(shifts.items()):
        a, b = pairs[pair]
        favoured, other = (a, b) if s > 0 else (b, a)
        out.append(f"{a} against {b}: odds moved {exp(abs(s)):.0f} to 1 towards {favoured}: read as the "
                   f"classifier had it, this photo had too few {favoured} and too many {other} for one deck (a design "
                   "read with a bias)")
    return out
