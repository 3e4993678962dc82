"""Several players on one Poker Patience deal (004, "Mehrere Spieler"): the caller's cards and the ranking."""

from __future__ import annotations

from assistant.cards import Card
from assistant.games.poker_rules import CELLS


def caller_cards(seed: int, count: int = CELLS) -> list[Card]:
    """The caller's first ``count`` cards for ``seed`` (004, Mehrere Spieler: "Einer mischt und sagt jede
    aufgedeckte Karte an"); every player gets the same order from ``assistant.deals.deal_order(seed)``."""
    from assistant.deals import deal_order

    return deal_order(seed)[:count]


def rank_players(scores: dict[str, int]) -> list[tuple[int, str, int]]:
    """004: "Die höchste Summe gewinnt." -> ``[(place, name, score), ...]``, best first. Equal scores share a
    place and the next place is skipped (standard competition ranking: 1, 1, 3); equal scores list by name."""
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    out: list[tuple[int, str, int]] = []
    for i, (name, score) in enumerate(ordered):
        place = out[-1][0] if out and out[-1][2] == score else i + 1
        out.append((place, name, score))
    return out
