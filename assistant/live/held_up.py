"""A card held up to the camera: the player's way to correct a reading without a keyboard. A card read at least
``SIZE`` times as large as the cards lying on the table, in both directions (a fanned pile boxed whole is long
but one card wide), is in the player's hand, close to the lens; once the same name is read so in ``FRAMES`` of the
last ``WINDOW`` frames read, it is shown (once, until it is lowered)."""

from __future__ import annotations

from assistant.cards import Card, CardError
from vision.boxes import long_side

SIZE = 2.0  # against the table's cards: a card this much larger (both sides) is held up to the camera
CARD_SHAPE = 0.7  # a card's short side against its long one (63 x 88 mm)
MIN_CONFIDENCE = 0.6
WINDOW = 6  # frames read
FRAMES = 4  # of them naming the same card
LOWERED = 3  # frames read in a row without a held-up card: the card was lowered, another may be shown


class HeldUpCard:
    """Feed it each read frame's cards and the table's card size; it says when a card has been held up."""

    def __init__(self) -> None:
        self._recent: list[Card | None] = []
        self._shown: Card | None = None  # the card shown last, until it is lowered
        self._without = 0

    def update(self, cards, table_card_size: float) -> tuple[bool, Card | None]:
        """``(held, shown)``: whether a card is held up in this frame (the table under it is not to be read), and
        the card held up steadily enough to act on, once (else None)."""
        big = [c for c in cards if table_card_size > 0 and long_side(c.box) >= SIZE * table_card_size
               and _short_side(c.box) >= SIZE * CARD_SHAPE * table_card_size]
        if not big:
            self._without += 1
            if self._without >= LOWERED:
                self._recent.clear()
                self._shown = None
            return False, None
        self._without = 0
        self._recent = (self._recent + [_name(max(big, key=lambda c: long_side(c.box)))])[-WINDOW:]
        held = self._recent[-1]
        if held is None or held == self._shown or self._recent.count(held) < FRAMES:
            return True, None
        self._shown = held
        return True, held


def _short_side(box) -> float:
    return float(min(box[2] - box[0], box[3] - box[1]))


def _name(reading) -> Card | None:
    """The card a reading names surely enough, or None."""
    if reading.confidence < MIN_CONFIDENCE:
        return None
    try:
        return Card.parse(reading.card)
    except CardError:
        return None
