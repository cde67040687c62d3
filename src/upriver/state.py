"""The read side of a game: what has happened and what is on the table, as read-only values.

:class:`GameState` holds a game's state and answers questions about it;
:class:`upriver.game.Game` adds the actions that change it. Every public value is
a tuple or another immutable object, so nothing read here can alter the game.
"""

from __future__ import annotations

from typing import NamedTuple, Self

from upriver.actions import Action, Phase, RoundResult, Trick, standings_of
from upriver.cards import Card, Suit, cards_in
from upriver.deal import left_of
from upriver.rules import Rules
from upriver.scoring import ScoringRule

__all__ = ["GameState", "Position"]

_new = object.__new__
_new_tuple = tuple.__new__


class Position(NamedTuple):
    """Where the cards of the round stand, as bit sets of card masks (:attr:`~upriver.cards.Card.mask`):
    what a search on a copy reads at every step (:mod:`upriver.claims`) without building tuples of
    cards. Between rounds, and in a round played with real cards, the hands are empty (0). A named
    tuple, as the actions are: built at every step of a search, it must cost little."""

    hands: tuple[int, ...]
    """Each seat's cards now, as a bit set."""
    trick: tuple[Card, ...]
    """The cards on the table, in play order, the first led by ``leader``."""
    leader: int
    """The seat that leads (or led) the trick on the table."""
    remaining: int
    """The tricks of the round not yet finished, the one on the table counted."""
    trump: int
    """The trump suit's bit set; 0 in a round without trump."""
    blocked: int
    """The cards that may not be led now: the trumps, until the trump-lead rule lets them lead."""
    trump_broken: bool
    """Whether a trump has been played this round."""


