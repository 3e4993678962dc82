"""A soft picture is sharpened before the cards are read; a crisp one is left exactly as it is."""
import cv2
import numpy as np

from vision.focus import SOFT, edge_steepness, sharpened


def card_on_table(blur: float = 0.0) -> np.ndarray:
    """A 480x640 picture: a white card with a black index on a green table, blurred by ``blur`` px (sigma)."""
    image = np.empty((480, 640, 3), np.uint8)
    image[:] = (40, 110, 30)
    image[100:300, 200:350] = 240
    image[120:150, 210:230] = 20
    return cv2.GaussianBlur(image, (0, 0), blur) if blur else image


def test_crisp_print_is_steep_and_left_exactly_as_it_is():
    image = card_on_table()
    assert edge_steepness(image) > 0.9
    assert sharpened(image) is image


def test_the_softer_the_picture_the_less_steep_its_edges():
    s1, s2, s3 = (edge_steepness(card_on_table(b)) for b in (1.6, 2.0, 3.0))
    assert SOFT > s1 > s2 > s3


def test_a_soft_picture_gets_its_edges_back():
    soft = card_on_table(2.0)
    out = sharpened(soft)
    assert out.shape == soft.shape and out.dtype == np.uint8
    assert edge_steepness(out) > 1.2 * edge_steepness(soft)
    assert out[135, 220].max() <= soft[135, 220].max()  # the ink no lighter
    assert out[200, 300].min() >= 230                  # the paper no darker


def test_a_picture_without_contrast_is_left_alone():
    flat = np.full((480, 640, 3), 128, np.uint8)
    assert edge_steepness(flat) == float("inf") and sharpened(flat) is flat
