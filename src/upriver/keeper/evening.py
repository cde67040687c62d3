"""A real evening: who plays which round, each round's hand size, and the games a sheet is replayed as.

The engine plays a game for a fixed set of players. An evening at a real table is not
fixed: someone arrives late, someone leaves early, someone sits a round out. The keeper
follows it honestly, as a sequence of *segments*: the longest runs of consecutive rounds
played by the same players, each replayed through its own :class:`~upriver.game.Game`
under the rules for that many players, so every bid, every count and every score is still
the engine's.

- The **seats** are the starting players in their seating order, then each newcomer in the
  order they came; a newcomer sits after the last seat (between it and the first).
- The **schedule**: a preset's rising and falling schedule depends on the number of players
  (:meth:`~upriver.rules.Rules` ``hand_sizes``): its largest hand (the peak of ``up-down``,
  the start of ``down-up``) is the one the rules give for that many (:func:`largest_hand`).
  When a player joins or leaves from round ``k``, the river keeps its course from round
  ``k``'s hand towards the largest hand for the new number (:func:`river_from`): rising, it
  climbs to it, plays it twice and falls to 1; falling, it falls from round ``k``'s hand
  (no larger than the new largest) to 1 (and, ``down-up``, climbs back to the new largest).
  Rounds already played keep their size. An explicit schedule, or one edited on the sheet,
  keeps its sizes, but an arrival deals a hand the deck cannot hold for the new number as
  the most it can (:mod:`upriver.keeper.changes` writes that into the entries). A sit-out
  changes no hand size: the others play the round as scheduled.
- The **dealer**: within a segment the engine passes the deal to the left. The first round
  of a new segment is dealt by the first player at the table after the last round's dealer
  (so a player sitting out, or gone, is skipped, and a newcomer takes a turn in their place).
- **Scores**: a player's total is their starting score (a newcomer's: 0, the lowest total at
  the table, or the average rounded to the nearest point, halves up, as the table chooses;
  worked out again if an earlier round is edited), plus their score in every round they
  played, plus their adjustments.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from upriver.errors import IllegalActionError, RulesError
from upriver.game import Game
from upriver.keeper.entries import Adjustment, Flag, KeptRound, SheetEntries, Start
from upriver.rules import (
    DECK_SIZE,
    MIN_PLAYERS,
    PRESETS,
    Rules,
    Schedule,
    Trump,
    default_max_cards,
    most_cards,
)
from upriver.sheet import RowStatus, ScoreSheet, SheetCell, SheetRow

__all__ = [
    "Segment",
    "adjustments_after",
    "deck_limit",
    "largest_hand",
    "next_at_table",
    "players_of",
    "replay",
    "river_from",
    "roster",
    "schedule",
    "score_sheet",
    "segment_rules",
    "starting_score",
]


def players_of(starters: Sequence[str], entries: SheetEntries) -> tuple[str, ...]:
    """Every seat's name: the starting players, then the newcomers in the order they came."""
    return (*starters, *(join.name for join in entries.joins))


def roster(starters: int, entries: SheetEntries, number: int) -> tuple[int, ...]:
    """The seats playing round ``number`` (1-based), in seating order."""
    joined = {starters + i: join.round for i, join in enumerate(entries.joins)}
    left = {leave.seat: leave.round for leave in entries.leaves}
    out = {(s.seat, s.round) for s in entries.sit_outs}
    return tuple(
        seat
        for seat in range(starters + len(entries.joins))
        if joined.get(seat, 1) <= number < left.get(seat, number + 1) and (seat, number) not in out
    )


def schedule(rules: Rules, starters: int, entries: SheetEntries) -> tuple[int, ...]:
    """The evening's hand sizes, round by round (see the module's notes).

    :raises RulesError: when the rules cannot be played by the new number of players.
    """
    if entries.sizes is not None:
        return entries.sizes
    sizes = rules.hand_sizes
    if rules.schedule is Schedule.EXPLICIT:
        return sizes
    for number in _changes(entries):
        seated = len(roster(starters, dataclasses.replace(entries, sit_outs=()), number))
        if seated < MIN_PLAYERS:
            raise RulesError(f"a game needs at least {MIN_PLAYERS} players, not {seated}", option="players")
        if number <= len(sizes):  # a change past the last round (a record's) leaves nothing to deal
            sizes = sizes[: number - 1] + river_from(rules, sizes, number, seated)
    return sizes


