"""The vision value types and pure-numpy stages: Detections, boxes (IoU, NMS, letterbox), tiling, grouping,
card names and the crop recipe. No model, no artwork."""

from __future__ import annotations

import numpy as np
import pytest

from vision.boxes import box_iou, letterbox, nms
from vision.card_names import CARD_NAMES, CardNameError, card_index, normalize_card, normalize_rank
from vision.crops import crops_to_tensor, index_crop, square_box
from vision.detections import Detections, DetectionsError
from vision.grouping import card_box_owners, group_cards
from vision.tiling import Tile, detect_tiled, inner_edge_mask, plan_tiles


def dets(rows, data=None):
    """rows: (x1, y1, x2, y2, conf, class)."""
    a = np.asarray(rows, dtype=np.float32).reshape(-1, 6)
    return Detections(xyxy=a[:, :4], confidence=a[:, 4], class_id=a[:, 5].astype(int), data=data or {})


# ------------------------------------------------------------------------------------------------ card names


def test_card_names_are_assistants_canonical_names_in_index_order():
    from assistant.cards import full_deck

    assert list(CARD_NAMES) == [str(c) for c in full_deck()]
    assert [card_index(str(c)) for c in full_deck()] == [c.index for c in full_deck()]


@pytest.mark.parametrize("text, expected", [
    ("Qh", "Qh"), ("qH", "Qh"), ("Th", "10h"), ("10s", "10s"), ("A♠", "As"), ("queen_h", "Qh"), ("1c", "Ac"),
    ("zz", CardNameError), ("Q", CardNameError), ("11h", CardNameError), ("Qx", CardNameError),
])
def test_normalize_card(text, expected):
    if isinstance(expected, type):
        with pytest.raises(expected):
            normalize_card(text)
    else:
        assert normalize_card(text) == expected


@pytest.mark.parametrize("text, expected", [("nine", "9"), ("ten", "10"), ("jack", "J"), ("queen", "Q"),
                                            ("king", "K"), ("ace", "A"), ("t", "10")])
def test_edje_rank_words(text, expected):
    assert normalize_rank(text) == expected


# ------------------------------------------------------------------------------------------------ Detections


def test_detections_validate_shapes():
    with pytest.raises(DetectionsError, match=r"shape \(n, 4\)"):
        Detections(xyxy=np.zeros((2, 3)), confidence=[1, 1], class_id=[0, 0])
    with pytest.raises(DetectionsError, match="confidence"):
        Detections(xyxy=np.zeros((2, 4)), confidence=[1], class_id=[0, 0])
    with pytest.raises(DetectionsError, match="class_id"):
        Detections(xyxy=np.zeros((2, 4)), confidence=[1, 1], class_id=[0])
    with pytest.raises(DetectionsError, match="data\\['card'\\]"):
        Detections(xyxy=np.zeros((2, 4)), confidence=[1, 1], class_id=[0, 0], data={"card": ["Qh"]})


def test_detections_dtypes_and_empty():
    d = dets([(0, 0, 1, 1, 0.5, 2)])
    assert d.xyxy.dtype == np.float32 and d.confidence.dtype == np.float32 and d.class_id.dtype == np.int64
    e = Detections.empty()
    assert len(e) == 0 and e.xyxy.shape == (0, 4)
    assert len(Detections(xyxy=[], confidence=[], class_id=[])) == 0


def test_detections_indexing_by_mask_int_slice_and_array():
    d = dets([(0, 0, 1, 1, 0.9, 0), (1, 1, 2, 2, 0.2, 1), (2, 2, 3, 3, 0.6, 0)], {"card": ["Qh", "", "9s"]})
    assert d[d.confidence > 0.5].data["card"].tolist() == ["Qh", "9s"]
    assert len(d[1]) == 1 and d[1].class_id.tolist() == [1]
    assert d[1:].confidence.tolist() == pytest.approx([0.2, 0.6])
    assert d[np.array([2, 0])].data["card"].tolist() == ["9s", "Qh"]
    assert len(d[np.zeros(3, bool)]) == 0
    assert len(d[[]]) == 0
    with pytest.raises(DetectionsError):
        d[np.array([True, False])]


