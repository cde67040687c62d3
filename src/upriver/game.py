"""The whole game as one state machine: deal, bid, play, score, rotate, to the end.

Every action comes in three forms, as in pokerkit: ``check_bid`` explains why an
action is refused (it raises :class:`~upriver.errors.IllegalActionError`),
``can_bid`` is the cheap yes/no, and ``bid`` applies it and returns the frozen
record appended to :attr:`Game.log`. A refused action leaves the game exactly as
it was. Adapters (terminal, web, bots, RL) reach the rules only through here.

>>> from upriver import Card, Game, preset
>>> game = Game(preset("classic", player_count=4), seed=7)
>>> game.phase, game.hand_size, game.to_act
(<Phase.BIDDING: 'bidding'>, 1, 0)
>>> game.legal_bids()
(0, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from itertools import repeat
from typing import cast, overload

from upriver.actions import (
    BidAction,
    DealAction,
    Phase,
    PlayAction,
    RoundResult,
    Trick,
    TricksAction,
    beats,
    round_score,
)
from upriver.cards import DECK, SUIT_CARDS, SUIT_MASKS, Card, Suit, cards_in, mask_of
from upriver.claims import Claim, claim_refusal, play_out
from upriver.deal import check_hands, first_dealer, left_of, rotating_trump, seeded_deal, seeded_rng
from upriver.errors import IllegalActionError, NotationError, RulesError
from upriver.legality import (
    BidRestriction,
    bid_range_refusal,
    card_refusal,
    card_rule_refusal,
    check_trick_counts,
    dealer_bids,
    not_held_refusal,
    one_bid_refusal,
    out_of_phase_refusal,
    restriction_of,
    turn_refusal,
)
from upriver.rules import Bidding, DealerBid, Rules, Trump, TrumpLead
from upriver.state import GameState
from upriver.view import SeatView, TableView, view_of

__all__ = ["Game", "Move"]

Move = Card | int | str
"""A move as :meth:`Game.move` takes it: a bid (``int``), a card, or a card's text (``"TH"``).

