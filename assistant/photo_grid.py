"""The 5x5 Poker Patience grid in a photo: from the cards seen (names, scores, positions) to 25 cells.

Pure geometry and bookkeeping (numpy only, no model, no image), so the photo command and the live camera can share
it and the tests can feed it made-up box sets:

    reading = grid_from_cards(sightings, card_centres)
    reading.rows          # 5 lists of 5 card names (``"Qh"``) or None, top row first, left to right, as seen
    reading.warnings      # plain sentences: unreadable cells, extra or doubled cards, a missing row, ...
    reading.doubts        # cells read with a close second reading ("6h or 8h? took 6h")
    reading.notes         # doubtful readings the deck rule settled ("each card once")
    reading.cell_boxes    # 5x5 quadrilaterals (4x2 image points) of the cells, for drawing

How the grid is found (robust to any rotation, perspective, uneven gaps and crooked cards):

1. the lattice: the two directions and steps of the grid from each card centre's nearest neighbours, then the
   cards are numbered by walking from the middle card to its neighbours one step at a time;
2. a homography from lattice numbers to the picture is fitted to them (least squares) and every card is numbered
   again through it, until nothing changes: far rows may look smaller than near ones (perspective);
3. "as seen": of the grid's four quarter turns, the one whose rows run nearest the picture's left-to-right (and
   whose first row is nearest the top) is used;
4. the 5x5 window that holds the most cards is the grid; cards outside it are reported, not scored;
5. each cell takes the card name with the most evidence among the corner indices inside it; a name already given,
   with more evidence, to another cell is not given twice (a deck holds each card once): the cell takes its next
   reading, or stays unread.

A cell with no reading is ``None`` and named in a warning; it is never guessed. A grid not read completely is
read again as if its rows were laid over each other (:func:`read_overlapping`), the better reading kept.

For the live camera: ``grid_from_detection(detector.detect(frame))`` (the detector's best name per corner). A still
photo is read better by ``assistant.commands.score_photo.read_grid(detector, image)``: each corner's five best
names (the deck rule's second choices), a second look in tiles, and the corners of unread cells looked for where
the other cards show theirs (:func:`probe_boxes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

import numpy as np

from vision.homography import apply_h, fit_homography, from_seen, seen_orientation, to_seen  # noqa: F401

SIZE = 5
# A card centre that lies further than this (in grid steps, on either axis) from a lattice point belongs to no cell.
MAX_OFFSET = 0.45
# Walking from card to card: a neighbour must lie within this of a whole number of steps on both axes.
WALK_TOLERANCE = 0.3
# A cell needs this much evidence (summed corner scores) for its best name to be read at all.
MIN_EVIDENCE = 0.1
# A cell's second name with at least this share of its first's evidence, and no other cell's card: warned about.
SECOND_CARD_SHARE = 0.5
# A cell whose name has less than this share of the cell's evidence is named in a doubt (worth a look): chosen on
# the tuning set datasets/gridtune (96 rendered grids of the held-out designs), where it points at 41 of the 61 wrong
# names instead of 31, for 138 instead of 101 doubts on right cells (docs/BENCHMARKS.md, score-photo).
DOUBT_SHARE = 0.6
# The evidence of a cell whose card the player has named (``grid_from_cards(fixed=...)``): more than any reading.
SET_EVIDENCE = 1e6
# Fewer cards than this on the lattice, or fewer than three rows or columns of them, make no grid to score.
MIN_GRID_CARDS = 8
# A reading outside the grid counts as a card there from this score on (the detector reports cards from 0.3).
MIN_OUTSIDE_SCORE = 0.3
# Cards read at both corner indices that a grid laid over itself needs to tell which corner every card shows: where
# columns overlap, only the last column's cards show both (docs/BENCHMARKS.md, score-photo, session 44).
MIN_CORNER_PAIRS = 2
# Said when a grid read better as rows laid over each other (``read_overlapping``)
OVERLAP_NOTE = ("read card by card (each card's corners counted where the card lies): if the rows or columns "
                "overlap, a grid laid out with gaps between the cards reads best")


@dataclass(frozen=True)
class Sighting:
    """One reading of a card name at a place in the picture: a corner index (or a grouped card).

    ``score`` 0..1 (detector x classifier); ``box`` (x1, y1, x2, y2) in picture pixels."""

    card: str
    score: float
    box: tuple[float, float, float, float]
    # the classifier's other answers for this corner, name -> probability (with ``weight`` the detector's belief
    # that it is a corner at all); without them, the one name with ``score`` is the evidence
    probs: tuple[tuple[str, float], ...] = ()
    weight: float = 1.0

    def evidence(self) -> dict[str, float]:
        """Name -> evidence this reading gives the cell it lies in."""
        if self.probs:
            return {n: self.weight * p for n, p in self.probs if n}
        return {self.card: float(self.score)} if self.card else {}

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


@dataclass
class GridReading:
    """The grid read from one picture. ``rows``: 5x5 card names or None, as seen (top row first, left to right).

    ``found`` is False when no grid could be made out at all (then every cell is None).
    ``cell_boxes[r][c]``: the cell's quadrilateral in the picture (4x2 float array) or None without a grid.
    ``cards_seen``: cards read (cells read, cards outside the grid, second cards in a cell); ``extra``: the names
    read outside the grid. ``warnings`` are problems with the grid (a cell unread, a card too many or missing);
    ``doubts`` are cells read with a close second reading or whose name holds under ``DOUBT_SHARE`` of the cell's
    evidence (worth a look, not a problem); ``notes`` say where the deck rule decided; ``flagged``: every cell
    one of them names (a wrong name outside it is a silent mistake); ``evidence``: per cell, name -> evidence;
    ``to_check``: the cells a warning or doubt names, in their order, each with the other name read there (None
    when there is none): what a player would most likely correct with ``--set``."""

    rows: list[list[str | None]]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cell_boxes: list[list[np.ndarray | None]] = field(default_factory=list)
    found: bool = True
    cards_seen: int = 0
    extra: list[str] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)
    seen_h: np.ndarray | None = None  # (column, row) as seen -> picture pixels; cell (r, c) is centred at (c, r)
    flagged: set[tuple[int, int]] = field(default_factory=set)  # cells a warning, doubt or note names
    evidence: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)  # per cell: name -> evidence
    to_check: list[tuple[int, int, str | None]] = field(default_factory=list)  # (row, column, other name)

    @property
    def cells(self) -> list[str | None]:
        """Row-major, 25 entries."""
        return [c for row in self.rows for c in row]

    @property
    def complete(self) -> bool:
        """Every cell read and nothing to warn about."""
        return all(c is not None for c in self.cells) and not self.warnings

    @property
    def quality(self) -> tuple[int, int]:
        """To choose between two readings of one picture: more cells read, then fewer warnings."""
        return sum(c is not None for c in self.cells), -len(self.warnings)

    def moved(self, factor: float, dx: float, dy: float) -> "GridReading":
        """The picture geometry scaled by ``factor`` then shifted by (dx, dy), in place: a reading made on an enlarged
        part of the picture brought back to the whole picture's pixels, or cells moved from the cards' corners to
        their middles."""
        m = np.array([[factor, 0.0, dx], [0.0, factor, dy], [0.0, 0.0, 1.0]])
        self.cell_boxes = [[None if q is None else (q * factor + np.array([dx, dy], np.float32)).astype(np.float32)
                            for q in row] for row in self.cell_boxes]
        if self.seen_h is not None:
            self.seen_h = m @ self.seen_h
        return self


def cell_name(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


# --------------------------------------------------------------------------------------------------- lattice


def _axis_directions(points: np.ndarray, k: int = 4) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """The grid's two directions (unit vectors) and step lengths (pixels) from nearest-neighbour vectors."""
    n = len(points)
    if n < 3:
        return None
    d = points[None, :, :] - points[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    kk = min(k, n - 1)
    nearest = np.argsort(dist, axis=1)[:, :kk]
    vecs = d[np.arange(n)[:, None], nearest].reshape(-1, 2)
    lengths = np.hypot(vecs[:, 0], vecs[:, 1])
    ok = lengths > 1e-6
    vecs, lengths = vecs[ok], lengths[ok]
    if not len(vecs):
        return None
    ang = np.mod(np.degrees(np.arctan2(vecs[:, 1], vecs[:, 0])), 180.0)
    # weight short vectors more: they are the axis neighbours, diagonals are longer
    w = np.median(lengths) / lengths
    hist = np.bincount(np.round(ang).astype(int) % 180, weights=w, minlength=180)
    kernel = np.exp(-0.5 * (np.arange(-6, 7) / 3.0) ** 2)
    smooth = np.array([np.sum(hist[(i + np.arange(-6, 7)) % 180] * kernel) for i in range(180)])
    a1 = int(np.argmax(smooth))
    sep = np.abs((np.arange(180) - a1 + 90) % 180 - 90)  # angular distance from a1, 0..90
    cand = np.where(sep >= 35, smooth, -1.0)
    a2 = int(np.argmax(cand))
    if cand[a2] <= 0:
        a2 = (a1 + 90) % 180  # all cards in one line: guess the perpendicular

    def refine(a0: int) -> tuple[np.ndarray, float]:
        diff = np.abs((ang - a0 + 90) % 180 - 90)
        sel = diff <= 15
        if not sel.any():
            rad = np.radians(a0)
            return np.array([np.cos(rad), np.sin(rad)]), float(np.median(lengths))
        v = vecs[sel].copy()
        ref = np.array([np.cos(np.radians(a0)), np.sin(np.radians(a0))])
        v[v @ ref < 0] *= -1
        unit = v.sum(0)
        unit /= np.linalg.norm(unit)
        # the step: per card, its nearest neighbour along this axis (a gap makes the next one two steps away)
        per_point = []
        for i in range(n):
            dd = d[i]
            along = np.abs(dd @ unit)
            across = np.abs(dd @ np.array([-unit[1], unit[0]]))
            m = (along > 1e-6) & (across < 0.35 * along)
            if m.any():
                per_point.append(along[m].min())
        step = float(np.median(per_point)) if per_point else float(np.median(lengths[sel]))
        return unit, step

    e1, s1 = refine(a1)
    e2, s2 = refine(a2)
    return e1, e2, s1, s2


def _walk(points: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Lattice numbers (n, 2) for the cards reachable from the middle card one step at a time; (-9999) elsewhere.

    ``basis``: 2x2, columns = one step along each axis in pixels. Each card reached carries its own steps, taken
    from the step that reached it: under perspective the steps shrink row by row, and the walk follows them."""
    n = len(points)
    coords = np.full((n, 2), -9999, dtype=np.int64)
    centre = np.median(points, axis=0)
    start = int(np.argmin(np.hypot(*(points - centre).T)))
    coords[start] = 0
    local = {start: np.asarray(basis, float)}
    queue = [start]
    taken = {(0, 0)}
    while queue:
        p = queue.pop(0)
        here = local[p]
        rel = (points - points[p]) @ np.linalg.inv(here).T  # lattice offsets of every card from p
        order = np.argsort(np.hypot(*(points - points[p]).T))
        for q in order:
            if coords[q, 0] != -9999:
                continue
            a, b = rel[q]
            ra, rb = round(a), round(b)
            if (ra, rb) == (0, 0) or max(abs(ra), abs(rb)) > 1:  # one step at a time (gaps: the homography)
                continue
            if abs(a - ra) > WALK_TOLERANCE or abs(b - rb) > WALK_TOLERANCE:
                continue
            cell = (int(coords[p, 0] + ra), int(coords[p, 1] + rb))
            if cell in taken:
                continue
            coords[q] = cell
            taken.add(cell)
            steps = here.copy()
            d = points[q] - points[p]
            if rb == 0:
                steps[:, 0] = d / ra
            elif ra == 0:
                steps[:, 1] = d / rb
            if abs(np.linalg.det(steps)) < 0.25 * abs(np.linalg.det(here)):
                steps = here
            local[int(q)] = steps
            queue.append(int(q))
    return coords


def _affine_h(coords: np.ndarray, points: np.ndarray) -> np.ndarray | None:
    """Least-squares affine map lattice -> picture as a 3x3 (for too few or collinear cards)."""
    if len(coords) < 3:
        return None
    a = np.c_[coords, np.ones(len(coords))]
    sol, *_ = np.linalg.lstsq(a, points, rcond=None)
    h = np.eye(3)
    h[:2, :] = sol.T
    if abs(np.linalg.det(h[:2, :2])) < 1e-9:
        return None
    return h


def fit_lattice(points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(H, coords)``: H maps lattice numbers (a, b) to picture pixels; ``coords`` (n, 2) the lattice numbers of
    the points (-9999 for points that are on no lattice point). None when no grid can be made out."""
    points = np.asarray(points, float).reshape(-1, 2)
    axes = _axis_directions(points)
    if axes is None:
        return None
    e1, e2, s1, s2 = axes
    basis = np.c_[e1 * s1, e2 * s2]
    if abs(np.linalg.det(basis)) < 1e-9:
        return None
    # the walk starts at the middle card with the steps of its own neighbourhood (under strong perspective the
    # whole picture's directions are an average of converging columns)
    start = int(np.argmin(np.hypot(*(points - np.median(points, axis=0)).T)))
    near = np.argsort(np.hypot(*(points - points[start]).T))[:13]
    local = _axis_directions(points[near]) if len(near) >= 9 else None
    if local is not None:
        l1, l2, t1, t2 = local
        if abs(l1 @ e1) < abs(l1 @ e2):  # keep the axes' order of the whole picture
            l1, l2, t1, t2 = l2, l1, t2, t1
        close = min(abs(l1 @ e1), abs(l2 @ e2)) > np.cos(np.radians(25))
        similar = 0.6 < t1 / s1 < 1.6 and 0.6 < t2 / s2 < 1.6
        if close and similar:  # the neighbourhood agrees with the picture, only bent by perspective
            basis = np.c_[l1 * t1 * np.sign(l1 @ e1 or 1), l2 * t2 * np.sign(l2 @ e2 or 1)]
    coords = _walk(points, basis)
    h = None
    for _ in range(8):
        on = coords[:, 0] != -9999
        if on.sum() < 3:
            return None
        span = np.ptp(coords[on], axis=0)
        h_new = fit_homography(coords[on].astype(float), points[on]) if on.sum() >= 6 and span.min() >= 1 else None
        if h_new is None:
            h_new = _affine_h(coords[on].astype(float), points[on])
        if h_new is None:
            return None
        h = h_new
        g = apply_h(np.linalg.inv(h), points)
        r = np.round(g)
        ok = np.all(np.abs(g - r) <= MAX_OFFSET, axis=1)
        new = np.where(ok[:, None], r.astype(np.int64), -9999)
        # two cards on one lattice point: both keep it (the cell reports two cards)
        if np.array_equal(new, coords):
            break
        coords = new
    return h, coords


# --------------------------------------------------------------------------------------------------- as seen


def _best_window(rc: np.ndarray) -> tuple[int, int]:
    """Top-left (row, column) of the 5x5 window holding the most cards (ties: nearest the cards' middle)."""
    r0s = range(rc[:, 0].min() - SIZE + 1, rc[:, 0].max() + 1)
    c0s = range(rc[:, 1].min() - SIZE + 1, rc[:, 1].max() + 1)
    mid = rc.mean(0)
    best, best_key = (0, 0), None
    for r0 in r0s:
        for c0 in c0s:
            inside = ((rc[:, 0] >= r0) & (rc[:, 0] < r0 + SIZE) & (rc[:, 1] >= c0) & (rc[:, 1] < c0 + SIZE)).sum()
            off = abs(r0 + 2 - mid[0]) + abs(c0 + 2 - mid[1])
            # the cards found sit at the window's top-left when a whole row or column is missing
            key = (int(inside), -round(off * 2) / 2, r0, c0)
            if best_key is None or key > best_key:
                best, best_key = (r0, c0), key
    return best


# --------------------------------------------------------------------------------------------------- reading


def _empty_rows() -> list[list[str | None]]:
    return [[None] * SIZE for _ in range(SIZE)]


def grid_from_cards(sightings: Iterable[Sighting],
                    card_centres: Sequence[Sequence[float]] | None = None,
                    fixed: Mapping[tuple[int, int], str] | None = None) -> GridReading:
    """Read the 5x5 grid.

    ``sightings``: every named reading: corner indices (several per card, perhaps disagreeing) or whole cards,
    each with its score; the cell a reading belongs to is found from its box centre.
    ``card_centres``: centres of whole cards (e.g. the detector's card boxes) to find the lattice with; without
    them (fewer than 4, or they make no grid), the middles of the named cards (:func:`_name_centres`).
    ``fixed``: cells (row, column as seen, from 0) whose card the player has named: they hold it whatever was read
    there, a note says so, and the deck rule moves that name out of any other cell (which takes its next reading).
    """
    sightings = [s for s in sightings if s.card or s.probs]
    names = sorted({s.card for s in sightings if s.card})
    candidates = []  # whole cards' centres first, then the named cards' (when the card boxes make no grid)
    if card_centres is not None and len(card_centres) >= 4:
        candidates.append(np.asarray(card_centres, float).reshape(-1, 2))
    candidates.append(_name_centres([s for s in sightings if s.card]))
    fit = None
    if len(names) >= MIN_GRID_CARDS:
        for points in candidates:
            fit = _grid_lattice(points)
            if fit is not None:
                break
    if fit is None:
        return GridReading(rows=_empty_rows(), warnings=[_too_few(len(names))], found=False,
                           cell_boxes=[[None] * SIZE for _ in range(SIZE)], cards_seen=len(names))
    h, coords = fit
    on = coords[:, 0] != -9999
    centre = coords[on].mean(0) if on.any() else np.zeros(2)
    col_axis, row_axis = seen_orientation(h, centre)
    h_inv = np.linalg.inv(h)

    # every reading's cell, as seen
    pos = np.array([s.centre for s in sightings], float).reshape(-1, 2)
    g = apply_h(h_inv, pos) if len(pos) else np.zeros((0, 2))
    near = np.all(np.abs(g - np.round(g)) <= 0.5, axis=1) if len(g) else np.zeros(0, bool)
    rc = to_seen(np.round(g), col_axis, row_axis) if len(g) else np.zeros((0, 2), np.int64)
    lattice_rc = to_seen(coords[on], col_axis, row_axis)
    r0, c0 = _best_window(lattice_rc if len(lattice_rc) else rc)

    evidence: dict[tuple[int, int], dict[str, float]] = {}
    outside: dict[str, float] = {}
    clear: dict[tuple[int, int], dict[str, int]] = {}  # cell -> name -> corners that read it clearly
    for s, (r, c), ok in zip(sightings, rc, near):
        r, c = int(r - r0), int(c - c0)
        if ok and 0 <= r < SIZE and 0 <= c < SIZE:
            cell = evidence.setdefault((r, c), {})
            for name, ev in s.evidence().items():
                cell[name] = cell.get(name, 0.0) + ev
            if s.card and s.score >= MIN_OUTSIDE_SCORE:
                clear.setdefault((r, c), {})[s.card] = clear.get((r, c), {}).get(s.card, 0) + 1
        elif s.card and s.score >= MIN_OUTSIDE_SCORE:
            outside[s.card] = max(outside.get(s.card, 0.0), float(s.score))
    evidence = {cell: ev for cell, ev in evidence.items() if max(ev.values(), default=0.0) >= MIN_EVIDENCE}
    set_notes = {}
    for (r, c), name in (fixed or {}).items():
        ev = evidence.get((r, c), {})
        read = max(ev, key=ev.get) if ev else None
        set_notes[(r, c)] = f"{cell_name(r, c)}: {name}, as you set it" + (
            "" if read == name else f" (read: {read})" if read else " (nothing was read there)")
        evidence[(r, c)] = {name: SET_EVIDENCE}

    rows = _empty_rows()
    warnings: list[str] = []
    notes: list[str] = []
    where = assign_names(evidence)
    for name, (r, c) in where.items():
        rows[r][c] = name
    doubled = []
    doubts: list[str] = []
    flagged: set[tuple[int, int]] = set()
    to_check: list[tuple[int, int, str | None]] = []
    for (r, c), ev in sorted(evidence.items()):
        if (r, c) in set_notes:
            notes.append(set_notes[(r, c)])
            continue
        before = len(warnings) + len(doubts) + len(notes)
        problems_before = len(warnings) + len(doubts)
        other: str | None = None  # the name a player would most likely set here instead
        ranked = sorted(ev.items(), key=lambda kv: -kv[1])
        top_name, top_score = ranked[0]
        got = rows[r][c]
        if got is None:
            at = where.get(top_name)
            because = f", but {top_name} is at {cell_name(*at)}; the deck has each card once" if at else ""
            warnings.append(f"{cell_name(r, c)}: unreadable (read as {top_name}{because})")
        elif got != top_name and top_name not in where:  # an even split: both names fit the deck
            doubts.append(f"{cell_name(r, c)}: {got} or {top_name}? took {got} (evidence {ev[got]:.2f} against "
                          f"{top_score:.2f})")
            other = top_name
        elif got != top_name:
            notes.append(f"{cell_name(r, c)}: {got}, not {top_name}: {top_name} is at {cell_name(*where[top_name])} "
                         "(the deck has each card once)")
        elif len(ranked) > 1:
            # a second name here that is no other cell's card: two cards in one cell, or a corner misread
            second, second_score = ranked[1]
            both_corners = [n for n, k in clear.get((r, c), {}).items() if k >= 2 and n not in where]
            if both_corners:  # a card has two indices: two more that agree on another name are another card
                doubled.append((r, c))
                warnings.append(f"{cell_name(r, c)}: two cards in one cell, {top_name} and {both_corners[0]}; "
                                f"took {top_name}")
            elif second_score >= SECOND_CARD_SHARE * top_score and where.get(second) is None:
                doubts.append(f"{cell_name(r, c)}: {top_name} or {second}? took {top_name} (evidence "
                              f"{top_score:.2f} against {second_score:.2f}; a misread corner, or two cards in one "
                              "cell)")
                other = second
        share = ev.get(got, 0.0) / max(sum(ev.values()), 1e-9)
        if got is not None and len(warnings) + len(doubts) + len(notes) == before and share < DOUBT_SHARE:
            others = ", ".join(n for n, _ in ranked[:3] if n != got)
            other = next((n for n, _ in ranked if n != got), None)
            doubts.append(f"{cell_name(r, c)}: {got}? only {share:.0%} of what was read there points at it "
                          f"(also read: {others})")
        if len(warnings) + len(doubts) + len(notes) > before:
            flagged.add((r, c))
            if len(warnings) + len(doubts) > problems_before:  # a note alone (the deck rule) asks for no check
                to_check.append((r, c, other))
    # cards that are outside the grid (a stray card, the stock, a card of the next deal)
    extra = sorted(n for n in outside if n not in where)
    # missing rows / columns / cells
    empty_rows = [r for r in range(SIZE) if all(rows[r][c] is None and (r, c) not in evidence for c in range(SIZE))]
    empty_cols = [c for c in range(SIZE) if all(rows[r][c] is None and (r, c) not in evidence for r in range(SIZE))]
    for r in empty_rows:
        warnings.append(f"row {r + 1}: no card found (a missing row?)")
    for c in empty_cols:
        warnings.append(f"column {c + 1}: no card found (a missing column?)")
    for r in range(SIZE):
        for c in range(SIZE):
            if rows[r][c] is None and (r, c) not in evidence and r not in empty_rows and c not in empty_cols:
                warnings.append(f"{cell_name(r, c)}: no card read")
                flagged.add((r, c))
                to_check.append((r, c, None))
    if extra:
        warnings.append(f"{len(extra)} card{'s' if len(extra) > 1 else ''} outside the grid, not scored: "
                        + " ".join(extra))
    cards_seen = sum(v is not None for row in rows for v in row) + len(extra) + len(doubled)
    if cards_seen != SIZE * SIZE:
        warnings.insert(0, f"{cards_seen} card{'s' if cards_seen != 1 else ''} read, a grid has 25")
    cell_boxes = [[_cell_quad(h, from_seen(np.array([[r + r0, c + c0]]), col_axis, row_axis)[0])
                   for c in range(SIZE)] for r in range(SIZE)]
    # (column, row) as seen -> lattice numbers -> picture
    m = np.array([[col_axis[0], row_axis[0], r0 * row_axis[0] + c0 * col_axis[0]],
                  [col_axis[1], row_axis[1], r0 * row_axis[1] + c0 * col_axis[1]], [0.0, 0.0, 1.0]])
    return GridReading(rows=rows, warnings=warnings, notes=notes, cell_boxes=cell_boxes, found=True,
                       cards_seen=cards_seen, extra=extra, doubts=doubts, seen_h=h @ m, flagged=flagged,
                       evidence=evidence, to_check=to_check)


def probe_boxes(reading: GridReading, sightings: Sequence[Sighting]) -> dict[tuple[int, int], list[tuple]]:
    """Where the corner indices of each unread cell should be, as boxes in the picture: the corners read in the
    other cells give the indices' place on a card (two opposite corners, the same offset from the card's middle)
    and their size, relative to the cell. The caller reads those places with the classifier (a corner the detector
    missed, e.g. in a blurred photo). {(row, column): [box, box]}; empty without a grid or enough corners."""
    if not reading.found or reading.seen_h is None:
        return {}
    unread = [(r, c) for r in range(SIZE) for c in range(SIZE) if reading.rows[r][c] is None]
    if not unread:
        return {}
    inv = np.linalg.inv(reading.seen_h)
    offsets, sizes = [], []
    for s in sightings:
        if not s.card:
            continue
        p = apply_h(inv, np.array([s.centre]))[0]  # (column, row) as seen
        c, r = int(round(p[0])), int(round(p[1]))
        if not (0 <= r < SIZE and 0 <= c < SIZE) or reading.rows[r][c] != s.card:
            continue
        d = p - (c, r)
        offsets.append(d if d[0] >= 0 else -d)  # a card's two corners: +d and -d
        scale = _local_scale(reading.seen_h, (c, r))
        x1, y1, x2, y2 = s.box
        sizes.append(((x2 - x1) / scale, (y2 - y1) / scale))
    if len(offsets) < 4:
        return {}
    o = np.median(np.array(offsets), axis=0)
    w, h = np.median(np.array(sizes), axis=0)
    out = {}
    for r, c in unread:
        boxes = []
        for sign in (1, -1):
            centre = np.array([c, r]) + sign * o
            x, y = apply_h(reading.seen_h, centre[None])[0]
            k = _local_scale(reading.seen_h, centre)
            boxes.append((x - w * k / 2, y - h * k / 2, x + w * k / 2, y + h * k / 2))
        out[(r, c)] = boxes
    return out


def _local_scale(h: np.ndarray, p) -> float:
    """Picture pixels per grid step near grid point ``p`` (the square root of the local area ratio)."""
    p = np.asarray(p, float)
    q = apply_h(h, np.array([p, p + (1e-2, 0), p + (0, 1e-2)]))
    j = np.stack([q[1] - q[0], q[2] - q[0]], axis=1) / 1e-2
    return float(np.sqrt(abs(np.linalg.det(j))))


def assign_names(evidence: dict[tuple[int, int], dict[str, float]]) -> dict[str, tuple[int, int]]:
    """Name -> cell: each cell at most one name, each name at most once (a deck holds each card once), the total
    evidence as large as possible (the assignment problem, solved exactly; a cell may stay unread)."""
    cells = sorted(evidence)
    names = sorted({n for ev in evidence.values() for n in ev})
    if not cells:
        return {}
    # columns: the names, then one "unread" column per cell (evidence 0)
    n, m = len(cells), len(names) + len(cells)
    gain = np.zeros((n, m))
    for i, cell in enumerate(cells):
        for j, name in enumerate(names):
            gain[i, j] = evidence[cell].get(name, 0.0)
    cost = gain.max() - gain
    for i in range(n):  # a name the cell gave no evidence for is never better than leaving the cell unread
        for j, name in enumerate(names):
            if name not in evidence[cells[i]]:
                cost[i, j] = cost.max() + 1.0
    match = _hungarian(cost)
    out: dict[str, tuple[int, int]] = {}
    for i, j in enumerate(match):
        if j < len(names) and gain[i, j] >= MIN_EVIDENCE:
            out[names[j]] = cells[i]
    return out


def _hungarian(cost: np.ndarray) -> list[int]:
    """Minimum-cost assignment of every row to a distinct column (rows <= columns); the column of each row.
    (Kuhn-Munkres with potentials, O(n^2 m).)"""
    n, m = cost.shape
    inf = float("inf")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)  # p[j]: the row (1-based) matched to column j
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free, minv[1:], inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    match = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            match[p[j] - 1] = j - 1
    return match


def _grid_lattice(points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`fit_lattice`, or None when fewer than MIN_GRID_CARDS points, or under three rows or columns, are on
    it (a few loose cards are no grid)."""
    fit = fit_lattice(points) if len(points) >= 3 else None
    if fit is None:
        return None
    on = fit[1][:, 0] != -9999
    if on.sum() < MIN_GRID_CARDS or min(np.ptp(fit[1][on], axis=0)) < 2:
        return None
    return fit


def _cell_quad(h: np.ndarray, centre: np.ndarray) -> np.ndarray:
    a, b = centre
    corners = np.array([[a - 0.5, b - 0.5], [a + 0.5, b - 0.5], [a + 0.5, b + 0.5], [a - 0.5, b + 0.5]])
    return apply_h(h, corners).astype(np.float32)


def _name_centres(sightings: list[Sighting]) -> np.ndarray:
    """Card middles from the named corners: a name read at two corners of one card (its best reading and the one
    nearest a card's diagonal away from it) gives the middle between them. When at least MIN_GRID_CARDS names give such a middle,
    only those are returned (a card seen by one corner only, or a name read in two places, would put its point off
    the middle); otherwise every name's best reading."""
    by_name: dict[str, list[Sighting]] = {}
    for s in sightings:
        by_name.setdefault(s.card, []).append(s)
    best = {n: sorted(v, key=lambda s: -s.score) for n, v in by_name.items()}
    gaps = []
    for readings in best.values():
        if len(readings) >= 2:
            a = np.array(readings[0].centre)
            gaps.append(min(np.hypot(*(np.array(r.centre) - a)) for r in readings[1:]))
    diagonal = float(np.median(gaps)) if gaps else 0.0
    middles, single = [], []
    for readings in best.values():
        a = np.array(readings[0].centre)
        others = [np.array(r.centre) for r in readings[1:]]
        gap = [np.hypot(*(o - a)) for o in others]
        partner = [o for o, g in sorted(zip(others, gap), key=lambda og: abs(og[1] - diagonal))
                   if 0.5 * diagonal <= g <= 2.0 * diagonal]  # perspective: near cards look up to ~2x far ones
        if partner:
            middles.append((a + partner[0]) / 2)
        else:
            single.append(a)
    if len(middles) >= MIN_GRID_CARDS:
        return np.array(middles, float).reshape(-1, 2)
    return np.array(middles + single, float).reshape(-1, 2)


def sightings_at_corners(sightings: Sequence[Sighting],
                         far: bool = False) -> tuple[list[Sighting], np.ndarray, np.ndarray]:
    """``(sightings, points, to_middle)`` for a grid whose rows (or columns) are laid over each other: a card's two
    corner indices lie a fixed diagonal apart, and one of them (the same one on every card) shows on every card. A
    reading at a card's other corner (its name read at both) is moved onto that one, and each name's reading there
    gives the points to find the lattice with, so that every reading lies on its own card's lattice point however
    much the rows overlap; ``to_middle`` goes from that corner to the card's middle (to draw the cells around the
    cards). Which end of the diagonal shows is not known: ``far`` takes the other one (try both). Without enough
    cards read at both corners, no points."""
    by_name: dict[str, list[int]] = {}
    for i, s in enumerate(sightings):
        if s.card:
            by_name.setdefault(s.card, []).append(i)
    centres = np.array([s.centre for s in sightings], float).reshape(-1, 2)

    def apart(i: int, j: int) -> float:
        return float(np.hypot(*(centres[j] - centres[i])))

    def others(idx: list[int], best: int) -> list[int]:  # not the same corner found twice
        size = sightings[best].box[3] - sightings[best].box[1] + sightings[best].box[2] - sightings[best].box[0]
        return [j for j in idx if j != best and apart(best, j) > size]

    best_of = {name: max(idx, key=lambda i: sightings[i].score) for name, idx in by_name.items()}
    elsewhere = {name: others(idx, best_of[name]) for name, idx in by_name.items()}
    gaps = [min(apart(best_of[n], j) for j in js) for n, js in elsewhere.items() if js]
    if len(gaps) < MIN_CORNER_PAIRS:
        return list(sightings), np.zeros((0, 2)), np.zeros(2)
    diagonal = float(np.median(gaps))
    pairs = []  # (first corner, second corner) of one card: the best reading and its partner a diagonal away
    for name, js in elsewhere.items():
        best = best_of[name]
        near = [j for j in js if 0.7 * diagonal <= apart(best, j) <= 1.4 * diagonal]
        if near:
            pairs.append((best, min(near, key=lambda j: abs(apart(best, j) - diagonal))))
    if len(pairs) < MIN_CORNER_PAIRS:
        return list(sightings), np.zeros((0, 2)), np.zeros(2)
    v = np.array([centres[b] - centres[a] for a, b in pairs], float).reshape(-1, 2)
    axis = np.linalg.eigh(v.T @ v)[1][:, -1]  # the diagonal's direction, its sign arbitrary but fixed
    v = v * np.sign(v @ axis)[:, None]
    d = np.median(v, axis=0) * (-1.0 if far else 1.0)
    moved = list(sightings)
    points = {}
    for a, b in pairs:
        near_end, far_end = (a, b) if (centres[b] - centres[a]) @ d > 0 else (b, a)  # near_end + d ~ far_end
        s = sightings[far_end]
        x1, y1, x2, y2 = s.box
        moved[far_end] = replace(s, box=(x1 - d[0], y1 - d[1], x2 - d[0], y2 - d[1]))
        points[sightings[a].card] = centres[near_end]
    for name, best in best_of.items():
        if name not in points:  # seen at one corner only: the uncovered one
            points[name] = centres[best]
    return moved, np.array(list(points.values()), float).reshape(-1, 2), d / 2.0


def _one_corner_each(sightings: Sequence[Sighting]) -> tuple[np.ndarray, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """``(points, pairs)``: each name's best reading's centre, the lattice of a grid whose rows and columns are both
    laid over each other (every card shows one corner index, the same one, as its middle lies on the grid); and
    the names read at two corners of one card (the cards laid last), both centres, for :func:`_to_middle`."""
    best: dict[str, Sighting] = {}
    for s in sightings:
        if s.card and (s.card not in best or s.score > best[s.card].score):
            best[s.card] = s
    pairs = {}
    for s in sightings:
        b = best.get(s.card)
        if b is not None and s is not b and np.hypot(*(np.array(s.centre) - b.centre)) > 2 * (
                b.box[2] - b.box[0] + b.box[3] - b.box[1]):  # the card's other corner, not its own found twice
            pairs[s.card] = (np.array(b.centre), np.array(s.centre))
    return np.array([s.centre for s in best.values()], float).reshape(-1, 2), pairs


def _to_middle(reading: GridReading, pairs: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """From the corner every card shows to a card's middle: half the way from a card's corner on the lattice (the
    one of its two readings nearer its cell's centre) to its other one, the median over the cards read at two
    corners that agree with most of them (a name also misread on another card does not); nothing where no
    majority agrees (the cells then drawn around the corners)."""
    centre = {name: box.mean(axis=0) for row, boxes in zip(reading.rows, reading.cell_boxes)
              for name, box in zip(row, boxes) if name is not None and box is not None}
    halves = []
    for name, (a, b) in pairs.items():
        if name in centre:
            near, far = (a, b) if np.hypot(*(a - centre[name])) <= np.hypot(*(b - centre[name])) else (b, a)
            halves.append((far - near) / 2.0)
    if not halves:
        return np.zeros(2)
    h = np.array(halves)
    m = np.median(h, axis=0)
    agree = np.linalg.norm(h - m, axis=1) <= 0.3 * np.linalg.norm(m)  # a name misread on another card disagrees
    return np.median(h[agree], axis=0) if 2 * agree.sum() > len(h) else np.zeros(2)


def _too_few(n: int) -> str:
    if n == 0:
        return "no cards seen: no grid to score"
    return (f"{n} card{'s' if n != 1 else ''} seen, not laid out in a grid: no grid to score "
            "(lay out all 25 in 5 rows of 5)")


# --------------------------------------------------------------------------------------------------- detector


def corner_score(box_confidence: float, card_confidence: float) -> float:
    """A corner reading's score, as the detector ranks them (vision.grouping: box ** 0.5 x classifier)."""
    return float(box_confidence) ** 0.5 * float(card_confidence)


def sightings_from_detection(result, corner_probs: Sequence | None = None,
                             at_cards: bool = False) -> tuple[list[Sighting], np.ndarray]:
    """``(sightings, card_centres)`` from a ``vision.detector.DetectionResult``: every named corner index is a
    sighting; the whole-card boxes (and the centres of cards seen by two corners but with no card box) give the
    lattice. ``corner_probs`` (one per raw detection, or None): the classifier's best names for each corner as
    ``((name, probability), ...)``; with them the deck rule can fall back on a corner's second reading.
    ``at_cards``: each corner's box moved to the middle of the card the detector grouped it into (its card box, or
    its corners' span; ``card_id``), so that it counts in that card's cell: where rows overlap, a corner index lies
    nearly a row step above its card's middle and would round into the row above."""
    d = result.detections
    sightings: list[Sighting] = []
    card_boxes = []
    labels = d.data.get("label") if len(d) else None
    card_id = d.data.get("card_id") if at_cards and len(d) else None
    card_middles = result.card_detections.center if card_id is not None else None
    for i in range(len(d)):
        label = str(labels[i]) if labels is not None else ""
        box = tuple(float(v) for v in d.xyxy[i])
        if label == "card":
            card_boxes.append(box)
            continue
        if card_id is not None and int(card_id[i]) >= 0:
            mx, my = (float(v) for v in card_middles[int(card_id[i])])
            half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
            box = (mx - half_w, my - half_h, mx + half_w, my + half_h)
        name = str(d.data.get("card", [""] * len(d))[i] or "")
        probs = tuple(corner_probs[i] or ()) if corner_probs is not None else ()
        if name or probs:
            score = corner_score(d.confidence[i], d.data["card_confidence"][i]) if name else 0.0
            sightings.append(Sighting(name, score, box, probs=probs, weight=float(d.confidence[i]) ** 0.5))
    if not sightings:  # a model that names whole cards (no corner stage): the grouped cards are the readings
        sightings = [Sighting(c.card, float(c.confidence), tuple(c.box)) for c in result.cards]
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in card_boxes]
    for c in result.cards:
        x1, y1, x2, y2 = c.box
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        inside = any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in card_boxes)
        if not inside and getattr(c, "corners", 1) >= 2:
            centres.append((cx, cy))
    return sightings, np.array(centres, float).reshape(-1, 2)


def read_overlapping(reading: GridReading, result, sightings: Sequence[Sighting],
                     card_centres: np.ndarray | None = None, corner_probs: Sequence | None = None,
                     fixed: Mapping[tuple[int, int], str] | None = None) -> GridReading:
    """``reading`` of the detector result ``result`` (its ``sightings`` and ``card_centres`` as
    :func:`sightings_from_detection` gave them), or, when it is not complete, a better one made as if the rows (or
    columns) were laid over each other: each corner counted at its card's middle (the card the detector grouped it
    into), or each at the corner every card shows (:func:`sightings_at_corners`, both ends tried), or each name's
    best reading as a point of the lattice (rows and columns both over each other: :func:`_one_corner_each`); the
    reading with the most cells read and the fewest warnings, which says so in a note when it is not ``reading``. A
    complete ``reading`` is kept, its cells drawn around the cards (:func:`_cells_at_cards`)."""
    if reading.complete:
        return _cells_at_cards(reading, sightings, fixed)
    tries = [grid_from_cards(sightings_from_detection(result, corner_probs, at_cards=True)[0], card_centres, fixed)]
    for far in (False, True):
        moved, points, to_middle = sightings_at_corners(sightings, far)
        if len(points) >= 4:
            tries.append(grid_from_cards(moved, points, fixed).moved(1.0, *to_middle))
    points, pairs = _one_corner_each(sightings)
    if len(points) >= 4:
        at_corners = grid_from_cards(sightings, points, fixed)
        tries.append(at_corners.moved(1.0, *_to_middle(at_corners, pairs)))
    best = max(tries, key=lambda r: r.quality)
    if best.quality <= reading.quality:
        return reading
    best.notes.append(OVERLAP_NOTE)
    return best


def _cells_at_cards(reading: GridReading, sightings: Sequence[Sighting],
                    fixed: Mapping[tuple[int, int], str] | None = None) -> GridReading:
    """``reading`` (complete) with its cells drawn around the cards' middles as the corner lattice places them
    (:func:`sightings_at_corners`), when that lattice reads the same 25 names: where the columns (or rows) overlap,
    the whole cards found are the visible strips of the cards, and cells drawn around them miss the cards' middles
    (their names are right all the same); or, with rows and columns both over each other (only the last card read
    at two corners), around the middles the cards read at two corners show (:func:`_to_middle`). Unchanged
    otherwise."""
    for far in (False, True):
        moved, points, to_middle = sightings_at_corners(sightings, far)
        if len(points) < 4:
            break
        other = grid_from_cards(moved, points, fixed)
        if other.complete and other.rows == reading.rows:
            other.moved(1.0, *to_middle)
            return replace(reading, cell_boxes=other.cell_boxes, seen_h=other.seen_h)
    points, pairs = _one_corner_each(sightings)  # rows and columns over each other: one card read at two corners
    if len(points) >= 4 and np.any(_to_middle(reading, pairs)):
        other = grid_from_cards(sightings, points, fixed)
        if other.complete and other.rows == reading.rows:
            other.moved(1.0, *_to_middle(other, pairs))
            return replace(reading, cell_boxes=other.cell_boxes, seen_h=other.seen_h)
    return reading


def grid_from_detection(result, corner_probs: Sequence | None = None) -> GridReading:
    """The grid in one detector result (``vision.detector.DetectionResult``): what the live camera calls
    (``corner_probs``: see :func:`sightings_from_detection`); rows laid over each other as in
    :func:`read_overlapping`."""
    sightings, centres = sightings_from_detection(result, corner_probs)
    centres = centres if len(centres) >= 4 else None
    return read_overlapping(grid_from_cards(sightings, centres), result, sightings, centres, corner_probs)
