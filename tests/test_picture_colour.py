"""A photo without colour is named: the reader tells red suits from black by their colour (vision.colour)."""
import cv2
import numpy as np

from vision.colour import GREY_CHROMA, colour_level, grey_note
from vision.detector import Detector


def felt_table_with_a_black_card() -> np.ndarray:
    image = np.empty((480, 640, 3), np.uint8)
    image[:] = (40, 110, 30)  # green felt
    image[100:300, 200:350] = 235  # white card paper
    image[120:150, 210:230] = 15  # a black index
    return image


def grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def test_a_colour_photo_has_colour_even_when_its_cards_are_black():
    assert colour_level(felt_table_with_a_black_card()) > GREY_CHROMA
    assert grey_note(felt_table_with_a_black_card()) is None


def test_a_grey_photo_stored_as_colour_or_as_one_channel_has_none():
    g = grey(felt_table_with_a_black_card())
    assert colour_level(g) == 0.0 and colour_level(g[..., 0]) == 0.0
    note = grey_note(g)
    assert note.startswith("the photo has no colour") and "hearts and diamonds" in note


def test_jpeg_noise_on_a_grey_photo_does_not_make_it_colourful():
    ok, data = cv2.imencode(".jpg", grey(felt_table_with_a_black_card()), [cv2.IMWRITE_JPEG_QUALITY, 70])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert colour_level(decoded) <= GREY_CHROMA


def test_the_photo_commands_get_the_note_from_the_detector():
    notes = Detector.prepare_notes(grey(felt_table_with_a_black_card()))
    assert any(n.startswith("the photo has no colour") for n in notes)
    assert not any("colour" in n for n in Detector.prepare_notes(felt_table_with_a_black_card()))
