"""The live camera's scoring key (issue #10: "From the live camera: a key in `patience play poker --source S` scores
the grid on the table"): ``s`` reads the grid in the last frame read, as ``patience score-photo`` would."""

from __future__ import annotations

from assistant.games.poker import parse_grid, score_grid
from assistant.live.loop import LiveGame
from assistant.session import Session
from tests.test_photo_grid import DEALT, overlapped_rows_result


def poker_game() -> LiveGame:
    return LiveGame(Session.new("poker"), read=None, publish=lambda e: None, hints=False)


def test_before_any_frame_is_read_the_key_asks_for_a_still_table():
    assert poker_game().run_command("s") == "no frame has been read yet: hold the table still"


def test_the_grid_on_the_table_is_scored_both_ways_even_with_its_rows_laid_over_each_other():
    game = poker_game()
    game._previous = overlapped_rows_result()  # the last frame read: only the top corner of most cards shows
    text = " / ".join(" ".join(row) for row in DEALT.tolist())
    cells = parse_grid(text)
    american, english = score_grid(cells, "american").total, score_grid(cells, "english").total
    assert game.run_command("s") == f"the grid on the table: {text} = {american} American, {english} English"


def test_sir_tommy_has_no_scoring_key():
    game = LiveGame(Session.new("tommy", "standard"), read=None, publish=lambda e: None, hints=False)
    assert game.run_command("s").startswith("commands: u (undo the last move)")
    assert "score the grid" not in game.run_command("s")


def test_a_card_the_player_corrected_is_scored_under_its_corrected_name():
    from assistant.cards import Card
    from assistant.events import TurnAndPlay
    from assistant.games.poker import Placement

    game = poker_game()
    game._previous = overlapped_rows_result()  # reads As in the top left cell: the player had said it is the Ac
    game.session.handle(TurnAndPlay(Card.parse("Ac"), Placement(0, 0)))
    game.corrections.add(Card.parse("As"), Card.parse("Ac"), (0.0, 0.0))
    rows = DEALT.tolist()
    rows[0][0] = "Ac"
    text = " / ".join(" ".join(row) for row in rows)
    cells = parse_grid(text)
    american, english = score_grid(cells, "american").total, score_grid(cells, "english").total
    assert game.run_command("s") == f"the grid on the table: {text} = {american} American, {english} English"
