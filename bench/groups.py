"""The group page's server time: what its requests cost a group of 30 members with 2,000 games.

The group page asks, as it loads, for ``GET /api/groups/{id}`` (the group), ``GET
/api/groups/{id}/standings`` (this year's standings) and ``GET /api/groups/{id}/games?last=20`` (the
latest games). For each store (a SQLite file in a temporary folder; PostgreSQL at ``--postgres URL``,
or else a private throw-away server started from Debian's binaries as the tests do) it builds one
such group through the app and the group store, then times the page's requests as the server spends
them (from the request reaching the app to its last byte sent, measured by a wrapper around the
ASGI app, in-process through Starlette's TestClient):

- ``warm``: the page loaded with nothing written since the last load;
- ``after_new_game``, ``after_evening_again``, ``after_seats_corrected``: each load right after
  another server process (a second store on the same database) wrote: a game just over added, the
  latest keeper evening attached again (it went on, so it is played now), or an admin's correction
  of who sat where in a game anywhere in the season (the ratings, one update a game in order, are
  counted again from that game on). Nothing counted before that write may be served.

The scenarios are taken in turn, load after load. Prints per store the median and p95 of the page's
time (the three requests summed) and of each request, in milliseconds, and the median processor
time the server's thread spent on the page (``page_cpu_p50_ms``: what a busy machine's wait for a
core leaves out); ``first_load_ms``, the first load of the group by a server that has read nothing
of it yet; and, as the reference measured in the same run, the time to read every stored result
and count the standings from scratch (what every standings request cost before they were kept).
``target_ms`` is the page's budget (300 ms); ``meets_target`` says whether the worst p95 of the
scenarios stays within it.

    python bench/groups.py [--games 2000] [--members 30] [--loads 30] [--postgres URL] [--json]

The games are real: web games played to the end by the engine's basic bots (4 to 6 players, the
classic preset), and keeper evenings of the classic preset scored round by round (random bids and
tricks, some with a late arrival or an early departure). A pool of distinct records is generated
and each of the group's games is one of them with its own seating (which seats are members, guests
and bots) and its own date this year; every game's result is the league's reading of its record
(:func:`upriver.web.groups.league.game_result`). Some members leave (one asks to be shown as "a
former member"), and three web tables made for the group never finished.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402
from soft_webauthn import SoftWebauthnDevice  # type: ignore[import-untyped]  # noqa: E402
from tests.pg import benched_database  # noqa: E402 - the tests' private server, from the checkout
from tests.webclient import ORIGIN, created  # noqa: E402 - the tests' software authenticator

from upriver import Game, preset  # noqa: E402
from upriver.bots import act, make_bot  # noqa: E402
from upriver.keeper import KeptSheet  # noqa: E402
from upriver.record import dumps, loads  # noqa: E402
from upriver.web.app import create_app  # noqa: E402
from upriver.web.groups.league import GameResult, Player, game_result, standings  # noqa: E402
from upriver.web.groups.store import GroupStore, open_group_store  # noqa: E402

TARGET_MS = 300.0
"""The group page's budget: its requests' server time, summed."""

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max",
         "Ned", "Ola", "Pia", "Quin", "Rut", "Sam", "Tea", "Uma", "Vic", "Wes", "Xia", "Yan", "Zoe",
         "Abe", "Bea", "Cal", "Dot", "Eli", "Flo")  # fmt: skip

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


class Timed:
    """The app, with the server time of each HTTP request kept: from the request reaching the app to
    its response's last body part sent (``last``), and the processor time the server's thread spent
    on it meanwhile (``last_cpu``: less than ``last`` when the machine is busy and the thread waits
    for a core, or for PostgreSQL)."""

    def __init__(self, app: Asgi) -> None:
        self.app = app
        self.last = 0.0
        self.last_cpu = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start, cpu = time.perf_counter(), time.thread_time()
        await self.app(scope, receive, send)
        self.last, self.last_cpu = time.perf_counter() - start, time.thread_time() - cpu


# ---------------------------------------------------------------------------------------- records


def web_record(seed: int, players: int) -> str:
    """A classic game of ``players`` basic bots played to the end by the engine: its record's text."""
    names = [f"Bot {seat + 1}" for seat in range(players)]
    game = Game(preset("classic", player_count=players), names, seed=seed)
    bots = [make_bot("basic", seed=seed * 8 + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])
    return dumps(game)


