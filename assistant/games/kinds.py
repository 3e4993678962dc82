"""The two games behind one interface, so the session, the panel and the camera path never branch on a name.

``GAME_KINDS["tommy"]`` and ``GAME_KINDS["poker"]`` make states, read moves, apply them and describe results; the
rules themselves stay in the engines (``tommy.py``, ``poker.py``).
"""

from __future__ import annotations

from assistant.cards import Card, CardError
from assistant.deals import deal_order
from assistant.games.poker import Placement, PokerRules, PokerState
from assistant.games.tommy import Move, TommyRules, TommyState


class TommyKind:
    """Sir Tommy: moves are ``Move`` values (``S>W2``, ``W1>F0``, ``R``)."""

    name = "tommy"
    title = "Sir Tommy"
    move_help = "S>W2 puts the turned card on waste pile 2, W1>F0 plays a waste top up (w2 / f0 for the turned card)"

    def new_state(self, variant: str | None, seed: int | None) -> tuple[TommyState, str]:
        rules = TommyRules.preset(variant or "standard")
        return TommyState(rules, order=deal_order(seed) if seed is not None else None), rules.name

    def load_state(self, data: dict) -> TommyState:
        return TommyState.from_dict(data)

    def parse_move(self, text: str, state: TommyState) -> Move:
        return Move.parse(expand_tommy_shorthand(text, state))

    def apply(self, state: TommyState, move: Move, card: Card | None = None) -> str:
        state.apply(move)
        return str(move)

    def hand(self, state: TommyState) -> tuple[Card, ...]:
        return tuple(state.hand)

    def called_card(self, state: TommyState, seed: int | None) -> Card | None:
        if seed is None or not state.needs_card():
            return None
        outcomes = state.chance_outcomes()
        return outcomes[0] if len(outcomes) == 1 else None

    def caller_turn(self, state: TommyState, seed: int | None) -> Card:
        if seed is None:
            raise CardError("type the card you turned")
        return state.turn_next()

    def result_line(self, state: TommyState, variant: str) -> str:
        r = state.result()
        verdict = "won" if r.won else ("lost" if state.is_terminal() else "in progress")
        return f"Sir Tommy ({variant}): {verdict}, {r.foundation_cards} of {r.cards_in_play} cards on the foundations"

    def result_json(self, state: TommyState) -> dict:
        r = state.result()
        return {"won": bool(r.won), "foundation_cards": int(r.foundation_cards)}

    def last_turn(self, state: TommyState) -> tuple[Card, list] | None:
        """The last card turned and the moves made after it (None before the first turn)."""
        history = list(state.history)
        k = max((i for i, h in enumerate(history) if isinstance(h, Card)), default=None)
        return None if k is None else (history[k], history[k + 1:])

    def moved_card(self, state: TommyState, move: Move) -> Card | None:
        """The card ``move`` would move in ``state`` (None for a redeal)."""
        if move.source == "S":
            return state.hand[move.source_index or 0] if state.hand else None
        if move.source == "W":
            pile = state.waste[move.source_index]
            return pile[-1] if pile else None
        return None


class PokerKind:
    """Poker Patience: moves are ``Placement`` values (``r1c3``); Poker Shuffle names the open card too."""

    name = "poker"
    title = "Poker Patience"
    move_help = "r1c3 (or 13) puts the card in row 1, column 3"

    def new_state(self, variant: str | None, seed: int | None) -> tuple[PokerState, str]:
        rules = PokerRules.preset(variant or "american")
        return PokerState(rules), rules.name or (variant or "american")

    def load_state(self, data: dict) -> PokerState:
        return PokerState.from_dict(data)

    def parse_move(self, text: str, state: PokerState) -> tuple[Placement, Card | None]:
        parts = str(text).split()
        if len(parts) == 2 and not parts[0].isdigit():  # Poker Shuffle: "Qh r1c3" names the open card to place
            return parse_cell(parts[1]), Card.parse(parts[0])
        return parse_cell(str(text)), None

    def apply(self, state: PokerState, move: Placement, card: Card | None = None) -> str:
        return str(state.place(move, card))

    def hand(self, state: PokerState) -> tuple[Card, ...]:
        return tuple(state.pending)

    def called_card(self, state: PokerState, seed: int | None) -> Card | None:
        if seed is None or not state.needs_card():
            return None
        return deal_order(seed)[len(state.dealt)]

    def caller_turn(self, state: PokerState, seed: int | None) -> Card:
        card = self.called_card(state, seed)
        if card is None:
            raise CardError("type the card you turned")
        return state.turn(card)

    def result_line(self, state: PokerState, variant: str) -> str:
        score = state.score()
        rules = state.rules
        verdict = "" if not state.is_terminal() else (
            " - won!" if score.total >= rules.win_threshold else f" (a win needs {rules.win_threshold})")
        return f"Poker Patience ({rules.describe()}): {score.total} points{verdict}"

    def result_json(self, state: PokerState) -> dict:
        rows = [[str(c) if c is not None else None for c in row] for row in state.grid]
        return {"rows": rows, "american": state.score("american").total, "english": state.score("english").total}

    def last_turn(self, state: PokerState) -> tuple[Card, list] | None:
        if not state.dealt:
            return None
        card = state.dealt[-1]
        return card, [s.placement for s in state.history if s.card == card]

    def moved_card(self, state: PokerState, move: Placement) -> Card | None:
        return state.current


GAME_KINDS = {"tommy": TommyKind(), "poker": PokerKind()}


def game_kind(name: str):
    """The kind for ``name``; ValueError listing the choices."""
    try:
        return GAME_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose {' or '.join(GAME_KINDS)}") from None


def expand_tommy_shorthand(text: str, state: TommyState) -> str:
    """Let players type ``w2`` / ``f1`` for the single turned card (``S>W2``), and ``2`` for ``S>W2``."""
    t = text.strip().upper().replace(" ", "")
    if len(state.hand) == 1 and (t[:1] in ("W", "F") and t[1:].isdigit()):
        return f"S>{t}"
    if len(state.hand) == 1 and t.isdigit() and len(t) == 1:
        return f"S>W{t}"
    return t


def parse_cell(text: str) -> Placement:
    """``r1c3``, or two digits ``13`` / ``1 3`` (row, column, 1-based)."""
    t = text.strip().replace(",", " ")
    digits = t.replace(" ", "")
    if digits.isdigit() and len(digits) == 2:
        return Placement(int(digits[0]) - 1, int(digits[1]) - 1)
    return Placement.parse(t)
