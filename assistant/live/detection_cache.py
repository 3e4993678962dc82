"""Reader results kept per frame, so the event logic can be replayed on a video without the model.

``CachedReader(path, read)`` replays what the file holds and records what ``read`` (the card reader) returns for
frames it does not hold yet; ``CachedReader(path)`` only replays. Frames are known by a hash of their pixels (decoding a video gives the
same pixels every time), so a replay may read a different set of frames (a changed motion gate): a frame never
read before is an error, not a guess.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CachedCard:
    card: str
    confidence: float
    box: tuple
    corners: int


@dataclass
class CachedResult:
    cards: list


def frame_key(image) -> str:
    return f"{zlib.crc32(image[::4, ::4].tobytes()):08x}"


class CachedReader:
    def __init__(self, path: str | Path, read=None):
        self.path = Path(path)
        self.read = read
        self.known: dict[str, list] = {}
        if self.path.is_file():
            for line in self.path.read_text().splitlines():
                row = json.loads(line)
                self.known[row["frame"]] = row["cards"]
        self._out = None

    def __call__(self, image, previous):
        key = frame_key(image)
        if key in self.known:
            return CachedResult([CachedCard(c[0], c[1], tuple(c[2]), c[3]) for c in self.known[key]])
        if self.read is None:
            raise KeyError(f"frame {key} was never read into {self.path}: record it with the model first")
        result = self.read(image, previous if hasattr(previous, "detections") else None)  # a cached one holds no crops
        cards = [[c.card, round(float(c.confidence), 4), [round(float(v), 1) for v in c.box], int(c.corners)]
                 for c in result.cards]
        self.known[key] = cards
        if self._out is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._out = open(self.path, "a", encoding="utf-8")
        self._out.write(json.dumps({"frame": key, "cards": cards}) + "\n")
        self._out.flush()
        return result
