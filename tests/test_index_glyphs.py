"""Synthetic corner-index crops (``vision.training.index_glyphs``): framed like the scene crops, coloured like the suit.

models/README.md, "Data": crops are "64x64 crops of every index ... one jittered crop each: centre ±8 %, side
1.1-1.6x the box". A glyph crop must be cut the same way around its own rank + pip ink. Only the system's DejaVu
Sans is used here (no artwork cache, no network); without it (or without Pillow) the tests skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")
cv2 = pytest.importorskip("cv2")

from vision.card_names import CARD_NAMES  # noqa: E402
from vision.training.index_glyphs import draw_pip, font_renders_ranks, render_index_crop, suit_glyphs  # noqa: E402


def _dejavu() -> Path | None:
    if shutil.which("fc-match"):
        out = subprocess.run(["fc-match", "-f", "%{file}", "DejaVuSans"], capture_output=True, text=True).stdout
        if out and Path(out).is_file() and "DejaVuSans" in Path(out).name:
            return Path(out)
    for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"):
        if Path(p).is_file():
            return Path(p)
    return None


FONT = _dejavu()
pytestmark = pytest.mark.skipif(FONT is None, reason="no DejaVu Sans TTF on this system")


def _ink(crop: np.ndarray) -> np.ndarray:
    """Ink pixels: clearly darker than the paper (the brightest part of a plain crop)."""
    grey = crop.astype(np.float32).mean(2)
    return grey < np.percentile(grey, 90) - 60


def test_crop_is_64px_bgr_uint8():
    crop = render_index_crop("Qh", np.random.default_rng(0), [FONT])
    assert crop.shape == (64, 64, 3) and crop.dtype == np.uint8


def test_same_seed_same_pixels_and_another_seed_differs():
    a = render_index_crop("7c", np.random.default_rng(5), [FONT])
    b = render_index_crop("7c", np.random.default_rng(5), [FONT])
    c = render_index_crop("7c", np.random.default_rng(6), [FONT])
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("card", ["Ah", "10d", "Qh", "5d"])
def test_red_suits_print_red_ink(card):
    for seed in range(6):
        crop = render_index_crop(card, np.random.default_rng(seed), [FONT], plain=True).astype(np.float32)
        b, g, r = np.median(crop[_ink(crop)], axis=0)
        assert r > g + 60 and r > b + 30, (card, seed, b, g, r)


@pytest.mark.parametrize("card", ["As", "10c", "Ks", "6c"])
def test_black_suits_print_dark_ink(card):
    for seed in range(6):
        crop = render_index_crop(card, np.random.default_rng(seed), [FONT], plain=True).astype(np.float32)
        b, g, r = np.median(crop[_ink(crop)], axis=0)
        assert max(b, g, r) < 120 and r < b + 20, (card, seed, b, g, r)  # black, dark grey or dark blue: never red


def test_ink_box_is_framed_like_a_training_crop():
    """Centre within +-8 % of the side (plus a pixel of rounding and anti-aliasing), longer side 1/1.6..1/1.1 of it."""
    for seed in range(40):
        card = CARD_NAMES[(seed * 11) % 52]
        crop = render_index_crop(card, np.random.default_rng(seed), [FONT], plain=True)
        ys, xs = np.nonzero(_ink(crop))
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
        # A box can run off the crop when the jitter pushes it out (as in the scene crops): measure what is inside.
        touches = x0 == 0 or y0 == 0 or x1 == 64 or y1 == 64
        longest = max(x1 - x0, y1 - y0)
        assert longest <= 64 / 1.1 + 2, (card, seed, longest)
        if not touches:
            assert longest >= 64 / 1.6 - 3, (card, seed, longest)
            assert abs((x0 + x1) / 2 - 32) <= 0.08 * 64 + 2, (card, seed, x0, x1)
            assert abs((y0 + y1) / 2 - 32) <= 0.08 * 64 + 2, (card, seed, y0, y1)


def test_every_card_renders_with_ink():
    for j, card in enumerate(CARD_NAMES):
        crop = render_index_crop(card, np.random.default_rng(j), [FONT])
        assert crop.shape == (64, 64, 3)
        assert crop.min() < crop.max() - 60, card


def test_drawn_pips_are_solid_and_the_size_asked():
    for suit in "shdc":
        for seed in range(5):
            m = draw_pip(suit, np.random.default_rng(seed), 60)
            assert abs(m.shape[1] - 60) <= 4  # plus anti-aliased fringe
            assert (m > 127).mean() > 0.3  # a filled shape, not an outline


def test_dejavu_draws_ranks_and_the_four_filled_suit_glyphs():
    assert font_renders_ranks(FONT)
    assert suit_glyphs(str(FONT)) == frozenset("shdc")


def test_courts_print_another_languages_letters_and_nothing_else_changes():
    from vision.training.index_glyphs import COURT_LETTERS

    def crop(card, letters):
        return render_index_crop(card, np.random.default_rng(7), [FONT], plain=True, letters=letters)

    dutch, german = COURT_LETTERS["nl"], COURT_LETTERS["de"]
    assert not np.array_equal(crop("Js", dutch), crop("Js", None))  # a boer's B, not a J
    assert not np.array_equal(crop("Kh", dutch), crop("Kh", None))  # a heer's H
    assert np.array_equal(crop("Kh", german), crop("Kh", None))  # the German Koenig prints K
    assert np.array_equal(crop("7c", dutch), crop("7c", None))  # numbers are printed alike


def test_a_drawing_without_its_pip_is_the_rank_alone():
    def shapes(crop):  # separate blots of ink
        return cv2.connectedComponents(_ink(crop).astype(np.uint8))[0] - 1

    assert shapes(render_index_crop("7h", np.random.default_rng(3), [FONT], plain=True)) == 2  # a 7 over a heart
    assert shapes(render_index_crop("7h", np.random.default_rng(3), [FONT], plain=True, pip=False)) == 1
