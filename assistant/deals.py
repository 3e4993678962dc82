"""Seeded deals: the caller's card order for a game, the same on every machine for the same seed.

Uses numpy's PCG64 generator, whose stream is stable across platforms and numpy versions, so that
two players (or a contest) given one seed play exactly the same shuffle.
"""

from __future__ import annotations

import numpy as np

from assistant.cards import Card, full_deck


def deal_order(seed: int, cards: list[Card] | None = None) -> list[Card]:
    """The shuffled order of ``cards`` (default: the full deck) for ``seed``; first card first."""
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    cards = full_deck() if cards is None else list(cards)
    perm = np.random.Generator(np.random.PCG64(seed)).permutation(len(cards))
    return [cards[i] for i in perm]


def make_rng(seed: int | None) -> np.random.Generator:
    """The one way the project makes randomness: a PCG64 generator from a seed (None: from the OS)."""
    return np.random.Generator(np.random.PCG64(seed))
