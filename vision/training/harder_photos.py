"""Real labelled photos made harder the way a player's camera does it: turned, smaller, dimmer, blurred, warm
light, heavy JPEG, or one card brought close to the camera. For measuring how the recogniser holds up on real
cards (``patience detect --eval`` on the copy), not for training.

Works on edje-style folders (``labels.csv`` with filename, width, height, class, xmin, ymin, xmax, ymax and the
images beside it or in ``images/``): the copy has the same layout, its boxes moved with the picture.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Callable

import numpy as np

Box = tuple[float, float, float, float]


def _scaled(f: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda im: np.clip(im.astype(np.float32) * f, 0, 255).astype(np.uint8)


def _turn90(im: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)


def _turn180(im: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.rotate(im, cv2.ROTATE_180)


def _half(im: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2), interpolation=cv2.INTER_AREA)


def _blurred(sigma: float) -> Callable[[np.ndarray], np.ndarray]:
    def blur(im: np.ndarray) -> np.ndarray:
        import cv2

        return cv2.GaussianBlur(im, (0, 0), sigma)

    return blur


def _jpeg(im: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.imdecode(cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 20])[1], cv2.IMREAD_COLOR)


def _dark_noisy(im: np.ndarray) -> np.ndarray:
    """A third as bright with a dim sensor's noise (sigma 4 grey levels), seeded by the picture itself."""
    rng = np.random.default_rng(int(im[::17, ::17].sum()) % (2**32))
    return np.clip(im.astype(np.float32) * 0.35 + rng.normal(0.0, 4.0, im.shape), 0, 255).astype(np.uint8)


def _shake(im: np.ndarray) -> np.ndarray:
    """A hand that moved while the shutter was open: blurred along a 7 px line at 30 degrees."""
    import cv2

    n = 7
    line = np.zeros((n, n), np.float32)
    line[n // 2, :] = 1.0
    line = cv2.warpAffine(line, cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), 30, 1.0), (n, n))
    return cv2.filter2D(im, -1, line / line.sum())


def _keystone(w: int, h: int) -> np.ndarray:
    """A camera tilted towards the far edge: the top edge shrunk to 60 % of its width, about its middle."""
    import cv2

    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.2 * w, 0], [0.8 * w, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, dst)


def _tilt(im: np.ndarray) -> np.ndarray:
    import cv2

    h, w = im.shape[:2]
    return cv2.warpPerspective(im, _keystone(w, h), (w, h), borderMode=cv2.BORDER_REPLICATE)


def _tilt_box(b: Box, w: int, h: int) -> tuple[Box, int, int]:
    import cv2

    corners = np.float32([[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]]).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(corners, _keystone(w, h)).reshape(-1, 2)
    return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())), w, h


def _glare(im: np.ndarray) -> np.ndarray:
    """A lamp's reflection: a white oval (18 % of the long side across) blended in at up to 85 %, placed by the
    picture itself."""
    h, w = im.shape[:2]
    rng = np.random.default_rng(int(im[::13, ::13].sum()) % (2**32))
    cx, cy, r = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, 0.18 * max(h, w)
    yy, xx = np.mgrid[0:h, 0:w]
    a = 0.85 * np.exp(-(((xx - cx) / r) ** 2 + ((yy - cy) / (0.6 * r)) ** 2))[..., None]
    return np.clip(im.astype(np.float32) * (1 - a) + 255 * a, 0, 255).astype(np.uint8)


def _warm(im: np.ndarray) -> np.ndarray:
    return np.clip(im.astype(np.float32) * np.array([0.6, 0.85, 1.1], np.float32), 0, 255).astype(np.uint8)


def _unmoved(b: Box, w: int, h: int) -> tuple[Box, int, int]:
    """The boxes of a change that moves no pixel."""
    return b, w, h


