"""Sir Tommy as the rules texts describe it (001 English, 000 German, 002 Dutch variants and scoring)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.cards import Card, CardError, full_deck, parse_cards
from assistant.deals import deal_order
from assistant.games.tommy import (
    IllegalMoveError,
    Move,
    TommyResult,
    TommyRules,
    TommyState,
    compare_results,
)


def moves(state: TommyState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def tops(state: TommyState) -> list[str]:
    return [str(p[-1]) if p else "-" for p in state.foundations]


def test_the_worked_example_of_the_rules():
    """001: "The foundations show 4, 2 and A. You turn a 3: it goes on the 2. Next comes a J: no foundation
    wants it, so it goes on an empty waste pile. Then a 5: it goes on the 4. Then a 2: put it on the A – and
    the top card of a waste pile is a 3, so that goes on the new 2 as well." """
    s = TommyState.from_layout("standard", "As 2s 3s 4s | Ah 2h | Ac | -", "Kd 3d | - | - | -")
    assert tops(s) == ["4s", "2h", "Ac", "-"]
    s.turn("3c")
    assert moves(s) == ["S>F1", "S>W0", "S>W1", "S>W2", "S>W3"]
    s.apply("S>F1")
    s.turn("Jh")
    assert moves(s) == ["S>W0", "S>W1", "S>W2", "S>W3"]  # "no foundation wants it"
    s.apply("S>W1")
    s.turn("5h")
    s.apply("S>F0")
    s.turn("2c")
    s.apply("S>F2")
    assert "W0>F2" in moves(s)  # "the top card of a waste pile is a 3, so that goes on the new 2 as well"
    s.apply("W0>F2")
    assert tops(s) == ["5h", "3c", "3d", "-"]
    assert [str(p[-1]) if p else "-" for p in s.waste] == ["Kd", "Jh", "-", "-"]
    assert [str(x) for x in s.history] == ["3c", "S>F1", "Jh", "S>W1", "5h", "S>F0", "2c", "S>F2", "W0>F2"]


def test_an_ace_starts_a_new_foundation_and_any_suit_builds_on_it():
    """001: "An Ace starts a new foundation. Any other card may go on a foundation whose top card is one
    lower, in any suit – a 2 on any Ace, a 3 on any 2, and so on." """
    s = TommyState()
    s.turn("5c")
    assert moves(s) == ["S>W0", "S>W1", "S>W2", "S>W3"]  # an empty foundation takes only an Ace
    s.apply("S>W3")
    s.turn("Ad")
    assert moves(s)[:4] == ["S>F0", "S>F1", "S>F2", "S>F3"]
    s.apply("S>F2")
    s.turn("2s")
    assert moves(s)[0] == "S>F2"
    s.apply("S>F2")
    assert tops(s) == ["-", "-", "2s", "-"]


def test_nothing_is_forced():
    """001: "If it doesn't fit, or you'd rather keep it, put it on any one of the four waste piles." and
    "At any time you may also move the top card of a waste pile to a foundation" – may, not must."""
    s = TommyState()
    s.turn("Ah")
    s.apply("S>W0")  # an Ace kept back on a waste pile
    s.turn("As")
    s.apply("S>F0")
    s.turn("Qc")
    s.apply("S>W1")
    assert s.needs_card() and moves(s) == ["W0>F1", "W0>F2", "W0>F3"]
    s.turn("Ac")  # the player may turn on without playing the Ah up
    s.apply("S>W2")
    s.apply("W2>F3")  # waste tops in any order
    s.apply("W0>F1")
    assert tops(s) == ["As", "Ah", "-", "Ac"]


def test_a_turned_card_must_be_placed_straight_away():
    """001: "Turn over the top card of the stock. You must place it straight away"; 002: "Na elke plaatsing
    mag je ook de huidige bovenkant van een aflegstapel naar een fundering spelen" (after each placement)."""
    s = TommyState.from_layout("standard", "As | - | - | -", "2h | - | - | -")
    s.turn("9c")
    assert not s.needs_card()
    with pytest.raises(IllegalMoveError, match="straight away"):
        s.apply("W0>F0")
    with pytest.raises(CardError, match="place the turned card first"):
        s.turn("8c")
    s.apply("S>W1")
    s.apply("W0>F0")


