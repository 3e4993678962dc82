"""Following a Poker Patience game from still views of the table: the grid emerges as the cards arrive.

No lines on the table and no markers: when the first card lands nothing says which cell it is. Cells are whole
steps of the grid's pitch from the cards already placed, along the grid's own axes (its tilt is measured from
neighbouring cards, its pitch from the cards' size and the gaps between neighbours). The engine's cells are
these steps counted from the top-left of the cards laid so far: when a card lands above or left of them all,
the game is relabelled (the engine replays its history into the shifted cells), so the engine's grid is always
the physical picture, "only next to a card" is checked on the real geometry and the result's rows are as seen.

Early cells are guesses: two cards far apart leave the tilt and the gaps open. After each card, and whenever a
card fits none of the cells guessed so far, the grid is fitted to every card at once (each tilt, the pitches
across and down); when that fits the positions clearly better, the placed cards move to its cells and the game is
replayed into them.

A new card (never turned before) in a free cell within the 5x5 is turned and placed at once; a card that lands
on a taken cell, or so far out that the grid would be wider than five, is reported and nothing is applied.

A player short of table may lay the rows over each other (along the cards' long side), down to 0.55 of a card
apart: a card laid later then covers an edge of its neighbour, which shows one corner, or two in a strip, whose
centre is not the card's. Such covered cards keep the place they were laid at; neither the table's moves nor the
card's size are read from them (as the Sir Tommy follower does with its fanned piles); a card covered before it
joined the game is placed from what shows of it. The columns may lie over each other the same way (each card over
the left or right edge of its neighbour): cells narrower than a card across its short side are allowed once two
cards are seen lying over each other side by side (before that, a row with gaps could be read as cells half as
wide), or as diagonal neighbours nearer than a card across (unless cards beside each other show gaps), and then the
gaps across and down need not be alike; once seen, that holds for the game. Rows and columns may lie over each
other at once: a card covered on two edges that meet shows one corner. Few cards then show whole, so a nudged
camera is seen on what shows of the placed cards: each reading against the same part's reading before.
"""

from __future__ import annotations

import numpy as np

from assistant.cards import Card
from assistant.events import Play, Turn, TurnAndPlay, Undo
from assistant.games.poker import IllegalMoveError, Placement, PokerState
from assistant.live.follower import MOVED, STRIP, Follower
from assistant.live.problems import settle
from assistant.live.table_shift import NUDGE, TableShift, fit_shift
from assistant.live.table_view import NEW_CARD_FRAMES, Sighting, TableView
from vision.boxes import box_area

SIZE = 5
GAP = 1.15  # before neighbours show the real gaps: a cell is this many card widths / heights
ASPECT = 1.4  # a card's height over its width (poker and bridge decks: 1.40-1.56)
OFF_GRID = 0.38  # a card further than this (in cells) from a whole step is not in a cell
PITCHES = np.linspace(0.55, 1.75, 241)  # a cell's possible size in card sizes (below 1: rows laid over each other)
SIDE_BY_SIDE = 1.0  # ... but across the cards' long side at least this, unless two cards side by side overlap
CORNER = 0.25  # a corner index is at most this share of a card's width and height
DIAGONAL = 0.4  # two cards nearer than COVERS of a card along one axis but more than this, a cell or so apart
# along the other, are diagonal neighbours of cells that lie over each other along the first axis
COVERS = 0.95  # a card laid later whose centre is nearer than this (card sizes, along both axes) covers an edge
REFIT_GAIN = 0.5  # placed cards change cells only when that fits their positions at least this much better
SAME_GAPS = 0.05  # weight of "the gaps are alike across and down" where the positions leave the pitch open
USUAL_GAP = 1e-3  # weight of "the gap is the usual one" (GAP), the last tie-break
TILT_COST = 0.002  # a tilt 6 degrees from upright (or from the measured one) must fit this much better (squared)
FIT_RMS = 0.15  # a whole-grid fit whose cards miss their cells' centres by more than this (root mean square, in
# cells) is no grid: with a card between cells, any pitch leaves some card about a third of a cell off
ANCHORS = 8  # cards whose positions are tried as a cell centre (any card near its centre will do)
SETTLED_RMS = 0.08  # placed cards this close to their cells' centres on average (in cells) are not fitted again
SHRUNK = 0.85  # a reading's box below this share of the card's first still box: part of the card is covered
TILTS = np.deg2rad(np.arange(-44.0, 45.5, 1.0))  # the tilts a whole-grid fit tries (a grid's tilt is mod 90 degrees)


def _same_part(a: Sighting, b: Sighting) -> bool:
    """Two readings of one card show the same part of it: as many corners, a box of about the same size."""
    wa, ha = a.box[2] - a.box[0], a.box[3] - a.box[1]
    wb, hb = b.box[2] - b.box[0], b.box[3] - b.box[1]
    return a.corners == b.corners and 0.8 < wb / max(wa, 1e-6) < 1.25 and 0.8 < hb / max(ha, 1e-6) < 1.25