#: change -> (what it does, picture -> picture, (box, width, height) -> (box, new width, new height))
CHANGES: dict[str, tuple[str, Callable, Callable]] = {
    "same": ("as taken (a copy, e.g. with the labels of --labels)", lambda im: im, _unmoved),
    "turn90": ("turned a quarter clockwise", _turn90, lambda b, w, h: ((h - b[3], b[0], h - b[1], b[2]), h, w)),
    "turn180": ("turned half round", _turn180, lambda b, w, h: ((w - b[2], h - b[3], w - b[0], h - b[1]), w, h)),
    "half": ("half the size", _half, lambda b, w, h: (tuple(v / 2 for v in b), w // 2, h // 2)),
    "dim": ("half as bright", _scaled(0.5), _unmoved),
    "dark": ("a third as bright", _scaled(0.35), _unmoved),
    "darknoisy": ("a third as bright, with sensor noise (sigma 4)", _dark_noisy, _unmoved),
    "slightblur": ("a little out of focus (Gaussian blur, sigma 1.2 px)", _blurred(1.2), _unmoved),
    "blur": ("out of focus (Gaussian blur, sigma 2 px)", _blurred(2.0), _unmoved),
    "heavyblur": ("far out of focus (Gaussian blur, sigma 3 px)", _blurred(3.0), _unmoved),
    "shake": ("shaken (motion blur along 7 px)", _shake, _unmoved),
    "tilt": ("seen at a slant (the far edge 60 % as wide)", _tilt, _tilt_box),
    "glare": ("a lamp's reflection across the picture", _glare, _unmoved),
    "jpeg": ("saved as JPEG at quality 20", _jpeg, _unmoved),
    "warm": ("lamp light (blue 0.6, green 0.85, red 1.1)", _warm, _unmoved),
}


def make_harder(src: Path, out: Path, change: str, progress=None, labels: Path | None = None) -> int:
    """Copy the edje-style folder ``src`` to ``out`` with ``change`` applied to every photo and its boxes; the
    number of photos written. ``labels``: another labels.csv of the same photos to carry (e.g. with suits,
    ``datasets/real-dev-suits/``). FileNotFoundError without ``labels.csv``, ValueError for an unknown change."""
    import cv2

    if change not in CHANGES:
        raise ValueError(f"unknown change {change!r}: one of {', '.join(CHANGES)}")
    src, out = Path(src), Path(out)
    rows, image_dir = _labelled(src, labels)
    _, picture, move = CHANGES[change]
    (out / "images").mkdir(parents=True, exist_ok=True)
    sizes: dict[str, tuple[int, int]] = {}
    moved = []
    names = sorted({r["filename"] for r in rows})
    for k, name in enumerate(names):
        image = cv2.imread(str(image_dir / name), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"{image_dir / name}: cannot read the image")
        sizes[name] = image.shape[1], image.shape[0]
        cv2.imwrite(str(out / "images" / name), picture(image), [cv2.IMWRITE_JPEG_QUALITY, 95])
        if progress is not None:
            progress(k + 1, len(names))
    for r in rows:
        w, h = sizes[r["filename"]]
        box, nw, nh = move(tuple(float(r[k]) for k in ("xmin", "ymin", "xmax", "ymax")), w, h)
        moved.append({**r, "width": nw, "height": nh, "xmin": round(box[0], 1), "ymin": round(box[1], 1),
                      "xmax": round(box[2], 1), "ymax": round(box[3], 1)})
    _write_labels(out, moved, list(rows[0].keys()) if rows else ["filename"])
    return len(names)


#: ``closeup``: the frame of each close-up, and how much of its height the card's long side fills (drawn per card)
CLOSEUP_SIZE = (640, 480)
CLOSEUP_FILL = (0.45, 0.95)
#: ... enlarged at most this much (a card smaller in the photo is left out: its close-up would be a blur)
CLOSEUP_MAX_ZOOM = 3.0
#: another labelled card counts in a close-up when at least this share of its box is in the frame
CLOSEUP_INSIDE = 0.95


def make_closeups(src: Path, out: Path, seed: int = 0, progress=None, labels: Path | None = None) -> int:
    """One close-up per labelled card of the edje-style folder ``src`` (``<photo>_c<k>.jpg`` in ``out``): a
    640x480 frame around the card, which fills 45-95 % of its height (seeded), as a card held up to the camera.
    Labelled: that card and every other card wholly in the frame (``labels``: as in :func:`make_harder`). The
    number of close-ups written."""
    import cv2

    src, out = Path(src), Path(out)
    rows, image_dir = _labelled(src, labels)
    rng = np.random.default_rng(seed)
    fw, fh = CLOSEUP_SIZE
    (out / "images").mkdir(parents=True, exist_ok=True)
    by_photo: dict[str, list[dict]] = {}
    for r in rows:
        by_photo.setdefault(r["filename"], []).append(r)
    written, labels = 0, []
    for k, (name, cards) in enumerate(sorted(by_photo.items())):
        image = cv2.imread(str(image_dir / name), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"{image_dir / name}: cannot read the image")
        boxes = np.array([[float(c[v]) for v in ("xmin", "ymin", "xmax", "ymax")] for c in cards])
        for j, box in enumerate(boxes):
            fill, dx, dy = rng.uniform(*CLOSEUP_FILL), rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)
            long_side = max(box[2] - box[0], box[3] - box[1])
            zoom = fill * fh / long_side
            if zoom > CLOSEUP_MAX_ZOOM:
                continue
            cx, cy = (box[0] + box[2]) / 2 + dx * fw / zoom, (box[1] + box[3]) / 2 + dy * fh / zoom
            m = np.float32([[zoom, 0, fw / 2 - zoom * cx], [0, zoom, fh / 2 - zoom * cy]])
            frame = cv2.warpAffine(image, m, (fw, fh), flags=cv2.INTER_CUBIC if zoom > 1 else cv2.INTER_AREA,
                                   borderMode=cv2.BORDER_REPLICATE)
            file = f"{Path(name).stem}_c{j}.jpg"
            cv2.imwrite(str(out / "images" / file), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
            written += 1
            moved = boxes * zoom + np.array([m[0, 2], m[1, 2]] * 2)
            for i, b in enumerate(moved):
                clipped = np.clip(b, [0, 0, 0, 0], [fw, fh, fw, fh])
                area = (b[2] - b[0]) * (b[3] - b[1])
                if i == j or (clipped[2] - clipped[0]) * (clipped[3] - clipped[1]) >= CLOSEUP_INSIDE * area:
                    labels.append({**cards[i], "filename": file, "width": fw, "height": fh,
                                   **{v: round(float(x), 1) for v, x in zip(("xmin", "ymin", "xmax", "ymax"), clipped)}})
        if progress is not None:
            progress(k + 1, len(by_photo))
    _write_labels(out, labels, list(rows[0].keys()) if rows else ["filename"])
    return written


def _labelled(src: Path, labels: Path | None = None) -> tuple[list[dict], Path]:
    """The rows of ``labels`` (default ``src/labels.csv``) and the folder of the photos."""
    labels = Path(labels) if labels is not None else src / "labels.csv"
    if not labels.is_file():
        raise FileNotFoundError(f"{labels} not found: an edje-style folder has labels.csv")
    with labels.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return rows, (src / "images" if (src / "images").is_dir() else src)


def _write_labels(out: Path, rows: list[dict], fields: list[str]) -> None:
    with (out / "labels.csv").open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
