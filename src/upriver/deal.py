"""Dealing: the seeded shuffle, the first dealer (the first-Jack draw), each round's trump, checking a deal.

These are the parts of a deal that do not depend on the game's state, kept apart
from :mod:`upriver.game` so that the state machine reads as the rules of play.
"""

from __future__ import annotations

# The C generator behind random.Random, without its Python-level seed(): for an int seed it
# gives the same stream, so every seed deals the cards it always dealt, and records replay.
from _random import Random
from collections.abc import Sequence

from upriver.cards import DECK, Card, Rank, Suit, mask_of
from upriver.errors import IllegalActionError
from upriver.rules import FirstDealer, Rules, Trump

__all__ = [
    "DEALER_DRAW",
    "ROTATION",
    "check_hands",
    "dealer_of_round",
    "draw_for_dealer",
    "first_dealer",
    "left_of",
    "rotating_trump",
    "rules_json",
    "seeded_deal",
    "seeded_rng",
    "shuffled_deck",
]

ROTATION: tuple[Suit | None, ...] = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, None)
"""Trump round by round under ``trump: "rotate"`` (Nomination Whist), repeated from the first round:
hearts, diamonds, clubs, spades, then a round without trump."""


def rotating_trump(round_number: int) -> Suit | None:
    """The trump of round ``round_number`` (1-based) when trump rotates; ``None``: a round without trump."""
    return ROTATION[(round_number - 1) % len(ROTATION)]


def rules_json(rules: Rules) -> dict[str, object]:
    """The rule options as the game record writes them (:meth:`Rules.options`), with the hand
    size of every round and the player count, which a page needs to draw the table; when trump
    rotates, also ``trumps``: every round's trump suit (``null``: a round without trump), so a
    page (the score keeper, its paper sheet) shows it without working it out."""
    written: dict[str, object] = {
        **rules.options(),
        "hand_sizes": list(rules.hand_sizes),
        "player_count": rules.player_count,
    }
    if rules.trump is Trump.ROTATE:
        trumps = (rotating_trump(number) for number in range(1, rules.rounds + 1))
        written["trumps"] = [None if suit is None else suit.value for suit in trumps]
    return written


_SEED_MASK = (1 << 64) - 1
DEALER_DRAW = 0xFFFF_FFFF
"""The step of :func:`seeded_rng` that draws for the first dealer; rounds are steps 0, 1, …"""


def seeded_rng(seed: int, step: int) -> Random:
    """A generator for one round's deal (step: the round's index) or the dealer draw, from the seed alone.

    Seeding each deal afresh, rather than drawing from one stream, means a game
    replayed from a record deals the rounds still to come exactly as the
    original game would have.
    """
    return Random((seed & _SEED_MASK) << 32 | step)


def seeded_deal(rng: Random, players: int, size: int) -> tuple[list[int], Card | None]:
    """Hands of ``size`` cards (as bit sets) dealt from a shuffled deck, and the card turned up after them."""
    dealt = players * size
    drawn = shuffled_deck(rng)
    masks = [mask_of(drawn[start : start + size]) for start in range(0, dealt, size)]
    return masks, drawn[dealt] if dealt < len(DECK) else None


def shuffled_deck(rng: Random) -> list[Card]:
    """The deck in a uniformly random order drawn from ``rng``.

    Sorting by random keys costs one C-level ``random()`` a card, a third of
    ``random.shuffle``; a tie between two 53-bit keys is too rare to matter.
    """
    key = rng.random
    return sorted(DECK, key=lambda _: key())


def draw_for_dealer(rng: Random, players: int) -> tuple[tuple[int, Card], ...]:
    """Cards dealt face up one at a time, clockwise from seat 0, up to and including the first Jack.

    The seat that receives the Jack deals first (source 000).
    """
    draw: list[tuple[int, Card]] = []
    for i, card in enumerate(shuffled_deck(rng)):
        draw.append((i % players, card))
        if card.rank is Rank.JACK:
            break
    return tuple(draw)


