"""Procedurally drawn 52-card decks: more card designs for the recogniser than the ~22 Debian decks (issue #13).

Each deck draws one random style (``DeckStyle``): card stock, an optional frame line, a rank font (one of
``artwork.glyph_fonts()``, or a cv2 Hershey font when there is none), suit pips of VARIED shapes (the drawn pips of
``vision.training.index_glyphs`` plus rounder/lobed clubs and fat spades, each stretched taller or wider, or a
font's own suit glyphs), suit colours (red/black in many inks, or four-colour: blue diamonds, green clubs), the
corner index (rank above its pip, size, place), number cards with the standard pip layouts, court cards with a
framed picture of random shapes and/or a big letter, aces with one big pip.

The faces come out in the artwork cache's form (``artwork.rasterise_deck``): BGRA, ``RASTER_WIDTH`` wide, poker
aspect ~1.4, transparent rounded corners, one PNG per card under ``cache/cards/<deck>/``; the index box (fractions
of the card, the top-left corner; the bottom-right one is the same box turned by 180 degrees, as
``scenes.Face.index_quads`` assumes) is known exactly: the union of the 52 printed indices' ink. Nothing else is
drawn within ``CLEARANCE`` of it. ``write_procedural_decks`` adds ``"procedural": true`` entries to
``cache/cards/decks.json``; ``artwork.load_decks`` leaves them out unless asked (``procedural=True``/``None``), and
``patience dataset build --procedural-share P`` draws a table's deck from them with probability P (training split
only: the val scenes stay made of the held-out designs).

Pure: numpy, cv2, PIL; everything random comes from the numpy Generator (``default_rng([seed, PROC_STREAM, k])``
for deck ``k``), so a seed gives the same pixels. Drawn at ``OVERSAMPLE`` x and shrunk with ``cv2.INTER_AREA``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.card_names import CARD_NAMES, RANKS, rank_of, suit_of
from vision.training import artwork, index_glyphs as ig
from vision.training.artwork import RASTER_WIDTH  # the artwork cache's card width

OVERSAMPLE = 2
PROC_STREAM = 7  # seed stream of the procedural decks (scenes use 0/1, glyph crops 2)
CLEARANCE = 0.035  # of the card width: no other ink this close to the index box
SUITS = "shdc"
_HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX)

# Pip columns (x: -1 left, 0 centre, 1 right) and rows (y: 0 top .. 1 bottom) of the number cards.
PIP_LAYOUTS: dict[str, list[tuple[int, float]]] = {
    "2": [(0, 0.0), (0, 1.0)],
    "3": [(0, 0.0), (0, 0.5), (0, 1.0)],
    "4": [(-1, 0.0), (1, 0.0), (-1, 1.0), (1, 1.0)],
    "5": [(-1, 0.0), (1, 0.0), (0, 0.5), (-1, 1.0), (1, 1.0)],
    "6": [(c, y) for c in (-1, 1) for y in (0.0, 0.5, 1.0)],
    "7": [(c, y) for c in (-1, 1) for y in (0.0, 0.5, 1.0)] + [(0, 0.25)],
    "8": [(c, y) for c in (-1, 1) for y in (0.0, 0.5, 1.0)] + [(0, 0.25), (0, 0.75)],
    "9": [(c, y) for c in (-1, 1) for y in (0.0, 1 / 3, 2 / 3, 1.0)] + [(0, 0.5)],
    "10": [(c, y) for c in (-1, 1) for y in (0.0, 1 / 3, 2 / 3, 1.0)] + [(0, 1 / 6), (0, 5 / 6)],
}


# ---------------------------------------------------------------------------------------------------------------
# Pip shapes: index_glyphs' drawn pips plus rounder clubs and fatter spades
# ---------------------------------------------------------------------------------------------------------------


def _club_variant(rng):
    """A club whose side lobes sit at any angle (0-50 degrees below the horizontal), big overlapping lobes
    (rounded, blobby clubs) or small apart ones, a thin or thick stem."""
    r = rng.uniform(0.18, 0.3)
    d = r * rng.uniform(0.7, 1.3)
    a = np.radians(rng.uniform(0, 50))
    circles = [(np.array([0.0, -d]), r), (np.array([-d * np.cos(a), d * np.sin(a)]), r),
               (np.array([d * np.cos(a), d * np.sin(a)]), r), (np.array([0.0, 0.0]), d * rng.uniform(0.5, 0.8))]
    foot = d * np.sin(a) + r * rng.uniform(0.6, 1.2) + rng.uniform(0.05, 0.25)
    return circles, [ig._stem(rng, 0.0, foot)]


def _spade_variant(rng):
    """A spade of two big lobes (fat) or small ones, a short or tall point, a thin or thick stem. The point always
    stands clear of the lobes (a spade with a rounded top is a club at 32 px: the gnome-plastic confusion)."""
    r = rng.uniform(0.22, 0.31)
    a = 0.5 - r
    tip = np.array([0.0, -(r + rng.uniform(0.2, 0.55))])
    cl, cr = np.array([-a, 0.0]), np.array([a, 0.0])
    if rng.random() < 0.5:
        left = np.array([ig._tangent(cl, r, tip, -1), tip])
    else:
        left = ig._bezier((-0.5, 0.0), (-0.5 + rng.uniform(0.0, 0.15), tip[1] * rng.uniform(0.3, 0.75)), tip)
    poly = np.vstack([left, (left * np.array([-1.0, 1.0]))[::-1], [cr, cl]])
    stem = ig._stem(rng, 0.0, r + rng.uniform(0.08, 0.4))
    return [(cl, r), (cr, r)], [poly, stem]


_VARIANTS = {"c": _club_variant, "s": _spade_variant}


@dataclass
class PipStyle:
    """How one suit's pips look in a deck: a shape seed (the same shape on every card), its source, a stretch."""

    suit: str
    seed: int
    source: str  # "drawn" (index_glyphs' shapes), "variant" (rounder clubs, fatter spades), "font"
    stretch: float  # height multiplier (>1 taller, <1 squatter)
    font: str | None = None

    def mask(self, width: float) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        if self.source == "font" and self.font:
            m = ig._text_mask(self.font, ig.SUIT_CHARS[self.suit])
        elif self.source == "variant":
            m = ig.draw_shape(*_VARIANTS[self.suit](rng), width * 2)
        else:
            m = ig.draw_pip(self.suit, rng, width * 2)
        h = max(2, int(round(m.shape[0] * width / m.shape[1] * self.stretch)))
        return ig._crop_ink(cv2.resize(m, (max(2, int(round(width))), h), interpolation=cv2.INTER_AREA))