def test_detections_merge_and_equality():
    a = dets([(0, 0, 1, 1, 0.9, 0)], {"card": ["Qh"]})
    b = dets([(1, 1, 2, 2, 0.8, 1)], {"card": ["10d"]})
    m = Detections.merge([a, Detections.empty(), b])
    assert len(m) == 2 and m.data["card"].tolist() == ["Qh", "10d"]
    assert m[0] == a and m[1] == b and m[0] != b
    assert len(Detections.merge([])) == 0
    with pytest.raises(DetectionsError, match="data keys"):
        Detections.merge([a, dets([(0, 0, 1, 1, 1, 0)])])


def test_detections_iteration_shift_and_sort():
    d = dets([(0, 0, 10, 10, 0.2, 0), (5, 5, 15, 15, 0.7, 1)])
    rows = list(d.shifted(100, 50).sorted())
    assert rows[0][1] == pytest.approx(0.7) and rows[0][0].tolist() == [105, 55, 115, 65] and rows[0][2] == 1
    assert d.center.tolist() == [[5, 5], [10, 10]]
    assert d.area.tolist() == [100, 100]


# ------------------------------------------------------------------------------------------------ boxes


def test_iou():
    iou = box_iou([[0, 0, 10, 10]], [[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]])
    assert iou[0].tolist() == pytest.approx([1.0, 1 / 3, 0.0])


def test_nms_keeps_best_of_overlapping_boxes_per_class():
    xyxy = [[0, 0, 10, 10], [1, 0, 11, 10], [30, 30, 40, 40], [0, 0, 10, 10]]
    conf = [0.6, 0.9, 0.5, 0.4]
    assert nms(xyxy, conf, 0.5).tolist() == [1, 2]
    assert nms(xyxy, conf, 0.5, class_id=[0, 0, 0, 1]).tolist() == [1, 2, 3]
    assert nms(np.zeros((0, 4)), [], 0.5).tolist() == []


@pytest.mark.parametrize("image_hw, input_hw", [((480, 640), (480, 640)), ((3000, 4000), (480, 640)),
                                                ((100, 60), (640, 640)), ((1080, 1920), (640, 640)),
                                                ((640, 480), (480, 640))])
def test_letterbox_round_trip(image_hw, input_hw):
    img = np.zeros((*image_hw, 3), np.uint8)
    out, lb = letterbox(img, input_hw)
    assert out.shape == (*input_hw, 3)
    h, w = image_hw
    boxes = np.array([[0, 0, w, h], [w * 0.25, h * 0.5, w * 0.3, h * 0.6]], np.float32)
    back = lb.to_image(lb.to_input(boxes))
    assert np.allclose(back, boxes, atol=max(w, h) / min(input_hw) + 0.01)
    # the image sits inside the input, the rest is the grey 114 padding
    x1, y1, x2, y2 = lb.to_input(boxes[:1])[0]
    assert x1 >= -0.5 and y1 >= -0.5 and x2 <= input_hw[1] + 0.5 and y2 <= input_hw[0] + 0.5
    if x1 > 1:
        assert (out[:, 0] == 114).all()


def test_letterbox_enlarges_small_images_at_most_max_scale():
    out, lb = letterbox(np.zeros((40, 30, 3), np.uint8), (416, 416), max_scale=4.0)
    assert out.shape == (416, 416, 3) and lb.scale == 4.0
    assert lb.to_image(lb.to_input(np.array([[0, 0, 30, 40]], np.float32))).tolist() == [[0, 0, 30, 40]]


def test_letterbox_maps_a_drawn_square_to_its_box():
    img = np.zeros((300, 900, 3), np.uint8)
    img[100:200, 450:500] = 255
    out, lb = letterbox(img, (640, 640))
    ys, xs = np.nonzero(out[..., 0] > 128)
    found = lb.to_image(np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32))[0]
    assert np.allclose(found, [450, 100, 500, 200], atol=2)


# ------------------------------------------------------------------------------------------------ tiling


