"""What the play prompt tells a player: the help line of each game, and how to write a card when input is not one.

Kept apart from the play loop so that every way of playing (typed, camera, contest) says the same thing, and each
game's help mentions only what that game has: Sir Tommy has piles and no cells, Poker has cells and no piles (each
game's own line is its kind's ``play_help``, in ``assistant.games.kinds``).
"""

from __future__ import annotations

from assistant.cards import Card, CardError
from assistant.games.kinds import game_kind

#: How a card is written, as the README says it.
CARD_FORMAT = ("a card is its rank then its suit: A 2-10 J Q K (T for ten), then s h d c or ♠ ♥ ♦ ♣, any case: "
               "Qh, 10s, T♣, as")

_COMMON = "u: undo - h: this help - q: save and quit"


def play_help(game: str, *, caller: bool = False, shuffle: bool = False) -> str:
    """The help line for one game (``game`` "tommy" or "poker"): only that game's notation; ``caller``: the app
    calls a seeded order (Enter turns the next card); ``shuffle``: Poker Shuffle."""
    text = game_kind(game).play_help(shuffle)
    if caller:
        text += " - Enter: the caller's next card"
    return f"{text} - {_COMMON}"


def session_help(session) -> str:
    """:func:`play_help` for a Session (its game, whether the app calls the cards, Poker Shuffle)."""
    shuffle = session.kind.is_shuffle(session.state)
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
    moves = game_kind(game).move_examples
    shown = text if len(text) <= 12 else text[:11] + "…"
    if needs_card:
        return f"{shown!r} is not a card: {CARD_FORMAT} (or a move: {moves}; h for help)"
    why = f" ({reason})" if reason else ""
    return f"{shown!r} is not a move{why}: {moves} (h for help)"
