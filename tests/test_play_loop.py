"""The manual play loop in process, with hints on: it shows the advisor's hint, takes the hinted move, saves after
every action and says how to go on (issue 11: play_loop was never tested in process, nor any play with hints)."""

import io

from rich.console import Console

from assistant.commands.play import play_loop
from assistant.hints import hint_for
from assistant.session import Session


def scripted(lines, asked):
    """read_line that answers the prompts with ``lines`` (then None: Ctrl-D), recording each prompt."""
    answers = iter(lines)

    def read_line(prompt):
        asked.append(prompt)
        return next(answers, None)

    return read_line


def console():
    return Console(file=io.StringIO(), width=120, color_system=None)


def test_a_poker_game_with_hints_shows_the_hint_and_plays_the_typed_cell():
    saved = []
    session = Session.new("poker", seed=7, saver=lambda s: saved.append(s.to_save()["state"]))
    session.turn()
    expected = hint_for(session, budget_ms=30).options[0]  # the same position gets the same hint
    out, asked = console(), []
    code = play_loop(session, hints=True, budget_ms=30, console=out,
                     read_line=scripted([expected.text, "q"], asked))
    text = out.file.getvalue()
    assert code == 0
    assert text.count("Where to put") >= 1 and "expected score" in text
    assert session.state.to_dict()["placements"][0][1] == expected.text
    assert saved[-1] == session.state.to_dict()
    assert "patience resume" in text and asked[0] == "your move> "


def test_a_sir_tommy_game_with_hints_to_the_end_of_the_input():
    session = Session.new("tommy", seed=3)
    out, asked = console(), []
    code = play_loop(session, hints=True, budget_ms=20, console=out,
                     read_line=scripted(["", "h", ""], asked))  # Enter: the caller turns; h: help; Enter again
    text = out.file.getvalue()
    assert code == 0
    assert "Where to put" in text and "cards up" in text and "win chance" in text
    assert "Enter for the next card" in asked[0]
    assert len(session.state.hand) == 1  # the second Enter is refused: the turned card must be placed first


def test_training_mode_says_what_a_move_other_than_the_hint_cost():
    session = Session.new("poker", seed=7)
    for cell in ("r1c1", "r1c2", "r2c1", "r3c3", "r4c5"):  # past the first card, where every cell is alike
        session.turn()
        session.play(cell)
    session.turn()
    hint = hint_for(session, budget_ms=30)
    worst = hint.options[-1]
    assert worst.text != hint.options[0].text
    out = console()
    play_loop(session, hints=True, budget_ms=30, console=out, read_line=scripted([worst.text, "q"], []),
              train=True, lang="en")
    text = out.file.getvalue()
    assert "cost" in text.lower() and "point" in text.lower()


def test_calculation_starts_on_the_base_cards_the_player_names():
    """Calculation's bases are any A, 2, 3 and 4: with ``--bases`` the game starts on the player's (the default
    spades A-4 would refuse the As the player turns)."""
    import pytest

    from assistant.cards import Card, parse_cards
    from assistant.cli import UserError
    from assistant.commands.play import lay_out_bases

    session = Session.new("tommy", "calculation")
    lay_out_bases(session, "Ad,2c,3h,4s")
    assert [pile[0] for pile in session.state.foundations] == parse_cards("Ad 2c 3h 4s")
    session.state.turn(Card.parse("As"))
    for game, variant, text in [("poker", None, "Ad,2c,3h,4s"), ("tommy", "standard", "Ad,2c,3h,4s"),
                                ("tommy", "calculation", "2c,Ad,3h,4s"), ("tommy", "calculation", "Ad,2c,3h")]:
        with pytest.raises(UserError):
            lay_out_bases(Session.new(game, variant), text)


def test_four_at_a_time_is_hinted_for_the_whole_batch_and_the_player_types_the_hint_as_written():
    """Four at a time: once the four are turned the hint places them all, each card by name (``Qd>W0``), and the
    player may type a move just so; the rest of the batch is hinted again."""
    session = Session.new("tommy", "four-at-a-time", seed=3)
    for _ in range(4):
        session.turn()
    first = hint_for(session, budget_ms=20).options[0].text.split()[0]
    out, asked = console(), []
    code = play_loop(session, hints=True, budget_ms=20, console=out, read_line=scripted([first.lower()], asked))
    text = out.file.getvalue()
    assert code == 0 and len(session.state.hand) == 3
    card, target = first.split(">")
    assert str(session.state.history[-1]).endswith(target) and card not in [str(c) for c in session.state.hand]
    assert text.count("Where to put") == 2


def test_a_move_naming_a_card_not_in_hand_says_which_cards_are_turned():
    import pytest

    from assistant.games.tommy import MoveParseError

    session = Session.new("tommy", "four-at-a-time", seed=3)
    for _ in range(4):
        session.turn()
    hand = " ".join(str(c) for c in session.state.hand)
    with pytest.raises(MoveParseError, match=f"Kc is not a turned card to place \\(turned: {hand}\\)"):
        session.kind.parse_move("Kc>W0", session.state)