def evening_record(rng: random.Random, players: int) -> str:
    """A keeper evening of the classic preset scored to its end (random bids and tricks), with a late
    arrival or an early departure now and then: its record's text."""
    names = rng.sample(NAMES, players)
    sheet = KeptSheet.start(names, preset("classic", players), dealer=0)
    arrives, departs = rng.random() < 0.2, rng.random() < 0.2
    while not sheet.is_over:
        if arrives and sheet.scored == 3 and len(sheet.players) == players:
            sheet.join(next(name for name in NAMES if name not in names))
        if departs and sheet.scored == 6 and len(sheet.players) > 4:
            departs = False
            sheet.leave(len(sheet.players) - 1)
        while sheet.to_bid:
            seat = sheet.to_bid[0]
            sheet.enter_bid(seat, rng.choice(sheet.legal_bids(seat)))
        playing = [s for s in range(len(sheet.players)) if sheet.bids[s] is not None]
        tricks: list[int | None] = [None] * len(sheet.players)
        left = sheet.hand_size
        for seat in playing[:-1]:
            tricks[seat] = taken = rng.randint(0, left)
            left -= taken
        tricks[playing[-1]] = left
        sheet.enter_tricks(tricks)
    return dumps(sheet.to_record())


Pool = list[tuple[str, str, GameResult]]
"""Distinct games: ``(kind, record text, the league's reading of it)``."""


def pool(rng: random.Random, web: int, keeper: int) -> Pool:
    """``web`` web games and ``keeper`` keeper evenings, each read by the league once."""
    games: Pool = []
    for _ in range(web):
        text = web_record(rng.randrange(2**31), rng.choice((4, 4, 5, 5, 6)))
        games.append(("web", text, game_result(loads(text))))
    for _ in range(keeper):
        text = evening_record(rng, rng.choice((4, 4, 5, 6, 7)))
        games.append(("keeper", text, game_result(loads(text))))
    return games


# ---------------------------------------------------------------------------------------- the group


def register(client: TestClient, name: str) -> str:
    """An account made with a passkey (a software authenticator); the client now holds its session.
    Its CSRF token."""
    asked = client.post("/api/account/register/options", json={"name": name}, headers={"Origin": ORIGIN})
    made = client.post(
        "/api/account/register",
        json={"ceremony": asked.json()["ceremony"],
              "credential": created(SoftWebauthnDevice(), asked.json()["options"])},
        headers={"Origin": ORIGIN},
    )  # fmt: skip
    assert made.status_code == 201, made.text
    csrf: str = made.json()["csrf"]
    return csrf


def seating(rng: random.Random, kind: str, players: int, members: list[str]) -> tuple[Player, ...]:
    """Who sat where: one to all seats members (regulars more often), the rest guests (and at a web
    table, bots)."""
    count = rng.randint(1, players)
    weights = [1.0 / (1 + index / 6) for index in range(len(members))]
    chosen: list[str] = []
    while len(chosen) < count:
        pick = rng.choices(members, weights)[0]
        if pick not in chosen:
            chosen.append(pick)
    seats = [Player("member", m) for m in chosen]
    while len(seats) < players:
        seats.append(Player("bot" if kind == "web" and rng.random() < 0.6 else "guest"))
    rng.shuffle(seats)
    return tuple(seats)