A bid is a Python ``int``: convert a NumPy integer with ``int()`` first.
"""

_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_new = tuple.__new__
# Per card index: the bit set of its suit, and the shift that brings its suit's bits down to 0.
_SUIT_MASK_OF = tuple(SUIT_MASKS[card.suit] for card in DECK)
_SHIFT_OF = tuple(13 * card.suit.index for card in DECK)
# The cards of one suit by its bits shifted down, found by that shift (0, 13, 26 or 39).
_CARDS_AT_SHIFT = [SUIT_CARDS[shift // 13] if shift % 13 == 0 else [] for shift in range(40)]


class Game(GameState):
    """A game of Up and Down the River under one :class:`~upriver.rules.Rules`.

    ``players`` are the names in seating order, clockwise (default ``P1``…).
    ``seed`` fixes every random choice (first-dealer draw, every shuffle).
    ``dealer`` chooses the first dealer's seat whatever the rules' method; with
    ``FirstDealer.LEFT_OF_KEEPER`` the ``keeper`` seat (default: the last seat)
    keeps score and the seat to its left deals. With ``auto_deal`` off the game
    waits in :attr:`Phase.DEALING` for :meth:`deal` or :meth:`deal_at_table`.
    ``first_round`` numbers the game's first round within a longer evening (the score
    keeper's runs of rounds between two changes of players): what counts the round,
    the ``anderson`` scoring's value and the rotating trump, counts from it; the game's
    own rounds and actions are still numbered from 1.

    :raises RulesError: when the number of names is not the rules' player count.
    :raises ValueError: when ``dealer`` or ``keeper`` is not a seat.
    """

    __slots__ = ()

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str] | None = None,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        keeper: int | None = None,
        auto_deal: bool = True,
        first_round: int = 1,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"a game needs Rules, not {type(rules).__name__}")
        n = rules.player_count
        names = tuple(players) if players is not None else tuple(f"P{i + 1}" for i in range(n))
        if len(names) != n:
            raise RulesError(f"the rules are for {n} players but {len(names)} names were given")
        for seat in (dealer, keeper):
            if seat is not None:
                self._check_seat(seat, n)
        if isinstance(first_round, bool) or not isinstance(first_round, int) or first_round < 1:
            raise ValueError(f"first_round is a round's number (1 or more), not {first_round!r}")
        self._rules = rules
        self._players = names
        self._seed = secrets.randbits(63) if seed is None else seed
        self._auto_deal = auto_deal
        self._n = n
        self._sizes = rules.hand_sizes
        self._scoring = rules.scoring
        self._trump_must_break = rules.trump_lead is TrumpLead.BROKEN
        self._after_first = rules.trump_lead is TrumpLead.AFTER_FIRST_TRICK
        self._blind = rules.blind_one_card
        self._rotate = rules.trump is Trump.ROTATE
        self._simultaneous = rules.bidding is Bidding.SIMULTANEOUS
        self._free_bids = rules.dealer_bid is DealerBid.FREE
        self._last_bid = -1 if self._simultaneous else n - 1
        self._win_seat = self._lead_mask = self._lead_shift = 0
        self._win_card = DECK[0]  # read only once a card has led a trick
        dealer, self._dealer_draw = first_dealer(rules.first_dealer, self._seed, n, keeper, dealer)
        self._first_dealer = dealer
        self._totals = [0] * n
        self._results = []
        self._log = []
        self._last_finished = None
        self._round = -1
        self._counted_from = first_round
        self._size = 0
        self._phase = Phase.DEALING
        self._over = False
        self._dealer = (dealer - 1) % n
        self._start_round()

    @classmethod
    def after_rounds(
        cls,
        rules: Rules,
        players: Sequence[str],
        results: Sequence[RoundResult],
        *,
        dealer: int,
        last_trick: Trick | None = None,
        seed: int | None = None,
    ) -> Game:
        """A game waiting for ``dealer`` to deal the round after ``results``, its finished rounds taken
        as played (their totals are the game's; ``last_trick`` is the trick finished last; the log
        starts here): how search builds a game from a seat's view (:func:`upriver.branch.game_from_view`).

        :raises ValueError: when ``dealer`` is not a seat.
        """
        n, done = rules.player_count, len(results)
        cls._check_seat(dealer, n)
        game = cls(rules, players, seed=seed, dealer=(dealer - done) % n, auto_deal=False)
        game._round, game._dealer, game._results = done - 1, (dealer - 1) % n, list(results)
        game._start_round()
        game._totals = [sum(result.scores[seat] for result in results) for seat in range(n)]
        if last_trick is not None:
            game._last_finished = (last_trick.leader, last_trick.cards, last_trick.winner)
        return game

    @staticmethod
    def _check_seat(seat: object, n: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} does not exist: seats are 0 to {n - 1}")

    @overload
    def view(self, seat: int) -> SeatView: ...

    @overload
    def view(self, seat: None) -> TableView: ...

    def view(self, seat: int | None) -> SeatView | TableView:
        """What ``seat`` may know, and nothing more: the only object bots and clients receive.

        ``view(None)`` is a spectator's view: no hand, and under simultaneous bidding no
        bid until every seat has bid. In a blind round a seat sees the others' cards, not its own
        (:func:`upriver.view.view_of`).

        :raises ValueError: when ``seat`` is not a seat of this game.
        """
        if seat is None:
            return view_of(self, None, (), ())
        self._check_seat(seat, self._n)
        bids = self.legal_bids(seat) if self._phase is Phase.BIDDING else ()
        return view_of(self, seat, bids, self.legal_cards(seat))

    # --------------------------------------------------------------- dealing

    def _start_round(self) -> None:
        self._round += 1
        self._dealer = left_of(self._dealer, self._n)
        self._hands = [0] * self._n
        self._dealt = None
        self._turned = None
        self._trump = None
        self._trump_mask = 0
        self._blocked = 0
        self._deal_hands = None
        self._bids = [None] * self._n
        self._bids_made = 0
        self._tricks = [0] * self._n
        self._plays = []
        self._finished = []
        self._trick_records = []
        self._trick_cards = []
        self._broken = False
        self._leader = self._to_act = left_of(self._dealer, self._n)
        if self._round >= len(self._sizes):
            self._phase = Phase.OVER
            self._over = True
            return
        self._size = self._sizes[self._round]
        self._bid_range = tuple(range(self._size + 1))
        self._phase = Phase.DEALING
        if self._auto_deal:
            self.deal()

    def check_deal(self, hands: Sequence[Sequence[Card]] | None = None, turned: Card | None = None) -> None:
        """Raise :class:`IllegalActionError` unless this deal may start the round."""
        if self._phase is not Phase.DEALING:
            where = "over" if self._phase is Phase.OVER else f"{self._phase.value} round {self.round_number}"
            raise IllegalActionError(f"nothing can be dealt now: the game is {where}", rule="turn order")
        if hands is not None:
            check_hands(self.round_number, self.players, self._size, hands, turned, turn_up=not self._rotate)

    def deal(self, hands: Sequence[Sequence[Card]] | None = None, turned: Card | None = None) -> DealAction:
        """Deal the round: shuffled from the game's generator, or exactly these hands and turn-up."""
        self.check_deal(hands, turned)
        if hands is None:
            masks, turned = seeded_deal(seeded_rng(self._seed, self._round), self._n, self._size)
            if self._rotate:  # the same shuffle, and no card turned up
                turned = None
        else:
            masks = [mask_of(hand) for hand in hands]
        self._hands = masks
        self._dealt = tuple(masks)
        self._turned = turned
        rotated = rotating_trump(self._round + self._counted_from) if self._rotate else None
        self._set_trump(rotated if self._rotate else None if turned is None else turned.suit)
        self._deal_hands = tuple(map(cards_in, masks))
        action = DealAction(
            round=self._round + 1,
            dealer=self._dealer,
            hands=self._deal_hands,
            turned=turned,
            trump=self._trump,
        )
        self._log.append(action)
        self._phase = Phase.BIDDING
        return action

    def _set_trump(self, trump: Suit | None) -> None:
        """This round's trump; under a trump-lead rule, trumps may not be led yet."""
        self._trump = trump
        if trump is not None:
            self._trump_mask = SUIT_MASKS[trump]
            if self._trump_must_break or self._after_first:
                self._blocked = self._trump_mask

    def deal_at_table(self, trump: Suit | None = None) -> DealAction:
        """Start a round dealt with real cards: only bids and trick counts will be entered.

        When trump rotates, the round's trump follows the rotation and ``trump`` is ignored.
        """
        self.check_deal()
        self._trump = rotating_trump(self._round + self._counted_from) if self._rotate else trump
        action = DealAction(
            round=self._round + 1, dealer=self._dealer, hands=None, turned=None, trump=self._trump
        )
        self._log.append(action)
        self._phase = Phase.BIDDING
        return action

    # --------------------------------------------------------------- bidding

    def _bidder(self, seat: int | None) -> int:
        """The seat a bid is for, or raise if that seat may not bid now."""
        if self._phase is not Phase.BIDDING:
            raise out_of_phase_refusal(self, seat, "bid")
        if seat is None:
            return self._to_act
        if not 0 <= seat < self._n:
            raise IllegalActionError(f"seat {seat} does not exist: seats are 0 to {self._n - 1}", rule="seat")
        if self._simultaneous:
            if self._bids[seat] is not None:
                raise one_bid_refusal(self._players[seat], seat)
        elif seat != self._to_act:
            raise turn_refusal(self._players, self._to_act, seat, "bid")
        return seat

    def legal_bids(self, seat: int | None = None) -> tuple[int, ...]:
        """The bids ``seat`` (default: the seat to act) may make now; empty if it may not bid."""
        if seat is not None or self._phase is not _BIDDING:
            try:
                self._bidder(seat)
            except IllegalActionError:
                return ()
        if self._free_bids or self._bids_made != self._last_bid:
            return self._bid_range
        return dealer_bids(self._rules.dealer_bid, self._size, sum(b for b in self._bids if b is not None))

    def check_bid(self, bid: int, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError`, naming the player and rule, unless the bid is legal.

        :raises IllegalActionError: with ``rule`` "turn order", "one bid", "seat", "bid range",
            "hook" or "overbid", and the facts of the refusal.
        """
        seat = self._bidder(seat)
        name, size = self.players[seat], self._size
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= size:
            raise bid_range_refusal(name, seat, bid, size)
        restriction = self.bid_restriction(seat)
        if restriction is not None and bid in restriction.forbidden:
            raise restriction.refusal(bid, name)

    def bid_restriction(self, seat: int | None = None) -> BidRestriction | None:
        """The dealer's restriction on this bid, when it forbids any bid; else ``None``.

        Only the last bid of a round under the hook or overbid rule is restricted, so
        this is ``None`` for every other seat, under free dealer bids and under
        simultaneous bidding.
        """
        legal = self.legal_bids(seat)
        if self._free_bids or not legal or self._bids_made != self._last_bid:
            return None
        return restriction_of(self, legal)

    def can_bid(self, bid: int, seat: int | None = None) -> bool:
        """Whether :meth:`bid` would accept this bid."""
        return type(bid) is int and bid in self.legal_bids(seat)

    def bid(self, bid: int, seat: int | None = None) -> BidAction:
        """Make a bid for ``seat`` (default: the seat to act).

        :raises IllegalActionError: as :meth:`check_bid`; the game is unchanged.
        """
        # The common case (the seat to act, a whole number in range, not a restricted last
        # bid) is recognised cheaply; anything else goes through the full check, which raises.
        if (
            seat is not None
            or self._phase is not _BIDDING
            or type(bid) is not int
            or not 0 <= bid <= self._size
            or (self._bids_made == self._last_bid and not self._free_bids)
        ) and not self.can_bid(bid, seat):
            self.check_bid(bid, seat)
        if seat is None:
            seat = self._to_act
        action = _new(BidAction, (self._round + 1, seat, bid))
        self._log.append(action)
        self._bids[seat] = bid
        self._bids_made += 1
        n = self._n
        if self._bids_made == n:
            self._phase = _PLAYING if self._dealt is not None else Phase.TRICKS
            self._to_act = self._leader
            if self._blind and self._size == 1 and self._dealt is not None:
                # Blind: nobody may see their own card, the only one they hold, so it is played for them.
                for _ in range(n):
                    self.play(cards_in(self._hands[self._to_act])[0])
        elif self._simultaneous:
            self._to_act = next(s for s in self.bidding_order if self._bids[s] is None)
        else:
            self._to_act = (seat + 1) % n
        return action

    # ------------------------------------------------------------------ play

    def _legal_mask(self) -> int:
        hand = self._hands[self._to_act]
        if self._trick_cards:
            return hand & self._lead_mask or hand
        return hand & ~self._blocked or hand

    def legal_cards(self, seat: int | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` (default: the seat to act) may play now; empty if not its turn."""
        if self._phase is not _PLAYING or (seat is not None and seat != self._to_act):
            return ()
        hand = self._hands[self._to_act]
        if self._trick_cards:
            held = hand & self._lead_mask
            if held:  # following suit: the cards of one suit, in one table look-up
                return _CARDS_AT_SHIFT[self._lead_shift][held >> self._lead_shift]
            return cards_in(hand)
        return cards_in(hand & ~self._blocked or hand)

    def _card(self, card: Card | str, actor: int) -> Card:
        """The card meant by ``card`` (a card or its text), or raise naming the player."""
        if type(card) is Card:
            return card
        if isinstance(card, str):
            try:
                return Card.parse(card)
            except NotationError:
                pass
        raise card_refusal(self.players[actor], actor, card)

    def check_play(self, card: Card | str, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError`, naming the player and rule, unless the card is legal.

        ``card`` is a :class:`Card` or its text (``"TH"``, ``"10h"``).

        :raises IllegalActionError: with ``rule`` "turn order", "card", "card in hand",
            "follow suit" or "trump broken", and the facts of the refusal.
        """
        if self._phase is not Phase.PLAYING:
            raise out_of_phase_refusal(self, seat, "play a card")
        actor = self._to_act
        name = self.players[actor]
        if seat is not None and seat != actor:
            raise turn_refusal(self._players, actor, seat, "play")
        card = self._card(card, actor)
        hand = self._hands[actor]
        if not hand & card.mask:
            raise not_held_refusal(name, actor, card)
        if not card.mask & self._legal_mask():
            raise card_rule_refusal(self, actor, card)

    def can_play(self, card: Card | str, seat: int | None = None) -> bool:
        """Whether :meth:`play` would accept this card (a :class:`Card` or its text)."""
        if self._phase is not Phase.PLAYING or (seat is not None and seat != self._to_act):
            return False
        if type(card) is not Card:
            try:
                card = self._card(card, self._to_act)
            except IllegalActionError:
                return False
        return bool(card.mask & self._legal_mask())

    def play(self, card: Card | str, seat: int | None = None) -> PlayAction:
        """Play ``card`` (a :class:`Card` or its text) for the seat to act.

        ``seat``, if given, must be the seat to act.

        :raises IllegalActionError: as :meth:`check_play`; the game is unchanged.
        """
        actor = self._to_act
        if type(card) is not Card:
            if self._phase is not _PLAYING:
                self.check_play(card, seat)
            card = self._card(card, actor)
        mask = card.mask
        hand = self._hands[actor]
        cards = self._trick_cards
        # The common case is recognised with a few integer tests; anything else goes through
        # the full check, which raises with the rule broken.
        if self._phase is not _PLAYING or (seat is not None and seat != actor) or not hand & mask:
            self.check_play(card, seat)
        trump = self._trump_mask
        if cards:
            lead = self._lead_mask
            if not mask & lead and hand & lead:
                self.check_play(card, seat)
            if beats(card, self._win_card, self._trump):
                self._win_seat = actor
                self._win_card = card
        else:
            blocked = self._blocked
            if mask & blocked and hand & ~blocked:
                self.check_play(card, seat)
            index = card.index
            self._lead_mask = _SUIT_MASK_OF[index]
            self._lead_shift = _SHIFT_OF[index]
            self._win_seat = actor
            self._win_card = card
            if self._after_first:  # trump may lead every trick after the first
                self._blocked = 0
        # Recorded only once the card is known to be legal: a refusal above changes nothing.
        action = _new(PlayAction, (self._round + 1, actor, card))
        self._log.append(action)
        self._hands[actor] = hand ^ mask
        self._plays.append(card)
        if mask & trump:
            self._broken = True
            self._blocked = 0
        cards.append(card)
        if len(cards) < self._n:
            self._to_act = (actor + 1) % self._n
            return action
        winner = self._win_seat
        finished = (self._leader, tuple(cards), winner)
        self._finished.append(finished)
        self._last_finished = finished
        self._tricks[winner] += 1
        self._trick_cards = []
        self._leader = self._to_act = winner
        if len(self._finished) == self._size:
            self._finish_round()
        return action

    # ------------------------------------------------------------------ moves

    def check_move(self, move: Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless :meth:`move` would accept ``move``.

        A ``bool`` is neither a bid nor a card and is refused as a card.
        """
        if isinstance(move, int) and not isinstance(move, bool):
            self.check_bid(move, seat)
        else:
            self.check_play(move, seat)  # type: ignore[arg-type]  # check_play names a non-card

    def can_move(self, move: Move, seat: int | None = None) -> bool:
        """Whether :meth:`move` would accept ``move``."""
        if type(move) is int:
            return self.can_bid(move, seat)
        return not isinstance(move, int) and self.can_play(move, seat)

    def move(self, move: Move, seat: int | None = None) -> BidAction | PlayAction:
        """Make a move for ``seat`` (default: the seat to act): a bid if ``move`` is an ``int``,
        else the card it is or names. The one entry point for code that handles both.

        :raises IllegalActionError: as :meth:`check_bid` or :meth:`check_play`; nothing changes.
        """
        if type(move) is int:
            return self.bid(move, seat)
        if isinstance(move, int):
            self.check_move(move, seat)
        return self.play(move, seat)  # type: ignore[arg-type]

    def can_claim(self, seat: int) -> bool:
        """Whether ``seat`` may claim the rest of the round now: judged from what the seat may know,
        its cards taking every trick left whatever the cards it cannot see (:mod:`upriver.claims`)."""
        return claim_refusal(self, seat) is None

    def check_claim(self, seat: int) -> None:
        """Raise :class:`IllegalActionError` (rule ``claim``, the fact ``case``) unless the claim holds."""
        refusal = claim_refusal(self, seat)
        if refusal is not None:
            raise refusal

    def claim(self, seat: int) -> Claim:
        """Finish the round by ``seat``'s claim, as ordinary plays of one canonical line; what it held."""
        self.check_claim(seat)
        return play_out(self, seat)

    # --------------------------------------------------- score-only rounds

    def check_tricks(self, tricks: Sequence[int]) -> None:
        """Raise :class:`IllegalActionError` unless these trick counts may end a real-table round."""
        check_trick_counts(self, tricks)

    def record_tricks(self, tricks: Sequence[int]) -> TricksAction:
        """End a real-table round with the tricks each seat took, in seat order."""
        self.check_tricks(tricks)
        action = TricksAction(round=self._round + 1, tricks=tuple(tricks))
        self._log.append(action)
        self._tricks = list(tricks)
        self._finish_round()
        return action

    # --------------------------------------------------------------- scoring

    def _finish_round(self) -> None:
        bids = cast(tuple[int, ...], tuple(self._bids))  # every seat has bid when a round ends
        tricks = tuple(self._tricks)
        number = repeat(self._round + self._counted_from, self._n)
        scores = tuple(map(round_score, repeat(self._scoring, self._n), bids, tricks, number))
        totals = self._totals
        for seat, score in enumerate(scores):
            totals[seat] += score
        self._results.append(
            RoundResult(
                number=self._round + 1,
                hand_size=self._size,
                dealer=self._dealer,
                turned=self._turned,
                trump=self._trump,
                hands=self._deal_hands,
                bids=bids,
                plays=None if self._dealt is None else tuple(self._plays),
                tricks_won=tricks,
                scores=scores,
            )
        )
        self._start_round()
