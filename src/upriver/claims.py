"""Claiming the rest of a round: when a seat may, and the round finished at once.

A seat may claim only what it can see holds. It sees its own hand and the cards played; every
other card (the other seats' hands and the undealt stock alike) may, for all it knows, be in any
other seat's hand. So a claim holds when the claimer takes every remaining trick on EVERY
placement of the cards it cannot see and every way anyone plays them; "remaining" counts the
trick on the table. Such a claim holds on the real hands too, and gives exactly the round scores
of every way the round could be played out. Whether a seat may claim is therefore decided from
what that seat may know, never from the other hands: the answer (sent to the seat in every
state) tells it nothing about the cards it cannot see.

There is no claim of none: a seat could prove it takes no trick only by knowing who takes them
(finishing the round must not choose for the others), which its view almost never settles. In a
blind one-card round a seat cannot see its own card, so it can never claim.

The test (:func:`claim_refusal`) is a sufficient one on bit sets: each of the claimer's cards
must beat every unseen card (higher in its suit, and no unseen trump unless the card is a trump),
and the claimer must win the trick on the table against every unseen card the seats still to
play to it might hold. It reads each hand as a superset of what may be played, so it is sound
without knowing which cards are legal, and costs a few bit operations.

:func:`settled` keeps the exact analysis of the real hands (for the tests that prove the claims
sound): whether every legal continuation gives the same round with the seat taking every trick
left or none. Cheapest first:

1. Four quick lines are played out on copies (every seat playing its first legal card, or its
   last, or the even seats one way and the odd seats the other): two different outcomes, or a
   line where a seat takes some but not all of the tricks, settle the answer at once.
2. The bit-set test above with "the others" the other seats' real hands.
3. Otherwise an exact search of the game tree, memoised on the hands and the trick on the
   table, with the test of step 2 cutting every subtree whose leader surely takes the rest. It
   is bounded by :data:`SEARCH_BUDGET` plays; a larger tree is not proven settled.

:meth:`upriver.Game.can_claim`, :meth:`~upriver.Game.check_claim` and
:meth:`~upriver.Game.claim` are the game's thin doors to this module. The state stays with its
owner: this module reads the game through its public side, the cards as bit sets through
:meth:`upriver.Game.position`, and asks the game for the legal cards and to play them.
"""

from __future__ import annotations

import collections
import dataclasses
from typing import Protocol, Self

from upriver.actions import Phase, PlayAction, RoundResult
from upriver.cards import SUIT_MASKS, Card, Suit, cards_in, mask_of
from upriver.errors import IllegalActionError
from upriver.rules import Rules
from upriver.state import Position

__all__ = ["SEARCH_BUDGET", "Claim", "ClaimGame", "claim_refusal", "play_out", "settled"]

SEARCH_BUDGET = 4000
"""The most cards the exact search plays before it gives up and refuses the claim as not proven."""

