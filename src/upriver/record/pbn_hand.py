"""The sections of an Oh Hell hand in PBN: Trickster Cards' seats, its Deal, Undealt, Auction and
Play tags and the players' name tags, read into cards, bids and plays, and written back.

Only what one tag says is checked here (a card dealt twice, a trick played out of turn, a card in
the wrong seat's column); whether the bids and cards follow the rules is the engine's to say when
the record is replayed. :mod:`upriver.record.trickster` makes a record of them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from upriver.actions import winning_play
from upriver.cards import DECK, Card, Rank, Suit
from upriver.deal import left_of
from upriver.errors import NotationError, RecordError
from upriver.names import PlayerNameError, check_names
from upriver.record.decoding import decode
from upriver.record.pbn import PbnError, PbnGame, Tag, Token
from upriver.rules import Rules, Trump

__all__ = [
    "NAME_TAGS",
    "SEATS",
    "Deal",
    "bids_of",
    "card_text",
    "deal_of",
    "hand_text",
    "json_tag",
    "names_of",
    "plays_of",
    "stock_text",
    "winner",
]

SEATS: Mapping[int, tuple[str, ...]] = {
    3: ("S", "W", "E"),
    4: ("S", "W", "N", "E"),
    5: ("S", "SW", "NW", "NE", "SE"),
    6: ("S", "SW", "NW", "N", "NE", "SE"),
}
"""Trickster's seats clockwise from South, by the number of players (its bots' own PBN reader,
TricksterBots TestBots/PTN.cs). Upriver seat *i* is the *i*-th of them: South is seat 0."""

NAME_TAGS = {
    "S": "South",
    "W": "West",
    "N": "North",
    "E": "East",
    "SW": "SouthWest",
    "NW": "NorthWest",
    "NE": "NorthEast",
    "SE": "SouthEast",
}
"""The tag naming the player of each seat (the four-letter ones are upriver's own: no Trickster
export of 5 or 6 players was found to copy)."""

_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order of a hand's suits in a Deal."""

_RANKS = "AKQJT98765432"
_UNDEALT_CARD = re.compile(r"([SHDC])(10|[2-9TJQKA])", re.IGNORECASE)


def seat_of(letter: str, count: int, tag: Tag) -> int:
    seats = SEATS[count]
    key = letter.strip().upper()
    if key not in seats:
        raise PbnError(
            f"no seat of a {count}-player table is called",
            tag=tag.name,
            line=tag.line,
            found=letter,
            expected=f"one of {' '.join(seats)}",
        )
    return seats.index(key)


def need(game: PbnGame, name: str, example: str) -> Tag:
    """The game's tag of this name, or a refusal naming the missing tag (it has no line)."""
    tag = game.get(name)
    if tag is None:
        raise PbnError(f"the hand has no {name} tag", tag=name, expected=f"add one, like {example}")
    return tag


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    count: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


def deal_of(game: PbnGame) -> Deal:
    tag = need(game, "Deal", '[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]')
    first, colon, rest = tag.value.partition(":")
    texts = rest.split()
    if not colon or not texts:
        raise PbnError(
            "a deal is a seat, a colon and the hands",
            tag="Deal",
            line=tag.line,
            found=tag.value,
            expected='like "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7", the hands clockwise from that seat',
        )
    count = len(texts)
    if count not in SEATS:
        raise PbnError(
            f"the deal has {count} hands",
            tag="Deal",
            line=tag.line,
            expected="upriver reads Trickster's tables of 3 to 6 players (it plays no 2-player game)",
        )
    start = seat_of(first, count, tag)
    hands: list[tuple[Card, ...]] = [()] * count
    holder: dict[Card, str] = {}
    for i, text in enumerate(texts):
        seat = (start + i) % count
        name = NAME_TAGS[SEATS[count][seat]]
        if text == "-":
            raise PbnError(
                f"{name}'s hand is not given",
                tag="Deal",
                line=tag.line,
                expected="every hand: the review judges each seat from its own cards",
            )
        suits = text.split(".")
        if len(suits) != 4:
            raise PbnError(
                f"{name}'s hand does not have four suits",
                tag="Deal",
                line=tag.line,
                found=text,
                expected="spades.hearts.diamonds.clubs, like AK2.T.Q.J53 (a void left empty)",
            )
        cards: list[Card] = []
        for suit, ranks in zip(_PBN_SUITS, suits, strict=True):
            for rank in re.findall(r"10|.", ranks.upper()):
                if rank not in _RANKS and rank != "10":
                    raise PbnError(
                        f"{name}'s {suit.name.lower()} hold an unknown rank",
                        tag="Deal",
                        line=tag.line,
                        found=rank,
                        expected="ranks are A K Q J T 9 8 7 6 5 4 3 2",
                    )
                card = Card.of(Rank.parse(rank), suit)
                if card in holder:
                    raise PbnError(
                        f"{card} is dealt twice, to {holder[card]} and to {name}",
                        tag="Deal",
                        line=tag.line,
                        expected="each card once",
                    )
                holder[card] = name
                cards.append(card)
        hands[seat] = tuple(sorted(cards))
    sizes = {len(hand) for hand in hands}
    if len(sizes) > 1:
        shown = ", ".join(f"{NAME_TAGS[SEATS[count][s]]} {len(hands[s])}" for s in range(count))
        raise PbnError(
            f"the hands are not the same size ({shown})",
            tag="Deal",
            line=tag.line,
            expected="as many cards in every hand",
        )
    dealer_tag = need(game, "Dealer", '[Dealer "W"]')
    dealer = seat_of(dealer_tag.value, count, dealer_tag)
    return Deal(count, dealer, tuple(hands), stock_of(game, holder))


