"""Where a kept sheet stands: its entries replayed through the engine, and what the engine says of them.

:class:`SheetState` is the reading half of :class:`~upriver.keeper.KeptSheet`: the players, the
rules, the entries, the engine's games they were replayed as (:mod:`upriver.keeper.evening`), and
every position read from those games (:class:`~upriver.state.GameState`) — the dealer, the bidding
order, who is to bid, the legal bids, the dealer's restriction — never worked out again here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Self

from upriver.actions import Phase
from upriver.cards import Suit
from upriver.errors import IllegalActionError, RulesError
from upriver.game import Game
from upriver.keeper import evening, records
from upriver.keeper.entries import JACK_FROM, Flag, KeptRound, SheetEntries, Waiting
from upriver.keeper.evening import Segment
from upriver.legality import BidRestriction
from upriver.record import Record
from upriver.rules import Rules
from upriver.sheet import ScoreSheet

__all__ = ["SheetState"]


class SheetState:
    """A sheet's entries and where they stand, as the engine replays them (see the module's notes)."""

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
        self.starters = tuple(players)
        """The players at the start, in seating order (newcomers are in :attr:`entries`)."""
        self.title = title
        self.jack_procedure = jack_procedure
        """Whether the first dealer is found by dealing face-up cards until a Jack shows."""
        self.extras: Mapping[str, object] = MappingProxyType(dict(extras or {}))
        """Extra top-level keys of an imported record, written back on export."""
        self.history: list[SheetEntries] = list(history)
        """Earlier entries, oldest first: :meth:`undo` returns to the last of them."""
        self.entries = entries
        self.segments: tuple[Segment, ...] = ()
        """The engine's games the entries were replayed as (:mod:`upriver.keeper.evening`)."""
        self.flag: Flag | None = None
        self.segments, self.flag = self._replay(entries)

    @classmethod
    def from_record(cls, record: Record) -> Self:
        """A sheet carrying on from a game record: score-only rounds, or a card game's bids and
        tricks, or an evening kept here (:func:`upriver.keeper.records.sheet_parts`).

        The record is replayed first, so one that breaks a rule is refused with
        :class:`~upriver.record.RecordRuleError` naming the round, the player and the rule.
        """
        parts = records.sheet_parts(record)
        return cls(
            parts.rules,
            parts.players,
            parts.entries,
            title=parts.title,
            jack_procedure=parts.jack_procedure,
            extras=parts.extras,
        )

    def to_record(self) -> Record:
        """Score-only record (docs/record.md): rules, players, each round's dealer, bids, tricks,
        trump; an evening whose players changed keeps its first segment as the record's game and
        the whole evening under its extra key (:func:`upriver.keeper.records.record_of`)."""
        return records.record_of(
            self.rules,
            self.starters,
            self.entries,
            self.segments,
            title=self.title,
            jack_procedure=self.jack_procedure,
            extras=self.extras,
        )

    # ------------------------------------------------------------ replay

    def _replay(self, entries: SheetEntries) -> tuple[tuple[Segment, ...], Flag | None]:
        return evening.replay(self.rules, self.starters, entries)

    # ------------------------------------------------------- where we are

    @property
    def players(self) -> tuple[str, ...]:
        """Every seat's name: the starting players, then each newcomer."""
        return evening.players_of(self.starters, self.entries)

    @property
    def schedule(self) -> tuple[int, ...]:
        """The evening's hand sizes, round by round (:func:`upriver.keeper.evening.schedule`)."""
        try:
            return evening.schedule(self.rules, len(self.starters), self.entries)
        except RulesError:
            return self.rules.hand_sizes

    def playing(self, number: int) -> tuple[int, ...]:
        """The seats playing round ``number``."""
        return evening.roster(len(self.starters), self.entries, number)

    @property
    def segment(self) -> Segment | None:
        """The segment of the current round (or the last one replayed)."""
        found = [s for s in self.segments if s.first <= self.current]
        return found[-1] if found else None

    @property
    def game(self) -> Game | None:
        """The engine's game of the current round (``None`` while waiting for the Jack)."""
        segment = self.segment
        return None if segment is None else segment.game

    def _dealt(self) -> tuple[Segment, Game] | None:
        """The current round's segment and its game with the round dealt (a copy, if it was not yet);
        ``None`` before the Jack is found and once the game is over."""
        segment = self.segment
        if segment is None or segment.game.is_over:
            return None
        game = segment.game
        if game.phase is Phase.DEALING:
            game = game.copy()
            game.deal_at_table()
        return segment, game

    def _game(self) -> Game:
        game = self.game
        if game is None:
            raise IllegalActionError(
                "first find the dealer: deal cards face up, one at a time, "
                f"starting with {self.players[JACK_FROM]}, until a Jack shows; then say who got it",
                rule="first jack",
            )
        return game

    @property
    def awaiting_jack(self) -> bool:
        """Whether the sheet waits to be told who was dealt the first Jack."""
        return self.entries.first_dealer is None

    @property
    def is_over(self) -> bool:
        """Whether every round of the schedule is scored (and none is flagged)."""
        return self.phase is Waiting.OVER

    @property
    def current(self) -> int:
        """The 1-based number of the round being entered (or next to be), capped at the last."""
        rounds = self.entries.rounds
        if rounds and rounds[-1].tricks is None:
            return len(rounds)
        return min(len(rounds) + 1, len(self.schedule))

    @property
    def scored(self) -> int:
        """How many rounds have their trick counts."""
        rounds = self.entries.rounds
        return len(rounds) - (1 if rounds and rounds[-1].tricks is None else 0)

    @property
    def phase(self) -> Waiting:
        """What the sheet waits for."""
        game = self.game
        if game is None:
            return Waiting.JACK
        if self.flag is not None:
            return Waiting.FLAGGED
        if self.scored == len(self.schedule) and game.is_over:
            return Waiting.OVER
        return Waiting.TRICKS if game.phase is Phase.TRICKS else Waiting.BIDDING

    @property
    def hand_size(self) -> int:
        """Cards in each hand in the current round."""
        return self.schedule[self.current - 1]

    @property
    def dealer(self) -> int | None:
        """Who deals the current round (``None`` before the Jack is found), as the engine says."""
        segment, dealt = self.segment, self._dealt()
        if segment is not None and segment.game.is_over:
            return segment.seats[segment.game.results[-1].dealer]
        return None if dealt is None else dealt[0].seats[dealt[1].dealer]

    @property
    def bidding_order(self) -> tuple[int, ...]:
        """The current round's seats in bidding order (the engine's): left of the dealer first."""
        dealt = self._dealt()
        return () if dealt is None else tuple(dealt[0].seats[s] for s in dealt[1].bidding_order)

    @property
    def bids(self) -> tuple[int | None, ...]:
        """The current round's bids in seat order (``None``: not entered, or not playing)."""
        rounds = self.entries.rounds
        last = rounds[-1] if rounds and rounds[-1].tricks is None else KeptRound(bids=())
        return tuple(last.bid(seat) for seat in range(len(self.players)))

    @property
    def to_bid(self) -> tuple[int, ...]:
        """Seats whose bid is awaited now (the engine's): the next in turn, or every one left under
        simultaneous bidding."""
        dealt = self._dealt()
        if self.phase is not Waiting.BIDDING or dealt is None:
            return ()
        return tuple(dealt[0].seats[s] for s in dealt[1].awaiting)

    @property
    def trump(self) -> Suit | None:
        """The trump suit noted for the current round, if any."""
        rounds = self.entries.rounds
        return rounds[-1].trump if rounds and rounds[-1].tricks is None else None

    def legal_bids(self, seat: int) -> tuple[int, ...]:
        """The bids ``seat`` may make now, as the engine says (before a round's first entry too)."""
        dealt = self._dealt()
        if dealt is None or seat not in self.to_bid:
            return ()
        return dealt[1].legal_bids(dealt[0].seats.index(seat))

    def bid_restriction(self) -> BidRestriction | None:
        """The engine's restriction on the next bid (the dealer's, under hook or overbid), if any."""
        segment, game = self.segment, self.game
        if segment is None or game is None or self.flag is not None or game.phase is not Phase.BIDDING:
            return None
        restriction = game.bid_restriction()
        return (
            None
            if restriction is None
            else dataclasses.replace(restriction, seat=segment.seats[restriction.seat])
        )

    # ------------------------------------------------------------ reading

    @property
    def score_sheet(self) -> ScoreSheet:
        """The sheet as the table sees it: the rows of each segment's :meth:`ScoreSheet.from_view`,
        in the sheet's seats (a seat not playing a round has an empty cell with its total), with
        starting scores and adjustments in the totals.

        On a flagged sheet the engine's rows stop before the flagged round; that round and
        the ones after it follow as entered, unscored, with the refusal (``"not checked"``
        after it) as their note.
        """
        return evening.score_sheet(
            self.players, self.rules, self.entries, self.segments, self.flag, self.schedule
        )

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's points: starting score, the scored rounds and the adjustments."""
        return self.score_sheet.totals

    @property
    def headline(self) -> str:
        """Who leads, or who won, in words."""
        return self.score_sheet.headline

    def to_csv(self) -> str:
        """The sheet as CSV (:meth:`ScoreSheet.to_csv`): per round and player bid, tricks, score, total,
        and a line for each change of the evening where it happened, with its note: an arrival and
        their starting score, a departure, a sit-out, a bonus or a penalty (in the score column, so a
        player's score column adds up to their total)."""
        sheet = self.score_sheet
        names = self.players
        entries = self.entries
        starters = len(self.starters)
        notes: dict[int, list[tuple[int | None, int | None, str]]] = {}
        # A bonus or penalty after round k comes before round k + 1's changes: a newcomer's
        # starting score is counted from the totals with it.
        for made in entries.adjustments:
            line = f"{names[made.seat]} {made.points:+d}" + (f": {made.note}" if made.note else "")
            notes.setdefault(made.after, []).append((made.seat, made.points, line))
        for i, join in enumerate(entries.joins):
            seat = starters + i
            start = self._starting_score(sheet, seat, join.round)
            line = f"{join.name} arrives for round {join.round}, starting with {start}"
            notes.setdefault(join.round - 1, []).append((seat, start, line))
        for gone in entries.leaves:
            notes.setdefault(gone.round - 1, []).append((None, None, f"{names[gone.seat]} leaves"))
        for out in entries.sit_outs:
            line = f"{names[out.seat]} sits out round {out.round}"
            notes.setdefault(out.round - 1, []).append((None, None, line))
        return sheet.to_csv(notes)

    def _starting_score(self, sheet: ScoreSheet, seat: int, first: int) -> int:
        """The points a newcomer starts with: their total before their first round, less the
        adjustments made to them before it was played."""
        before = sum(a.points for a in self.entries.adjustments if a.seat == seat and a.after < first)
        for row in sheet.rows:
            if row.number == first and row.finished:
                cell = row.cells[seat]
                if cell.total is not None:
                    return cell.total - (cell.score or 0) - before
        return sheet.totals[seat] - sum(a.points for a in self.entries.adjustments if a.seat == seat)
