"""``patience review`` on saved games with known costly mistakes.

tests/fixtures/review_tommy_mistakes.json: Sir Tommy, deal ``deal_order(21)``, played by the advisor except three
decisions where the advisor's *worst* option was played on purpose: card 6 (7♠ on waste pile 2 instead of 0),
card 10 (10♠ on waste pile 2 instead of 0) and card 14 (7♥ on waste pile 3 instead of 0); the game was lost with
42 cards up.  The advisor of that time (rollouts with 9 unseen cards) also made a mistake of its own that lost the
deal: card 43, 9♠ on waste pile 3 (on 8♦) instead of 1.  With the order known the deal was still winnable after
card 42 and not after 43 (the solver); played on by the advisor on 100 random orders of the 9 unseen cards, 9♠
on pile 1 won 71, on pile 3 none.

tests/fixtures/review_poker_mistake.json: Poker Patience (American), deal ``deal_order(4)``, the advisor's worst
cell for card 9 (Q♥ to r3c5 instead of r1c2), 53 points.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.coach.review import review_save, tommy_decisions

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tommy_review():
    return review_save(load("review_tommy_mistakes.json"), "en", samples=200, solver_nodes=100_000)


def test_the_decisions_are_the_placements_with_their_plays():
    data = load("review_tommy_mistakes.json")
    decisions = list(tommy_decisions(data["state"]))
    assert len(decisions) == 52 and [d[0] for d in decisions] == list(range(1, 53))
    number, before, moves = decisions[9]
    assert number == 10 and str(before.hand[0]) == "10s" and moves == ("S>W2",)


def test_the_deliberate_mistakes_and_the_losing_placement_are_named(tommy_review):
    named = [m.number for m in tommy_review.mistakes]
    assert {6, 10, 14, 43} <= set(named)
    late = next(m for m in tommy_review.mistakes if m.number == 43)
    assert (late.played, late.best) == (("S>W3",), ("S>W1",)) and late.played_value["win"] == 0.0
    worst = tommy_review.mistakes[0]
    assert (worst.number, worst.played, worst.best) == (10, ("S>W2",), ("S>W0",))
    assert worst.best_value["win"] - worst.played_value["win"] > 0.05  # several points of win chance
    assert worst.tip == "tommy.higher-not-lower"  # 10♠ covered the lower 6♥ while a pile with a higher top was free
    assert "10♠" in worst.text and "waste pile 0" in worst.text


def test_the_deal_was_winnable_with_the_order_known(tommy_review):
    solver = tommy_review.solver
    assert solver["status"] == "won"
    assert solver["until"]["decision_card"] == 43  # still winnable after the three mistakes, lost at card 43
    assert any("winnable" in line for line in tommy_review.lines)


def test_the_review_is_reproducible():
    data = load("review_tommy_mistakes.json")
    a = review_save(data, "de", samples=64, solver_nodes=5_000).to_dict()
    b = review_save(data, "de", samples=64, solver_nodes=5_000).to_dict()
    assert a == b


def test_poker_review_names_the_wasted_queen():
    review = review_save(load("review_poker_mistake.json"), "it", samples=128)
    worst = review.mistakes[0]
    assert (worst.number, worst.played, worst.best) == (9, ("r3c5",), ("r1c2",))
    assert worst.cost > 30
    assert "punti attesi" in worst.text
    assert review.solver["score"] > 53  # the same 25 cards arranged with all of them known
    assert "Poker Shuffle" in review.lines[-1]


def test_cli_json_and_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    path = tmp_path / "poker.json"
    path.write_text((FIXTURES / "review_poker_mistake.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["review", str(path), "--json", "--lang", "nl", "--samples", "64", "--top", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lang"] == "nl" and out["game"] == "poker" and len(out["mistakes"]) <= 2
    assert out["text"][0].startswith("Terugblik")


def test_cli_errors_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    assert main(["review"]) == 2
    assert "no saved game" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "x.json"), "--lang", "fr"]) == 2


def test_the_last_saved_game_is_reviewed_by_default(tmp_path, capsys, monkeypatch):
    """A game played with the saver of ``patience play`` (one file per game), reviewed without naming it."""
    from assistant.advisors.poker_advisor import policy_placement
    from assistant.saves import new_game_saver
    from assistant.session import Session

    monkeypatch.setenv("PATIENCE_LENS_HOME", str(tmp_path))
    session = Session.new("poker", "english", seed=5, saver=new_game_saver())
    while not session.is_over:
        session.turn()
        session.play(policy_placement(session.state))
    assert main(["review", "poker", "--samples", "32", "--lang", "en", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "poker" and out["decisions"] == 25
    assert main(["review", "tommy"]) == 2  # no Sir Tommy game saved
