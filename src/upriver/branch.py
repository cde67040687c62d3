"""Branching for search: a game rebuilt from one seat's view and a deal of the cards it cannot see.

A search bot knows only its :class:`~upriver.view.SeatView`. To try moves it deals the
hidden cards in a way that fits what the table has shown, builds a game from that deal
with :func:`game_from_view`, and plays on; :meth:`upriver.Game.copy` then branches that
game cheaply as often as the search needs.

>>> from upriver import Game, preset
>>> game = Game(preset("classic", player_count=4), seed=4)
>>> for _ in range(10):  # round 1: four bids and four cards; then two bids of round 2
...     _ = game.move(game.legal_bids()[0] if game.legal_bids() else game.legal_cards()[0])
>>> view = game.view(1)
>>> rebuilt = game_from_view(view, [game.hand(seat) for seat in range(4)], seed=1)
>>> rebuilt.view(1) == view
True

The built game has exactly the view's public state: the round, dealer, bids, this
round's tricks and the trick on the table, trump and whether it is broken, totals and
history (:attr:`~upriver.Game.results`), the last trick. Its :attr:`~upriver.Game.log`
starts at this round's deal (the view does not hold the earlier actions). Later rounds
are dealt from ``seed`` — not the original game's seed, which no view reveals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from upriver.actions import Phase
from upriver.cards import Card, cards_in, format_cards
from upriver.errors import RefusalError
from upriver.game import Game
from upriver.rules import Bidding
from upriver.view import SeatView

__all__ = ["InconsistentDealError", "game_from_view"]


class InconsistentDealError(RefusalError):
    """A deal of the hidden cards (or hidden bids) that does not fit what a seat's view shows.

    ``rule`` names what does not fit: ``"phase"``, ``"seats"``, ``"card"``, ``"own hand"``,
    ``"hand size"``, ``"dealt twice"``, ``"seen card"``, ``"void"``, ``"only trumps"`` or
    ``"bids"``; ``seat`` is the seat whose hand (or bid) is at fault, or ``None``; ``facts``
    holds the values of the sentence.
    """


def game_from_view(
    view: SeatView,
    hands: Sequence[Sequence[Card]],
    *,
    seed: int | None = None,
    bids: Mapping[int, int] | None = None,
) -> Game:
    """A game in exactly ``view``'s public state, with ``hands`` as the cards each seat holds now.

    ``hands`` has one entry per seat in seat order: the cards that seat holds now (not
    the cards it was dealt), the view's own hand included — so the true game's
    ``[game.hand(s) for s in range(n)]`` rebuilds it exactly. Under simultaneous bidding
    the other seats' bids are hidden: ``bids`` maps those seats to their bids (every
    seat that has bid, by the view's ``bids_made``); without it they have not bid yet.
    ``seed`` deals the later rounds (random when ``None``).

    Only views while a round is bid or played can be built from: in the other phases
    no card is hidden in a hand.

    :raises InconsistentDealError: naming the seat and what does not fit the view: the
        phase, the number of hands, a hand's size (the hand size less the cards that seat
        has played this round), the own hand differing from the view's, a card dealt
        twice, a card already seen (the own hand, the turned card, a card played) dealt
        to another seat, a card of a suit the seat showed void in by not following, a
        card other than trump for a seat that led trump before trump was broken, or
        hidden bids that are not the view's.
    """
    names = view.players
    n = len(names)
    if view.phase is not Phase.BIDDING and view.phase is not Phase.PLAYING:
        raise InconsistentDealError(
            "a game can be built from a view while a round is bid or played, "
            f"not while it is {view.phase.value}",
            rule="phase",
            facts={"phase": view.phase},
        )
    if len(hands) != n:
        raise InconsistentDealError(
            f"the table has {n} seats but {len(hands)} hands were given",
            rule="seats",
            facts={"hands": len(hands)},
        )
    masks = [_mask(names, seat, hand) for seat, hand in enumerate(hands)]
    _check_deal(view, masks)
    played = _played_by(view)
    # Step to the view's round without playing the earlier ones: the view has their results.
    game = Game.after_rounds(
        view.rules, names, view.history, dealer=view.dealer, last_trick=view.last_trick, seed=seed
    )
    game.deal([cards_in(masks[s] | played[s]) for s in range(n)], view.turned)
    for seat, bid in _bids(view, bids):
        game.bid(bid, seat)
    for plays in (*(trick.plays for trick in view.tricks), view.trick):
        for seat, card in plays:
            game.play(card, seat)
    game.auto_deal = True
    if bids is not None and game.to_act != view.to_act:
        raise InconsistentDealError(
            f"the bids given leave {names[game.to_act or 0]} to bid first, "
            f"but the view waits for {names[view.to_act or 0]}",
            rule="bids",
            facts={"to_act": view.to_act},
        )
    return game


def _mask(names: Sequence[str], seat: int, hand: Sequence[Card]) -> int:
    mask = 0
    for card in hand:
        if type(card) is not Card:
            raise InconsistentDealError(
                f"{names[seat]}'s hand holds {card!r}, which is not a Card (parse text with Card.parse)",
                rule="card",
                seat=seat,
                facts={"card": card},
            )
        if mask & card.mask:
            raise InconsistentDealError(
                f"{card} is dealt twice to {names[seat]}", rule="dealt twice", seat=seat, facts={"card": card}
            )
        mask |= card.mask
    return mask


def _played_by(view: SeatView) -> list[int]:
    played = [0] * view.player_count
    for seat, card in view.played:
        played[seat] |= card.mask
    return played


def _check_blind(view: SeatView, masks: list[int]) -> None:
    """Raise unless these hands fit a blind round's view: the others hold the cards on their
    foreheads, and the seat one card it cannot see (none of those, not the turned card)."""
    names, me = view.players, view.seat
    seen = 0 if view.turned is None else view.turned.mask
    for seat, card in enumerate(view.foreheads):
        if card is None:
            continue
        seen |= card.mask
        if masks[seat] != card.mask:
            raise InconsistentDealError(
                f"{names[me]} sees {card} on {names[seat]}'s forehead, "
                f"but {format_cards(cards_in(masks[seat]))} was given",
                rule="seen card",
                seat=seat,
                facts={"card": card},
            )
    if masks[me].bit_count() != 1 or masks[me] & seen:
        raise InconsistentDealError(
            f"{names[me]} holds one card it cannot see, not {format_cards(cards_in(masks[me]))}",
            rule="own hand",
            seat=me,
            facts={"given": cards_in(masks[me])},
        )


def _check_deal(view: SeatView, masks: list[int]) -> None:
    """Raise unless these hands (as bit sets) fit everything the view has shown."""
    if view.foreheads:
        _check_blind(view, masks)
        return
    names, me = view.players, view.seat
    own = sum(card.mask for card in view.hand)
    if masks[me] != own:
        raise InconsistentDealError(
            f"the hand given for {names[me]} is {format_cards(cards_in(masks[me]))}, "
            f"but the view's hand is {format_cards(view.hand)}",
            rule="own hand",
            seat=me,
            facts={"hand": view.hand, "given": cards_in(masks[me])},
        )
    counts = [view.hand_size] * len(names)
    seen = {card: f"played by {names[seat]}" for seat, card in view.played}
    for seat, _ in view.played:
        counts[seat] -= 1
    if view.turned is not None:
        seen[view.turned] = "turned up for trump"
    for card in view.hand:
        seen[card] = f"in {names[me]}'s own hand"
    dealt = own
    for seat, mask in enumerate(masks):
        if seat == me:
            continue
        size = mask.bit_count()
        if size != counts[seat]:
            raise InconsistentDealError(
                f"{names[seat]} holds {counts[seat]} cards now ({view.hand_size} dealt, "
                f"{view.hand_size - counts[seat]} played this round), but {size} were given",
                rule="hand size",
                seat=seat,
                facts={"holds": counts[seat], "given": size},
            )
        for card in cards_in(mask):
            if card in seen:
                raise InconsistentDealError(
                    f"{card} is dealt to {names[seat]}, but it was already seen: {seen[card]}",
                    rule="seen card",
                    seat=seat,
                    facts={"card": card},
                )
        twice = dealt & mask
        if twice:
            card = cards_in(twice)[0]
            raise InconsistentDealError(
                f"{card} is dealt twice: to {names[seat]} and another seat",
                rule="dealt twice",
                seat=seat,
                facts={"card": card},
            )
        dealt |= mask
        _check_shown(view, seat, cards_in(mask))


def _check_shown(view: SeatView, seat: int, hand: tuple[Card, ...]) -> None:
    """Raise if ``hand`` holds a suit ``seat`` showed it lacks, in any trick of this round."""
    name = view.players[seat]
    broken = False
    for number, plays in enumerate((*(trick.plays for trick in view.tricks), view.trick)):
        if not plays:
            continue
        led = plays[0][1].suit
        barred = view.trump is not None and view.rules.bars_leading_trump(number, broken=broken)
        if plays[0][0] == seat and barred and led is view.trump:
            others = [card for card in hand if card.suit is not view.trump]
            if others:
                raise InconsistentDealError(
                    f"{name} led trump before trump was broken, so holds only trumps, "
                    f"but was dealt {format_cards(others)}",
                    rule="only trumps",
                    seat=seat,
                    facts={"trump": view.trump, "cards": tuple(others)},
                )
        for who, card in plays:
            if who == seat and card.suit is not led:
                held = [c for c in hand if c.suit is led]
                if held:
                    raise InconsistentDealError(
                        f"{name} did not follow {led.name.lower()}, so holds none, "
                        f"but was dealt {format_cards(held)}",
                        rule="void",
                        seat=seat,
                        facts={"suit": led, "cards": tuple(held)},
                    )
            if card.suit is view.trump:
                broken = True


def _bids(view: SeatView, hidden: Mapping[int, int] | None) -> list[tuple[int, int]]:
    """The bids to replay, (seat, bid) in bidding order: the view's and the hidden ones given."""
    known = dict(hidden or {})
    simultaneous = view.rules.bidding is Bidding.SIMULTANEOUS and view.phase is Phase.BIDDING
    for seat in known:
        if not 0 <= seat < view.player_count or seat == view.seat or view.bids[seat] is not None:
            raise InconsistentDealError(
                f"a bid was given for seat {seat}, whose bid is not hidden from {view.players[view.seat]}",
                rule="bids",
                seat=seat,
                facts={"seat": seat},
            )
    if known and not simultaneous:
        raise InconsistentDealError(
            "hidden bids are given only under simultaneous bidding while it lasts: every bid is in the view",
            rule="bids",
        )
    shown = sum(bid is not None for bid in view.bids)
    if known and shown + len(known) != view.bids_made:
        raise InconsistentDealError(
            f"{view.bids_made} seats have bid, but {shown + len(known)} bids were given with the view's",
            rule="bids",
            facts={"bids_made": view.bids_made},
        )
    order = []
    for seat in view.bidding_order:
        bid = view.bids[seat]
        if bid is None:
            bid = known.get(seat)
        if bid is not None:
            order.append((seat, bid))
    return order
