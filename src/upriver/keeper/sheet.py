"""The score keeper: the sources' paper score sheet for a game played with real cards.

A :class:`KeptSheet` holds what a keeper writes down — the players, the rules, who
deals first (or who got the first Jack), and per round the bids, the tricks and,
optionally, the trump suit — and nothing it could work out. Every rule is the
engine's: after each entry the whole sheet is replayed through a fresh
:class:`~upriver.game.Game` (``deal_at_table``, ``bid``, ``record_tricks``), so the
scores, the dealer, the bidding order and every refusal come from the engine, and an
edit of an earlier round recomputes and re-checks everything after it.

An entry that is itself illegal (a hook bid, tricks that do not add up) is refused with
the engine's message and changes nothing. An edit that would make a *later* round
illegal is kept, and that later round is flagged (:attr:`KeptSheet.flag`) until it is
fixed, so no entry is ever lost. Only a change of the first dealer can do that (under
overbid, whose exception depends on who bids last, or to bids of the round in progress,
now out of turn): each round's entries are checked against its own hand size and dealer
only, so an edit of one round's bids or tricks never breaks another round.

A real evening — a late arrival, an early departure, a round sat out, a bonus or a penalty,
a schedule changed mid-game — is followed as :mod:`upriver.keeper.evening` describes: each
run of rounds played by the same players is its own engine game.

>>> from upriver import preset
>>> sheet = KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], preset("countdown", 4, max_cards=2), dealer=0)
>>> sheet.hand_size, sheet.players[sheet.dealer], sheet.players[sheet.bidding_order[0]]
(2, 'Ann', 'Bob')
>>> for seat, bid in ((1, 1), (2, 0), (3, 0)):
...     sheet.enter_bid(seat, bid)
>>> restriction = sheet.bid_restriction()
>>> restriction.forbidden, restriction.reason
((1,), 'with the hook, the bids may not total 2, the number of tricks (the others bid 1)')
>>> sheet.enter_bid(0, 1)
Traceback (most recent call last):
...
upriver.errors.IllegalActionError: Ann may not bid 1: with the hook, ...; Ann may bid 0 or 2
>>> sheet.enter_bid(0, 0)
>>> sheet.enter_tricks([1, 2, 0, 0])
Traceback (most recent call last):
...
upriver.errors.IllegalActionError: round 1: the tricks add up to 3, but 2 were played
>>> sheet.enter_tricks([1, 1, 0, 0])
>>> sheet.totals, sheet.headline
((1, 11, 10, 10), 'Bob leads with 11')
>>> [cell.total for cell in sheet.score_sheet.rows[0].cells]
[1, 11, 10, 10]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from upriver.cards import Suit
from upriver.errors import IllegalActionError, RulesError
from upriver.keeper import changes
from upriver.keeper.entries import (
    Adjustment,
    Flag,
    KeptRound,
    SheetEntries,
    Start,
    Waiting,
)
from upriver.keeper.state import SheetState
from upriver.names import TextError, check_names, text_line
from upriver.options import Bidding
from upriver.rules import FirstDealer, Rules

__all__ = ["NOTE_LENGTH", "KeptSheet", "Waiting"]

NOTE_LENGTH = 80
"""The most characters of an adjustment's note."""

_UNSET = object()