def stock_of(game: PbnGame, dealt: Mapping[Card, str]) -> tuple[Card, ...]:
    tag = game.get("Undealt")
    if tag is None:
        return ()
    text = "".join(tag.value.split())
    cards: list[Card] = []
    pos = 0
    for match in _UNDEALT_CARD.finditer(text):
        if match.start() != pos:
            break
        card = Card.parse(match.group(2) + match.group(1))
        if card in dealt or card in cards:
            where = f"dealt to {dealt[card]}" if card in dealt else "already in the stock"
            raise PbnError(f"{card} is {where}", tag="Undealt", line=tag.line, expected="each card once")
        cards.append(card)
        pos = match.end()
    if pos != len(text):
        raise PbnError(
            "the stock holds text that is not a card",
            tag="Undealt",
            line=tag.line,
            found=text[pos:],
            expected="cards as suit then rank, one after another, like HQHJSK (the first is the turn-up)",
        )
    return tuple(cards)


def _left_of_dealer(tag: Tag, deal: Deal, section: str, starts: str) -> tuple[int, list[Token]]:
    """The first seat of a section that begins left of the dealer (the auction, the first trick),
    refused when the tag names another, and the section's tokens without notes (``=…``, ``$…``)."""
    first = left_of(deal.dealer, deal.count)
    if seat_of(tag.value, deal.count, tag) != first:
        seats = SEATS[deal.count]
        raise PbnError(
            f"{section} starts at {tag.value.strip()}",
            tag=tag.name,
            line=tag.line,
            expected=f"{starts} left of the dealer ({seats[deal.dealer]}): {seats[first]}",
        )
    return first, [token for token in tag.section if not token.text.startswith(("=", "$"))]


def bids_of(game: PbnGame, deal: Deal) -> tuple[int | None, ...]:
    bids: list[int | None] = [None] * deal.count
    tag = game.get("Auction")
    if tag is None:
        return tuple(bids)
    first, calls = _left_of_dealer(tag, deal, "the auction", "the bidding starts")
    for i, token in enumerate(calls):
        if token.text == "*":
            break
        if i >= deal.count:
            raise PbnError(
                f"the auction has more than {deal.count} bids",
                tag="Auction",
                line=token.line,
                found=token.text,
                expected="one bid a player",
            )
        if token.text == "-":
            continue
        if not token.text.isdigit() or not token.text.isascii():
            raise PbnError(
                "an Oh Hell bid is a number of tricks, not",
                tag="Auction",
                line=token.line,
                found=token.text,
                expected="a whole number, or - for a bid not made yet",
            )
        bids[(first + i) % deal.count] = int(token.text)
    return tuple(bids)


def winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    """Who takes a full trick: the highest trump, else the highest card of the suit led.

    Only to know whose column leads the next row of the Play section; the engine judges the play
    again when the record is replayed.
    """
    return winning_play(trick, trump)[0]


