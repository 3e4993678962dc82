"""The play prompt's texts: each game's help names only its own notation; a bad card says how to write one."""

import pytest

from assistant.cards import Card
from assistant.help_texts import CARD_FORMAT, not_understood, play_help, session_help
from assistant.session import Session


def test_the_sir_tommy_help_names_piles_and_not_poker_cells_or_the_caller():
    """Issue 11: the Sir Tommy help line mentioned Poker cells and the caller."""
    text = play_help("tommy")
    assert "w2" in text and "f0" in text and "W1>F0" in text
    assert "r1c3" not in text and "cell" not in text and "caller" not in text and "Poker" not in text


def test_the_poker_help_names_cells_and_not_piles():
    text = play_help("poker")
    assert "r1c3" in text and "13" in text and "W1>F0" not in text and "waste" not in text
    assert "Qh r1c3" in play_help("poker", shuffle=True)


def test_the_caller_is_mentioned_only_when_the_app_calls_the_cards():
    assert "caller" in session_help(Session.new("tommy", seed=3)) and "caller" not in session_help(Session.new("tommy"))


def test_a_bad_card_at_the_card_prompt_says_how_to_write_a_card():
    """Issue 11: a bad card at the "card turned" prompt explained only moves."""
    line = not_understood("tommy", "Qx", needs_card=True)
    assert "is not a card" in line and CARD_FORMAT in line and "\n" not in line
    for example in ("Qh", "10s", "T♣", "as"):  # the examples given parse as cards
        Card.parse(example)


@pytest.mark.parametrize("game", ["tommy", "poker"])
def test_a_bad_move_names_the_games_moves(game):
    line = not_understood(game, "zz", needs_card=False, reason="unknown pile")
    assert ("r1c3" in line) == (game == "poker") and "unknown pile" in line
