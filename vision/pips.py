"""The pips of a whole card, cut out as shapes: the "pip look" names a card's suit from the big suit symbols in its
middle, which look alike in nearly every deck (unlike the small index, whose typeface varies).

``pip_shapes`` straightens the card in a card box (its paper's outline warped to an upright rectangle), finds the
dark or coloured blobs of its middle, on the card's own paper (a local paper brightness, so shadows and lighting
gradients do not matter), and returns each blob as a 32x32 silhouette (ink 1, paper 0): shape only, no colour, so
a four-colour deck's green clubs look like clubs. Each pip in the card's lower half is turned half round, so that
every pip points away from the card's middle as printed: spades point outwards, hearts inwards. The same function
cuts the training silhouettes (``vision.training.pips``) and the ones read at run time (``Detector.fuse_pips``).
"""
from __future__ import annotations

import numpy as np

PIP_SIZE = 32          # silhouette side in pixels
INNER = 0.94           # the part of the card looked at (its share of the width and height): inside the outline
INDEX_ZONE = (0.2, 0.22)  # a blob centred this near two edges (shares of the card) is the corner index, not a pip
MAX_SIDE = 160         # the middle is shrunk to at most this many pixels on its long side
MIN_SIDE = 20          # a card box whose middle is smaller than this is too small to show its pips
MIN_AREA = 0.003       # a blob covers at least this share of the middle ...
MAX_AREA = 0.2         # ... and at most this share (court pictures, the paper's own edge)
INK_RATIO = 0.62       # ink: darkest channel below this share of the paper's brightness around it
CORE = 1.25            # a blob's core: ink strength (``ink_strength``, unclipped) at least this (darkest channel < 0.525 paper)
MAX_BLOBS = 12         # the largest blobs kept (a 10 has ten pips)
MIN_PIP_PX = 13        # a blob shorter than this (in the picture's pixels) shows no shape worth naming


CARD_W, CARD_H = 100, 140  # a card straightened out (``card_quad``): its middle is cut from this
QUAD_FILL = (0.45, 1.1)    # a found card outline covers this share of its box (else the box itself is used)


def card_quad(image_bgr: np.ndarray, box_xyxy) -> np.ndarray | None:
    """The card's four corners (4, 2) in picture pixels, found as the outline of the bright paper in its box (Otsu
    on the grey box, the largest bright blob, its hull simplified to four corners), long sides first-to-second and
    third-to-fourth; None when no card-like outline is found (a white table, a card half under another)."""
    import cv2

    h, w = image_bgr.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box_xyxy)
    mx, my = 0.04 * (x1 - x0), 0.04 * (y1 - y0)
    a, b = int(max(0, x0 - mx)), int(max(0, y0 - my))
    c, d = int(min(w, x1 + mx + 1)), int(min(h, y1 + my + 1))
    if min(c - a, d - b) < MIN_SIDE:
        return None
    grey = cv2.cvtColor(image_bgr[b:d, a:c], cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr[b:d, a:c]
    _t, bright = cv2.threshold(cv2.GaussianBlur(grey, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))  # pips inside the paper
    contours, _h = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    area = cv2.contourArea(hull)
    if not (QUAD_FILL[0] <= area / ((x1 - x0) * (y1 - y0)) <= QUAD_FILL[1]):
        return None
    quad = None
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
    if quad is None:  # rounded corners or a cut-off corner: the smallest rotated rectangle around the paper
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    quad += np.array([a, b], np.float32)
    if np.linalg.norm(quad[1] - quad[0]) < np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)  # start with a long side
    return quad


SQUARE = 1.2  # an outline whose sides differ less than this is foreshortened too much to tell its long side


