"""Suits, ranks and cards, with the two-character notation of the game record.

Every card is one of 52 interned :class:`Card` objects, so cards compare by
identity and hash cheaply. Each card also has an ``index`` (0–51, suit-major)
and a one-bit ``mask``; the engine keeps hands as integer bit sets of those
masks, which makes following suit and removing a card single integer operations.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("as"))
'AS'
>>> Card.parse("QD").symbol
'Q♦'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import ClassVar

from upriver.errors import NotationError

__all__ = [
    "DECK",
    "SUIT_CARDS",
    "SUIT_MASKS",
    "Card",
    "Rank",
    "Suit",
    "cards_in",
    "format_cards",
    "mask_of",
    "parse_cards",
]


class Suit(enum.Enum):
    """The four suits; they have no order of rank in this game."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def index(self) -> int:
        """Position 0–3 in ``C D H S`` order, used for bit-set layout and sorting."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol, for display: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is printed in red (diamonds and hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter (``c d h s`` in either case) or symbol."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, suit.symbol):
                return suit
        raise NotationError(f"unknown suit {text!r}: expected one of C, D, H, S")


_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """Ranks from two (low) to ace (high); their integer values compare as the game does."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank's character in card notation: ``2``–``9``, ``T J Q K A``."""
        return _RANK_LETTERS[self.value - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank character; ``10`` is accepted for ``T`` and lower case for letters."""
        key = text.strip().upper()
        if key == "10":
            key = "T"
        index = _RANK_LETTERS.find(key) if len(key) == 1 else -1
        if index < 0:
            raise NotationError(f"unknown rank {text!r}: expected one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)")
        return cls(index + 2)


_RANK_LETTERS = "23456789TJQKA"


class Card:
    """One playing card; there are exactly 52 instances, one per suit and rank.

    Construct cards with :meth:`Card.of` or :meth:`Card.parse`; both return the
    interned instance, so ``Card.parse("AS") is Card.of(Rank.ACE, Suit.SPADES)``.
    """

    __slots__ = ("_text", "index", "mask", "rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    mask: int
    _text: str
    _all: ClassVar[tuple[Card, ...]]

    def __new__(cls, *args: object, **kwargs: object) -> Card:
        raise TypeError("cards are interned: use Card.of(rank, suit) or Card.parse(text)")

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        index = suit.index * 13 + rank.value - 2
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "mask", 1 << index)
        object.__setattr__(card, "_text", rank.letter + suit.value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return DECK[suit.index * 13 + rank.value - 2]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0–51, clubs 2 first, spades ace last)."""
        return DECK[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read card notation leniently: ``"TH"``, ``"th"``, ``"10h"``, ``"10♥"``."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be written as text like 'TH', not {text!r}")
        key = text.strip()
        card = _BY_TEXT.get(key.upper())
        if card is not None:
            return card
        if len(key) < 2:
            raise NotationError(
                f"unknown card {text!r}: expected a rank (2-9, T, J, Q, K, A) then a suit "
                "(C, D, H, S), like 'TH'"
            )
        try:
            return Card.of(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except NotationError as error:
            raise NotationError(f"unknown card {text!r}: {error}") from None

    @property
    def symbol(self) -> str:
        """Display form with the suit symbol, e.g. ``T♥``."""
        return self.rank.letter + self.suit.symbol

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        """Sort order for display: by suit (C D H S), then by rank."""
        return self.index < other.index


DECK: tuple[Card, ...] = tuple(Card._make(rank, suit) for suit in Suit for rank in Rank)
"""The 52 cards in index order: clubs 2…A, diamonds, hearts, spades."""
Card._all = DECK
_BY_TEXT = {str(card): card for card in DECK}

SUIT_MASKS: dict[Suit, int] = {suit: 0x1FFF << (13 * suit.index) for suit in Suit}
"""Bit set of every card of each suit."""


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set holding these cards."""
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


# Bit sets are decoded through one table per suit, indexed by the suit's 13-bit
# pattern, so a hand of any size becomes a tuple of cards in four list look-ups.
def _suit_table(suit_index: int) -> list[tuple[Card, ...]]:
    base = suit_index * 13
    table: list[tuple[Card, ...]] = [()] * 0x2000
    for bits in range(1, 0x2000):
        low = bits & -bits
        table[bits] = (DECK[base + low.bit_length() - 1], *table[bits ^ low])
    return table


SUIT_CARDS: tuple[list[tuple[Card, ...]], ...] = tuple(_suit_table(i) for i in range(4))
"""Per suit index, the cards of each 13-bit pattern of that suit (bits shifted down to 0)."""
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = SUIT_CARDS


def cards_in(mask: int) -> tuple[Card, ...]:
    """The cards of a bit set, in index order (by suit, then rank)."""
    return (
        _CLUBS[mask & 0x1FFF]
        + _DIAMONDS[mask >> 13 & 0x1FFF]
        + _HEARTS[mask >> 26 & 0x1FFF]
        + _SPADES[mask >> 39]
    )


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate the cards of a bit set in index order."""
    return iter(cards_in(mask))


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards; the first unreadable one raises :class:`NotationError`."""
    return tuple(Card.parse(text) for text in texts)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation separated by spaces."""
    return " ".join(str(card) for card in cards)