def build(client: TestClient, db: GroupStore, games: Pool, count: int, members: int, seed: int) -> str:
    """The group: made through the app by its first member (signed in on ``client``), its other
    members, ``count`` games this year and three web tables that never finished; its id."""
    rng = random.Random(seed)
    csrf = register(client, NAMES[0])
    made = client.post(
        "/api/groups", json={"name": "Thursdays"}, headers={"Origin": ORIGIN, "X-Upriver-CSRF": csrf}
    )
    assert made.status_code == 201, made.text
    group: str = made.json()["id"]
    me: str = made.json()["me"]["id"]
    ids = [me] + [f"member-{n}" for n in range(1, members)]
    for n, user in enumerate(ids[1:], start=1):
        db.add_member(group, user, NAMES[n % len(NAMES)])
    year = datetime.datetime(datetime.datetime.now(datetime.UTC).year, 1, 1, tzinfo=datetime.UTC).timestamp()
    span = time.time() - 86_400 - year
    for played in sorted(year + rng.random() * span for _ in range(count)):
        kind, text, result = rng.choice(games)
        seats = seating(rng, kind, len(result.players), ids)
        source = f"table-{rng.randrange(10**9)}" if kind == "web" else f"sheet-{rng.randrange(10**9)}"
        db.add_game(group, kind, source, played, text, result, seats)
    for n in range(3):
        db.add_game(group, "web", f"gone-{n}", year + span * (0.5 + n / 10))
    for n, user in enumerate(ids[-4:]):
        db.leave(group, user, former=n == 0)
    return group


# ---------------------------------------------------------------------------------------- timing

PAGE = ("group", "standings", "games")


def load_page(client: TestClient, timed: Timed, group: str) -> dict[str, float]:
    """The page's three requests; each one's server time in milliseconds."""
    paths = {"group": f"/api/groups/{group}", "standings": f"/api/groups/{group}/standings",
             "games": f"/api/groups/{group}/games?last=20"}  # fmt: skip
    spent = {}
    for name in PAGE:
        answer = client.get(paths[name])
        assert answer.status_code == 200, answer.text
        spent[name] = timed.last * 1000
        spent[f"{name}_cpu"] = timed.last_cpu * 1000
    return spent


def summary(scenario: str, loads_ms: list[dict[str, float]]) -> dict[str, float]:
    """Median and p95 of the page (summed) and of each request, and the page's median processor
    time, under keys that begin with the scenario's name (``warm_page_p50_ms``)."""
    out: dict[str, float] = {}
    pages = sorted(sum(one[name] for name in PAGE) for one in loads_ms)
    out[f"{scenario}_page_p50_ms"] = round(statistics.median(pages), 2)
    out[f"{scenario}_page_p95_ms"] = round(pages[round(0.95 * (len(pages) - 1))], 2)
    out[f"{scenario}_page_cpu_p50_ms"] = round(
        statistics.median(sum(one[f"{name}_cpu"] for name in PAGE) for one in loads_ms), 2
    )
    for name in PAGE:
        values = sorted(one[name] for one in loads_ms)
        out[f"{scenario}_{name}_p50_ms"] = round(statistics.median(values), 2)
        out[f"{scenario}_{name}_p95_ms"] = round(values[round(0.95 * (len(values) - 1))], 2)
    return out


WRITES = ("new_game", "evening_again", "seats_corrected")
"""What another process writes before each load of a scenario ``after_<write>``."""


def write(
    other: GroupStore, group: str, what: str, games: Pool, members: list[str], rng: random.Random
) -> None:
    """One write by another server process, as the routes make it: a game just over (a web table's
    or an evening's), the latest keeper evening attached again (it went on: it is played now, with
    its new result), or an admin's correction of who sat where in a game anywhere in the season
    (the costliest: the ratings are counted again from that game on)."""
    stored = [g for g in other.games(group) if g.game is not None]
    if what == "new_game":
        kind, text, result = rng.choice(games)
        seats = seating(rng, kind, len(result.players), members)
        other.add_game(group, kind, f"new-{rng.randrange(10**9)}", time.time(), text, result, seats)
    elif what == "evening_again":
        again = [g for g in stored if g.kind == "keeper"][-1]  # tonight's evening, which went on
        assert again.game is not None
        size = len(again.game.seats)
        _kind, text, result = rng.choice([g for g in games if g[0] == "keeper" and len(g[2].players) == size])
        other.replace_game(group, again.source, time.time(), text, result, again.game.seats)
    else:
        fixed = rng.choice(stored)
        assert fixed.game is not None
        record = other.game_record(group, fixed.id)
        assert record is not None
        moved = list(fixed.game.seats)
        rng.shuffle(moved)
        other.finish_game(group, fixed.id, fixed.played, record, fixed.game.result, moved)


