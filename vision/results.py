"""What the detector reports for one image: each card once (:class:`SeenCard`) and the whole result with the raw
boxes (:class:`DetectionResult`), with their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.detections import Detections


@dataclass(frozen=True)
class SeenCard:
    """One card found in an image: its canonical name, confidence 0..1, box (x1, y1, x2, y2) in image pixels."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    corners: int = 1

    def to_json(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 4), "box": [round(v, 1) for v in self.box]}


@dataclass
class DetectionResult:
    """``cards``: each card once, in reading order; ``card_detections``: the same as Detections;
    ``detections``: the raw corner (and card) boxes with data columns ``label`` (detector class), ``card``,
    ``card_confidence`` and ``card_id`` (row in ``card_detections`` or -1)."""

    cards: list[SeenCard]
    card_detections: Detections
    detections: Detections
    image_hw: tuple[int, int] = (0, 0)
    tiles: int = 1
    reused: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    suit_shifts: dict[str, float] = field(default_factory=dict)  # a photo's balance of suits (vision.deck_suits)

    @property
    def names(self) -> list[str]:
        return [c.card for c in self.cards]

    def scaled(self, factor: float, image_hw: tuple[int, int]) -> "DetectionResult":
        """The same reading with every box scaled by ``factor``, for a picture of ``image_hw``: a reading of an
        enlarged copy brought back to the photo's own pixels."""
        cards = [SeenCard(c.card, c.confidence, tuple(float(v) * factor for v in c.box), c.corners) for c in self.cards]
        return DetectionResult(cards, self.card_detections.scaled(factor), self.detections.scaled(factor), image_hw,
                               self.tiles, self.reused, dict(self.timings_ms), dict(self.suit_shifts))

    def to_json(self) -> dict:
        raw = []
        for xyxy, conf, _cls, data in self.detections:
            row = {"label": str(data.get("label", "")), "confidence": round(conf, 4),
                   "box": [round(float(v), 1) for v in xyxy]}
            if data.get("card"):
                row["card"] = str(data["card"])
                row["card_confidence"] = round(float(data.get("card_confidence", 0.0)), 4)
            raw.append(row)
        return {"cards": [c.to_json() for c in self.cards], "detections": raw}
