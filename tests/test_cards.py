"""Cards: the two-character notation, lenient reading, clear errors, interning, immutability, order."""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

from upriver import DECK, Card, NotationError, Rank, Suit


def test_deck_has_52_distinct_cards_no_jokers() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert {(c.rank, c.suit) for c in DECK} == {(r, s) for r in Rank for s in Suit}


@pytest.mark.parametrize("c", DECK, ids=str)
def test_notation_round_trips_for_every_card(c: Card) -> None:
    text = str(c)
    assert len(text) == 2
    assert text[0] in "23456789TJQKA"
    assert text[1] in "CDHS"
    assert Card.parse(text) is c
    assert Card.parse(text.lower()) is c
    assert Card.parse(c.symbol) is c
    assert eval(repr(c), {"Card": Card}) is c
    assert Card.of(c.rank, c.suit) is c
    assert Card.from_index(c.index) is c


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TH", "TH"),
        ("th", "TH"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("10♥", "TH"),
        ("T♥", "TH"),
        (" as ", "AS"),
        ("2c", "2C"),
        ("q♦", "QD"),
        ("k♠", "KS"),
        ("j♣", "JC"),
    ],
)
def test_lenient_reading_accepts_ten_lower_case_and_symbols(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "X", "1H", "11H", "ZH", "TX", "AHH", "10", "♥", "joker"])
def test_unreadable_card_raises_notation_error_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "TH" in message or "2 3 4 5 6 7 8 9 T J Q K A" in message or "C, D, H, S" in message


def test_bad_rank_message_lists_the_ranks() -> None:
    with pytest.raises(NotationError, match=r"unknown rank .*2 3 4 5 6 7 8 9 T J Q K A \(or 10\)"):
        Card.parse("1H")


def test_bad_suit_message_lists_the_suits() -> None:
    with pytest.raises(NotationError, match=r"unknown suit .*C, D, H, S"):
        Card.parse("AX")


def test_non_text_card_raises_notation_error() -> None:
    with pytest.raises(NotationError, match="must be written as text"):
        Card.parse(10)  # type: ignore[arg-type]


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse("ZZ")


def test_cards_are_interned_one_object_per_card() -> None:
    assert Card.parse("10h") is Card.parse("TH") is Card.of(Rank.TEN, Suit.HEARTS)
    assert copy.copy(Card.parse("AS")) is Card.parse("AS")
    assert copy.deepcopy(Card.parse("AS")) is Card.parse("AS")
    assert pickle.loads(pickle.dumps(Card.parse("7D"))) is Card.parse("7D")


def test_cards_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError, match="interned"):
        Card(Rank.ACE, Suit.SPADES)


def test_cards_are_immutable() -> None:
    c = Card.parse("AS")
    with pytest.raises(AttributeError, match="immutable"):
        c.rank = Rank.TWO
    with pytest.raises(AttributeError):
        c.suit = Suit.HEARTS
    assert c.rank is Rank.ACE
    assert c.suit is Suit.SPADES


def test_cards_hash_and_compare_as_values() -> None:
    assert len({Card.parse("TH"), Card.parse("10h"), Card.parse("10♥")}) == 1
    assert Card.parse("TH") == Card.parse("th")
    assert Card.parse("TH") != Card.parse("TD")


def test_cards_sort_by_suit_clubs_diamonds_hearts_spades_then_rank() -> None:
    mixed = [Card.parse(t) for t in ("AS", "2H", "KC", "TD", "2C", "JH", "3S")]
    assert [str(c) for c in sorted(mixed)] == ["2C", "KC", "TD", "2H", "JH", "3S", "AS"]
    assert sorted(DECK) == list(DECK)
    assert [str(c) for c in DECK[:2]] == ["2C", "3C"]
    assert str(DECK[-1]) == "AS"


def test_rank_order_is_two_low_ace_high() -> None:
    ranks = sorted(Rank)
    assert ranks[0] is Rank.TWO
    assert ranks[-1] is Rank.ACE
    assert ranks[-2] is Rank.KING
    assert all(a < b for a, b in itertools.pairwise(ranks))
    assert "".join(r.letter for r in sorted(Rank)) == "23456789TJQKA"


def test_suit_symbols_and_colours() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Card.parse("QD").symbol == "Q♦"


def test_suit_and_rank_parse_leniently() -> None:
    assert Suit.parse("h") is Suit.HEARTS
    assert Suit.parse("♠") is Suit.SPADES
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("a") is Rank.ACE
    with pytest.raises(NotationError, match="unknown suit"):
        Suit.parse("X")
    with pytest.raises(NotationError, match="unknown rank"):
        Rank.parse("1")