def deck_limit(rules: Rules, players: int, *, explicit: bool = False) -> int:
    """The largest hand the deck holds for ``players``: one card kept to turn up for trump, unless
    trump rotates or the schedule is a list (docs/rules.md §2.2, §2.3), where the whole deck may go."""
    if explicit or rules.trump is Trump.ROTATE:
        return DECK_SIZE // players
    return most_cards(players)


_STARTS = frozenset(p.start_cards for p in PRESETS.values() if p.start_cards is not None)
"""The countdown family's first hand (10), which with more players is the deck's most instead."""


def largest_hand(rules: Rules, players: int) -> int:
    """The largest hand of the sheet's rules for ``players`` (docs/rules.md §2.3, §3): the peak of
    ``up-down`` or the start of ``down-up``.

    A peak the rules leave to the number of players (source 000's table: 11, 10, 8, 7 for 4–7,
    the deck's most for 3 and 8; the countdown family's 10 or the deck's most) is the one for
    ``players``; a peak the table chose stays, but never more than the deck holds for ``players``.
    The stored rules name their peak (:meth:`Rules.options`), so a peak equal to the one the
    number at the start would get is read as left to the number.
    """
    limit = deck_limit(rules, players)
    chosen, starters = rules.max_cards, rules.player_count
    if chosen is None or chosen == default_max_cards(starters):
        return min(default_max_cards(players), limit)
    if rules.schedule is Schedule.DOWN_UP:
        for start in _STARTS:
            if chosen == min(start, most_cards(starters)):
                return min(start, limit)
    return min(chosen, limit)


def river_from(rules: Rules, sizes: Sequence[int], number: int, players: int) -> tuple[int, ...]:
    """The hand sizes from round ``number`` on when ``players`` play them, the river keeping its
    course (see the module's notes); ``sizes`` is the schedule as it stood."""
    peak = largest_hand(rules, players)
    if number == 1:
        return rules.replace(player_count=players, max_cards=peak).hand_sizes
    size = sizes[number - 1]
    after = sizes[number] if number < len(sizes) else None
    here = min(size, peak)
    if rules.schedule is Schedule.UP_DOWN:
        if after is not None and after >= size:  # still rising, or the first of the peak's two rounds
            return (*range(here, peak + 1), *range(peak, 0, -1))
        return tuple(range(here, 0, -1))
    if after is not None and after < size:  # still falling towards the single card
        return (*range(here, 1, -1), *range(1, peak + 1))
    return tuple(range(here, peak + 1))


def _changes(entries: SheetEntries) -> list[int]:
    """The rounds from which a player joins or leaves, in order."""
    return sorted({join.round for join in entries.joins} | {leave.round for leave in entries.leaves})


def segment_rules(rules: Rules, players: int, sizes: Sequence[int]) -> Rules:
    """The rules for one segment: the sheet's, for ``players`` players and these hand sizes.

    :raises RulesError: as the engine refuses them (a hand too big for that many players).
    """
    if players < MIN_PLAYERS:
        raise RulesError(f"a round needs at least {MIN_PLAYERS} players, not {players}", option="players")
    if players == rules.player_count and tuple(sizes) == rules.hand_sizes:
        return rules
    return rules.replace(
        player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=tuple(sizes), max_cards=None
    )


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Segment:
    """Consecutive rounds played by the same seats: ``game`` is the engine's game of them, whose
    seat ``i`` is the sheet's seat ``seats[i]``."""

    first: int
    """The sheet's number of the segment's first round."""
    seats: tuple[int, ...]
    sizes: tuple[int, ...]
    game: Game

    def seat(self, local: int | None) -> int | None:
        """The sheet's seat of the game's seat ``local``."""
        return None if local is None else self.seats[local]

    def refusal(self, error: IllegalActionError) -> IllegalActionError:
        """The engine's refusal with its seat as the sheet's seat, and its round as the sheet's round
        (the segment's game counts its rounds from 1)."""
        facts, message = dict(error.facts), str(error)
        local = facts.get("round")
        if isinstance(local, int) and not isinstance(local, bool) and self.first > 1:
            facts["round"] = number = self.first + local - 1
            message = re.sub(rf"\bround {local}\b", f"round {number}", message, count=1)
        return IllegalActionError(message, rule=error.rule, seat=self.seat(error.seat), facts=facts)


