"""Labelled photos of dealt Poker Patience grids, rendered from card artwork, to measure ``patience score-photo``.

``render_grid_photo(faces, rng, ...)`` lays 25 faces out in a 5x5 grid on a table (uneven gaps, slightly crooked
cards), looks at it with a camera (any rotation, also quarter and half turns, perspective tilt, near or far), adds
a hand at the picture's edge now and then, and the photometric damage of the training scenes (light gradient,
shadow, glare, blur, noise, JPEG; ``vision.training.scenes``). The truth is returned AS SEEN: rows top to bottom
and left to right in the picture, by the same quarter-turn rule as the reader (``assistant.photo_grid``).

``write_grid_set(folder, count, seed)`` writes ``grid_NNN.jpg`` + ``grid_NNN.jpg.json`` (``{"rows": [[5 cards]
x 5], "deck": ..., "angle": ..., "tilt": ..., "size": [w, h], "hand": bool, "exif": int}``) from the held-out
designs only (``artwork.load_decks(held_out=True)``: decks the model never trained on). A few photos are stored
as a phone does: pixels turned, with an EXIF orientation tag that turns them back for display; their truth is the
picture as displayed.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.homography import apply_h, seen_orientation

try:  # the training modules moved into vision.training (session 4)
    from vision.training import scenes
except ImportError:  # pragma: no cover - older layout
    from vision import scenes  # type: ignore[no-redef]

SIZES = ((640, 480), (1280, 960), (1920, 1080), (4000, 3000), (3000, 4000))
# EXIF orientation -> the turn that, applied to the displayed picture, gives the stored pixels (cv2.rotate codes)
EXIF_STORE = {6: cv2.ROTATE_90_COUNTERCLOCKWISE, 8: cv2.ROTATE_90_CLOCKWISE, 3: cv2.ROTATE_180}


# Row steps in card widths (a card is 1.4 high): gaps between the rows, or each row laid over the lower part of the
# one above (a player short of table; only the top of each card but the last row's shows; session 25's probe)
ROW_STEPS = (1.5, 1.85)
OVERLAP_ROW_STEPS = (0.8, 1.2)
# Column steps in card widths: gaps between the columns, or each card laid over the right part of the one before it
# (only the left strip of each card but the last column's shows, with its top corner index; session 44)
COLUMN_STEPS = (1.05, 1.4)
OVERLAP_COLUMN_STEPS = (0.55, 0.8)
# ``write_grid_set(overlap=...)``: which steps each kind of grid is laid with
OVERLAPS = {"": (ROW_STEPS, COLUMN_STEPS), "rows": (OVERLAP_ROW_STEPS, COLUMN_STEPS),
            "columns": (ROW_STEPS, OVERLAP_COLUMN_STEPS), "both": (OVERLAP_ROW_STEPS, OVERLAP_COLUMN_STEPS)}


def table_layout(rng: np.random.Generator, row_steps: tuple[float, float] = ROW_STEPS,
                 column_steps: tuple[float, float] = COLUMN_STEPS) -> list[tuple[int, int, float, float, float]]:
    """(row, column, x, y, angle) of 25 cards in table units (card width 1, height ~1.4): uneven gaps, crooked."""
    gx, gy = rng.uniform(*column_steps), rng.uniform(*row_steps)
    col_off = rng.normal(0, 0.05, 5)
    row_off = rng.normal(0, 0.05, 5)
    out = []
    for r in range(5):
        for c in range(5):
            out.append((r, c, c * gx + row_off[r] * 0.5 + rng.normal(0, 0.03),
                        r * gy + col_off[c] * 0.5 + rng.normal(0, 0.03), rng.normal(0, 0.05)))
    return out


def camera(rng: np.random.Generator, pts: np.ndarray, out_w: int, out_h: int, angle: float, tilt: float,
           zoom: float) -> np.ndarray:
    """Homography table units -> picture: turn by ``angle`` (rad), fit ``zoom`` of the frame, then a perspective
    tilt moving one picture edge's corners inwards by ``tilt`` of the frame (a camera not straight above)."""
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    p = (rot[:2, :2] @ pts.T).T
    lo, hi = p.min(0), p.max(0)
    size = np.maximum(hi - lo, 1e-3)
    k = min(out_w / size[0], out_h / size[1]) * zoom
    centre = (lo + hi) / 2
    room = np.maximum(np.array([out_w, out_h]) - size * k, 0)
    off = np.array([out_w / 2, out_h / 2]) + rng.uniform(-0.4, 0.4, 2) * room
    aff = np.array([[k, 0, off[0] - k * centre[0]], [0, k, off[1] - k * centre[1]], [0, 0, 1]]) @ rot
    src = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    dst = src.copy()
    d = tilt * np.array([out_w, out_h])
    side = int(rng.integers(4))
    if side == 0:
        dst[0] += [d[0], 0]; dst[1] -= [d[0], 0]  # noqa: E702
    elif side == 1:
        dst[3] += [d[0], 0]; dst[2] -= [d[0], 0]  # noqa: E702
    elif side == 2:
        dst[0] += [0, d[1]]; dst[3] -= [0, d[1]]  # noqa: E702
    else:
        dst[1] += [0, d[1]]; dst[2] -= [0, d[1]]  # noqa: E702
    persp = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    return persp @ aff