# ---------------------------------------------------------------------------------------------------------------
# The deck's style
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class DeckStyle:
    width: int
    height: int
    paper: np.ndarray  # BGR float
    corner_radius: float  # px
    border: tuple | None  # (inset px, thickness px, BGR) or None
    font: str | None  # rank font file, None = a Hershey font
    hershey: int
    rank_height: float  # px
    condense: float
    stroke: int
    pip_ratio: float  # index pip width / one character's width
    index_gap: float  # px between rank and pip
    centred: bool  # rank and pip centred on one column (else left-aligned)
    margin: tuple[float, float]  # index's top-left corner (px)
    colours: dict[str, np.ndarray]  # suit -> BGR
    four_colour: bool
    pips: dict[str, PipStyle]
    pip_width: float  # px of the centre pips
    court: dict = field(default_factory=dict)
    pip_field: tuple | None = None  # (left, centre, right column x, top, bottom row y) px, set by ``draw_deck``


def _colours(rng, four_colour: bool) -> dict[str, np.ndarray]:
    black = ig._ink_colour("s", rng)
    red = ig._ink_colour("h", rng)
    out = {"s": black, "c": black.copy(), "h": red, "d": red.copy()}
    if four_colour:
        if rng.random() < 0.7:  # blue diamonds, green clubs (the common four-colour poker deck)
            out["d"] = np.array([rng.uniform(150, 230), rng.uniform(40, 120), rng.uniform(0, 40)])
            out["c"] = np.array([rng.uniform(0, 60), rng.uniform(100, 160), rng.uniform(0, 50)])
        else:  # orange diamonds, green or blue clubs
            out["d"] = np.array([rng.uniform(0, 40), rng.uniform(110, 160), rng.uniform(220, 255)])
            out["c"] = (np.array([rng.uniform(0, 60), rng.uniform(100, 160), rng.uniform(0, 50)]) if rng.random() < 0.5
                        else np.array([rng.uniform(150, 230), rng.uniform(40, 120), rng.uniform(0, 40)]))
    return out


