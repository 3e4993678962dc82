"""What the play prompt tells a player: the help line of each game, and how to write a card when input is not one.

Kept apart from the play loop so that every way of playing (typed, camera, contest) says the same thing, and each
game's help mentions only what that game has: Sir Tommy has piles and no cells, Poker has cells and no piles.
"""

from __future__ import annotations

from assistant.cards import Card, CardError

#: How a card is written, as the README says it.
CARD_FORMAT = ("a card is its rank then its suit: A 2-10 J Q K (T for ten), then s h d c or ♠ ♥ ♦ ♣, any case: "
               "Qh, 10s, T♣, as")

_TOMMY = ("type the card you turned (Qh, 10s, T♣) - then where it goes: w2 (waste pile 2) or f0 (foundation 0), "
          "piles and foundations 0-3; W1>F0 plays the top of waste pile 1 up")
_POKER = "type the card you turned (Qh, 10s, T♣) - then its cell: r1c3 (row 1, column 3) or 13"
_POKER_SHUFFLE = "type the 25 cards you laid out (Qh, 10s, T♣) - then place each: Qh r1c3 (card, then its cell)"
_COMMON = "u: undo - h: this help - q: save and quit"


def play_help(game: str, *, caller: bool = False, shuffle: bool = False) -> str:
    """The help line for one game (``game`` "tommy" or "poker"): only that game's notation; ``caller``: the app
    calls a seeded order (Enter turns the next card); ``shuffle``: Poker Shuffle."""
    if game == "tommy":
        text = _TOMMY
    elif game == "poker":
        text = _POKER_SHUFFLE if shuffle else _POKER
    else:
        raise ValueError(f"unknown game {game!r}: tommy or poker")
    if caller:
        text += " - Enter: the caller's next card"
    return f"{text} - {_COMMON}"


def session_help(session) -> str:
    """:func:`play_help` for a Session (its game, whether the app calls the cards, Poker Shuffle)."""
    shuffle = bool(getattr(session.state.rules, "shuffle", False)) if session.game == "poker" else False
    return play_help(session.game, caller=session.seed is not None, shuffle=shuffle)


def is_card(text: str) -> bool:
    try:
        Card.parse(text)
        return True
    except CardError:
        return False


def not_understood(game: str, text: str, *, needs_card: bool, reason: str = "") -> str:
    """One line for input that is neither a card nor a move. At the "card turned" prompt it says how to write a
    card first (what the player was asked for), then the moves; ``reason`` is the parser's own complaint."""
    moves = "w2 / f0 / W1>F0" if game == "tommy" else "r1c3 or 13"
    shown = text if len(text) <= 12 else text[:11] + "…"
    if needs_card:
        return f"{shown!r} is not a card: {CARD_FORMAT} (or a move: {moves}; h for help)"
    why = f" ({reason})" if reason else ""
    return f"{shown!r} is not a move{why}: {moves} (h for help)"