def _hand(rng: np.random.Generator, img: np.ndarray, keep_clear: np.ndarray) -> bool:
    """Paint a hand (palm and fingers, skin tones) reaching in from a picture edge, clear of the card indices
    (``keep_clear``: uint8 mask). Returns False when no place was found."""
    h, w = img.shape[:2]
    unit = 0.12 * min(h, w)
    for _ in range(12):
        edge = int(rng.integers(4))
        t = rng.uniform(0.1, 0.9)
        base = {0: (t * w, 0), 1: (w, t * h), 2: (t * w, h), 3: (0, t * h)}[edge]
        inward = {0: (0, 1), 1: (-1, 0), 2: (0, -1), 3: (1, 0)}[edge]
        ang = np.arctan2(inward[1], inward[0]) + rng.normal(0, 0.3)
        u = np.array([np.cos(ang), np.sin(ang)])
        v = np.array([-u[1], u[0]])
        palm = np.array(base) + u * unit * rng.uniform(0.3, 0.9)
        mask = np.zeros((h, w), np.uint8)
        cv2.ellipse(mask, tuple(int(x) for x in palm), (int(unit * 0.9), int(unit * 0.7)),
                    float(np.degrees(ang)), 0, 360, 255, -1)
        arm_end = palm - u * unit * 3
        cv2.line(mask, tuple(int(x) for x in palm), tuple(int(x) for x in arm_end), 255, int(unit * 1.1))
        for k in range(4):
            tip = palm + u * unit * rng.uniform(1.3, 1.8) + v * unit * (k - 1.5) * 0.45
            cv2.line(mask, tuple(int(x) for x in palm + v * unit * (k - 1.5) * 0.4), tuple(int(x) for x in tip),
                     255, int(unit * 0.28))
        if (mask & keep_clear).any():
            continue
        skin = np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 235)], np.float32)
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(1.0, unit / 40))[..., None]
        shade = 0.85 + 0.15 * scenes._smooth_noise(rng, h, w, unit)[..., None]
        img[:] = img * (1 - soft) + skin * shade * soft
        return True
    return False


