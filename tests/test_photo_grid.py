"""The grid finder (assistant.photo_grid) on made-up corner readings: no model, no picture.

The issue: "assign each card to its row and column from their positions (robust to a tilted or rotated camera,
perspective, uneven gaps, slightly crooked cards ...)", rows "as seen (top row first, left to right)"; "a cell
that could not be read is null and named in a warning, never guessed silently"; "fewer or more than 25 cards, a
card seen twice, two cards in one cell, a missing row: say so plainly"; "use the deck's rule (each card once) to
settle a doubtful reading where it can, and say when it did".
"""

from __future__ import annotations

import numpy as np
import pytest

from assistant.cards import full_deck
from assistant.photo_grid import Sighting, assign_names, fit_homography, grid_from_cards, seen_orientation

DEALT = np.array([str(c) for c in full_deck()[:25]], dtype=object).reshape(5, 5)  # As 2s .. Ks, Ah .. Qh


def camera(angle_deg=0.0, tilt=0.0, scale=90.0, shift=(400.0, 300.0)):
    """Table units (card width 1) -> picture pixels: a turn, a scale and a perspective tilt."""
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    s = np.diag([scale, scale, 1.0])
    t = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]])
    persp = np.array([[1, 0, 0], [0, 1, 0], [0, tilt, 1]])  # rows at small y look larger than those at large y
    centre = np.array([[1, 0, -2.4], [0, 1, -3.2], [0, 0, 1]])
    return t @ s @ persp @ rot @ centre


def project(h, pts):
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


def deal(angle=0.0, tilt=0.0, jitter=0.0, skip=(), seed=0, names=DEALT, gaps=(1.2, 1.6)):
    """Sightings of a dealt grid: two corner indices per card (top-left, bottom-right), plus the card centres."""
    rng = np.random.default_rng(seed)
    h = camera(angle, tilt)
    sightings, centres = [], []
    for r in range(5):
        for c in range(5):
            if (r, c) in skip:
                continue
            cx, cy = c * gaps[0] + rng.normal(0, jitter), r * gaps[1] + rng.normal(0, jitter)
            turn = rng.normal(0, jitter)  # a crooked card
            local = np.array([[-0.36, -0.5], [0.36, 0.5]])
            rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            pts = project(h, np.array([cx, cy]) + local @ rot.T)
            centres.append(project(h, np.array([[cx, cy]]))[0])
            for x, y in pts:
                sightings.append(Sighting(names[r, c], 0.8, (x - 8, y - 10, x + 8, y + 10)))
    return sightings, np.array(centres)


def test_an_upright_grid_is_read_row_by_row_as_dealt():
    s, centres = deal()
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist()
    assert reading.warnings == [] and reading.complete


@pytest.mark.parametrize("angle,turns", [(90, -1), (180, 2), (270, 1), (-90, 1), (3, 0), (-25, 0), (40, 0),
                                         (60, -1), (120, -1), (160, 2), (200, 2), (250, 1), (300, 1), (330, 0)])
def test_any_rotation_reads_the_rows_as_seen_in_the_picture(angle, turns):
    """Turning the camera by 90 degrees shows the dealt rows as columns: the reader reports what the picture
    shows (the quarter turn nearest the picture's axes); the scores do not change (rows and columns are both
    scored)."""
    s, centres = deal(angle=angle)
    reading = grid_from_cards(s, centres)
    assert reading.rows == np.rot90(DEALT, turns).tolist()
    assert reading.complete


@pytest.mark.parametrize("tilt", [0.03, -0.03, 0.06, 0.08, -0.08])
@pytest.mark.parametrize("angle", [0, 15, 100])
def test_perspective_far_rows_smaller_than_near_ones(tilt, angle):
    """A camera held at an angle: the near row's cards are up to ~1.8x as far apart as the far row's (tilt 0.08)."""
    s, centres = deal(angle=angle, tilt=tilt)
    expected = np.rot90(DEALT, -1 if angle == 100 else 0).tolist()
    assert grid_from_cards(s, centres).rows == expected
    assert grid_from_cards(s, None).rows == expected
    near_far = np.ptp(centres[:5, 0]) / np.ptp(centres[20:, 0])
    assert abs(tilt) < 0.07 or max(near_far, 1 / near_far) > 1.5


