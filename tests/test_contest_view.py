"""The contest panel: every player's layout, the player to act, the caller's card, a hint when there is one."""

from rich.console import Console

from assistant.contest import Contest
from assistant.deals import deal_order
from assistant.hints import Hint, HintOption
from assistant.panel.contest_view import contest_panel, standings_table


def render(renderable) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_panel_shows_every_player_the_call_and_who_is_to_play():
    c = Contest.new("tommy", ["Ann", "Bob", "Cy"], seed=7)
    c.play("w0")
    c.done()
    text = render(contest_panel(c, message="hello"))
    assert "Ann" in text and "Bob" in text and "Cy" in text and "hello" in text
    assert f"call 1 of 52: the caller turns {deal_order(7)[0].pretty}" in text
    assert "done, waiting for the next card" in text and "to play" in text and "seed 7" in text


def test_a_hint_is_shown_for_the_current_player_when_there_is_one():
    c = Contest.new("poker", ["Ann", "Bob"], seed=3)
    hint = Hint("best cells", ("mean",), (HintOption(("r1c1",), ("12.5",)), HintOption(("r2c2",), ("11.0",))))
    text = render(contest_panel(c, hint=hint))
    assert "hint for Ann" in text and "r1c1" in text and "12.5" in text
    assert "hint for" not in render(contest_panel(c, hint=None))


def test_the_standings_table_ranks_the_players():
    c = Contest.new("poker", ["Ann", "Bob"], seed=3)
    text = render(standings_table(c))
    assert "Standing so far" in text and "Ann" in text and "win (200+)" in text
