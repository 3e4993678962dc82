"""A still view of the table: which cards lie where, voted over the last quiet frames.

Each quiet frame's detections are one vote. A card enters the view when it was read in most of the recent quiet
frames (a single misread frame never does); where two names are read at the same spot, the one read more often
wins. Frames with motion (a hand, a card being carried) reset the window: nothing is decided from them. A card read
still for a moment and then lost under motion is remembered for a while as glimpsed: a quick player's card may be
covered before it joins the game, and the rules may then show it was there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from assistant.cards import Card, CardError
from vision.boxes import card_size, long_side

WINDOW = 8  # quiet frames kept as evidence
MIN_FRAMES = 3  # quiet frames needed before a view is given
SHARE = 0.6  # a card must be read in this share of the window's frames
NEW_CARD_FRAMES = 5  # quiet frames before a card never seen before joins the game (1/3 s at 15 fps)
NEW_CARD_SHARE = 0.75
SAME_SPOT = 0.12  # two readings closer than this many card sizes are one card (fanned cards lie ~0.2 apart)
GLIMPSE_FRAMES = 150  # how long a card glimpsed lying still (then lost under motion) is remembered: 10 s at 15 fps


@dataclass(frozen=True)
class Sighting:
    """Where a card lies: centre (x, y) in pixels, its box, how often it was read and how sure the reader was."""

    card: Card
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    share: float  # of the window's frames that read it
    confidence: float  # median reader confidence
    corners: int  # most corners read at once (2: the whole card shows)
    frames: int = 0  # frames that read it (since it was last disturbed)

    @property
    def xy(self) -> np.ndarray:
        return np.array(self.center, dtype=np.float64)

    def whole(self, card_size: float) -> bool:
        """The whole face shows (both corners read, or a card-sized box): its centre is the card's centre. Both
        corners read in a box of half a card or less were one frame's two corners of different cards."""
        if card_size <= 0:
            return self.corners >= 2
        return self.long_side >= (0.5 if self.corners >= 2 else 0.8) * card_size

    @property
    def long_side(self) -> float:
        return long_side(self.box)


@dataclass(frozen=True)
class TableView:
    """The cards read steadily over the last quiet frames, and the frame it was decided on."""

    frame: int
    cards: dict[Card, Sighting] = field(default_factory=dict)
    card_size: float = 0.0  # a card's long side in pixels (0 when no whole card is seen)
    frames: int = 0  # quiet frames of evidence behind it
    elsewhere: dict[Card, Sighting] = field(default_factory=dict)  # a name also read steadily at a second spot
    glimpsed: dict[Card, Sighting] = field(default_factory=dict)  # read still for a moment, then lost under motion
    # read steadily once, and nothing has moved where it lay since: the card's box there (its name misread a
    # moment at another spot moves the box there; the follower then knows nothing of the card's own spot)
    undisturbed: Mapping[Card, tuple[float, float, float, float]] = field(default_factory=dict)

    def sure(self, card: Card) -> bool:
        """Read steadily enough to bring a NEW card into the game: a card exists once, so a wrong name taken
        now would block the real card later."""
        s = self.cards.get(card)
        return s is not None and s.frames >= NEW_CARD_FRAMES and s.share >= NEW_CARD_SHARE

    def __contains__(self, card: Card) -> bool:
        return card in self.cards

    def __getitem__(self, card: Card) -> Sighting:
        return self.cards[card]