def test_cards_never_move_between_waste_piles_or_back():
    """001: "Cards can never move from one waste pile to another, or back from a foundation." """
    s = TommyState.from_layout("standard", "As | - | - | -", "2h | 5c | - | -")
    with pytest.raises(IllegalMoveError, match="never move from one waste pile to another"):
        s.apply("W0>W1")
    with pytest.raises(IllegalMoveError):
        s.apply("F0>W1")


@pytest.mark.parametrize("move, reason", [
    ("S>W0", "no turned card in hand"),
    ("W1>F0", "waste pile 1 is empty"),
    ("W0>F1", "an empty foundation takes an Ace"),
    ("W2>F0", "needs a 2"),
    ("R", "no redeal in standard"),
    ("W0>W3", "only in Strategy"),
])
def test_illegal_moves_are_refused_with_a_reason_and_change_nothing(move, reason):
    s = TommyState.from_layout("standard", "As | - | - | -", "2h | - | 7c | -")
    s.turn("9d")
    s.apply("S>W3")
    before = s.to_dict()
    with pytest.raises(IllegalMoveError) as err:
        s.apply(move)
    assert reason in str(err.value) and str(err.value).startswith(move) and "\n" not in str(err.value)
    assert s.to_dict() == before
    assert not s.is_legal(move)


def test_a_card_can_be_turned_only_once():
    s = TommyState()
    s.turn("Qh")
    s.apply("S>W2")
    with pytest.raises(CardError, match="Qh was already seen"):
        s.turn("Qh")
    with pytest.raises(CardError):
        s.turn("Zz")
    assert s.unseen() == sorted(set(full_deck()) - {Card.parse("Qh")})
    assert s.stock_count == 51 and len(s.chance_outcomes()) == 51


def test_an_order_deals_itself_and_undo_puts_the_card_back():
    order = deal_order(7)
    s = TommyState("standard", order)
    assert s.turn_next() == order[0]
    s.apply("S>W0")
    with pytest.raises(CardError, match=f"deal order says {order[1]}"):
        s.turn(order[5])
    assert s.undo() == Move.parse("S>W0")
    assert s.undo() == order[0]
    assert s.needs_card() and s.stock_count == 52 and s.to_dict() == TommyState("standard", order).to_dict()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        s.undo()


def test_order_and_bases_are_checked():
    with pytest.raises(CardError, match="appears twice"):
        TommyState("standard", ["As", "As"] + [str(c) for c in full_deck()[2:]])
    with pytest.raises(ValueError, match="missing"):
        TommyState("standard", deal_order(1)[:51])
    with pytest.raises(ValueError, match="no base cards"):
        TommyState("standard", bases="As Ah Ad Ac")
    with pytest.raises(ValueError, match="must be a 3"):
        TommyState("calculation", bases="As 2s 4s 3s")


# -- variants -------------------------------------------------------------------------------------------------

def test_aces_out_first():
    """001: "Aces out first: take out the four Aces as foundations before you start." """
    s = TommyState("aces-out-first", deal_order(3))
    assert tops(s) == ["As", "Ah", "Ad", "Ac"]
    assert s.stock_count == 48 and len(s.unseen()) == 48
    assert all(c.rank != 1 for c in s.stock_cards())


def test_four_at_a_time():
    """001: "Four at a time: turn four cards at once and place all four before you move anything from the
    waste piles to the foundations." """
    s = TommyState.from_layout("four-at-a-time", "As | - | - | -", "2h | - | - | -")
    assert moves(s) == ["W0>F0"]
    s.turn("9c")
    for card in parse_cards("Ad 3c Kh"):
        assert s.needs_card() and s.legal_moves() == []  # nothing moves while the four are being turned
        s.turn(card)
    assert not s.needs_card()
    assert [str(c) for c in s.hand] == ["9c", "Ad", "3c", "Kh"]
    assert "S1>F1" in moves(s) and "S0>W0" in moves(s) and not any(m.startswith("W") for m in moves(s))
    with pytest.raises(IllegalMoveError, match="place the turned cards first"):
        s.apply("W0>F0")
    s.apply("S1>F1")  # the Ad; the cards still in hand are now S0 9c, S1 3c, S2 Kh
    s.apply("S2>W3")
    assert [str(c) for c in s.hand] == ["9c", "3c"]
    s.apply("S0>W1")
    s.apply("S>W2")  # S alone is the first card still in hand
    s.apply("W0>F0")  # now the waste piles may play
    assert tops(s) == ["2h", "Ad", "-", "-"]


