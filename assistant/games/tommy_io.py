"""The Sir Tommy state as others read it: the player's view, numpy arrays for kernels, JSON-safe saves.

``TommyState.player_view()``, ``to_arrays()``, ``to_dict()`` and ``TommyState.from_dict()`` call these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from assistant.cards import Card, full_deck
from assistant.games.tommy_rules import PILES, Move, TommyRules

if TYPE_CHECKING:
    from assistant.games.tommy import TommyState

SAVE_FORMAT = "patience-lens/tommy/1"

_TEXT: dict[Card | Move, str] = {c: str(c) for c in full_deck()}  # str() of cards and moves, cached


def text_of(x: Card | Move) -> str:
    """``str(x)`` for a card or move, cached (saves are written after every move)."""
    t = _TEXT.get(x)
    if t is None:
        t = _TEXT[x] = str(x)
    return t


@dataclass(frozen=True)
class TommyView:
    """What the player sees: waste piles bottom first, ``None`` for a buried card under the old strict rule."""

    foundations: tuple[tuple[Card, ...], ...]
    waste: tuple[tuple[Card | None, ...], ...]
    hand: tuple[Card, ...]
    stock_count: int
    redeals_left: int


def player_view(state: "TommyState") -> TommyView:
    """The layout as the player sees it; under the old strict rule buried waste cards are None."""
    hide = state.rules.hidden_piles
    waste = tuple(tuple(None if hide and i < len(p) - 1 else c for i, c in enumerate(p)) for p in state.waste)
    return TommyView(tuple(map(tuple, state.foundations)), waste, tuple(state.hand), state.stock_count, state.redeals_left)


def state_to_arrays(state: "TommyState") -> dict[str, np.ndarray]:
    """The position as numpy arrays for compiled advisors (card index = suit * 13 + rank - 1, -1 = none):

    found       int8[4, 13]  foundation cards bottom first, -1 padded     found_len int8[4]
    found_top   int8[4]      rank of each foundation top, 0 when empty
    waste       int8[4, 52]  waste pile cards bottom first, -1 padded     waste_len int8[4]
    hand        int8[4]      turned cards in hand, in the order turned    hand_len  int8[1]
    stock_mask  bool[52]     cards in the stock (their order unknown unless stock_order says)
    stock_order int8[52]     the stock order when the PLAYER knows it (unshuffled redeal), else all -1
    unseen      bool[52]     cards never seen
    scalars     int8[4]      [stock_count, batch_left (cards still to turn now), redeals_left, needs_card]
    params      int32[10]    ``rules.to_params()``
    """
    found = np.full((PILES, 13), -1, np.int8)
    waste = np.full((PILES, 52), -1, np.int8)
    for i in range(PILES):
        for j, c in enumerate(state.foundations[i]):
            found[i, j] = c.index
        for j, c in enumerate(state.waste[i]):
            waste[i, j] = c.index
    hand = np.full(4, -1, np.int8)
    hand[: len(state.hand)] = [c.index for c in state.hand]
    stock_mask = np.zeros(52, np.bool_)
    stock_mask[[c.index for c in state._stock]] = True
    unseen = np.zeros(52, np.bool_)
    unseen[[c.index for c in state.unseen()]] = True
    stock_order = np.full(52, -1, np.int8)
    if state._order_known and state._order:
        stock_order[: len(state._order)] = [c.index for c in state._order]
    return {
        "found": found,
        "found_len": np.array([len(p) for p in state.foundations], np.int8),
        "found_top": np.array([p[-1].rank if p else 0 for p in state.foundations], np.int8),
        "waste": waste,
        "waste_len": np.array([len(p) for p in state.waste], np.int8),
        "hand": hand,
        "hand_len": np.array([len(state.hand)], np.int8),
        "stock_mask": stock_mask,
        "stock_order": stock_order,
        "unseen": unseen,
        "scalars": np.array([state.stock_count, state._batch_left, state.redeals_left, state.needs_card()], np.int8),
        "params": state.rules.to_params(),
    }


def state_to_dict(state: "TommyState") -> dict:
    """A JSON-safe save: rules, base cards, the history (card texts for turns, move texts), the remaining
    deal order if one is known to the engine, and the layout (checked on load)."""
    t = _TEXT
    return {
        "format": SAVE_FORMAT,
        "rules": state.rules.to_dict(),
        "bases": [t[c] for c in state.bases],
        "start": state._start,
        "history": list(state._history_text),
        "order": [t[c] for c in state._order] if state._order is not None and not state._order_known else None,
        "layout": {
            "foundations": [[t[c] for c in p] for p in state.foundations],
            "waste": [[t[c] for c in p] for p in state.waste],
            "hand": [t[c] for c in state.hand],
            "stock_count": state.stock_count,
            "redeals_left": state.redeals_left,
        },
    }


def state_from_dict(cls: type, data: dict, rng: np.random.Generator | None = None) -> "TommyState":
    """Rebuild a game from ``to_dict()`` by replaying its history; ValueError says what is corrupt."""
    try:
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a Sir Tommy save (format {SAVE_FORMAT!r})")
        rules = TommyRules.from_dict(data.get("rules"))
        bases = data.get("bases")
        history = data.get("history")
        if not isinstance(bases, list) or not isinstance(history, list):
            raise ValueError("'bases' and 'history' must be lists")
        start = data.get("start")
        if start is None:
            state = cls(rules, bases=bases or None)
        elif isinstance(start, dict) and set(start) - {"assumed"} == {"foundations", "waste", "redeals_left"}:
            state = cls.from_layout(rules, start["foundations"], start["waste"], redeals_left=start["redeals_left"])
            if [str(c) for c in state.bases] != bases:
                raise ValueError("the base cards do not match the start layout")
            assumed = start.get("assumed", [])
            if not isinstance(assumed, list) or not all(isinstance(c, str) for c in assumed):
                raise ValueError("'assumed' must be a list of cards")
            state._assumed = {Card.parse(c) for c in assumed}
            if not all(any(c in p[:-1] for p in state.foundations) for c in state._assumed):
                raise ValueError("an assumed card is not under a foundation top in the start layout")
            if assumed:
                state._start["assumed"] = sorted(assumed)
        else:
            raise ValueError("'start' must be null or a layout with foundations, waste and redeals_left")
        for step, item in enumerate(history):
            if not isinstance(item, str):
                raise ValueError(f"history step {step} is not text: {item!r}")
            try:
                if ">" in item or item.strip().upper() == "R":
                    state.apply(item)
                else:
                    state.turn(item)
            except ValueError as exc:
                raise ValueError(f"history step {step} {item!r}: {exc}") from None
        order = data.get("order")
        if order is not None:
            if not isinstance(order, list):
                raise ValueError("'order' must be a list of cards or null")
            state.set_stock_order(order)
            if rng is None and rules.redeals and rules.shuffle_on_redeal:
                from assistant.games.tommy import _seeded_rng

                rng = _seeded_rng(state._order or [], len(history) + 1)
        layout = data.get("layout")
        if layout is not None and state.to_dict()["layout"] != layout:
            raise ValueError("the layout does not match the replayed history")
        state.rng = rng
        return state
    except (ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"corrupt Sir Tommy save: {exc}") from None
