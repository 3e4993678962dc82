"""Synthetic printed corner indices (rank above a suit pip) for the crop classifier: many fonts, drawn pips.

The scene crops (``vision.training.synth``) come from ~22 deck designs only, so the classifier learns those decks' fonts
and pips. ``render_index_crop`` draws one corner index the way cards print it, in any font given and with a
procedurally drawn suit pip (or the font's own filled suit glyph U+2660/2665/2666/2663), and cuts it exactly like
a training crop: the index box is the tight box around the rank + pip ink, the crop a square centred on it
(centre jittered by +-8 % of the side), side 1.1-1.6x max(box w, box h) (``vision.training.scenes.crop_index`` with the
jitter of ``vision.training.synth``). Upright: the classifier's training adds the quarter turns and rotations.

Pure: numpy, cv2 and PIL (``ImageFont`` for TrueType/OpenType text); everything random comes from the numpy
Generator passed in, so the same seed gives the same pixels. Drawn at 4x and shrunk with ``cv2.INTER_AREA``.
PIL is only needed here (a training-time tool), not by the player's runtime.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.card_names import RED_SUITS, rank_of, suit_of
from vision.training.scenes import crop_transform

SUIT_CHARS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}  # the filled (black) suit glyphs
# The court letters other languages' decks print (French suits): German Bube/Dame/Koenig, Dutch boer/vrouw/heer,
# French valet/dame/roi. "V" is the Dutch queen but the French jack: one reader cannot serve both by the letter.
COURT_LETTERS = {
    "en": {},
    "de": {"J": "B", "Q": "D"},
    "nl": {"J": "B", "Q": "V", "K": "H"},
    "fr": {"J": "V", "Q": "D", "K": "R"},
}
# Typefaces kept out of any training on drawn indices, whole lineages (a clone of a held-out face is held out too),
# so that ``patience bench typefaces`` measures faces never seen: matched as prefixes of the font file's name.
HELD_OUT_TYPEFACES = ("p052", "texgyrepagella", "c059", "texgyreschola", "dejavu", "cantarell", "comicneue",
                      "oldstandard", "gfsdidot", "cabin")
FONT_PX = 128  # glyphs are rendered at this font size, then scaled
OVERSAMPLE = 4  # drawing resolution against the output crop


# ---------------------------------------------------------------------------------------------------------------
# Fonts
# ---------------------------------------------------------------------------------------------------------------


def typeface_split(fonts: list[Path]) -> tuple[list[Path], list[Path]]:
    """(fonts to train on, held-out fonts) by :data:`HELD_OUT_TYPEFACES`."""
    held = [f for f in fonts if Path(f).stem.lower().startswith(HELD_OUT_TYPEFACES)]
    return [f for f in fonts if f not in held], held


@lru_cache(maxsize=None)
def _font(path: str):
    from PIL import ImageFont

    return ImageFont.truetype(path, FONT_PX)


def _text_mask(path: str, text: str, stroke: int = 0) -> np.ndarray:
    """uint8 mask of ``text`` in the font, cropped to its ink (may be 0x0 when the font draws nothing)."""
    from PIL import Image, ImageDraw

    font = _font(path)
    x0, y0, x1, y1 = font.getbbox(text, stroke_width=stroke)
    pad = 4 + stroke
    w, h = max(1, x1 - x0 + 2 * pad), max(1, y1 - y0 + 2 * pad)
    im = Image.new("L", (w, h), 0)
    ImageDraw.Draw(im).text((pad - x0, pad - y0), text, fill=255, font=font, stroke_width=stroke, stroke_fill=255)
    return _crop_ink(np.asarray(im))


def _crop_ink(mask: np.ndarray, thresh: int = 1) -> np.ndarray:
    ys, xs = np.nonzero(mask >= thresh)
    if len(xs) == 0:
        return mask[:0, :0]
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(a, b)


@lru_cache(maxsize=None)
def _notdef(path: str) -> np.ndarray:
    return _text_mask(path, "\U0010fffd")  # a private-use code point no font here draws: its .notdef box (or nothing)


def _has_glyph(path: str, ch: str) -> bool:
    m = _text_mask(path, ch)
    return m.size > 0 and int((m > 127).sum()) > 20 and not _same(m, _notdef(path))


def font_renders_ranks(path: Path) -> bool:
    """True when the font draws "A", "10", "Q" (and the other rank characters) with ink that is not its .notdef box.
    Symbol/dingbat fonts either lack these or map them to other shapes; the file-name filter of
    ``vision.training.artwork.glyph_fonts`` catches the latter."""
    try:
        _font(str(path))
    except OSError:
        return False
    return all(_has_glyph(str(path), t) for t in ("A", "10", "Q", "K", "J", "2", "5", "6", "8", "9"))


def _filled(mask: np.ndarray) -> bool:
    """A solid glyph: its ink covers most of its own outline (an outline-only suit glyph has a white hole)."""
    b = np.pad((mask > 127).astype(np.uint8), 2)
    if b.sum() < 50:
        return False
    flood = b.copy()
    cv2.floodFill(flood, None, (0, 0), 2)
    inside = (flood != 2).sum()  # ink + enclosed holes
    return b.sum() / max(1, inside) > 0.9


@lru_cache(maxsize=None)
def suit_glyphs(path: str) -> frozenset:
    """Suit letters whose filled glyph (U+2660 ♠, 2665 ♥, 2666 ♦, 2663 ♣) the font draws as a solid shape."""
    out = set()
    for s, ch in SUIT_CHARS.items():
        if _has_glyph(path, ch) and _filled(_text_mask(path, ch)):
            out.add(s)
    return frozenset(out)


@lru_cache(maxsize=None)
def _digit_aspect(path: str) -> float:
    m = _text_mask(path, "8")
    return m.shape[1] / max(1, m.shape[0])


# ---------------------------------------------------------------------------------------------------------------
# Procedural suit pips: unit shapes (width 1) drawn with cv2 at the pixel width asked for
# ---------------------------------------------------------------------------------------------------------------


def _bezier(p0, c, p1, n: int = 14) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 2 * np.asarray(p0) + 2 * (1 - t) * t * np.asarray(c) + t**2 * np.asarray(p1)


def _tangent(centre, r, point, side: int):
    """Point where a line from ``point`` touches the circle (centre, r), on the outer side (``side`` -1 left, +1 right)."""
    d = np.asarray(point, float) - centre
    dist = np.hypot(*d)
    if dist <= r:
        return centre + np.array([side * r, 0.0])
    phi, a = np.arctan2(d[1], d[0]), np.arccos(r / dist)
    cands = [centre + r * np.array([np.cos(phi + s * a), np.sin(phi + s * a)]) for s in (1, -1)]
    return max(cands, key=lambda q: side * q[0])


def _heart_shape(rng):
    """Circles + polygons of a heart, width 1 (x in -0.5..0.5), lobe centres on y = 0, point down at y = tip."""
    r = rng.uniform(0.24, 0.3)
    a = 0.5 - r
    tip = np.array([0.0, rng.uniform(0.5, 0.85)])
    cl, cr = np.array([-a, 0.0]), np.array([a, 0.0])
    if rng.random() < 0.5:  # straight sides from the lobes' tangents
        left = np.array([_tangent(cl, r, tip, -1), tip])
    else:  # curved sides
        c = rng.uniform(0.3, 0.75)
        left = _bezier((-0.5, 0.0), (-0.5 + rng.uniform(0.0, 0.12), tip[1] * c), tip)
    right = left[::-1] * np.array([-1.0, 1.0])
    poly = np.vstack([left, right, [cr, cl]])
    return [(cl, r), (cr, r)], [poly]


def _stem(rng, top_y: float, foot_y: float):
    w0, w1 = rng.uniform(0.03, 0.09), rng.uniform(0.16, 0.42)
    if rng.random() < 0.5:
        side = np.array([[w0, top_y], [w1, foot_y]])
    else:  # concave, flared foot
        side = _bezier((w0, top_y), (w0 * 0.8, foot_y - (foot_y - top_y) * rng.uniform(0.0, 0.3)), (w1, foot_y), 10)
    return np.vstack([side, (side * np.array([-1.0, 1.0]))[::-1]])


def _spade_shape(rng):
    circles, polys = _heart_shape(rng)
    circles = [(c * np.array([1.0, -1.0]), r) for c, r in circles]
    polys = [p * np.array([1.0, -1.0]) for p in polys]
    r = circles[0][1]
    polys.append(_stem(rng, 0.0, r + rng.uniform(0.12, 0.35)))
    return circles, polys


def _club_shape(rng):
    r = rng.uniform(0.17, 0.25)
    d = r * rng.uniform(0.95, 1.35)
    s60, c60 = np.sin(np.pi / 3), np.cos(np.pi / 3)
    circles = [(np.array([0.0, -d]), r), (np.array([-d * s60, d * c60]), r), (np.array([d * s60, d * c60]), r)]
    circles.append((np.array([0.0, 0.0]), d * rng.uniform(0.45, 0.7)))  # fills the middle
    stem = _stem(rng, 0.0, d * c60 + r + rng.uniform(0.05, 0.3))
    return circles, [stem]


def _diamond_shape(rng):
    h = 0.5 * rng.uniform(1.15, 1.6)
    pts = [np.array(p) for p in ((0.0, -h), (0.5, 0.0), (0.0, h), (-0.5, 0.0))]
    conc = rng.uniform(0.0, 0.22) if rng.random() < 0.4 else 0.0
    edges = []
    for i in range(4):
        p0, p1 = pts[i], pts[(i + 1) % 4]
        mid = (p0 + p1) / 2 * (1 - conc)
        edges.append(_bezier(p0, mid, p1, 10)[:-1])
    return [], [np.vstack(edges)]


_SHAPES = {"h": _heart_shape, "s": _spade_shape, "c": _club_shape, "d": _diamond_shape}


def draw_pip(suit: str, rng: np.random.Generator, width: float) -> np.ndarray:
    """uint8 mask of a procedurally drawn suit pip about ``width`` pixels wide, cropped to its ink."""
    circles, polys = _SHAPES[suit](rng)
    return draw_shape(circles, polys, width)


def draw_shape(circles, polys, width: float) -> np.ndarray:
    """uint8 mask of a unit shape (filled circles ``(centre, r)`` + filled polygons) drawn ``width`` pixels wide,
    anti-aliased, cropped to its ink (shared with ``vision.training.procedural_decks``' pip variants)."""
    pts = np.vstack([np.vstack(polys)] + [np.array([c - r, c + r]) for c, r in circles])
    lo, hi = pts.min(0), pts.max(0)
    scale = width / (hi[0] - lo[0])
    size = np.ceil((hi - lo) * scale).astype(int) + 6
    m = np.zeros((size[1], size[0]), np.uint8)
    sh = 4  # cv2 fixed-point bits

    def px(p):
        return np.round(((np.asarray(p) - lo) * scale + 3) * (1 << sh)).astype(np.int32)

    for c, r in circles:
        cv2.circle(m, tuple(int(v) for v in px(c)), int(round(r * scale * (1 << sh))), 255, -1, cv2.LINE_AA, sh)
    cv2.fillPoly(m, [px(p).reshape(-1, 1, 2) for p in polys], 255, cv2.LINE_AA, sh)
    return _crop_ink(m)


# ---------------------------------------------------------------------------------------------------------------
# Colours and paper
# ---------------------------------------------------------------------------------------------------------------


def _ink_colour(suit: str, rng) -> np.ndarray:
    """BGR ink: reds for hearts/diamonds, black-ish for spades/clubs."""
    u = rng.random()
    if suit in RED_SUITS:
        if u < 0.7:  # printing reds
            return np.array([rng.uniform(0, 60), rng.uniform(0, 45), rng.uniform(170, 235)])
        if u < 0.85:  # dark red
            return np.array([rng.uniform(10, 50), rng.uniform(0, 30), rng.uniform(110, 170)])
        if u < 0.95:  # orange-red
            return np.array([rng.uniform(0, 40), rng.uniform(45, 95), rng.uniform(200, 245)])
        return np.array([rng.uniform(80, 150), rng.uniform(10, 60), rng.uniform(190, 240)])  # pink / magenta-ish
    if u < 0.75:
        return np.full(3, rng.uniform(0, 35)) + rng.uniform(-5, 5, 3)
    if u < 0.9:
        return np.full(3, rng.uniform(40, 85))  # dark grey
    return np.array([rng.uniform(60, 110), rng.uniform(15, 50), rng.uniform(5, 35)])  # dark blue


def _paper(rng, n: int) -> np.ndarray:
    u = rng.random()
    if u < 0.55:
        base = np.full(3, rng.uniform(235, 255))
    elif u < 0.8:  # cream
        base = np.array([rng.uniform(200, 235), rng.uniform(230, 250), rng.uniform(240, 255)])
    else:  # slightly grey
        base = np.full(3, rng.uniform(200, 235)) + rng.uniform(-6, 6, 3)
    small = rng.random((3, 3)).astype(np.float32)
    shade = 1 + rng.uniform(0, 0.06) * (cv2.resize(small, (n, n), interpolation=cv2.INTER_LINEAR) - 0.5)
    return np.clip(base.astype(np.float32)[None, None, :] * shade[:, :, None], 0, 255)


def _table(rng, n: int) -> np.ndarray:
    base = rng.uniform(0, 255, 3) * rng.uniform(0.3, 1.0)
    small = rng.random((4, 4)).astype(np.float32)
    shade = 0.85 + 0.3 * cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC)
    return np.clip(base.astype(np.float32)[None, None, :] * shade[:, :, None], 0, 255)


