"""Poker hands and points (rules/004 "Pokerhände", "Wertung"; rules/README.md points table).

004: "Eine Pokerhand besteht aus fünf Karten. [...] Das Ass zählt in einer Straße hoch (10-B-D-K-A) oder niedrig
(A-2-3-4-5), aber eine Straße geht nicht „um die Ecke“ (D-K-A-2-3 ist keine Straße)."
"""

import itertools

import numpy as np
import pytest

from assistant.cards import CardError, parse_cards
from assistant.games.poker_hands import (
    AMERICAN_POINTS,
    ENGLISH_POINTS,
    INCOMPLETE,
    HandCategory,
    Scoring,
    classify,
    classify_many,
    hand_points,
    points_many,
    score_grids,
)

H = HandCategory


def both(text):
    """Classify with the scalar and the array evaluator; they must agree."""
    cards = parse_cards(text)
    scalar = classify(cards)
    many = classify_many(np.array([[c.index for c in cards]], dtype=np.int8))[0]
    assert int(many) == scalar, text
    return scalar


# README: "| hand | American | English |" rows, royal flush 100/30 ... one pair 2/1
TABLE = [
    (H.ROYAL_FLUSH, "royal flush", 100, 30),
    (H.STRAIGHT_FLUSH, "straight flush", 75, 30),
    (H.FOUR_OF_A_KIND, "four of a kind", 50, 16),
    (H.FULL_HOUSE, "full house", 25, 10),
    (H.FLUSH, "flush", 20, 5),
    (H.STRAIGHT, "straight", 15, 12),
    (H.THREE_OF_A_KIND, "three of a kind", 10, 6),
    (H.TWO_PAIR, "two pair", 5, 3),
    (H.ONE_PAIR, "one pair", 2, 1),
    (H.NOTHING, "nothing", 0, 0),  # 004: "Eine Hand, die nichts davon ist, bringt keine Punkte."
]


@pytest.mark.parametrize("cat, label, american, english", TABLE)
def test_points_table_of_the_readme(cat, label, american, english):
    assert cat.label == label and str(cat) == label and HandCategory.from_label(label) is cat
    assert cat.points("american") == american == cat.points(Scoring.AMERICAN) == AMERICAN_POINTS[cat]
    assert cat.points("english") == english == cat.points(Scoring.ENGLISH) == ENGLISH_POINTS[cat]


@pytest.mark.parametrize(
    "hand, cat",
    [
        ("10h Jh Qh Kh Ah", H.ROYAL_FLUSH),
        ("9h 10h Jh Qh Kh", H.STRAIGHT_FLUSH),  # a straight flush below the ace is no royal flush
        ("Ac 2c 3c 4c 5c", H.STRAIGHT_FLUSH),  # the wheel in one suit: ace low, still no royal flush
        ("7s 7h 7d 7c 2s", H.FOUR_OF_A_KIND),
        ("7s 7h 7d Kc Ks", H.FULL_HOUSE),  # 004 example: "7♠ 7♥ 7♦ K♣ K♠ – ein Full House"
        ("7s 6s 5s 3s 2s", H.FLUSH),  # 004 example: "7♠ 6♠ 5♠ 3♠ 2♠ – ein Flush"
        ("7h 8c 9d 10h Js", H.STRAIGHT),  # 004 example: "7♥ 8♣ 9♦ 10♥ B♠, ist eine Straße"
        ("10c Jd Qh Ks As", H.STRAIGHT),  # "Das Ass zählt in einer Straße hoch (10-B-D-K-A)"
        ("Ac 2d 3h 4s 5s", H.STRAIGHT),  # "oder niedrig (A-2-3-4-5)"
        ("Qc Kd Ah 2s 3s", H.NOTHING),  # "D-K-A-2-3 ist keine Straße"
        ("Jc Qd Kh As 2s", H.NOTHING),  # nor J-Q-K-A-2
        ("Kc Ad 2h 3s 4s", H.NOTHING),  # nor K-A-2-3-4
        ("9c 9d 9h Ks 2s", H.THREE_OF_A_KIND),
        ("9c 9d Kh Ks 2s", H.TWO_PAIR),
        ("9c 9d Kh Qs 2s", H.ONE_PAIR),
        ("9c 8d Kh Qs 2s", H.NOTHING),
        ("2h 4h 6h 8h 10h", H.FLUSH),
    ],
)
def test_every_category(hand, cat):
    assert both(hand) is cat


