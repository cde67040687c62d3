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
  (:meth:`~upriver.rules.Rules` ``hand_sizes``). When a player joins or leaves from round
  ``k``, the rounds from ``k`` on are those the same rules give for the new number of
  players, from their round ``k``; rounds already played keep their size. An explicit
  schedule, or one edited on the sheet, is kept as it stands and checked by the engine for
  the new number. A sit-out changes no hand size: the others play the round as scheduled.
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
from collections.abc import Sequence

from upriver.deal import rotating_trump
from upriver.errors import IllegalActionError, RulesError
from upriver.game import Game
from upriver.keeper.entries import Adjustment, Flag, KeptRound, SheetEntries, Start
from upriver.rules import MIN_PLAYERS, Rules, Schedule, Trump
from upriver.sheet import RowStatus, ScoreSheet, SheetCell, SheetRow

__all__ = [
    "Segment",
    "adjustments_after",
    "next_at_table",
    "players_of",
    "replay",
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
        again = rules.replace(player_count=seated).hand_sizes
        sizes = sizes[: number - 1] + again[number - 1 :]
    return sizes


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
        """The engine's refusal with its seat as the sheet's seat."""
        return IllegalActionError(str(error), rule=error.rule, seat=self.seat(error.seat), facts=error.facts)


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
            trump = rotating_trump(number) if rules.trump is Trump.ROTATE else row.trump
            rows.append(
                dataclasses.replace(
                    row, number=number, trump=trump, dealer=segment.seats[row.dealer], cells=tuple(cells)
                )
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
        game = Game(rules, [names[s] for s in seats], dealer=first, auto_deal=False)
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