def test_uneven_gaps_and_crooked_cards():
    s, centres = deal(jitter=0.08, seed=3, gaps=(1.05, 1.45))
    assert grid_from_cards(s, centres).rows == DEALT.tolist()


def test_without_card_boxes_the_corners_give_the_lattice():
    s, _ = deal(angle=33, jitter=0.04)
    assert grid_from_cards(s, None).rows == np.rot90(DEALT, 0).tolist()


def test_an_unread_cell_is_none_and_named_never_guessed():
    s, centres = deal(skip={(2, 3)})
    reading = grid_from_cards(s, centres)
    expected = DEALT.tolist()
    expected[2][3] = None
    assert reading.rows == expected
    assert "24 cards read, a grid has 25" in reading.warnings
    assert "row 3, column 4: no card read" in reading.warnings
    assert not reading.complete
    assert reading.to_check == [(2, 3, None)]


def test_a_missing_row_is_said_plainly():
    s, centres = deal(skip={(4, c) for c in range(5)})
    reading = grid_from_cards(s, centres)
    assert reading.rows[:4] == DEALT[:4].tolist() and reading.rows[4] == [None] * 5
    assert "row 5: no card found (a missing row?)" in reading.warnings
    assert "20 cards read, a grid has 25" in reading.warnings


def test_a_card_outside_the_grid_is_reported_and_not_scored():
    s, centres = deal()
    h = camera()
    x, y = project(h, np.array([[8.5, 3.0]]))[0]  # a card beside the grid, two columns to the right
    s.append(Sighting("Kh", 0.9, (x - 8, y - 10, x + 8, y + 10)))
    centres = np.vstack([centres, [[x, y]]])
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist()
    assert "1 card outside the grid, not scored: Kh" in reading.warnings
    assert "26 cards read, a grid has 25" in reading.warnings


def test_two_cards_in_one_cell_are_reported():
    """Both corners of a second card (Kh, not dealt elsewhere) in row 2, column 3, beside the 8s's two corners."""
    s, centres = deal()
    eights = [x for x in s if x.card == DEALT[1, 2]]
    s += [Sighting("Kh", 0.7, tuple(np.array(x.box) + [5, 6, 5, 6])) for x in eights]
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist()
    assert "row 2, column 3: two cards in one cell, 8s and Kh; took 8s" in reading.warnings
    assert "26 cards read, a grid has 25" in reading.warnings


def test_one_corner_read_otherwise_is_a_doubtful_cell_named_in_the_doubts():
    s, centres = deal()
    i = next(i for i, x in enumerate(s) if x.card == DEALT[1, 2])
    s[i] = Sighting("Kh", 0.7, s[i].box)
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist() and reading.warnings == []
    assert reading.doubts == ["row 2, column 3: 8s or Kh? took 8s (evidence 0.80 against 0.70; a misread corner, "
                              "or two cards in one cell)"]
    assert reading.to_check == [(1, 2, "Kh")]


def test_a_name_with_little_of_its_cells_evidence_is_a_doubt_and_the_cell_is_flagged():
    """Both corners unsure and spread over several names: the best one is taken, but never silently."""
    s, centres = deal()
    for i, x in enumerate(s):
        if x.card == DEALT[2, 0]:
            s[i] = Sighting("", 0.0, x.box, probs=((DEALT[2, 0], 0.3), ("Kd", 0.12), ("Kc", 0.1), ("5d", 0.08)),
                           weight=1.0)
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist() and reading.warnings == []
    assert reading.doubts == [f"row 3, column 1: {DEALT[2, 0]}? only 50% of what was read there points at it "
                              "(also read: Kd, Kc)"]
    assert reading.flagged == {(2, 0)}
    assert reading.to_check == [(2, 0, "Kd")]