def test_tiles_cover_the_image_with_the_overlap():
    tiles = plan_tiles((3000, 4000), (960, 1280), 240)
    cover = np.zeros((3000, 4000), bool)
    for t in tiles:
        cover[t.y0:t.y1, t.x0:t.x1] = True
        assert t.width == 1280 and t.height == 960
    assert cover.all()
    xs = sorted({t.x0 for t in tiles})
    assert all(b - a <= 1280 - 240 for a, b in zip(xs, xs[1:]))
    assert plan_tiles((100, 100), (960, 1280), 50) == [Tile(0, 0, 100, 100)]


def test_a_strip_narrower_than_the_overlap_is_cut_along_its_length_only():
    tiles = plan_tiles((2000, 3), (853, 1137), 213)
    assert [(t.x0, t.x1) for t in tiles] == [(0, 3)] * len(tiles) and len(tiles) == 3
    with pytest.raises(ValueError, match="overlap"):
        plan_tiles((2000, 3000), (200, 200), 250)


def test_a_box_on_an_inner_tile_edge_is_dropped_but_not_on_the_image_edge():
    t = Tile(0, 0, 100, 100)
    d = dets([(90, 10, 101, 20, 1, 0), (0, 0, 10, 10, 1, 0), (40, 40, 50, 50, 1, 0)])
    assert inner_edge_mask(d, t, (100, 300)).tolist() == [False, True, True]


def test_tiled_detection_finds_each_object_once_in_image_coordinates():
    """A fake detector that 'sees' white squares: objects across tile seams are reported once, whole."""
    img = np.zeros((1000, 1500), np.uint8)
    truth = [(90, 90, 130, 130), (480, 300, 520, 340), (980, 480, 1020, 520), (1440, 940, 1480, 980)]
    for x1, y1, x2, y2 in truth:
        img[y1:y2, x1:x2] = 255

    def fake_detect(tile):
        import cv2

        n, _, stats, _ = cv2.connectedComponentsWithStats((tile > 0).astype(np.uint8))
        rows = [(x, y, x + w, y + h, 0.9, 0) for x, y, w, h, _a in stats[1:]]
        return dets(rows) if rows else Detections.empty()

    found = detect_tiled(img, fake_detect, (500, 500), 100)
    got = sorted(tuple(int(v) for v in b) for b in found.xyxy)
    assert got == sorted(truth)


# ------------------------------------------------------------------------------------------------ grouping


def named(rows, names, card_conf=None):
    d = dets(rows)
    d.data["card"] = np.array(names, dtype=object)
    d.data["card_confidence"] = np.asarray(card_conf if card_conf is not None else [1.0] * len(names), np.float32)
    return d


def test_two_corners_of_one_card_are_one_card_with_the_union_box():
    corners = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.8, 0)], ["Qh", "Qh"])
    cards, card_id = group_cards(corners)
    assert cards.data["card"].tolist() == ["Qh"] and cards.data["corners"].tolist() == [2]
    assert cards.xyxy[0].tolist() == [10, 10, 130, 180]
    assert cards.confidence[0] == pytest.approx(0.9 ** 0.5)  # the best corner: box ** 0.5 x classifier (1.0)
    assert card_id.tolist() == [0, 0]
    assert cards.class_id.tolist() == [CARD_NAMES.index("Qh")]


def test_a_card_is_never_reported_twice_the_far_copy_is_left_out():
    """A deck holds each card once: a second 'Qh' far away is a misread of another card and is not reported."""
    corners = named([(10, 10, 30, 40, 0.6, 0), (900, 900, 920, 930, 0.9, 0), (300, 10, 320, 40, 0.8, 0)],
                    ["Qh", "Qh", "9s"])
    cards, card_id = group_cards(corners)
    assert sorted(cards.data["card"].tolist()) == ["9s", "Qh"]
    qh = cards[cards.data["card"] == "Qh"]
    assert qh.xyxy[0].tolist() == [900, 900, 920, 930] and qh.data["corners"].tolist() == [1]
    assert card_id[0] == -1 and card_id[1] >= 0