class GameState:
    """A game's state and its read-only accessors; see :class:`upriver.game.Game`."""

    __slots__ = (
        "_after_first",
        "_auto_deal",
        "_bid_range",
        "_bids",
        "_bids_made",
        "_blind",
        "_blocked",
        "_broken",
        "_counted_from",
        "_deal_hands",
        "_dealer",
        "_dealer_draw",
        "_dealt",
        "_finished",
        "_first_dealer",
        "_free_bids",
        "_hands",
        "_last_bid",
        "_last_finished",
        "_lead_mask",
        "_lead_shift",
        "_leader",
        "_log",
        "_n",
        "_over",
        "_phase",
        "_players",
        "_plays",
        "_results",
        "_rotate",
        "_round",
        "_rules",
        "_scoring",
        "_seed",
        "_simultaneous",
        "_size",
        "_sizes",
        "_to_act",
        "_totals",
        "_trick_cards",
        "_trick_records",
        "_tricks",
        "_trump",
        "_trump_mask",
        "_trump_must_break",
        "_turned",
        "_win_card",
        "_win_seat",
    )

    _rules: Rules
    # Trump may not lead the first trick (the trump-lead rule "after-first-trick"); the one-card round is
    # played blind; trump rotates round by round instead of being turned up.
    _after_first: bool
    _blind: bool
    _rotate: bool
    _counted_from: int
    """The number the game's first round counts as (its own rounds are numbered from 1)."""
    _players: tuple[str, ...]
    _seed: int
    _auto_deal: bool
    _dealer_draw: tuple[tuple[int, Card], ...]
    _first_dealer: int
    _free_bids: bool
    _bid_range: tuple[int, ...]
    _bids: list[int | None]
    _bids_made: int
    # Cards that may not be led now: the trumps until trump is broken, where it must be.
    _blocked: int
    _broken: bool
    # This round's dealt hands as the deal recorded them (None at a real table).
    _deal_hands: tuple[tuple[Card, ...], ...] | None
    _dealer: int
    _dealt: tuple[int, ...] | None
    # This round's finished tricks as (leader, cards, winner); Trick records are built on request.
    _finished: list[tuple[int, tuple[Card, ...], int]]
    # Each seat's cards as a bit set of card masks.
    _hands: list[int]
    # The last trick finished in the game, kept past the end of its round.
    _last_finished: tuple[int, tuple[Card, ...], int] | None
    # The value of _bids_made when the last (the dealer's) bid is due; -1 under simultaneous bidding.
    _last_bid: int
    # The led suit's bit set, and the shift that brings its bits down to 0.
    _lead_mask: int
    _lead_shift: int
    _leader: int
    _log: list[Action]
    _n: int
    _over: bool
    _phase: Phase
    _plays: list[Card]
    _results: list[RoundResult]
    _round: int
    _scoring: ScoringRule
    _simultaneous: bool
    _size: int
    _sizes: tuple[int, ...]
    _to_act: int
    _totals: list[int]
    _trick_cards: list[Card]
    # Trick records of this round's finished tricks, built on first request and kept.
    _trick_records: list[Trick]
    _tricks: list[int]
    _trump: Suit | None
    _trump_mask: int
    _trump_must_break: bool
    _turned: Card | None
    # The card winning the trick so far (actions.beats judges each card against it) and its seat.
    _win_card: Card
    _win_seat: int

    def copy(self, *, log: bool = True) -> Self:
        """An independent copy of the game, for search that tries moves and throws them away.

        Moves made on the copy never change the original, and the other way round. It
        costs about as much as two or three moves (``python bench/engine.py`` measures
        copies a second beside moves a second): the game's lists are copied, everything
        they hold (cards, tricks, results, actions) is immutable and shared; the action
        log is one of those lists, so a copy late in a long game costs a little more. With
        ``log=False`` the copy's log starts empty (everything else is the same), for a search
        that never reads it.
        """
        twin = _new(type(self))
        # The lists are the only values ever changed in place: each copy has its own.
        twin._bids = self._bids.copy()
        twin._finished = self._finished.copy()
        twin._hands = self._hands.copy()
        twin._log = self._log.copy() if log else []
        twin._plays = self._plays.copy()
        twin._results = self._results.copy()
        twin._totals = self._totals.copy()
        twin._trick_cards = self._trick_cards.copy()
        twin._trick_records = self._trick_records.copy()
        twin._tricks = self._tricks.copy()
        # Every other value is immutable, and shared.
        twin._after_first = self._after_first
        twin._auto_deal = self._auto_deal
        twin._bid_range = self._bid_range
        twin._bids_made = self._bids_made
        twin._blind = self._blind
        twin._blocked = self._blocked
        twin._broken = self._broken
        twin._counted_from = self._counted_from
        twin._deal_hands = self._deal_hands
        twin._dealer = self._dealer
        twin._dealer_draw = self._dealer_draw
        twin._dealt = self._dealt
        twin._first_dealer = self._first_dealer
        twin._free_bids = self._free_bids
        twin._last_bid = self._last_bid
        twin._last_finished = self._last_finished
        twin._lead_mask = self._lead_mask
        twin._lead_shift = self._lead_shift
        twin._leader = self._leader
        twin._n = self._n
        twin._over = self._over
        twin._phase = self._phase
        twin._players = self._players
        twin._rotate = self._rotate
        twin._round = self._round
        twin._rules = self._rules
        twin._scoring = self._scoring
        twin._seed = self._seed
        twin._simultaneous = self._simultaneous
        twin._size = self._size
        twin._sizes = self._sizes
        twin._to_act = self._to_act
        twin._trump = self._trump
        twin._trump_mask = self._trump_mask
        twin._trump_must_break = self._trump_must_break
        twin._turned = self._turned
        twin._win_card = self._win_card
        twin._win_seat = self._win_seat
        return twin

    def position(self) -> Position:
        """Where the cards of the round stand now, as bit sets (see :class:`Position`)."""
        return _new_tuple(
            Position,
            (
                tuple(self._hands),
                tuple(self._trick_cards),
                self._leader,
                self._size - len(self._finished),
                self._trump_mask,
                self._blocked,
                self._broken,
            ),
        )

    @property
    def rules(self) -> Rules:
        """The rules the game is played under."""
        return self._rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seating order, clockwise."""
        return self._players

    @property
    def seed(self) -> int:
        """Every random choice of the game follows from it (a random one when none was given)."""
        return self._seed

    @property
    def auto_deal(self) -> bool:
        """Whether each round is dealt from the seed as soon as it starts; may be switched on and off."""
        return self._auto_deal

    @auto_deal.setter
    def auto_deal(self, value: bool) -> None:
        self._auto_deal = value

    @property
    def dealer_draw(self) -> tuple[tuple[int, Card], ...]:
        """The face-up cards dealt to choose the first dealer (first-Jack rule), in order."""
        return self._dealer_draw

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first round."""
        return self._first_dealer

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """Whether the last round of the schedule has been scored."""
        return self._over

    @property
    def round_number(self) -> int:
        """The current round, 1-based (the last round once the game is over)."""
        return min(self._round, len(self._sizes) - 1) + 1

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player this round."""
        return self._sizes[min(self._round, len(self._sizes) - 1)]

    @property
    def dealer(self) -> int:
        """The seat dealing this round."""
        return self._dealer

    @property
    def to_act(self) -> int | None:
        """The seat whose bid or card is awaited (under simultaneous bidding, the first still to bid)."""
        if self._phase is Phase.BIDDING or self._phase is Phase.PLAYING:
            return self._to_act
        return None

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat that may act now: all pending bidders under simultaneous bidding."""
        if self._phase is Phase.BIDDING and self._simultaneous:
            return tuple(s for s in self.bidding_order if self._bids[s] is None)
        seat = self.to_act
        return () if seat is None else (seat,)

    @property
    def bidding_order(self) -> tuple[int, ...]:
        """Seats in bidding order: left of the dealer first, the dealer last."""
        n = self._n
        return tuple(left_of(self._dealer, n, 1 + i) for i in range(n))

    @property
    def turned(self) -> Card | None:
        """The card turned up for trump this round, or ``None`` (no card left, or a real table)."""
        return self._turned

    @property
    def trump(self) -> Suit | None:
        """This round's trump suit, or ``None`` for a round without trump."""
        return self._trump

    @property
    def bids(self) -> tuple[int | None, ...]:
        """This round's bids in seat order; ``None`` where a seat has not bid."""
        return tuple(self._bids)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each seat has taken this round."""
        return tuple(self._tricks)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick on the table: (seat, card) in play order."""
        n = self._n
        return tuple(((self._leader + i) % n, card) for i, card in enumerate(self._trick_cards))

    @property
    def leader(self) -> int | None:
        """The seat that leads (or led) the current trick."""
        return self._leader if self._phase is Phase.PLAYING else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this round."""
        records = self._trick_records
        records.extend(self._trick_record(finished) for finished in self._finished[len(records) :])
        return tuple(records)

    @property
    def last_trick(self) -> Trick | None:
        """The trick finished last, even when it ended its round; ``None`` before the first."""
        return None if self._last_finished is None else self._trick_record(self._last_finished)

    def _trick_record(self, finished: tuple[int, tuple[Card, ...], int]) -> Trick:
        leader, cards, winner = finished
        n = self._n
        plays = tuple(((leader + i) % n, card) for i, card in enumerate(cards))
        return Trick(leader=leader, plays=plays, winner=winner)

    @property
    def blind(self) -> bool:
        """Whether this round's cards are held blind: a one-card round under ``blind_one_card``,
        dealt and not yet played, so each seat sees every other seat's card but not its own."""
        return self._blind and self._size == 1 and self._dealt is not None and self._phase is Phase.BIDDING

    @property
    def trump_broken(self) -> bool:
        """Whether a trump has been played this round (it may then be led)."""
        return self._broken

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Every finished round, first to last."""
        return tuple(self._results)

    @property
    def log(self) -> tuple[Action, ...]:
        """Every accepted action, in order."""
        return tuple(self._log)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, sorted by suit then rank."""
        return cards_in(self._hands[seat])

    def dealt_hand(self, seat: int) -> tuple[Card, ...] | None:
        """The cards ``seat`` was dealt this round (``None`` at a real table)."""
        return None if self._dealt is None else cards_in(self._dealt[seat])

    @property
    def plays(self) -> tuple[Card, ...]:
        """The cards played so far this round, in order."""
        return tuple(self._plays)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's points from the finished rounds."""
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the most points once the game is over (ties share the win); empty before."""
        if self._phase is not Phase.OVER:
            return ()
        best = max(self._totals)
        return tuple(s for s in range(self._n) if self._totals[s] == best)

    def standings(self) -> tuple[tuple[int, int, int], ...]:
        """``(place, seat, total)`` from first to last; tied seats share a place."""
        return standings_of(self._totals)
