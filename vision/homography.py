"""Plane geometry shared by the photo grid reader and the renderer of test grids: homographies and the
quarter turn a grid is seen in (pure numpy, no model)."""

from __future__ import annotations

import numpy as np


def fit_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """3x3 H with dst ~ H(src), least squares (normalised DLT); None when the points are degenerate."""
    if len(src) < 4:
        return None

    def norm(p):
        m = p.mean(0)
        s = np.sqrt(2) / max(np.mean(np.hypot(*(p - m).T)), 1e-9)
        return np.array([[s, 0, -s * m[0]], [0, s, -s * m[1]], [0, 0, 1]])

    ts, td = norm(src), norm(dst)
    s = np.c_[src, np.ones(len(src))] @ ts.T
    d = np.c_[dst, np.ones(len(dst))] @ td.T
    rows = []
    for (x, y, _), (u, v, _) in zip(s, d):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    a = np.array(rows)
    _, sv, vt = np.linalg.svd(a)
    if sv[-2] < 1e-9 * sv[0]:  # the points lie on a line: no unique homography
        return None
    h = vt[-1].reshape(3, 3)
    h = np.linalg.inv(td) @ h @ ts
    if abs(h[2, 2]) < 1e-12:
        return None
    return h / h[2, 2]


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[np.asarray(pts, float).reshape(-1, 2), np.ones(len(np.asarray(pts).reshape(-1, 2)))] @ h.T
    return p[:, :2] / p[:, 2:3]


def seen_orientation(h: np.ndarray, centre: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """``(col_axis, row_axis)``: lattice unit vectors (each ±(1,0) or ±(0,1)) that run left to right and top to
    bottom in the picture at lattice point ``centre``: the quarter turn of the grid nearest the picture's axes."""
    c = np.asarray(centre, float)
    options = [np.array(v, float) for v in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    p0 = apply_h(h, c[None])[0]
    dirs = []
    for v in options:
        d = apply_h(h, (c + 0.5 * v)[None])[0] - p0
        dirs.append(d / max(np.linalg.norm(d), 1e-9))
    right = max(range(4), key=lambda i: dirs[i][0])
    rest = [i for i in range(4) if abs(options[i] @ options[right]) < 0.5]
    down = max(rest, key=lambda i: dirs[i][1])
    return options[right], options[down]


def to_seen(coords: np.ndarray, col_axis: np.ndarray, row_axis: np.ndarray) -> np.ndarray:
    """Lattice numbers (a, b) -> (row, column) numbers as seen (not yet shifted to start at 0)."""
    coords = np.asarray(coords, float).reshape(-1, 2)
    return np.stack([coords @ row_axis, coords @ col_axis], axis=1).round().astype(np.int64)


def from_seen(rc: np.ndarray, col_axis: np.ndarray, row_axis: np.ndarray) -> np.ndarray:
    """(row, column) as seen -> lattice numbers (a, b) (the inverse of :func:`to_seen`)."""
    rc = np.asarray(rc, float).reshape(-1, 2)
    return rc[:, :1] * row_axis[None, :] + rc[:, 1:2] * col_axis[None, :]
