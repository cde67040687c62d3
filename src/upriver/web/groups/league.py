"""A group's league: each game's result read from its record, and the standings of a season.

This module is the single owner of the league's numbers. :func:`game_result` reads one game record
(a web game, replayed through the engine, or a keeper evening, replayed as the keeper does) into
its :class:`GameResult`: the players, their totals, and per scored round each player's bid, tricks
and score (``None`` for a round a player sat out, or played before arriving or after leaving). The
store keeps that result beside the record, so the standings need no replay. :func:`standings` and
:func:`head_to_head` are pure functions of those results and of who each player was (a member, a
guest or a bot).

A game's places are the sheet's (:func:`upriver.actions.standings_of`): tied totals share a place,
and every seat at the top wins (:attr:`upriver.sheet.ScoreSheet.leaders`), so a tie for first is a
first place for each. A keeper evening counts as far as it was scored. Ratings are openskill's
Plackett-Luce model, as the arena rates bots (:mod:`upriver.arena.stats`): one update per game in
order, ranking the members at that game by their totals; guests and bots are not rated, and a game
with fewer than two members changes no rating.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from upriver.actions import standings_of
from upriver.keeper import EXTRA, KeptSheet
from upriver.record import Record, replay
from upriver.sheet import ScoreSheet

__all__ = [
    "GameResult",
    "HeadToHead",
    "LeagueGame",
    "MemberStanding",
    "Player",
    "SeatRounds",
    "Standings",
    "StandingsCache",
    "game_result",
    "head_to_head",
    "season_games",
    "standings",
]

Cell = tuple[int, int, int] | None
"""One player's round: ``(bid, tricks, score)``, or ``None`` when they did not play it."""


class SeatRounds(NamedTuple):
    """One seat's scored rounds of a game, as the standings add them up: the rounds it played, its
    exact bids and its scores among them, and its runs of exact bids (round after round, skipping
    the rounds it did not play): the first (``leading``), the last (``trailing``) and the longest."""

    rounds: int
    exact: int
    scores: int
    leading: int
    trailing: int
    longest: int