# ---------------------------------------------------------------------------------------------------------------
# The index and its crop
# ---------------------------------------------------------------------------------------------------------------


def _rank_mask(rank: str, font: str, rng, height: float, condense: float, stroke: int) -> np.ndarray:
    if rank == "10" and rng.random() < 0.1:  # "1" and "0" set tight, possibly touching
        one, zero = _text_mask(font, "1", stroke), _text_mask(font, "0", stroke)
        h = max(one.shape[0], zero.shape[0])
        gap = int(round(rng.uniform(-0.06, 0.04) * h))
        w = one.shape[1] + zero.shape[1] + gap
        m = np.zeros((h, max(w, one.shape[1], zero.shape[1])), np.uint8)
        m[h - one.shape[0] :, : one.shape[1]] = one
        x = max(0, one.shape[1] + gap)
        m[h - zero.shape[0] :, x : x + zero.shape[1]] = np.maximum(m[h - zero.shape[0] :, x : x + zero.shape[1]], zero)
    else:
        m = _text_mask(font, rank, stroke)
    s = height / m.shape[0]
    w = max(2, int(round(m.shape[1] * s * condense)))
    return cv2.resize(m, (w, max(2, int(round(height)))), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def _pip_mask(suit: str, rng, fonts: list[Path], font: str, width: float) -> np.ndarray:
    glyph_font = None
    if rng.random() < 0.4:
        if suit in suit_glyphs(font):
            glyph_font = font
        else:
            others = [str(f) for f in fonts if suit in suit_glyphs(str(f))]
            if others:
                glyph_font = others[rng.integers(len(others))]
    if glyph_font is None:
        return draw_pip(suit, rng, width)
    m = _text_mask(glyph_font, SUIT_CHARS[suit])
    s = width / m.shape[1]
    h = max(2, int(round(m.shape[0] * s * rng.uniform(0.9, 1.1))))
    return cv2.resize(m, (max(2, int(round(width))), h), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def _paste(canvas: np.ndarray, m: np.ndarray, x: int, y: int) -> None:
    h, w = m.shape
    canvas[y : y + h, x : x + w] = np.maximum(canvas[y : y + h, x : x + w], m)


def index_mask(card: str, rng: np.random.Generator, fonts: list[Path], rank_height: float,
               letters: dict[str, str] | None = None, pip: bool = True) -> np.ndarray:
    """uint8 ink mask (0..255) of one printed corner index, upright, cropped to its ink: the rank above (rarely
    beside) a suit pip, in a random font of ``fonts``, with random proportions, weight and a little shear.
    ``letters``: the rank printed another way (e.g. ``COURT_LETTERS["de"]``: a jack printed "B"); ``pip=False``:
    the text alone (a drawing that is no index; the same draws of ``rng``)."""
    rank, suit = rank_of(card), suit_of(card)
    font = str(fonts[rng.integers(len(fonts))])
    condense = rng.uniform(0.75, 1.1) if rng.random() < 0.35 else 1.0
    if rank == "10" and rng.random() < 0.4:
        condense *= rng.uniform(0.6, 0.85)
    stroke = int(round(rng.uniform(1, 0.05 * FONT_PX))) if rng.random() < 0.3 else 0
    rm = _rank_mask((letters or {}).get(rank, rank), font, rng, rank_height, condense, stroke)
    if rng.random() < 0.1:  # thinner strokes
        k = max(1, int(rank_height * 0.03))
        thin = cv2.erode(rm, np.ones((k, k), np.uint8))
        rm = thin if (thin > 127).sum() > 0.4 * (rm > 127).sum() else rm
    char_w = _digit_aspect(font) * rank_height * condense  # one character's width: pips scale with it, not with "10"
    pm = _pip_mask(suit, rng, fonts, font, max(3.0, rng.uniform(0.5, 0.95) * char_w))
    if not pip:
        pm = np.zeros_like(pm)
    rh, rw = rm.shape
    ph, pw = pm.shape
    if rng.random() < 0.06:  # pip to the right of the rank
        gap = int(rng.uniform(0.03, 0.2) * rank_height)
        py = rh - ph if rng.random() < 0.5 else (rh - ph) // 2
        top = max(0, -py)
        canvas = np.zeros((max(rh, py + ph) + top, rw + gap + pw), np.uint8)
        _paste(canvas, rm, 0, top)
        _paste(canvas, pm, rw + gap, py + top)
    else:
        gap = int(rng.uniform(0.03, 0.35) * rank_height)
        w = max(rw, pw)
        canvas = np.zeros((rh + gap + ph, w), np.uint8)
        if rng.random() < 0.7:  # pip centred under the rank
            _paste(canvas, rm, (w - rw) // 2, 0)
            _paste(canvas, pm, (w - pw) // 2, rh + gap)
        else:  # left-aligned
            _paste(canvas, rm, 0, 0)
            _paste(canvas, pm, 0, rh + gap)
    if rng.random() < 0.25:  # italic-like shear (top to the right)
        sh = rng.uniform(-0.06, 0.2)
        h, w = canvas.shape
        extra = int(abs(sh) * h) + 2
        m = np.array([[1, -sh, (sh * h if sh > 0 else 0) + 1], [0, 1, 0]], np.float32)
        canvas = cv2.warpAffine(canvas, m, (w + extra, h), flags=cv2.INTER_LINEAR)
    return _crop_ink(canvas, 64)


def render_index_crop(card: str, rng: np.random.Generator, fonts: list[Path], size: int = 64, plain: bool = False,
                      letters: dict[str, str] | None = None, pip: bool = True) -> np.ndarray:
    """One synthetic training crop (uint8 BGR ``size`` x ``size``) of ``card``'s printed corner index, framed like
    ``vision.training.scenes.crop_index`` with the training jitter: a square centred on the tight ink box of rank + pip,
    centre shifted by up to +-8 % of the side, side 1.1-1.6x the box's longer side. Upright.

    Around it: card paper (white, cream or light grey, faint shading and noise) and, now and then, the card's edge
    with the table beyond, a printed frame line or a neighbouring pip entering at a crop edge, and mild blur / low
    resolution / colour cast. ``plain=True`` leaves those out (paper and ink only: what the tests measure).
    ``letters``: courts printed with another language's letters (:data:`COURT_LETTERS`); the same ``rng`` draws
    the same font, size and framing whatever the letters. ``pip=False``: no suit pip (see :func:`index_mask`).

    Shapes are drawn at ``OVERSAMPLE`` x and their coverage shrunk with ``cv2.INTER_AREA``; the smooth colours
    (paper, table) are composed at the output size, which gives the same picture for a fraction of the work."""
    if not fonts:
        raise ValueError("no fonts to render the rank with")
    n = size * OVERSAMPLE
    # A rank about a third of the crop high keeps the drawing near OVERSAMPLE x the output.
    ink = index_mask(card, rng, fonts, rank_height=n * rng.uniform(0.3, 0.38), letters=letters, pip=pip)
    bh, bw = ink.shape
    m, s = crop_transform((0, 0, bw, bh), n, jitter=(rng, 0.08, 1.1, 1.6))  # the scene crops' framing and jitter
    alpha = cv2.warpAffine(ink, m, (n, n), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    suit = suit_of(card)
    colour = _ink_colour(suit, rng)
    # Index box corners in crop pixels (things around are placed relative to the index).
    x0, y0 = float(m[0, 2]), float(m[1, 2])
    x1, y1 = x0 + s * bw, y0 + s * bh
    layers = []  # (coverage at n x n, uint8; colour BGR or an image at size x size), painted over the paper in order
    if not plain and rng.random() < 0.2:  # a neighbouring pip (or a court picture's frame) at the right/bottom
        if rng.random() < 0.6:
            big = draw_pip(suit, rng, s * bw * rng.uniform(0.9, 1.6))
            px = int(x1 + rng.uniform(0.15, 0.5) * s * bw) if rng.random() < 0.5 else int(rng.uniform(x0, x1))
            py = int(y1 + rng.uniform(0.1, 0.4) * s * bh) if px < x1 else int(rng.uniform(y0, y1))
            hh, ww = min(big.shape[0], n - py), min(big.shape[1], n - px)
            if hh > 0 and ww > 0 and px >= 0 and py >= 0:
                a = alpha[py : py + hh, px : px + ww]
                np.maximum(a, big[:hh, :ww], out=a)
        else:
            frame = np.zeros((n, n), np.uint8)
            fx, fy = int(x1 + rng.uniform(0.1, 0.4) * s * bw), int(y0 + rng.uniform(-0.3, 0.4) * s * bh)
            cv2.rectangle(frame, (fx, fy), (n + 50, n + 50), 255, max(2, int(rng.uniform(0.005, 0.03) * n)), cv2.LINE_AA)
            layers.append((frame, rng.uniform(0, 220, 3)))
    layers.insert(0, (alpha, colour))
    if not plain and rng.random() < 0.45:  # the card's edge (top and/or left of an upright index), table beyond
        ex = x0 - rng.uniform(0.1, 0.8) * s * bw
        ey = y0 - rng.uniform(0.05, 0.6) * s * bh
        table = np.zeros((n, n), np.uint8)
        table[:, : max(0, int(ex))] = 255
        table[: max(0, int(ey)), :] = 255
        r = int(rng.uniform(0.05, 0.6) * s * bw)
        if r > 2 and ex > 0 and ey > 0:  # rounded corner
            corner = np.zeros((n, n), np.uint8)
            cv2.rectangle(corner, (int(ex), int(ey)), (int(ex) + r, int(ey) + r), 255, -1)
            cv2.circle(corner, (int(ex) + r, int(ey) + r), r, 0, -1, cv2.LINE_AA)
            table = np.maximum(table, corner)
        layers.append((table, _table(rng, size)))
    elif not plain and rng.random() < 0.08:  # a printed frame line around the face
        line = np.zeros((n, n), np.uint8)
        lx, ly = int(x0 - rng.uniform(0.05, 0.4) * s * bw), int(y0 - rng.uniform(0.05, 0.4) * s * bh)
        cv2.rectangle(line, (lx, ly), (n + 50, n + 50), 255, max(1, int(rng.uniform(0.004, 0.015) * n)), cv2.LINE_AA)
        layers.append((line, colour if rng.random() < 0.6 else rng.uniform(0, 200, 3)))
    out = _paper(rng, size)
    for cover, paint in layers:
        a = cv2.resize(cover, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)[:, :, None] / 255
        out = out * (1 - a) + np.asarray(paint, np.float32) * a
    if not plain and len(layers) > 1 and rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.8))
    out += rng.normal(0, rng.uniform(0.5, 4.0), out.shape).astype(np.float32)
    if not plain:
        if rng.random() < 0.5:  # white balance / exposure
            out *= (rng.uniform(0.9, 1.06, 3) * rng.uniform(0.8, 1.1)).astype(np.float32)[None, None, :]
        if rng.random() < 0.4:  # seen smaller than it is stored
            k = int(rng.integers(max(8, size // 4), size))
            small = cv2.resize(np.clip(out, 0, 255), (k, k), interpolation=cv2.INTER_AREA)
            out = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
        elif rng.random() < 0.3:
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.2))
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


GLYPH_STREAM = 2  # seed stream of the glyph crops (the scenes' splits use 0 and 1)


def write_glyph_crops(out: Path, count: int, fonts: list[Path], seed: int = 0, progress=None) -> int:
    """Write ``count`` crops to ``out/<card>/gNNNNNN.png``: crop ``j`` is card ``CARD_NAMES[j % 52]`` drawn with
    ``default_rng([seed, GLYPH_STREAM, j])``, so a rerun skips what exists and redraws the same pictures. Returns
    how many were written; ``progress(done)`` is called as it goes."""
    from vision.card_names import CARD_NAMES

    cv2.setNumThreads(1)
    for name in CARD_NAMES:
        (out / name).mkdir(parents=True, exist_ok=True)
    made = 0
    for j in range(count):
        name = CARD_NAMES[j % len(CARD_NAMES)]
        path = out / name / f"g{j:06d}.png"
        if not path.exists():
            crop = render_index_crop(name, np.random.default_rng([seed, GLYPH_STREAM, j]), fonts)
            tmp = path.with_suffix(".tmp")  # not *.png: an interrupted write is never read as a crop
            tmp.write_bytes(cv2.imencode(".png", crop)[1].tobytes())
            tmp.replace(path)
            made += 1
        if progress is not None:
            progress(j + 1)
    return made