def _paper(rng) -> np.ndarray:
    u = rng.random()
    if u < 0.55:
        return np.full(3, rng.uniform(238, 255))
    if u < 0.85:  # cream
        return np.array([rng.uniform(200, 232), rng.uniform(228, 248), rng.uniform(240, 255)])
    return np.full(3, rng.uniform(222, 240)) + rng.uniform(-5, 5, 3)  # off-white


def draw_style(rng: np.random.Generator, fonts: list[Path], width: int = RASTER_WIDTH,
               four_colour: bool | None = None) -> DeckStyle:
    """One deck's look, drawn at ``OVERSAMPLE`` x the card width."""
    w = width * OVERSAMPLE
    h = int(round(w * rng.uniform(1.38, 1.45)))
    font = str(fonts[rng.integers(len(fonts))]) if fonts else None
    four = bool(rng.random() < 0.25) if four_colour is None else four_colour
    colours = _colours(rng, four)
    pips = {}
    for s in SUITS:
        source = "drawn" if s in "hd" else str(rng.choice(["drawn", "variant"], p=[0.4, 0.6]))
        glyph_font = None
        if rng.random() < 0.2:
            candidates = [str(f) for f in fonts if s in ig.suit_glyphs(str(f))]
            if candidates:
                source, glyph_font = "font", candidates[rng.integers(len(candidates))]
        stretch = float(rng.uniform(0.85, 1.25)) if rng.random() < 0.6 else 1.0
        pips[s] = PipStyle(s, int(rng.integers(1 << 31)), source, stretch, glyph_font)
    rank_height = w * rng.uniform(0.085, 0.14)
    margin = (w * rng.uniform(0.035, 0.075), h * rng.uniform(0.025, 0.05))
    border = None
    if rng.random() < 0.45:
        inset = w * rng.uniform(0.012, 0.03)
        thick = max(1, int(round(w * rng.uniform(0.003, 0.01))))
        col = colours["s"] if rng.random() < 0.5 else rng.uniform(0, 200, 3)
        border = (inset, thick, col)
        least = inset + thick + CLEARANCE * w  # the index stays clear of the frame line
        margin = (max(margin[0], least), max(margin[1], least))
    court = {
        "frame": rng.uniform(0, 180, 3), "frame_thick": max(2, int(w * rng.uniform(0.004, 0.012))),
        "fill": rng.uniform(150, 250, 3) if rng.random() < 0.5 else None,
        "shapes": int(rng.integers(3, 12)), "letter": bool(rng.random() < 0.6), "mirror": bool(rng.random() < 0.6),
        "palette": [rng.uniform(0, 255, 3) for _ in range(4)], "pip": bool(rng.random() < 0.7),
    }
    return DeckStyle(
        width=w, height=h, paper=_paper(rng), corner_radius=w * rng.uniform(0.035, 0.08), border=border,
        font=font, hershey=int(_HERSHEY[rng.integers(len(_HERSHEY))]), rank_height=rank_height,
        condense=float(rng.uniform(0.75, 1.1)) if rng.random() < 0.4 else 1.0,
        stroke=int(round(rng.uniform(1, 5))) if rng.random() < 0.3 else 0,
        pip_ratio=float(rng.uniform(0.55, 1.0)), index_gap=float(rank_height * rng.uniform(0.04, 0.3)),
        centred=bool(rng.random() < 0.7), margin=margin, colours=colours, four_colour=four, pips=pips,
        pip_width=w * rng.uniform(0.13, 0.19), court=court,
    )