def test_a_cleanly_read_grid_has_no_doubts_and_no_flagged_cells():
    reading = grid_from_cards(*deal(angle=20, tilt=0.001, jitter=0.03))
    assert reading.doubts == [] and reading.notes == [] and reading.flagged == set() and reading.to_check == []


def test_the_deck_rule_gives_a_name_read_twice_to_the_stronger_cell_and_says_so():
    """Row 2, column 2 shows 7s; its clearer corner is misread as 2s (the classifier's second answer: 7s), which
    lies, clearly read, at row 1, column 2; its other corner says 7s, faintly. Read alone, the cell would be 2s;
    the deck holds each card once, so it is 7s, and a note says why."""
    names = DEALT.copy()
    s, centres = deal(names=names)
    cell_11 = [i for i, x in enumerate(s) if x.card == names[1, 1]]
    weak = s[cell_11[0]]
    s[cell_11[0]] = Sighting("2s", 0.9, weak.box, probs=(("2s", 0.55), (names[1, 1], 0.45)), weight=1.0)
    s[cell_11[1]] = Sighting(names[1, 1], 0.05, s[cell_11[1]].box)
    reading = grid_from_cards(s, centres)
    assert reading.rows == DEALT.tolist()
    assert reading.notes == [f"row 2, column 2: {names[1, 1]}, not 2s: 2s is at row 1, column 2 "
                             "(the deck has each card once)"]
    assert reading.to_check == []  # the deck rule decided: nothing for the player to check


def test_a_name_read_twice_with_no_second_reading_leaves_the_weaker_cell_unread():
    s, centres = deal()
    for i, x in enumerate(s):
        if x.card == DEALT[3, 3]:
            s[i] = Sighting(DEALT[0, 0], 0.3, x.box)  # both corners of row 4, column 4 misread as As
    reading = grid_from_cards(s, centres)
    assert reading.rows[0][0] == DEALT[0, 0] and reading.rows[3][3] is None
    assert (f"row 4, column 4: unreadable (read as {DEALT[0, 0]}, but {DEALT[0, 0]} is at row 1, column 1; "
            "the deck has each card once)") in reading.warnings
    assert reading.to_check == [(3, 3, None)]


def test_a_cell_the_player_sets_holds_that_card_and_a_note_says_what_was_read():
    """``score-photo --set r4c4=...``: a misread cell corrected by the player."""
    s, centres = deal()
    for i, x in enumerate(s):
        if x.card == DEALT[3, 3]:
            s[i] = Sighting("Kd", 0.8, x.box)  # both corners of row 4, column 4 misread as Kd
    reading = grid_from_cards(s, centres, fixed={(3, 3): DEALT[3, 3]})
    assert reading.rows == DEALT.tolist()
    assert reading.notes == [f"row 4, column 4: {DEALT[3, 3]}, as you set it (read: Kd)"]
    assert not reading.warnings and not reading.doubts


def test_a_card_set_in_one_cell_leaves_the_cell_that_read_it_unread_and_says_why():
    s, centres = deal()
    reading = grid_from_cards(s, centres, fixed={(0, 0): DEALT[1, 1]})
    assert reading.rows[0][0] == DEALT[1, 1] and reading.rows[1][1] is None
    assert (f"row 2, column 2: unreadable (read as {DEALT[1, 1]}, but {DEALT[1, 1]} is at row 1, column 1; "
            "the deck has each card once)") in reading.warnings


def test_the_player_can_name_a_card_the_photo_did_not_show():
    s, centres = deal(skip={(2, 3)})
    reading = grid_from_cards(s, centres, fixed={(2, 3): "Kd"})
    expected = DEALT.tolist()
    expected[2][3] = "Kd"
    assert reading.rows == expected
    assert reading.notes == ["row 3, column 4: Kd, as you set it (nothing was read there)"]
    assert reading.complete


def test_setting_a_cell_to_what_was_read_changes_nothing_but_the_note():
    s, centres = deal()
    reading = grid_from_cards(s, centres, fixed={(4, 4): DEALT[4, 4]})
    assert reading.rows == DEALT.tolist()
    assert reading.notes == [f"row 5, column 5: {DEALT[4, 4]}, as you set it"]