def test_each_line_counts_only_its_best_combination():
    # 004: "Jede Reihe und Spalte zählt nur ihre beste Kombination – ein Full House zählt also nicht zusätzlich als
    # Drilling und Paar."
    assert hand_points(parse_cards("7s 7h 7d Kc Ks"), "american") == 25
    assert hand_points(parse_cards("7s 7h 7d Kc Ks"), "english") == 10


def test_worked_example_of_004():
    # "Deine oberste Reihe ist 7♠ 7♥ 7♦ K♣ K♠ – ein Full House: 25 Punkte (amerikanisch) oder 10 (englisch). In der
    # ersten Spalte liegen 7♠ 6♠ 5♠ 3♠ 2♠ – ein Flush: 20 bzw. 5. Die zweite Spalte, 7♥ 8♣ 9♦ 10♥ B♠, ist eine
    # Straße: 15 bzw. 12."
    for text, american, english in [("7♠ 7♥ 7♦ K♣ K♠", 25, 10), ("7♠ 6♠ 5♠ 3♠ 2♠", 20, 5),
                                     ("7♥ 8♣ 9♦ 10♥ J♠", 15, 12)]:
        cards = parse_cards(text)
        assert hand_points(cards, "american") == american
        assert hand_points(cards, Scoring.ENGLISH) == english


def test_english_values_a_straight_above_a_flush():
    # 004: "die englische [...] (eine Straße ist hier schwerer als ein Flush)"
    assert H.STRAIGHT.points("english") > H.FLUSH.points("english")
    assert H.STRAIGHT.points("american") < H.FLUSH.points("american")


def test_scoring_names():
    # 004: "Üblich sind zwei Wertungen [...] Legt vorher fest, welche gilt."
    assert Scoring.parse("American") is Scoring.AMERICAN and Scoring.AMERICAN == "american"
    with pytest.raises(ValueError, match="american, english"):
        Scoring.parse("german")


def test_a_hand_has_five_distinct_cards():
    # 004: "Eine Pokerhand besteht aus fünf Karten."
    with pytest.raises(ValueError, match="5 cards"):
        classify(parse_cards("Ah Kh Qh Jh"))
    with pytest.raises(CardError, match="Ah appears twice"):
        classify(parse_cards("Ah Ah Qh Jh 10h"))
    with pytest.raises(ValueError, match="hand 1"):
        classify_many(np.array([[0, 1, 2, 3, 4], [0, 0, 1, 2, 3]]))
    with pytest.raises(ValueError, match="shape"):
        classify_many(np.zeros((3, 4), dtype=np.int8))


def test_all_2598960_hands_have_the_textbook_counts():
    # Every five-card hand once: the classic frequencies (royal flushes 4, other straight flushes 36, ...).
    combos = _all_hands()
    counts = np.bincount(classify_many(combos, check=False), minlength=10)
    assert counts.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]


def _all_hands() -> np.ndarray:
    return np.array(list(itertools.combinations(range(52), 5)), dtype=np.int8)  # C(52, 5) = 2,598,960 hands


def test_incomplete_lines_score_nothing_yet():
    # 004: "Ist das Quadrat voll, wertest du alle fünf Reihen und fünf Spalten"; a line with an empty cell (-1)
    # has no hand yet.
    cats = classify_many(np.array([[0, 13, 26, -1, 1]]))
    assert cats.tolist() == [INCOMPLETE]
    assert points_many(cats, "american").tolist() == [0]


