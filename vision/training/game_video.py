"""Videos of a game of patience played on a table, with ground truth, for the camera assistant's tests and benchmark.

``render_game(script, faces, out_stem)`` draws a game script (``assistant.benchmarks.video_games``: the engine's
turns and moves, plain data) as it looks through a webcam: a table, the cards laid out (Sir Tommy: stock face
down, the turned card beside it, four foundations in a row, four waste piles fanned downwards so each covered
card's corner shows, four at a time: the four turned cards laid in a row beside the stock first, or each carried
from the stock straight to its place, the variants' base cards set out on the foundations, a redeal's waste piles
gathered face down onto the stock; Poker: a 5x5 grid with gaps and no lines, slightly crooked cards, Poker
Shuffle: the 25 cards laid out open in rows of seven beside it first), a procedural hand that
takes each card from the stock (or from off-screen), carries it face up to its place, lets go and leaves, hands
that pass over the table and move nothing, motion blur, camera shake, slow light changes, sensor noise and
JPEG-like compression. Writes ``out_stem.mp4`` (OpenCV, 'mp4v') and ``out_stem.json``, the ground truth:

    {"game": "tommy"|"poker", "variant", "deck", "held_out", "seed", "fps", "width", "height", "frames",
     "events": [{"event": "card", "card": "Qh", "still_frame": F},      the card lies still, face up, first time
                {"event": "move", "card": "Qh", "move": "S>W2", "still_frame": F},     Sir Tommy
                {"event": "move", "card": null, "move": "R", "still_frame": F},        a redeal (piles gathered)
                {"event": "move", "card": "Qh", "cell": [r, c], "still_frame": F}],    Poker, cell as seen
     (four at a time: a batch's card events come before its moves, which the engine takes only once all are
     turned; Poker Shuffle: 25 card events, then the moves in the same order, all at the arrangement's still frame)
     "result": {"won", "foundation_cards", "finished"} | {"rows", "american", "english", "finished"},
     "layout": {...},                                                  the places as the camera first sees them
     "nudge": {"frame", "shift_px", "turn_deg", "scale"}}               with --nudge: the camera knocked there

``still_frame`` is the first frame in which the card lies at rest where it went (the hand has let go; it may
still be over the card for a few frames as it leaves). Poker cells and rows are "as seen in the image": top row
first, left to right, after the camera's rotation (the quarter turn nearest to it). Physical places are a random
permutation of the engine's piles and foundations per video (W0 may be the rightmost column); engine index =
the order in which places first appeared (the script's convention).

``faces``: card name -> BGRA image (a Debian deck: ``deck_faces``; or ``procedural_faces()`` for tests: white
cards with the rank and suit written in two corners, no artwork needed).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.card_names import CARD_NAMES, RED_SUITS
from vision.training.table_drawing import (
    HandLook,
    camera_homography,
    card_affine,
    card_back_image,
    draw_hand,
    paste,
    project,
    table_background,
)

HAND_ENTRY_SIDES = ("bottom", "bottom", "bottom", "left", "right")


# ---------------------------------------------------------------------------------------------------------------
# Faces
# ---------------------------------------------------------------------------------------------------------------


def procedural_faces(width: int = 160, height: int = 224) -> dict[str, np.ndarray]:
    """52 plain white cards with the rank and suit letter drawn in the top-left and bottom-right corners (BGRA).
    Needs no artwork (tests); the recogniser is not expected to read them."""
    out = {}
    for name in CARD_NAMES:
        img = np.full((height, width, 4), 255, np.uint8)
        img[:, :, :3] = (236, 240, 242)
        cv2.rectangle(img, (1, 1), (width - 2, height - 2), (90, 90, 90, 255), 2)
        colour = (30, 30, 200, 255) if name[-1] in RED_SUITS else (25, 25, 25, 255)
        rank, suit = name[:-1], name[-1].upper()
        scale = height / 180
        for text, y in ((rank, 0.14), (suit, 0.26)):
            cv2.putText(img, text, (int(0.06 * width), int(y * height)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale,
                        colour, max(1, int(2 * scale)), cv2.LINE_AA)
        img = np.ascontiguousarray(img)
        corner = cv2.rotate(img[: height // 3, : width // 2].copy(), cv2.ROTATE_180)
        img[height - height // 3 :, width - width // 2 :] = np.minimum(img[height - height // 3 :, width - width // 2 :], corner)
        cv2.putText(img, rank + suit, (int(0.3 * width), int(0.56 * height)), cv2.FONT_HERSHEY_SIMPLEX, 0.9 * scale,
                    colour, max(1, int(2 * scale)), cv2.LINE_AA)
        out[name] = img
    return out


def deck_faces(deck: str, cache: Path | None = None) -> dict[str, np.ndarray]:
    """The 52 faces of a rasterised Debian deck (``patience dataset fetch``) by card name."""
    from vision.training.artwork import CACHE, load_face

    root = (cache or CACHE) / "cards" / deck
    if not (root / "As.png").exists():
        raise FileNotFoundError(f"{root}: no rasterised deck {deck!r} (run `patience dataset fetch`)")
    return {name: load_face(root / f"{name}.png") for name in CARD_NAMES}


# ---------------------------------------------------------------------------------------------------------------
# Table layouts (canvas px; card height ``ch``)
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Table:
    """Where each place is on the table (canvas px) and what lies there."""

    ch: float
    cw: float
    places: dict[str, tuple[float, float]]  # "stock", "turned", "F0".., "W0".. (engine indices), "r,c" (poker)
    fan: tuple[float, float] = (0.0, 0.0)  # waste pile: offset from one card to the next
    piles: dict[str, list[str]] = field(default_factory=dict)  # place -> cards, bottom first
    jitter: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # card -> (dx, dy, angle)
    stock: int = 0
    laid_order: bool = False  # cards overlap (Poker rows or columns laid over each other): draw them in the order laid

    def pose(self, place: str, k: int, card: str) -> tuple[float, float, float]:
        """Centre and angle of the ``k``-th card (0 = bottom) of ``place``."""
        x, y = self.places[place]
        if place.startswith("W"):
            x, y = x + self.fan[0] * k, y + self.fan[1] * k
        dx, dy, da = self.jitter.get(card, (0.0, 0.0, 0.0))
        return x + dx, y + dy, da


def tommy_table(rng: np.random.Generator, ch: float, cw_ratio: float, hand_row: bool = False) -> tuple[Table, dict]:
    """Stock, turned card, four foundations, four waste piles fanned downwards; the arrangement, mirroring and the
    physical order of the engine's piles and foundations are drawn at random. ``hand_row`` (four at a time): four
    places "H0".."H3" one under another on the far side of the stock, where the turned cards wait face up."""
    cw = ch * cw_ratio
    gap = ch * rng.uniform(0.12, 0.3)
    fan = ch * rng.uniform(0.24, 0.3)
    arrangement = str(rng.choice(["below", "beside"], p=[0.65, 0.35]))
    mirrored = bool(rng.random() < 0.35)
    f_perm = rng.permutation(4)  # engine foundation i -> physical slot f_perm[i]
    w_perm = rng.permutation(4)
    step = cw + gap
    places: dict[str, tuple[float, float]] = {}
    if arrangement == "below":
        places["stock"] = (0.0, 0.0)
        places["turned"] = (step, 0.0)
        x_f = 2 * step + gap * rng.uniform(0.5, 2.0)
        for i in range(4):
            places[f"F{i}"] = (x_f + step * f_perm[i], 0.0)
            places[f"W{i}"] = (x_f + step * w_perm[i], ch + gap * rng.uniform(1.0, 2.0))
    else:  # foundations in a column beside the waste piles; stock and turned card above the foundations
        places["stock"] = (0.0, 0.0)
        places["turned"] = (step, 0.0)
        y_f = ch + gap * 1.5
        for i in range(4):
            places[f"F{i}"] = (0.0, y_f + (ch + gap * 0.6) * f_perm[i])
        x_w = step + gap * rng.uniform(1.0, 2.5)
        for i in range(4):
            places[f"W{i}"] = (x_w + step * w_perm[i], y_f)
    if hand_row:
        for k in range(4):
            places[f"H{k}"] = (-step, k * (ch + gap * 0.5))
    if mirrored:
        places = {k: (-x, y) for k, (x, y) in places.items()}
    table = Table(ch=ch, cw=cw, places=places, fan=(0.0, fan))
    info = {"arrangement": arrangement, "mirrored": mirrored,
            "foundation_slots": [int(v) for v in f_perm], "waste_slots": [int(v) for v in w_perm]}
    return table, info


def tommy_extent(table: Table, max_piles: list[int]) -> np.ndarray:
    """Corner points of everything the layout can cover (cards at their largest piles), canvas px."""
    pts = []
    hw, hh = table.cw / 2 * 1.15, table.ch / 2 * 1.1
    for name, (x, y) in table.places.items():
        ys = [y]
        if name.startswith("W"):
            ys.append(y + table.fan[1] * max(0, max_piles[int(name[1])] - 1))
        for yy in ys:
            pts += [(x - hw, yy - hh), (x + hw, yy - hh), (x - hw, yy + hh), (x + hw, yy + hh)]
    return np.array(pts)


def poker_table(rng: np.random.Generator, ch: float, cw_ratio: float, spread: bool = False,
                rows_overlap: float = 0.0, columns_overlap: float = 0.0) -> Table:
    """The 5x5 grid's cells "r,c"; ``spread`` (Poker Shuffle): 25 places "L0".."L24" in rows of seven to the left
    of the grid, where the cards are laid out open first. ``rows_overlap``: the rows lie this share of a card
    height over each other (a card laid later covers the edge of its neighbour above or below);
    ``columns_overlap``: the columns this share of a card width (it covers its neighbour's left or right edge)."""
    cw = ch * cw_ratio
    gx, gy = ch * rng.uniform(0.1, 0.3), ch * rng.uniform(0.08, 0.25)  # the open spread keeps its gaps
    step = ch * (1.0 - rows_overlap) if rows_overlap else ch + gy
    across = cw * (1.0 - columns_overlap) if columns_overlap else cw + gx
    places = {f"{r},{c}": (c * across, r * step) for r in range(5) for c in range(5)}
    if spread:
        for k in range(25):
            places[f"L{k}"] = ((k % 7 - 7) * (cw + gx) - cw * 0.6, (k // 7) * (ch + gy))
    return Table(ch=ch, cw=cw, places=places, laid_order=bool(rows_overlap or columns_overlap))


# ---------------------------------------------------------------------------------------------------------------
# The renderer
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class VideoOptions:
    width: int = 1280
    height: int = 720
    fps: float = 15.0
    card_height: tuple[float, float] = (0.10, 0.14)  # card height as a fraction of the frame height
    min_card_px: float | None = None  # never smaller (default 1/12 of the frame height: the recogniser reads corners)
    speed: float = 1.0  # >1: quicker hands (demo); the still table between moves keeps ``still``
    still: tuple[float, float] = (0.4, 1.5)  # seconds the table is still between moves
    hand_passes: float = 0.1  # chance of a hand passing over the table between moves
    two_step: float = 0.6  # Sir Tommy: chance a turned card is laid beside the stock first
    hand_row: float = 0.5  # four at a time: chance the player lays the four in a row first (else from the hand)
    noise: tuple[float, float] = (1.5, 4.0)
    jpeg: tuple[int, int] = (55, 85)
    max_rotation: float = 8.0  # degrees of tilt around the quarter turn
    shake: float = 1.0  # camera shake (0: a camera on a tripod)
    light: float = 1.0  # slow light changes (0: steady light)
    quarter_turns: tuple[int, ...] = (0, 1, 2, 3)
    nudge: float = 0.0  # card heights the camera is knocked halfway through the game (then stays so), 0: never
    rows_overlap: float = 0.0  # Poker: the rows lie this share of a card height over each other (0: with gaps)
    columns_overlap: float = 0.0  # Poker: the columns lie this share of a card width over each other (0: with gaps)


class GameRenderer:
    """Draws a script frame by frame into a VideoWriter, keeping the ground truth."""

    def __init__(self, script: dict, faces: dict[str, np.ndarray], out_stem: Path, seed: int,
                 options: VideoOptions | None = None, meta: dict | None = None):
        self.script, self.opt = script, options or VideoOptions()
        self.rng = np.random.default_rng([int(seed), 4242])
        self.out_stem = Path(out_stem)
        self.meta = meta or {}
        self.game = script["game"]
        self.events: list[dict] = []
        self.moving_trace: list[tuple[str, ...]] = []  # per frame: the cards on the move (tests)
        self.frame_index = 0
        self._setup_geometry(faces)
        self._setup_look()
        self.static: np.ndarray | None = None
        self.writer = None
        self.nudged: dict | None = None  # where and how the camera was knocked (VideoOptions.nudge)

    # -- set-up --------------------------------------------------------------------------------------------
    def _setup_geometry(self, faces) -> None:
        rng, o = self.rng, self.opt
        fh, fw = next(iter(faces.values())).shape[:2]
        cw_ratio = fw / fh
        turns = o.quarter_turns
        if any(st["kind"] == "open" for st in self.script["steps"]):  # a table twice as wide as a grid: the
            turns = tuple(t for t in turns if t % 2 == 0) or turns       # camera's long side along it
        k = int(rng.choice(turns))
        angle = 90.0 * k + rng.uniform(-o.max_rotation, o.max_rotation)
        tilt = rng.uniform(0.0, 0.25)
        tilt_dir = rng.uniform(0, 2 * math.pi)
        frac = rng.uniform(*o.card_height)
        min_px = o.min_card_px if o.min_card_px is not None else o.height / 12
        ch_img = max(min_px, frac * o.height)
        unit = 100.0  # layout first in units where a card is 100 px high, then scaled
        if self.game == "tommy":
            piles = self._max_piles()
            # four at a time: the player's way (a row beside the stock, or straight from the hand), kept all game
            self.hand_row = self.script.get("variant") == "four-at-a-time" and bool(rng.random() < o.hand_row)
            table, info = tommy_table(rng, unit, cw_ratio, self.hand_row)
            ext = tommy_extent(table, piles)
        else:
            spread = any(st["kind"] == "open" for st in self.script["steps"])  # Poker Shuffle
            table, info = poker_table(rng, unit, cw_ratio, spread, o.rows_overlap, o.columns_overlap), {}
            hw, hh = table.cw / 2 * 1.15, table.ch / 2 * 1.1
            used = {f"{st['cell'][0]},{st['cell'][1]}" for st in self.script["steps"] if "cell" in st} or {"2,2"}
            used |= {name for name in table.places if name.startswith("L")}
            ext = np.array([(x + sx * hw, y + sy * hh) for name, (x, y) in table.places.items() if name in used
                            for sx in (-1, 1) for sy in (-1, 1)])  # a partial game: only the cells it uses
        centre = (ext.min(axis=0) + ext.max(axis=0)) / 2
        frame_centre = np.array([o.width / 2, o.height / 2]) + rng.uniform(-0.03, 0.03, 2) * [o.width, o.height]
        for _ in range(80):  # shrink until the whole layout is in view (then straighten the camera)
            margin = 0.03 * o.height + 1.2 * o.nudge * ch_img  # room for a knocked camera (--nudge)
            p = project(camera_homography(centre, frame_centre, ch_img / unit, angle, tilt, tilt_dir), ext)
            if (p[:, 0].min() >= margin and p[:, 1].min() >= margin and p[:, 0].max() <= o.width - margin
                    and p[:, 1].max() <= o.height - margin):
                break
            if ch_img * 0.97 >= min_px:
                ch_img *= 0.97
            else:
                frame_centre = np.array([o.width / 2, o.height / 2])
                tilt *= 0.8
                angle = 90.0 * k + (angle - 90.0 * k) * 0.8
                ch_img *= 0.99
        # render the canvas at about 1.15x the image scale (cards are shrunk, not enlarged, by the camera)
        self.canvas_scale = 1.15 * ch_img / unit
        cs = self.canvas_scale
        self.table = table
        table.ch, table.cw = unit * cs, table.cw * cs
        table.places = {k2: (x * cs, y * cs) for k2, (x, y) in table.places.items()}
        table.fan = (table.fan[0] * cs, table.fan[1] * cs)
        ext, centre = ext * cs, centre * cs
        s = ch_img / (unit * cs)
        self.h_base = camera_homography(centre, frame_centre, s, angle, tilt, tilt_dir)
        # canvas: everything the frame can see (with room for camera shake), plus the layout
        frame_corners = np.array([[-40, -40], [o.width + 40, -40], [-40, o.height + 40], [o.width + 40, o.height + 40]])
        seen = project(np.linalg.inv(self.h_base), frame_corners)
        allpts = np.vstack([seen, ext])
        lo = np.floor(allpts.min(axis=0)) - 4
        hi = np.ceil(allpts.max(axis=0)) + 4
        shift = -lo
        table.places = {k2: (x + shift[0], y + shift[1]) for k2, (x, y) in table.places.items()}
        self.canvas_size = (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
        t = np.array([[1, 0, -shift[0]], [0, 1, -shift[1]], [0, 0, 1]], np.float64)
        self.h_base = self.h_base @ t
        self.h_layout = self.h_base  # the camera as set up: the truth's layout and cells (a nudge moves h_base)
        self.ext = ext + shift  # canvas px, as the places
        self.camera = {"rotation_deg": round(angle, 2), "quarter_turns": int(round(angle / 90.0)) % 4,
                       "tilt": round(tilt, 3), "card_height_px": round(ch_img, 1), **info}
        # faces at canvas size (area-resampled once)
        cw_px = max(8, int(round(table.ch * cw_ratio)))
        self.face_size = (cw_px, int(round(table.ch)))
        self.faces = {n: cv2.resize(f, self.face_size, interpolation=cv2.INTER_AREA) for n, f in faces.items()}
        self.back = card_back_image(rng, *self.face_size)
        self.background = table_background(rng, self.canvas_size[1], self.canvas_size[0])

    def _max_piles(self) -> list[int]:
        piles = [[] for _ in range(4)]
        peak = [1, 1, 1, 1]
        for st in self.script["steps"]:
            if st["kind"] == "redeal":
                piles = [[] for _ in range(4)]
            if st["kind"] != "move":
                continue
            src, dst = st["move"].split(">")
            if src.startswith("W"):
                piles[int(src[1])].pop()
            if dst.startswith("W"):
                piles[int(dst[1])].append(st["card"])
                peak[int(dst[1])] = max(peak[int(dst[1])], len(piles[int(dst[1])]))
        return peak

    def _setup_look(self) -> None:
        rng, o = self.rng, self.opt
        skin_tones = [(140, 170, 225), (120, 150, 200), (95, 125, 175), (70, 95, 140), (50, 70, 105), (160, 190, 235)]
        base = np.array(skin_tones[rng.integers(len(skin_tones))], np.float64) * rng.uniform(0.9, 1.08)
        sleeve = tuple(float(v) for v in rng.uniform(20, 200, 3)) if rng.random() < 0.7 else None
        self.hand = HandLook(skin=tuple(float(v) for v in np.clip(base, 0, 255)), width=self.table.ch * rng.uniform(0.55, 0.7),
                             sleeve=sleeve)
        self.entry_side = str(rng.choice(HAND_ENTRY_SIDES))
        self.noise_sigma = rng.uniform(*o.noise)
        self.jpeg_quality = int(rng.integers(o.jpeg[0], o.jpeg[1] + 1))
        self.light_phase = rng.uniform(0, 2 * math.pi, 4)
        self.light_period = rng.uniform(12, 40, 4)
        self.light_amp = rng.uniform(0.03, 0.1) * o.light
        self.tint_amp = rng.uniform(0.0, 0.04) * o.light
        w, h = o.width, o.height
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
        dist = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / math.hypot(w, h)
        lamp = 1.0 - rng.uniform(0.1, 0.35) * np.clip(dist, 0, 1.2)
        self.lamp = np.clip(lamp * 200, 0, 255).astype(np.uint8)  # x/200: at most 1.0
        self.lamp = cv2.merge([self.lamp] * 3)
        self.noise_bank = []
        for _ in range(6 if self.noise_sigma > 0.3 else 0):
            n = rng.normal(0, self.noise_sigma, (h, w, 3))
            self.noise_bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self.shake = np.zeros(3)  # dx, dy (frame px), rotation (deg): a smooth random walk
        self.bump = 0

    # -- time ----------------------------------------------------------------------------------------------
    def sec(self, lo: float, hi: float | None = None) -> int:
        """Frames for a duration in seconds (drawn in [lo, hi]), divided by the speed option."""
        s = lo if hi is None else self.rng.uniform(lo, hi)
        return max(1, int(round(s * self.opt.fps / self.opt.speed)))

    # -- the static layer ------------------------------------------------------------------------------------
    def rebuild_static(self) -> None:
        t = self.table
        img = self.background.copy()
        if t.stock > 0:
            x, y = t.places["stock"]
            for k in range(min(3, 1 + t.stock // 12)):
                paste(img, self.back, card_affine(*self.face_size, x - k * 1.2, y - k * 1.5, self.stock_angle),
                      shadow=0.35 if k == 0 else 0.0)
        order = sorted(t.piles, key=lambda p: (p.startswith("W"), "" if t.laid_order else p))  # stable: as laid
        for place in order:
            for k, card in enumerate(t.piles[place]):
                if place.startswith("F") and k < len(t.piles[place]) - 2:
                    continue  # buried foundation cards cannot be seen
                x, y, a = t.pose(place, k, card)
                paste(img, self.faces[card], card_affine(*self.face_size, x, y, a), shadow=0.3)
        self.static = img

    def lift(self, place: str) -> str:
        card = self.table.piles[place].pop()
        self.rebuild_static()
        return card

    # -- frames ----------------------------------------------------------------------------------------------
    def emit(self, hand=None, card=None, velocity=(0.0, 0.0)) -> None:
        """One frame: the static table, then (above it) a carried card and the hand, blurred along ``velocity``
        (canvas px per frame); camera, light, noise, compression; written to the video."""
        o = self.opt
        canvas = self.static.copy()
        if hand is not None or card is not None:
            self._overlay(canvas, hand, card, velocity)
        # camera shake: a smooth random walk with rare bumps
        self.shake = 0.85 * self.shake + self.rng.normal(0, [0.25, 0.25, 0.03]) * o.shake
        if self.bump == 0 and self.rng.random() < 0.004 * o.shake:
            self.bump = self.sec(0.3)
        jolt = self.rng.normal(0, [2.0, 2.0, 0.2]) * o.shake if self.bump > 0 else 0.0
        self.bump = max(0, self.bump - 1)
        dx, dy, rot = self.shake + jolt
        c = np.array([o.width / 2, o.height / 2])
        r = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(rot), 1.0)
        m = np.vstack([r, [0, 0, 1]])
        m[0, 2] += dx
        m[1, 2] += dy
        h = m @ self.h_base
        frame = cv2.warpPerspective(canvas, h, (o.width, o.height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # light: slow changes of brightness and colour, a lamp's fall-off
        t = self.frame_index / o.fps
        g = 1.0 + self.light_amp * math.sin(2 * math.pi * t / self.light_period[0] + self.light_phase[0])
        tint = [self.tint_amp * math.sin(2 * math.pi * t / self.light_period[i] + self.light_phase[i]) for i in (1, 2, 3)]
        frame = cv2.multiply(frame, self.lamp, scale=g / 200)
        frame = cv2.transform(frame, np.diag([1 + tv for tv in tint]))
        if self.noise_bank:
            pos, neg = self.noise_bank[self.frame_index % len(self.noise_bank)]
            frame = cv2.subtract(cv2.add(frame, pos), neg)
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        self.writer.write(frame)
        self.moving_trace.append((card[0],) if card is not None else ())
        self.frame_index += 1

    def _overlay(self, canvas, hand, card, velocity) -> None:
        """Composite the carried card and the hand (premultiplied float layer) over ``canvas``, motion-blurred."""
        H, W = canvas.shape[:2]
        pts = []
        if card is not None:
            _, x, y, _, _, _ = card
            pts += [(x - self.table.ch, y - self.table.ch), (x + self.table.ch, y + self.table.ch)]
        if hand is not None:
            (hx, hy), entry = hand
            r = self.hand.width * 1.6
            pts += [(hx - r, hy - r), (hx + r, hy + r)]
            ex, ey = np.clip(entry, [0, 0], [W, H])
            pts += [(ex - r, ey - r), (ex + r, ey + r)]
        pts = np.array(pts)
        x0, y0 = np.maximum(0, np.floor(pts.min(axis=0)).astype(int))
        x1, y1 = np.minimum([W, H], np.ceil(pts.max(axis=0)).astype(int))
        if x1 <= x0 or y1 <= y0:
            return
        layer = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
        if card is not None:
            name, x, y, a, flip, lift = card
            img = self.faces[name] if flip >= 0 else self.back
            # shadow of the lifted card on the table
            shadow_m = card_affine(*self.face_size, x - x0 + 0.06 * self.table.ch * (lift - 1) * 10, y - y0 + 0.08 * self.table.ch * (lift - 1) * 10, a, flip)
            sh_layer = np.zeros_like(alpha)
            sh_img = np.zeros_like(img)
            sh_img[:, :, 3] = img[:, :, 3]
            paste(np.zeros_like(layer), sh_img, shadow_m, alpha_out=sh_layer)
            sh_layer = cv2.GaussianBlur(sh_layer, (0, 0), 3.0) * 0.35
            layer *= (1 - sh_layer[:, :, None])
            alpha[:] = np.maximum(alpha, sh_layer)
            paste(layer, img, card_affine(*self.face_size, x - x0, y - y0, a, flip, lift), alpha_out=alpha)
        if hand is not None:
            (hx, hy), (ex, ey) = hand
            draw_hand(layer, alpha, (hx - x0, hy - y0), (ex - x0, ey - y0), self.hand, spread=0.2 if card is None else 0.0)
        # the shutter is open for about a third of the frame time; blur at most a quarter of a card
        vx, vy = velocity
        cap = 0.25 * self.table.ch
        kx, ky = int(min(cap, abs(vx) * 0.35)), int(min(cap, abs(vy) * 0.35))
        if kx >= 2 or ky >= 2:
            k = (max(1, kx), max(1, ky))
            layer = cv2.blur(layer, k)
            alpha = cv2.blur(alpha, k)
        roi = canvas[y0:y1, x0:x1].astype(np.float32)
        # shadow pixels (alpha without colour) darken; the layer is premultiplied by construction
        out = roi * (1 - alpha[:, :, None]) + layer
        canvas[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)

    # -- motions ---------------------------------------------------------------------------------------------
    def entry_point(self) -> tuple[float, float]:
        """A point beyond the frame edge on the player's side (the arm comes from there)."""
        o = self.opt
        side = self.entry_side if self.rng.random() < 0.8 else str(self.rng.choice(HAND_ENTRY_SIDES))
        u = self.rng.uniform(0.25, 0.75)
        p = {"bottom": (u * o.width, o.height + 60), "left": (-60, u * o.height), "right": (o.width + 60, u * o.height)}[side]
        return tuple(project(np.linalg.inv(self.h_base), [p])[0])

    def _path(self, a, b, n, arc=0.0):
        """``n`` points from a to b, eased in and out, bowed sideways by ``arc`` (fraction of the distance)."""
        a, b = np.asarray(a, float), np.asarray(b, float)
        t = np.linspace(0, 1, n + 1)[1:]
        e = t * t * (3 - 2 * t)
        d = b - a
        perp = np.array([-d[1], d[0]])
        return [a + d * ei + perp * arc * math.sin(math.pi * ei) for ei in e]

    def move_hand(self, start, end, n, entry, card=None, card_from=None, card_to=None, flip_from=1.0, flip_to=1.0):
        """Frames of the hand going from ``start`` to ``end`` (holding ``card`` from pose ``card_from`` to
        ``card_to``: (x, y, angle); ``flip_*``: -1 face down .. +1 face up)."""
        prev = np.asarray(start, float)
        arc = self.rng.uniform(-0.12, 0.12)
        grip = np.array([0.0, 0.0])
        if card is not None:
            grip = np.asarray(start, float) - np.asarray(card_from[:2])
        for i, p in enumerate(self._path(start, end, n, arc)):
            t = (i + 1) / n
            e = t * t * (3 - 2 * t)
            v = p - prev
            prev = p
            spec = None
            if card is not None:
                a = card_from[2] + (card_to[2] - card_from[2]) * e
                flip = flip_from + (flip_to - flip_from) * e
                lift = 1.0 + 0.05 * math.sin(math.pi * e)
                cx, cy = p - grip * (1 - e) - (np.asarray(end) - np.asarray(card_to[:2])) * e
                spec = (card, cx, cy, a, _flip_scale(flip), lift)
            self.emit(hand=(tuple(p), entry), card=spec, velocity=tuple(v))

    def grip_point(self, pose, entry) -> np.ndarray:
        """Where the hand holds a card lying at ``pose``: on its edge nearest the arm."""
        x, y = pose[:2]
        d = np.array([entry[0] - x, entry[1] - y])
        d /= max(1e-6, np.linalg.norm(d))
        return np.array([x, y]) + d * self.table.ch * 0.42

    def still(self, lo=None, hi=None) -> None:
        """The table at rest (the speed option does not shorten it: the assistant decides on quiet tables)."""
        lo, hi = (self.opt.still if lo is None else (lo, hi))
        for _ in range(max(1, int(round(self.rng.uniform(lo, hi) * self.opt.fps)))):
            self.emit()

    def hand_pass(self) -> None:
        """A hand reaches over the table and goes away: nothing moves."""
        entry = self.entry_point()
        target = np.array(self.table.places[str(self.rng.choice(list(self.table.places)))]) + self.rng.normal(0, 0.5, 2) * self.table.ch
        self.move_hand(entry, target, self.sec(0.4, 0.7), entry)
        for _ in range(self.sec(0.1, 0.5)):
            self.emit(hand=(tuple(target), entry))
        self.move_hand(target, entry, self.sec(0.35, 0.6), entry)

    def nudge_camera(self) -> None:
        """The camera (or the table) is knocked: within half a second the view slides ``nudge`` card heights in a
        direction drawn here, turns up to 8 degrees and comes up to 7 % nearer or further, then stays so; where no
        direction keeps the layout in view, the turn and zoom are smaller, then the slide shorter. Recorded in
        the truth's ``nudge``."""
        o = self.opt
        c = np.array([o.width / 2, o.height / 2])
        dist = o.nudge * self.camera["card_height_px"]
        turn, zoom = self.rng.uniform(-8.0, 8.0), self.rng.uniform(0.93, 1.07)
        margin = 0.01 * o.height
        start = self.h_base

        def knocked(e: float, offset: np.ndarray, twist: float) -> np.ndarray:
            r = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(turn * twist * e), float(zoom ** (twist * e)))
            m = np.vstack([r, [0, 0, 1]])
            m[:2, 2] += offset * e
            return m @ start

        for reach, twist in [(1.0, 1.0)] * 8 + [(1.0, 0.5)] * 8 + [(1.0, 0.0)] * 8 + [(0.6, 0.0)] * 8:
            a = self.rng.uniform(0, 2 * math.pi)
            offset = dist * reach * np.array([math.cos(a), math.sin(a)])
            p = project(knocked(1.0, offset, twist), self.ext)
            if (p.min(axis=0) >= margin).all() and (p.max(axis=0) <= [o.width - margin, o.height - margin]).all():
                break
        n = self.sec(0.3, 0.6)
        for i in range(1, n + 1):
            t = i / n
            self.h_base = knocked(t * t * (3 - 2 * t), offset, twist)
            self.emit()
        self.nudged = {"frame": self.frame_index, "shift_px": [round(float(v), 1) for v in offset],
                       "turn_deg": round(float(turn * twist), 2), "scale": round(float(zoom ** twist), 3)}

    def carry(self, card: str, src_pose, dst_pose, face_down_at_start: bool, on_pick, on_release,
              face_down_at_end: bool = False) -> int:
        """Hand in, pick the card at ``src_pose``, carry it face up to ``dst_pose`` (turned face down on the way
        with ``face_down_at_end``), let go, hand out. ``on_pick()`` takes it off the table state, ``on_release()``
        lays it; returns the still frame."""
        entry = self.entry_point()
        g0 = self.grip_point(src_pose, entry)
        self.move_hand(entry, g0, self.sec(0.35, 0.6), entry)
        on_pick()
        flip0 = -1.0 if face_down_at_start else 1.0
        for _ in range(self.sec(0.07, 0.15)):
            self.emit(hand=(tuple(g0), entry), card=(card, *src_pose[:2], src_pose[2], _flip_scale(flip0), 1.0))
        g1 = self.grip_point(dst_pose, entry)
        self.move_hand(g0, g1, self.sec(0.45, 0.8), entry, card=card, card_from=src_pose, card_to=dst_pose,
                       flip_from=flip0, flip_to=-1.0 if face_down_at_end else 1.0)
        on_release()
        still_frame = self.frame_index
        for _ in range(self.sec(0.05, 0.15)):
            self.emit(hand=(tuple(g1), entry))
        self.move_hand(g1, entry, self.sec(0.35, 0.6), entry)
        return still_frame

    # -- games -----------------------------------------------------------------------------------------------
    def render(self) -> dict:
        o = self.opt
        self.out_stem.parent.mkdir(parents=True, exist_ok=True)
        video = self.out_stem.with_suffix(".mp4")
        self.writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), o.fps, (o.width, o.height))
        if not self.writer.isOpened():
            raise RuntimeError(f"cannot write {video} (OpenCV VideoWriter, mp4v)")
        self.stock_angle = self.rng.normal(0, 2.0)
        try:
            if self.game == "tommy":
                self.table.stock = self.script.get("stock", 52)
                for i, card in enumerate(self.script.get("bases", [])):  # set out before play
                    self.table.piles[f"F{i}"] = [card]
                self.rebuild_static()
                self.still(1.0, 1.5)
                self._play_tommy()
            else:
                self.rebuild_static()
                self.still(1.0, 1.5)
                self._play_poker()
            self.still(1.5, 2.0)
        finally:
            self.writer.release()
        truth = self.truth()
        self.out_stem.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
        return truth

    def _maybe_nudge(self, step: int, steps: int) -> None:
        """The camera knocked once, at the first step of the game's second half (``VideoOptions.nudge``)."""
        if self.opt.nudge > 0 and self.nudged is None and step >= steps // 2:
            self.nudge_camera()
            self.still()

    def _maybe_pass(self) -> None:
        if self.rng.random() < self.opt.hand_passes:
            self.hand_pass()
            self.still(0.3, 0.8)

    def _play_tommy(self) -> None:
        t = self.table
        steps = self.script["steps"]
        i = 0
        while i < len(steps):
            st = steps[i]
            self._maybe_nudge(i, len(steps))
            self._maybe_pass()
            if st["kind"] == "turn" and steps[i + 1]["kind"] == "turn":
                i = self._play_batch(steps, i)
            elif st["kind"] == "redeal":
                self.events.append({"event": "move", "card": None, "move": "R", "still_frame": self._gather()})
                i += 1
            elif st["kind"] == "turn":
                card = st["card"]
                nxt = steps[i + 1]
                assert nxt["kind"] == "move" and nxt["card"] == card and nxt["move"].startswith("S>"), nxt
                stock_pose = (*t.places["stock"], self.stock_angle)

                if self.rng.random() < self.opt.two_step:
                    turned_pose = self._next_pose("turned", card)
                    f = self.carry(card, stock_pose, turned_pose, True, self.take_from_stock, lambda: self.lay("turned", card))
                    self.events.append({"event": "card", "card": card, "still_frame": f})
                    self.still(0.5, 1.6)
                    dst = nxt["move"].split(">")[1]
                    f = self.carry(card, turned_pose, self._next_pose(dst, card), False, lambda: self.lift("turned"),
                                   lambda: self.lay(dst, card))
                else:
                    dst = nxt["move"].split(">")[1]
                    f = self.carry(card, stock_pose, self._next_pose(dst, card), True, self.take_from_stock, lambda: self.lay(dst, card))
                    self.events.append({"event": "card", "card": card, "still_frame": f})
                self.events.append({"event": "move", "card": card, "move": nxt["move"], "still_frame": f})
                i += 2
            else:  # a waste top played up
                src, dst = st["move"].split(">")
                card = st["card"]
                k = len(t.piles[src]) - 1
                f = self.carry(card, t.pose(src, k, card), self._next_pose(dst, card), False, lambda: self.lift(src),
                               lambda: self.lay(dst, card))
                self.events.append({"event": "move", "card": card, "move": st["move"], "still_frame": f})
                i += 1
            self.still()

    def _play_batch(self, steps: list[dict], i: int) -> int:
        """Four at a time from step ``i``: the turned cards laid in the row beside the stock and then each moved to
        its place, or each carried from the stock straight to its place (the camera first sees it there); returns
        the index of the step after the batch's placements."""
        t = self.table
        batch = []
        while i < len(steps) and steps[i]["kind"] == "turn":
            batch.append(steps[i]["card"])
            i += 1
        places = []
        while i < len(steps) and steps[i]["kind"] == "move" and steps[i]["move"].startswith("S"):
            places.append(steps[i])
            i += 1
        assert sorted(st["card"] for st in places) == sorted(batch), (batch, places)
        stock_pose = (*t.places["stock"], self.stock_angle)
        moves = []
        if self.hand_row:
            for k, card in enumerate(batch):
                f = self.carry(card, stock_pose, self._next_pose(f"H{k}", card), True, self.take_from_stock,
                               lambda k=k, card=card: self.lay(f"H{k}", card))
                self.events.append({"event": "card", "card": card, "still_frame": f})
                self.still(0.3, 0.8)
            self.still(0.5, 1.5)  # the player looks at the four
        for st in places:
            card, dst = st["card"], st["move"].split(">")[1]
            if self.hand_row:
                k = batch.index(card)
                f = self.carry(card, t.pose(f"H{k}", 0, card), self._next_pose(dst, card), False,
                               lambda k=k: self.lift(f"H{k}"), lambda dst=dst, card=card: self.lay(dst, card))
            else:
                f = self.carry(card, stock_pose, self._next_pose(dst, card), True, self.take_from_stock,
                               lambda dst=dst, card=card: self.lay(dst, card))
                self.events.append({"event": "card", "card": card, "still_frame": f})
            moves.append({"event": "move", "card": card, "move": st["move"], "still_frame": f})
            self.still(0.3, 0.8)
        self.events += moves  # the engine places no card before the whole batch is turned
        return i

    def _gather(self) -> int:
        """A redeal: each waste pile picked up whole by its top card and put face down as the new stock; returns
        the still frame after the last."""
        t = self.table
        stock_pose = (*t.places["stock"], self.stock_angle)
        still = self.frame_index
        for place in sorted(p for p, cards in t.piles.items() if p.startswith("W") and cards):
            pile = t.piles[place]

            def pick(place=place):
                t.piles[place] = []
                self.rebuild_static()

            def put(n=len(pile)):
                t.stock += n
                self.rebuild_static()

            still = self.carry(pile[-1], t.pose(place, len(pile) - 1, pile[-1]), stock_pose, False, pick, put,
                               face_down_at_end=True)
            self.still(0.2, 0.5)
        return still

    def take_from_stock(self) -> None:
        self.table.stock -= 1
        self.rebuild_static()

    def _next_pose(self, place: str, card: str) -> tuple[float, float, float]:
        """Where ``card`` will lie when laid on ``place`` now (its jitter drawn here and kept)."""
        t = self.table
        k = len(t.piles.get(place, []))
        amp, ang = (0.025, 4.0) if self.game == "poker" else (0.012, 1.2)
        t.jitter[card] = (self.rng.normal(0, amp) * t.ch, self.rng.normal(0, amp) * t.ch,
                          self.rng.uniform(-ang, ang) if self.game == "poker" else self.rng.normal(0, ang))
        return t.pose(place, k, card)

    def lay(self, place: str, card: str) -> None:
        """Put ``card`` on ``place`` (its pose was drawn by ``_next_pose``)."""
        self.table.piles.setdefault(place, []).append(card)
        self.rebuild_static()

    def _play_poker(self) -> None:
        opened: list[str] = []  # Poker Shuffle: the cards laid out open, in order
        moves, arranged = [], None
        for i, st in enumerate(self.script["steps"]):
            self._maybe_nudge(i, len(self.script["steps"]))
            self._maybe_pass()
            card = st["card"]
            if st["kind"] == "place" and card in opened:  # Poker Shuffle: moved from the spread into its cell
                src, (r, c) = f"L{opened.index(card)}", st["cell"]
                f = self.carry(card, self.table.pose(src, 0, card), self._next_pose(f"{r},{c}", card), False,
                               lambda src=src: self.lift(src), lambda r=r, c=c, card=card: self.lay(f"{r},{c}", card))
                moves.append({"event": "move", "card": card, "cell": self.seen_cell(r, c)})
                arranged = f
                self.still()
                continue
            if st["kind"] == "open":
                place = f"L{len(opened)}"
                opened.append(card)
            else:
                r, c = st["cell"]
                place = f"{r},{c}"
            entry = self.entry_point()
            start_pose = (entry[0], entry[1], self.rng.uniform(-30, 30))
            face_down = bool(self.rng.random() < 0.4)
            dst = self._next_pose(place, card)
            g0 = np.asarray(start_pose[:2])
            g1 = self.grip_point(dst, entry)
            self.move_hand(g0, g1, self.sec(0.6, 1.0), entry, card=card, card_from=start_pose, card_to=dst,
                           flip_from=-1.0 if face_down else 1.0, flip_to=1.0)
            self.lay(place, card)
            f = self.frame_index
            self.events.append({"event": "card", "card": card, "still_frame": f})
            if st["kind"] == "place":
                self.events.append({"event": "move", "card": card, "cell": self.seen_cell(r, c), "still_frame": f})
            for _ in range(self.sec(0.05, 0.15)):
                self.emit(hand=(tuple(g1), entry))
            self.move_hand(g1, entry, self.sec(0.35, 0.6), entry)
            self.still()
        if moves:  # the arrangement is placed once all 25 lie in it, in the order the cards were laid out
            moves.sort(key=lambda e: opened.index(e["card"]))
            self.events += [{**e, "still_frame": arranged} for e in moves]

    # -- truth -----------------------------------------------------------------------------------------------
    def seen_cell(self, r: int, c: int) -> list[int]:
        """The engine cell (r, c) as seen in the image: the grid's axes snapped to the image's axes."""
        p00 = project(self.h_layout, [self.table.places["2,2"]])[0]
        ex = project(self.h_layout, [self.table.places["2,3"]])[0] - p00
        ey = project(self.h_layout, [self.table.places["3,2"]])[0] - p00
        sx, sy = _snap(ex), _snap(ey)
        off = (c - 2) * sx + (r - 2) * sy
        return [int(2 + off[1]), int(2 + off[0])]

    def truth(self) -> dict:
        o = self.opt
        res = dict(self.script["result"])
        if self.game == "poker":
            rows = [[None] * 5 for _ in range(5)]
            for i, name in enumerate(res.pop("grid")):
                if name is not None:
                    rr, cc = self.seen_cell(i // 5, i % 5)
                    rows[rr][cc] = name
            res = {"rows": rows, **res}
        return {"game": self.game, "variant": self.script.get("variant"), **self.meta,
                "seed": self.script.get("seed"), "fps": o.fps, "width": o.width, "height": o.height,
                "frames": self.frame_index, "events": self.events, "result": res, "layout": self.layout(),
                **({"nudge": self.nudged} if self.nudged else {})}

    def layout(self) -> dict:
        h = self.h_layout
        out = {"camera": self.camera}
        pos = lambda p: [round(float(v), 1) for v in project(h, [p])[0]]  # noqa: E731
        t = self.table
        if self.game == "tommy":
            out["stock"] = pos(t.places["stock"])
            out["turned"] = pos(t.places["turned"])
            out["foundations"] = [pos(t.places[f"F{i}"]) for i in range(4)]
            out["waste"] = [pos(t.places[f"W{i}"]) for i in range(4)]
            w0 = t.places["W0"]
            out["fan_step"] = [round(float(v), 1) for v in project(h, [(w0[0] + t.fan[0], w0[1] + t.fan[1])])[0] - project(h, [w0])[0]]
            if "H0" in t.places:
                out["hand_row"] = [pos(t.places[f"H{k}"]) for k in range(4)]
        else:
            out["cells"] = {f"{rc[0]},{rc[1]}": pos(t.places[f"{r},{c}"]) for r in range(5) for c in range(5)
                            for rc in [self.seen_cell(r, c)]}
            if "L0" in t.places:
                out["spread"] = [pos(t.places[f"L{k}"]) for k in range(25)]
        return out


def _snap(v) -> np.ndarray:
    """The image axis unit vector (+-x or +-y) nearest to ``v``."""
    if abs(v[0]) >= abs(v[1]):
        return np.array([1 if v[0] > 0 else -1, 0])
    return np.array([0, 1 if v[1] > 0 else -1])


def _flip_scale(flip: float) -> float:
    """A card being turned over: -1 face down .. +1 face up -> signed width factor (negative shows the back)."""
    return math.copysign(max(0.03, abs(flip)) ** 0.7, flip) if flip != 0 else 0.03


def render_game(script: dict, faces: dict[str, np.ndarray], out_stem: Path | str, *, seed: int = 0,
                options: VideoOptions | None = None, meta: dict | None = None) -> dict:
    """Render ``script`` to ``out_stem.mp4`` + ``out_stem.json``; returns the truth (also the JSON's content)."""
    r = GameRenderer(script, faces, Path(out_stem), seed, options, meta)
    return r.render()
