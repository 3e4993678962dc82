"""Synthetic table scenes for training: real card artwork laid out the way people play, seen by a webcam.

``render_scene(faces, rng, ...)`` returns the picture and its labels. Everything random comes from the ``rng``
passed in (numpy Generator), so a seed reproduces a picture exactly.

Layouts (the ones the assistant must read):

- ``tommy``  Sir Tommy: a foundation row (some slots empty), four waste piles fanned downwards so only the top
  strip (with the index) of each covered card shows, the stock face down and the freshly turned card;
- ``poker``  a 5x5 Poker Patience grid with gaps;
- ``loose``  loose, overlapping cards at any angle;
- ``closeup`` one to three cards close to the camera.

Then a random camera: perspective tilt, any rotation (upside down, sideways), scale from far to near; and
photometric damage: lighting gradient, glare, shadows, blur, noise, white balance, JPEG.

Labels (class ids of the YOLO dataset): ``0 index`` = a printed corner index (rank + suit, both corners of every
card, each labelled when at least ``min_visible`` of it is uncovered and inside the picture); ``1 card`` = a whole
card face that is (nearly) fully visible. Each index label also carries the card, the corner and the four corner
points of the index in the picture (``IndexLabel.quad``), from which the crop classifier's training crops are cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.training.recipes import load_recipe

CLASS_NAMES = ("index", "card")
# The scene mix is a recipe file (``datasets/scene_mix.json``). Layouts in EXTRA_LAYOUTS are rendered only when
# asked for (``render_scene(layout=...)``, ``patience dataset build --layout``), so the default mix, and every
# seeded scene of the committed datasets, stays as it was.
_MIX = load_recipe("scene_mix.json")
LAYOUTS: tuple[str, ...] = tuple(_MIX["layouts"])
LAYOUT_WEIGHTS: tuple[float, ...] = tuple(_MIX["layouts"].values())
EXTRA_LAYOUTS: tuple[str, ...] = tuple(_MIX["extra_layouts"])


@dataclass
class Face:
    """A card face: BGRA image (transparent outside the rounded rectangle), its name and index box."""

    name: str  # "Qh", "10s"
    image: np.ndarray
    index_box: tuple[float, float, float, float]  # top-left index (x0, y0, x1, y1) as fractions of the card
    deck: str = ""

    def index_quads(self) -> list[np.ndarray]:
        """The two index boxes (top-left, bottom-right) as 4x2 face-pixel points, clockwise from the index's own
        top-left, so point 0 is always the index's upper-left when the index is read upright."""
        h, w = self.image.shape[:2]
        x0, y0, x1, y1 = self.index_box
        tl = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]], np.float32)
        br = np.array([[w - p[0], h - p[1]] for p in tl], np.float32)  # rotated by 180 degrees
        return [tl, br]