def straightened_middles(image_bgr: np.ndarray, box_xyxy, inner: float = INNER) -> list[tuple[np.ndarray, float]]:
    """The middle ``inner`` share of the card straightened to ``CARD_W`` x ``CARD_H`` (upright or upside down), and
    how many of its pixels one picture pixel makes: one reading, or two (either side taken as the long one) when
    the outline is nearly square (a card seen at a slant); the axis-aligned box's middle when no outline is found;
    [] when the card is too small."""
    import cv2

    quad = card_quad(image_bgr, box_xyxy)
    if quad is None:
        patch = card_middle(image_bgr, box_xyxy, inner)
        if patch is None:
            return []
        x0, y0, x1, y1 = (float(v) for v in box_xyxy)
        return [(patch, max(patch.shape[:2]) / (inner * max(x1 - x0, y1 - y0)))]
    sides = [float(np.linalg.norm(quad[(k + 1) % 4] - quad[k])) for k in range(4)]
    long_side, short_side = max(sides[0], sides[2]), max(sides[1], sides[3])
    if long_side < MIN_SIDE / inner:
        return []
    # quad[0] -> quad[1] (a long side) becomes the card's left edge, top to bottom
    mw, mh = CARD_W * (1 - inner) / 2, CARD_H * (1 - inner) / 2
    target = np.array([[-mw, -mh], [-mw, CARD_H * inner + mh], [CARD_W * inner + mw, CARD_H * inner + mh],
                       [CARD_W * inner + mw, -mh]], np.float32)
    size = (int(round(CARD_W * inner)), int(round(CARD_H * inner)))
    turns = (0, 1) if long_side < SQUARE * short_side else (0,)
    out = []
    for k in turns:
        q = np.roll(quad, -k, axis=0)
        m = cv2.getPerspectiveTransform(q, target)
        side = max(sides[k], sides[k + 2])
        out.append((cv2.warpPerspective(image_bgr, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                    CARD_H / side))
    return out


def card_middle(image_bgr: np.ndarray, box_xyxy, inner: float = INNER) -> np.ndarray | None:
    """The middle ``inner`` share of an axis-aligned card box, shrunk to at most ``MAX_SIDE`` px; None when too small."""
    import cv2

    h, w = image_bgr.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box_xyxy)
    cx, cy, bw, bh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * inner, (y1 - y0) * inner
    a, b = int(round(max(0.0, cx - bw / 2))), int(round(max(0.0, cy - bh / 2)))
    c, d = int(round(min(float(w), cx + bw / 2))), int(round(min(float(h), cy + bh / 2)))
    if min(c - a, d - b) < MIN_SIDE:
        return None
    patch = image_bgr[b:d, a:c]
    scale = MAX_SIDE / max(patch.shape[:2])
    if scale < 1:
        patch = cv2.resize(patch, (max(1, round(patch.shape[1] * scale)), max(1, round(patch.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
    return patch


def ink_strength(patch_bgr: np.ndarray) -> np.ndarray:
    """How much ink each pixel holds, 0..1: how far its darkest channel falls below the paper brightness around it
    (the darkest channel's local maximum over a window wider than a pip), so red, black, green and blue all count
    and a shadow or a lighting gradient does not; 1 at ``1 - INK_RATIO`` below the paper, up to 2 (the silhouettes clip it to 1)."""
    import cv2

    m = patch_bgr.min(axis=2) if patch_bgr.ndim == 3 else patch_bgr
    m = m.astype(np.float32)
    k = max(3, int(0.5 * min(m.shape)) | 1)
    paper = cv2.dilate(m, np.ones((k, k), np.uint8))  # a square window: separable, ~10x faster than a disc
    dark = (paper - m) / np.maximum(paper, 1.0)
    return np.clip(dark / (1.0 - INK_RATIO), 0.0, 2.0) * (paper - m > 30)


def pip_shapes(image_bgr: np.ndarray, box_xyxy, inner: float = INNER) -> list[np.ndarray]:
    """For each reading of the card (``straightened_middles``: one, or two for a card seen at a slant), the
    ``(k, 32, 32)`` float32 silhouettes (0..1) of the pip-sized blobs in its middle, largest first (at most
    ``MAX_BLOBS``); blobs touching the middle's edge (the index, the card's edge, the table) are left out."""
    return [middle_shapes(patch, MIN_PIP_PX * scale) for patch, scale in straightened_middles(image_bgr, box_xyxy, inner)]


def middle_shapes(patch: np.ndarray, min_px: float) -> np.ndarray:
    """The pip silhouettes of one card middle (blobs at least ``min_px`` long, in the middle's pixels)."""
    import cv2

    out = np.zeros((0, PIP_SIZE, PIP_SIZE), np.float32)
    strength = ink_strength(patch)
    # blobs from the ink's core, thinned by a pixel: pips printed close together (a 10) stay apart
    ink = cv2.erode((strength >= CORE).astype(np.uint8), np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    ph, pw = ink.shape
    area_all = float(ph * pw)
    keep = []
    zx, zy = (INDEX_ZONE[0] - (1 - INNER) / 2) / INNER * pw, (INDEX_ZONE[1] - (1 - INNER) / 2) / INNER * ph
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        cx, cy = x + w / 2, y + h / 2
        if min(cx, pw - cx) < zx and min(cy, ph - cy) < zy:  # the rank and suit printed in a corner
            continue
        if x <= 1 or y <= 1 or x + w >= pw - 1 or y + h >= ph - 1:  # (the thinning took the pixel at the edge)
            continue
        if not (MIN_AREA * area_all <= a <= MAX_AREA * area_all) or max(w, h) + 2 < min_px or max(w, h) > 3 * min(w, h):
            continue
        keep.append((a, i, x, y, w, h))
    keep.sort(reverse=True)
    shapes = []
    for a, i, x, y, w, h in keep[:MAX_BLOBS]:
        side = int(np.ceil(1.2 * max(w, h))) + 6
        # the blob's own pixels, what the thinning took and its anti-aliased rim (two pixels around it), as ink
        # strength: a small pip keeps the shape its edge pixels show; other blobs in the square are left out
        x0, y0 = max(0, x - 2), max(0, y - 2)
        x1, y1 = min(pw, x + w + 2), min(ph, y + h + 2)
        own = cv2.dilate((labels[y0:y1, x0:x1] == i).astype(np.uint8), np.ones((5, 5), np.uint8))
        sq = np.zeros((side, side), np.float32)
        ox, oy = (side - w) // 2 - (x - x0), (side - h) // 2 - (y - y0)
        sq[oy:oy + y1 - y0, ox:ox + x1 - x0] = np.minimum(strength[y0:y1, x0:x1], 1.0) * own
        if 2 * y + h > ph:  # a pip in the lower half is printed upside down: turned, every pip points outwards-up
            sq = sq[::-1, ::-1]
        interp = cv2.INTER_AREA if side > PIP_SIZE else cv2.INTER_LINEAR
        shapes.append(cv2.resize(np.ascontiguousarray(sq), (PIP_SIZE, PIP_SIZE), interpolation=interp))
    return np.stack(shapes).astype(np.float32) if shapes else out


def card_suit_evidence(p: np.ndarray, suits: int = 4) -> tuple[np.ndarray, float]:
    """One card's suit evidence from its blobs' probabilities ``p`` (k, 4 suits [+ none]): the blobs' suit shares
    averaged with weights 1 - P(none), and the summed weight (how many blobs looked like pips). (uniform, 0) if none."""
    if not len(p):
        return np.full(suits, 1.0 / suits, np.float32), 0.0
    p = np.asarray(p, np.float32)
    w = 1.0 - p[:, suits] if p.shape[1] > suits else np.ones(len(p), np.float32)
    s = p[:, :suits] / np.maximum(p[:, :suits].sum(axis=1, keepdims=True), 1e-12)
    total = float(w.sum())
    if total <= 1e-6:
        return np.full(suits, 1.0 / suits, np.float32), 0.0
    return (w[:, None] * s).sum(axis=0) / total, total