# ---------------------------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------------------------


def _hershey_mask(text: str, font: int, height: float, stroke: int) -> np.ndarray:
    """A rank drawn with a cv2 Hershey font (always there), ``height`` px tall, cropped to its ink."""
    thick = max(2, int(round(height / 9)) + stroke)
    size = cv2.getTextSize(text, font, 4.0, thick)[0]
    im = np.zeros((size[1] * 2 + 40, size[0] + 40), np.uint8)
    cv2.putText(im, text, (20, size[1] + 20), font, 4.0, 255, thick, cv2.LINE_AA)
    m = ig._crop_ink(im)
    s = height / m.shape[0]
    return cv2.resize(m, (max(2, int(round(m.shape[1] * s))), max(2, int(round(height)))), interpolation=cv2.INTER_AREA)


def _rank_mask(style: DeckStyle, rank: str, height: float | None = None) -> np.ndarray:
    height = height or style.rank_height
    if style.font is None:
        m = _hershey_mask(rank, style.hershey, height, style.stroke)
    else:
        m = ig._text_mask(style.font, rank, style.stroke * 2)
        s = height / m.shape[0]
        m = cv2.resize(m, (max(2, int(round(m.shape[1] * s))), max(2, int(round(height)))), interpolation=cv2.INTER_AREA)
    if style.condense != 1.0:
        m = cv2.resize(m, (max(2, int(round(m.shape[1] * style.condense))), m.shape[0]), interpolation=cv2.INTER_AREA)
    return m


def _char_width(style: DeckStyle) -> float:
    m = _rank_mask(style, "8")
    return float(m.shape[1])