def test_no_or_too_few_cards_is_no_grid():
    assert not grid_from_cards([], None).found
    s, centres = deal()
    reading = grid_from_cards(s[:4], None)
    assert not reading.found and reading.rows == [[None] * 5] * 5
    assert reading.warnings == ["2 cards seen, not laid out in a grid: no grid to score (lay out all 25 in 5 rows "
                                "of 5)"]
    reading = grid_from_cards(s[:14], None)  # 7 cards: a row and a bit
    assert not reading.found


def test_cell_boxes_surround_the_cards():
    s, centres = deal(angle=20, tilt=0.03)
    reading = grid_from_cards(s, centres)
    import cv2

    k = 0
    for r in range(5):
        for c in range(5):
            quad = reading.cell_boxes[r][c].astype(np.float32)
            assert cv2.pointPolygonTest(quad, tuple(float(v) for v in centres[k]), False) > 0
            k += 1


def test_assignment_maximises_the_total_evidence_each_name_once():
    ev = {(0, 0): {"As": 0.9, "Ks": 0.8}, (0, 1): {"As": 0.85}, (0, 2): {"Qh": 0.05}}
    assert assign_names(ev) == {"Ks": (0, 0), "As": (0, 1)}  # 0.8 + 0.85 beats 0.9 alone; 0.05 is too little


def test_orientation_picks_the_quarter_turn_nearest_the_picture_axes():
    lattice = np.array([[a, b] for b in range(5) for a in range(5)], float)
    for angle, right in ((10, (1, 0)), (80, (0, -1)), (100, (0, -1)), (190, (-1, 0)), (-80, (0, 1))):
        h = fit_homography(lattice, project(camera(angle), lattice))
        col_axis, _row_axis = seen_orientation(h, (2, 2))
        assert tuple(col_axis) == right, angle


def test_an_unread_cells_corners_are_looked_for_where_the_other_cards_show_theirs():
    """probe_boxes: the detector missed both corners of row 3, column 4; the other cards' corners say where a
    card's indices lie in its cell, and how big they are."""
    from assistant.photo_grid import probe_boxes

    full, _ = deal(angle=30, tilt=0.03)
    missing = [x for x in full if x.card == DEALT[2, 3]]
    s, centres = deal(angle=30, tilt=0.03, skip={(2, 3)})
    reading = grid_from_cards(s, centres)
    probes = probe_boxes(reading, s)
    assert list(probes) == [(2, 3)]
    got = sorted(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in probes[(2, 3)])
    want = sorted(x.centre for x in missing)
    assert np.allclose(got, want, atol=3.0)
    for b, x in zip(sorted(probes[(2, 3)]), sorted(x.box for x in missing)):
        assert b[2] - b[0] == pytest.approx(x[2] - x[0], rel=0.15)


def test_an_even_split_between_two_free_names_is_a_doubt_not_a_crash():
    """Two names with (nearly) the same evidence in one cell, neither read elsewhere: whichever the assignment
    takes, the cell is listed as doubtful."""
    s, centres = deal()
    for i, x in enumerate(s):
        if x.card == DEALT[4, 4]:
            s[i] = Sighting("", 0.0, x.box, probs=(("Kd", 0.5), ("Kh", 0.5)), weight=1.0)
    reading = grid_from_cards(s, centres)
    assert reading.rows[4][4] in ("Kd", "Kh") and reading.warnings == []
    assert len(reading.doubts) == 1 and reading.doubts[0].startswith("row 5, column 5: K")


def test_card_boxes_that_make_no_grid_give_way_to_the_corners():
    """A far photo: a few whole-card boxes, scattered, that hold no 3x3 block: the named corners find the grid."""
    s, _ = deal(angle=12)
    scattered = np.array([[10.0, 10.0], [700.0, 40.0], [380.0, 500.0], [90.0, 420.0], [600.0, 610.0]])
    assert grid_from_cards(s, scattered).rows == DEALT.tolist()


