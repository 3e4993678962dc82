"""Sir Tommy rules values: presets, move notation, foundation building (rules 000-003)."""

from __future__ import annotations

import pytest

from assistant.games.tommy_rules import (
    PRESETS,
    IllegalMoveError,
    Move,
    MoveParseError,
    TommyRules,
)

PRESET_NAMES = [
    "standard", "aces-out-first", "four-at-a-time", "old-strict", "in-suit", "strategy", "numerica",
    "calculation", "puss-in-the-corner", "one-redeal",
]


def test_the_presets_are_exactly_the_documented_names():
    assert list(PRESETS) == PRESET_NAMES
    for name in PRESET_NAMES:
        assert TommyRules.preset(name) is PRESETS[name]
        assert PRESETS[name].name == name


@pytest.mark.parametrize(
    "name, fields",
    [
        ("standard", {}),
        # "Aces out first: take out the four Aces as foundations before you start."
        ("aces-out-first", {"aces_out_first": True}),
        # "Four at a time: turn four cards at once and place all four before you move anything ..."
        ("four-at-a-time", {"turn_count": 4}),
        # "Old strict rule: square up the waste piles so that you can only see the top card"
        ("old-strict", {"hidden_piles": True}),
        # "In suit ... Cheney (1869) allowed two redeals ...: pick up the waste piles, shuffle them"
        ("in-suit", {"in_suit": True, "redeals": 2, "shuffle_on_redeal": True}),
        # "Strategy: Staat verplaatsingen van aflegstapel naar aflegstapel toe"
        ("strategy", {"waste_to_waste": True}),
        # "Numerica: Funderingen moeten strikt van links naar rechts worden opgebouwd"
        ("numerica", {"foundations_in_order": True}),
        ("calculation", {"calculation": True}),
        # "Puss in the Corner: Azen worden in de hoeken geplaatst ...; Heren worden ... verwijderd"
        ("puss-in-the-corner", {"aces_out_first": True, "kings_removed": True}),
        # "Sir Tommy met hertrek: Sta één keer het opnieuw samenvoegen van de aflegstapels tot een stok toe"
        ("one-redeal", {"redeals": 1, "shuffle_on_redeal": False}),
    ],
)
def test_each_preset_differs_from_the_base_game_in_its_variant_fields_only(name, fields):
    assert TommyRules.preset(name) == TommyRules(name, **fields)


@pytest.mark.parametrize("alias, name", [
    ("Asse vorab", "aces-out-first"), ("vier_auf_einmal", "four-at-a-time"), ("Nach Farbe", "in-suit"),
    ("ALTE-STRENGE-REGEL", "old-strict"), ("met hertrek", "one-redeal"), ("Puss", "puss-in-the-corner"),
    ("Sir Tommy", "standard"), (" Numerica ", "numerica"),
])
def test_presets_are_found_by_the_names_in_the_rules_texts(alias, name):
    assert TommyRules.preset(alias) is PRESETS[name]


def test_an_unknown_preset_lists_the_names():
    with pytest.raises(ValueError) as err:
        TommyRules.preset("klondike")
    assert "'klondike'" in str(err.value)
    for name in PRESET_NAMES:
        assert name in str(err.value)


@pytest.mark.parametrize("fields", [
    {"turn_count": 3}, {"redeals": -1}, {"calculation": True, "in_suit": True},
    {"calculation": True, "aces_out_first": True}, {"calculation": True, "kings_removed": True},
])
def test_impossible_rules_are_refused(fields):
    with pytest.raises(ValueError):
        TommyRules("x", **fields)


def test_rules_round_trip_through_a_dict_and_reject_bad_fields():
    for rules in PRESETS.values():
        assert TommyRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match="unknown rules field"):
        TommyRules.from_dict({"name": "x", "jokers": True})
    with pytest.raises(ValueError, match="turn_count"):
        TommyRules.from_dict({"name": "x", "turn_count": "4"})
    with pytest.raises(ValueError, match="in_suit"):
        TommyRules.from_dict({"name": "x", "in_suit": 1})


def test_to_params_packs_the_fields_for_kernels():
    p = PRESETS["puss-in-the-corner"].to_params()
    assert p.dtype.name == "int32" and p.shape == (10,)
    assert list(p) == [1, 1, 0, 0, 1, 0, 0, 0, 12, 0]


# -- Calculation: "funderingen worden opgebouwd met verschillende intervallen (Aas met stappen van 1, 2 met
# stappen van 2, 3 met stappen van 3, 4 met stappen van 4) met wrap-around bij de Heer"
CALCULATION_SEQUENCES = [
    "A 2 3 4 5 6 7 8 9 10 J Q K",
    "2 4 6 8 10 Q A 3 5 7 9 J K",
    "3 6 9 Q 2 5 8 J A 4 7 10 K",
    "4 8 Q 3 7 J 2 6 10 A 5 9 K",
]
LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("k", range(4))
def test_calculation_foundations_build_by_their_number_and_wrap_at_the_king(k):
    rules = PRESETS["calculation"]
    ranks = [LABELS.index(t) + 1 for t in CALCULATION_SEQUENCES[k].split()]
    assert rules.next_rank(k, None) == ranks[0]
    for top, nxt in zip(ranks, ranks[1:]):
        assert rules.next_rank(k, top) == nxt
    assert rules.next_rank(k, 13) is None  # 13 cards: complete


def test_plain_foundations_run_ace_to_king_or_to_queen_without_kings():
    assert PRESETS["standard"].next_rank(2, None) == 1
    assert PRESETS["standard"].next_rank(2, 12) == 13
    assert PRESETS["standard"].next_rank(2, 13) is None
    puss = PRESETS["puss-in-the-corner"]
    assert puss.next_rank(0, 11) == 12 and puss.next_rank(0, 12) is None
    assert puss.cards_in_play == 48 and len(puss.deck()) == 48


# -- Move notation: "S>W2 (turned card to waste pile 2), W2>F0 (waste top to foundation 0), S>F1; piles 0-3"
@pytest.mark.parametrize("text, canonical, fields", [
    ("S>W2", "S>W2", ("S", None, "W", 2)),
    ("S>F1", "S>F1", ("S", None, "F", 1)),
    ("W2>F0", "W2>F0", ("W", 2, "F", 0)),
    ("W1>W3", "W1>W3", ("W", 1, "W", 3)),
    ("S0>W1", "S0>W1", ("S", 0, "W", 1)),
    ("s3 > f0", "S3>F0", ("S", 3, "F", 0)),
    (" r ", "R", ("R", None, None, None)),
])
def test_moves_parse_and_print_in_one_notation(text, canonical, fields):
    move = Move.parse(text)
    assert (move.source, move.source_index, move.target, move.target_index) == fields
    assert str(move) == canonical
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


@pytest.mark.parametrize("text", ["", "S>W4", "S>S1", "F0>W1", "W>F0", "W4>F0", "S5>W0", "RR", "S>W", "x", "W1F0"])
def test_bad_move_text_is_refused_quoting_it(text):
    with pytest.raises(MoveParseError) as err:
        Move.parse(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, IllegalMoveError) and isinstance(err.value, ValueError)


def test_a_move_from_a_foundation_is_explained():
    with pytest.raises(MoveParseError, match="never move back from a foundation"):
        Move.parse("F0>W1")


def test_a_non_text_move_is_refused():
    with pytest.raises(MoveParseError):
        Move.parse(3)  # type: ignore[arg-type]
    with pytest.raises(MoveParseError):
        Move("W", None, "F", 0)