def _seat_rounds(rounds: tuple[tuple[Cell, ...], ...], seat: int) -> SeatRounds:
    played = exact = scores = run = longest = 0
    leading = -1
    for row in rounds:
        cell = row[seat]
        if cell is None:
            continue
        bid, tricks, score = cell
        played += 1
        scores += score
        if bid == tricks:
            exact += 1
            run += 1
            if run > longest:
                longest = run
        else:
            if leading < 0:
                leading = run
            run = 0
    return SeatRounds(played, exact, scores, run if leading < 0 else leading, run, longest)


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """What the league reads of one game: its players, their totals, and every scored round.

    Its places and each seat's :class:`SeatRounds` are worked out once, as it is made (a group's
    games are kept made between requests), not at every count of the standings.
    """

    players: tuple[str, ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[Cell, ...], ...]
    places: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)
    """Each seat's place by its total (ties share a place: 1, 1, 3)."""
    seat_rounds: tuple[SeatRounds, ...] = dataclasses.field(init=False, repr=False, compare=False)
    """Each seat's scored rounds, summed."""

    def __post_init__(self) -> None:
        places = [0] * len(self.totals)
        for place, seat, _total in standings_of(self.totals):
            places[seat] = place
        object.__setattr__(self, "places", tuple(places))
        summed = tuple(_seat_rounds(self.rounds, seat) for seat in range(len(self.totals)))
        object.__setattr__(self, "seat_rounds", summed)

    def to_json(self) -> dict[str, object]:
        """``{"players", "totals", "rounds": [[[bid, tricks, score] | null, …], …]}``."""
        return {
            "players": list(self.players),
            "totals": list(self.totals),
            "rounds": [[None if c is None else list(c) for c in row] for row in self.rounds],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameResult:
        """The result :meth:`to_json` wrote."""
        # The store reads every game of a group with this: the cells are taken as written (ints).
        rows: list[list[list[int] | None]] = data["rounds"]  # type: ignore[assignment]
        return cls(
            players=tuple(str(p) for p in data["players"]),  # type: ignore[attr-defined]
            totals=tuple(int(t) for t in data["totals"]),  # type: ignore[attr-defined]
            rounds=tuple(tuple([None if c is None else (c[0], c[1], c[2]) for c in row]) for row in rows),
        )


def _sheet(record: Record) -> ScoreSheet:
    if EXTRA in record.extras or not any(entry.has_cards for entry in record.rounds):
        return KeptSheet.from_record(record).score_sheet
    return ScoreSheet.of(replay(record))


def game_result(record: Record) -> GameResult:
    """The league's reading of a game record: its score sheet's scored rounds and totals.

    :raises upriver.errors.RecordError: the record is not a legal game (the engine's sentence).
    """
    sheet = _sheet(record)
    rounds: list[tuple[Cell, ...]] = []
    for row in sheet.rows:
        if not row.finished:
            continue
        cells: list[Cell] = []
        for cell in row.cells:
            if cell.bid is None or cell.tricks is None or cell.score is None:
                cells.append(None)
            else:
                cells.append((cell.bid, cell.tricks, cell.score))
        rounds.append(tuple(cells))
    return GameResult(players=tuple(sheet.players), totals=tuple(sheet.totals), rounds=tuple(rounds))


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """Who sat in a seat: ``kind`` ``"member"`` (``member`` is the account's id), ``"guest"`` or ``"bot"``."""

    kind: str
    member: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "member": self.member}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Player:
        member = data.get("member")
        return cls(str(data["kind"]), None if member is None else str(member))


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueGame:
    """One of the group's games: its id, ``"web"`` or ``"keeper"``, when it was played, its result
    and who each seat was (one :class:`Player` a seat; a member at most once)."""

    id: str
    kind: str
    played: float
    result: GameResult
    seats: tuple[Player, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class MemberStanding:
    """One member's season."""

    member: str
    games: int
    firsts: int
    points: int
    average_place: float
    rounds: int
    exact: int
    exact_rate: float
    average_round: float
    best_game: int
    best_game_id: str
    longest_streak: int
    """The longest run of exact bids, round after round, across the season's games in order."""
    mu: float
    sigma: float
    ordinal: float
    """The cautious rating, ``mu - 3 * sigma``; the standings are ordered by it."""

    def to_json(self) -> dict[str, object]:
        return {
            "member": self.member,
            "games": self.games,
            "firsts": self.firsts,
            "points": self.points,
            "average_place": round(self.average_place, 4),
            "rounds": self.rounds,
            "exact": self.exact,
            "exact_rate": round(self.exact_rate, 4),
            "average_round": round(self.average_round, 4),
            "best_game": {"points": self.best_game, "game": self.best_game_id},
            "longest_streak": self.longest_streak,
            "rating": {
                "mu": round(self.mu, 4),
                "sigma": round(self.sigma, 4),
                "ordinal": round(self.ordinal, 4),
            },
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Standings:
    """A season's standings, best rating first, and the running points after each game (the chart)."""

    members: tuple[MemberStanding, ...]
    games: tuple[str, ...]
    """The season's games in order."""
    running: Mapping[str, tuple[int, ...]]
    """Per member, their points after each of :attr:`games` (flat where they did not play)."""


def season_games(games: Iterable[LeagueGame], start: float, end: float) -> list[LeagueGame]:
    """The games played in ``[start, end)`` with at least one scored round, in the order played."""
    chosen = [game for game in games if start <= game.played < end and game.result.rounds]
    return sorted(chosen, key=lambda game: (game.played, game.id))


def _members_of(game: LeagueGame) -> list[tuple[int, str]]:
    return [
        (seat, p.member) for seat, p in enumerate(game.seats) if p.kind == "member" and p.member is not None
    ]


@dataclasses.dataclass(slots=True)
class _Tally:
    games: int = 0
    firsts: int = 0
    points: int = 0
    places: int = 0
    rounds: int = 0
    exact: int = 0
    scores: int = 0
    best: int | None = None
    best_id: str = ""
    run: int = 0
    longest: int = 0


@dataclasses.dataclass(slots=True)
class _Fold:
    """The standings after the first ``done`` games of a season: each member's tally, rating and
    running points, in the order members first played (which is the order of ``running``)."""

    done: int = 0
    tallies: dict[str, _Tally] = dataclasses.field(default_factory=dict)
    ratings: dict[str, PlackettLuceRating] = dataclasses.field(default_factory=dict)
    running: dict[str, list[int]] = dataclasses.field(default_factory=dict)

    def step(self, model: PlackettLuce, game: LeagueGame) -> None:
        """Count one more game, the next in the order played."""
        index = self.done
        result = game.result
        places = result.places
        members = _members_of(game)
        tallies, running = self.tallies, self.running
        for seat, member in members:
            t = tallies.get(member)
            if t is None:
                t = tallies[member] = _Tally()
                running[member] = [0] * index
            total = result.totals[seat]
            t.games += 1
            t.firsts += places[seat] == 1
            t.points += total
            t.places += places[seat]
            if t.best is None or total > t.best:
                t.best, t.best_id = total, game.id
            counted = result.seat_rounds[seat]
            t.rounds += counted.rounds
            t.exact += counted.exact
            t.scores += counted.scores
            if counted.exact == counted.rounds:  # every round exact: the run goes on through the game
                t.run += counted.exact
                t.longest = max(t.longest, t.run)
            else:  # the run goes on to the game's first miss, and the game's last run starts another
                t.longest = max(t.longest, t.run + counted.leading, counted.longest)
                t.run = counted.trailing
        for member, line in running.items():
            line.append(tallies[member].points)
        if len(members) >= 2:
            ratings = self.ratings
            teams = []
            for _, member in members:
                rating = ratings.get(member)
                teams.append([rating if rating is not None else model.rating()])
            rated = model.rate(teams, scores=[float(result.totals[seat]) for seat, _ in members])
            for (_, member), team in zip(members, rated, strict=True):
                ratings[member] = team[0]
        self.done = index + 1

    def snapshot(self) -> _Fold:
        """A copy to go on from later (ratings are never changed in place: one is replaced)."""
        return _Fold(
            self.done,
            {m: dataclasses.replace(t) for m, t in self.tallies.items()},
            dict(self.ratings),
            {},  # the running lines are the standings' own, cut to ``done`` when going on
        )

    def resumed(self, running: Mapping[str, Sequence[int]]) -> _Fold:
        """A copy of this snapshot to go on from, with the running lines of a later fold cut here."""
        copy = self.snapshot()
        copy.running = {member: list(running[member][: self.done]) for member in copy.tallies}
        return copy

    def standings(self, model: PlackettLuce, chosen: Sequence[LeagueGame]) -> Standings:
        """The standings of the games counted (``chosen``, the season's games in order)."""
        rows = []
        for member, t in self.tallies.items():
            rating = self.ratings.get(member) or model.rating()
            rows.append(
                MemberStanding(
                    member=member,
                    games=t.games,
                    firsts=t.firsts,
                    points=t.points,
                    average_place=t.places / t.games,
                    rounds=t.rounds,
                    exact=t.exact,
                    exact_rate=t.exact / t.rounds if t.rounds else 0.0,
                    average_round=t.scores / t.rounds if t.rounds else 0.0,
                    best_game=t.best if t.best is not None else 0,
                    best_game_id=t.best_id,
                    longest_streak=t.longest,
                    mu=float(rating.mu),
                    sigma=float(rating.sigma),
                    ordinal=float(rating.ordinal()),
                )
            )
        rows.sort(key=lambda r: (-r.ordinal, -r.firsts, r.average_place, r.member))
        return Standings(
            members=tuple(rows),
            games=tuple(game.id for game in chosen),
            running={member: tuple(line) for member, line in self.running.items()},
        )


def standings(games: Iterable[LeagueGame], start: float, end: float) -> Standings:
    """The standings of the season ``[start, end)``: every member who played in it, whatever
    they are now (a member who left keeps their results)."""
    chosen = season_games(games, start, end)
    model = PlackettLuce()
    fold = _Fold()
    for game in chosen:
        fold.step(model, game)
    return fold.standings(model, chosen)


@dataclasses.dataclass(slots=True)
class _Kept:
    chosen: list[LeagueGame]
    marks: list[_Fold]
    """Snapshots of the fold every :attr:`StandingsCache.every` games (the first after none)."""
    standings: Standings


class StandingsCache:
    """Standings kept between requests, one per key (a group and a season), each equal to
    :func:`standings` of the games it is given.

    The games given are compared with those of the last call by identity: a game kept unchanged
    must be the same :class:`LeagueGame` object (as :meth:`upriver.web.groups.store.GroupStore.games`
    keeps them), and a changed or new game a new one. The same games give the kept standings back;
    otherwise the standings are counted again from the last snapshot before the first game that is
    not the same (a new game played last counts one game), so a write never leaves a stale number.
    At most ``keys`` keys are kept, the least recently used forgotten.
    """

    def __init__(self, *, keys: int = 64, every: int = 64) -> None:
        self.keys = keys
        self.every = every
        self._kept: OrderedDict[Hashable, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        self._model = PlackettLuce()

    def standings(self, key: Hashable, games: Iterable[LeagueGame], start: float, end: float) -> Standings:
        """The standings of the season ``[start, end)`` of ``games``, kept under ``key``."""
        chosen = season_games(games, start, end)
        with self._lock:
            kept = self._kept.get(key)
            same = 0
            if kept is not None:
                old = kept.chosen
                limit = min(len(old), len(chosen))
                while same < limit and old[same] is chosen[same]:
                    same += 1
                if same == len(old) == len(chosen):
                    self._kept.move_to_end(key)
                    return kept.standings
                marks = [mark for mark in kept.marks if mark.done <= same]
                fold = marks[-1].resumed(kept.standings.running)
            else:
                marks = [_Fold()]
                fold = _Fold()
            for game in chosen[fold.done :]:
                fold.step(self._model, game)
                if fold.done % self.every == 0:
                    marks.append(fold.snapshot())
            table = fold.standings(self._model, chosen)
            self._kept[key] = _Kept(chosen, marks, table)
            self._kept.move_to_end(key)
            while len(self._kept) > self.keys:
                self._kept.popitem(last=False)
            return table


@dataclasses.dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two members over the games both played in a season: who placed above whom, and their points."""

    a: str
    b: str
    games: int
    a_ahead: int
    b_ahead: int
    level: int
    a_points: int
    b_points: int

    def to_json(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def head_to_head(games: Iterable[LeagueGame], a: str, b: str, start: float, end: float) -> HeadToHead:
    """Members ``a`` and ``b`` over the season's games where both played."""
    count = a_ahead = b_ahead = level = a_points = b_points = 0
    for game in season_games(games, start, end):
        seats = {member: seat for seat, member in _members_of(game)}
        if a not in seats or b not in seats:
            continue
        places = game.result.places
        count += 1
        pa, pb = places[seats[a]], places[seats[b]]
        a_ahead += pa < pb
        b_ahead += pb < pa
        level += pa == pb
        a_points += game.result.totals[seats[a]]
        b_points += game.result.totals[seats[b]]
    return HeadToHead(a, b, count, a_ahead, b_ahead, level, a_points, b_points)


def check_seats(seats: Sequence[Player], players: int) -> None:
    """Refuse a mapping that is not one player a seat, each member at most once.

    :raises ValueError: saying what is wrong.
    """
    if len(seats) != players:
        raise ValueError(f"the game has {players} players, and {len(seats)} were mapped")
    members = [p.member for p in seats if p.kind == "member"]
    if len(members) != len(set(members)):
        raise ValueError("a member is mapped to two players of one game: each member plays once")
    for p in seats:
        if p.kind not in ("member", "guest", "bot") or (p.kind == "member") != (p.member is not None):
            raise ValueError("a player is a member (with the member's id), a guest or a bot")