def test_the_correction_offered_is_the_first_doubtful_cells_other_reading_else_a_cell_to_name():
    from assistant.commands.score_photo import correction_example

    s, centres = deal(skip={(0, 1)})
    i = next(i for i, x in enumerate(s) if x.card == DEALT[3, 4])
    s[i] = Sighting("Kh", 0.7, s[i].box)
    reading = grid_from_cards(s, centres)
    assert correction_example(reading) == "r4c5=Kh"  # before the unread row 1, column 2: it has a name to offer
    assert correction_example(grid_from_cards(*deal(skip={(0, 1)}))) == "r1c2=CARD"
    assert correction_example(grid_from_cards(*deal())) is None


def overlapped_rows_result():
    """A DetectionResult of a grid whose rows lie over the lower part of the row above (row step 0.8 card widths,
    cards 1.4 high): of each card but the last row's, only its top-left corner index shows, which lies nearly a row
    step above the card's middle; the detector grouped each corner into its card (the card's visible part)."""
    from vision.detections import Detections
    from vision.results import DetectionResult

    h = camera()
    corner_boxes, card_boxes, names, card_of = [], [], [], []
    for r in range(5):
        for c in range(5):
            cx, cy = c * 1.2, r * 0.8
            top, bottom = cy - 0.7, (cy + 0.7 if r == 4 else cy - 0.7 + 0.8)  # the visible part of the card
            (x1, y1), (x2, y2) = project(h, np.array([[cx - 0.5, top], [cx + 0.5, bottom]]))
            card_boxes.append((x1, y1, x2, y2))
            for lx, ly in ([(-0.36, -0.55)] + ([(0.36, 0.55)] if r == 4 else [])):
                x, y = project(h, np.array([[cx + lx, cy + ly]]))[0]
                corner_boxes.append((x - 8, y - 10, x + 8, y + 10))
                names.append(DEALT[r, c])
                card_of.append(len(card_boxes) - 1)
    n = len(corner_boxes)
    detections = Detections(np.array(corner_boxes + card_boxes), np.full(n + 25, 0.9), np.zeros(n + 25, np.int64),
                            data={"label": np.array(["index"] * n + ["card"] * 25, dtype=object),
                                  "card": np.array(names + [""] * 25, dtype=object),
                                  "card_confidence": np.full(n + 25, 0.9),
                                  "card_id": np.array(card_of + [-1] * 25)})
    cards = Detections(np.array(card_boxes), np.full(25, 0.9), np.zeros(25, np.int64),
                       data={"card": np.array(DEALT.reshape(-1), dtype=object)})
    return DetectionResult([], cards, detections)


def test_rows_laid_over_each_other_are_read_by_counting_each_corner_in_its_own_cards_cell():
    from assistant.photo_grid import sightings_from_detection

    result = overlapped_rows_result()
    corners, centres = sightings_from_detection(result)
    assert grid_from_cards(corners, centres).rows != DEALT.tolist()  # a corner rounds into the row above
    by_cards, centres = sightings_from_detection(result, at_cards=True)
    assert grid_from_cards(by_cards, centres).rows == DEALT.tolist()


def test_the_camera_reads_rows_laid_over_each_other_too_and_asks_for_gaps():
    from assistant.photo_grid import OVERLAP_NOTE, grid_from_detection

    reading = grid_from_detection(overlapped_rows_result())  # what the live camera's scoring key reads
    assert reading.rows == DEALT.tolist() and reading.complete
    assert OVERLAP_NOTE in reading.notes


