"""Drawing a table seen by a webcam, for the game videos (``vision.training.game_video``): table tops, cards pasted
with an affine pose and a soft shadow, a procedural hand with its arm, and the camera's homography.

All drawing happens on a "canvas", the table plane in pixels (uint8 BGR, or a premultiplied float layer with its
alpha for things above the table: a carried card, a hand); the camera maps the canvas to the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


# ---------------------------------------------------------------------------------------------------------------
# Drawing helpers (table plane, uint8 BGR canvas)
# ---------------------------------------------------------------------------------------------------------------


def _smooth_noise(rng, h, w, scale):
    small = rng.random((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table top: wood, felt, cloth or a plain painted surface (no clutter: nothing card-like)."""
    kind = rng.choice(["wood", "felt", "cloth", "plain"], p=[0.4, 0.3, 0.15, 0.15])
    if kind == "wood":
        base = np.array([rng.uniform(30, 80), rng.uniform(60, 120), rng.uniform(100, 180)])
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        grain = 0.5 + 0.5 * np.sin((t + _smooth_noise(rng, h, w, 80) * rng.uniform(10, 50)) * rng.uniform(0.04, 0.15))
        shade = 1 - rng.uniform(0.1, 0.3) * grain ** 2 + 0.08 * _smooth_noise(rng, h, w, 8)
        img = base[None, None, :] * shade[:, :, None]
    elif kind == "felt":
        base = [np.array([40, 110, 30]), np.array([120, 60, 20]), np.array([40, 30, 120]), np.array([60, 60, 60])][rng.integers(4)]
        base = base * rng.uniform(0.7, 1.3)
        n = _smooth_noise(rng, h, w, 3) * 0.12 + _smooth_noise(rng, h, w, 60) * 0.15
        img = base[None, None, :] * (0.88 + n)[:, :, None]
    elif kind == "cloth":
        period = rng.uniform(8, 40)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        c1, c2 = rng.uniform(30, 160, 3), rng.uniform(30, 160, 3)
        m = (0.5 * (np.sin(xx / period * np.pi) > 0) + 0.5 * (np.sin(yy / period * np.pi) > 0))[:, :, None]
        img = c1[None, None, :] * (1 - m) + c2[None, None, :] * m
        img = img * (0.9 + 0.15 * _smooth_noise(rng, h, w, 2))[:, :, None]
    else:
        base = rng.uniform(40, 170, 3)
        img = np.ones((h, w, 3), np.float32) * base[None, None, :] * (0.85 + 0.3 * _smooth_noise(rng, h, w, 60))[:, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def card_back_image(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    from vision.training.scenes import card_back

    return card_back(rng, w, h)


def card_affine(img_w: int, img_h: int, cx: float, cy: float, angle: float, flip: float = 1.0,
                 lift: float = 1.0) -> np.ndarray:
    """2x3 affine from card image pixels to canvas: centred at (cx, cy), rotated by ``angle`` degrees,
    squeezed across by ``flip`` (a card being turned over) and enlarged by ``lift`` (held above the table)."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    sx, sy = max(abs(flip), 0.02) * lift, lift
    m = np.array([[ca * sx, -sa * sy, 0.0], [sa * sx, ca * sy, 0.0]])
    m[:, 2] = [cx, cy] - m[:, :2] @ np.array([img_w / 2, img_h / 2])
    return m


def paste(canvas: np.ndarray, img: np.ndarray, m: np.ndarray, shadow: float = 0.0, shadow_offset=(2, 3),
          alpha_out: np.ndarray | None = None) -> None:
    """Alpha-composite the BGRA ``img`` onto ``canvas`` (BGR, or premultiplied float with ``alpha_out``) through
    the affine ``m``, with a soft shadow of strength ``shadow`` (0-1) under it."""
    h, w = img.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ m.T
    pad = 4 + int(max(abs(shadow_offset[0]), abs(shadow_offset[1])) + 3)
    x0 = max(0, int(math.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - pad)
    x1 = min(canvas.shape[1], int(math.ceil(corners[:, 0].max())) + pad)
    y1 = min(canvas.shape[0], int(math.ceil(corners[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mm = m.copy()
    mm[:, 2] -= [x0, y0]
    warped = cv2.warpAffine(img, mm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1]
    if alpha_out is not None:  # premultiplied float layer
        aroi = alpha_out[y0:y1, x0:x1]
        roi[:] = roi * (1 - a) + warped[:, :, :3].astype(np.float32) * a
        aroi[:] = aroi * (1 - a[:, :, 0]) + a[:, :, 0]
        return
    out = roi.astype(np.float32)
    if shadow > 0:
        sh = np.zeros_like(a[:, :, 0])
        dx, dy = int(shadow_offset[0]), int(shadow_offset[1])
        hh, ww = sh.shape
        sh[max(0, dy) : hh + min(0, dy), max(0, dx) : ww + min(0, dx)] = a[max(0, -dy) : hh - max(0, dy), max(0, -dx) : ww - max(0, dx), 0]
        sh = cv2.GaussianBlur(sh, (0, 0), 1.5 + max(abs(dx), abs(dy)) * 0.5)
        out *= (1 - shadow * sh)[:, :, None]
    out = out * (1 - a) + warped[:, :, :3].astype(np.float32) * a
    roi[:] = np.clip(out, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------------------------
# The hand
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class HandLook:
    skin: tuple[float, float, float]
    width: float  # palm width in canvas px
    sleeve: tuple[float, float, float] | None


def draw_hand(layer: np.ndarray, alpha: np.ndarray, pos, entry, look: HandLook, spread: float = 0.0) -> None:
    """A hand at ``pos`` reaching from ``entry`` (a point off the table): arm (sleeve), palm, four fingers and a
    thumb pointing away from the arm, drawn into a premultiplied float layer and its alpha."""
    px, py = pos
    ex, ey = entry
    d = np.array([px - ex, py - ey], np.float64)
    n = np.linalg.norm(d)
    if n < 1e-3:
        d = np.array([0.0, -1.0])
    else:
        d /= n
    perp = np.array([-d[1], d[0]])
    w = look.width
    mask = np.zeros(alpha.shape, np.uint8)
    wrist = np.array([px, py]) - d * 0.55 * w
    arm_w = 0.42 * w
    far = np.array([ex, ey]) - d * w
    arm = np.array([wrist + perp * arm_w, wrist - perp * arm_w, far - perp * arm_w * 1.25, far + perp * arm_w * 1.25])
    palm_axes = (int(0.5 * w), int(0.45 * w))
    ang = math.degrees(math.atan2(d[1], d[0]))
    colour_arm = look.sleeve or look.skin

    def fill(draw, colour):
        mask[:] = 0
        draw(mask)
        m = cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32) / 255.0
        layer[:] = layer * (1 - m[:, :, None]) + np.array(colour, np.float32)[None, None, :] * m[:, :, None]
        alpha[:] = alpha * (1 - m) + m

    fill(lambda k: cv2.fillConvexPoly(k, np.round(arm).astype(np.int32), 255), colour_arm)
    skin = np.array(look.skin)

    def fingers(k):
        cv2.ellipse(k, (int(px), int(py)), palm_axes, ang, 0, 360, 255, -1)
        for i, off in enumerate((-0.33, -0.11, 0.11, 0.33)):
            base = np.array([px, py]) + perp * off * w * (1 + 0.4 * spread) + d * 0.25 * w
            length = (0.55, 0.68, 0.66, 0.5)[i] * w
            tip_dir = d + perp * off * spread * 0.8
            tip = base + tip_dir / np.linalg.norm(tip_dir) * length
            cv2.line(k, tuple(np.round(base).astype(int)), tuple(np.round(tip).astype(int)), 255, max(2, int(0.17 * w)),
                     cv2.LINE_AA)
        tb = np.array([px, py]) + perp * 0.45 * w
        tt = tb + (perp * 0.6 + d * 0.5) * 0.55 * w
        cv2.line(k, tuple(np.round(tb).astype(int)), tuple(np.round(tt).astype(int)), 255, max(2, int(0.2 * w)), cv2.LINE_AA)
        wr = np.array([px, py]) - d * 0.45 * w
        cv2.ellipse(k, tuple(np.round(wr).astype(int)), (int(0.45 * w), int(0.38 * w)), ang, 0, 360, 255, -1)

    fill(fingers, skin)
    # knuckle shading: a darker band across the fingers' roots
    mask[:] = 0
    kb = np.array([px, py]) + d * 0.28 * w
    cv2.line(mask, tuple(np.round(kb - perp * 0.4 * w).astype(int)), tuple(np.round(kb + perp * 0.4 * w).astype(int)), 255,
             max(1, int(0.05 * w)))
    m = cv2.GaussianBlur(mask, (0, 0), 2.0).astype(np.float32)[:, :, None] / 255.0 * 0.25
    layer[:] = layer * (1 - m)


# ---------------------------------------------------------------------------------------------------------------
# Camera
# ---------------------------------------------------------------------------------------------------------------


def camera_homography(center_canvas, center_frame, scale, angle_deg, tilt, tilt_dir) -> np.ndarray:
    """Canvas -> frame: translate the layout centre to the origin, a mild perspective (``tilt``: relative scale
    change per 1000 canvas px along ``tilt_dir``), rotate, scale, move to the frame centre."""
    t0 = np.array([[1, 0, -center_canvas[0]], [0, 1, -center_canvas[1]], [0, 0, 1]], np.float64)
    p = np.eye(3)
    p[2, 0], p[2, 1] = tilt / 1000 * math.cos(tilt_dir), tilt / 1000 * math.sin(tilt_dir)
    a = math.radians(angle_deg)
    r = np.array([[math.cos(a) * scale, -math.sin(a) * scale, 0], [math.sin(a) * scale, math.cos(a) * scale, 0], [0, 0, 1]])
    t1 = np.array([[1, 0, center_frame[0]], [0, 1, center_frame[1]], [0, 0, 1]], np.float64)
    return t1 @ r @ p @ t0


def project(h: np.ndarray, pts) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return q[:, :2] / q[:, 2:3]
