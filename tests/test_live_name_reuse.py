"""The camera loop lets the reader keep a corner's name from the previous reading only where nothing moved since:
a card laid exactly on another one (a 3 played onto a 2 on a foundation) must be named afresh."""

from __future__ import annotations

import numpy as np

from assistant.live.loop import reusable_previous
from vision.detections import Detections
from vision.motion import Motion
from vision.results import DetectionResult


def reading(*boxes):
    d = Detections(xyxy=np.array(boxes, np.float32), confidence=np.ones(len(boxes), np.float32),
                   class_id=np.zeros(len(boxes), np.int64),
                   data={"card": np.array(["2s", "Kh"][:len(boxes)], dtype=object)})
    return DetectionResult(cards=[], card_detections=Detections.empty(),
                           detections=d)


def still():
    return Motion(False, 0.0, 5, None, 0.25)


def moved_at(x1, y1, x2, y2, scale=0.25, size=(120, 160)):
    mask = np.zeros(size, bool)
    mask[int(y1 * scale):int(y2 * scale), int(x1 * scale):int(x2 * scale)] = True
    return Motion(True, 0.01, 0, mask, scale)


def test_a_still_table_keeps_the_whole_previous_reading():
    prev = reading((10, 10, 30, 40), (300, 200, 320, 230))
    assert reusable_previous(prev, [still(), still()]) is prev


def test_where_a_hand_laid_a_card_the_corner_is_named_afresh_and_the_others_keep_their_names():
    prev = reading((10, 10, 30, 40), (300, 200, 320, 230))
    kept = reusable_previous(prev, [still(), moved_at(0, 0, 60, 60), still()])
    assert list(kept.detections.data["card"]) == ["Kh"]


def test_a_moving_camera_drops_the_previous_reading():
    prev = reading((10, 10, 30, 40))
    whole = Motion(True, 0.5, 0, np.ones((120, 160), bool), 0.25)
    assert reusable_previous(prev, [whole]) is None
    assert reusable_previous(None, [still()]) is None