@dataclass
class IndexLabel:
    card: str
    corner: int  # 0 top-left, 1 bottom-right
    quad: np.ndarray  # 4x2 picture points, point 0 = the index's upper-left when upright
    visible: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        return (
            float(self.quad[:, 0].min()),
            float(self.quad[:, 1].min()),
            float(self.quad[:, 0].max()),
            float(self.quad[:, 1].max()),
        )


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    layout: str
    indices: list[IndexLabel] = field(default_factory=list)
    cards: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)  # fully visible faces

    def yolo_lines(self, with_cards: bool = True) -> list[str]:
        """YOLO label lines ``class cx cy w h`` normalised to the picture size."""
        h, w = self.image.shape[:2]
        out = []
        items = [(0, ix.box) for ix in self.indices]
        if with_cards:
            items += [(1, b) for _, b in self.cards]
        for cls, (x0, y0, x1, y1) in items:
            x0, x1 = max(0.0, x0), min(float(w), x1)
            y0, y1 = max(0.0, y0), min(float(h), y1)
            if x1 - x0 < 2 or y1 - y0 < 2:
                continue
            out.append(f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
        return out


# ---------------------------------------------------------------------------------------------------------------
# Backgrounds
# ---------------------------------------------------------------------------------------------------------------


def _smooth_noise(rng, h, w, scale):
    sh, sw = max(2, int(h / scale)), max(2, int(w / scale))
    small = rng.random((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.choice(["wood", "felt", "cork", "cloth", "paper", "clutter", "plain"], p=[0.22, 0.2, 0.1, 0.15, 0.1, 0.15, 0.08])
    base = rng.uniform(0, 255, 3)
    if kind == "wood":
        base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)])  # BGR browns
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        warp = _smooth_noise(rng, h, w, rng.uniform(40, 120)) * rng.uniform(10, 60)
        f = rng.uniform(0.05, 0.3)
        grain = 0.5 + 0.5 * np.sin((t + warp) * f)
        grain = grain ** rng.uniform(1, 4)
        shade = 1 - rng.uniform(0.15, 0.45) * grain + 0.1 * _smooth_noise(rng, h, w, 8)
        img = base[None, None, :] * shade[:, :, None]
    elif kind == "felt":
        base = [np.array([40, 110, 30]), np.array([120, 60, 20]), np.array([40, 30, 120]), np.array([60, 60, 60])][rng.integers(4)]
        base = base * rng.uniform(0.6, 1.5)
        n = _smooth_noise(rng, h, w, 3) * 0.15 + _smooth_noise(rng, h, w, 60) * 0.2
        img = base[None, None, :] * (0.85 + n)[:, :, None]
    elif kind == "cork":
        base = np.array([rng.uniform(60, 100), rng.uniform(110, 150), rng.uniform(160, 200)])
        n = (rng.random((h, w)) < 0.25).astype(np.float32)
        n = cv2.GaussianBlur(n, (0, 0), 1.0)
        img = base[None, None, :] * (1 - 0.5 * n + 0.1 * _smooth_noise(rng, h, w, 4))[:, :, None]
    elif kind == "cloth":
        period = rng.uniform(6, 60)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        c2 = rng.uniform(0, 255, 3)
        a = (np.sin(xx / period * np.pi) > 0).astype(np.float32)
        b = (np.sin(yy / period * np.pi) > 0).astype(np.float32)
        m = (0.5 * a + 0.5 * b)[:, :, None]
        img = base[None, None, :] * (1 - m) + c2[None, None, :] * m
        img = img * (0.9 + 0.2 * _smooth_noise(rng, h, w, 2))[:, :, None]
    elif kind == "paper":
        base = rng.uniform(170, 245) * np.array([rng.uniform(0.85, 1), rng.uniform(0.9, 1), 1.0])
        img = base[None, None, :] * (0.92 + 0.08 * _smooth_noise(rng, h, w, 2))[:, :, None]
    else:
        img = np.ones((h, w, 3), np.float32) * base[None, None, :]
        img = img * (0.8 + 0.4 * _smooth_noise(rng, h, w, 50))[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if kind == "clutter" or rng.random() < 0.25:
        _clutter(rng, img)
    return img


def _clutter(rng, img):
    """Distractors: rectangles, circles, lines, scribbled text (not cards; unlabelled on purpose)."""
    h, w = img.shape[:2]
    for _ in range(rng.integers(2, 12)):
        col = tuple(int(c) for c in rng.uniform(0, 255, 3))
        k = rng.integers(4)
        if k == 0:
            p = rng.integers(0, [w, h]); s = rng.integers(10, max(11, w // 3), 2)
            cv2.rectangle(img, tuple(int(v) for v in p), tuple(int(v) for v in p + s), col, -1 if rng.random() < 0.6 else 2)
        elif k == 1:
            cv2.circle(img, tuple(int(v) for v in rng.integers(0, [w, h])), int(rng.integers(5, w // 6)), col, -1 if rng.random() < 0.5 else 2)
        elif k == 2:
            cv2.line(img, tuple(int(v) for v in rng.integers(0, [w, h])), tuple(int(v) for v in rng.integers(0, [w, h])), col, int(rng.integers(1, 6)))
        else:
            txt = "".join(rng.choice(list("abcdefghijkmnoprstuvwxyz0123456789 "), rng.integers(3, 12)))
            cv2.putText(img, txt, tuple(int(v) for v in rng.integers(0, [w, h])), int(rng.integers(0, 7)), rng.uniform(0.4, 2.0), col, int(rng.integers(1, 4)))


def card_back(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A face-down card: a coloured pattern inside a white margin, rounded corners (BGRA)."""
    col = rng.uniform(0, 200, 3)
    col2 = np.clip(col + rng.uniform(-80, 80, 3), 0, 255)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = rng.uniform(4, 14)
    pat = ((np.sin((xx + yy) / p) > 0) ^ (np.sin((xx - yy) / p) > 0)).astype(np.float32)[:, :, None]
    img = col[None, None, :] * pat + col2[None, None, :] * (1 - pat)
    m = int(w * rng.uniform(0.03, 0.09))
    out = np.full((h, w, 3), 245, np.float32)
    out[m : h - m, m : w - m] = img[m : h - m, m : w - m]
    alpha = np.zeros((h, w), np.uint8)
    r = int(w * 0.06)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1)
    return np.dstack([out.astype(np.uint8), alpha])


# ---------------------------------------------------------------------------------------------------------------
# Layouts: lists of (face or back, 3x3 affine from face pixels to table units), painted in order
# ---------------------------------------------------------------------------------------------------------------


def _place(face_w, face_h, cx, cy, card_w, angle):
    """Affine (3x3) putting a face_w x face_h image centred at (cx, cy), card_w wide, rotated by angle (rad)."""
    s = card_w / face_w
    c, si = np.cos(angle) * s, np.sin(angle) * s
    m = np.array([[c, -si, 0], [si, c, 0], [0, 0, 1]], np.float64)
    t = np.array([[1, 0, -face_w / 2], [0, 1, -face_h / 2], [0, 0, 1]], np.float64)
    m[0, 2], m[1, 2] = cx, cy
    return m @ t


def _layout(rng, kind, n_faces):
    """Positions in table units (card width 1.0, height ~1.4): list of (slot, cx, cy, angle, face_down)."""
    items = []
    jit = lambda s: rng.normal(0, s)  # noqa: E731
    if kind == "tommy":
        gap = rng.uniform(1.08, 1.5)
        for f in range(4):  # foundations
            if rng.random() < 0.75:
                for _ in range(rng.integers(1, 3)):  # a neat stack shows only the top card
                    items.append((f * gap + jit(0.02), jit(0.02), jit(0.03), False))
        fan = rng.uniform(0.3, 0.45)  # table units (card height 1.4): the covered cards' indices show
        y0 = rng.uniform(1.6, 2.0)
        for p in range(4):  # waste piles fanned downwards
            for k in range(rng.integers(0, 8)):
                items.append((p * gap + jit(0.02), y0 + k * fan + jit(0.01), jit(0.02), False))
        sx = 4 * gap + rng.uniform(0.1, 0.5)
        if rng.random() < 0.8:
            items.append((sx, y0, jit(0.03), True))  # stock, face down
        if rng.random() < 0.85:
            items.append((sx + jit(0.1), y0 + rng.uniform(1.0, 1.6), jit(0.08), False))  # turned card
    elif kind == "poker":
        gx, gy = rng.uniform(1.03, 1.35), rng.uniform(1.45, 1.8)
        fill = rng.uniform(0.35, 1.0)
        for r in range(5):
            for c in range(5):
                if rng.random() < fill:
                    items.append((c * gx + jit(0.03), r * gy + jit(0.03), jit(0.04), False))
        if rng.random() < 0.5:
            items.append((5 * gx + 0.3, 0.0, jit(0.05), True))
    elif kind == "loose":
        n = rng.integers(2, 14)
        spread = rng.uniform(1.5, 4.0)
        for _ in range(n):
            items.append((rng.uniform(0, spread), rng.uniform(0, spread * 1.2), rng.uniform(-np.pi, np.pi), rng.random() < 0.1))
    elif kind == "fan":  # a hand of cards: each covers the next but its left edge, where the index is
        n = rng.integers(3, 14)
        if rng.random() < 0.6:  # held in a hand: turned about a pivot below the cards
            step = rng.uniform(0.1, 0.25)  # the index, ~r + 0.7 from the pivot, moves >= ~0.17 card widths
            r = rng.uniform(1.0, 2.0)
            for k in range(n):
                a = (k - (n - 1) / 2) * step + jit(0.01)
                items.append((r * np.sin(a), r - r * np.cos(a), a, False))
        else:  # spread in a line on the table
            dx, dy, ang = rng.uniform(0.18, 0.35), rng.normal(0, 0.03), jit(0.1)
            for k in range(n):
                items.append((k * dx + jit(0.01), k * dy, ang + jit(0.02), False))
    else:  # closeup
        n = rng.integers(1, 4)
        for i in range(n):
            items.append((i * rng.uniform(0.2, 0.9), rng.uniform(-0.2, 0.3) * i, jit(0.3), False))
    return items


# ---------------------------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------------------------


def _camera(rng, pts, out_w, out_h, kind):
    """Homography from table units to the picture: random rotation, scale, tilt, placement."""
    ang = rng.uniform(-np.pi, np.pi) if rng.random() < 0.6 else rng.choice([0, np.pi / 2, np.pi, -np.pi / 2]) + rng.normal(0, 0.05)
    c, s = np.cos(ang), np.sin(ang)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    p = (rot[:2, :2] @ pts.T).T
    lo, hi = p.min(0), p.max(0)
    size = np.maximum(hi - lo, 1e-3)
    fit = min(out_w / size[0], out_h / size[1])
    # far: the layout takes a part of the frame; near: it overflows (cards cut by the picture edge)
    zoom = rng.uniform(0.35, 1.0) if rng.random() < 0.75 else rng.uniform(1.0, 2.2)
    if kind == "closeup":
        zoom = rng.uniform(0.5, 1.1)
    k = fit * zoom
    centre = (lo + hi) / 2
    off = np.array([out_w / 2, out_h / 2]) + rng.uniform(-0.5, 0.5, 2) * np.maximum(np.array([out_w, out_h]) - size * k, 0) * (1 if zoom < 1 else 0)
    off += rng.normal(0, 0.08, 2) * np.array([out_w, out_h]) * (zoom >= 1)
    aff = np.array([[k, 0, off[0] - k * centre[0]], [0, k, off[1] - k * centre[1]], [0, 0, 1]]) @ rot
    # perspective: move the four picture corners inwards at random (a tilted webcam)
    t = rng.uniform(0.0, 0.22) if rng.random() < 0.85 else 0.0
    src = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    dst = src.copy()
    side = rng.integers(4)
    d = t * np.array([out_w, out_h])
    if side == 0:  # far edge at the top
        dst[0] += [d[0], 0]; dst[1] -= [d[0], 0]
    elif side == 1:
        dst[3] += [d[0], 0]; dst[2] -= [d[0], 0]
    elif side == 2:
        dst[0] += [0, d[1]]; dst[3] -= [0, d[1]]
    else:
        dst[1] += [0, d[1]]; dst[2] -= [0, d[1]]
    dst += rng.normal(0, 0.01, dst.shape).astype(np.float32) * np.array([out_w, out_h], np.float32)
    persp = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    return persp @ aff


def _apply_h(h, pts):
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return (p[:, :2] / p[:, 2:3]).astype(np.float32)


def render_scene(
    faces: list[Face],
    rng: np.random.Generator,
    out_size: tuple[int, int] = (640, 480),
    layout: str | None = None,
    min_visible: float = 0.6,
    min_index_px: float = 4.0,
    photometric: bool = True,
) -> Scene:
    """Render one scene with cards drawn from ``faces`` (distinct cards, any mix of decks).

    ``out_size`` is (width, height) of the picture. Returns the picture and its labels.
    """
    out_w, out_h = out_size
    kind = layout or str(rng.choice(LAYOUTS, p=LAYOUT_WEIGHTS))
    items = _layout(rng, kind, len(faces))
    n_up = sum(1 for it in items if not it[3])
    if n_up > len(faces):
        keep, k = [], 0
        for it in items:
            if not it[3]:
                k += 1
                if k > len(faces):
                    continue
            keep.append(it)
        items = keep
    order = rng.permutation(len(faces))
    aspect = 1.4
    # table points (card corners) to fit the camera
    corners = []
    for cx, cy, ang, _ in items:
        c, s = np.cos(ang), np.sin(ang)
        for dx, dy in ((-0.5, -aspect / 2), (0.5, -aspect / 2), (0.5, aspect / 2), (-0.5, aspect / 2)):
            corners.append((cx + c * dx - s * dy, cy + s * dx + c * dy))
    if not corners:
        corners = [(0, 0), (1, 1.4)]
    cam = _camera(rng, np.array(corners, np.float64), out_w, out_h, kind)

    img = background(rng, out_h, out_w).astype(np.float32)
    owner = np.full((out_h, out_w), -1, np.int32)
    placed = []  # (face or None, homography face->picture)
    fi = 0
    back = None
    paper_tint = rng.uniform(0.85, 1.0, 3) if rng.random() < 0.5 else np.ones(3)
    for n, (cx, cy, ang, down) in enumerate(items):
        if down:
            if back is None:
                back = card_back(rng, 200, 280)
            im = back
            face = None
        else:
            face = faces[order[fi]]
            fi += 1
            im = face.image
        fh, fw = im.shape[:2]
        a = _place(fw, fh, cx, cy, 1.0, ang)
        # the face's own aspect may differ from 1.4: keep its width at 1 card width
        h_total = cam @ a
        corners_img = _apply_h(h_total, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32))
        x0, y0 = np.floor(corners_img.min(0)).astype(int)
        x1, y1 = np.ceil(corners_img.max(0)).astype(int)
        if x1 < 0 or y1 < 0 or x0 >= out_w or y0 >= out_h:
            placed.append((face, h_total, False))
            continue
        bx0, by0 = max(0, x0 - 8), max(0, y0 - 8)
        bx1, by1 = min(out_w, x1 + 8), min(out_h, y1 + 8)
        shift = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64)
        hh = shift @ h_total
        roi_w, roi_h = bx1 - bx0, by1 - by0
        warped = cv2.warpPerspective(im, hh, (roi_w, roi_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        col = warped[:, :, :3].astype(np.float32)
        if face is not None:
            col = col * paper_tint[None, None, :]
        roi = img[by0:by1, bx0:bx1]
        if rng.random() < 0.6:  # soft drop shadow
            sh = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), max(1.0, roi_w / 80))
            dx, dy = rng.integers(-3, 4, 2)
            sh = np.roll(np.roll(sh, int(dy), 0), int(dx), 1)
            roi *= 1 - 0.35 * sh[:, :, None]
        roi[:] = roi * (1 - alpha) + col * alpha
        owner[by0:by1, bx0:bx1][alpha[:, :, 0] > 0.5] = n
        placed.append((face, h_total, True))

    scene = Scene(image=img, layout=kind)
    for n, (face, h_total, drawn) in enumerate(placed):
        if face is None or not drawn:
            continue
        fh, fw = face.image.shape[:2]
        # whole card: labelled when nearly all of it is visible and inside
        cq = _apply_h(h_total, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32))
        vis_card = _visible_fraction(owner, cq, n)
        if vis_card >= 0.9:
            scene.cards.append((face.name, (float(cq[:, 0].min()), float(cq[:, 1].min()), float(cq[:, 0].max()), float(cq[:, 1].max()))))
        for corner, q in enumerate(face.index_quads()):
            qi = _apply_h(h_total, q)
            x0, y0 = qi.min(0)
            x1, y1 = qi.max(0)
            if min(x1 - x0, y1 - y0) < min_index_px:
                continue
            vis = _visible_fraction(owner, qi, n)
            if vis >= min_visible:
                scene.indices.append(IndexLabel(face.name, corner, qi, vis))

    img = np.clip(img, 0, 255).astype(np.uint8) if not photometric else _photometric(rng, img)
    scene.image = img
    return scene


def _visible_fraction(owner, quad, n):
    """Share of the quad's area that is inside the picture and shows card ``n`` (not covered by a later card)."""
    h, w = owner.shape
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int)
    area = max(1.0, abs(cv2.contourArea(quad)))
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x1 + 1), min(h, y1 + 1)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - [cx0, cy0]).astype(np.int32), 1)
    total = max(int(mask.sum()), 1)
    mine = int(((owner[cy0:cy1, cx0:cx1] == n) & (mask > 0)).sum())
    return min(1.0, mine / max(total, area * 0.8))


def _photometric(rng, img):
    """Lighting gradient, white balance, shadow, glare, gamma, blur, noise, JPEG (float32 in, float32 out)."""
    h, w = img.shape[:2]
    # lighting gradient and white balance in one multiply (computed at 1/8 size, then resized)
    sh, sw = max(2, h // 8), max(2, w // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    g = (xx * np.cos(ang) + yy * np.sin(ang)) / max(sh, sw)
    g = 1 + rng.uniform(-0.5, 0.5) * (g - g.mean())
    g = g * rng.uniform(0.55, 1.25)
    add = np.zeros((sh, sw), np.float32)
    if rng.random() < 0.35:  # shadow (a hand, a phone)
        mask = np.zeros((sh, sw), np.float32)
        pts = (rng.integers(0, [w, h], (rng.integers(3, 7), 2)) / 8).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 3))
        g = g * (1 - rng.uniform(0.2, 0.6) * mask)
    if rng.random() < 0.35:  # glare
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        r = rng.uniform(0.05, 0.3) * max(sw, sh)
        add = rng.uniform(60, 220) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    g = cv2.resize(g.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    add = cv2.resize(add.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    wb = rng.uniform(0.8, 1.2, 3).astype(np.float32)
    img = img * (g[:, :, None] * wb[None, None, :]) + add[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    # gamma (lookup table)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** rng.uniform(0.7, 1.4), 0, 255).astype(np.uint8)
    img = cv2.LUT(img, lut)
    # blur: defocus or motion
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.8))
    elif r < 0.4:
        k = int(rng.integers(3, 9))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        ker = cv2.warpAffine(ker, m, (k, k))
        ker /= max(ker.sum(), 1e-6)
        img = cv2.filter2D(img, -1, ker)
    # sensor noise
    sigma = rng.uniform(0, 10)
    if sigma > 1:
        noise = rng.standard_normal(img.shape, dtype=np.float32) * sigma
        img = cv2.add(img.astype(np.float32), noise, dtype=cv2.CV_32F)
        img = np.clip(img, 0, 255).astype(np.uint8)
    # JPEG
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


# ---------------------------------------------------------------------------------------------------------------
# Crops for the classifier
# ---------------------------------------------------------------------------------------------------------------

CROP_SIZE = 64
CROP_EXPAND = 1.3


def crop_index(image: np.ndarray, box, size: int = CROP_SIZE, expand: float = CROP_EXPAND, jitter=None) -> np.ndarray:
    """The classifier's input for one detected index: a square around the axis-aligned ``box`` (x0, y0, x1, y1)
    with side ``expand * max(w, h)``, centred on the box, edge pixels replicated outside the picture, resized to
    ``size`` x ``size`` (BGR uint8). This is exactly what inference must do with a detector box.

    ``jitter`` = (rng, shift, scale_lo, scale_hi) perturbs centre and side during training.
    """
    m, s = crop_transform(box, size, expand, jitter)
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def crop_transform(box, size: int = CROP_SIZE, expand: float = CROP_EXPAND, jitter=None) -> tuple[np.ndarray, float]:
    """The 2x3 affine map of :func:`crop_index` (picture -> crop pixels) and its scale (crop px per picture px)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    side = expand * max(x1 - x0, y1 - y0)
    if jitter is not None:
        rng, shift, lo, hi = jitter
        side *= rng.uniform(lo, hi) / expand
        cx += rng.uniform(-shift, shift) * side
        cy += rng.uniform(-shift, shift) * side
    side = max(side, 2.0)
    s = size / side
    return np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float32), s
