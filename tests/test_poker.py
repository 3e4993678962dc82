"""Poker Patience rules engine (rules/004_*.txt): rules and variants, cells, turning and placing, undo, saves."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.cards import Card, CardError, parse_cards
from assistant.deals import deal_order
from assistant.games.poker import (
    GridScore,
    IllegalMoveError,
    Placement,
    PokerRules,
    PokerState,
    caller_cards,
    format_grid,
    parse_grid,
    rank_players,
    score_grid,
)
from assistant.games.poker_hands import HandCategory, Scoring, classify, hand_points

REFERENCE = "AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D"


def play(state: PokerState, cards, cells) -> PokerState:
    for card, cell in zip(cards, cells):
        state.turn(card)
        state.place(cell)
    return state


# ------------------------------------------------------------------------------------------------ rules


def test_win_thresholds():
    # 004 "Gewonnen?": "gewonnen, wenn du mit amerikanischer Wertung 200 Punkte oder mit englischer Wertung 70 Punkte
    # erreichst"; "Poker Shuffle: [...] Gewonnen ist ab 310 Punkten (amerikanisch) oder 120 (englisch)."
    assert PokerRules().win_threshold == 200
    assert PokerRules("english").win_threshold == 70
    assert PokerRules.preset("american-shuffle").win_threshold == 310
    assert PokerRules.preset("english-shuffle").win_threshold == 120
    assert PokerRules.preset("english-adjacent").win_threshold == 70


def test_presets_by_name():
    # 004 "Varianten": "Alles freiwillig – vor dem Spiel festlegen."
    assert PokerRules.preset("american") == PokerRules()
    assert PokerRules.preset("English") == PokerRules(scoring="english")
    assert PokerRules.preset("adjacent") == PokerRules(adjacent_only=True)
    assert PokerRules.preset("shuffle") == PokerRules(shuffle=True)
    for name in PokerRules.preset_names():
        rules = PokerRules.preset(name)
        assert PokerRules.preset(rules.name) == rules
    with pytest.raises(ValueError) as err:
        PokerRules.preset("german")
    assert "'german'" in str(err.value) and "american-adjacent" in str(err.value) and "shuffle" in str(err.value)


def test_rules_are_frozen_and_checked():
    rules = PokerRules("english")
    assert rules.scoring == "english" and rules.scoring is Scoring.ENGLISH
    with pytest.raises(Exception):
        rules.scoring = "american"  # type: ignore[misc]
    with pytest.raises(ValueError, match="american, english"):
        PokerRules("swiss")
    with pytest.raises(ValueError, match="Poker Shuffle"):
        PokerRules(adjacent_only=True, shuffle=True)


# ------------------------------------------------------------------------------------------------ cells


def test_placement_notation_is_one_based_for_people():
    # 004: "ein Quadrat aus fünf Reihen und fünf Spalten": cells r1c1..r5c5 for people, (0, 0)..(4, 4) in code.
    p = Placement(0, 2)
    assert str(p) == "r1c3" and Placement.parse("r1c3") == p and Placement.parse(" R1 C3 ") == p
    assert all(Placement.parse(str(Placement(r, c))) == Placement(r, c) for r in range(5) for c in range(5))
    assert p.cell == 2 and Placement.from_cell(24) == Placement(4, 4)
    for bad in ["r0c1", "r6c1", "r1c6", "1,3", "a1", ""]:
        with pytest.raises(ValueError):
            Placement.parse(bad)


# ------------------------------------------------------------------------------------------------ play


def test_the_caller_names_each_card_and_a_card_seen_twice_is_an_error():
    # 004 "Spielablauf": "1. Deck die oberste Karte des Vorrats auf. 2. Leg sie offen auf einen beliebigen freien
    # Platz im Quadrat." The deck has each card once.
    s = PokerState()
    assert s.needs_card() and s.current is None
    s.turn("Qh")
    assert not s.needs_card() and s.current == Card.parse("Qh")
    with pytest.raises(IllegalMoveError, match="place Qh first"):
        s.turn("2c")
    s.place("r3c3")
    with pytest.raises(CardError, match="Qh"):
        s.turn("QH")
    assert s.needs_card() and len(s.unseen()) == 51 and Card.parse("Qh") not in s.unseen()


def test_any_free_cell_and_gaps_are_allowed():
    # "Du darfst überall anfangen und Lücken lassen, die du später füllst"
    s = play(PokerState(), ["Ah", "Kd"], ["r1c1", "r5c5"])
    s.turn("2c")
    assert len(s.legal_cells()) == 23
    s.place((2, 2))
    assert s.at("r3c3") == Card.parse("2c")


def test_a_placed_card_never_moves():
    # "3. Eine gelegte Karte darfst du nie mehr verschieben."
    s = play(PokerState(), ["Ah"], ["r2c2"])
    s.turn("Kd")
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="r2c2 is taken by Ah") as err:
        s.place("r2c2")
    assert "\n" not in str(err.value) and isinstance(err.value, ValueError)
    assert s.to_dict() == before
    assert Placement(1, 1) not in s.legal_cells()


def test_no_card_to_place():
    # "1. Deck die oberste Karte des Vorrats auf. 2. Leg sie [...]": no placing before a card is turned.
    with pytest.raises(IllegalMoveError, match="turn the next card first"):
        PokerState().place("r1c1")


def test_only_next_to_a_card():
    # 004 "Nur neben eine Karte: In den ältesten Regeln muss jede Karte nach der ersten neben eine schon liegende
    # Karte – darüber, darunter, daneben oder schräg."
    s = PokerState(PokerRules.preset("adjacent"))
    s.turn("Ah")
    assert len(s.legal_cells()) == 25  # the first card goes anywhere
    s.place("r1c1")
    s.turn("Kd")
    assert {str(p) for p in s.legal_cells()} == {"r1c2", "r2c1", "r2c2"}  # beside, below, diagonal
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match="r1c3 is not next to a placed card"):
        s.place("r1c3")
    assert s.to_dict() == before
    s.place("r2c2")  # diagonal
    s.turn("5s")
    assert {str(p) for p in s.legal_cells()} == {"r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2", "r3c3"}


def test_the_game_ends_when_all_25_cells_are_full():
    # "4. So geht es weiter, bis alle 25 Plätze belegt sind."
    s = play(PokerState(), deal_order(1)[:25], [Placement.from_cell(i) for i in range(25)])
    assert s.is_terminal() and not s.needs_card() and s.legal_cells() == []
    with pytest.raises(IllegalMoveError, match="25"):
        s.turn(deal_order(1)[30])


def test_undo_takes_back_the_last_action():
    s = play(PokerState(), ["Ah", "Kd"], ["r1c1", "r1c2"])
    s.turn("2c")
    assert s.undo() == Card.parse("2c")  # the turn: 2c is unseen again
    assert s.needs_card() and Card.parse("2c") in s.unseen()
    assert str(s.undo()) == "Kd on r1c2"  # the placement of Kd: it waits again
    assert s.current == Card.parse("Kd") and s.at("r1c2") is None and len(s.history) == 1
    s.place("r5c5")
    assert s.at("r5c5") == Card.parse("Kd")
    s.undo(), s.undo(), s.undo(), s.undo()
    assert s.to_dict() == PokerState().to_dict()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        s.undo()


def test_clone_is_independent():
    # "Eine gelegte Karte bleibt, wo sie ist": what an advisor tries on a copy never moves the player's cards.
    s = play(PokerState(), ["Ah"], ["r1c1"])
    c = s.clone()
    c.turn("Kd"), c.place("r2c2")
    assert s.at("r2c2") is None and len(s.history) == 1 and len(c.history) == 2


def test_to_arrays_for_the_advisor():
    # "Das Können steckt darin, jede Karte gut zu platzieren, ohne zu wissen, was noch kommt": the advisor gets the
    # square, the card to place and the cards still unseen.
    # grid as int8[25]: Card.index or -1, row-major.
    s = play(PokerState(), ["Ah", "Kc"], ["r1c1", "r5c5"])
    s.turn("2s")
    a = s.to_arrays()
    assert a.grid.dtype == np.int8 and a.grid.shape == (25,)
    assert a.grid[0] == Card.parse("Ah").index and a.grid[24] == 51 and (a.grid[1:24] == -1).all()
    assert a.current == 1 and a.pending.tolist() == [1]
    assert len(a.unseen) == 49 and not {13, 51, 1} & set(a.unseen.tolist())


# ------------------------------------------------------------------------------------------------ score


def test_reference_grid_scores_197_american_66_english():
    # rules/README.md: "A reference grid [...] scores 197 American, 66 English."
    cells = parse_grid(REFERENCE)
    s = PokerState.from_grid(cells)
    am, en = s.score(), s.score("english")
    assert isinstance(am, GridScore) and am.total == 197 and en.total == 66
    assert am.complete and not am.won and not en.won  # 197 < 200 and 66 < 70
    assert [l.category.label for l in am.rows] == ["full house", "full house", "four of a kind",
                                                    "three of a kind", "two pair"]
    assert [l.points for l in en.columns] == [5, 5, 5, 5, 1]
    assert PokerState.from_grid(cells, PokerRules("english")).score().total == 66


def test_worked_example_of_004_in_a_square():
    # "Deine oberste Reihe ist 7♠ 7♥ 7♦ K♣ K♠ – ein Full House: 25 Punkte (amerikanisch) oder 10 (englisch). In der
    # ersten Spalte liegen 7♠ 6♠ 5♠ 3♠ 2♠ – ein Flush: 20 bzw. 5. Die zweite Spalte, 7♥ 8♣ 9♦ 10♥ B♠, ist eine
    # Straße: 15 bzw. 12."
    cells = [None] * 25
    for c, card in enumerate(parse_cards("7♠ 7♥ 7♦ K♣ K♠")):
        cells[c] = card
    for r, card in enumerate(parse_cards("7♠ 6♠ 5♠ 3♠ 2♠")):
        cells[r * 5] = card
    for r, card in enumerate(parse_cards("7♥ 8♣ 9♦ 10♥ J♠")):
        cells[r * 5 + 1] = card
    s = PokerState.from_grid(cells)
    for scoring, expected in [("american", (25, 20, 15)), ("english", (10, 5, 12))]:
        sc = s.score(scoring)
        assert (sc.rows[0].category, sc.columns[0].category, sc.columns[1].category) == (
            HandCategory.FULL_HOUSE, HandCategory.FLUSH, HandCategory.STRAIGHT)
        assert (sc.rows[0].points, sc.columns[0].points, sc.columns[1].points) == expected
        # "Die übrigen sieben Hände zählst du genauso dazu" - they are not full yet, so they count 0 for now
        assert sc.total == sum(expected) and not sc.complete and not sc.won


def test_win_needs_the_threshold():
    # A square of four-of-a-kinds and more: well above 200 American.
    cells = parse_grid("As Ah Ad Ac 2s / Ks Kh Kd Kc 2h / Qs Qh Qd Qc 2d / Js Jh Jd Jc 2c / 10s 10h 10d 10c 3s")
    sc = score_grid(cells, "american")
    assert sc.total >= 200 and sc.won
    assert sc.columns[0].category is HandCategory.ROYAL_FLUSH  # As Ks Qs Js 10s


# ------------------------------------------------------------------------------------------------ grid text


def test_parse_grid_rows_by_slash_or_by_line():
    # "am Ende müssen es aber genau fünf Reihen mit je fünf Karten sein"
    cells = parse_grid(REFERENCE)
    assert len(cells) == 25 and cells[0] == Card.parse("Ah") and cells[24] == Card.parse("2d")
    assert parse_grid(REFERENCE.replace(" / ", "\n")) == cells
    assert parse_grid(REFERENCE.replace(" / ", " ")) == cells  # 25 cards, no separator: 5 rows of 5
    assert parse_grid(format_grid(cells)) == cells


@pytest.mark.parametrize(
    "text, message",
    [
        ("AH AD JS JC / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D", "row 1 has 4"),
        ("AH AD JS JC JH / 9H 7D 9S 9C 7H 2S / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C 2D", "row 2 has 6"),
        ("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C", "4 row"),
        ("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C / 6H 5D 6S 5C AH", "Ah appears twice"),
        ("AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD 1S TC 4C / 6H 5D 6S 5C 2D", "row 4, card 3: '1S'"),
    ],
)
def test_parse_grid_errors_name_the_problem(text, message):
    # "genau fünf Reihen mit je fünf Karten"; a 52-card deck "ohne Joker" has each card once.
    with pytest.raises(ValueError, match=message):
        parse_grid(text)


# ------------------------------------------------------------------------------------------------ saves


def test_save_round_trip_through_json():
    # 004 "Schreib deine Ergebnisse auf": a saved game comes back exactly, rules and variant included.
    s = play(PokerState(PokerRules.preset("english-adjacent")), ["Ah", "Kd", "5s"], ["r3c3", "r2c2", "r1c1"])
    s.turn("9c")
    data = json.loads(json.dumps(s.to_dict()))
    back = PokerState.from_dict(data)
    assert back.rules == s.rules and back.cells == s.cells and back.history == s.history
    assert back.current == Card.parse("9c") and back.to_dict() == s.to_dict()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="tommy"), "not a Poker Patience save"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.pop("dealt"), "'dealt' is missing"),
        (lambda d: d.update(rules={"scoring": "swiss"}), "rules"),
        (lambda d: d["dealt"].__setitem__(1, "Zz"), "'Zz'"),
        (lambda d: d["dealt"].__setitem__(1, "Ah"), "Ah was already turned"),
        (lambda d: d["placements"][1].__setitem__(1, "r3c3"), "r3c3 is taken by Ah"),
        (lambda d: d["placements"][1].__setitem__(1, "r5c5"), "not next to a placed card"),
        (lambda d: d["placements"].append(["2c", "r4c4"]), "placed"),
        (lambda d: d["placements"].__setitem__(0, "Ah r3c3"), "placement 1"),
    ],
)
def test_corrupt_saves_are_clear_value_errors(mutate, message):
    # A save is replayed under the rules ("Eine gelegte Karte darfst du nie mehr verschieben", "Nur neben eine
    # Karte", each card once), so a tampered save fails with the rule it breaks.
    s = play(PokerState(PokerRules.preset("adjacent")), ["Ah", "Kd", "5s"], ["r3c3", "r2c2", "r1c1"])
    data = json.loads(json.dumps(s.to_dict()))
    mutate(data)
    with pytest.raises(ValueError, match=message):
        PokerState.from_dict(data)
    with pytest.raises(ValueError, match="expected an object"):
        PokerState.from_dict([1, 2])


# ------------------------------------------------------------------------------------------------ Poker Shuffle


def test_poker_shuffle_lays_out_all_25_then_arranges_freely():
    # 004 "Poker Shuffle: Alle 25 Karten liegen zuerst offen aus, dann ordnest du sie beliebig an."
    cards = parse_grid(REFERENCE)
    s = PokerState(PokerRules.preset("shuffle"))
    s.turn(cards[0])
    with pytest.raises(IllegalMoveError, match="24 still to turn"):
        s.place("r1c1")
    for c in cards[1:]:
        s.turn(c)
    assert not s.needs_card() and len(s.pending) == 25
    order = list(range(25))[::-1]  # any order, any card
    for i in order:
        s.place(Placement.from_cell(i), cards[i])
    assert s.is_terminal() and s.cells == tuple(cards)
    assert s.score().total == 197 and s.score().threshold == 310
    s.undo()  # take a card back up: rearranging is free
    assert s.at("r1c1") is None and s.pending == (cards[0],)
    back = PokerState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert back.cells == s.cells and back.pending == s.pending


# ------------------------------------------------------------------------------------------------ several players


def test_several_players_one_caller():
    # 004 "Mehrere Spieler: Jeder hat ein eigenes Blatt. Einer mischt und sagt jede aufgedeckte Karte an; die
    # anderen suchen dieselbe Karte aus ihrem Blatt und legen sie in ihr eigenes Quadrat. Die höchste Summe gewinnt."
    called = caller_cards(seed=1909)
    assert called == deal_order(1909)[:25]
    players = {"Anna": PokerState(), "Ben": PokerState(), "Cleo": PokerState()}
    layouts = {"Anna": range(25), "Ben": [n * 2 % 25 for n in range(25)], "Cleo": range(25)}
    for n, card in enumerate(called):
        for name, state in players.items():
            state.turn(card)
            state.place(Placement.from_cell(list(layouts[name])[n]))
    scores = {name: st_.score().total for name, st_ in players.items()}
    assert scores["Anna"] == scores["Cleo"]  # same cards, same square
    ranking = rank_players(scores)
    assert ranking[0][2] == max(scores.values())
    place = {name: p for p, name, _ in ranking}
    assert place["Anna"] == place["Cleo"]  # a tie shares its place
    assert [n for _, n, _ in ranking] == sorted(scores, key=lambda n: (-scores[n], n))


def test_rank_players_ties_share_a_place():
    # 004 "Mehrere Spieler": "Die höchste Summe gewinnt." Equal sums share a place.
    assert rank_players({"a": 120, "b": 150, "c": 120, "d": 90}) == [
        (1, "b", 150), (2, "a", 120), (2, "c", 120), (4, "d", 90)]
    assert rank_players({}) == []
    assert rank_players({"x": 5, "y": 5}) == [(1, "x", 5), (1, "y", 5)]


# ------------------------------------------------------------------------------------------------ properties


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), min_size=25, max_size=25),
       adjacent=st.booleans(), english=st.booleans())
def test_random_legal_games(seed, choices, adjacent, english):
    # Any legal game ends with 25 distinct cards in the square, and the score is the sum of its ten lines
    # ("wertest du alle fünf Reihen und fünf Spalten – zusammen zehn Hände – und zählst die Punkte zusammen").
    rules = PokerRules("english" if english else "american", adjacent_only=adjacent)
    s = PokerState(rules)
    for card, choice in zip(deal_order(seed), choices):
        assert s.needs_card()
        s.turn(card)
        legal = s.legal_cells()
        cell = legal[choice % len(legal)]
        if adjacent and s.placed_count:
            assert any(s.at(n) is not None for n in cell.neighbours())
        s.place(cell)
    assert s.is_terminal()
    cells = s.cells
    assert None not in cells and len(set(cells)) == 25
    sc = s.score()
    lines = [cells[r * 5:(r + 1) * 5] for r in range(5)] + [cells[c::5] for c in range(5)]
    assert sc.total == sum(hand_points(line, rules.scoring) for line in lines)
    assert [l.category for l in sc.lines] == [classify(line) for line in lines]
    assert sc.won == (sc.total >= rules.win_threshold)
    back = PokerState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert back.cells == cells and back.score().total == sc.total
    for _ in range(25):
        s.undo()
        s.undo()
    assert s.to_dict() == PokerState(rules).to_dict() and len(s.unseen()) == 52


def test_the_engine_is_split_as_sir_tommys_and_every_old_name_still_imports():
    """Issue 11: poker.py held rules, placements, scores, grid text, state, saves and players in 672 lines."""
    import assistant.games.poker as facade
    from assistant.games import poker_grid, poker_io, poker_players, poker_rules

    homes = {"PokerRules": poker_rules, "Placement": poker_rules, "LineScore": poker_grid, "GridScore": poker_grid,
             "score_grid": poker_grid, "parse_grid": poker_grid, "format_grid": poker_grid,
             "rank_players": poker_players, "caller_cards": poker_players, "SAVE_FORMAT": poker_io}
    for name, module in homes.items():
        assert getattr(facade, name) is getattr(module, name), name
    for name in ("IllegalMoveError", "PokerArrays", "Step", "PokerState", "SIZE", "CELLS"):
        assert hasattr(facade, name)
    assert facade.PokerState.from_dict(facade.PokerState(facade.PokerRules.preset("english")).to_dict()).rules.scoring == "english"