def _axis_fits(v: np.ndarray, size: float, lowest: float) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``v`` along one axis as whole steps, at each pitch of PITCHES * ``size``: (cost (pitches,), steps
    (pitches, n)): the summed squared miss in cells at the best offset (one of up to ANCHORS cards' positions, then
    the mean miss), inf where a card misses by more than OFF_GRID, the cards would span more than SIZE cells or the
    pitch is below ``lowest``."""
    anchors = v[np.linspace(0, len(v) - 1, min(len(v), ANCHORS)).round().astype(np.int64)]
    d = (v[None, None, :] - anchors[None, :, None]) / (PITCHES[:, None, None] * size)  # (pitches, anchors, cards)
    n = np.rint(d)
    miss = d - n
    miss -= miss.mean(axis=2, keepdims=True)
    cost = np.sum(miss ** 2, axis=2)
    cost[(np.abs(miss).max(axis=2) > OFF_GRID) | (np.ptp(n, axis=2) >= SIZE)] = np.inf
    cost[PITCHES < lowest - 1e-9] = np.inf
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(PITCHES))
    return cost[rows, best], n[rows, best].astype(np.int64)


def _lowest_pitch(card_wh: np.ndarray, axis: int, overlapping: bool = False) -> float:
    """The smallest cell along ``axis`` (card sizes): rows may lie over each other along the cards' long side;
    across it (columns laid over each other) only where two cards are seen to (``overlapping``): otherwise a
    row of cards with gaps could be read as cells half as wide, every other one empty."""
    return float(PITCHES[0]) if overlapping or card_wh[axis] >= card_wh[1 - axis] else SIDE_BY_SIDE


def _overlapping(q: np.ndarray, card_wh: np.ndarray) -> tuple[bool, bool]:
    """Per axis of the grid, whether two of the cards centred at ``q`` (n, 2, along the grid's axes) lie over each
    other along it: nearer than COVERS of a card along it and beside each other (within half a card) across it; or
    diagonal neighbours (more than DIAGONAL of a card along it, a cell or so across it), unless two cards beside
    each other lie a card or more apart along it (a grid with gaps, and a card between its cells)."""
    d = np.abs(q[None, :, :] - q[:, None, :])
    pair = ~np.eye(len(q), dtype=np.bool_)
    out = []
    for a in (0, 1):
        near = pair & (d[..., a] < COVERS * card_wh[a])
        beside = d[..., 1 - a] < 0.5 * card_wh[1 - a]
        diagonal = (d[..., a] > DIAGONAL * card_wh[a]) & (d[..., 1 - a] >= 0.5 * card_wh[1 - a]) & \
            (d[..., 1 - a] <= PITCHES[-1] * card_wh[1 - a])
        gapped = pair & beside & (d[..., a] >= COVERS * card_wh[a]) & (d[..., a] <= PITCHES[-1] * card_wh[a])
        out.append(bool(np.any(near & beside)) or bool(np.any(near & diagonal)) and not bool(np.any(gapped)))
    return tuple(out)


def _prior(gx: np.ndarray, gy: np.ndarray, alike: bool = True) -> np.ndarray:
    """The cost of cells ``gx`` card widths across and ``gy`` card heights down, before any position is counted;
    not ``alike`` (cards seen lying over each other along one axis): the gaps need not be alike across and down."""
    return SAME_GAPS * alike * (gx - gy) ** 2 + USUAL_GAP * ((gx - GAP) ** 2 + (gy - GAP) ** 2)


def fit_cells(points: np.ndarray, card_wh: np.ndarray, tilts, shows_overlap: np.ndarray | None = None,
              overlaps: tuple[bool, bool] = (False, False)) -> tuple[np.ndarray, float, float] | None:
    """The cells (n, 2: row, col; the top-left card's row and column 0) of cards centred at ``points`` (n, 2 pixels)
    on one grid, found from all of them at once: for each candidate tilt, the pitches across and down (1-1.75 card
    sizes, from 0.55 where cards lie over each other: ``_lowest_pitch``) that put every card nearest to whole
    steps, the gaps alike across and down where the positions leave them open; ``tilts``: (tilt, its cost) pairs to
    try; ``shows_overlap``: which points may show cards lying over each other (default all; a card read only on a
    corner, its centre a guess, must not make the cells narrower); ``overlaps``: the axes along which cards were
    seen lying over each other before (the cells may be narrow there whatever these positions show). (cells, cost,
    tilt), or None when no such grid holds every card in a cell of its own, within OFF_GRID of its centre and
    FIT_RMS on average."""
    best = None
    for angle, tilt_cost in tilts:
        q = np.asarray(points, np.float64) @ PokerFollower._rot(-angle).T
        over = _overlapping(q if shows_overlap is None else q[np.asarray(shows_overlap, np.bool_)], card_wh)
        over = (over[0] or overlaps[0], over[1] or overlaps[1])
        cx, nx = _axis_fits(q[:, 0], card_wh[0], _lowest_pitch(card_wh, 0, over[0]))
        cy, ny = _axis_fits(q[:, 1], card_wh[1], _lowest_pitch(card_wh, 1, over[1]))
        total = cx[:, None] + cy[None, :] + _prior(PITCHES[:, None], PITCHES[None, :], not any(over))
        i, j = np.unravel_index(np.argmin(total), total.shape)
        cost = float(total[i, j]) + tilt_cost
        cells = np.stack([ny[j], nx[i]], axis=1)
        if not float(total[i, j]) <= FIT_RMS ** 2 * cells.size or len({tuple(c) for c in cells}) < len(cells):
            continue  # no grid at this tilt: cards far from their cells' centres, or two cards in one cell
        if best is None or cost < best[1]:
            best = (cells - cells.min(axis=0), cost, float(angle))
    return best


def cells_cost(points: np.ndarray, cells: np.ndarray, card_wh: np.ndarray, angle: float,
               overlaps: tuple[bool, bool] = (False, False)) -> float:
    """How well given cells (n, 2: row, col) fit the positions, by ``fit_cells``' measure at the pitches and offsets
    fitted to them; inf when a pitch is no grid's or a card misses its cell by more than OFF_GRID."""
    q = np.asarray(points, np.float64) @ PokerFollower._rot(-angle).T
    over = _overlapping(q, card_wh)
    over = (over[0] or overlaps[0], over[1] or overlaps[1])
    gaps, cost = [], 0.0
    for axis, k in ((0, 1), (1, 0)):
        v, n = q[:, axis], cells[:, k].astype(np.float64)
        if np.ptp(n) == 0:
            pitch, offset = GAP * card_wh[axis], v.mean()
        else:
            pitch, offset = np.polyfit(n, v, 1)
        miss = (v - offset - pitch * n) / pitch
        g = pitch / card_wh[axis]
        if not _lowest_pitch(card_wh, axis, over[axis]) * 0.95 <= g <= PITCHES[-1] * 1.05 or \
                np.abs(miss).max() > OFF_GRID:
            return np.inf
        gaps.append(g)
        cost += float(np.sum(miss ** 2))
    return cost + float(_prior(np.float64(gaps[0]), np.float64(gaps[1]), not any(over)))


class PokerFollower(Follower):
    """Turns still views into Poker events through ``apply(event) -> Outcome``; ``update(view)`` returns warnings."""

    scores_photo = True  # the s key scores the grid on the table as a photo
    face_fuse = None  # the reader's second look at whole cards as the model folder says (grid cards lie apart)
    pips = None  # the pip look where the model folder has one: grid cards lie apart, whole

    def __init__(self, session, apply):
        super().__init__(session, apply)
        self.cell: dict[Card, tuple[int, int]] = {}  # each placed card's physical cell (row, col), any origin
        self.open_pos: dict[Card, np.ndarray] = {}  # Poker Shuffle: where each card was laid out open
        self.card_wh: np.ndarray | None = None  # a card's width and height along the grid's axes (pixels)
        self.angle = 0.0  # the grid's tilt against the image axes (radians, -45..45 degrees)
        self._angle_measured = False  # True once neighbours in a row or column show the tilt
        self._box_tilt = 0.0
        self._pitch_measured = (False, False)
        self._no_joint: tuple | None = None  # the last card position no whole-grid fit could place (not tried again)
        self._early_area: dict[Card, float] = {}  # the box area of each early card's first still reading
        self._overlaps = (False, False)  # along the grid's axes (across, down): placed cards seen over each other
        self._last_read: dict[Card, Sighting] = {}  # each placed card's reading in the last still view

    def rename(self, old: Card, new: Card) -> None:
        for where in (self.pos, self.cell):
            if old in where:
                where[new] = where.pop(old)

    def typed_move(self, card: Card, move, where: np.ndarray | None) -> None:
        """Its physical cell is the typed one counted from the grid's top left (the engine's cells are physical)."""
        super().typed_move(card, move, where)
        top = min((r for r, _ in self.cell.values()), default=0)
        left = min((c for _, c in self.cell.values()), default=0)
        self.cell[card] = (move.row + top, move.col + left)

    @property
    def card_size(self) -> float:
        return 0.0 if self.card_wh is None else float(np.max(self.card_wh))

    def visible(self) -> set[Card]:
        """The game's cards whose face shows on the table: every card placed (none is covered or moved)."""
        return set(self.state.dealt)

    def relearn(self) -> None:
        self.pos.clear()
        self.cell.clear()
        self.open_pos.clear()
        self.card_wh = None
        self._angle_measured = False
        self._no_joint = None
        self.early.clear()
        self._early_area.clear()
        self._overlaps = (False, False)
        self._last_read.clear()

    def _follow_shift(self, view: TableView) -> TableShift | None:
        shift = super()._follow_shift(view)
        if shift is None:
            shift = self._move_by(self._shift_of_parts(view))
        self._note_readings(view, moved=shift is not None)
        if shift is not None:
            self.open_pos = {c: shift.point(p) for c, p in self.open_pos.items()}
            self.angle = float((self.angle + shift.angle + np.pi / 4) % (np.pi / 2) - np.pi / 4)
            self.card_wh = self.card_wh * shift.scale
        return shift

    def _shift_of_parts(self, view: TableView) -> TableShift | None:
        """The table moved, seen on what shows of the placed cards: with rows and columns laid over each other few
        cards show whole, but a covered card's corner moves with the table as its centre does. Each placed card's
        reading now against its reading in the last still view, where both read the same part of it (as many
        corners, a box of about the same size)."""
        pairs = [(s0.xy, view[c].xy) for c, s0 in self._last_read.items() if c in view and _same_part(s0, view[c])]
        if len(pairs) < 3:
            return None
        return fit_shift([a for a, _ in pairs], [b for _, b in pairs], self.card_size)

    def _note_readings(self, view: TableView, moved: bool) -> None:
        """Remember the placed cards' readings for ``_shift_of_parts``; a reading of the same part that jumped a
        nudge or more keeps the one before (the table may have moved, with too few cards in view yet to show it),
        unless the table was just seen to move."""
        for c in self.pos:
            s, s0 = view.cards.get(c), self._last_read.get(c)
            if s is None:
                continue
            jumped = s0 is not None and _same_part(s0, s) and np.hypot(*(s.xy - s0.xy)) >= NUDGE * self.card_size
            if moved or not jumped:
                self._last_read[c] = s

    def _covered(self) -> set[Card]:
        """Placed cards with a card laid after them lying over an edge (rows laid over each other)."""
        cards = [step.card for step in self.state.history if step.card in self.pos]
        if self.card_wh is None or len(cards) < 2:
            return set()
        q = np.array([self.pos[c] for c in cards]) @ self._rot(-self.angle).T
        near = np.all(np.abs(q[None, :, :] - q[:, None, :]) < COVERS * self.card_wh, axis=2)  # [a, b]
        later = np.triu(np.ones((len(cards), len(cards)), np.bool_), 1)  # b laid after a
        return {c for c, hit in zip(cards, np.any(near & later, axis=1)) if hit}

    # -- the main step -------------------------------------------------------------------------------------------
    def update(self, view: TableView) -> list[str]:
        self._learn_size(view)
        if self.card_wh is None:
            return []
        self._follow_shift(view)
        self._note_known(view)
        problem = (settle(self.session, lambda: self._step(view), 4, after_end=self.state.rules.shuffle)
                   or self._inconsistency(view))
        return self._problems.update(problem)

    def _step(self, view: TableView):
        st = self.state
        dealt = set(st.dealt)
        maybe_new = [c for c in view.cards if c not in dealt]
        self._note_early(view, maybe_new, set(st.unseen()))
        if any(view[c].frames < NEW_CARD_FRAMES for c in maybe_new):
            return None  # a new card may be coming: wait for its evidence, so events keep the table's order
        new = [c for c in maybe_new if view.sure(c)]
        if st.rules.shuffle:
            return self._step_shuffle(view, new)
        waiting = st.current
        if waiting is not None and waiting in view and waiting not in self.pos:
            return self._place(waiting, view[waiting].xy, turned=True)
        if not new:
            return None
        if not st.needs_card():
            return f"{new[0]} is on the table, but {waiting} must be placed first"
        where = {c: self._xy(view, c) for c in new}
        new = [c for c in new if not self._misread_of_placed(where[c], view)]
        if not new:
            return None
        called = self.session.called_card()
        c = called if called in new else self._first_seen(new, view)[0]
        if called is not None and c != called:
            return f"{c} is on the table, but the caller turned {called}"
        return self._place(c, where[c], turned=False, whole=self._long_as_a_card(view[c]))

    def _note_early(self, view: TableView, maybe_new: list[Card], may_come: set[Card]) -> None:
        """As the base class, and the size of each early card's box then (:meth:`_shrunk_since_early`)."""
        super()._note_early(view, maybe_new, may_come)
        self._early_area = {c: self._early_area[c] if c in self._early_area else float(box_area(view[c].box)[0])
                            for c in self.early}

    def _xy(self, view: TableView, card: Card) -> np.ndarray:
        """Where ``card`` lies: the centre of its reading, or, read only on what a card laid over it leaves (one
        corner, or two in a strip: rows laid over each other), the centre of the card that part belongs to which
        fits a free cell best (the part's centre moved half a card, less the part, along the grid's axes)."""
        s = view[card]
        if self.card_wh is None or card in self.pos:
            return s.xy
        early = self.early.get(card)  # where it lay still a moment, maybe seen whole before it was covered
        near_early = early is not None and self._within(self._rot(-self.angle) @ (s.xy - early[1]), 0.6)
        if near_early and self._shrunk_since_early(card, s):
            return early[1]
        if self._read_whole(s) or self._on_whole_card(card, view):
            return s.xy
        if near_early:
            return early[1]
        if not self.pos:
            return s.xy
        rot = self._rot(self.angle)
        part = np.minimum(self._extent(s), self.card_wh if s.corners >= 2 else CORNER * self.card_wh)
        half = (self.card_wh - part) / 2
        best = None
        for sx in (-1.0, 1.0):
            for sy in (-1.0, 1.0):
                p = s.xy + rot @ (half * np.array([sx, sy]))
                fit = self._best_fit(p)
                if fit is not None and self._cell_problem(card, fit[1]) is None and (best is None or fit[0] < best[0]):
                    best = (fit[0], p)
        return s.xy if best is None else best[1]

    def _shrunk_since_early(self, card: Card, s) -> bool:
        """``card``'s box is much smaller than when it first lay still: a card laid since covers part of it, and
        what shows may still look as long as a card (a strip of a card laid at a tilt the grid has not shown yet)."""
        return float(box_area(s.box)[0]) < SHRUNK * self._early_area.get(card, 0.0)

    def _first_seen(self, cards, view: TableView) -> list[Card]:
        """Of cards first seen together, one read only in part (a corner, a strip) was covered by a card laid after
        it: it came first."""
        def key(c):
            part = self.card_wh is not None and not self._read_whole(view[c]) and not self._on_whole_card(c, view)
            return self.early.get(c, (view.frame,))[0], not part, -view[c].share
        return sorted(cards, key=key)

    def _on_whole_card(self, card: Card, view: TableView) -> bool:
        """``card`` is read in part on another card read whole: a misread corner of that card, not a card it
        covers (what a card covers shows beside it)."""
        rot = self._rot(-self.angle)
        return any(o != card and self._read_whole(t) and self._within(rot @ (view[card].xy - t.xy))
                   for o, t in view.cards.items())

    def _within(self, d: np.ndarray, share: float = 0.5) -> bool:
        """An offset ``d`` along the grid's axes that stays on one card (within half a card each way; ``share``:
        a little more, for a corner at the card's edge seen at a tilt not measured yet)."""
        return bool(np.all(np.abs(d) <= share * self.card_wh))

    def _read_whole(self, s) -> bool:
        """Read on a card-sized box: at least STRIP of a card along both of the grid's axes (before neighbours show
        the grid's tilt, the box's long side at least STRIP of a card's)."""
        if not self._angle_measured:
            return self._long_as_a_card(s)
        return s.whole(self.card_size) and bool(np.all(self._extent(s) >= STRIP * self.card_wh))

    def _extent(self, s) -> np.ndarray:
        """The size along the grid's axes of the upright rectangle whose tilted box is the reading's box, at the
        tilt neighbours show (the box itself before that, or where the tilt is near 45 degrees and cannot tell)."""
        c, s_ = abs(np.cos(self.angle)), abs(np.sin(self.angle))
        box = np.array([s.box[2] - s.box[0], s.box[3] - s.box[1]], dtype=np.float64)
        if not self._angle_measured or c * c - s_ * s_ < 0.3:
            return box
        return np.maximum(np.linalg.solve(np.array([[c, s_], [s_, c]]), box), 0.0)

    def _step_shuffle(self, view: TableView, new: list[Card]):
        """Poker Shuffle: each card laid out open (in any heap or rows) joins the game where it lies; once all 25
        are open and cards have moved since, a view of all 25 whole on one 5x5 grid is the player's arrangement:
        every card is placed in its cell. A layout dealt as a grid is not taken for the arrangement until cards
        have moved; an arrangement changed later (cards swapped within the grid) replaces the placements."""
        st = self.state
        if st.needs_card():
            if not new:
                return None
            c = self._first_seen(new, view)[0]
            out = self.apply(Turn(c))
            if out.ok:
                self.open_pos[c] = view[c].xy
                return True
            return out.error
        cards = list(st.dealt)
        for c in cards:  # a resumed game: where the open cards lie now
            if c in view:
                self.open_pos.setdefault(c, view[c].xy)
        if any(c not in view or view[c].corners < 2 for c in cards):
            return None
        if not st.history and not any(np.hypot(*(view[c].xy - self.open_pos.get(c, view[c].xy)))
                                      > MOVED * self.card_size for c in cards):
            return None  # as laid out: the arrangement comes when the player has moved the cards
        fit = self._fit_all(np.array([view[c].xy for c in cards]))
        if fit is None or fit[0].max() >= SIZE:
            return None  # not (yet) one 5x5 grid
        cells = {c: (int(r), int(col)) for c, (r, col) in zip(cards, fit[0])}
        if cells == self.cell:
            return None
        for _ in range(len(st.history)):  # rearranged: the old placements are taken back
            self.apply(Undo())
        for c, (r, col) in cells.items():
            out = self.apply(Play(Placement(r, col), card=c))
            if not out.ok:
                return out.error
            self.pos[c] = view[c].xy
        self.cell, self.angle = cells, fit[2]
        self._learn_angle()
        return True

    def _place(self, card: Card, p: np.ndarray, *, turned: bool, whole: bool = True):
        """Place ``card`` at ``p`` in its cell (``whole``: read in a box as long as a card, not on a corner)."""
        cell = self.cell_of(p)
        problem = self._cell_problem(card, cell)
        if problem is not None:  # the grid guessed from the cards so far may be off: fit every card at once
            cell = self._joint_cell(p, whole)
            if cell is None:
                return problem  # nothing is applied: a crooked card is straightened, a misread read again
        rows = [r for r, _ in self.cell.values()] + [cell[0]]
        cols = [c for _, c in self.cell.values()] + [cell[1]]
        self._relabel(min(rows), min(cols))
        top, left = min(rows), min(cols)
        placement = Placement(cell[0] - top, cell[1] - left)
        event = Play(placement) if turned else TurnAndPlay(card, placement)
        out = self.apply(event)
        if not out.ok:
            return out.error
        self.pos[card] = p
        self.cell[card] = cell
        self._learn_angle()
        self._note_overlaps()
        self._refit()
        return True

    def _cell_problem(self, card: Card, cell) -> str | None:
        """Why ``card`` cannot go to ``cell`` (a text from ``cell_of``, a taken cell, a grid wider than 5), or None."""
        if isinstance(cell, str):
            return f"{card}: {cell}"
        taken = {v: k for k, v in self.cell.items()}
        if cell in taken:
            return f"{card} lies on the cell of {taken[cell]}"
        rows = [r for r, _ in self.cell.values()] + [cell[0]]
        cols = [c for _, c in self.cell.values()] + [cell[1]]
        if max(rows) - min(rows) >= SIZE or max(cols) - min(cols) >= SIZE:
            return f"{card} would make the grid wider than {SIZE}"
        return None

    # -- the grid ------------------------------------------------------------------------------------------------
    def cell_of(self, p: np.ndarray):
        """The physical (row, col) of a card centred at ``p``, or a text saying why it is in no cell.

        Steps are counted along the grid's axes from the cards already placed. Until neighbours in a row or column
        show the grid's tilt and pitch, the tilt is one of those the cards' boxes allow (0 or +-the angle that
        makes a card's upright box as wide as seen) and the pitch any gap up to 0.75 of a card: the reading that
        puts every placed card on whole steps wins."""
        if not self.pos:
            return (0, 0)
        best = self._best_fit(p)
        if best is None or best[0] > OFF_GRID:
            off = f" ({best[0]:.2f} of a cell off)" if best is not None else ""
            return f"it lies between cells{off}"
        if not self._angle_measured:
            self.angle = best[2]
        return best[1]

    def _best_fit(self, p: np.ndarray):
        """(cost, cell, tilt) of ``p`` at the tilt candidates (``_fit``), the best; None when none fits."""
        best = None
        for angle in self._angle_candidates():
            fit = self._fit(p, angle)
            if fit is not None and angle != 0.0:
                fit = (fit[0] + 0.1,) + fit[1:]  # an upright grid unless the positions say otherwise
            if fit is not None and (best is None or fit[0] < best[0]):
                best = fit + (angle,)
        return best

    def _fit(self, p: np.ndarray, angle: float):
        """(cost, cell) of ``p`` on the grid tilted by ``angle``: the cell from the nearest card, the cost its
        distance from whole steps plus any disagreement with the other cards."""
        rot = self._rot(-angle)
        pitch = self.pitch()
        near = min(self.pos, key=lambda c: np.hypot(*(p - self.pos[c])))
        d = rot @ (p - self.pos[near])
        steps, cost = [], 0.0
        for axis in (0, 1):
            n, res = self._steps(d[axis], axis, pitch)
            if n is None:
                return None
            steps.append(n)
            cost += res ** 2
        r0, c0 = self.cell[near]
        cell = (r0 + steps[1], c0 + steps[0])
        for c, q in self.pos.items():  # the other cards must agree (within half a cell)
            if c == near:
                continue
            e = rot @ (p - q)
            want = np.array([cell[1] - self.cell[c][1], cell[0] - self.cell[c][0]], dtype=np.float64)
            cost += 0.05 * float(np.sum(((e - want * pitch) / pitch) ** 2))
        return float(np.sqrt(cost)), cell

    def _refit(self) -> None:
        """Every placed card's cell again from all the positions at once: a card placed a row or column off while
        the grid's tilt and gaps were still guesses (two cards far apart) moves to the cell the grid now shows, and
        the game is replayed into the corrected cells."""
        if len(self.pos) < 3:
            return
        cards = list(self.pos)
        points = np.array([self.pos[c] for c in cards])
        now = np.array([self.cell[c] for c in cards])
        if cells_cost(points, now, self.card_wh, self.angle, self._overlaps) <= SETTLED_RMS ** 2 * now.size:
            return  # the cells so far fit where the cards lie: nothing to correct (and no search on every card)
        fit = self._fit_all(points)
        if fit is None or np.array_equal(fit[0], now - now.min(axis=0)):
            return
        if fit[1] >= REFIT_GAIN * min(cells_cost(points, now, self.card_wh, a, self._overlaps) + t
                                      for a, t in self._fit_angles()):
            return
        self._recell(dict(zip(cards, map(tuple, fit[0]))), fit[2])

    def _fit_angles(self) -> list[tuple[float, float]]:
        """(tilt, its cost) for whole-grid fits: every tilt, those near upright or near the tilt measured from
        neighbours preferred (that measure rests on the cells so far, which the fit may correct)."""
        centres = [0.0, self.angle] if self._angle_measured else [0.0]
        tilts = sorted({*TILTS, *self._angle_candidates(), self.angle})
        return [(a, TILT_COST * (min(abs(a - c) for c in centres) / np.deg2rad(6.0)) ** 2) for a in tilts]

    def _fit_all(self, points: np.ndarray, shows_overlap=None):
        """``fit_cells`` at the tilts of ``_fit_angles``, the cells narrow where placed cards showed it."""
        return fit_cells(points, self.card_wh, self._fit_angles(), shows_overlap, self._overlaps)

    def _note_overlaps(self) -> None:
        """The axes along which the placed cards lie over each other, once seen, hold (``_overlapping``): cards laid
        later two narrow cells apart must not turn the grid into one with gaps and the earlier cards between them."""
        q = np.array(list(self.pos.values())) @ self._rot(-self.angle).T
        seen = _overlapping(q, self.card_wh)
        self._overlaps = (self._overlaps[0] or seen[0], self._overlaps[1] or seen[1])

    def _recell(self, cells: dict, angle: float) -> bool:
        """Give the placed cards these physical cells (a ``fit_cells`` answer: one card a cell, within 5x5) and the
        grid this tilt, and replay the game into them; False (nothing changed) when the game would not have been
        legal in them."""
        rows = [r for r, _ in cells.values()]
        cols = [c for _, c in cells.values()]
        old_cell, old_angle = dict(self.cell), self.angle
        self.cell = {c: (int(r), int(col)) for c, (r, col) in cells.items()}
        self.angle = angle
        try:
            self._relabel(min(rows), min(cols))
        except IllegalMoveError:  # "only next to a card": the game would not have been legal in these cells
            self.cell, self.angle = old_cell, old_angle
            return False
        self._learn_angle()
        self._note_overlaps()
        return True

    def _joint_cell(self, p: np.ndarray, whole: bool = True):
        """The cell of a card at ``p`` that the grid guessed so far cannot place (between cells, on a taken cell,
        beyond five), from a fit of every placed card and it at once (the placed cards moved to the cells that fit
        shows, the game replayed); None when no grid holds them all. A card not read ``whole`` (a corner: perhaps
        a placed card's own, misread) does not show columns laid over each other."""
        key = (len(self.pos), self.angle, tuple(np.round(p / 4.0)))  # the same card lying still: the same answer
        if not self.pos or key == self._no_joint:
            return None
        cards = list(self.pos)
        fit = self._fit_all(np.array([self.pos[c] for c in cards] + [p]), [True] * len(cards) + [whole])
        cells = [] if fit is None else [tuple(int(v) for v in c) for c in fit[0]]
        if fit is None or not self._recell(dict(zip(cards, cells[:-1])), fit[2]):
            self._no_joint = key
            return None
        return cells[-1]

    def _steps(self, d: float, axis: int, pitch: np.ndarray) -> tuple[int | None, float]:
        """Whole cells in a distance ``d`` along ``axis``, and how far it is from whole (in cells)."""
        if self._pitch_measured[axis]:
            n = int(np.round(d / pitch[axis]))
            return n, abs(d / pitch[axis] - n)
        size = self.card_wh[axis]
        if abs(d) < 0.5 * size:
            return 0, abs(d) / pitch[axis]
        best = None
        for n in range(1, SIZE):
            step = abs(d) / n / size  # cell size in card sizes this reading needs
            if _lowest_pitch(self.card_wh, axis, self._overlaps[axis]) <= step <= PITCHES[-1]:
                key = abs(step - GAP)
                if best is None or key < best[0]:
                    best = (key, n)
        if best is None:
            n = int(np.round(d / pitch[axis]))
            return n, abs(d / pitch[axis] - n)
        return int(np.sign(d)) * best[1], 0.5 * best[0]

    def _angle_candidates(self) -> list[float]:
        if self._angle_measured:
            return [self.angle]
        tilt = self._box_tilt  # decks differ in shape (1.3-1.56 tall): a few degrees are the deck, not a tilt
        return [0.0] if tilt < np.deg2rad(6) else [0.0, tilt, -tilt]

    def pitch(self) -> np.ndarray:
        """Cell size (x, y) along the grid's axes: neighbours' distances where seen, else the card size + a gap."""
        w, h = self.card_wh * GAP
        dx, dy = [], []
        rot = self._rot(-self.angle)
        cards = list(self.pos)
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                (ra, ca), (rb, cb) = self.cell[a], self.cell[b]
                d = rot @ (self.pos[b] - self.pos[a])
                if ra == rb and ca != cb:
                    dx.append(abs(d[0]) / abs(cb - ca))
                elif ca == cb and ra != rb:
                    dy.append(abs(d[1]) / abs(rb - ra))
        self._pitch_measured = (bool(dx), bool(dy))
        return np.array([np.median(dx) if dx else w, np.median(dy) if dy else h])

    def _learn_size(self, view: TableView) -> None:
        """A card's upright width and height, and the tilt its axis-aligned box shows (cards are ~1.4 times as
        tall as wide; the sign of the tilt is left to the positions). Covered cards and strips do not count."""
        covered = self._covered()
        full = [s for c, s in view.cards.items()
                if s.corners >= 2 and c not in covered and (self.card_wh is None or self._read_whole(s))]
        if not full:
            return
        bw, bh = np.median([[s.box[2] - s.box[0], s.box[3] - s.box[1]] for s in full], axis=0)
        portrait = bh >= bw
        ratio = min(bw, bh) / max(bw, bh)
        lo, hi = 0.0, np.pi / 4  # solve (cos + r sin) / (sin + r cos) = ratio for the tilt
        for _ in range(30):
            mid = (lo + hi) / 2
            c, s_ = np.cos(mid), np.sin(mid)
            if (c + ASPECT * s_) / (s_ + ASPECT * c) < ratio:
                lo = mid
            else:
                hi = mid
        tilt = (lo + hi) / 2
        self._box_tilt = tilt
        c, s_ = np.cos(tilt), np.sin(tilt)
        short = max(bw, bh) / (ASPECT * c + s_)  # the box's long side is short * (ASPECT cos + sin)
        wh = np.array([short, short * ASPECT]) if portrait else np.array([short * ASPECT, short])
        if self.card_wh is None:
            self.card_wh = wh
        elif np.all((wh / self.card_wh > 0.8) & (wh / self.card_wh < 1.25)):  # odd boxes (misreads) are ignored
            self.card_wh = 0.9 * self.card_wh + 0.1 * wh

    def _learn_angle(self) -> None:
        """The grid's tilt from neighbours in one row or column (mod 90 degrees)."""
        angles = []
        cards = list(self.pos)
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                (ra, ca), (rb, cb) = self.cell[a], self.cell[b]
                if (ra == rb) == (ca == cb):
                    continue
                d = self.pos[b] - self.pos[a]
                ang = np.arctan2(d[1], d[0])
                ang = (ang + np.pi / 4) % (np.pi / 2) - np.pi / 4
                angles.append(ang)
        if angles:
            self.angle = float(np.median(angles))
            self._angle_measured = True

    @staticmethod
    def _rot(a: float) -> np.ndarray:
        c, s = np.cos(a), np.sin(a)
        return np.array([[c, -s], [s, c]])

    def _relabel(self, top: int, left: int) -> None:
        """Make the engine's cells the physical cells counted from (top, left): replay the game into them."""
        st = self.state
        if all(st.at(Placement(r - top, c - left)) == card for card, (r, c) in self.cell.items()):
            return
        fresh = PokerState(st.rules)
        for step in st.history:
            r, c = self.cell[step.card]
            fresh.turn(step.card)
            fresh.place(Placement(r - top, c - left))
        for card in st.pending:
            fresh.turn(card)
        self.session.state = fresh
        self.session.save()

    def _misread_of_placed(self, p: np.ndarray, view: TableView) -> bool:
        """A 'new' card right on a placed card that is not read now: a misreading of that card (a cell holds one)."""
        pitch = self.pitch()
        rot = self._rot(-self.angle)
        return any(c not in view and np.hypot(*(rot @ (p - q) / pitch)) < 0.3 for c, q in self.pos.items())

    # -- bookkeeping ---------------------------------------------------------------------------------------------
    def _note_known(self, view: TableView) -> None:
        """A resumed game: placed cards take their physical cell from the engine, their position from the view."""
        for step in self.state.history:
            if step.card in view and step.card not in self.pos:
                self.pos[step.card] = view[step.card].xy
                self.cell.setdefault(step.card, (step.placement.row, step.placement.col))

    def _inconsistency(self, view: TableView) -> str | None:
        for c in self.pos:
            if c in view.elsewhere:  # a card exists once: the other spot holds a new card the reader misnames
                return (f"{c} is read in two places: a newly laid card is misread as {c}; "
                        f"straighten it or hold it up to the camera")
        covered = self._covered()
        for c, q in self.pos.items():
            if c in view:
                e = self._rot(-self.angle) @ (view[c].xy - q)
                if c in covered and self._within(e):
                    continue  # a covered card read on what shows of it: a corner or a strip of its own face
                d = e / self.pitch()
                if np.hypot(*d) > 0.6:  # moved, or (its own spot unread) a new card misread as it: say both
                    return (f"{c} is read off its cell: if it was moved, put it back; if a new card lies there, it "
                            f"is misread as {c} (straighten it or hold it up to the camera)")
        return None

    def result_json(self) -> dict:
        """The result as the player sees it: rows top to bottom as they lie on the table."""
        st = self.session.state
        return {"rows": self.rows_as_seen(), "american": st.score("american").total,
                "english": st.score("english").total}

    def hinted_position(self, move) -> np.ndarray | None:
        """Where a hinted placement (a value or its text) puts its card on the image, if the cell is known."""
        return self.cell_position(move if isinstance(move, Placement) else Placement.parse(str(move).split()[-1]))

    def rows_as_seen(self) -> list[list[str | None]]:
        """The grid as the camera sees it, top row first (the engine's cells are the physical ones)."""
        return [[str(c) if c is not None else None for c in row] for row in self.state.grid]

    def cell_position(self, placement: Placement) -> np.ndarray | None:
        """Where a cell lies on the image (for highlighting a hint), from the nearest placed card."""
        if not self.pos:
            return None
        top = min(r for r, _ in self.cell.values())
        left = min(c for _, c in self.cell.values())
        want = np.array([placement.col + left, placement.row + top], dtype=np.float64)
        card = min(self.pos, key=lambda k: abs(self.cell[k][0] - want[1]) + abs(self.cell[k][1] - want[0]))
        r, c = self.cell[card]
        d = (want - np.array([c, r])) * self.pitch()
        return self.pos[card] + self._rot(self.angle) @ d
