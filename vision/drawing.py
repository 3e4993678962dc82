"""A detection result drawn on its image, for people to check (``patience detect --draw``)."""

from __future__ import annotations

import numpy as np

from vision.results import DetectionResult


def draw_result(image_bgr: np.ndarray, result: DetectionResult) -> np.ndarray:
    """A copy of the image with the raw corner boxes (thin; grey when not part of a reported card) and the
    reported cards (thick box and name) drawn on it."""
    import cv2

    out = image_bgr.copy()
    scale = max(1.0, max(out.shape[:2]) / 800)
    d = result.detections
    for xyxy, _conf, _cls, data in d:
        x1, y1, x2, y2 = (int(round(v)) for v in xyxy)
        colour = (160, 160, 160) if data.get("card_id", -1) < 0 else (0, 200, 255)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, int(scale)))
    for c in result.cards:
        x1, y1, x2, y2 = (int(round(v)) for v in c.box)
        colour = (40, 40, 230) if c.card[-1] in "hd" else (230, 120, 0)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(2, int(2 * scale)))
        label = f"{c.card} {c.confidence:.2f}"
        cv2.putText(out, label, (x1, max(y1 - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, (255, 255, 255),
                    max(3, int(3 * scale)), cv2.LINE_AA)
        cv2.putText(out, label, (x1, max(y1 - 4, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour,
                    max(1, int(scale)), cv2.LINE_AA)
    return out