def test_card_box_from_the_detector_replaces_the_union_and_low_scores_are_ignored():
    corners = named([(10, 10, 30, 40, 0.9, 0), (200, 200, 220, 230, 0.9, 0)], ["Qh", "2c"], card_conf=[0.9, 0.1])
    card_boxes = dets([(5, 5, 140, 190, 0.8, 1), (0, 0, 400, 400, 0.8, 1)])
    cards, card_id = group_cards(corners, card_boxes, min_score=0.3)
    assert cards.data["card"].tolist() == ["Qh"]
    assert cards.xyxy[0].tolist() == [5, 5, 140, 190]  # the smaller box holding the corner: the card on top
    assert card_id.tolist() == [0, -1]


def test_corners_inside_one_whole_card_box_vote_for_one_name():
    """An upside-down 6 read as a 9 in the other corner of the same visible card: one card, the 6."""
    corners = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.8, 0), (300, 10, 320, 40, 0.9, 0)],
                    ["6d", "9d", "9d"], card_conf=[0.9, 0.6, 0.9])
    card_boxes = dets([(5, 5, 140, 190, 0.9, 1)])
    cards, card_id = group_cards(corners, card_boxes)
    assert sorted(cards.data["card"].tolist()) == ["6d", "9d"]
    six = cards[cards.data["card"] == "6d"]
    assert six.xyxy[0].tolist() == [5, 5, 140, 190] and card_id[1] == -1
    nine = cards[cards.data["card"] == "9d"]
    assert nine.xyxy[0].tolist() == [300, 10, 320, 40]  # the real 9d elsewhere is still a card


def test_a_surely_read_other_card_inside_a_card_box_is_a_card_of_its_own():
    """A covered card's index inside the box of the card on top (a fan, or two cards boxed as one), where the top
    card's other corner would lie: read surely, it is not outvoted by the box's card but reported as well, with its
    own corner as its box; read doubtfully, it is a misread the vote settles (the 9d above)."""
    corners = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.5, 0)], ["4h", "Ac"], card_conf=[0.97, 0.98])
    card_boxes = dets([(5, 5, 140, 190, 0.24, 1)])
    cards, card_id = group_cards(corners, card_boxes)
    assert cards.data["card"].tolist() == ["4h", "Ac"] and card_id.tolist() == [0, 1]
    assert cards.xyxy.tolist() == [[5, 5, 140, 190], [110, 150, 130, 180]]
    doubtful = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.5, 0)], ["4h", "Ac"], card_conf=[0.97, 0.7])
    cards, card_id = group_cards(doubtful, card_boxes)
    assert cards.data["card"].tolist() == ["4h"] and card_id.tolist() == [0, -1]


def test_a_card_whose_two_corners_read_as_two_suits_of_one_colour_is_one_card():
    """An Ac whose other corner is read As, surely: no covered As lies there (a deck holds one of each, and a
    covered card's index showing there is seldom the suit twin) but the card's own corner with its suit misread. One
    card, named by the vote; a corner of another rank or colour read surely there is still a card of its own."""
    corners = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.5, 0)], ["Ac", "As"], card_conf=[0.97, 0.9])
    card_boxes = dets([(5, 5, 140, 190, 0.6, 1)])
    cards, card_id = group_cards(corners, card_boxes)
    assert cards.data["card"].tolist() == ["Ac"] and card_id.tolist() == [0, -1]
    assert cards.xyxy.tolist() == [[5, 5, 140, 190]]
    for other in ("Ah", "2s"):
        two = named([(10, 10, 30, 40, 0.9, 0), (110, 150, 130, 180, 0.5, 0)], ["Ac", other], card_conf=[0.97, 0.9])
        cards, card_id = group_cards(two, card_boxes)
        assert cards.data["card"].tolist() == ["Ac", other]


def test_an_index_boxed_twice_counts_once_in_its_cards_vote():
    """A Ks whose top corner is misread Kc and boxed twice by the detector: two Kc boxes on one index must not
    outvote the Ks corner at the other end of the card."""
    corners = named([(10, 10, 30, 40, 0.37, 0), (13, 8, 33, 38, 0.18, 0), (110, 150, 130, 180, 0.48, 0)],
                    ["Kc", "Kc", "Ks"], card_conf=[0.75, 0.69, 0.92])
    cards, card_id = group_cards(corners, dets([(5, 5, 140, 190, 0.9, 1)]))
    assert cards.data["card"].tolist() == ["Ks"] and card_id.tolist() == [-1, -1, 0]