def render_grid_photo(faces: list, rng: np.random.Generator, out_size: tuple[int, int] = (1280, 960),
                      angle: float = 0.0, tilt: float = 0.0, zoom: float = 0.8, hand: bool = False,
                      photometric: bool = True, empty: tuple = (), row_steps: tuple[float, float] = ROW_STEPS,
                      column_steps: tuple[float, float] = COLUMN_STEPS
                      ) -> tuple[np.ndarray, list[list[str | None]], dict]:
    """``(picture BGR, rows as seen, info)`` for the 25 ``faces`` (``vision.training.scenes.Face``) dealt row-major.

    ``angle`` in degrees (the camera's turn), ``tilt`` 0..0.25, ``zoom`` the share of the frame the grid fills;
    ``empty``: dealt cells (row, column) left without a card (None in the truth); ``row_steps``: the range of the
    step between rows (``OVERLAP_ROW_STEPS``: rows laid over each other), ``column_steps`` between columns
    (``OVERLAP_COLUMN_STEPS``: each card laid over the right part of the one before it)."""
    assert len(faces) == 25
    out_w, out_h = out_size
    layout = table_layout(rng, row_steps, column_steps)
    corners = []
    for _r, _c, cx, cy, ang in layout:
        c, s = np.cos(ang), np.sin(ang)
        for dx, dy in ((-0.5, -0.7), (0.5, -0.7), (0.5, 0.7), (-0.5, 0.7)):
            corners.append((cx + c * dx - s * dy, cy + s * dx + c * dy))
    cam = camera(rng, np.array(corners), out_w, out_h, np.radians(angle), tilt, zoom)
    # the background at a quarter of a big picture's size (a table is smooth), then scaled up
    f = 4 if max(out_w, out_h) > 2000 else 1
    img = scenes.background(rng, out_h // f, out_w // f).astype(np.float32)
    if f > 1:
        img = cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
    keep_clear = np.zeros((out_h, out_w), np.uint8)
    centres = np.zeros((5, 5, 2))
    names = [["" for _ in range(5)] for _ in range(5)]
    for (r, c, cx, cy, ang), face in zip(layout, faces):
        fh, fw = face.image.shape[:2]
        h_total = cam @ scenes._place(fw, fh, cx, cy, 1.0, ang)
        quad = apply_h(h_total, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
        x0, y0 = np.floor(quad.min(0)).astype(int)
        x1, y1 = np.ceil(quad.max(0)).astype(int)
        bx0, by0, bx1, by1 = max(0, x0 - 8), max(0, y0 - 8), min(out_w, x1 + 8), min(out_h, y1 + 8)
        centres[r, c] = apply_h(h_total, np.array([[fw / 2, fh / 2]]))[0]
        names[r][c] = None if (r, c) in empty else face.name
        if bx1 <= bx0 or by1 <= by0 or (r, c) in empty:
            continue
        shift = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(face.image, shift @ h_total, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = img[by0:by1, bx0:bx1]
        sh = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), max(1.0, (bx1 - bx0) / 80))
        roi *= 1 - 0.3 * np.roll(sh, 2, axis=0)[:, :, None]
        roi[:] = roi * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        for q in face.index_quads():
            cv2.fillConvexPoly(keep_clear, np.round(apply_h(h_total, q)).astype(np.int32), 255)
    has_hand = _hand(rng, img, keep_clear) if hand else False
    picture = scenes._photometric(rng, img) if photometric else np.clip(img, 0, 255).astype(np.uint8)
    rows, seen_centres = truth_as_seen(centres, names)
    info = {"angle": round(float(angle), 1), "tilt": round(float(tilt), 3), "zoom": round(float(zoom), 2),
            "size": [out_w, out_h], "hand": bool(has_hand),
            "centres": [[[round(float(v), 1) for v in p] for p in row] for row in seen_centres]}
    return picture, rows, info


def truth_as_seen(centres: np.ndarray, names: list[list[str]]) -> tuple[list[list[str]], list[list]]:
    """The dealt grid's names as the reader must report them, and the card centres in the same order: turned by
    the quarter turn nearest the picture's axes (``assistant.photo_grid.seen_orientation`` on the homography
    lattice -> picture of the true centres)."""
    from vision.homography import fit_homography, to_seen

    lattice = np.array([[c, r] for r in range(5) for c in range(5)], float)  # (a, b) = (column, row) on the table
    h = fit_homography(lattice, centres.reshape(-1, 2))
    col_axis, row_axis = seen_orientation(h, (2.0, 2.0))
    rc = to_seen(lattice, col_axis, row_axis)
    rc -= rc.min(0)
    out = [["" for _ in range(5)] for _ in range(5)]
    where = [[None] * 5 for _ in range(5)]
    for (a, b), (r, c) in zip(lattice.astype(int), rc):
        out[r][c] = names[b][a]
        where[r][c] = centres[b, a].tolist()
    return out, where


def store_with_exif(path: Path, picture: np.ndarray, orientation: int, quality: int = 90) -> None:
    """Write ``picture`` (as displayed) the way a phone does: pixels turned, EXIF Orientation to turn them back."""
    from PIL import Image

    stored = cv2.rotate(picture, EXIF_STORE[orientation])
    im = Image.fromarray(cv2.cvtColor(stored, cv2.COLOR_BGR2RGB))
    exif = Image.Exif()
    exif[0x0112] = orientation
    im.save(path, "JPEG", quality=quality, exif=exif.tobytes())


def photo_plan(i: int, rng: np.random.Generator) -> dict:
    """The camera of photo ``i`` of a set: cycles through straight, any angle, quarter and half turns, strong
    perspective, phone-sized pictures (some with EXIF orientation, some taken from further away) and a hand at the
    edge."""
    kind = i % 8
    size = SIZES[[0, 1, 2, 3, 1, 4, 0, 3][kind]]
    angle = float(rng.normal(0, 4))
    if kind in (1, 5):
        angle = float(rng.choice([rng.uniform(-38, 38), rng.uniform(52, 128), rng.uniform(142, 218)]))
    elif kind in (2, 6):
        angle = float(rng.choice([90, 180, 270]) + rng.normal(0, 3))
    tilt = float(rng.uniform(0.0, 0.12)) if kind != 4 else float(rng.uniform(0.15, 0.22))
    zoom = float(rng.uniform(0.6, 0.95))
    if kind == 7:  # a phone photo from further away: the grid fills a third of the frame
        zoom = 0.3 + (zoom - 0.6) * 0.2 / 0.35
    hand = kind in (3, 7) or bool(rng.random() < 0.15)
    exif = {3: 6, 5: 8}.get(kind, 0)
    return {"size": size, "angle": angle, "tilt": tilt, "zoom": zoom, "hand": hand, "exif": exif}


def write_grid_set(folder: str | Path, count: int, seed: int = 0, decks: dict | None = None, log=print,
                   overlap: str = "") -> Path:
    """Render ``count`` labelled grid photos into ``folder`` (held-out designs; a seed repeats the set); ``overlap``:
    ``"rows"``, each row laid over the lower part of the one above, ``"columns"``, each card over the right part of
    the one before it, or ``"both"`` (only each card's top left corner shows; ``OVERLAPS``; ``True`` is ``"rows"``,
    as before there were more kinds)."""
    overlap = "rows" if overlap is True else (overlap or "")
    if overlap not in OVERLAPS:
        raise ValueError(f"overlap {overlap!r}: one of {', '.join(k for k in OVERLAPS if k)}")
    row_steps, column_steps = OVERLAPS[overlap]
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    if decks is None:
        try:
            from vision.training import artwork
        except ImportError:  # pragma: no cover - older layout
            from vision import artwork  # type: ignore[no-redef]
        decks = artwork.load_decks(held_out=True)
    if not decks:
        raise FileNotFoundError("no held-out deck artwork: run `patience dataset fetch` first")
    names = sorted(decks)
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        deck = names[i % len(names)]
        faces = [decks[deck][j] for j in rng.permutation(52)[:25]]
        plan = photo_plan(i, rng)
        picture, rows, info = render_grid_photo(faces, rng, plan["size"], plan["angle"], plan["tilt"], plan["zoom"],
                                                plan["hand"], row_steps=row_steps, column_steps=column_steps)
        path = out / f"grid_{i:03d}.jpg"
        if plan["exif"]:
            store_with_exif(path, picture, plan["exif"])
        else:
            cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, 90])
        label = {"rows": rows, "deck": deck, **info, "exif": plan["exif"], **({"overlap": overlap} if overlap else {})}
        (out / f"{path.name}.json").write_text(json.dumps(label) + "\n")
        log(f"{path.name}: {deck}, {info['size'][0]}x{info['size'][1]}, angle {info['angle']}, tilt {info['tilt']}"
            f"{', hand' if info['hand'] else ''}{', EXIF ' + str(plan['exif']) if plan['exif'] else ''}")
    return out