def test_four_at_a_time_turns_what_remains_at_the_end():
    s = TommyState.from_layout("four-at-a-time", "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks | "
                               "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd | "
                               "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c", "- | - | - | -")
    assert s.stock_count == 3
    for c in ("Jc", "Qc", "Kc"):
        s.turn(c)
    assert not s.needs_card() and s.legal_moves()
    for _ in range(3):
        s.apply("S0>F3")
    assert s.is_won() and s.is_terminal()


def test_old_strict_rule_hides_buried_cards_from_the_player_only():
    """001: "Old strict rule: square up the waste piles so that you can only see the top card, and remember
    what lies below." """
    s = TommyState.from_layout("old-strict", None, "Kd 9c 3h | 5s | - | -")
    view = s.player_view()
    assert view.waste[0] == (None, None, Card.parse("3h"))
    assert view.waste[1] == (Card.parse("5s"),)
    assert [str(c) for c in s.waste[0]] == ["Kd", "9c", "3h"]  # the engine still knows them
    plain = TommyState.from_layout("standard", None, "Kd 9c 3h | 5s | - | -")
    assert None not in plain.view().waste[0]


def test_in_suit_builds_on_the_ace_of_the_same_suit():
    """001: "In suit: build the foundations in suit (only the 2♥ on the A♥)." """
    s = TommyState.from_layout("in-suit", "As | Ah | - | -", None)
    s.turn("2h")
    assert moves(s)[0] == "S>F1"
    with pytest.raises(IllegalMoveError, match="in suit it takes only 2s"):
        s.apply("S>F0")


def test_in_suit_two_shuffled_redeals():
    """001: "Cheney (1869) allowed two redeals for this much harder version: pick up the waste piles, shuffle
    them and play them through again." """
    s = TommyState.from_layout("in-suit", None, None)
    cards = s.stock_cards()
    for c in cards:
        s.turn(c)
        s.apply("S>W0" if c.rank == 1 else "S>W1")  # keep everything back
    assert not s.is_terminal() and moves(s)[-1] == "R"
    s.apply("R")
    assert s.redeals_left == 1 and s.stock_count == 52 and s.unseen() == []
    assert s.chance_outcomes() == sorted(full_deck())  # shuffled: any card may come next
    s.turn("7d")
    s.apply("S>W2")
    rest = [c for c in s.stock_cards()]
    for c in rest:
        s.turn(c)
        s.apply("S>W0")
    s.apply("R")
    assert s.redeals_left == 0
    with pytest.raises(IllegalMoveError):
        s.apply("R")


def test_strategy_allows_waste_to_waste_and_ends_only_when_nothing_can_be_dug_out():
    """002: "Strategy: Staat verplaatsingen van aflegstapel naar aflegstapel toe, waardoor het spel
    aanzienlijk eenvoudiger wordt." Waste-to-waste moves alone do not keep a game alive."""
    s = TommyState.from_layout("strategy", "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks | "
                               "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd | "
                               "Ac 2c 3c 4c 5c 6c 7c 8c 9c", "10c Kc | Qc Jc | - | -")
    assert not s.is_terminal()
    assert "W0>W2" in moves(s) and "W0>F3" not in moves(s)  # the 10c is buried under the Kc
    s.apply("W0>W2")
    s.apply("W0>F3")
    for move in ("W1>W3", "W3>F3", "W1>F3", "W2>F3"):
        s.apply(move)
    assert s.is_won()


def test_strategy_endgames_are_never_lost():
    """With any top free to go on any other pile, every buried card can be dug out, so once the stock is out
    a Strategy game is over only when won (the terminal rule documented in assistant/games/tommy.py)."""
    for seed in range(10):
        rng = np.random.default_rng(seed)
        s = TommyState("strategy", deal_order(seed))
        while not s.is_terminal():
            ms = s.legal_moves()
            up = [m for m in ms if m.to_foundation]
            if up:
                s.apply(up[0])
            elif s.needs_card():
                s.turn_next()
            else:
                s.apply(ms[int(rng.integers(len(ms)))])
        assert s.is_won()