def test_reference_grid_of_the_readme_scores_197_and_66():
    # README: "A reference grid: rows AH AD JS JC JH / 9H 7D 9S 9C 7H / 8H 8D 8S 8C 4D / QH TD TS TC 4C /
    # 6H 5D 6S 5C 2D scores 197 American, 66 English."
    text = "AH AD JS JC JH 9H 7D 9S 9C 7H 8H 8D 8S 8C 4D QH TD TS TC 4C 6H 5D 6S 5C 2D"
    grid = np.array([[c.index for c in parse_cards(text)]], dtype=np.int8)
    cats, american, english = score_grids(grid)
    assert american.tolist() == [197] and english.tolist() == [66]
    assert [H(c).label for c in cats[0]] == [
        "full house", "full house", "four of a kind", "three of a kind", "two pair",
        "flush", "flush", "flush", "flush", "one pair",
    ]


# ------------------------------------------------------------------------------------------ cross-check with treys

_TREYS_NAMES = {
    "Royal Flush": H.ROYAL_FLUSH,
    "Straight Flush": H.STRAIGHT_FLUSH,
    "Four of a Kind": H.FOUR_OF_A_KIND,
    "Full House": H.FULL_HOUSE,
    "Flush": H.FLUSH,
    "Straight": H.STRAIGHT,
    "Three of a Kind": H.THREE_OF_A_KIND,
    "Two Pair": H.TWO_PAIR,
    "Pair": H.ONE_PAIR,
    "High Card": H.NOTHING,
}


def treys_category(indices) -> HandCategory:
    """The category according to the independent evaluator ``treys`` (rank 1 is the royal flush)."""
    ev, ints = _treys()
    rank = ev.evaluate([ints[i] for i in indices[:2]], [ints[i] for i in indices[2:]])
    if rank == 1:
        return H.ROYAL_FLUSH
    return _TREYS_NAMES[ev.class_to_string(ev.get_rank_class(rank))]


_TREYS_CACHE: list = []


def _treys():
    if not _TREYS_CACHE:
        from treys import Card as TCard, Evaluator

        ints = [TCard.new("A23456789TJQK"[i % 13] + "shdc"[i // 13]) for i in range(52)]
        _TREYS_CACHE.extend([Evaluator(), ints])
    return _TREYS_CACHE


def random_hands(n: int, seed: int) -> np.ndarray:
    """n random five-card hands (distinct cards within a hand), int8 card indices."""
    rng = np.random.Generator(np.random.PCG64(seed))
    return np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.int8)


def test_agrees_with_treys_on_100000_random_hands():
    # An independent evaluator must find the same hand in every one of 100,000 random hands (vectorised here).
    pytest.importorskip("treys")
    hands = random_hands(100_000, seed=4)
    mine = classify_many(hands)
    theirs = np.array([treys_category(h.tolist()) for h in hands], dtype=np.int8)
    assert np.array_equal(mine, theirs), hands[mine != theirs][:5]
    # and the sample reaches the rarer hands too
    assert {int(c) for c in np.unique(mine)} >= {0, 1, 2, 3, 4, 5, 6, 7}


def test_agrees_with_treys_on_every_straight_and_flush_shape():
    # "Das Ass zählt in einer Straße hoch [...] oder niedrig [...] nicht um die Ecke": all 10 straights, all
    # round-the-corner runs, in one suit and mixed suits.
    pytest.importorskip("treys")
    hands = []
    for low in range(13):  # 0 = ace
        ranks = [(low + k) % 13 for k in range(5)]
        hands.append([r for r in ranks])  # one suit (spades)
        hands.append([r + 13 * (k % 2) for k, r in enumerate(ranks)])  # two suits
    hands = np.array(hands, dtype=np.int8)
    mine = classify_many(hands)
    assert [int(c) for c in mine] == [int(treys_category(h.tolist())) for h in hands]
    assert [classify(h.tolist()) for h in hands] == [H(c) for c in mine]
