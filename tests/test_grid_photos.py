"""vision.grid_photos, the renderer of labelled grid photos for ``patience bench score-photo``: its truth is the grid
AS SEEN (the quarter turn nearest the picture's axes), and phone photos are stored turned with an EXIF tag.
Plain made-up faces stand in for the card artwork (the tests need no Debian decks)."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.training.grid_photos import (OVERLAP_COLUMN_STEPS, OVERLAP_ROW_STEPS, render_grid_photo,  # noqa: E402
                                        store_with_exif)
from vision.training.scenes import Face  # noqa: E402

NAMES = [f"{r}{s}" for s in "shdc" for r in ("A", "2", "3", "4", "5", "6", "7")][:25]


def faces():
    out = []
    for i, name in enumerate(NAMES):
        img = np.zeros((140, 100, 4), np.uint8)
        img[..., :3] = (40 + 8 * i, 200 - 6 * i, 120)  # each face its own colour, to find it in the picture
        img[..., 3] = 255
        out.append(Face(name, img, (0.05, 0.05, 0.25, 0.3), "plain"))
    return out


def colour_at(picture, point):
    x, y = (int(round(v)) for v in point)
    return picture[y, x].astype(int)


@pytest.mark.parametrize("angle,turns", [(0, 0), (90, -1), (180, 2), (270, 1), (20, 0), (-70, 1)])
def test_the_truth_is_the_dealt_grid_turned_as_the_picture_shows_it(angle, turns):
    picture, rows, info = render_grid_photo(faces(), np.random.default_rng(1), (800, 600), angle=angle, tilt=0.05,
                                            photometric=False)
    dealt = np.array(NAMES, dtype=object).reshape(5, 5)
    assert rows == np.rot90(dealt, turns).tolist()
    # and the recorded centres are where those cards are drawn, in the same order
    for r in range(5):
        for c in range(5):
            i = NAMES.index(rows[r][c])
            assert np.abs(colour_at(picture, info["centres"][r][c]) - (40 + 8 * i, 200 - 6 * i, 120)).max() <= 3
    first, last = (np.mean([info["centres"][r][c][1] for c in range(5)]) for r in (0, 4))
    assert first < last  # row 1 is the top row of the picture


def test_an_empty_cell_is_none_in_the_truth():
    _, rows, _ = render_grid_photo(faces(), np.random.default_rng(2), (640, 480), empty=((1, 3),), photometric=False)
    assert rows[1][3] is None and sum(v is None for row in rows for v in row) == 1


def test_a_phone_photo_is_stored_turned_and_shown_upright(tmp_path):
    picture, _, _ = render_grid_photo(faces(), np.random.default_rng(3), (640, 480), photometric=False)
    path = tmp_path / "phone.jpg"
    store_with_exif(path, picture, 6)
    from PIL import Image

    with Image.open(path) as im:
        assert im.size == (480, 640) and im.getexif()[0x0112] == 6
    shown = cv2.imread(str(path))
    assert shown.shape == picture.shape
    assert np.abs(shown.astype(int) - picture.astype(int)).mean() < 6  # the same picture, JPEG aside


@pytest.mark.parametrize("overlap", [False, True])
@pytest.mark.parametrize("along", ["rows", "columns"])
def test_rows_or_columns_lie_apart_or_each_card_over_the_edge_of_the_one_laid_before(along, overlap):
    """Rows: each over the lower part of the one above; columns: each card over the right part of the one before.
    Halfway from a card to its neighbour below (rows) or on the right (columns) lies that neighbour where they
    overlap, else the table."""
    steps = {} if not overlap else (
        {"row_steps": OVERLAP_ROW_STEPS} if along == "rows" else {"column_steps": OVERLAP_COLUMN_STEPS})
    picture, rows, info = render_grid_photo(faces(), np.random.default_rng(4), (800, 600), photometric=False, **steps)
    dr, dc = (1, 0) if along == "rows" else (0, 1)
    for r in range(5 - dr):
        for c in range(5 - dc):
            halfway = (np.array(info["centres"][r][c]) + np.array(info["centres"][r + dr][c + dc])) / 2
            k = NAMES.index(rows[r + dr][c + dc])
            covered = np.abs(colour_at(picture, halfway) - (40 + 8 * k, 200 - 6 * k, 120)).max() <= 3
            assert covered == overlap


def test_a_set_is_rendered_with_rows_or_columns_laid_over_each_other_or_refused(tmp_path):
    from vision.training.grid_photos import OVERLAPS, write_grid_set

    assert set(OVERLAPS) == {"", "rows", "columns", "both"}
    with pytest.raises(ValueError, match="overlap 'diagonal'"):
        write_grid_set(tmp_path, 1, decks={"x": []}, overlap="diagonal")