def measure(target: str, games: Pool, count: int, members: int, loads_n: int, seed: int) -> dict[str, Any]:
    """Build the group on ``target`` and time its page: warm, and right after each kind of write by
    another process; and the reference, the standings counted from scratch from the stored games."""
    app = create_app(target, bot_delay=0.0)
    timed = Timed(app)
    other = open_group_store(target)  # another server process's store on the same database
    try:
        with TestClient(timed, base_url=ORIGIN) as client:
            built = time.perf_counter()
            group = build(client, other, games, count, members, seed)
            built = time.perf_counter() - built
            assert len([g for g in other.games(group) if g.game is not None]) == count
            ids = [m.user_id for m in other.members(group)]
            first = load_page(client, timed, group)  # the first load after the group was filled
            rng = random.Random(seed + 1)
            loads_ms: dict[str, list[dict[str, float]]] = {"warm": []}
            loads_ms |= {f"after_{what}": [] for what in WRITES}
            for _ in range(loads_n):  # the scenarios taken in turn, so that a busy spell hits each
                loads_ms["warm"].append(load_page(client, timed, group))
                for what in WRITES:
                    write(other, group, what, games, ids, rng)
                    loads_ms[f"after_{what}"].append(load_page(client, timed, group))
            year = datetime.datetime(datetime.datetime.now(datetime.UTC).year, 1, 1, tzinfo=datetime.UTC)
            reference = []
            for _ in range(max(3, loads_n // 5)):
                fresh = open_group_store(target)  # nothing kept: every result read and parsed
                try:
                    began = time.perf_counter()
                    kept = [g.game for g in fresh.games(group) if g.game is not None]
                    standings(kept, year.timestamp(), float("inf"))
                    reference.append((time.perf_counter() - began) * 1000)
                finally:
                    fresh.close()
            body = client.get(f"/api/groups/{group}/standings").json()
        return {
            "games": count,
            "games_at_end": len(body["games"]),
            "members": members,
            "standings_rows": len(body["standings"]),
            "build_s": round(built, 1),
            "first_load_ms": round(sum(first[name] for name in PAGE), 2),
            "first_load_cpu_ms": round(sum(first[f"{name}_cpu"] for name in PAGE), 2),
            **{key: value for name, spent in loads_ms.items() for key, value in summary(name, spent).items()},
            "reference_standings_from_scratch_ms": round(statistics.median(reference), 2),
        }
    finally:
        other.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--members", type=int, default=30)
    parser.add_argument("--loads", type=int, default=30, help="page loads timed, warm and after a write each")
    parser.add_argument("--pool", type=int, default=160, help="distinct records the games are drawn from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", help="a postgresql:// URL (default: a private throw-away server)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    began = time.perf_counter()
    games = pool(rng, args.pool * 3 // 5, args.pool - args.pool * 3 // 5)
    results: dict[str, Any] = {
        "target_ms": TARGET_MS,
        "distinct_records": len(games),
        "records_s": round(time.perf_counter() - began, 1),
    }
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = {
            "store": "SQLite",
            **measure(str(Path(folder) / "bench.db"), games, args.games, args.members, args.loads, args.seed),
        }
    try:
        with benched_database(args.postgres) as (url, how):
            results["postgres"] = {
                "store": "PostgreSQL",
                **measure(url, games, args.games, args.members, args.loads, args.seed),
                "server": how,
            }
    except Exception as error:  # the run says why PostgreSQL was not measured
        results["postgres"] = {"store": "PostgreSQL", "error": f"PostgreSQL was not measured: {error}"}
    for name in ("sqlite", "postgres"):
        measured = results[name]
        if "warm_page_p95_ms" in measured:
            worst = max(
                measured[f"{scenario}_page_p95_ms"] for scenario in ("warm", *(f"after_{w}" for w in WRITES))
            )
            measured["worst_page_p95_ms"] = worst
            measured["meets_target"] = worst <= TARGET_MS
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name in ("sqlite", "postgres"):
        print(name, json.dumps(results[name]))


if __name__ == "__main__":
    main()