def test_numerica_starts_foundations_left_to_right():
    """002: "Numerica: Funderingen moeten strikt van links naar rechts worden opgebouwd; je kunt geen nieuwe
    fundering op de tweede stapel beginnen totdat de eerste is gestart." """
    s = TommyState("numerica")
    s.turn("Ah")
    assert moves(s)[0] == "S>F0" and "S>F1" not in moves(s)
    with pytest.raises(IllegalMoveError, match="start foundation 0 first"):
        s.apply("S>F2")
    s.apply("S>F0")
    s.turn("Ac")
    assert [m for m in moves(s) if "F" in m] == ["S>F1"]


def test_calculation_bases_and_building():
    """002: "Calculation: ... funderingen worden opgebouwd met verschillende intervallen (Aas met stappen van
    1, 2 met stappen van 2, 3 met stappen van 3, 4 met stappen van 4) met wrap-around bij de Heer." """
    order = deal_order(11)
    s = TommyState("calculation", order)
    firsts = [next(c for c in order if c.rank == r) for r in (1, 2, 3, 4)]
    assert [p[0] for p in s.foundations] == firsts  # the first A, 2, 3, 4 of the deal, as PySolFC does
    assert s.stock_count == 48 and not set(firsts) & set(s.stock_cards())
    s = TommyState.from_layout("calculation", "As | 2h 4s 6s 8s 10s Qs | 3s | 4h", None)
    assert [s.foundation_needs(f) for f in range(4)] == [2, 1, 6, 8]
    s.turn("Ah")  # an Ace starts nothing here: all four foundations are started; it goes on the Q
    assert [m for m in moves(s) if "F" in m] == ["S>F1"]
    s.apply("S>F1")
    s.turn("8d")
    assert [m for m in moves(s) if "F" in m] == ["S>F3"]
    with pytest.raises(IllegalMoveError, match=r"builds by 1\): it needs a 2"):
        s.apply("S>F0")
    assert TommyState("calculation").bases == tuple(parse_cards("As 2s 3s 4s"))


def test_puss_in_the_corner():
    """002: "Puss in the Corner: Azen worden in de hoeken geplaatst als startpunten van de funderingen; Heren
    worden voor het spel uit het kaartspel verwijderd." 48 cards in play, foundations Ace to Queen."""
    s = TommyState("puss-in-the-corner", deal_order(5))
    assert tops(s) == ["As", "Ah", "Ad", "Ac"] and s.stock_count == 44
    assert s.result() == TommyResult(False, 4, 48)
    with pytest.raises(CardError, match="not in play"):
        s.turn("Kh")
    order = [c for c in sorted(full_deck(), key=lambda c: (c.rank, c.suit)) if 1 < c.rank < 13]
    s = TommyState("puss-in-the-corner", order)
    while not s.is_terminal():
        s.turn_next()
        s.apply(s.legal_moves()[0])
    assert s.is_won() and s.foundation_cards() == 48 and tops(s) == ["Qs", "Qh", "Qd", "Qc"]


def test_one_redeal_gathers_the_piles_in_order():
    """002: "Sir Tommy met hertrek: Sta één keer het opnieuw samenvoegen van de aflegstapels tot een stok toe
    aan het einde". Merged, not shuffled: W0 bottom to top, then W1, W2, W3."""
    s = TommyState.from_layout("one-redeal", "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks | "
                               "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd | "
                               "Ac 2c 3c 4c 5c 6c 7c 8c", "Kc 10c | Qc | Jc 9c | -")
    assert not s.is_terminal() and moves(s) == ["W2>F3", "R"]
    s.apply("R")
    assert s.stock_cards() == sorted(parse_cards("Kc 10c Qc Jc 9c"))
    assert s.chance_outcomes() == [Card.parse("Kc")] and s.unseen() == []
    with pytest.raises(CardError, match="gathered stock turns Kc next"):
        s.turn("9c")  # the 9c that could have gone up now waits at the bottom
    assert [str(s.turn_next()) for _ in range(1)] == ["Kc"]
    assert s.to_arrays()["stock_order"][:4].tolist() == [c.index for c in parse_cards("10c Qc Jc 9c")]
    s.apply("S>W0")
    for c in parse_cards("10c Qc Jc 9c"):
        s.turn(c)
        s.apply("S>F3" if c.rank == 9 else "S>W1")
    assert s.is_terminal() and not s.is_won() and "R" not in moves(s) and s.legal_moves() == []


# -- winning and losing ----------------------------------------------------------------------------------------