def test_two_overlapping_cards_boxed_as_one_card_stay_two_cards():
    """The detector sometimes boxes two cards lying across each other as one "card": their corners are not
    point-symmetric about that box's centre (as a card's two corners are), so the box does not make them one card."""
    corners = named([(28, 98, 49, 134, 0.44, 0), (135, 77, 151, 111, 0.53, 0)], ["Qc", "6h"], card_conf=[0.8, 0.9])
    merged = dets([(23, 70, 155, 257, 0.1, 1)])
    cards, card_id = group_cards(corners, merged)
    assert sorted(cards.data["card"].tolist()) == ["6h", "Qc"] and (card_id >= 0).all()
    qc = cards[cards.data["card"] == "Qc"]
    assert qc.xyxy[0].tolist() == [28, 98, 49, 134]  # its own corner, not the box around both cards


def test_a_card_box_owns_the_corners_that_pair_up_as_corners_of_one_card():
    box = np.array([[0, 0, 100, 150]], np.float32)
    sure, doubtful = np.array([0.9], np.float32), np.array([0.2], np.float32)
    tl, br, tr, bl = (2, 2, 18, 30), (82, 120, 98, 148), (82, 2, 98, 30), (2, 120, 18, 148)
    mid = (42, 61, 58, 89)  # a pip taken for an index

    def owners(*corners, conf=sure):
        return card_box_owners(np.array(corners, np.float32), box, conf).tolist()

    assert owners(tl, br) == [0, 0] and owners(tl, br, conf=doubtful) == [0, 0]  # across the middle
    assert owners(tl, br, tr, bl) == [0, 0, 0, 0]  # a deck with four indices
    assert owners(tl, tr) == [0, 0] and owners(tr, br) == [0, 0]  # two of its four, along one side
    assert owners(tl, tr, conf=doubtful) == [-1, -1]  # ... or two cards' corners in a doubtful box around both
    assert owners(tl, (3, 3, 19, 31), conf=doubtful) == [0, 0]  # one index boxed twice
    assert owners(tl, br, mid) == [0, 0, -1]  # the pip pairs with nothing
    assert owners(tl) == [0]  # one corner: nothing to check
    assert owners((200, 200, 220, 230)) == [-1]  # outside the box


def test_a_box_around_two_cards_owns_none_of_their_corners():
    """A fan or two overlapping cards boxed as one: the top left corners of two cards lie side by side like the top
    corners of a four-index card, and each card's own corners pair up. Read, they tell the cases apart."""
    box = np.array([[0, 0, 100, 150]], np.float32)
    sure = np.array([0.9], np.float32)
    tl, br, tr, bl = (2, 2, 18, 30), (82, 120, 98, 148), (82, 2, 98, 30), (2, 120, 18, 148)
    pip, pip2 = (30, 40, 44, 60), (56, 90, 70, 110)  # two pips, point-symmetric about the middle as printed

    def owners(corners, names=None, sides=True):
        return card_box_owners(np.array(corners, np.float32), box, sure,
                               names=None if names is None else np.array(names, object), sides=sides).tolist()

    assert owners([tl, tr], ["Qh", "Qh"]) == [0, 0]  # the two top corners of one four-index card
    assert owners([tl, tr], ["Qh", "Kh"]) == [-1, -1]  # two cards' top left corners, side by side
    assert owners([tl, br, tr, bl], ["Qh", "Qh", "Qh", "Qh"]) == [0, 0, 0, 0]
    assert owners([tl, br, tr, bl], ["Qh", "Qh", "Js", "Js"]) == [-1] * 4  # each card's pair: two cards
    assert owners([tl, br, tr, bl], sides=False) == [-1] * 4  # unread, two pairs may be two cards
    assert owners([tl, br, pip, pip2], ["9h", "9h", "", "9h"]) == [0, 0, 0, 0]  # pips are no second card