class KeptSheet(SheetState):
    """A score sheet for a real table: entries checked and scored by replaying them through the engine.

    Make one with :meth:`start` or :meth:`from_record`. Every operation either applies
    whole or raises :class:`IllegalActionError` and changes nothing. Where the sheet stands is
    :class:`~upriver.keeper.state.SheetState`'s.
    """

    # ------------------------------------------------------------ making

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        rules: Rules,
        *,
        dealer: int | None = None,
        first_jack: bool | None = None,
        title: str = "",
    ) -> KeptSheet:
        """A new sheet. ``dealer`` deals first; or, with ``first_jack`` (the default under the
        first-Jack rule when no dealer is given), the sheet waits for :meth:`first_jack`.

        Without either, the rules choose: left of the keeper (the keeper being the last seat)
        is seat 0, and a chosen dealer defaults to seat 0. The names are read as every entry
        point reads them (:func:`upriver.names.check_names`), so a stored sheet can always be
        read back.

        :raises RulesError: when the number of names is not the rules' player count.
        :raises PlayerNameError: (a ``ValueError``) for the first name that may not be used.
        :raises ValueError: when ``dealer`` is not a seat, or is given with ``first_jack``.
        """
        if len(players) != rules.player_count:
            raise RulesError(
                f"the rules are for {rules.player_count} players but {len(players)} names were given"
            )
        names = check_names(players)
        if dealer is not None and not 0 <= dealer < len(names):
            raise ValueError(f"seat {dealer} does not exist: seats are 0 to {len(names) - 1}")
        if first_jack is None:
            first_jack = dealer is None and rules.first_dealer is FirstDealer.FIRST_JACK
        if first_jack and dealer is not None:
            raise ValueError("give a first dealer or follow the first-Jack procedure, not both")
        first = None if first_jack else (0 if dealer is None else dealer)
        return cls(
            rules, names, SheetEntries(first_dealer=first, jack=None), title=title, jack_procedure=first_jack
        )

    def _commit(self, entries: SheetEntries, touched: int) -> None:
        """Adopt ``entries`` unless the engine refuses round ``touched`` (1-based) or one before it.

        A refusal of a later round is kept as :attr:`flag`: the later round is the keeper's
        to fix, and refusing the edit would throw away what was just typed.
        """
        segments, flag = self._replay(entries)
        if flag is not None and flag.round <= touched:
            if flag.round == touched:
                raise IllegalActionError(flag.message, rule=flag.rule, seat=flag.seat, facts=flag.facts)
            raise self._fix_first(flag)
        self.history.append(self.entries)
        self.entries, self.segments, self.flag = entries, segments, flag

    @staticmethod
    def _fix_first(flag: Flag) -> IllegalActionError:
        return IllegalActionError(
            f"round {flag.round} must be fixed first (edit it, or undo): {flag.message}",
            rule="fix first",
            seat=flag.seat,
            facts={"round": flag.round, "flagged": flag.rule},
        )

    # ----------------------------------------------------------- entering

    def _open_round(self) -> tuple[list[KeptRound], int]:
        """The rounds with the current one open for entries (a new one once the last is scored)."""
        self._game()
        if self.flag is not None:
            raise self._fix_first(self.flag)
        if self.is_over:
            raise IllegalActionError(
                "the game is over: every round is entered (to change one, edit it)", rule="game over"
            )
        rounds = list(self.entries.rounds)
        if not rounds or rounds[-1].tricks is not None:
            rounds.append(KeptRound(bids=(None,) * len(self.players)))
        return rounds, len(rounds)

    def _with_rounds(self, rounds: Sequence[KeptRound]) -> SheetEntries:
        return dataclasses.replace(self.entries, rounds=tuple(rounds))

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.players):
            raise IllegalActionError(
                f"this sheet has no such player: its players are {', '.join(self.players)}",
                rule="seat",
                facts={"case": "no player", "players": list(self.players)},
            )

    def enter_bid(self, seat: int | None, bid: int) -> None:
        """Enter one bid for ``seat`` (``None``: the next bidder) in the current round."""
        rounds, k = self._open_round()
        if seat is None:
            waiting = self.to_bid or self.bidding_order
            seat = waiting[0]
        self._seat(seat)
        current = rounds[-1]
        name = self.players[seat]
        if seat not in self.playing(k):
            raise IllegalActionError(
                f"{name} does not play round {k}",
                rule="roster",
                seat=seat,
                facts={"case": "not playing", "player": name, "round": k},
            )
        if current.bid(seat) is not None:
            raise IllegalActionError(
                f"{name} has already bid {current.bid(seat)} in round {k}; "
                f"to change it, edit round {k} or undo",
                rule="one bid",
                seat=seat,
                facts={"case": "already", "player": name, "bid": current.bid(seat), "round": k},
            )
        waiting = self.to_bid
        if waiting and seat not in waiting:
            raise IllegalActionError(
                f"it is {self.players[waiting[0]]}'s turn to bid, not {name}'s",
                rule="turn order",
                seat=seat,
                facts={"case": "keeper", "player": name, "next": self.players[waiting[0]]},
            )
        self._in_hand(seat, bid, "bids", k)
        bids = [current.bid(s) for s in range(len(self.players))]
        bids[seat] = bid
        rounds[-1] = dataclasses.replace(current, bids=tuple(bids))
        self._commit(self._with_rounds(rounds), k)

    def enter_bids(self, bids: Sequence[int | None]) -> None:
        """Enter every bid of the current round at once, in seat order (closed fists, or a quick keeper)."""
        rounds, k = self._open_round()
        current = rounds[-1]
        if any(b is not None for b in current.bids):
            raise IllegalActionError(
                f"some bids of round {k} are already entered; enter the others one by one, or edit round {k}",
                rule="one bid",
                facts={"case": "some entered", "round": k},
            )
        rounds[-1] = dataclasses.replace(current, bids=self._checked(bids, "bids", k))
        self._commit(self._with_rounds(rounds), k)

    def enter_tricks(self, tricks: Sequence[int | None]) -> None:
        """Enter the tricks each seat took (seat order); refused unless they add up to the hand size."""
        rounds, k = self._open_round()
        entry = dataclasses.replace(rounds[-1], tricks=self._checked(tricks, "trick counts", k))
        self._bids_in(entry, k)
        rounds[-1] = entry
        self._commit(self._with_rounds(rounds), k)

    def _bids_in(self, entry: KeptRound, k: int) -> None:
        """Refuse round ``k``'s tricks while a player of it has not bid (the engine's order of a round)."""
        if entry.tricks is None:
            return
        missing = [self.players[seat] for seat in self.playing(k) if entry.bid(seat) is None]
        if missing:
            raise IllegalActionError(
                f"round {k}: trick counts are entered after the bids; still to bid: {', '.join(missing)}",
                rule="turn order",
                facts={"case": "tricks first", "round": k, "waiting": ", ".join(missing)},
            )

    def _in_turn(self, entry: KeptRound, k: int) -> None:
        """Refuse the round in play's bids unless those entered are the first in bidding order (a gap
        before a later bid would be a bid out of turn); under simultaneous bidding any may be in."""
        if entry.tricks is not None or k != self.current or self.rules.bidding is Bidding.SIMULTANEOUS:
            return
        order = self.bidding_order
        entered = [entry.bid(seat) is not None for seat in order]
        if False not in entered:
            return
        gap = entered.index(False)
        late = [seat for seat, made in zip(order[gap:], entered[gap:], strict=True) if made]
        if late:
            name, turn = self.players[late[0]], self.players[order[gap]]
            raise IllegalActionError(
                f"it is {turn}'s turn to bid, not {name}'s",
                rule="turn order",
                seat=late[0],
                facts={"case": "keeper", "player": name, "next": turn},
            )

    def _in_hand(self, seat: int, value: int | None, what: str, k: int) -> None:
        """Refuse a bid or a trick count of ``seat`` that is not from 0 to round ``k``'s hand size."""
        sizes = self.schedule
        if value is None or k > len(sizes) or 0 <= value <= sizes[k - 1]:
            return
        name, size = self.players[seat], sizes[k - 1]
        if what == "bids":
            raise IllegalActionError(
                f"{name} may not bid {value}: a bid is a whole number from 0 to {size}, the cards in hand",
                rule="bid range",
                seat=seat,
                facts={"case": "keeper", "player": name, "bid": value, "most": size, "round": k},
            )
        raise IllegalActionError(
            f"{name} cannot have taken {value} tricks in round {k}: a hand has {size} cards",
            rule="tricks",
            seat=seat,
            facts={"case": "keeper", "player": name, "tricks": value, "most": size, "round": k},
        )

    def note_trump(self, suit: Suit | None, round_number: int | None = None) -> None:
        """Note the trump suit of the current round (or of round ``round_number``); ``None`` clears it."""
        if round_number is not None and round_number <= len(self.entries.rounds):
            self.edit_round(round_number, trump=suit)
            return
        rounds, k = self._open_round()
        rounds[-1] = dataclasses.replace(rounds[-1], trump=suit)
        self._commit(self._with_rounds(rounds), k)

    def _checked(
        self, values: Sequence[int | None], what: str, k: int, *, partial: bool = False
    ) -> tuple[int | None, ...]:
        """A round's values in seat order: one per seat, a number for each seat playing round ``k``,
        nothing for the others (``partial``: bids not yet entered may be missing too)."""
        n, playing = len(self.players), self.playing(k)
        if len(values) != n:
            raise IllegalActionError(
                f"round {k} needs {what} for {n} players, not {len(values)}",
                rule=what,
                facts={"case": "count", "round": k, "players": n, "given": len(values)},
            )
        for seat, value in enumerate(values):
            name = self.players[seat]
            self._in_hand(seat, value, what, k)
            if seat not in playing and value is not None:
                raise IllegalActionError(
                    f"{name} does not play round {k}: leave that entry empty",
                    rule="roster",
                    seat=seat,
                    facts={"case": "not playing entry", "player": name, "round": k},
                )
            if seat in playing and value is None and not partial:
                raise IllegalActionError(
                    f"round {k} needs {what} for {name}",
                    rule=what,
                    seat=seat,
                    facts={"case": "missing", "player": name, "round": k},
                )
        return tuple(values)

    # ------------------------------------------------------------ fixing

    def edit_round(
        self,
        number: int,
        *,
        bids: Sequence[int | None] | None = None,
        tricks: Sequence[int | None] | None = None,
        trump: Suit | object | None = _UNSET,
    ) -> None:
        """Change round ``number``'s bids, tricks or trump; the whole sheet is re-checked and re-scored.

        Refused, with the engine's message, if the round itself would break a rule;
        a later round that no longer passes is flagged (see the module's notes).
        """
        self._game()
        rounds = list(self.entries.rounds)
        if not 1 <= number <= len(rounds):
            raise IllegalActionError(
                f"round {number} has not been entered; rounds 1 to {len(rounds)} can be edited"
                if rounds
                else "no round has been entered yet",
                rule="edit",
                facts={"case": "not entered", "round": number, "last": len(rounds)}
                if rounds
                else {"case": "none"},
            )
        entry = rounds[number - 1]
        if bids is not None:
            entry = dataclasses.replace(entry, bids=self._checked(bids, "bids", number, partial=True))
        if tricks is not None:
            entry = dataclasses.replace(entry, tricks=self._checked(tricks, "trick counts", number))
        self._bids_in(entry, number)
        self._in_turn(entry, number)
        if trump is not _UNSET:
            assert trump is None or isinstance(trump, Suit)
            entry = dataclasses.replace(entry, trump=trump)
        rounds[number - 1] = entry
        self._commit(self._with_rounds(rounds), number)

    def set_first_dealer(self, seat: int) -> None:
        """Change who dealt the first round; every round's dealer follows, and each is re-checked."""
        self._seat(seat)
        jack = seat if self.jack_procedure else None
        self._commit(dataclasses.replace(self.entries, first_dealer=seat, jack=jack), 0)

    def first_jack(self, seat: int) -> None:
        """Record who was dealt the first Jack: that seat deals the first round."""
        if not self.jack_procedure:
            raise IllegalActionError(
                "this sheet's first dealer was chosen, not found by the first Jack",
                rule="first jack",
                facts={"case": "chosen"},
            )
        self.set_first_dealer(seat)

    def undo(self) -> None:
        """Take back the last entry or edit (the start of the sheet cannot be undone)."""
        if not self.history:
            raise IllegalActionError("there is nothing to undo", rule="undo")
        self.entries = self.history.pop()
        self.segments, self.flag = self._replay(self.entries)

    # ------------------------------------------------------- the evening

    def _between_rounds(self, what: str) -> int:
        """The next round no entry has been made for: the one an arrival, a departure or a new
        schedule starts from (refused once the game is over, or while a round is flagged)."""
        self._game()
        if self.flag is not None:
            raise self._fix_first(self.flag)
        if self.is_over:
            raise IllegalActionError(
                f"the game is over: {what} no longer", rule="roster", facts={"case": "over"}
            )
        rounds = self.entries.rounds
        if rounds and rounds[-1].tricks is None and any(b is not None for b in rounds[-1].bids):
            k = len(rounds)
            raise IllegalActionError(
                f"round {k} has begun: {what} from round {k + 1}, once round {k} is scored",
                rule="roster",
                facts={"case": "begun", "round": k, "next": k + 1},
            )
        return len(rounds) if rounds and rounds[-1].tricks is None else len(rounds) + 1

    def _between(self, what: str) -> changes.Between:
        """The sheet between rounds, for a change of players or schedule (:mod:`upriver.keeper.changes`)."""
        k = self._between_rounds(what)
        return changes.Between(
            rules=self.rules, starters=len(self.starters), players=self.players, entries=self.entries, next=k
        )

    def preview(self) -> changes.Preview | None:
        """What an arrival, or each departure, would make of the rounds not yet begun, before it is
        made; ``None`` while no change of players can be made (a round begun or flagged, the game over)."""
        try:
            at = self._between("a change")
        except IllegalActionError:
            return None
        return changes.preview(at)

    def join(self, name: str, start: Start = Start.ZERO) -> None:
        """A newcomer plays from the next round on, seated after the last seat, starting from ``start``."""
        at = self._between(f"{name.strip() or 'a newcomer'} can join")
        self._commit(changes.join(at, name, start), at.next)

    def leave(self, seat: int) -> None:
        """``seat`` plays no more rounds, from the next one on; their points stay on the sheet."""
        self._seat(seat)
        at = self._between(f"{self.players[seat]} can leave")
        self._commit(changes.leave(at, seat), at.next)

    def sit_out(self, seat: int, round_number: int | None = None) -> None:
        """``seat`` sits out one round (the next, or a later one not yet begun): the others play it."""
        self._seat(seat)
        at = self._between(f"{self.players[seat]} can sit out")
        self._commit(changes.sit_out(at, seat, round_number), at.next)

    def set_schedule(self, sizes: Sequence[int]) -> None:
        """The hand sizes of the rounds not yet begun (add, remove or change them); those played stay."""
        at = self._between("the schedule can change")
        self._commit(changes.reschedule(at, sizes), at.next)

    def adjust(self, seat: int, points: int, note: str = "") -> None:
        """A bonus (``points`` > 0) or a penalty (< 0) for ``seat``, with the table's note of why.

        The note is read as every line a person types is (:func:`upriver.names.text_line`): one line of
        readable text of at most :data:`NOTE_LENGTH` characters, no control or text-direction characters;
        a note of spaces only is no note."""
        self._seat(seat)
        self._game()
        name = self.players[seat]
        if points == 0 or abs(points) > 1000:
            raise IllegalActionError(
                f"an adjustment is a bonus or a penalty of 1 to 1000 points, not {points}",
                rule="adjustment",
                seat=seat,
                facts={"case": "points", "points": points, "player": name},
            )
        try:
            note = text_line(note, NOTE_LENGTH) if note.strip() else ""
        except TextError as error:
            raise IllegalActionError(
                f"the note for {name}: {error}",
                rule="adjustment",
                seat=seat,
                facts={"case": f"note {error.reason}", "limit": error.limit, "player": name},
            ) from None
        made = Adjustment(seat=seat, after=self.scored, points=points, note=note)
        self._commit(dataclasses.replace(self.entries, adjustments=(*self.entries.adjustments, made)), 0)