def starting_score(start: Start, totals: Sequence[int], seats: Sequence[int]) -> int:
    """A newcomer's starting score: 0, or the lowest or the average total of ``seats`` (halves up)."""
    if start is Start.ZERO or not seats:
        return 0
    values = [totals[seat] for seat in seats]
    if start is Start.LOWEST:
        return min(values)
    return (2 * sum(values) + len(values)) // (2 * len(values))


def adjustments_after(entries: SheetEntries, number: int) -> tuple[Adjustment, ...]:
    """The adjustments entered once round ``number`` was scored (0: before the first round)."""
    return tuple(a for a in entries.adjustments if a.after == number)


def next_at_table(after: int, seats: Sequence[int], count: int) -> int:
    """The first of ``seats`` to the left of seat ``after``, of ``count`` seats around the table:
    who deals when the players at the table change (see the module's notes)."""
    return next(s for step in range(1, count + 1) if (s := (after + step) % count) in seats)


def score_sheet(
    players: Sequence[str],
    rules: Rules,
    entries: SheetEntries,
    segments: Sequence[Segment],
    flag: Flag | None,
    sizes: Sequence[int],
) -> ScoreSheet:
    """The evening's score sheet: each segment's rows (:meth:`ScoreSheet.from_view` of its game) in
    the sheet's seats, a seat not playing a round having an empty cell with its total; newcomers'
    starting scores and the adjustments in the totals; after a flagged round, the rounds as entered.
    """
    count = len(players)
    running = [0] * count
    for made in adjustments_after(entries, 0):
        running[made.seat] += made.points
    rows: list[SheetRow] = []
    starters = count - len(entries.joins)
    complete = False
    for segment in segments:
        for i, join in enumerate(entries.joins):
            if join.round == segment.first:
                seated = roster(starters, dataclasses.replace(entries, sit_outs=()), join.round)
                others = [s for s in seated if s < starters or entries.joins[s - starters].round < join.round]
                running[starters + i] += starting_score(join.start, running, others)
        part = ScoreSheet.from_view(segment.game.view(None), at_table=True)
        for row in part.rows:
            number = segment.first + row.number - 1
            scored = row.status is RowStatus.SCORED
            cells = [SheetCell(bid=None, tricks=None, score=None, total=None)] * count
            for local, seat in enumerate(segment.seats):
                cell = row.cells[local]
                if scored and cell.score is not None:
                    running[seat] += cell.score
                cells[seat] = dataclasses.replace(cell, total=running[seat] if scored else None)
            if scored:  # a seat sitting the round out keeps its total; one not yet come, or gone, shows none
                for seat in roster(starters, dataclasses.replace(entries, sit_outs=()), number):
                    if seat not in segment.seats:
                        cells[seat] = SheetCell(bid=None, tricks=None, score=None, total=running[seat])
            rows.append(
                dataclasses.replace(row, number=number, dealer=segment.seats[row.dealer], cells=tuple(cells))
            )
            if scored:
                for made in adjustments_after(entries, number):
                    running[made.seat] += made.points
        complete = segment.game.is_over and segment.first + len(segment.sizes) - 1 == len(sizes)
    if flag is not None:
        rows = [row for row in rows if row.number < flag.round]
        dealer = rows[-1].dealer if rows else (entries.first_dealer or 0) - 1
        for number, entry in enumerate(entries.rounds[flag.round - 1 :], start=flag.round):
            dealer = next_at_table(dealer % count, roster(starters, entries, number), count)
            rows.append(
                SheetRow(
                    number=number,
                    hand_size=sizes[number - 1],
                    trump=entry.trump,
                    dealer=dealer,
                    cells=tuple(
                        SheetCell(bid=entry.bid(seat), tricks=entry.trick(seat), score=None, total=None)
                        for seat in range(count)
                    ),
                    status=RowStatus.FLAGGED if number == flag.round else RowStatus.UNCHECKED,
                    note=flag.message if number == flag.round else "not checked",
                )
            )
        complete = False
    for made in entries.adjustments:
        if (
            not any(row.number == made.after and row.status is RowStatus.SCORED for row in rows)
            and made.after
        ):
            running[made.seat] += made.points
    return ScoreSheet(
        players=tuple(players), rows=tuple(rows), totals=tuple(running), complete=complete, rounds=len(sizes)
    )