class TableTracker:
    """Feed it each read frame's cards (and where the picture moves); it returns a ``TableView`` of the cards
    read steadily, or None while there is too little evidence.

    Evidence is kept per card: a reading counts only where nothing moves around the card, and motion over a card
    clears that card's evidence (it may be being carried), not the others'. A card is in the view once it was read
    in ``min_frames`` frames and in ``share`` of the frames since it was first read (in the window)."""

    def __init__(self, window: int = WINDOW, min_frames: int = MIN_FRAMES, share: float = SHARE):
        self.window, self.min_frames, self.share = window, min_frames, share
        self._frames: list[int] = []  # the frames read, newest last
        self._readings: dict[Card, list[tuple]] = {}  # card -> [(frame, center, box, confidence, corners)]
        self._glimpsed: dict[Card, tuple[int, Sighting]] = {}  # card -> (last frame read, where it lay)
        self._undisturbed: dict[Card, tuple] = {}  # card -> its box when last in a view, while nothing moved there

    def reset(self) -> None:
        self._frames.clear()
        self._readings.clear()
        self._glimpsed.clear()
        self._undisturbed.clear()

    def moving(self) -> None:
        """The whole picture moved (camera, light, a hand over everything): the evidence no longer holds."""
        for card in list(self._readings):
            self._lose(card)
        self._frames.clear()
        self._undisturbed.clear()

    def disturb(self, still_at) -> None:
        """A frame not read (too much motion): cards where it moves lose their evidence."""
        for card in [c for c, rs in self._readings.items() if rs and not still_at(rs[-1][2])]:
            self._lose(card)
        for card in [c for c, box in self._undisturbed.items() if not still_at(box)]:
            del self._undisturbed[card]

    def _lose(self, card: Card) -> None:
        """Motion over ``card``: its evidence goes; read still in ``min_frames`` frames, it is remembered as
        glimpsed (a quick player's card may be covered before it is read long enough to join the game)."""
        rs = self._readings.pop(card)
        if len(rs) >= self.min_frames:
            self._glimpsed[card] = (rs[-1][0], _sighting(card, rs, len(rs)))

    def update(self, frame_index: int, seen_cards, still_at=None) -> TableView | None:
        """``seen_cards``: the reader's cards of one frame (objects with card, confidence, box, corners);
        ``still_at(box)``: whether nothing moves there (None: the frame is still everywhere)."""
        self._frames.append(frame_index)
        if len(self._frames) > self.window:
            self._frames.pop(0)
        if still_at is not None:
            self.disturb(still_at)
        for s in seen_cards:
            try:
                card = Card.parse(s.card)
            except CardError:
                continue
            if still_at is not None and not still_at(s.box):
                if card in self._readings:
                    self._lose(card)
                continue
            x1, y1, x2, y2 = s.box
            self._readings.setdefault(card, []).append(
                (frame_index, ((x1 + x2) / 2, (y1 + y2) / 2), tuple(s.box), float(s.confidence),
                 int(getattr(s, "corners", 1))))
        oldest = self._frames[0]
        for card in list(self._readings):
            rs = [r for r in self._readings[card] if r[0] >= oldest]
            if rs:
                self._readings[card] = rs
            else:
                del self._readings[card]
        if len(self._frames) < self.min_frames:
            return None
        return self._view(frame_index)

    def _view(self, frame_index: int) -> TableView:
        def available(rs) -> int:
            return sum(1 for f in self._frames if f >= rs[0][0])

        rough = [Sighting(card, tuple(np.median([r[1] for r in rs], axis=0)), tuple(np.median([r[2] for r in rs], axis=0)),
                          len(rs) / available(rs), 0.0, max(r[4] for r in rs)) for card, rs in self._readings.items()]
        size = card_size(rough)
        candidates = []
        second: list[Sighting] = []
        for card, rs in self._readings.items():
            frames = available(rs)
            if len(rs) < self.min_frames:
                continue
            far: list[tuple] = []
            if size:  # a name also read somewhere else (a misread of another card) must not drag the position
                rs, far = _split_spot(rs, size)
            candidates.append(_sighting(card, rs, frames))
            if far:
                far, _ = _split_spot(far, size)
                if len(far) >= self.min_frames:
                    second.append(_sighting(card, far, frames))
        # the same spot read under two names: the more frequent reading wins, the other is a misread
        candidates.sort(key=lambda s: (-s.frames, -s.share, -s.confidence))
        kept: list[Sighting] = []
        for s in candidates:
            if s.share < self.share:
                continue
            if size and any(np.hypot(*(s.xy - k.xy)) < SAME_SPOT * size for k in kept):
                continue
            kept.append(s)
        elsewhere = {s.card: s for s in second if s.share >= self.share and s.card in {k.card for k in kept}}
        cards = {s.card: s for s in kept}
        self._undisturbed.update((s.card, s.box) for s in kept)
        for card, (last, _) in list(self._glimpsed.items()):
            if card in cards or frame_index - last > GLIMPSE_FRAMES:
                del self._glimpsed[card]
        glimpsed = {card: s for card, (_, s) in self._glimpsed.items()}
        return TableView(frame_index, cards, size, len(self._frames), elsewhere, glimpsed, dict(self._undisturbed))


def _split_spot(rs: list[tuple], size: float) -> tuple[list[tuple], list[tuple]]:
    """A name's readings at its main spot and the rest. The main spot is the reading with the most others within a
    quarter card (the earliest among equals: a card read at two spots in every frame keeps the spot it had first);
    its readings are those within a quarter card of it."""
    centers = np.array([r[1] for r in rs])
    dist = np.hypot(*(centers[:, None, :] - centers[None, :, :]).transpose(2, 0, 1))
    near_counts = (dist <= 0.25 * size).sum(axis=1)
    near = dist[int(np.argmax(near_counts))] <= 0.25 * size
    return [r for r, k in zip(rs, near) if k], [r for r, k in zip(rs, near) if not k]


def _sighting(card: Card, rs: list[tuple], frames: int) -> Sighting:
    """One spot's readings of a name as a Sighting (median centre and box, share of the frames available)."""
    center = np.median(np.array([r[1] for r in rs]), axis=0)
    box = np.median(np.array([r[2] for r in rs]), axis=0)
    return Sighting(card, (float(center[0]), float(center[1])), tuple(box.tolist()), min(1.0, len(rs) / frames),
                    float(np.median([r[3] for r in rs])), max(r[4] for r in rs), len(rs))
