"""The league's standings equal a plain computation from the games' records, for random seasons of web
games (bots' games with guests and bots in the seats) and keeper evenings (arrivals and departures
mid-evening), with members who leave and arrive late, and games outside the season."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import random_move
from upriver import Game, preset
from upriver.actions import Phase
from upriver.keeper import KeptSheet
from upriver.record import Record, dumps, loads, replay
from upriver.sheet import ScoreSheet
from upriver.web.groups.league import LeagueGame, Player, StandingsCache, game_result, standings

MEMBERS = ("m1", "m2", "m3", "m4", "m5")


def web_record(rng: random.Random, names: list[str]) -> Record:
    game = Game(preset("classic", player_count=len(names), max_cards=2), names, seed=rng.randrange(2**31))
    while game.phase is not Phase.OVER:
        random_move(game, rng)
    return loads(dumps(game))


def evening_record(rng: random.Random, names: list[str], arrives: bool, departs: bool) -> Record:
    sheet = KeptSheet.start(names, preset("classic", len(names), max_cards=2), dealer=0)
    while not sheet.is_over:
        if arrives and sheet.scored == 1 and len(sheet.players) == len(names):
            sheet.join("Late")
        if departs and sheet.scored == 2 and len(sheet.players) > len(names) - 1:
            departs = False
            sheet.leave(0)
        while sheet.to_bid:
            seat = sheet.to_bid[0]  # the seat whose bid the sheet awaits (a departed seat bids no more)
            sheet.enter_bid(seat, rng.choice(sheet.legal_bids(seat)))
        playing = [s for s in range(len(sheet.players)) if sheet.bids[s] is not None]
        tricks: list[int | None] = [None] * len(sheet.players)
        left = sheet.hand_size
        for seat in playing[:-1]:
            tricks[seat] = taken = rng.randint(0, left)
            left -= taken
        tricks[playing[-1]] = left
        sheet.enter_tricks(tricks)
    return loads(dumps(sheet.to_record()))


def plain_sheet(record: Record) -> ScoreSheet:
    """The record's score sheet, read the way each kind of game is read elsewhere."""
    if any(entry.has_cards for entry in record.rounds):
        return ScoreSheet.of(replay(record))
    return KeptSheet.from_record(record).score_sheet


@st.composite
def seasons(draw: st.DrawFn) -> list[tuple[str, float, Record, tuple[Player, ...]]]:
    rng = random.Random(draw(st.integers(0, 2**31)))
    games = []
    for index in range(draw(st.integers(1, 5))):
        web = draw(st.booleans())
        count = 4
        members = draw(st.lists(st.sampled_from(MEMBERS), min_size=0, max_size=count, unique=True))
        names = [f"P{seat}" for seat in range(count)]
        if web:
            record = web_record(rng, names)
        else:
            record = evening_record(rng, names, draw(st.booleans()), draw(st.booleans()))
        seats = [Player("member", m) for m in members]
        extra = len(record.players) if web else len(plain_sheet(record).players)
        while len(seats) < extra:
            seats.append(Player(draw(st.sampled_from(("guest", "bot"))) if web else "guest"))
        order = draw(st.permutations(range(extra)))
        played = draw(st.sampled_from((5.0, 10.0 + index, 20.0 + index, 200.0)))  # 5 and 200: out of season
        games.append((f"g{index}", played, record, tuple(seats[i] for i in order)))
    return games


@settings(max_examples=25, deadline=None)
@given(seasons())
def test_standings_equal_a_plain_computation_from_the_records(
    season: list[tuple[str, float, Record, tuple[Player, ...]]],
) -> None:
    league = [
        LeagueGame(gid, "keeper", played, game_result(record), seats) for gid, played, record, seats in season
    ]
    got = {line.member: line for line in standings(league, 10.0, 100.0).members}

    expected: dict[str, dict[str, object]] = {}
    runs: dict[str, int] = {}
    for _gid, played, record, seats in sorted(season, key=lambda g: (g[1], g[0])):
        if not 10.0 <= played < 100.0:
            continue
        sheet = plain_sheet(record)
        if not any(row.finished for row in sheet.rows):
            continue
        for seat, player in enumerate(seats):
            if player.kind != "member":
                continue
            member = str(player.member)
            total = sheet.totals[seat]
            place = 1 + sum(other > total for other in sheet.totals)
            e = expected.setdefault(
                member,
                {"games": 0, "firsts": 0, "points": 0, "places": 0, "rounds": 0, "exact": 0, "best": None,
                 "longest": 0},
            )  # fmt: skip
            e["games"] = int(str(e["games"])) + 1
            e["firsts"] = int(str(e["firsts"])) + (seat in sheet.leaders)
            e["points"] = int(str(e["points"])) + total
            e["places"] = int(str(e["places"])) + place
            e["best"] = total if e["best"] is None else max(int(str(e["best"])), total)
            for row in sheet.rows:
                cell = row.cells[seat]
                if not row.finished or cell.score is None:
                    continue
                e["rounds"] = int(str(e["rounds"])) + 1
                if cell.bid == cell.tricks:
                    e["exact"] = int(str(e["exact"])) + 1
                    runs[member] = runs.get(member, 0) + 1
                    e["longest"] = max(int(str(e["longest"])), runs[member])
                else:
                    runs[member] = 0

    assert set(got) == set(expected)
    for member, e in expected.items():
        mine = got[member]
        assert mine.games == e["games"]
        assert mine.firsts == e["firsts"]
        assert mine.points == e["points"]
        assert mine.average_place == int(str(e["places"])) / int(str(e["games"]))
        assert mine.exact == e["exact"]
        assert mine.rounds == e["rounds"]
        assert mine.best_game == e["best"]
        assert mine.longest_streak == e["longest"]
        assert mine.sigma > 0


@settings(max_examples=25, deadline=None)
@given(seasons(), st.lists(st.tuples(st.sampled_from(("remap", "move", "again", "same")), st.integers(0, 99)),
                           max_size=6))  # fmt: skip
def test_kept_standings_equal_the_standings_counted_afresh_after_every_change(
    season: list[tuple[str, float, Record, tuple[Player, ...]]], changes: list[tuple[str, int]]
) -> None:
    """A game changed anywhere in the season (its seats corrected, played at another time, or an
    unchanged game given back as a new object) gives the standings a fresh count gives."""
    league = [
        LeagueGame(gid, "keeper", played, game_result(record), seats) for gid, played, record, seats in season
    ]
    kept = StandingsCache(every=2)
    assert kept.standings("group", league, 10.0, 100.0) == standings(league, 10.0, 100.0)
    for change, pick in changes:
        index = pick % len(league)
        game = league[index]
        if change == "remap":
            seats = tuple(reversed(game.seats))
            league[index] = LeagueGame(game.id, game.kind, game.played, game.result, seats)
        elif change == "move":
            league[index] = LeagueGame(game.id, game.kind, 10.0 + pick / 2, game.result, game.seats)
        elif change == "again":
            league[index] = LeagueGame(game.id, game.kind, game.played, game.result, game.seats)
        assert kept.standings("group", league, 10.0, 100.0) == standings(league, 10.0, 100.0)
        assert kept.standings("other", league[:1], 10.0, 100.0) == standings(league[:1], 10.0, 100.0)