def first_dealer(
    method: FirstDealer, seed: int, players: int, keeper: int | None, chosen: int | None = None
) -> tuple[int, tuple[tuple[int, Card], ...]]:
    """The first dealer's seat by the rules' ``method``, and the draw that chose it: the seat dealt
    the first Jack (:func:`draw_for_dealer`, from the game's ``seed``), the seat left of the
    ``keeper`` (default: the last seat), or seat 0 (the draw is empty for these two); a ``chosen``
    seat deals first whatever the method (no draw)."""
    if chosen is not None:
        return chosen, ()
    if method is FirstDealer.FIRST_JACK:
        draw = draw_for_dealer(seeded_rng(seed, DEALER_DRAW), players)
        return draw[-1][0], draw
    if method is FirstDealer.LEFT_OF_KEEPER:
        return left_of(players - 1 if keeper is None else keeper, players), ()
    return 0, ()


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat ``steps`` places to the left of ``seat`` at a table of ``players``: the deal passes to
    the left, and the bidding and the first trick start left of the dealer, so this is where every
    "left of" is counted.

    >>> left_of(3, 4), left_of(3, 4, steps=2), [left_of(1, 4, steps=1 + i) for i in range(4)]
    (0, 1, [2, 3, 0, 1])
    """
    return (seat + steps) % players


def dealer_of_round(first: int, round_number: int, players: int) -> int:
    """The seat dealing round ``round_number`` (1-based) when seat ``first`` dealt the first: the deal
    passes to the left, one seat a round.

    >>> [dealer_of_round(2, k, 4) for k in range(1, 6)]
    [2, 3, 0, 1, 2]
    """
    return left_of(first, players, round_number - 1)


def check_hands(
    round_number: int,
    players: Sequence[str],
    size: int,
    hands: Sequence[Sequence[Card]],
    turned: Card | None,
    *,
    turn_up: bool = True,
) -> None:
    """Raise :class:`IllegalActionError` unless these hands and turn-up are a deal of ``size`` cards.

    With ``turn_up`` off (trump rotates) no card may be turned up, whatever is left.
    """
    where = f"round {round_number}"
    if len(hands) != len(players):
        raise IllegalActionError(f"{where} deals to {len(players)} players, not {len(hands)}", rule="deal")
    seen = 0
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalActionError(
                f"{where}: {players[seat]} was dealt {len(hand)} cards; "
                f"the schedule deals {size} in this round",
                rule="hand size",
                seat=seat,
            )
        for card in hand:
            if not isinstance(card, Card):
                raise IllegalActionError(
                    f"{where}: {players[seat]}'s hand holds {card!r}, which is not a Card "
                    "(parse text with Card.parse)",
                    rule="deal",
                    seat=seat,
                )
            if seen & card.mask:
                raise IllegalActionError(f"{where}: {card} is dealt twice", rule="one deck")
            seen |= card.mask
    if turned is not None and not isinstance(turned, Card):
        raise IllegalActionError(f"{where}: the turned card {turned!r} is not a Card", rule="deal")
    stock = len(DECK) - len(players) * size
    if not turn_up:
        if turned is not None:
            trump = rotating_trump(round_number)
            named = "no trump" if trump is None else f"trump is {trump.name.lower()}"
            raise IllegalActionError(
                f"{where}: trump rotates, so no card is turned up; in this round {named}", rule="turn-up"
            )
        return
    if turned is not None and seen & turned.mask:
        raise IllegalActionError(f"{where}: the turned card {turned} is also in a hand", rule="one deck")
    if turned is None and stock > 0:
        raise IllegalActionError(
            f"{where}: {stock} cards are left after the deal, so one must be turned up for trump",
            rule="turn-up",
        )
    if turned is not None and stock == 0:
        raise IllegalActionError(
            f"{where}: every card is dealt, so none can be turned up; the round has no trump",
            rule="turn-up",
        )
