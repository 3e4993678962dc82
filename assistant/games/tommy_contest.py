"""Two players on one shuffle (002/003): results and their comparison. Pure values, no state needed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class _HasResult(Protocol):
    def result(self) -> "TommyResult": ...


@dataclass(frozen=True)
class TommyResult:
    """How a game ended: won, and the progress score (cards on the foundations, of ``cards_in_play``)."""

    won: bool
    foundation_cards: int
    cards_in_play: int = 52


def compare_results(a: "TommyResult | _HasResult", b: "TommyResult | _HasResult") -> int:
    """Two players on one shuffle (002/003): +1 if ``a`` wins, -1 if ``b`` wins, 0 for a tie.

    "de eerste die de gift wint (of de speler met de meeste kaarten op de funderingen wanneer beiden
    vastlopen) wint de ronde": a win beats a loss, else more foundation cards win. Two wins tie here: who
    finished first is not part of a game state.
    """
    ra = a if isinstance(a, TommyResult) else a.result()
    rb = b if isinstance(b, TommyResult) else b.result()
    if ra.won != rb.won:
        return 1 if ra.won else -1
    if ra.won:
        return 0
    return (ra.foundation_cards > rb.foundation_cards) - (ra.foundation_cards < rb.foundation_cards)
