"""What the camera missed, typed: with the camera running, the player types a card turned (``Qh``) or a move
(``2c>W0``, ``W1>F0``, Poker ``r2c3``) and the game takes it as if seen, its place on the table learned from the
views that show it afterwards. (A card the reader never names right anywhere could not be placed before.)"""

from __future__ import annotations

from assistant.cards import Card
from assistant.events import Turn
from assistant.live.loop import LiveGame
from assistant.session import Session
from tests.live_sim import four_at_a_time_script, poker_script, run_script


def test_four_at_a_time_a_batch_card_never_read_is_named_and_placed_by_typing():
    """The batch's last card is read nowhere, ever (in the row, where it is laid, under the cards laid on it): the
    player names it (``r``) once the game says the batch is short, and types where it went; the cards laid on it
    later are placed on its pile, and the game is followed to its end."""
    script, final = four_at_a_time_script(0, in_row=True)
    starts = [i for i, e in enumerate(script.truth)
              if e["event"] == "card" and (i == 0 or script.truth[i - 1]["event"] == "move")]
    batch = script.truth[starts[1]:starts[2]]
    moves = [e for e in batch if e["event"] == "move" and e["move"].startswith("S")]
    missing, target = moves[-1]["card"], moves[-1]["move"].split(">")[1]
    for frame in script.frames[batch[0]["still_frame"]:]:
        frame.cards = [s for s in frame.cards if s.card != missing]
    session = Session.new("tommy", "four-at-a-time")
    said = run_script(session, script, commands={moves[0]["still_frame"] + 12: f"r {missing}",
                                                 moves[-1]["still_frame"] + 4: f"{missing}>{target}"})
    warnings = [e["message"] for e in said if e["event"] == "warning"]
    assert f"typed: {missing} S>{target}" in warnings
    placed = [e for e in said if e["event"] == "move" and e["card"] == missing]
    assert len(placed) == 1 and placed[0]["move"].endswith(f">{target}")
    assert session.state.foundations == final.foundations and session.state.waste == final.waste


def test_a_poker_card_never_read_is_typed_with_its_cell_and_the_grid_comes_out_whole():
    script, rows = poker_script(3, cards=25)
    laid = [e for e in script.truth if e["event"] == "move"]
    # a card laid once the grid's top row and left column are taken: the panel's cells are the table's then
    k = next(i for i in range(1, 25) if {0} <= {e["final_cell"][0] for e in laid[:i]}
             and {0} <= {e["final_cell"][1] for e in laid[:i]})
    missing, (row, col) = laid[k]["card"], laid[k]["final_cell"]
    for frame in script.frames[laid[k]["still_frame"]:]:
        frame.cards = [s for s in frame.cards if s.card != missing]
    session = Session.new("poker", "american")
    events = run_script(session, script, commands={laid[k]["still_frame"] + 2: missing,
                                                   laid[k]["still_frame"] + 3: f"r{row + 1}c{col + 1}"})
    assert f"typed: turned {missing}" in [e.get("message") for e in events]
    (result,) = [e for e in events if e["event"] == "result"]
    assert result["rows"] == rows
    assert not any("differs" in e.get("message", "") for e in events)


def test_a_typed_move_the_rules_refuse_leaves_the_game_as_it_was():
    game = LiveGame(Session.new("tommy", "standard"), read=None, publish=lambda e: None, hints=False)
    game.session.handle(Turn(Card.parse("5h")))
    assert game.run_command("5h>F0") == "S>F0: 5h cannot start foundation 0: an empty foundation takes an Ace"
    assert game.run_command("7c").startswith("place the turned card first (5h)")
    assert game.session.state.hand == [Card.parse("5h")] and not game.session.state.history[1:]
    assert game.run_command("5h>W2") == "typed: 5h S>W2"
    assert game.session.state.waste[2] == [Card.parse("5h")]


def test_text_that_is_neither_a_command_a_card_nor_a_move_lists_what_can_be_typed():
    game = LiveGame(Session.new("tommy", "standard"), read=None, publish=lambda e: None, hints=False)
    answer = game.run_command("hello")
    assert answer.startswith("commands: u (undo the last move)") and "what the camera missed" in answer
