"""The synthetic training data: scene geometry and labels, YOLO format, seeded determinism, index boxes.

No Debian artwork needed: the card faces here are drawn with cv2.putText (rank + suit letter in the top-left
corner and, turned by 180 degrees, in the bottom-right corner, like a printed card).
"""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from assistant.cards import Card, full_deck  # noqa: E402
from vision.training import scenes  # noqa: E402
from vision.training.artwork import DECKS, DECKS_EXCLUDED, HELD_OUT, card_id, deck_index_box, ink_index_box  # noqa: E402

W, H = 120, 168
INDEX_BOX = (0.04, 0.03, 0.30, 0.30)


def synthetic_face(name: str) -> np.ndarray:
    """A white card with rounded corners, the rank and suit letter printed in both corners (BGRA)."""
    img = np.full((H, W, 4), 255, np.uint8)
    alpha = np.zeros((H, W), np.uint8)
    cv2.rectangle(alpha, (6, 0), (W - 7, H - 1), 255, -1)
    cv2.rectangle(alpha, (0, 6), (W - 1, H - 7), 255, -1)
    for c in ((6, 6), (W - 7, 6), (6, H - 7), (W - 7, H - 7)):
        cv2.circle(alpha, c, 6, 255, -1)
    img[:, :, 3] = alpha
    card = Card.parse(name)
    colour = (0, 0, 200, 255) if card.suit.is_red else (0, 0, 0, 255)
    corner = np.full((int(H * 0.3), int(W * 0.3), 4), 255, np.uint8)
    cv2.putText(corner, card.rank.label, (2, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 2)
    cv2.putText(corner, card.suit.letter, (6, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
    ch, cw = corner.shape[:2]
    img[2 : 2 + ch, 3 : 3 + cw] = np.minimum(img[2 : 2 + ch, 3 : 3 + cw], corner)
    img[H - 2 - ch : H - 2, W - 3 - cw : W - 3] = np.minimum(img[H - 2 - ch : H - 2, W - 3 - cw : W - 3], corner[::-1, ::-1])
    cv2.circle(img, (W // 2, H // 2), 14, colour, -1)  # a central pip
    img[:, :, 3] = alpha
    return img


@pytest.fixture(scope="module")
def faces():
    return [scenes.Face(str(c), synthetic_face(str(c)), INDEX_BOX, "synthetic") for c in full_deck()]


@pytest.mark.parametrize("layout", scenes.LAYOUTS + scenes.EXTRA_LAYOUTS)
def test_every_label_lies_inside_the_picture(faces, layout):
    for seed in range(4):
        s = scenes.render_scene(faces, np.random.default_rng(seed), out_size=(320, 240), layout=layout)
        assert s.image.shape == (240, 320, 3) and s.image.dtype == np.uint8
        for line in s.yolo_lines():
            cls, cx, cy, w, h = line.split()
            assert cls in ("0", "1")
            cx, cy, w, h = map(float, (cx, cy, w, h))
            assert 0 < w <= 1 and 0 < h <= 1
            assert 0 <= cx - w / 2 + 1e-6 and cx + w / 2 <= 1 + 1e-6
            assert 0 <= cy - h / 2 + 1e-6 and cy + h / 2 <= 1 + 1e-6


def test_an_uncovered_card_has_both_corners_labelled_with_its_own_name(faces):
    """One card close up: both printed corners are labelled, and they name that card."""
    found = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        s = scenes.render_scene(faces[:1], rng, out_size=(320, 320), layout="closeup", photometric=False)
        if len(s.cards) == 1:  # the whole card is in the picture
            corners = sorted(ix.corner for ix in s.indices)
            assert corners == [0, 1]
            assert {ix.card for ix in s.indices} == {faces[0].name}
            found += 1
    assert found >= 3


def test_a_label_box_covers_ink_of_the_printed_index(faces):
    """Without photometric damage, the pixels inside each index box differ from the paper: something is printed there."""
    s = scenes.render_scene(faces[:1], np.random.default_rng(3), out_size=(320, 320), layout="closeup", photometric=False)
    assert s.indices
    for ix in s.indices:
        x0, y0, x1, y1 = (int(round(v)) for v in ix.box)
        patch = s.image[max(0, y0) : y1, max(0, x0) : x1].astype(int)
        assert patch.size and patch.min() < 120  # dark ink of the rank/suit (the paper is ~255)


def test_yolo_lines_are_five_numbers_with_normalised_coordinates(faces):
    s = scenes.render_scene(faces, np.random.default_rng(7), out_size=(640, 480), layout="poker")
    lines = s.yolo_lines()
    assert lines
    for line in lines:
        parts = line.split()
        assert len(parts) == 5
        assert parts[0] in ("0", "1")
        assert all(0.0 <= float(v) <= 1.0 for v in parts[1:])
    assert sum(1 for line in lines if line.startswith("0 ")) == len(s.indices)


def test_same_seed_same_picture_and_labels(faces):
    a = scenes.render_scene(faces, np.random.default_rng(11), out_size=(320, 240))
    b = scenes.render_scene(faces, np.random.default_rng(11), out_size=(320, 240))
    c = scenes.render_scene(faces, np.random.default_rng(12), out_size=(320, 240))
    assert np.array_equal(a.image, b.image)
    assert a.yolo_lines() == b.yolo_lines()
    assert not np.array_equal(a.image, c.image)


def test_covered_indices_are_not_labelled(faces):
    """A Sir Tommy fan: every labelled index is at least min_visible uncovered."""
    s = scenes.render_scene(faces, np.random.default_rng(5), out_size=(640, 480), layout="tommy", min_visible=0.6)
    assert all(ix.visible >= 0.6 for ix in s.indices)
    names = [ix.card for ix in s.indices]
    assert all(Card.parse(n) for n in names)


def test_crop_is_square_centred_on_the_box():
    img = np.zeros((100, 100, 3), np.uint8)
    img[40:60, 45:55] = 255  # a 10x20 white index
    crop = scenes.crop_index(img, (45, 40, 55, 60), size=64, expand=1.3)
    assert crop.shape == (64, 64, 3)
    # side 26 px -> the 10x20 index spans 20/26 of the height and 10/26 of the width, centred
    ys, xs = np.nonzero(crop[:, :, 0] > 128)
    assert abs(ys.mean() - 31.5) < 1.5 and abs(xs.mean() - 31.5) < 1.5
    assert 45 <= ys.max() - ys.min() + 1 <= 54
    assert 21 <= xs.max() - xs.min() + 1 <= 28


def test_index_box_found_on_a_printed_corner():
    faces = {str(c): synthetic_face(str(c)) for c in full_deck()}
    b = ink_index_box(faces["7s"])
    assert b is not None
    x0, y0, x1, y1 = b
    assert x0 < 0.1 * W and y0 < 0.1 * H and 0.08 * W < x1 < 0.35 * W and 0.15 * H < y1 < 0.33 * H
    box = deck_index_box(faces)
    assert box is not None and box[2] <= 0.35 and box[3] <= 0.36


def test_deck_ids_follow_each_source_naming():
    by_name = {d.name: d for d in DECKS}
    assert card_id(by_name["kde-standard"], "Qh") == "queen_heart"
    assert card_id(by_name["kde-standard"], "As") == "1_spade"
    assert card_id(by_name["gnome-anglo"], "10c") == "club_10"
    assert card_id(by_name["gnome-anglo"], "Kd") == "diamond_king"
    assert card_id(by_name["clipart-white"], "Jh") == "white_h_j.svg"
    assert card_id(by_name["npm-aguilar"], "Qc") == "12c.svg" and card_id(by_name["npm-aguilar"], "As") == "1s.svg"
    assert card_id(by_name["npm-kennard"], "10h") == "H10.svg" and card_id(by_name["npm-kennard"], "Kd") == "DK.svg"
    assert all(by_name[n].registry for n in ("npm-aguilar", "npm-kennard")) and not by_name["gnome-anglo"].registry
    assert set(HELD_OUT) <= set(by_name) and not set(HELD_OUT) & set(DECKS_EXCLUDED)


def test_moving_labels_to_a_corrected_index_box_matches_rendering_with_it(faces):
    """vision.training.synth.relabel's geometry: the same scene rendered with another index box puts the labels exactly where
    move_quad says (the box changes only the labels, never the picture)."""
    from vision.training.synth import move_quad

    new_box = (0.03, 0.05, 0.25, 0.42)
    other = [scenes.Face(f.name, f.image, new_box, f.deck) for f in faces]
    a = scenes.render_scene(faces[:3], np.random.default_rng(4), out_size=(320, 320), layout="closeup", min_visible=0.0)
    b = scenes.render_scene(other[:3], np.random.default_rng(4), out_size=(320, 320), layout="closeup", min_visible=0.0)
    assert np.array_equal(a.image, b.image)
    quads_b = {(ix.card, ix.corner): ix.quad for ix in b.indices}
    moved = 0
    for ix in a.indices:
        if (ix.card, ix.corner) in quads_b:
            q = move_quad(ix.quad, ix.corner, (H, W), INDEX_BOX, new_box)
            assert np.allclose(q, quads_b[(ix.card, ix.corner)], atol=0.05)
            moved += 1
    assert moved >= 2


def test_a_fanned_hand_covers_its_cards_but_shows_their_indices(faces):
    covered_with_index = 0
    for seed in range(6):
        s = scenes.render_scene(faces, np.random.default_rng(seed), out_size=(640, 480), layout="fan",
                                photometric=False)
        whole = {name for name, _ in s.cards}
        assert len(whole) <= 1  # only the top card of a hand is fully visible
        covered_with_index += len({ix.card for ix in s.indices} - whole)
    assert covered_with_index >= 6 * 4  # hands of 3-13 cards: the covered ones are known by a corner alone
