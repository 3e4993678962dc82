"""``Detections``: the one value that crosses the vision pipeline (struct of arrays, after Roboflow supervision).

Every stage (tiling merge, NMS, classification, grouping into cards) takes a ``Detections`` and returns one.

- ``xyxy``: (n, 4) float32 boxes in image pixels;
- ``confidence``: (n,) float32 in 0..1;
- ``class_id``: (n,) int64, an index into the class names of whatever produced them;
- ``data``: optional per-detection arrays of length n, e.g. ``data["card"]`` (n,) of card names (``"Qh"``, or
  ``""`` when unknown) and ``data["card_confidence"]`` (n,) float32.

Indexing with an int, a slice, a bool mask or an index array gives a ``Detections`` (an int gives length 1).

>>> d = Detections(xyxy=[[0, 0, 10, 10], [5, 5, 20, 20]], confidence=[0.9, 0.4], class_id=[0, 0],
...                data={"card": ["Qh", "9s"]})
>>> len(d), d[d.confidence > 0.5].data["card"].tolist()
(2, ['Qh'])
>>> len(Detections.merge([d, Detections.empty(), d[1]]))
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from vision.boxes import box_area, nms


class DetectionsError(ValueError):
    """Arrays whose shapes do not fit together."""


def _as_data_array(key: str, value: Any, n: int) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind == "U" or (arr.dtype == object and n and isinstance(arr.reshape(-1)[0], str)):
        arr = arr.astype(object)
    if n == 0 and arr.size == 0:
        arr = arr.reshape((0,) + arr.shape[1:])
    if arr.ndim == 0 or len(arr) != n:
        raise DetectionsError(f"data[{key!r}] has length {0 if arr.ndim == 0 else len(arr)}, expected {n} (one per box)")
    return arr


@dataclass(eq=False)
class Detections:
    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    data: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32)
        if xyxy.size == 0:
            xyxy = xyxy.reshape(0, 4)
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise DetectionsError(f"xyxy must have shape (n, 4), got {xyxy.shape}")
        n = len(xyxy)
        conf = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        cls = np.asarray(self.class_id).reshape(-1)
        if conf.shape != (n,):
            raise DetectionsError(f"confidence must have shape ({n},), got {conf.shape}")
        if cls.shape != (n,):
            raise DetectionsError(f"class_id must have shape ({n},), got {cls.shape}")
        if n and cls.dtype.kind not in "iu" and not np.all(np.mod(cls, 1) == 0):
            raise DetectionsError(f"class_id must be integers, got {cls[:3]!r}")
        self.xyxy = xyxy
        self.confidence = conf
        self.class_id = cls.astype(np.int64)
        self.data = {k: _as_data_array(k, v, n) for k, v in (self.data or {}).items()}

    # -- construction -------------------------------------------------------------------------------------------
    @classmethod
    def empty(cls, data_keys: tuple[str, ...] = ()) -> "Detections":
        """No detections (optionally with empty ``data`` columns, so merging keeps them)."""
        return cls(xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32),
                   class_id=np.zeros(0, np.int64), data={k: np.zeros(0, object) for k in data_keys})

    @classmethod
    def merge(cls, items: list["Detections"]) -> "Detections":
        """Concatenate; empty ones are ignored. Non-empty ones must have the same ``data`` keys."""
        items = [d for d in items if len(d)]
        if not items:
            return cls.empty()
        keys = set(items[0].data)
        for d in items[1:]:
            if set(d.data) != keys:
                raise DetectionsError(f"cannot merge detections with data keys {sorted(keys)} and {sorted(d.data)}")
        data = {}
        for k in keys:
            parts = [d.data[k] for d in items]
            data[k] = np.concatenate(parts).astype(object) if any(p.dtype == object for p in parts) else np.concatenate(parts)
        return cls(xyxy=np.concatenate([d.xyxy for d in items]),
                   confidence=np.concatenate([d.confidence for d in items]),
                   class_id=np.concatenate([d.class_id for d in items]), data=data)

    # -- access -------------------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index) -> "Detections":
        if isinstance(index, str):
            raise TypeError(f"use d.data[{index!r}] for a data column")
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        index = np.asarray(index) if isinstance(index, (list, tuple)) else index
        if isinstance(index, np.ndarray) and index.dtype == bool and index.shape != (len(self),):
            raise DetectionsError(f"bool mask of shape {index.shape} for {len(self)} detections")
        if isinstance(index, np.ndarray) and index.size == 0:
            index = index.astype(np.int64)
        return Detections(xyxy=self.xyxy[index], confidence=self.confidence[index], class_id=self.class_id[index],
                          data={k: v[index] for k, v in self.data.items()})

    def __iter__(self) -> Iterator[tuple[np.ndarray, float, int, dict[str, Any]]]:
        """Rows as ``(xyxy, confidence, class_id, {key: value})``."""
        for i in range(len(self)):
            yield self.xyxy[i], float(self.confidence[i]), int(self.class_id[i]), {k: v[i] for k, v in self.data.items()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Detections):
            return NotImplemented
        return (np.array_equal(self.xyxy, other.xyxy) and np.array_equal(self.confidence, other.confidence)
                and np.array_equal(self.class_id, other.class_id) and set(self.data) == set(other.data)
                and all(np.array_equal(self.data[k], other.data[k]) for k in self.data))

    def __repr__(self) -> str:
        return f"Detections(n={len(self)}, data={sorted(self.data)})"

    @property
    def area(self) -> np.ndarray:
        return box_area(self.xyxy)

    @property
    def center(self) -> np.ndarray:
        """(n, 2) box centres."""
        return np.stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2, (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2], axis=1)

    # -- stages -------------------------------------------------------------------------------------------------
    def with_nms(self, iou_threshold: float = 0.5, class_agnostic: bool = False) -> "Detections":
        """Greedy NMS; the result is sorted by confidence, best first."""
        keep = nms(self.xyxy, self.confidence, iou_threshold, None if class_agnostic else self.class_id)
        return self[keep]

    def shifted(self, dx: float, dy: float) -> "Detections":
        """The same detections with boxes moved by (dx, dy) (tile coordinates -> image coordinates)."""
        off = np.array([dx, dy, dx, dy], dtype=np.float32)
        return Detections(xyxy=self.xyxy + off, confidence=self.confidence, class_id=self.class_id, data=dict(self.data))

    def scaled(self, factor: float) -> "Detections":
        return Detections(xyxy=self.xyxy * np.float32(factor), confidence=self.confidence,
                          class_id=self.class_id, data=dict(self.data))

    def sorted(self) -> "Detections":
        """Best confidence first."""
        return self[np.argsort(-self.confidence, kind="stable")]
