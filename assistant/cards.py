"""Cards of the standard 52-card deck: Rank, Suit, Card, parsing and the canonical text form.

A card prints as rank then suit letter (``Ah``, ``10s``, ``Qc``). Parsing accepts ``T`` for ten, the suit
symbols ``♠ ♥ ♦ ♣`` and any case. Every card also has a dense index 0..51 (``suit * 13 + rank - 1``) that
the compiled kernels use instead of objects.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Iterable, Sequence


class CardError(ValueError):
    """A text that is not a card, or a card where it cannot be (seen twice, already played)."""


class Suit(enum.IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "shdc"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return RANK_LABELS[self - 1]


RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_BY_TEXT = {label: Rank(i + 1) for i, label in enumerate(RANK_LABELS)}
_RANK_BY_TEXT["T"] = Rank.TEN
_SUIT_BY_TEXT = {**{s.letter: s for s in Suit}, **{s.symbol: s for s in Suit}}
_SUIT_BY_TEXT.update({"\u2664": Suit.SPADES, "\u2661": Suit.HEARTS, "\u2662": Suit.DIAMONDS, "\u2667": Suit.CLUBS})
_CARD_RE = re.compile(r"^\s*(10|[2-9]|[atjqk])\s*([shdc\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667])\s*$", re.I)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card; ordered by rank, then suit."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        """Dense index 0..51 used by the kernels: ``suit * 13 + rank - 1``."""
        return self.suit * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> "Card":
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is outside 0..51")
        return _DECK[index]

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``Ah``, ``10s``, ``Th``, ``QS``, ``A♠``; raise CardError naming the text otherwise."""
        if not isinstance(text, str):
            raise CardError(f"expected a card as text, got {text!r}")
        m = _CARD_RE.match(text)
        if not m:
            raise CardError(
                f"{text!r} is not a card: write the rank (A 2-10 J Q K, or T for ten) then the suit (s h d c or ♠ ♥ ♦ ♣), e.g. Qh or 10s"
            )
        rank = _RANK_BY_TEXT[m.group(1).upper()]
        suit = _SUIT_BY_TEXT[m.group(2).lower()]
        return _DECK[suit * 13 + rank - 1]

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, for people: ``Q♥``."""
        return f"{self.rank.label}{self.suit.symbol}"


_DECK: tuple[Card, ...] = tuple(Card(Rank(i % 13 + 1), Suit(i // 13)) for i in range(52))


def full_deck() -> list[Card]:
    """The 52 cards in index order (spades A..K, hearts, diamonds, clubs)."""
    return list(_DECK)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse whitespace- or comma-separated cards (or an iterable of card texts)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise CardError naming the first card that appears twice."""
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"{c} appears twice: a deck has each card once")
        seen.add(c)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)
