"""A dim picture is brightened before the cards are read; a picture with bright paper is left exactly as it is."""
import numpy as np

from vision.light import DIM_LEVEL, MAX_GAIN, brightened, paper_level


def table(light=1.0, seed: int = 0) -> np.ndarray:
    """A 480x640 picture of a green table with a white card and its black index, in ``light`` (1: daylight)."""
    rng = np.random.default_rng(seed)
    image = np.empty((480, 640, 3), np.float32)
    image[:] = (40, 110, 30)
    image[100:300, 200:350] = 240
    image[120:150, 210:230] = 20
    image = image * light + rng.normal(0, 1.5, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def test_a_well_lit_picture_is_left_exactly_as_it_is():
    image = table()
    assert brightened(image) is image


def test_a_dim_picture_gets_white_paper_and_keeps_its_ink_dark():
    image = table(0.35)
    assert paper_level(image) < DIM_LEVEL
    out = brightened(image)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert out[200, 300].min() >= 225  # the card's paper
    assert out[135, 220].max() <= 60   # the ink on it
    assert brightened(out) is out  # no longer dim: brightening twice changes nothing


def test_a_nearly_black_frame_is_not_turned_into_noise():
    covered = table(0.04)
    assert brightened(covered) is covered  # a covered lens: nothing to see
    very_dim = table(0.1)
    assert brightened(very_dim).max() <= MAX_GAIN * very_dim.max()


def test_grey_pictures_are_brightened_too():
    grey = table(0.35)[..., 1].copy()
    assert brightened(grey)[200, 300] >= 225