_SUITS = tuple(SUIT_MASKS[suit] for suit in Suit)
_DECK = sum(_SUITS)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A claim made: the claimer's seat, the round, the cards it held when it claimed (shown to
    everyone), the tricks it took, and the plays that finished the round (ordinary plays of the record)."""

    seat: int
    round: int
    cards: tuple[Card, ...]
    tricks: int
    """How many tricks the claimer took: every one that remained."""
    plays: tuple[PlayAction, ...]


class ClaimGame(Protocol):
    """What a claim reads and plays: the public side of :class:`upriver.Game`."""

    auto_deal: bool

    @property
    def rules(self) -> Rules: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def round_number(self) -> int: ...

    @property
    def hand_size(self) -> int: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def tricks_won(self) -> tuple[int, ...]: ...

    @property
    def plays(self) -> tuple[Card, ...]: ...

    @property
    def results(self) -> tuple[RoundResult, ...]: ...

    def position(self) -> Position: ...

    def hand(self, seat: int) -> tuple[Card, ...]: ...

    def copy(self, *, log: bool = True) -> Self: ...

    def legal_cards(self, seat: int | None = None) -> tuple[Card, ...]: ...

    def play(self, card: Card | str, seat: int | None = None) -> PlayAction: ...


class _TooBigError(Exception):
    """The search reached its budget before settling the claim."""


class _DifferError(Exception):
    """Two continuations end the round differently: ``first`` and ``second``, tricks from here."""

    def __init__(self, first: tuple[int, ...], second: tuple[int, ...]) -> None:
        super().__init__()
        self.first = first
        self.second = second


def _search_copy(game: ClaimGame) -> ClaimGame:
    """A copy to search on: no log (nothing reads it), and no deal of the next round at the end."""
    twin = game.copy(log=False)
    twin.auto_deal = False
    return twin


def _takes_all(position: Position, seat: int, unseen: int | None = None) -> bool:
    """Whether ``seat`` surely takes every remaining trick (sufficient, cheap). With ``unseen`` (the
    cards the seat cannot see) each other seat may hold any of those cards; without it, its real hand."""
    hands = position.hands
    trump = position.trump
    mine = hands[seat]
    if unseen is None:
        others = 0
        for other, hand in enumerate(hands):
            if other != seat:
                others |= hand
    else:
        others = unseen
    # Every later trick is led by the seat: each of its cards must beat everything the others hold.
    for suit in _SUITS:
        held = mine & suit
        if not held:
            continue
        if others & suit >= held & -held:  # the others hold a higher card of this suit
            return False
        if suit != trump and others & trump:
            return False
    cards = position.trick
    leader = position.leader
    if not cards and leader == seat:
        return True
    # The trick on the table (or about to be led by another seat) must be the seat's too.
    n = len(hands)
    order = [(leader + i) % n for i in range(n)]
    played = {order[i]: card.mask for i, card in enumerate(cards)}
    candidates = played.get(seat, mine)
    against = 0
    for other in order:
        if other != seat:
            against |= played.get(other, hands[other] if unseen is None else unseen)
    if cards:
        leads = [cards[0].mask]
    else:
        leads = [card.mask for card in cards_in(hands[leader] if unseen is None else unseen)]
    for lead in leads:
        led = next(suit for suit in _SUITS if suit & lead)
        if not _beats_all(candidates, against, led, trump):
            return False
    return True


def _unseen(game: ClaimGame, position: Position, seat: int) -> int:
    """The cards ``seat`` cannot see: neither in its hand nor played this round."""
    return _DECK & ~position.hands[seat] & ~mask_of(game.plays)


def _beats_all(candidates: int, against: int, led: int, trump: int) -> bool:
    """Whether every card of ``candidates`` beats every card of ``against`` in a trick of suit ``led``."""
    if against & trump:
        # Only a trump beats a trump: every candidate must be a trump above the others' trumps.
        low = candidates & -candidates
        return candidates & ~trump == 0 and against & trump < low
    if candidates & ~(trump | led):  # a card neither trump nor of the suit led wins nothing
        return False
    if candidates & trump:
        if candidates & led:  # some candidates are of the suit led: they must beat its cards too
            low = (candidates & led) & -(candidates & led)
            return against & led < low
        return True
    low = candidates & -candidates
    return against & led < low


def _line(game: ClaimGame, picks: tuple[int, int]) -> tuple[int, ...]:
    """Tricks each seat takes from here when the even seats always play their legal card at position
    ``picks[0]`` (0 first, -1 last) and the odd seats at ``picks[1]``."""
    twin = _search_copy(game)
    start = twin.tricks_won
    while twin.phase is Phase.PLAYING:
        legal = twin.legal_cards()
        seat = twin.to_act
        assert seat is not None  # a seat is to act while the cards are played
        twin.play(legal[picks[seat % 2]])
    return _since(twin, start)


def _since(game: ClaimGame, start: tuple[int, ...]) -> tuple[int, ...]:
    """The tricks each seat took since it had taken ``start`` this round (its round may just have ended)."""
    now = game.tricks_won if game.phase is Phase.PLAYING else game.results[-1].tricks_won
    return tuple(a - b for a, b in zip(now, start, strict=True))


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


class _Search:
    """The exact search (step 3): the tricks each seat takes from a position, the same on every
    continuation, or :class:`_DifferError` naming two that differ, or :class:`_TooBigError`."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.memo: dict[tuple[object, ...], tuple[int, ...]] = {}

    def settle(self, game: ClaimGame) -> tuple[int, ...]:
        position = game.position()
        hands = position.hands
        cards = position.trick
        leader = position.leader
        if not cards:
            left = position.remaining
            if _takes_all(position, leader):
                return tuple(left if s == leader else 0 for s in range(len(hands)))
        key = (hands, cards, leader, position.trump_broken)
        known = self.memo.get(key)
        if known is not None:
            return known
        found: tuple[int, ...] | None = None
        before = game.tricks_won
        for card in game.legal_cards():
            self.budget -= 1
            if self.budget < 0:
                raise _TooBigError
            twin = game.copy()
            twin.play(card)
            after = _since(twin, before)
            if twin.phase is Phase.PLAYING:
                try:
                    after = _plus(after, self.settle(twin))
                except _DifferError as differ:  # tricks from the deeper position: add those taken on the way
                    raise _DifferError(_plus(after, differ.first), _plus(after, differ.second)) from None
            if found is None:
                found = after
            elif after != found:
                raise _DifferError(found, after)
        assert found is not None  # the seat to act always has a legal card
        self.memo[key] = found
        return found


def _refusal(game: ClaimGame, seat: int, case: str, message: str, **facts: object) -> IllegalActionError:
    return IllegalActionError(
        f"{game.players[seat]} cannot claim the rest of the round: {message}",
        rule="claim",
        seat=seat,
        facts={"case": case, **facts},
    )


