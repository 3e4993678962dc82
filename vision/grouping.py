"""From named corner detections to cards: each card once per image.

A card shows its index in two (sometimes four) corners; each corner is detected and named on its own. Grouping
is by identity: a deck holds each card once, so all corners named ``Qh`` belong to one card. The best corner
(detector confidence x classifier confidence) anchors the card; other ``Qh`` corners join it when they lie
within reach of a card's size from it (``reach`` index heights, a card is ~6 index heights across its
diagonal). Corners named ``Qh`` further away are a misread of another card: they are not reported as a card
and keep ``card_id == -1`` in the raw detections.

The card's box is the whole-card box from the detector when it gives one that holds the anchor corner,
otherwise the union of the card's corner boxes. Whole-card boxes also settle disagreements: corners inside one
fully visible card are that card, so a minority name among them is dropped, unless read surely: then it is a
covered card's index showing inside the box (:func:`vote_in_card_boxes`). A box counts only the corners that lie
as two corners of one card lie (:func:`card_box_owners`), and none where they make two cards: the detector
sometimes draws one box around two cards lying across each other or fanned.
"""

from __future__ import annotations

import numpy as np

from vision.boxes import box_ioa
from vision.card_names import RED_SUITS, card_index
from vision.detections import Detections

DEFAULT_REACH = 8.0
# The small detector scores true corners low (a clear real corner often 0.1-0.3) while the classifier's probability
# separates right from wrong names better: a corner's score is box^0.5 x classifier. Chosen on the rendered
# held-out-design val set, where it finds more cards than box x classifier at every false-card rate.
DEFAULT_BOX_POWER = 0.5


def corner_scores(corners: Detections, box_power: float = DEFAULT_BOX_POWER) -> np.ndarray:
    """(n,) detector confidence ** box_power x classifier confidence (the detector's alone when it names cards)."""
    cc = corners.data.get("card_confidence")
    if cc is None:
        return corners.confidence.copy()
    return corners.confidence ** np.float32(box_power) * np.asarray(cc, dtype=np.float32)


# Two corner indices of one card lie at two of its corners: point-symmetric about its middle (a card reads the same
# turned half round), or, in decks with an index in all four corners, mirrored along one side; a corner seen twice
# (two boxes on one index) lies at the same place. Positions are compared within this share of the box's size.
PAIR_TOLERANCE = 0.12
# A corner inside a card box read as another card, where the box's card has its own corners already, is another
# card's (a covered card of a fan) when read at least this surely; less surely, a misread the box's vote settles.
STRAY_SURE = 0.8
# Two cards lying across each other are sometimes boxed as one "card", with little confidence: such a box's corners
# must pair point-symmetrically (a pair along one side is believed only of a box at least this confident).
SIDE_PAIR_CONFIDENCE = 0.5


def card_box_owners(corner_xyxy: np.ndarray, card_xyxy: np.ndarray, card_conf: np.ndarray | None = None,
                    inside: float = 0.6, tolerance: float = PAIR_TOLERANCE, names: np.ndarray | None = None,
                    sides: bool = True, name_p: np.ndarray | None = None) -> np.ndarray:
    """(n,) for each corner the whole-card box it belongs to (the smallest holding >= ``inside`` of it), or -1.
    A box holding several corners keeps only those that pair up as two corners of one card (see above): corners
    that pair with no other corner of their box are not given to it (-1), so that a box around two overlapping
    cards does not make their corners one card; nor are the corners of a box whose pairs make two cards or more
    (two groups of corners that pair among themselves and not with each other).

    A pair along one side is believed only with ``sides`` and, given the corners' ``names`` (``""`` unread),
    only when both are read as the same card: the top left corners of two cards of a fan lie side by side, as the
    two top corners of a card with four indices do. A corner surely read (``name_p``, the probability of its name,
    at least STRAY_SURE; all when not given) as another card than the box's, that pairs only with the box card's
    corners already paired among themselves, is not the box's either (:func:`_strays`)."""
    n, m = len(corner_xyxy), len(card_xyxy)
    if not n or not m:
        return np.full(n, -1, np.int64)
    holds = box_ioa(corner_xyxy, card_xyxy) >= inside  # (n, m)
    area = (card_xyxy[:, 2] - card_xyxy[:, 0]) * (card_xyxy[:, 3] - card_xyxy[:, 1])
    owner = np.where(holds.any(axis=1), np.where(holds, area[None, :], np.inf).argmin(axis=1), -1)
    centres = (corner_xyxy[:, :2] + corner_xyxy[:, 2:]) / 2.0
    for b in np.unique(owner[owner >= 0]):
        members = np.flatnonzero(owner == b)
        if len(members) < 2:
            continue
        x1, y1, x2, y2 = card_xyxy[b]
        size = _pair_reach(card_xyxy[b], tolerance)
        c = centres[members]
        mirrored = np.abs((c[:, None, :] + c[None, :, :]) / 2.0 - [(x1 + x2) / 2.0, (y1 + y2) / 2.0]) <= size
        same = np.abs(c[:, None, :] - c[None, :, :]) <= size  # (k, k, 2)
        paired = mirrored.all(axis=2) | same.all(axis=2)
        k = None if names is None else np.asarray(names, dtype=object)[members]
        if sides and (card_conf is None or card_conf[b] >= SIDE_PAIR_CONFIDENCE):
            side = (mirrored | same).all(axis=2)
            if k is not None:
                side &= (k[:, None] == k[None, :]) & (k[:, None] != "")
            paired |= side
        np.fill_diagonal(paired, False)
        if _cards_in_box(paired, k) > 1:
            owner[members] = -1  # two cards (or more) in one box: it is no one card's
            continue
        owner[members[~paired.any(axis=1)]] = -1
        if k is not None:
            sure = np.ones(len(members), bool) if name_p is None else np.asarray(name_p)[members] >= STRAY_SURE
            owner[members[_strays(paired, same.all(axis=2), k) & sure]] = -1
    return owner


