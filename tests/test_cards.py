"""Cards are written A 2..10 J Q K (T for ten) with suit s h d c or ♠ ♥ ♦ ♣, any case; printed as Ah 10s Qc."""

import pytest

from assistant.cards import Card, CardError, Rank, Suit, check_distinct, full_deck, parse_cards


@pytest.mark.parametrize(
    "text, canonical",
    [("Ah", "Ah"), ("10h", "10h"), ("Th", "10h"), ("th", "10h"), ("QS", "Qs"), ("A♠", "As"), ("k♥", "Kh"),
     ("9♦", "9d"), ("2♣", "2c"), (" jd ", "Jd")],
)
def test_parse_accepts_every_spelling_and_prints_canonically(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "1h", "11s", "Ax", "Ahh", "10", "h", "0c", "A h s", "Joker"])
def test_anything_else_is_an_error_naming_the_text(text):
    with pytest.raises(CardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)


def test_card_errors_are_value_errors():
    assert issubclass(CardError, ValueError)


def test_index_is_dense_and_round_trips():
    deck = full_deck()
    assert [c.index for c in deck] == list(range(52))
    assert all(Card.from_index(c.index) is c for c in deck)
    assert Card.parse("As").index == 0 and Card.parse("Kc").index == 51


def test_a_deck_has_each_card_once():
    deck = full_deck()
    assert len(set(deck)) == 52
    assert {c.rank for c in deck} == set(Rank) and {c.suit for c in deck} == set(Suit)
    assert all(Card.parse(str(c)) == c for c in deck)


def test_a_card_seen_twice_is_named():
    with pytest.raises(CardError, match="Qh appears twice"):
        check_distinct(parse_cards("Ah Qh 3c qH"))


def test_parse_cards_splits_on_spaces_and_commas():
    assert [str(c) for c in parse_cards("Ah, 10s Qc")] == ["Ah", "10s", "Qc"]