def replay(
    rules: Rules, players: Sequence[str], entries: SheetEntries
) -> tuple[tuple[Segment, ...], Flag | None]:
    """The engine's games after these entries, and the first round it refuses, if any.

    The games stop just before the refused action, so their results and totals are
    those of the rounds before the flagged one.
    """
    if entries.first_dealer is None:
        return (), None
    starters, count = len(players), len(players) + len(entries.joins)
    names = players_of(players, entries)
    try:
        sizes = schedule(rules, starters, entries)
    except RulesError as error:
        first = _changes(entries)[0]
        return (), Flag(first, f"round {first}: {error}", "roster", None)
    segments: list[Segment] = []
    number, last = 1, min(len(entries.rounds) + 1, len(sizes))
    dealer = (entries.first_dealer - 1) % count
    while number <= last:
        seats = roster(starters, entries, number)
        end = number
        while end < len(sizes) and roster(starters, entries, end + 1) == seats:
            end += 1
        try:
            rules = segment_rules(rules, len(seats), sizes[number - 1 : end])
        except RulesError as error:
            return tuple(segments), Flag(number, f"round {number}: {error}", "roster", None)
        first = seats.index(next_at_table(dealer, seats, count))
        game = Game(rules, [names[s] for s in seats], dealer=first, auto_deal=False, first_round=number)
        segment = Segment(first=number, seats=seats, sizes=tuple(sizes[number - 1 : end]), game=game)
        segments.append(segment)
        # The last segment also takes any round past the schedule's end, for the engine to refuse.
        for k in range(
            number, (min(end, len(entries.rounds)) if end < len(sizes) else len(entries.rounds)) + 1
        ):
            try:
                _play(segment, entries.rounds[k - 1], k, more=k < len(entries.rounds), names=names)
            except IllegalActionError as error:
                refused = segment.refusal(error)
                return tuple(segments), Flag(k, str(refused), refused.rule, refused.seat, refused.facts)
        if not game.is_over:
            break
        dealer, number = seats[game.results[-1].dealer], end + 1
    return tuple(segments), None


def _play(segment: Segment, entry: KeptRound, number: int, *, more: bool, names: Sequence[str]) -> None:
    """Round ``number`` through the segment's game: its deal, its bids in bidding order, its tricks."""
    for seat, name in enumerate(names):
        if seat not in segment.seats and (entry.bid(seat) is not None or entry.trick(seat) is not None):
            raise IllegalActionError(f"{name} does not play round {number}", rule="roster")
    game = segment.game
    game.deal_at_table(entry.trump)
    # Bids go in bidding order, so the engine refuses one made out of turn itself.
    for local in game.bidding_order:
        bid = entry.bid(segment.seats[local])
        if bid is not None:
            game.bid(bid, seat=local)
    if entry.tricks is not None:
        game.record_tricks([entry.trick(seat) for seat in segment.seats])  # type: ignore[misc]
    elif more:
        raise IllegalActionError(
            f"round {number} has no trick counts, yet round {number + 1} follows", rule="round order"
        )