def _pair_reach(box, tolerance: float = PAIR_TOLERANCE) -> np.ndarray:
    """How far (x, y) two corners of the card in ``box`` may be from where they should lie to count as there."""
    x1, y1, x2, y2 = box
    return tolerance * np.array([max(x2 - x1, 1.0), max(y2 - y1, 1.0)])


def _strays(paired: np.ndarray, same_place: np.ndarray, names: np.ndarray) -> np.ndarray:
    """(k,) True for the corners of one box read as another card than most of its corners that pair only with
    corners already paired with one of that card's: a covered card's index lying where the box's card has its own
    corner, read as that card, is no misread corner of it (a misread corner is the only partner of one). An index
    boxed twice (``same_place``) is no partner of itself."""
    got = [n for n in names if n]
    if not got:
        return np.zeros(len(names), bool)
    card = max(sorted(set(got)), key=got.count)
    mine = names == card
    partners = paired & ~same_place
    free = mine & ~(partners & mine[None, :]).any(axis=1)  # the card's corners without a partner of its name
    return (names != card) & (names != "") & ~(paired & free[None, :]).any(axis=1)


def _cards_in_box(paired: np.ndarray, names: np.ndarray | None) -> int:
    """How many cards the corners of one box show: the groups of two or more that the symmetric pair matrix
    ``paired`` links (connected components), or given the corners' ``names``, the distinct names the groups are
    mostly read as (the pips of a number card pair up too, point-symmetric as they are printed: a group of them
    read as the card itself, or as nothing, is no second card)."""
    k = len(paired)
    label = np.arange(k)
    for _ in range(k):
        new = np.array([label[paired[i] | (np.arange(k) == i)].min() for i in range(k)])
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    groups = sorted(set(label[paired.any(axis=1)].tolist()))
    if names is None:
        return len(groups)
    read = set()
    for g in groups:
        got = [n for n in names[label == g] if n]
        if got:
            read.add(max(sorted(set(got)), key=got.count))  # sorted: a tie is broken the same way every run
    return len(read)


def vote_in_card_boxes(corners: Detections, names: np.ndarray, scores: np.ndarray,
                       card_boxes: Detections | None, inside: float = 0.6,
                       owner: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(suppressed, owner)``: (n,) True for corners outvoted inside their card, and each corner's card box as
    :func:`card_box_owners` says (``owner``: its answer when the caller has it already), less the corners the vote
    gives away. The detector's ``card`` boxes are whole faces that are (nearly) fully visible, so the corners inside
    one are mostly that one card's. When they disagree (an upside-down 6 read as a 9), the name with the larger
    summed score wins; an index boxed twice counts once (its surer box), or a misread corner boxed twice would
    outvote the card's other corner. The other names are suppressed, except those read surely (at least
    STRAY_SURE): a covered card's index showing inside the box (a fan, or two cards boxed as one), given away
    (owner -1) to be a card of its own. (Read surely, such a corner is another card more often than a misread:
    docs/BENCHMARKS.md, session 26.) Not the winner's suit twin (:func:`suit_twins`), however surely read: that is
    the card's own corner with its suit misread (an Ac whose other corner reads As would otherwise be two cards)."""
    n = len(corners)
    suppressed = np.zeros(n, dtype=bool)
    if card_boxes is None or len(card_boxes) == 0 or n == 0:
        return suppressed, np.full(n, -1, np.int64) if owner is None else owner
    name_p = corners.data.get("card_confidence")
    if owner is None:
        owner = card_box_owners(corners.xyxy, card_boxes.xyxy, card_boxes.confidence, inside, names=names,
                                name_p=name_p)
    owner = owner.copy()
    sure = np.zeros(n, bool) if name_p is None else np.asarray(name_p) >= STRAY_SURE
    for b in range(len(card_boxes)):
        members = np.flatnonzero((owner == b) & (names != ""))
        if len({names[i] for i in members}) < 2:
            continue
        near = _pair_reach(card_boxes.xyxy[b])
        totals: dict[str, float] = {}
        counted: list[int] = []
        for i in sorted(members, key=lambda i: -scores[i]):
            if any(names[j] == names[i] and (np.abs(corners.center[i] - corners.center[j]) <= near).all()
                   for j in counted):
                continue  # the same index boxed again
            counted.append(i)
            totals[names[i]] = totals.get(names[i], 0.0) + float(scores[i])
        winner = max(totals, key=totals.get)
        others = np.array([i for i in members if names[i] != winner], np.int64)
        away = sure[others] & ~np.array([suit_twins(names[i], winner) for i in others], bool)
        suppressed[others[~away]] = True
        owner[others[away]] = -1
    return suppressed, owner