def index_layout(style: DeckStyle) -> tuple[dict[str, tuple[np.ndarray, int, int]], tuple[int, int, int, int]]:
    """Each card's index ink mask and its top-left position (px) in the upright top-left corner, and the deck's
    index box (x0, y0, x1, y1, px): the union of the 52 masks' ink."""
    pw = max(4.0, style.pip_ratio * _char_width(style))
    ranks = {r: _rank_mask(style, r) for r in RANKS}
    pips = {s: style.pips[s].mask(pw) for s in SUITS}
    col = max(max(m.shape[1] for m in ranks.values()), max(m.shape[1] for m in pips.values()))
    x0, y0 = (int(round(v)) for v in style.margin)
    out = {}
    box = [10**9, 10**9, -1, -1]
    for card in CARD_NAMES:
        rm, pm = ranks[rank_of(card)], pips[suit_of(card)]
        rh, rw = rm.shape
        ph, pwid = pm.shape
        gap = int(round(style.index_gap))
        w = max(rw, pwid)
        canvas = np.zeros((rh + gap + ph, w), np.uint8)
        if style.centred:
            ig._paste(canvas, rm, (w - rw) // 2, 0)
            ig._paste(canvas, pm, (w - pwid) // 2, rh + gap)
            x = x0 + (col - w) // 2
        else:
            ig._paste(canvas, rm, 0, 0)
            ig._paste(canvas, pm, 0, rh + gap)
            x = x0
        out[card] = (canvas, x, y0)
        ys, xs = np.nonzero(canvas)
        box = [min(box[0], x + xs.min()), min(box[1], y0 + ys.min()), max(box[2], x + xs.max() + 1),
               max(box[3], y0 + ys.max() + 1)]
    return out, (box[0], box[1], box[2], box[3])


def _blend(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour) -> None:
    """Paint ``colour`` through ``mask`` (uint8 coverage) at (x, y) of ``img`` (float BGR), clipped."""
    h, w = mask.shape
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if xb <= xa or yb <= ya:
        return
    a = mask[ya - y : yb - y, xa - x : xb - x].astype(np.float32)[:, :, None] / 255
    roi = img[ya:yb, xa:xb]
    roi[:] = roi * (1 - a) + np.asarray(colour, np.float32) * a


def _pip_centres(style: DeckStyle, box) -> tuple[float, float, float, float, float]:
    """The pip field: left/centre/right column x, top/bottom row y (px), clear of both index boxes."""
    w, h = style.width, style.height
    clear = CLEARANCE * w
    pw = style.pip_width
    lx = max(0.3 * w, box[2] + clear + pw / 2)
    if w - lx - (lx) < 1.2 * pw:  # too narrow: shrink the pips
        style.pip_width = pw = max(8.0, (w - 2 * (box[2] + clear)) / 2.4)
        lx = box[2] + clear + pw / 2
    top = 0.1 * h + pw * 0.6
    tallest = max(p.mask(pw).shape[0] for p in style.pips.values())
    if tallest > 0.3 * (h - 2 * top):  # four rows of tall pips would touch: smaller pips
        style.pip_width = pw = pw * 0.3 * (h - 2 * top) / tallest
        top = 0.1 * h + pw * 0.6
    return lx, w / 2, w - lx, top, h - top


def draw_face(style: DeckStyle, card: str, index: dict, box, rng: np.random.Generator) -> np.ndarray:
    """One card face, BGRA uint8 at ``style.width / OVERSAMPLE`` wide, transparent rounded corners."""
    w, h = style.width, style.height
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.paper
    rank, suit = rank_of(card), suit_of(card)
    colour = style.colours[suit]
    layer = np.zeros((h, w), np.uint8)  # the index ink, both corners
    m, x, y = index[card]
    ig._paste(layer, m, x, y)
    layer = np.maximum(layer, layer[::-1, ::-1])
    if style.border is not None:
        inset, thick, col = style.border
        line = np.zeros((h, w), np.uint8)
        i = int(round(inset))
        r = int(max(2, style.corner_radius - inset))
        _rounded_rect(line, (i, i, w - 1 - i, h - 1 - i), r, 255, thick)
        _blend(img, line, 0, 0, col)
    lx, cx, rx, top, bottom = style.pip_field
    pip = style.pips[suit]
    if rank == "A":
        room = w - 2 * (box[2] + CLEARANCE * w)  # clear of both indices
        big = pip.mask(min(style.pip_width * rng.uniform(1.8, 2.6), room))
        _blend(img, big, int(cx - big.shape[1] / 2), int(h / 2 - big.shape[0] / 2), colour)
    elif rank in PIP_LAYOUTS:
        pm = pip.mask(style.pip_width)
        for c, fy in PIP_LAYOUTS[rank]:
            px = (lx, cx, rx)[c + 1]
            py = top + fy * (bottom - top)
            mm = pm[::-1, ::-1] if fy > 0.5 else pm  # pips of the lower half upside down
            _blend(img, mm, int(round(px - mm.shape[1] / 2)), int(round(py - mm.shape[0] / 2)), colour)
    else:
        _court(img, style, card, box, rng)
    _blend(img, layer, 0, 0, colour)
    alpha = np.zeros((h, w), np.uint8)
    _rounded_rect(alpha, (0, 0, w - 1, h - 1), int(style.corner_radius), 255, -1)
    out = np.dstack([np.clip(img + 0.5, 0, 255).astype(np.uint8), alpha])
    size = (w // OVERSAMPLE, int(round(h / OVERSAMPLE)))
    return cv2.resize(out, size, interpolation=cv2.INTER_AREA)


def _rounded_rect(img: np.ndarray, rect, r: int, value: int, thick: int) -> None:
    x0, y0, x1, y1 = rect
    r = max(1, min(r, (x1 - x0) // 2, (y1 - y0) // 2))
    if thick < 0:
        cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), value, -1)
        cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), value, -1)
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(img, (cx, cy), r, value, -1, cv2.LINE_AA)
        return
    for (a, b) in (((x0 + r, y0), (x1 - r, y0)), ((x0 + r, y1), (x1 - r, y1)), ((x0, y0 + r), (x0, y1 - r)),
                   ((x1, y0 + r), (x1, y1 - r))):
        cv2.line(img, a, b, value, thick, cv2.LINE_AA)
    for (cx, cy), ang in (((x0 + r, y0 + r), 180), ((x1 - r, y0 + r), 270), ((x1 - r, y1 - r), 0), ((x0 + r, y1 - r), 90)):
        cv2.ellipse(img, (cx, cy), (r, r), ang, 0, 90, value, thick, cv2.LINE_AA)


def _court(img: np.ndarray, style: DeckStyle, card: str, box, rng) -> None:
    """A framed picture of random shapes in the deck's palette and/or a big J/Q/K letter, clear of the indices."""
    w, h = style.width, style.height
    cs = style.court
    clear = int(CLEARANCE * w) + cs["frame_thick"]
    fx0 = int(box[2] + clear)
    fy0 = int(max(0.06 * h, min(box[1], 0.12 * h)))
    fx1, fy1 = w - 1 - fx0, h - 1 - fy0
    if fx1 - fx0 < 20 or fy1 - fy0 < 20:
        return
    pic = np.empty((fy1 - fy0, fx1 - fx0, 3), np.float32)
    pic[:] = cs["fill"] if cs["fill"] is not None else style.paper
    ph, pw = pic.shape[:2]
    half = pic[: ph // 2] if cs["mirror"] else pic
    hh = half.shape[0]
    colours = cs["palette"] + [style.colours[suit_of(card)], style.colours["s"]]
    for _ in range(cs["shapes"]):
        col = colours[rng.integers(len(colours))]
        m = np.zeros((hh, pw), np.uint8)
        k = rng.integers(4)
        if k == 0:
            p = rng.integers(0, [pw, hh], 2)
            cv2.circle(m, (int(p[0]), int(p[1])), int(rng.uniform(0.08, 0.35) * pw), 255, -1, cv2.LINE_AA)
        elif k == 1:
            pts = (rng.random((int(rng.integers(3, 7)), 2)) * [pw, hh]).astype(np.int32)
            cv2.fillPoly(m, [pts.reshape(-1, 1, 2)], 255, cv2.LINE_AA)
        elif k == 2:
            y = int(rng.uniform(0, hh))
            cv2.rectangle(m, (0, y), (pw, y + int(rng.uniform(0.03, 0.15) * hh)), 255, -1)
        else:
            p = rng.integers(0, [pw, hh], 2)
            cv2.ellipse(m, (int(p[0]), int(p[1])), (int(rng.uniform(0.1, 0.4) * pw), int(rng.uniform(0.05, 0.3) * hh)),
                        float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
        _blend(half, m, 0, 0, col)
    if cs["mirror"]:
        pic[ph - hh :] = half[::-1, ::-1]
    if cs["letter"] or cs["shapes"] < 5:
        lm = _rank_mask(style, rank_of(card), height=0.3 * ph)
        if lm.shape[1] > 0.8 * pw:
            lm = cv2.resize(lm, (int(0.8 * pw), lm.shape[0]), interpolation=cv2.INTER_AREA)
        _blend(pic, lm, (pw - lm.shape[1]) // 2, (ph - lm.shape[0]) // 2, style.colours[suit_of(card)])
    if cs["pip"]:
        pm = style.pips[suit_of(card)].mask(0.16 * pw)
        _blend(pic, pm, int(0.06 * pw), int(0.05 * ph), style.colours[suit_of(card)])
        _blend(pic, pm[::-1, ::-1], pw - int(0.06 * pw) - pm.shape[1], ph - int(0.05 * ph) - pm.shape[0],
               style.colours[suit_of(card)])
    img[fy0:fy1, fx0:fx1] = pic
    frame = np.zeros((h, w), np.uint8)
    cv2.rectangle(frame, (fx0, fy0), (fx1, fy1), 255, cs["frame_thick"], cv2.LINE_AA)
    _blend(img, frame, 0, 0, cs["frame"])


def draw_deck(rng: np.random.Generator, fonts: list[Path], width: int = RASTER_WIDTH,
              four_colour: bool | None = None) -> tuple[dict[str, np.ndarray], dict]:
    """A whole deck: card name -> BGRA face, and its meta (``index_box`` as fractions of the card, the suit
    colours BGR, a few words on the style)."""
    style = draw_style(rng, fonts, width, four_colour)
    index, box = index_layout(style)
    pad = OVERSAMPLE  # one output pixel round the union of the ink
    box = (max(0, box[0] - pad), max(0, box[1] - pad), box[2] + pad, box[3] + pad)
    style.pip_field = _pip_centres(style, box)  # settles the pip size before any card is drawn
    faces = {card: draw_face(style, card, index, box, rng) for card in CARD_NAMES}
    meta = {
        "index_box": [round(float(box[0]) / style.width, 4), round(float(box[1]) / style.height, 4),
                      round(float(box[2]) / style.width, 4), round(float(box[3]) / style.height, 4)],
        "suit_colours": {s: [round(float(v), 1) for v in style.colours[s]] for s in SUITS},
        "style": {"font": Path(style.font).name if style.font else f"hershey-{style.hershey}",
                  "four_colour": style.four_colour, "border": style.border is not None,
                  "pips": {s: p.source + (f"x{p.stretch:.2f}" if p.stretch != 1 else "") for s, p in style.pips.items()}},
    }
    return faces, meta


def deck_name(seed: int, k: int) -> str:
    return f"proc-s{seed}-{k:03d}"


def write_procedural_decks(count: int, seed: int = 0, cache: Path | None = None, fonts: list[Path] | None = None,
                           progress=None) -> dict[str, dict]:
    """Draw ``count`` decks (deck ``k`` from ``default_rng([seed, PROC_STREAM, k])``), write their faces to
    ``cache/cards/<deck>/<card>.png`` and their entries (``held_out: false``, ``procedural: true``) into
    ``cache/cards/decks.json`` (other entries kept). ``fonts``: rank fonts (default ``artwork.glyph_fonts(cache)``;
    none found: Hershey fonts). Returns the new entries; ``progress(done)`` after each deck."""
    cache = Path(cache) if cache is not None else artwork.CACHE
    if fonts is None:
        fonts = artwork.glyph_fonts(cache) if (cache / "fonts").is_dir() else []
    cards = cache / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    index = cards / "decks.json"
    info = json.loads(index.read_text()) if index.exists() else {}
    cv2.setNumThreads(1)
    made = {}
    for k in range(count):
        name = deck_name(seed, k)
        faces, meta = draw_deck(np.random.default_rng([seed, PROC_STREAM, k]), fonts)
        out = cards / name
        out.mkdir(exist_ok=True)
        for card, face in faces.items():
            cv2.imwrite(str(out / f"{card}.png"), face)
        made[name] = {"index_box": meta["index_box"], "held_out": False, "procedural": True,
                      "suit_colours": meta["suit_colours"], "style": meta["style"]}
        info[name] = made[name]
        tmp = index.with_suffix(".tmp")
        tmp.write_text(json.dumps(info, indent=1))
        tmp.replace(index)
        if progress is not None:
            progress(k + 1)
    return made


def ink_colour_of(face: np.ndarray, box) -> np.ndarray:
    """Median BGR of the strongest ink inside ``box`` (fractions) of a face: what the index is printed in."""
    h, w = face.shape[:2]
    x0, y0, x1, y1 = int(box[0] * w), int(box[1] * h), int(np.ceil(box[2] * w)), int(np.ceil(box[3] * h))
    sub = face[y0:y1, x0:x1, :3].reshape(-1, 3).astype(np.float32)
    cols, counts = np.unique(face[:, :, :3][face[:, :, 3] == 255].reshape(-1, 3) // 8, axis=0, return_counts=True)
    paper = cols[counts.argmax()] * 8.0 + 4  # the commonest colour of the card
    d = np.abs(sub - paper).max(axis=1)
    strong = sub[d >= np.percentile(d, 90)]
    return np.median(strong, axis=0)


__all__ = ["draw_deck", "write_procedural_decks", "index_layout", "draw_style", "DeckStyle", "PIP_LAYOUTS",
           "ink_colour_of"]
