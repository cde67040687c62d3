"""The score keeper: the seeds' paper score sheet for a game played with real cards.

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
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from upriver.actions import Phase
from upriver.cards import Suit
from upriver.errors import IllegalActionError, RulesError
from upriver.game import Game
from upriver.keeper.entries import EXTRA, JACK_FROM, Flag, KeptRound, SheetEntries
from upriver.legality import BidRestriction
from upriver.names import check_names
from upriver.record import Record, RoundRecord, replay
from upriver.record.model import canonical_rules
from upriver.rules import Bidding, FirstDealer, Rules, Trump
from upriver.sheet import RowStatus, ScoreSheet, SheetCell, SheetRow

__all__ = ["KeptSheet"]

_UNSET = object()


class KeptSheet:
    """A score sheet for a real table: entries checked and scored by replaying them through the engine.

    Make one with :meth:`start` or :meth:`from_record`. Every operation either applies
    whole or raises :class:`IllegalActionError` and changes nothing.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        entries: SheetEntries,
        *,
        title: str = "",
        jack_procedure: bool = False,
        history: Sequence[SheetEntries] = (),
        extras: Mapping[str, object] | None = None,
    ) -> None:
        self.rules = rules
        self.players = tuple(players)
        self.title = title
        self.jack_procedure = jack_procedure
        """Whether the first dealer is found by dealing face-up cards until a Jack shows."""
        self.extras: Mapping[str, object] = MappingProxyType(dict(extras or {}))
        """Extra top-level keys of an imported record, written back on export."""
        self.history: list[SheetEntries] = list(history)
        """Earlier entries, oldest first: :meth:`undo` returns to the last of them."""
        self.entries = entries
        self.game: Game | None = None
        """The engine's game after replaying the entries (``None`` while waiting for the Jack)."""
        self.flag: Flag | None = None
        self.game, self.flag = self._replay(entries)

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

    @classmethod
    def from_record(cls, record: Record) -> KeptSheet:
        """A sheet carrying on from a game record: score-only rounds, or a card game's bids and tricks.

        The record is replayed first, so one that breaks a rule is refused with
        :class:`~upriver.record.RecordRuleError` naming the round, the player and the rule.
        """
        game = replay(record)
        n = len(record.players)
        # Under a rotating trump the rules name each round's trump: the sheet notes none, as when kept.
        noted = record.rules.trump is not Trump.ROTATE
        rounds = [
            KeptRound(bids=r.bids, tricks=r.tricks_won, trump=r.trump if noted else None)
            for r in game.results
        ]
        if game.phase in (Phase.BIDDING, Phase.TRICKS, Phase.PLAYING):
            rounds.append(KeptRound(bids=game.bids, trump=game.trump if noted else None))
        info = record.extras.get(EXTRA)
        info = info if isinstance(info, Mapping) else {}
        jack = info.get("first_jack")
        jack = jack if isinstance(jack, int) and not isinstance(jack, bool) and 0 <= jack < n else None
        title = info.get("title")
        pending = False
        chosen = info.get("first_dealer")
        if record.rounds:
            first: int | None = record.rounds[0].dealer
        elif jack is not None:
            first = jack
        elif isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < n:
            first = chosen
        elif record.rules.first_dealer is FirstDealer.FIRST_JACK:
            first, pending = None, True
        else:
            first = game.first_dealer
        extras = {k: v for k, v in record.extras.items() if k != EXTRA}
        return cls(
            record.rules,
            record.players,
            SheetEntries(first_dealer=first, jack=jack, rounds=tuple(rounds)),
            title=title if isinstance(title, str) else "",
            jack_procedure=jack is not None or pending,
            extras=extras,
        )

    # ------------------------------------------------------------ replay

    def _replay(self, entries: SheetEntries) -> tuple[Game | None, Flag | None]:
        """The engine's game after these entries, and the first round it refuses, if any.

        The game stops just before the refused action, so its results and totals are
        those of the rounds before the flagged one.
        """
        if entries.first_dealer is None:
            return None, None
        game = Game(self.rules, self.players, dealer=entries.first_dealer, auto_deal=False)
        for number, entry in enumerate(entries.rounds, start=1):
            try:
                game.deal_at_table(entry.trump)
                # Bids go in bidding order, so the engine refuses one made out of turn itself.
                for seat in game.bidding_order:
                    if entry.bids[seat] is not None:
                        game.bid(entry.bids[seat], seat=seat)  # type: ignore[arg-type]
                if entry.tricks is not None:
                    game.record_tricks(entry.tricks)
                elif number < len(entries.rounds):
                    raise IllegalActionError(
                        f"round {number} has no trick counts, yet round {number + 1} follows",
                        rule="round order",
                    )
            except IllegalActionError as error:
                return game, Flag(number, str(error), error.rule, error.seat, error.facts)
        return game, None

    def _commit(self, entries: SheetEntries, touched: int) -> None:
        """Adopt ``entries`` unless the engine refuses round ``touched`` (1-based) or one before it.

        A refusal of a later round is kept as :attr:`flag`: the later round is the keeper's
        to fix, and refusing the edit would throw away what was just typed.
        """
        game, flag = self._replay(entries)
        if flag is not None and flag.round <= touched:
            if flag.round == touched:
                raise IllegalActionError(flag.message, rule=flag.rule, seat=flag.seat, facts=flag.facts)
            raise IllegalActionError(
                f"round {flag.round} must be fixed first (edit it, or undo): {flag.message}",
                rule=flag.rule,
                seat=flag.seat,
                facts={**flag.facts, "round": flag.round},
            )
        self.history.append(self.entries)
        self.entries, self.game, self.flag = entries, game, flag

    # ------------------------------------------------------- where we are

    def _game(self) -> Game:
        if self.game is None:
            raise IllegalActionError(
                "first find the dealer: deal cards face up, one at a time, "
                f"starting with {self.players[JACK_FROM]}, until a Jack shows; then say who got it",
                rule="first jack",
            )
        return self.game

    @property
    def awaiting_jack(self) -> bool:
        """Whether the sheet waits to be told who was dealt the first Jack."""
        return self.game is None

    @property
    def is_over(self) -> bool:
        """Whether every round of the schedule is scored (and none is flagged)."""
        return self.game is not None and self.game.is_over

    @property
    def current(self) -> int:
        """The 1-based number of the round being entered (or next to be), capped at the last."""
        rounds = self.entries.rounds
        if rounds and rounds[-1].tricks is None:
            return len(rounds)
        return min(len(rounds) + 1, self.rules.rounds)

    @property
    def phase(self) -> str:
        """``jack``, ``bidding`` (bids still to enter), ``tricks``, ``flagged`` or ``over``."""
        if self.game is None:
            return "jack"
        if self.flag is not None:
            return "flagged"
        if self.game.is_over:
            return "over"
        return "tricks" if self.game.phase is Phase.TRICKS else "bidding"

    @property
    def hand_size(self) -> int:
        """Cards in each hand in the current round."""
        return self.rules.hand_sizes[self.current - 1]

    @property
    def dealer(self) -> int | None:
        """Who deals the current round (``None`` before the Jack is found)."""
        first = self.entries.first_dealer
        return None if first is None else (first + self.current - 1) % len(self.players)

    @property
    def bidding_order(self) -> tuple[int, ...]:
        """The current round's seats in bidding order: left of the dealer first, the dealer last."""
        dealer = self.dealer
        n = len(self.players)
        return () if dealer is None else tuple((dealer + 1 + i) % n for i in range(n))

    @property
    def bids(self) -> tuple[int | None, ...]:
        """The current round's bids in seat order (``None``: not entered)."""
        rounds = self.entries.rounds
        if rounds and rounds[-1].tricks is None:
            return rounds[-1].bids
        return (None,) * len(self.players)

    @property
    def to_bid(self) -> tuple[int, ...]:
        """Seats whose bid is awaited now: the next in turn, or every one left under simultaneous bidding."""
        if self.phase != "bidding":
            return ()
        missing = tuple(s for s in self.bidding_order if self.bids[s] is None)
        return missing if self.rules.bidding is Bidding.SIMULTANEOUS else missing[:1]

    @property
    def trump(self) -> Suit | None:
        """The trump suit noted for the current round, if any."""
        rounds = self.entries.rounds
        return rounds[-1].trump if rounds and rounds[-1].tricks is None else None

    def legal_bids(self, seat: int) -> tuple[int, ...]:
        """The bids ``seat`` may make now, as the engine says (before a round's first entry too)."""
        game = self.game
        if game is None or self.flag is not None or seat not in self.to_bid:
            return ()
        if game.phase is Phase.DEALING:
            game = game.copy()
            game.deal_at_table()
        return game.legal_bids(seat)

    def bid_restriction(self) -> BidRestriction | None:
        """The engine's restriction on the next bid (the dealer's, under hook or overbid), if any."""
        game = self.game
        if game is None or self.flag is not None or game.phase is not Phase.BIDDING:
            return None
        return game.bid_restriction()

    # ----------------------------------------------------------- entering

    def _open_round(self) -> tuple[list[KeptRound], int]:
        """The rounds with the current one open for entries (a new one once the last is scored)."""
        self._game()
        if self.flag is not None:
            raise IllegalActionError(
                f"round {self.flag.round} must be fixed first (edit it, or undo): {self.flag.message}",
                rule=self.flag.rule,
                seat=self.flag.seat,
                facts={**self.flag.facts, "round": self.flag.round},
            )
        rounds = list(self.entries.rounds)
        if not rounds or rounds[-1].tricks is not None:
            rounds.append(KeptRound(bids=(None,) * len(self.players)))
        return rounds, len(rounds)

    def _with_rounds(self, rounds: Sequence[KeptRound]) -> SheetEntries:
        return dataclasses.replace(self.entries, rounds=tuple(rounds))

    def enter_bid(self, seat: int | None, bid: int) -> None:
        """Enter one bid for ``seat`` (``None``: the next bidder) in the current round."""
        rounds, k = self._open_round()
        if seat is None:
            waiting = self.to_bid or self.bidding_order
            seat = waiting[0]
        if not 0 <= seat < len(self.players):
            raise IllegalActionError(
                f"seat {seat} does not exist: seats are 0 to {len(self.players) - 1}", rule="seat"
            )
        current = rounds[-1]
        if current.bids[seat] is not None:
            raise IllegalActionError(
                f"{self.players[seat]} has already bid {current.bids[seat]} in round {k}; "
                f"to change it, edit round {k} or undo",
                rule="one bid",
                seat=seat,
            )
        bids = list(current.bids)
        bids[seat] = bid
        rounds[-1] = dataclasses.replace(current, bids=tuple(bids))
        self._commit(self._with_rounds(rounds), k)

    def enter_bids(self, bids: Sequence[int]) -> None:
        """Enter every bid of the current round at once, in seat order (closed fists, or a quick keeper)."""
        rounds, k = self._open_round()
        current = rounds[-1]
        if any(b is not None for b in current.bids):
            raise IllegalActionError(
                f"some bids of round {k} are already entered; enter the others one by one, or edit round {k}",
                rule="one bid",
            )
        self._check_count(bids, "bids", k)
        rounds[-1] = dataclasses.replace(current, bids=tuple(bids))
        self._commit(self._with_rounds(rounds), k)

    def enter_tricks(self, tricks: Sequence[int]) -> None:
        """Enter the tricks each seat took (seat order); refused unless they add up to the hand size."""
        rounds, k = self._open_round()
        self._check_count(tricks, "trick counts", k)
        rounds[-1] = dataclasses.replace(rounds[-1], tricks=tuple(tricks))
        self._commit(self._with_rounds(rounds), k)

    def note_trump(self, suit: Suit | None, round_number: int | None = None) -> None:
        """Note the trump suit of the current round (or of round ``round_number``); ``None`` clears it."""
        if round_number is not None and round_number <= len(self.entries.rounds):
            self.edit_round(round_number, trump=suit)
            return
        rounds, k = self._open_round()
        rounds[-1] = dataclasses.replace(rounds[-1], trump=suit)
        self._commit(self._with_rounds(rounds), k)

    def _check_count(self, values: Sequence[object], what: str, k: int) -> None:
        n = len(self.players)
        if len(values) != n:
            raise IllegalActionError(f"round {k} needs {what} for {n} players, not {len(values)}", rule=what)

    # ------------------------------------------------------------ fixing

    def edit_round(
        self,
        number: int,
        *,
        bids: Sequence[int | None] | None = None,
        tricks: Sequence[int] | None = None,
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
            )
        entry = rounds[number - 1]
        if bids is not None:
            self._check_count(bids, "bids", number)
            entry = dataclasses.replace(entry, bids=tuple(bids))
        if tricks is not None:
            self._check_count(tricks, "trick counts", number)
            entry = dataclasses.replace(entry, tricks=tuple(tricks))
        if trump is not _UNSET:
            assert trump is None or isinstance(trump, Suit)
            entry = dataclasses.replace(entry, trump=trump)
        rounds[number - 1] = entry
        self._commit(self._with_rounds(rounds), number)

    def set_first_dealer(self, seat: int) -> None:
        """Change who dealt the first round; every round's dealer follows, and each is re-checked."""
        if not 0 <= seat < len(self.players):
            raise IllegalActionError(
                f"seat {seat} does not exist: seats are 0 to {len(self.players) - 1}", rule="seat"
            )
        jack = seat if self.jack_procedure else None
        self._commit(dataclasses.replace(self.entries, first_dealer=seat, jack=jack), 0)

    def first_jack(self, seat: int) -> None:
        """Record who was dealt the first Jack: that seat deals the first round."""
        if not self.jack_procedure:
            raise IllegalActionError(
                "this sheet's first dealer was chosen, not found by the first Jack", rule="first jack"
            )
        self.set_first_dealer(seat)

    def undo(self) -> None:
        """Take back the last entry or edit (the start of the sheet cannot be undone)."""
        if not self.history:
            raise IllegalActionError("there is nothing to undo", rule="undo")
        self.entries = self.history.pop()
        self.game, self.flag = self._replay(self.entries)

    # ------------------------------------------------------------ reading

    @property
    def score_sheet(self) -> ScoreSheet:
        """The sheet as the table sees it (:meth:`ScoreSheet.from_view` of the engine's game).

        On a flagged sheet the engine's rows stop before the flagged round; that round and
        the ones after it follow as entered, unscored, with the refusal (``"not checked"``
        after it) as their note.
        """
        game, n = self.game, len(self.players)
        if game is None:
            return ScoreSheet(
                players=self.players, rows=(), totals=(0,) * n, complete=False, rounds=self.rules.rounds
            )
        sheet = ScoreSheet.from_view(game.view(None), at_table=True)
        flag, first = self.flag, self.entries.first_dealer
        if flag is None or first is None:
            return sheet
        rows = [row for row in sheet.rows if row.number < flag.round]
        for number, entry in enumerate(self.entries.rounds[flag.round - 1 :], start=flag.round):
            rows.append(
                SheetRow(
                    number=number,
                    hand_size=self.rules.hand_sizes[number - 1],
                    trump=entry.trump,
                    dealer=(first + number - 1) % n,
                    cells=tuple(
                        SheetCell(
                            bid=entry.bids[seat],
                            tricks=None if entry.tricks is None else entry.tricks[seat],
                            score=None,
                            total=None,
                        )
                        for seat in range(n)
                    ),
                    status=RowStatus.FLAGGED if number == flag.round else RowStatus.UNCHECKED,
                    note=flag.message if number == flag.round else "not checked",
                )
            )
        return dataclasses.replace(sheet, rows=tuple(rows))

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's points from the scored rounds."""
        return (0,) * len(self.players) if self.game is None else self.game.totals

    @property
    def headline(self) -> str:
        """Who leads, or who won, in words."""
        return self.score_sheet.headline

    # ------------------------------------------------------------ export

    def to_record(self) -> Record:
        """Score-only record (docs/record.md): rules, players, each round's dealer, bids, tricks, trump."""
        first = self.entries.first_dealer
        n = len(self.players)
        rounds = tuple(
            RoundRecord(dealer=(first + i) % n, bids=r.bids, tricks=r.tricks, trump=r.trump)
            for i, r in enumerate(self.entries.rounds)
            if first is not None
        )
        # The first dealer is in the rounds once there are any; before that, only here.
        chosen = first is not None and not self.entries.rounds and not self.jack_procedure
        info: dict[str, object] = {"first_dealer": first} if chosen else {}
        if self.title:
            info["title"] = self.title
        if self.jack_procedure:
            info["first_jack"] = self.entries.jack
            info["jack_dealt_from"] = JACK_FROM
        extras = dict(self.extras)
        if info:
            extras[EXTRA] = info
        rules = self.rules
        if self.jack_procedure and rules.first_dealer is not FirstDealer.FIRST_JACK:
            rules = rules.replace(first_dealer=FirstDealer.FIRST_JACK)
        return Record(
            rules=canonical_rules(rules),
            players=self.players,
            rounds=rounds,
            extras=MappingProxyType(extras),
        )

    def to_csv(self) -> str:
        """The sheet as CSV (:meth:`ScoreSheet.to_csv`): per round and player bid, tricks, score, total."""
        return self.score_sheet.to_csv()