def plays_of(game: PbnGame, deal: Deal, trump: Suit | None) -> tuple[Card, ...]:
    tag = game.get("Play")
    if tag is None:
        return ()
    n = deal.count
    seats = SEATS[n]
    called = [NAME_TAGS[letter] for letter in seats]
    column0, tokens = _left_of_dealer(tag, deal, "the play", "the first trick is led")
    end = next((i for i, token in enumerate(tokens) if token.text == "*"), len(tokens))
    if any(token.text != "*" for token in tokens[end:]):
        stray = next(token for token in tokens[end:] if token.text != "*")
        raise PbnError(
            "a card after the * that ends the play",
            tag="Play",
            line=stray.line,
            found=stray.text,
            expected="nothing after *",
        )
    tokens = tokens[:end]
    plays: list[Card] = []
    played: set[Card] = set()
    leader = column0
    stopped = False
    for start in range(0, len(tokens), n):
        row = tokens[start : start + n]
        by_seat: dict[int, tuple[Card, int]] = {}
        for column, token in enumerate(row):
            if token.text == "-":
                continue
            seat = (column0 + column) % n
            try:
                card = Card.parse(token.text[1:] + token.text[:1])
            except NotationError:
                raise PbnError(
                    "not a card",
                    tag="Play",
                    line=token.line,
                    found=token.text,
                    expected="a card as suit then rank, like HT, or - for a card not played",
                ) from None
            if card not in deal.hands[seat] or card in played:
                holder = next((called[s] for s in range(n) if card in deal.hands[s]), None)
                problem = (
                    f"{card} is played twice"
                    if card in played
                    else f"{card} is not in {called[seat]}'s hand" + (f" but in {holder}'s" if holder else "")
                )
                raise PbnError(
                    problem,
                    tag="Play",
                    line=token.line,
                    expected=(
                        f"each row lists the seats in order from the Play tag's seat ({seats[column0]}), "
                        "whoever led the trick"
                    ),
                )
            by_seat[seat] = (card, token.line)
            played.add(card)
        order = [(leader + k) % n for k in range(n)]
        present = [seat for seat in order if seat in by_seat]
        if present and stopped:
            raise PbnError(
                "a trick after an unfinished one",
                tag="Play",
                line=by_seat[present[0]][1],
                expected="only the last trick may have cards not played (-)",
            )
        if present != order[: len(present)]:
            gap = next(seat for seat in order if seat not in by_seat)
            later = next(seat for seat in present if order.index(seat) > order.index(gap))
            raise PbnError(
                f"{called[later]} plays to trick {start // n + 1} before {called[gap]}",
                tag="Play",
                line=by_seat[later][1],
                expected=(
                    f"a trick is played clockwise from its leader ({called[leader]}): "
                    "- only after the last card played"
                ),
            )
        plays.extend(by_seat[seat][0] for seat in present)
        if len(present) == n:
            leader = winner([(seat, by_seat[seat][0]) for seat in present], trump)
        elif present or start + n < len(tokens):
            stopped = True
    return tuple(plays)


def names_of(game: PbnGame, count: int) -> list[str]:
    """Each seat's name tag; a seat without one (or with an empty one) is called by its seat."""
    out = []
    for letter in SEATS[count]:
        tag = game.get(NAME_TAGS[letter])
        value = "" if tag is None else tag.value
        out.append(value if value.strip() else NAME_TAGS[letter])
    try:
        return list(check_names(out))
    except PlayerNameError as error:
        seat = error.seat if error.seat is not None else 0
        name_tag = game.get(NAME_TAGS[SEATS[count][seat]])
        raise PbnError(
            str(error),
            tag=NAME_TAGS[SEATS[count][seat]],
            line=None if name_tag is None else name_tag.line,
            expected="a name upriver can seat: 1 to 24 characters, none alike another; edit the tag",
        ) from None


def json_tag(tag: Tag) -> dict[str, object]:
    try:
        value = decode(tag.value)
    except RecordError as error:
        raise PbnError(
            f"the value is not JSON ({str(error).removeprefix('record: ')})",
            tag=tag.name,
            line=tag.line,
            expected="a JSON object",
        ) from None
    if not isinstance(value, dict):
        raise PbnError("the value is not a JSON object", tag=tag.name, line=tag.line, expected="{…}")
    return value


def stock_text(hands: Sequence[Sequence[Card]], turned: Card | None, rules: Rules) -> str | None:
    """The Undealt tag upriver writes: the turn-up, then the rest of the stock in deck order;
    ``None`` when trump rotates (no card is turned up)."""
    if rules.trump is Trump.ROTATE:
        return None
    dealt = {card for hand in hands for card in hand}
    rest = [card for card in DECK if card not in dealt and card != turned]
    stock = ([turned] if turned is not None else []) + rest
    return "".join(card.suit.value + card.rank.letter for card in stock)


def hand_text(hand: Sequence[Card]) -> str:
    return ".".join(
        "".join(card.rank.letter for card in sorted(hand, key=lambda c: -c.rank) if card.suit is suit)
        for suit in _PBN_SUITS
    )


def card_text(card: Card | None) -> str:
    return "-" if card is None else card.suit.value + card.rank.letter
