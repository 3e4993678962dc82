"""The panels show what the player needs: the layout as the rules describe it, rendered to plain text."""

import io

from rich.console import Console

from assistant.games.poker import Placement, PokerState, parse_grid, PokerRules
from assistant.games.tommy import TommyRules, TommyState
from assistant.hints import Hint, HintOption
from assistant.panel.game_panel import game_panel
from assistant.panel.poker_view import poker_layout
from assistant.panel.tommy_view import tommy_layout
from assistant.session import Session


def render(renderable, width=100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(renderable)
    return console.file.getvalue()


def tommy_after(history, rules="standard"):
    state = TommyState(TommyRules.preset(rules))
    for item in history.split():
        state.apply(item) if ">" in item else state.turn(item)
    return state


def test_tommy_shows_foundation_tops_waste_piles_and_the_turned_card():
    state = tommy_after("As S>F0 Qh S>W1 5c S>W1 2d")
    text = render(tommy_layout(state))
    assert "A♠" in text and "1/13" in text
    assert text.index("Q♥") < text.index("5♣")  # a pile is fanned downwards: the top card is lowest
    assert "turned: 2♦" in text and "stock: 48" in text and "on foundations: 1/52" in text


def test_old_strict_rule_hides_buried_waste_cards():
    """001: "square up the waste piles so that you can only see the top card, and remember what lies below"."""
    state = tommy_after("Qh S>W1 5c S>W1", rules="old-strict")
    text = render(tommy_layout(state))
    assert "##" in text and "5♣" in text and "Q♥" not in text


def test_poker_grid_names_finished_lines_and_the_total():
    grid = parse_grid("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D")
    text = render(poker_layout(PokerState.from_grid(grid)))
    assert "full house 25" in text and "four of a kind 50" in text and "total 197" in text


def test_english_scoring_changes_the_points_shown():
    grid = parse_grid("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D")
    text = render(poker_layout(PokerState.from_grid(grid, PokerRules.preset("english"))))
    assert "total 66" in text and "full house 10" in text


def test_the_hint_is_listed_best_first_and_the_poker_cell_is_marked():
    session = Session.new("poker", "american")
    session.turn("Ah")
    hint = Hint("Where to put A♥", ("expected",), (HintOption((Placement(2, 2),), ("121.5",)),
                                                  HintOption((Placement(0, 0),), ("118.0",))))
    text = render(game_panel(session, hint=hint))
    assert text.index("r3c3") < text.index("r1c1")
    assert "[ ]" in text.splitlines()[[i for i, l in enumerate(text.splitlines()) if " r3 " in l][0]]


def test_a_finished_game_shows_its_result():
    grid = parse_grid("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D")
    session = Session("poker", PokerState.from_grid(grid), "american")
    assert "197 points" in render(game_panel(session)) and "won" not in render(game_panel(session))


def test_the_tommy_hint_says_what_its_order_and_columns_mean():
    """Issue 11: a 3.7 % option stood above a 5.0 % one with no word why, and "95%" was unexplained."""
    from assistant.hints import hint_for

    session = Session.new("tommy", seed=8)
    for _ in range(6):
        session.turn()
        for move in hint_for(session, budget_ms=20).options[0].moves:
            session.play(move)
    session.turn()
    hint = hint_for(session, budget_ms=40)
    assert hint.columns[0] == "cards up"  # the order follows cards up (with wins), so that column comes first
    text = render(game_panel(session, hint=hint), width=200)
    assert "best first by cards up and wins together" in text and "95% range: where that chance lies" in text


def test_win_chances_never_blur_into_4_4_percent():
    from assistant.hints import percent, percent_range

    assert percent_range(0.040, 0.044) == "4.0-4.4%"
    assert percent_range(0.31, 0.52) == "31-52%"
    assert percent_range(0.101, 0.109) == "10.1-10.9%"
    assert percent(0.037) == "3.7%" and percent(0.42) == "42%"
