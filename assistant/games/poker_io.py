"""The Poker Patience state as a JSON-safe save, and back (by replaying it, so a corrupt save is caught).

``PokerState.to_dict()`` and ``PokerState.from_dict()`` call these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.cards import Card
from assistant.games.poker_rules import Placement, PokerRules

if TYPE_CHECKING:
    from assistant.games.poker import PokerState

SAVE_FORMAT = "patience-lens/poker"
SAVE_VERSION = 1


def state_to_dict(state: "PokerState") -> dict[str, Any]:
    """JSON-safe save: rules, cards in the order turned, placements in the order played."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rules": state.rules.to_dict(),
        "dealt": [str(c) for c in state._dealt],
        "placements": [[str(s.card), str(s.placement)] for s in state._history],
    }


def state_from_dict(cls: type, data: Any) -> "PokerState":
    """Rebuild a state saved by :meth:`to_dict` by replaying it; corrupt data: ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"not a Poker Patience save: expected an object, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise ValueError(f"not a Poker Patience save (format {data.get('format')!r}, expected {SAVE_FORMAT!r})")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"unsupported Poker Patience save version {data.get('version')!r} "
                         f"(this program reads {SAVE_VERSION})")
    for key in ("rules", "dealt", "placements"):
        if key not in data:
            raise ValueError(f"corrupt Poker Patience save: '{key}' is missing")
    try:
        rules = PokerRules.from_dict(data["rules"])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"corrupt Poker Patience save: rules: {exc}") from None
    dealt, placements = data["dealt"], data["placements"]
    if not isinstance(dealt, list) or not isinstance(placements, list):
        raise ValueError("corrupt Poker Patience save: 'dealt' and 'placements' must be lists")
    state = cls(rules)
    try:
        cards = [Card.parse(t) for t in dealt]
        steps = []
        for i, item in enumerate(placements, 1):
            if not (isinstance(item, list) and len(item) == 2):
                raise ValueError(f"placement {i} must be [card, cell], got {item!r}")
            steps.append((Card.parse(item[0]), Placement.parse(item[1])))
        if rules.shuffle:
            for c in cards:
                state.turn(c)
            for c, p in steps:
                state.place(p, c)
        else:
            if len(steps) > len(cards) or len(cards) > len(steps) + 1:
                raise ValueError(f"{len(cards)} card(s) turned but {len(steps)} placed")
            for i, c in enumerate(cards):
                state.turn(c)
                if i < len(steps):
                    if steps[i][0] != c:
                        raise ValueError(f"placement {i + 1} is {steps[i][0]} but card {i + 1} turned was {c}")
                    state.place(steps[i][1])
    except ValueError as exc:  # CardError and IllegalMoveError are ValueErrors
        raise ValueError(f"corrupt Poker Patience save: {exc}") from None
    return state
