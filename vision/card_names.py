"""The 52 card names as vision reports them, in the same canonical text and index order as ``assistant.cards``.

``vision`` must not import ``assistant`` (frames -> detections only), so the names are kept here:
rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` then suit letter ``s h d c``; index = ``suit * 13 + rank - 1``
(``CARD_NAMES[0] == "As"``, ``CARD_NAMES[51] == "Kc"``). ``tests/test_detections.py`` checks that this list
equals ``[str(c) for c in assistant.cards.full_deck()]``.

>>> CARD_NAMES[11], card_index("Qs"), normalize_card("th"), rank_of("10h"), suit_of("Qh")
('Qs', 11, '10h', '10', 'h')
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
RED_SUITS = frozenset("hd")
# The crop classifier's optional extra class after the 52: the crop shows no corner index (clutter, a pip, a picture).
NONE_CLASS = "none"

_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
_RANK_ALIASES = {"T": "10", "1": "A", "ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K",
                 "ONE": "A", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6", "SEVEN": "7",
                 "EIGHT": "8", "NINE": "9", "TEN": "10"}
_SUIT_ALIASES = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "S": "s", "H": "h", "D": "d", "C": "c",
                 "SPADES": "s", "HEARTS": "h", "DIAMONDS": "d", "CLUBS": "c",
                 "SPADE": "s", "HEART": "h", "DIAMOND": "d", "CLUB": "c"}


class CardNameError(ValueError):
    """A text that is not one of the 52 card names."""


def normalize_rank(text: str) -> str:
    """``"t"``, ``"10"``, ``"ten"``, ``"Queen"`` -> the canonical rank label (``"10"``, ``"Q"``)."""
    t = str(text).strip().upper()
    t = _RANK_ALIASES.get(t, t)
    if t not in RANKS:
        raise CardNameError(f"{text!r} is not a rank: expected one of {' '.join(RANKS)} (or T, ten, queen, ...)")
    return t


def normalize_card(text: str) -> str:
    """``"qh"``, ``"TH"``, ``"10♥"``, ``"Q_h"`` -> the canonical name (``"Qh"``, ``"10h"``); CardNameError otherwise."""
    t = str(text).strip().replace("_", "").replace("-", "").replace(" ", "")
    if len(t) >= 2:
        suit = _SUIT_ALIASES.get(t[-1].upper(), t[-1].lower() if t[-1].lower() in SUITS else None)
        if suit is not None:
            try:
                rank = normalize_rank(t[:-1])
            except CardNameError:
                pass
            else:
                return rank + suit
    raise CardNameError(f"{text!r} is not a card name: write rank (A 2-10 J Q K) then suit (s h d c), e.g. Qh or 10s")


def card_index(name: str) -> int:
    """Index 0..51 of a card name (any accepted spelling)."""
    return _INDEX[normalize_card(name)]


def rank_of(name: str) -> str:
    return normalize_card(name)[:-1]


def suit_of(name: str) -> str:
    return normalize_card(name)[-1]


def is_card_name_list(names) -> bool:
    """True when every name parses as a card (a detector or classifier whose classes are the cards)."""
    try:
        return len(names) > 0 and all(normalize_card(n) for n in names)
    except CardNameError:
        return False