@pytest.mark.parametrize("angle,turns", [(0, 0), (90, -1), (200, 2)])
def test_rows_laid_over_each_other_are_read_at_the_corner_every_card_shows(angle, turns):
    """Only each card's top corner shows (the last row's bottom corner too): the lattice of those corners is the
    cards' lattice, whatever the overlap and whatever the detector made of the covered cards."""
    from assistant.photo_grid import sightings_at_corners

    h = camera(angle)
    corners, middles = [], []
    for r in range(5):
        for c in range(5):
            cx, cy = c * 1.2, r * 0.8
            middles.append(project(h, np.array([[cx, cy]]))[0])  # whole cards, as a detector may box covered ones
            for lx, ly in ([(-0.36, -0.55)] + ([(0.36, 0.55)] if r == 4 else [])):
                x, y = project(h, np.array([[cx + lx, cy + ly]]))[0]
                corners.append(Sighting(DEALT[r, c], 0.8, (x - 8, y - 10, x + 8, y + 10)))
    seen = np.rot90(DEALT, turns).tolist()  # as the picture shows it (the turn nearest the picture's axes)
    assert grid_from_cards(corners, middles).rows != seen  # a corner rounds into the row above
    readings = []
    for far in (False, True):  # which end of the diagonal shows is not known beforehand: both are tried
        moved, points, to_middle = sightings_at_corners(corners, far)
        readings.append((grid_from_cards(moved, points), to_middle))
    right = [(g, m) for g, m in readings if g.rows == seen and not g.warnings]
    assert len(right) == 1
    reading, to_middle = right[0]
    middle = project(h, np.array([[2 * 1.2, 2 * 0.8]]))[0]  # the middle card's middle (every turn keeps it there)
    assert np.allclose(reading.cell_boxes[2][2].mean(0) + to_middle, middle, atol=3)


def test_too_few_cards_read_at_both_corners_give_no_corner_lattice():
    from assistant.photo_grid import sightings_at_corners

    s, _ = deal()
    one_corner = s[::2]  # each card's top-left corner only
    moved, points, _ = sightings_at_corners(one_corner)
    assert moved == one_corner and len(points) == 0


def columns_laid_over_each_other(angle=0.0, both_corners=(0, 2, 4)):
    """Corner readings of a grid whose cards each lie over the right part of the card before them (column step
    0.6 card widths): of each card but the last column's, only its top-left corner index shows, which lies more
    than half a column step left of the card's middle; of the last column, ``both_corners`` rows' cards are read at
    both corners (a real photo misses some). Returns (sightings, card middles (5, 5, 2), camera)."""
    h = camera(angle)
    corners, middles = [], np.zeros((5, 5, 2))
    for r in range(5):
        for c in range(5):
            cx, cy = c * 0.6, r * 1.6
            middles[r, c] = project(h, np.array([[cx, cy]]))[0]
            shown = [(-0.36, -0.55)] + ([(0.36, 0.55)] if c == 4 and r in both_corners else [])
            for lx, ly in shown:
                x, y = project(h, np.array([[cx + lx, cy + ly]]))[0]
                corners.append(Sighting(DEALT[r, c], 0.8, (x - 8, y - 10, x + 8, y + 10)))
    return corners, middles, h


def test_two_cards_read_at_both_corners_are_enough_to_find_the_corner_every_card_shows():
    """Where columns overlap only the last column's cards show both corners, and a photo may read only a few of
    them there: two such cards fix the diagonal from the corner every card shows to its middle."""
    from assistant.photo_grid import sightings_at_corners

    corners, middles, _ = columns_laid_over_each_other(both_corners=(1, 3))
    moved, points, to_middle = sightings_at_corners(corners)
    assert len(points) == 25
    reading = grid_from_cards(moved, points).moved(1.0, *to_middle)
    assert reading.rows == DEALT.tolist() and reading.complete
    assert np.allclose(reading.cell_boxes[2][2].mean(0), middles[2, 2], atol=3)
    one_pair = [s for s in corners if not (s.card == DEALT[3, 4] and s.centre[1] > middles[3, 4][1])]
    assert len(sightings_at_corners(one_pair)[1]) == 0  # one card read at both corners says nothing


