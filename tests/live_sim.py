"""A scripted table for testing the camera's event logic without a model: a player plays a real game and a
perfect (or deliberately faulty) reader reports what lies on the table, frame by frame.

Geometry in pixels of an upright 1280x720 picture (cards 100x140), then turned, mirrored and moved as a player's
own layout and camera would be. Faults are injected on request: misread names in single frames, hands (motion),
dropped frames, a card lifted and put back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from assistant.cards import Card
from assistant.deals import deal_order
from assistant.games.tommy import TommyRules, TommyState
from assistant.games.tommy_rules import REDEAL

W, H = 100.0, 140.0


@dataclass(frozen=True)
class Seen:
    card: str
    confidence: float
    box: tuple
    corners: int


@dataclass
class Frame:
    moving: bool
    cards: list[Seen] = field(default_factory=list)
    dropped: bool = False  # a live camera skipped it: never reaches the pipeline


@dataclass
class Camera:
    """How the player's table appears: a turn about the picture's centre, a mirror, a scale."""

    angle_deg: float = 0.0
    mirror: bool = False
    scale: float = 1.0
    center: tuple = (640.0, 360.0)

    def point(self, p) -> np.ndarray:
        x, y = p
        if self.mirror:
            x = 2 * self.center[0] - x
        a = np.deg2rad(self.angle_deg)
        d = np.array([x - self.center[0], y - self.center[1]]) * self.scale
        r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ d
        return r + np.array(self.center)

    def box(self, x1, y1, x2, y2) -> tuple:
        pts = np.array([self.point(p) for p in [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]])
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


def whole(card: Card, c, cam: Camera) -> Seen:
    x, y = c
    return Seen(str(card), 0.9, cam.box(x - W / 2, y - H / 2, x + W / 2, y + H / 2), 2)


def corner(card: Card, c, cam: Camera, bottom: bool = False, right: bool | None = None) -> Seen:
    """The card read on its top-left corner index alone (``bottom``: on its bottom-right one, turned; ``right``
    given: on that side's index at the top or ``bottom``, a deck with an index in every corner)."""
    x, y = c
    right = bottom if right is None else right
    x1 = x + W / 2 - 22 if right else x - W / 2 + 2
    y1 = y + H / 2 - 32 if bottom else y - H / 2 + 2
    return Seen(str(card), 0.8, cam.box(x1, y1, x1 + 20, y1 + 30), 1)


def strip(card: Card, c, shows: float, cam: Camera, bottom: bool = False, side: str = "") -> Seen:
    """A covered card whose top corners both show (a deck with an index in every corner): read on two corners in
    a box as wide as the card and ``shows`` high, whose centre is not the card's (``bottom``: its bottom corners
    show, the card is covered from above). ``side`` "left" / "right": its left (right) corners show in a box as high
    as the card and ``shows`` wide (the card is covered from the right / left)."""
    x, y = c
    if side == "left":
        return Seen(str(card), 0.8, cam.box(x - W / 2, y - H / 2, x - W / 2 + shows, y + H / 2), 2)
    if side == "right":
        return Seen(str(card), 0.8, cam.box(x + W / 2 - shows, y - H / 2, x + W / 2, y + H / 2), 2)
    if bottom:
        return Seen(str(card), 0.8, cam.box(x - W / 2, y + H / 2 - shows, x + W / 2, y + H / 2), 2)
    return Seen(str(card), 0.8, cam.box(x - W / 2, y - H / 2, x + W / 2, y - H / 2 + shows), 2)


class Script:
    """Frames plus the true events, built by a player acting on a table."""

    def __init__(self, rng: np.random.Generator, cam: Camera):
        self.rng = rng
        self.cam = cam
        self.frames: list[Frame] = []
        self.truth: list[dict] = []

    def still(self, seen: list[Seen], n: int | None = None) -> int:
        """Still frames; returns the first one's index."""
        first = len(self.frames)
        for _ in range(n or int(self.rng.integers(7, 15))):  # 0.5-1 s at 15 fps
            self.frames.append(Frame(False, list(seen)))
        return first

    def motion(self, n: int | None = None) -> None:
        for _ in range(n or int(self.rng.integers(3, 7))):
            self.frames.append(Frame(True, []))


# -- Sir Tommy ---------------------------------------------------------------------------------------------------
class TommyTable:
    """Where a Sir Tommy player puts things: stock and turned spot, a foundation row, waste columns fanned down."""

    def __init__(self, rng, cam: Camera, piles_beside: bool = False):
        self.cam = cam
        self.turn_spot = (180.0, 110.0)
        f_order = rng.permutation(4)
        w_order = rng.permutation(4)
        self.found = [(330.0 + 125 * f_order[i], 110.0) for i in range(4)]
        if piles_beside:
            self.waste = [(860.0 + 115 * w_order[i], 110.0) for i in range(4)]
        else:
            self.waste = [(330.0 + 125 * w_order[i], 300.0) for i in range(4)]
        self.fan = 30.0
        self.boxed_pairs = False  # the reader boxes a pile's top and the card under it together (one box)
        self.misread_as = None  # state -> a name the bottom card of a pile of 3+ is steadily misread as (or None)
        self.strips = False  # covered cards show both top corners, read in a strip as wide as a card (:func:`strip`)
        self.hand_held = False  # turned cards are held in the hand (off the table) until laid
        self.hand_row = False  # turned cards lie face up in a row beside the stock until laid (four at a time)
        self.row_slots: dict[Card, int] = {}

    def seen(self, state: TommyState, in_hand_at=None) -> list[Seen]:
        out = []
        for i, pile in enumerate(state.foundations):
            if pile:
                out.append(whole(pile[-1], self.found[i], self.cam))
        for i, pile in enumerate(state.waste):
            x, y = self.waste[i]
            for k, c in enumerate(pile):
                pos = (x, y + self.fan * k)
                if k == len(pile) - 1:
                    s = whole(c, pos, self.cam)
                    if self.boxed_pairs and k > 0:
                        under = whole(pile[k - 1], (x, y + self.fan * (k - 1)), self.cam).box
                        s = Seen(s.card, s.confidence, (min(s.box[0], under[0]), min(s.box[1], under[1]),
                                                        max(s.box[2], under[2]), max(s.box[3], under[3])), 1)
                        out = [o for o in out if o.card != str(pile[k - 1])]
                    out.append(s)
                else:
                    s = strip(c, pos, self.fan, self.cam) if self.strips else corner(c, pos, self.cam)
                    name = self.misread_as(state) if self.misread_as and k == 0 and len(pile) >= 3 else None
                    out.append(Seen(name, s.confidence, s.box, s.corners) if name else s)
        if self.hand_row:  # four at a time: the turned cards laid face up one under another beside the stock
            for k, c in enumerate(state.hand):
                out.append(whole(c, self.hand_spot(c), self.cam))
        elif not self.hand_held:
            for c in state.hand:
                out.append(whole(c, in_hand_at or self.turn_spot, self.cam))
        return out

    def hand_spot(self, card: Card) -> tuple:
        """Where a turned card lies in the row beside the stock (four at a time): the slot it was turned to."""
        x, y = self.turn_spot
        return (x, y + 150.0 * self.row_slots[card])


def tommy_policy(state: TommyState, rng, k: int = 0):
    """A plain player placing the ``k``-th turned card: up when it fits (mostly), else on a higher top, else an
    empty pile, else anywhere; new places always at the lowest empty index (the camera numbers places as they
    appear)."""
    legal = [m for m in state.legal_moves() if m.source == "S" and (m.source_index or 0) == k]
    up = [m for m in legal if m.target == "F"]
    if up and rng.random() < 0.9:
        return min(up, key=lambda m: (bool(state.foundations[m.target_index]) is False, m.target_index))
    card = state.hand[k]
    waste = [m for m in legal if m.target == "W"]
    empties = [m for m in waste if not state.waste[m.target_index]]
    higher = [m for m in waste if state.waste[m.target_index] and state.waste[m.target_index][-1].rank > card.rank]
    if higher and rng.random() < 0.8:
        return min(higher, key=lambda m: state.waste[m.target_index][-1].rank)
    if empties:
        return min(empties, key=lambda m: m.target_index)
    return waste[int(rng.integers(len(waste)))]


def _lowest_empty_foundation(state, move):
    if move.target == "F" and not state.foundations[move.target_index]:
        card = state.hand[move.source_index or 0] if move.source == "S" else state.waste[move.source_index][-1]
        empties = [f for f in range(4) if not state.foundations[f] and state.foundation_accepts(f, card)]
        return type(move)(move.source, move.source_index, "F", min(empties))
    return move


def _play_ups(script: Script, state: TommyState, table: TommyTable, rng) -> None:
    """Now and then the player plays waste tops up, one still view each."""
    while rng.random() < 0.7:
        ups = [m for m in state.legal_moves() if m.source == "W" and m.target == "F"]
        if not ups:
            break
        m = _lowest_empty_foundation(state, ups[0])
        moved = state.waste[m.source_index][-1]
        state.apply(m)
        script.motion()
        first = script.still(table.seen(state))
        script.truth.append({"event": "move", "card": str(moved), "move": str(m), "still_frame": first})


def tommy_script(seed: int, cam: Camera | None = None, turns: int = 52, piles_beside: bool = False,
                 quick_share: float = 0.5, boxed_pairs: bool = False, misread_covered: bool = False,
                 variant: str = "standard", redeals: bool = False, strips: bool = False) -> tuple[Script, TommyState]:
    """A scripted Sir Tommy game: ``turns`` cards turned (each laid at once or after lying beside the stock),
    waste tops played up now and then. ``boxed_pairs``: each pile's top is read in one box with the card under
    it; ``misread_covered``: a pile's covered bottom card is read steadily as the card the stock holds last;
    ``variant``: the rules (Calculation's base cards: the deal's first A, 2, 3, 4); ``redeals``: when the stock
    is out, the player gathers the waste piles for each redeal the rules allow and turns them again (``turns``
    more cards at most each time); ``strips``: covered cards are read on both top corners (:func:`strip`)."""
    rng = np.random.default_rng(seed)
    cam = cam or Camera()
    script = Script(rng, cam)
    order = deal_order(seed)
    state = TommyState(TommyRules.preset(variant), order=order)
    table = TommyTable(rng, cam, piles_beside)
    table.boxed_pairs = boxed_pairs
    table.strips = strips
    if misread_covered:
        def last_in_stock(st):
            stock = set(st.stock_cards())
            return str(max(stock, key=order.index)) if len(stock) > 8 else None
        table.misread_as = last_in_stock
    script.still(table.seen(state), 6)
    _turn_cards(script, state, table, rng, turns, quick_share)
    while redeals and state.is_legal(REDEAL):
        script.motion()
        state.apply(REDEAL)
        first = script.still(table.seen(state))
        script.truth.append({"event": "move", "card": None, "move": str(REDEAL), "still_frame": first})
        _turn_cards(script, state, table, rng, turns, quick_share)
    script.still(table.seen(state), 20)  # the player looks at the result
    return script, state


def _turn_cards(script: Script, state: TommyState, table, rng, turns: int, quick_share: float) -> None:
    """Up to ``turns`` cards turned from the stock and laid (:func:`tommy_script`)."""
    for _ in range(turns):
        if not state.needs_card():
            break
        card = state.turn_next()
        quick = rng.random() < quick_share
        script.motion()
        if not quick:
            first = script.still(table.seen(state))
            script.truth.append({"event": "card", "card": str(card), "still_frame": first})
            script.motion()
        move = _lowest_empty_foundation(state, tommy_policy(state, rng))
        state.apply(move)
        first = script.still(table.seen(state))
        if quick:
            script.truth.append({"event": "card", "card": str(card), "still_frame": first})
        script.truth.append({"event": "move", "card": str(card), "move": str(move), "still_frame": first})
        _play_ups(script, state, table, rng)


def four_at_a_time_script(seed: int, cam: Camera | None = None, in_row: bool = False,
                          piles_beside: bool = False) -> tuple[Script, TommyState]:
    """A scripted game of four at a time: the player turns four cards (fewer at the end) and places them one by
    one, in an order of their own, before playing any waste top up. ``in_row``: the four are first laid face up
    one under another beside the stock (so the camera sees them before they are placed); else they are held in the
    hand and each is first seen where it is laid."""
    rng = np.random.default_rng(seed)
    cam = cam or Camera()
    script = Script(rng, cam)
    state = TommyState(TommyRules.preset("four-at-a-time"), order=deal_order(seed))
    table = TommyTable(rng, cam, piles_beside)
    table.hand_row, table.hand_held = in_row, not in_row
    script.still(table.seen(state), 6)
    while state.needs_card():
        script.motion()
        batch = []
        while state.needs_card():
            batch.append(state.turn_next())
        table.row_slots = {c: k for k, c in enumerate(batch)}
        if in_row:
            first = script.still(table.seen(state))
            script.truth.extend({"event": "card", "card": str(c), "still_frame": first} for c in batch)
        while state.hand:
            k = int(rng.integers(len(state.hand)))
            card = state.hand[k]
            move = _lowest_empty_foundation(state, tommy_policy(state, rng, k))
            state.apply(move)
            script.motion()
            first = script.still(table.seen(state))
            if not in_row:
                script.truth.append({"event": "card", "card": str(card), "still_frame": first})
            script.truth.append({"event": "move", "card": str(card), "move": str(move), "still_frame": first})
        if not in_row:  # the camera learns the cards only as they are laid: the turns come first
            batch_truth = script.truth[-2 * len(batch):]
            script.truth[-2 * len(batch):] = ([e for e in batch_truth if e["event"] == "card"]
                                              + [e for e in batch_truth if e["event"] == "move"])
        _play_ups(script, state, table, rng)
    script.still(table.seen(state), 20)
    return script, state


# -- Poker ---------------------------------------------------------------------------------------------------------
def poker_script(seed: int, cam: Camera | None = None, cards: int = 25, gap: float = 1.15,
                 adjacent: bool = False, rows_overlap: float = 0.0, covered_corners: int = 2,
                 columns_overlap: float = 0.0) -> tuple[Script, list]:
    """A scripted Poker game: each card laid straight into a random free cell of the final 5x5 grid (or, with
    ``adjacent``, next to a card). ``rows_overlap``: the rows lie that share of a card height over each other, a
    card laid later on the edge of the one above or below it; a covered card shows its top (or bottom) corners in
    a strip (``covered_corners`` 1: a deck with two indices, its top-left or bottom-right index alone), one covered
    on both edges is not seen. ``columns_overlap``: the columns lie that share of a card width over each other
    (a covered card shows its left or right edge: its top-left or bottom-right index alone, or, a deck with four
    indices, the two on that edge in a strip). Returns the script and the final grid as seen (rows of card texts)."""
    rng = np.random.default_rng(seed)
    cam = cam or Camera()
    script = Script(rng, cam)
    order = deal_order(seed)[:cards]
    grid: dict[tuple[int, int], Card] = {}
    pitch = (W * (1.0 - columns_overlap) if columns_overlap else W * gap,
             H * (1.0 - rows_overlap) if rows_overlap else H * gap * 0.95)
    origin = (640 - 2 * pitch[0], 360 - 2 * pitch[1])

    def seen():
        out = []
        laid = list(grid)
        for (row, col), c in grid.items():
            xy = (origin[0] + col * pitch[0], origin[1] + row * pitch[1])
            later = set(laid[laid.index((row, col)) + 1:]) if rows_overlap or columns_overlap else set()
            below, above = (row + 1, col) in later and rows_overlap, (row - 1, col) in later and rows_overlap
            right, left = (row, col + 1) in later and columns_overlap, (row, col - 1) in later and columns_overlap
            if (below and above) or (right and left):
                continue  # covered on two opposite edges: no index shows
            if (below or above) and (right or left):  # covered on two edges that meet: the other corner shows,
                # unless the card diagonally over it came later too; a deck's two indices: top-left, bottom-right
                over = (row + (1 if above else -1), col + (1 if left else -1)) in later
                if not over and (covered_corners == 2 or bool(above) == bool(left)):
                    out.append(corner(c, xy, cam, bottom=bool(above), right=bool(left)))
                continue
            if right or left:
                if covered_corners == 1:
                    out.append(corner(c, xy, cam, bottom=bool(left)))
                else:
                    out.append(strip(c, xy, pitch[0], cam, side="left" if right else "right"))
                continue
            if not (below or above):
                out.append(whole(c, xy, cam))
            elif covered_corners == 1:
                out.append(corner(c, xy, cam, bottom=above))
            else:
                out.append(strip(c, xy, pitch[1], cam, bottom=above))
        return out

    script.still(seen(), 6)
    for card in order:
        free = [(r, c) for r in range(5) for c in range(5) if (r, c) not in grid]
        if adjacent and grid:
            free = [(r, c) for r, c in free if any((r + dr, c + dc) in grid for dr in (-1, 0, 1) for dc in (-1, 0, 1))]
        cell = free[int(rng.integers(len(free)))]
        grid[cell] = card
        script.motion()
        first = script.still(seen())
        script.truth.append({"event": "card", "card": str(card), "still_frame": first})
        script.truth.append({"event": "move", "card": str(card), "final_cell": list(cell), "still_frame": first})
    script.still(seen(), 20)
    return script, rows_as_seen(grid, cam, origin, pitch)


def poker_shuffle_script(seed: int, cam: Camera | None = None, dealt_in_grid: bool = False) -> tuple[Script, list]:
    """A scripted Poker Shuffle: the 25 cards laid out open one by one (in rows of seven, or with
    ``dealt_in_grid`` straight into a 5x5 grid), then arranged into a 5x5 grid one card at a time (beside the
    spread, or by swapping cards within the dealt grid). Picture scale 0.5 by default: the table holds both."""
    rng = np.random.default_rng(seed)
    cam = cam or Camera(scale=0.5)
    script = Script(rng, cam)
    order = deal_order(seed)[:25]
    pitch = (W * 1.15, H * 1.15 * 0.95)
    origin = (-200.0, 0.0) if dealt_in_grid else (700.0, 0.0)
    at: dict[Card, tuple] = {}

    def cell_xy(cell):
        return (origin[0] + cell[1] * pitch[0], origin[1] + cell[0] * pitch[1])

    def seen():
        return [whole(c, xy, cam) for c, xy in at.items()]

    script.still(seen(), 6)
    for k, card in enumerate(order):
        at[card] = cell_xy(divmod(k, 5)) if dealt_in_grid else (-550.0 + 115 * (k % 7), -100.0 + 165 * (k // 7))
        script.motion()
        first = script.still(seen())
        script.truth.append({"event": "card", "card": str(card), "still_frame": first})
    cells = [divmod(int(i), 5) for i in rng.permutation(25)]  # the arrangement the player makes
    grid = dict(zip(cells, order))
    if dealt_in_grid:  # swap pairs within the grid until every card is in its cell
        for cell, card in grid.items():
            other = next(c for c, xy in at.items() if xy == cell_xy(cell))
            if other != card:
                at[other], at[card] = at[card], cell_xy(cell)
                script.motion()
                script.still(seen())
    else:
        for cell, card in grid.items():
            at[card] = cell_xy(cell)
            script.motion()
            script.still(seen())
    first = script.still(seen(), 20)
    for cell, card in sorted(grid.items()):
        script.truth.append({"event": "move", "card": str(card), "final_cell": list(cell), "still_frame": first})
    return script, rows_as_seen(grid, cam, origin, pitch)


def rows_as_seen(grid, cam: Camera, origin, pitch) -> list:
    """The grid as the camera shows it: cell centres in the picture, turned back by the camera's tilt beyond its
    nearest quarter turn, sorted into rows top to bottom and columns left to right."""
    k = round(cam.angle_deg / 90.0)
    residual = np.deg2rad(cam.angle_deg - 90 * k)
    rot = np.array([[np.cos(-residual), -np.sin(-residual)], [np.sin(-residual), np.cos(-residual)]])
    pts = {cell: rot @ cam.point((origin[0] + cell[1] * pitch[0], origin[1] + cell[0] * pitch[1])) for cell in
           [(r, c) for r in range(5) for c in range(5)]}
    ys = sorted({round(float(v[1]), 0) for v in pts.values()})
    xs = sorted({round(float(v[0]), 0) for v in pts.values()})
    ys = [y for i, y in enumerate(ys) if i == 0 or y - ys[i - 1] > 5]
    xs = [x for i, x in enumerate(xs) if i == 0 or x - xs[i - 1] > 5]
    rows = [[None] * 5 for _ in range(5)]
    for cell, v in pts.items():
        r = min(range(5), key=lambda i: abs(ys[i] - v[1]))
        c = min(range(5), key=lambda i: abs(xs[i] - v[0]))
        rows[r][c] = str(grid[cell]) if cell in grid else None
    return rows


# -- faults ---------------------------------------------------------------------------------------------------------
def misread_single_frames(script: Script, rng, share: float = 0.05) -> None:
    """In ``share`` of the still frames, one card is read as another card (a different, real card name)."""
    from assistant.cards import full_deck

    deck = [str(c) for c in full_deck()]
    for f in script.frames:
        if not f.moving and f.cards and rng.random() < share:
            k = int(rng.integers(len(f.cards)))
            s = f.cards[k]
            f.cards[k] = Seen(deck[int(rng.integers(52))], s.confidence, s.box, s.corners)


def drop_frames(script: Script, rng, share: float = 0.1) -> None:
    """A webcam skips frames: ``share`` of them never reach the pipeline (the others keep their numbers)."""
    for f in script.frames:
        f.dropped = f.dropped or bool(rng.random() < share)


def hands_over_still_table(script: Script, rng, share: float = 0.03) -> None:
    """A hand passes over the still table without moving anything: bursts of motion between still frames (the
    truth's frame numbers move with them)."""
    frames, new_index = [], []
    for f in script.frames:
        new_index.append(len(frames))
        frames.append(f)
        if not f.moving and rng.random() < share:
            frames.extend(Frame(True, []) for _ in range(int(rng.integers(2, 6))))
    script.frames = frames
    for e in script.truth:
        e["still_frame"] = new_index[e["still_frame"]]


def lift_and_put_back(script: Script, rng, share: float = 0.05) -> None:
    """A card is missing from a few still frames (lifted to look at it) and is back afterwards."""
    for f in script.frames:
        if not f.moving and f.cards and rng.random() < share:
            f.cards.pop(int(rng.integers(len(f.cards))))


def hands_while_it_lies(script: Script, frame: int, still: int = 3) -> None:
    """The still run starting at ``frame`` (a card just laid) is broken by a hand: ``still`` still frames, motion,
    ``still`` still frames, so the card never lies still in view long enough to join the game before the next comes
    (with fewer than 3, not even long enough to be glimpsed)."""
    end = next(i for i in range(frame, len(script.frames)) if script.frames[i].moving)
    for f in script.frames[frame + still:end - still]:
        f.moving, f.cards = True, []


def hands_over_it(script: Script, frame: int) -> None:
    """The whole still run starting at ``frame`` (a move just made) is hidden by hands: what the move did is never
    seen lying still."""
    end = next(i for i in range(frame, len(script.frames)) if script.frames[i].moving)
    for f in script.frames[frame:end]:
        f.moving, f.cards = True, []


def table_moved(script: Script, from_frame: int, offset=(0.0, 0.0), angle_deg: float = 0.0,
                scale: float = 1.0) -> None:
    """From ``from_frame`` on, the camera (or the table) has been nudged: every reading turned by ``angle_deg`` and
    scaled about the picture's centre, then shifted by ``offset`` pixels (each box keeps its shape)."""
    a = np.deg2rad(angle_deg)
    turn = scale * np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    centre = np.array(script.cam.center)

    def moved(box):
        mid = turn @ (np.array([box[0] + box[2], box[1] + box[3]]) / 2 - centre) + centre + np.asarray(offset)
        half = scale * np.array([box[2] - box[0], box[3] - box[1]]) / 2
        return (*(mid - half).tolist(), *(mid + half).tolist())

    for f in script.frames[from_frame:]:
        f.cards = [Seen(s.card, s.confidence, moved(s.box), s.corners) for s in f.cards]


def jolted_alone(script: Script, frame: int, card: str, offset) -> None:
    """After the still run starting at ``frame``: hands hide every card but ``card``, which is read ``offset``
    pixels off its place for a moment (the camera jolted as they passed), then the table is seen as before. Frames
    are inserted: the truth's later still frames move on with them."""
    end = next(i for i in range(frame, len(script.frames)) if script.frames[i].moving)
    seen = next(s for s in script.frames[frame].cards if s.card == card)
    dx, dy = offset
    box = (seen.box[0] + dx, seen.box[1] + dy, seen.box[2] + dx, seen.box[3] + dy)
    inserted = ([Frame(True, []) for _ in range(3)] + [Frame(False, [replace(seen, box=box)]) for _ in range(6)]
                + [Frame(True, []) for _ in range(3)])
    script.frames[end:end] = inserted
    for e in script.truth:
        if e["still_frame"] >= end:
            e["still_frame"] += len(inserted)


def halfway_motion(script: Script) -> int:
    """A frame of motion halfway through a scripted game (the player's hand on its way to the next card)."""
    at = script.truth[len(script.truth) // 2]["still_frame"] - 1
    while not script.frames[at].moving:
        at -= 1
    return at


def misread_steadily(script: Script, card: str, as_name: str, from_frame: int) -> None:
    """From ``from_frame`` on, ``card`` is read as ``as_name`` wherever it lies (its look there, frame after frame)."""
    for f in script.frames[from_frame:]:
        f.cards = [Seen(as_name, s.confidence, s.box, s.corners) if s.card == card else s for s in f.cards]


def pause(script: Script, at_frame: int, frames: int = 20) -> None:
    """Before ``at_frame`` the player stops to look at the panel: the still table of the frame before, longer (the
    truth's frame numbers move along)."""
    table = next(f.cards for f in reversed(script.frames[:at_frame]) if not f.moving)
    _insert(script, at_frame, [Frame(False, list(table)) for _ in range(frames)])


def hold_up(script: Script, card: str, at_frame: int, frames: int = 10, looks: int = 10) -> None:
    """Before ``at_frame`` the player lifts ``card``, holds it up to the camera (read whole, three times the size of
    the cards on the table, the table hidden behind it), puts it back and looks at the panel for ``looks`` frames:
    the table as before it, still (the truth's frame numbers move along)."""
    x, y = script.cam.center
    big = Seen(card, 0.95, (x - 1.5 * W, y - 1.5 * H, x + 1.5 * W, y + 1.5 * H), 2)
    table = next(f.cards for f in reversed(script.frames[:at_frame])
                 if not f.moving and not any(s.box[3] - s.box[1] > 2 * H for s in f.cards))  # not another held up
    new = ([Frame(True) for _ in range(3)] + [Frame(False, [big]) for _ in range(frames)]
           + [Frame(True) for _ in range(3)] + [Frame(False, list(table)) for _ in range(looks)])
    _insert(script, at_frame, new)


def _insert(script: Script, at_frame: int, frames: list[Frame]) -> None:
    """``frames`` put in before ``at_frame``; the truth's frame numbers move along."""
    script.frames[at_frame:at_frame] = frames
    for e in script.truth:
        if e["still_frame"] >= at_frame:
            e["still_frame"] += len(frames)


def run_script(session, script: Script, commands: dict[int, str] | None = None, **kwargs) -> list[dict]:
    """Feed the script's frames to a LiveGame (no model, no hints by default); the events it published.
    ``commands``: what the player types, by the frame it is typed before."""
    from assistant.live.loop import LiveGame

    events: list[dict] = []
    game = LiveGame(session, read=None, publish=events.append, hints=kwargs.pop("hints", False), **kwargs)
    for i, f in enumerate(script.frames):
        if commands and i in commands:
            game.command(commands[i])
        if f.dropped:
            continue
        game.process_reading(i, f.moving, (lambda cards=f.cards: cards))
    game.finish()
    return events