def suit_twins(a: str, b: str) -> bool:
    """Two names of one rank in the two suits of one colour (``Ac`` and ``As``): what one card's corners read as
    when its suit is hard to tell, and seldom two cards lying as one card's two corners (a deck holds one of each)."""
    return a != b and a[:-1] == b[:-1] and (a[-1] in RED_SUITS) == (b[-1] in RED_SUITS)


def group_cards(corners: Detections, card_boxes: Detections | None = None, reach: float = DEFAULT_REACH,
                min_score: float = 0.0, box_power: float = DEFAULT_BOX_POWER) -> tuple[Detections, np.ndarray]:
    """Group named corners into cards.

    ``corners.data["card"]``: (n,) names, ``""`` for unnamed (ignored). ``card_boxes``: optional whole-card boxes.
    Returns ``(cards, card_id)``: ``cards`` has one row per name (``class_id`` = index in CARD_NAMES, ``data["card"]``, ``data["corners"]`` = how many
    corners agree), best first; ``card_id`` (n,) is the row of ``cards`` each corner joined, or -1.
    """
    n = len(corners)
    card_id = np.full(n, -1, dtype=np.int64)
    names = corners.data.get("card", np.full(n, "", dtype=object))
    scores = corner_scores(corners, box_power)
    have_cards = card_boxes is not None and len(card_boxes) > 0
    owner = card_box_owners(corners.xyxy, card_boxes.xyxy, card_boxes.confidence, names=names,
                            name_p=corners.data.get("card_confidence")) if have_cards else None
    suppressed, owner = vote_in_card_boxes(corners, names, scores, card_boxes, owner=owner)
    order = np.argsort(-scores, kind="stable")
    anchors: dict[str, int] = {}  # name -> corner index of its anchor
    members: dict[str, list[int]] = {}
    for i in order:
        name = names[i]
        if not name or scores[i] < min_score or suppressed[i]:
            continue
        if name not in anchors:
            anchors[name] = int(i)
            members[name] = [int(i)]
            continue
        a = anchors[name]
        ax1, ay1, ax2, ay2 = corners.xyxy[a]
        size = max(ax2 - ax1, ay2 - ay1, 1.0)
        dist = float(np.hypot(*(corners.center[i] - corners.center[a])))
        if dist <= reach * size:
            members[name].append(int(i))
    if not anchors:
        return Detections.empty(("card", "corners")), card_id
    rows_xyxy, rows_conf, rows_name, rows_count = [], [], [], []
    for row, (name, idx) in enumerate(members.items()):
        card_id[idx] = row
        box = np.concatenate([corners.xyxy[idx, :2].min(axis=0), corners.xyxy[idx, 2:].max(axis=0)])
        if have_cards:
            inside = box_ioa(corners.xyxy[idx], card_boxes.xyxy)  # (k, m)
            holds_anchor = inside[0] >= 0.6
            if owner[idx[0]] >= 0:  # a box holds the anchor as a corner of its card (not a stray in it)
                # the card box holding most of this card's corners; among equals, the smallest (the top card)
                held = (inside >= 0.6).sum(axis=0).astype(np.float64)
                key = held - card_boxes.area / (card_boxes.area.max() + 1.0)
                key[~holds_anchor] = -np.inf
                box = card_boxes.xyxy[int(np.argmax(key))]
        rows_xyxy.append(box)
        rows_conf.append(float(scores[idx[0]]))
        rows_name.append(name)
        rows_count.append(len(idx))
    cards = Detections(xyxy=np.array(rows_xyxy, np.float32), confidence=np.array(rows_conf, np.float32),
                       class_id=np.array([card_index(x) for x in rows_name], np.int64),
                       data={"card": np.array(rows_name, dtype=object), "corners": np.array(rows_count, np.int64)})
    return cards, card_id