def test_a_covered_cards_corner_beside_the_box_cards_own_is_not_outvoted_by_it():
    """A fan boxed as one card: a covered card's index lies about where the top card has its own second corner.
    Read surely as another card, it is another card; read unsurely, it is a misread the box's vote settles. A
    corner read wrong that is the only partner of the card's other corner (a 6 read as a 9) stays the box's."""
    box = np.array([[0, 0, 100, 150]], np.float32)
    tl, br, near_br = (2, 2, 18, 30), (82, 120, 98, 148), (76, 112, 92, 140)

    def owners(corners, names, p):
        return card_box_owners(np.array(corners, np.float32), box, np.array([0.9], np.float32),
                               names=np.array(names, object), name_p=np.array(p, np.float32)).tolist()

    assert owners([tl, br, near_br], ["2d", "2d", "3c"], [0.99, 0.99, 0.97]) == [0, 0, -1]
    assert owners([tl, br, near_br], ["2d", "2d", "3c"], [0.99, 0.99, 0.5]) == [0, 0, 0]
    assert owners([tl, br], ["6h", "9h"], [0.95, 0.9]) == [0, 0]


def test_a_sure_name_outweighs_a_low_box_score_but_a_doubtful_name_does_not():
    """Corner score = box ** 0.5 x classifier: a clear index the small detector scores 0.16 still counts (0.4 x 0.9),
    a confidently boxed but doubtfully named one does not (0.95 x 0.3)."""
    corners = named([(10, 10, 30, 40, 0.16, 0), (300, 10, 320, 40, 0.9, 0)], ["Qh", "2c"], card_conf=[0.9, 0.3])
    cards, _ = group_cards(corners, min_score=0.3)
    assert cards.data["card"].tolist() == ["Qh"]
    assert cards.confidence[0] == pytest.approx(0.36)
    cards, _ = group_cards(corners, min_score=0.3, box_power=1.0)  # the plain product would drop the Qh
    assert len(cards) == 0


def test_unnamed_corners_and_no_corners_give_no_cards():
    cards, card_id = group_cards(named([(0, 0, 10, 10, 0.9, 0)], [""]))
    assert len(cards) == 0 and card_id.tolist() == [-1]
    cards, _ = group_cards(Detections.empty(("card", "card_confidence")))
    assert len(cards) == 0


# ------------------------------------------------------------------------------------------------ crops


def test_index_crop_is_a_padded_square_around_the_box_at_any_scale():
    img = np.zeros((1000, 800, 3), np.uint8)
    img[100:200, 100:160] = 255
    big = index_crop(img, [100, 100, 160, 200], 64, 0.15)
    small = index_crop(img[90:210, 90:170], [10, 10, 70, 110], 64, 0.15)
    assert big.shape == (64, 64, 3) and np.array_equal(big, small)
    # the box is 100 px tall: the crop's side is 130 px, the white box spans 60/130 of its width in the middle
    cols = np.flatnonzero(big[32, :, 0] > 128)
    assert abs(len(cols) - 64 * 60 / 130) <= 2 and abs((cols[0] + cols[-1]) / 2 - 31.5) <= 1
    assert square_box([0, 0, 10, 20], 0.25).tolist() == [-10, -5, 20, 25]
    # outside the image: the border is replicated, nothing raises
    assert index_crop(img, [-50, -50, 5, 5], 32).shape == (32, 32, 3)
    assert index_crop(img, [790, 990, 1200, 1200], 32).shape == (32, 32, 3)
    t = crops_to_tensor([big, big])
    assert t.shape == (2, 3, 64, 64) and t.dtype == np.float32 and 0 <= t.min() and t.max() <= 1


def test_inference_crops_are_cut_like_the_training_crops():
    """vision.training.scenes.crop_index cuts the classifier's training crops; inference must cut the same pixels."""
    scenes = pytest.importorskip("vision.training.scenes", reason="the training renderer (vision/training/scenes.py) is not in this tree")
    rng = np.random.default_rng(1)
    img = rng.integers(0, 255, (480, 640, 3)).astype(np.uint8)
    pad = (scenes.CROP_EXPAND - 1) / 2
    for box in ([100, 100, 130, 150], [600, 450, 660, 500], [5.5, 7.25, 40.75, 33.5]):
        ours = index_crop(img, box, scenes.CROP_SIZE, pad)
        theirs = scenes.crop_index(img, box)
        assert np.array_equal(ours, theirs), box