def test_a_won_game():
    """001: "You win when all 52 cards lie on the four foundations." """
    order = sorted(full_deck(), key=lambda c: (c.rank, c.suit))
    s = TommyState("standard", order)
    while not s.is_terminal():
        s.turn_next()
        s.apply(s.legal_moves()[0])
    assert s.is_won() and s.foundation_cards() == 52 and s.result() == TommyResult(True, 52, 52)
    assert s.legal_moves() == [] and not s.needs_card()


def test_a_lost_game():
    """001: "If cards are left on the waste piles and none of them fits, the game is lost." """
    order = sorted(full_deck(), key=lambda c: (c.rank == 1, c.rank, c.suit))  # 2..K, the Aces last
    s = TommyState("standard", order)
    while s.needs_card():
        card = s.turn_next()
        s.apply("S>F0" if card.rank == 1 and not s.foundations[0] else s.legal_moves()[0])
    assert s.is_terminal() and not s.is_won()
    assert s.foundation_cards() == 4 and s.result() == TommyResult(False, 4, 52)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        s.apply("W0>F0")


def test_two_players_on_one_shuffle():
    """002: "de eerste die de gift wint (of de speler met de meeste kaarten op de funderingen wanneer beiden
    vastlopen) wint de ronde" """
    win, lose30, lose12 = TommyResult(True, 52), TommyResult(False, 30), TommyResult(False, 12)
    assert compare_results(win, lose30) == 1 and compare_results(lose30, win) == -1
    assert compare_results(lose30, lose12) == 1 and compare_results(lose12, lose30) == -1
    assert compare_results(lose12, TommyResult(False, 12)) == 0 and compare_results(win, win) == 0
    assert compare_results(TommyState(), TommyState("aces-out-first")) == -1


# -- saves, arrays, clones ------------------------------------------------------------------------------------

def played(rules: str, seed: int, steps: int) -> TommyState:
    rng = np.random.default_rng(seed)
    s = TommyState(rules, deal_order(seed), rng=np.random.default_rng(seed + 1))
    for _ in range(steps):
        if s.is_terminal():
            break
        ms = s.legal_moves()
        if s.needs_card() and (not ms or rng.random() < 0.5):
            s.turn_next()
        else:
            s.apply(ms[int(rng.integers(len(ms)))])
    return s


@pytest.mark.parametrize("rules", ["standard", "four-at-a-time", "in-suit", "calculation", "one-redeal", "puss"])
def test_a_save_round_trips_through_json(rules):
    s = played(rules, 3, 400)
    data = json.loads(json.dumps(s.to_dict()))
    t = TommyState.from_dict(data)
    assert t.to_dict() == s.to_dict() and t.history == s.history and t.rules == s.rules
    assert t.legal_moves() == s.legal_moves() and t.unseen() == s.unseen()


def test_a_game_joined_mid_way_saves_its_start():
    s = TommyState.from_layout("standard", "As 2s | - | - | -", "Kd 9c | - | - | -")
    s.turn("3h")
    s.apply("S>F0")
    t = TommyState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert t.to_dict() == s.to_dict()


@pytest.mark.parametrize("corrupt, message", [
    (lambda d: "nonsense", "not a Sir Tommy save"),
    (lambda d: {**d, "format": "other"}, "not a Sir Tommy save"),
    (lambda d: {**d, "rules": {**d["rules"], "turn_count": 3}}, "turn_count"),
    (lambda d: {**d, "history": d["history"] + ["S>W9"]}, "history step"),
    (lambda d: {**d, "history": d["history"][:3] + ["Zq"] + d["history"][4:]}, "history step 3"),
    (lambda d: {**d, "history": [d["history"][0]] * 2}, "history step 1"),
    (lambda d: {**d, "history": 5}, "must be lists"),
    (lambda d: {**d, "layout": {**d["layout"], "stock_count": 3}}, "layout does not match"),
    (lambda d: {**d, "order": ["As"]}, "permutation"),
    (lambda d: {**d, "start": {"foundations": []}}, "start"),
])
def test_a_corrupt_save_is_refused_clearly(corrupt, message):
    data = played("standard", 4, 30).to_dict()
    with pytest.raises(ValueError, match="corrupt Sir Tommy save") as err:
        TommyState.from_dict(corrupt(data))
    assert message in str(err.value)


