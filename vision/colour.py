"""A picture without colour (a black-and-white photo, a grey webcam mode): the player is told that suits may be
misread.

The index classifier and the suit look learned red from black by the ink's colour: in a grey picture the red
indices are dark grey and read as spades or clubs (a grey copy of the test grid ``grid_tilted.jpg``: none of its 15
red cards named right, 10 named black, 5 left unread). Nothing in the reading is changed here;
``Detector.prepare_notes`` adds the note (the photo commands print it) and the live panel says it
(``assistant.live.loop.picture_condition``).
"""
from __future__ import annotations

import numpy as np

# A picture is grey when even its most coloured pixels (the 99.9th percentile of each pixel's largest difference
# between two channels) differ by at most this much. Of 555 rendered and real test photos (session 22) the least
# coloured was at 13 (a close-up of a black card on a neutral table), the next at 22, the real development photos
# at 51 and above; a grey picture stored as colour is at 0 (a few levels more after JPEG).
GREY_CHROMA = 6.0
SAMPLE_PIXELS = 20_000  # read on about this many pixels, evenly spread


def colour_level(image_bgr: np.ndarray) -> float:
    """How coloured the picture's most coloured pixels are: the 99.9th percentile of each pixel's largest
    difference between two of its channels (0 for a grey picture), on a thumbnail of about ``SAMPLE_PIXELS``."""
    import cv2

    if image_bgr.ndim == 2 or image_bgr.shape[2] == 1:
        return 0.0
    h, w = image_bgr.shape[:2]
    f = min(1.0, (SAMPLE_PIXELS / max(h * w, 1)) ** 0.5)
    small = cv2.resize(image_bgr[..., :3], (max(1, round(w * f)), max(1, round(h * f))),
                       interpolation=cv2.INTER_NEAREST).astype(np.int16)
    b, g, r = small[..., 0], small[..., 1], small[..., 2]
    spread = np.maximum(np.maximum(np.abs(b - g), np.abs(g - r)), np.abs(b - r))
    return float(np.percentile(spread, 99.9))


def is_grey(image_bgr: np.ndarray) -> bool:
    """The picture has no colour (``GREY_CHROMA``): its red suits read as black."""
    return colour_level(image_bgr) <= GREY_CHROMA


def grey_note(image_bgr: np.ndarray) -> str | None:
    """A line for the player when the picture has no colour (``is_grey``); None otherwise."""
    if not is_grey(image_bgr):
        return None
    return ("the photo has no colour: red suits are told from black by their colour, so hearts and diamonds are "
            "read as spades or clubs or not at all; take a colour photo")