@pytest.mark.parametrize("angle", [0, 25, 180])
def test_a_grid_read_whole_from_the_corners_of_overlapping_columns_has_its_cells_drawn_around_the_cards(angle):
    """Read from the corners alone the names are right, but each cell lies around its card's top corner, which
    lies outside the card's cell where the columns overlap: the cells are drawn around the cards' middles."""
    from assistant.photo_grid import read_overlapping

    corners, middles, _ = columns_laid_over_each_other(angle)
    reading = grid_from_cards(corners)
    assert reading.complete
    seen = reading.rows
    inside = [[cv2_inside(reading.cell_boxes[r][c], m) for c, m in enumerate(row)]
              for r, row in enumerate(seen_middles(reading, middles))]
    assert not all(all(row) for row in inside)  # drawn around the corners, the cells miss most cards' middles
    drawn = read_overlapping(reading, None, corners)
    assert drawn.rows == seen and drawn.complete
    assert all(cv2_inside(drawn.cell_boxes[r][c], m)
               for r, row in enumerate(seen_middles(drawn, middles)) for c, m in enumerate(row))


def seen_middles(reading, middles):
    """The dealt cards' middles in the order the reading's rows show them (each name's dealt place)."""
    where = {DEALT[r, c]: middles[r, c] for r in range(5) for c in range(5)}
    return [[where[name] for name in row] for row in reading.rows]


def cv2_inside(quad, point) -> bool:
    import cv2

    return cv2.pointPolygonTest(np.asarray(quad, np.float32), tuple(map(float, point)), False) >= 0


def rows_and_columns_laid_over_each_other_result(angle=0.0):
    """A DetectionResult of a grid whose rows AND columns lie over each other (column step 0.6 card widths, row step
    0.8, cards 1.4 high): of each card only its top-left corner index shows (the last card's bottom-right one too);
    the detector boxed only the whole card (covered ones show no card outline), its corners grouped into it. Also
    the cards' middles by name."""
    from vision.detections import Detections
    from vision.results import DetectionResult

    h = camera(angle)
    corner_boxes, card_boxes, names, card_of, middles = [], [], [], [], {}
    for r in range(5):
        for c in range(5):
            cx, cy = c * 0.6, r * 0.8
            middles[DEALT[r, c]] = project(h, np.array([[cx, cy]]))[0]
            last = (r, c) == (4, 4)
            if last:
                quad = project(h, np.array([[cx - 0.5, cy - 0.7], [cx + 0.5, cy + 0.7]]))
                card_boxes.append((*quad.min(axis=0), *quad.max(axis=0)))
            for lx, ly in ([(-0.36, -0.55)] + ([(0.36, 0.55)] if last else [])):
                x, y = project(h, np.array([[cx + lx, cy + ly]]))[0]
                corner_boxes.append((x - 8, y - 10, x + 8, y + 10))
                names.append(DEALT[r, c])
                card_of.append(0 if last else -1)
    n, k = len(corner_boxes), len(card_boxes)
    detections = Detections(np.array(corner_boxes + card_boxes), np.full(n + k, 0.9), np.zeros(n + k, np.int64),
                            data={"label": np.array(["index"] * n + ["card"] * k, dtype=object),
                                  "card": np.array(names + [""] * k, dtype=object),
                                  "card_confidence": np.full(n + k, 0.9),
                                  "card_id": np.array(card_of + [-1] * k)})
    cards = Detections(np.array(card_boxes), np.full(k, 0.9), np.zeros(k, np.int64),
                       data={"card": np.array([DEALT[4, 4]], dtype=object)})
    return DetectionResult([], cards, detections), middles


@pytest.mark.parametrize("angle", [0, 30, 180])
def test_rows_and_columns_laid_over_each_other_are_read_at_the_one_corner_every_card_shows(angle):
    """Only each card's top-left corner shows, and only the last card is read at two corners: no corner lattice
    from pairs, and the visible parts' middles are not the cards'. The corners themselves lie on the grid's lattice;
    the last card's two corners say where the middles are, and the cells are drawn around them."""
    from assistant.photo_grid import grid_from_detection

    result, middles = rows_and_columns_laid_over_each_other_result(angle)
    reading = grid_from_detection(result)
    assert reading.complete and not reading.warnings
    assert sorted(sum(reading.rows, [])) == sorted(DEALT.reshape(-1))
    assert all(cv2_inside(reading.cell_boxes[r][c], middles[name])
               for r, row in enumerate(reading.rows) for c, name in enumerate(row))