def test_to_arrays_layout():
    s = TommyState.from_layout("standard", "As 2s | Ah | - | -", "Kd 9c | - | 4h | -")
    s.turn("5c")
    a = s.to_arrays()
    assert a["found"].shape == (4, 13) and a["found"].dtype == np.int8
    assert a["found"][0, :3].tolist() == [0, 1, -1] and a["found_len"].tolist() == [2, 1, 0, 0]
    assert a["found_top"].tolist() == [2, 1, 0, 0]
    assert a["waste"].shape == (4, 52) and a["waste"][0, :2].tolist() == [Card.parse("Kd").index, Card.parse("9c").index]
    assert a["waste_len"].tolist() == [2, 0, 1, 0]
    assert a["hand"].tolist() == [Card.parse("5c").index, -1, -1, -1] and a["hand_len"].tolist() == [1]
    assert a["stock_mask"].sum() == 52 - 7 and not a["stock_mask"][Card.parse("5c").index]
    assert (a["unseen"] == a["stock_mask"]).all() and (a["stock_order"] == -1).all()
    assert a["scalars"].tolist() == [45, 0, 0, 0]
    assert a["params"].tolist() == TommyRules().to_params().tolist()


def test_a_clone_is_independent():
    s = played("standard", 9, 20)
    c = s.clone()
    before = s.to_dict()
    while not c.is_terminal():
        if c.needs_card():
            c.turn_next()
        else:
            c.apply(c.legal_moves()[-1])
    assert s.to_dict() == before and c.to_dict() != before
    c.undo()
    assert s.to_dict() == before


# -- joining a game, chance without an order ---------------------------------------------------------------------

@pytest.mark.parametrize("rules, foundations, waste, message", [
    ("standard", "2s | - | - | -", None, "takes an Ace"),
    ("standard", "As 3s | - | - | -", None, "needs a 2"),
    ("standard", "As | - | - | -", "As | - | - | -", "appears twice"),
    ("standard", "As | - | -", None, "4 piles are needed"),
    ("numerica", "- | As | - | -", None, "start foundation 0 first"),
    ("in-suit", "As 2h | - | - | -", None, "in suit it takes only 2s"),
    ("aces-out-first", "As | Ah | - | -", None, "every foundation starts with its base card"),
    ("puss-in-the-corner", "As | Ah | Ad | Ac", "Kh | - | - | -", "not in play"),
    ("calculation", "As | 3s | 2s | 4s", None, "must be a 2"),
])
def test_a_layout_that_the_rules_cannot_produce_is_refused(rules, foundations, waste, message):
    with pytest.raises(ValueError, match=message):
        TommyState.from_layout(rules, foundations, waste)


def test_without_an_order_the_next_card_is_whatever_the_player_turns():
    s = TommyState("in-suit")
    with pytest.raises(CardError, match="order is unknown"):
        s.turn_next()
    s.set_stock_order(sorted(full_deck(), reverse=True))
    assert s.turn_next() == Card.parse("Kc")
    with pytest.raises(ValueError, match="permutation"):
        s.set_stock_order(full_deck())


def test_a_shuffled_redeal_draws_its_order_from_the_rng_when_simulating():
    def after_redeal(seed: int) -> list[Card]:
        s = TommyState.from_layout("in-suit", None, None, rng=np.random.default_rng(seed))
        for _ in range(52):
            s.turn_next()
            s.apply("S>W0")
        s.apply("R")
        turned = []
        for _ in range(4):
            turned.append(s.turn_next())
            s.apply("S>W1")
        return turned

    assert after_redeal(1) == after_redeal(1)
    assert after_redeal(1) != after_redeal(2)


def test_turning_errors_name_the_card():
    s = TommyState("four-at-a-time")
    for c in ("2c", "3c", "4c", "5c"):
        s.turn(c)
    with pytest.raises(CardError, match="cannot turn 6c: place the turned cards first"):
        s.turn("6c")
    done = TommyState.from_layout("standard", None, [[str(c) for c in full_deck()], [], [], []])
    with pytest.raises(CardError, match="the stock is empty"):
        done.turn("As")


def test_a_seeded_in_suit_deal_plays_on_after_its_redeals_and_replays_identically():
    def play(seed: int) -> list[str]:
        s = TommyState("in-suit", deal_order(seed))
        while not s.is_terminal():
            if s.needs_card():
                s.turn_next()
            else:
                s.apply(s.legal_moves()[-1])  # the last move: a waste pile, or R when the stock is out
        assert s.redeals_left == 0
        return [str(x) for x in s.history]

    assert play(3) == play(3)
    assert play(3).count("R") == 2