def claim_refusal(game: ClaimGame, seat: int) -> IllegalActionError | None:
    """Why ``seat`` may not claim the rest of the round now, or ``None`` when the claim holds,
    judged from what the seat may know (see the module).

    The refusal has rule ``claim`` and the fact ``case``: ``seat`` (no such seat), ``blind`` (a
    blind one-card round: nobody sees their own card), ``phase`` (no round is being played; fact
    ``phase``) or ``unseen`` (the cards the seat cannot see could still take one of the tricks
    left, as far as it can tell; fact ``remaining``).
    """
    n = len(game.players)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        return IllegalActionError(
            f"seat {seat!r} cannot claim: seats are 0 to {n - 1}",
            rule="claim",
            seat=None,
            facts={"case": "seat", "seat": seat, "seats": n},
        )
    if game.rules.blind_one_card and game.hand_size == 1:
        return _refusal(
            game,
            seat,
            "blind",
            "in a blind one-card round nobody sees their own card, so nobody can claim",
        )
    phase = game.phase
    if phase is not Phase.PLAYING:
        return _refusal(
            game,
            seat,
            "phase",
            f"a claim is made while the cards of a round are played, and the game is {phase.value}",
            phase=phase,
        )
    position = game.position()
    if _takes_all(position, seat, _unseen(game, position, seat)):
        return None
    left = position.remaining
    name = game.players[seat]
    return _refusal(
        game,
        seat,
        "unseen",
        f"the cards {name} cannot see could still take one of the {left} tricks left; a claim needs "
        f"{name}'s cards to take every one of them whatever the others hold",
        remaining=left,
    )


def settled(game: ClaimGame, seat: int) -> bool:
    """Whether the real hands settle ``seat``'s share of the round: every legal continuation gives
    every seat the same tricks, and ``seat`` takes all of those left or none (the exact analysis of
    the module; ``False`` too when the search ran out). Not for a seat: it reads every hand."""
    if game.phase is not Phase.PLAYING:
        return False
    outcome = _analysis(game)
    if outcome.status != "settled":
        return False
    (found,) = outcome.found
    return found[seat] in (0, game.position().remaining)


@dataclasses.dataclass(frozen=True, slots=True)
class _Outcome:
    """How a position may be played out, for every seat alike: ``found`` holds two ways that end
    differently (``differ``), or the one way every line ends (``settled``: proven), or the one way
    the quick lines agree on while the search ran out (``unproven``)."""

    status: str
    found: tuple[tuple[int, ...], ...]


_KEPT = 256
"""Positions whose outcome is kept, so asking :func:`settled` for every seat costs one analysis."""
_analysed: collections.OrderedDict[tuple[object, ...], _Outcome] = collections.OrderedDict()


def _analysis(game: ClaimGame) -> _Outcome:
    """The outcome of the round from here (steps 1 to 3 of the module), kept per position."""
    # The position holds the hands, the trick and who led it, the tricks left, the trump, what may
    # not be led and whether trump is broken: with the rules and the round's size, all the outcome reads.
    key = (game.rules, game.hand_size, game.position())
    known = _analysed.get(key)
    if known is None:
        known = _analysed[key] = _analyse(game)
        while len(_analysed) > _KEPT:
            _analysed.popitem(last=False)
    return known


def _analyse(game: ClaimGame) -> _Outcome:
    position = game.position()
    n = len(position.hands)
    # Four quick lines: every seat its first legal card or its last, or the even seats one way and
    # the odd seats the other.
    lines = {_line(game, (even, odd)) for even, odd in ((0, 0), (-1, -1), (0, -1), (-1, 0))}
    if len(lines) > 1:
        return _Outcome("differ", tuple(sorted(lines))[:2])
    found = lines.pop()
    left = position.remaining
    if not any(count in (0, left) for count in found):
        return _Outcome("differ", (found,))  # nobody may claim: the one line is proof enough
    if any(_takes_all(position, seat) for seat in range(n)):
        return _Outcome("settled", (found,))
    try:
        _Search(SEARCH_BUDGET).settle(_search_copy(game))
    except _DifferError as differ:
        return _Outcome("differ", (differ.first, differ.second))
    except _TooBigError:
        return _Outcome("unproven", (found,))
    return _Outcome("settled", (found,))


def play_out(game: ClaimGame, seat: int) -> Claim:
    """Finish the round by a claim that holds (the caller checked it): every seat plays its first
    legal card in the engine's order until the round ends. Returns what was claimed."""
    cards = game.hand(seat)
    number = game.round_number
    start = game.tricks_won
    plays = []
    while game.phase is Phase.PLAYING:
        plays.append(game.play(game.legal_cards()[0]))
    tricks = game.results[-1].tricks_won[seat] - start[seat]
    return Claim(
        seat=seat,
        round=number,
        cards=cards,
        tricks=tricks,
        plays=tuple(plays),
    )
