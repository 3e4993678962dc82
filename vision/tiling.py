"""Tiles for large photos: a corner index ~30 px high in a 12-megapixel photo would shrink to ~5 px if the whole
photo were squeezed into the detector's input, so big images are also cut into overlapping tiles, each detected
at a finer scale, and the tiles' detections merged.

A box that touches an inner edge of its tile may be cut off; it is dropped there because the neighbouring tile,
which overlaps by more than an index is large, sees it whole. What remains is merged with NMS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from vision.detections import Detections


@dataclass(frozen=True)
class Tile:
    """A window ``[x0, x1) x [y0, y1)`` of the image, in pixels."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def cut(self, image: np.ndarray) -> np.ndarray:
        return image[self.y0:self.y1, self.x0:self.x1]


def _starts(length: int, tile: int, overlap: int) -> list[int]:
    if tile >= length:
        return [0]
    n = math.ceil((length - overlap) / (tile - overlap))
    if n <= 1:
        return [0]
    step = (length - tile) / (n - 1)
    return [int(round(i * step)) for i in range(n)]


def plan_tiles(image_hw: tuple[int, int], tile_hw: tuple[int, int], overlap: int) -> list[Tile]:
    """Tiles of ``tile_hw`` (H, W) covering an image of ``image_hw``, evenly spread, overlapping by >= ``overlap``.

    >>> [(t.x0, t.x1) for t in plan_tiles((100, 250), (100, 100), 20)]
    [(0, 100), (75, 175), (150, 250)]
    """
    h, w = image_hw
    th, tw = min(tile_hw[0], h), min(tile_hw[1], w)
    if (th < h and overlap >= th) or (tw < w and overlap >= tw):  # (an axis the image fits in needs no overlap)
        raise ValueError(f"tile overlap {overlap} must be smaller than the tile {th}x{tw}")
    return [Tile(x, y, x + tw, y + th) for y in _starts(h, th, overlap) for x in _starts(w, tw, overlap)]


def inner_edge_mask(d: Detections, tile: Tile, image_hw: tuple[int, int], margin: float = 2.0) -> np.ndarray:
    """(n,) True for boxes (image coordinates) NOT touching an edge of ``tile`` that lies inside the image."""
    h, w = image_hw
    x1, y1, x2, y2 = d.xyxy.T
    ok = np.ones(len(d), dtype=bool)
    if tile.x0 > 0:
        ok &= x1 > tile.x0 + margin
    if tile.y0 > 0:
        ok &= y1 > tile.y0 + margin
    if tile.x1 < w:
        ok &= x2 < tile.x1 - margin
    if tile.y1 < h:
        ok &= y2 < tile.y1 - margin
    return ok


def detect_tiled(image: np.ndarray, detect: Callable[[np.ndarray], Detections], tile_hw: tuple[int, int],
                 overlap: int, iou_threshold: float = 0.5,
                 progress: Callable[[int, int], object] | None = None) -> Detections:
    """Run ``detect`` (image -> Detections in that image's pixels) on every tile and merge into image pixels.
    ``progress(done, total)`` is called after each tile (a big photo takes seconds)."""
    image_hw = image.shape[:2]
    parts = []
    tiles = plan_tiles(image_hw, tile_hw, overlap)
    for i, tile in enumerate(tiles):
        d = detect(tile.cut(image)).shifted(tile.x0, tile.y0)
        parts.append(d[inner_edge_mask(d, tile, image_hw)])
        if progress is not None:
            progress(i + 1, len(tiles))
    return merge_overlapping(Detections.merge(parts), iou_threshold)


def merge_overlapping(d: Detections, iou_threshold: float = 0.5) -> Detections:
    """Class-aware NMS, plus: a box mostly inside a better box of its class is a duplicate (a cut-off copy)."""
    if len(d) == 0:
        return d
    d = d.with_nms(iou_threshold)
    from vision.boxes import box_ioa

    ioa = box_ioa(d.xyxy, d.xyxy)
    same = d.class_id[:, None] == d.class_id[None, :]
    keep = np.ones(len(d), dtype=bool)
    for i in range(len(d)):  # d is sorted best first
        better = np.arange(len(d)) < i
        if np.any(keep & better & same[i] & (ioa[i] > 0.8)):
            keep[i] = False
    return d[keep]
