"""The group routes: the JSON API under ``/api/groups``, for members only.

Every answer is JSON (but the CSV export and a game's record); a refusal is
``{"error", "rule"?, "field"?}``: 400 bad input, 401 not signed in (``rule: "signed out"``), 403 not a
member, not an admin, or a missing CSRF token (``rule: "member"``, ``"admin"``, ``"csrf"``), 404 no
such group (to a non-member as well, ``rule: "member"`` is 403 only for a group that exists), 409 an
invite that opens nothing any more. Every request that changes something carries the session's
``X-Upriver-CSRF`` (the accounts' check, :func:`upriver.web.accounts.sessions.signed_in`).
docs/groups.md lists every route and its JSON.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import time
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from upriver.database import Target
from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.keeper.store import open_sheet_store
from upriver.names import PlayerNameError, TextError, text_line
from upriver.record import dumps, loads
from upriver.sheet import spreadsheet_cell
from upriver.web.accounts import AccountStore, sessions
from upriver.web.accounts.errors import AccountError
from upriver.web.accounts.routes import AccountRoute
from upriver.web.groups.league import (
    LeagueGame,
    Player,
    Standings,
    StandingsCache,
    check_seats,
    game_result,
    head_to_head,
)
from upriver.web.groups.store import Group, GroupStore, Member, open_group_store
from upriver.web.hosting.guard import read_body, refusal
from upriver.web.hosting.limits import Limits
from upriver.web.play.settings import SettingError, TableSettings
from upriver.web.play.tables import Manager, TableError

__all__ = ["FORMER", "GroupRouter", "group_router"]

FORMER = "a former member"
"""How a member who asked for it is shown in the group's history and standings."""
INVITE_DAYS = (1, 30)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _NewGroup(_Body):
    name: str = Field(max_length=200)


class _NewInvite(_Body):
    days: int = 7


class _Join(_Body):
    invite: str = Field(max_length=100)


class _Leave(_Body):
    former: bool = False


class _Season(_Body):
    name: str = Field(max_length=200)
    start: str = Field(max_length=10)
    end: str = Field(max_length=10)


class _Next(_Body):
    date: str | None = Field(default=None, max_length=10)
    link: str | None = Field(default=None, max_length=300)


class _Table(_Body):
    seats: list[str] = Field(max_length=8)
    options: dict[str, Any] = Field(default_factory=dict)
    pace: str = Field("normal", max_length=16)


class _SeatOf(_Body):
    kind: str = Field(max_length=10)
    member: str | None = Field(default=None, max_length=100)


class _Evening(_Body):
    sheet: str = Field(max_length=100)
    seats: list[_SeatOf] = Field(max_length=64)


class _Seats(_Body):
    seats: list[_SeatOf] = Field(max_length=64)


def _day(value: str, field: str) -> float:
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise AccountError(
            f"'{field}': a date is written YYYY-MM-DD, not {value[:20]!r}", 400, field=field
        ) from None
    return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()


def _year(at: float) -> tuple[float, float]:
    year = datetime.datetime.fromtimestamp(at, tz=datetime.UTC).year
    start = datetime.datetime(year, 1, 1, tzinfo=datetime.UTC).timestamp()
    return start, datetime.datetime(year + 1, 1, 1, tzinfo=datetime.UTC).timestamp()


def _name(value: str, field: str, longest: int = 60) -> str:
    try:
        return text_line(value, longest)
    except TextError as error:
        raise AccountError(f"'{field}': {error}", 400, field=field) from None


def _encoded(data: dict[str, object]) -> bytes:
    """``data`` as :class:`JSONResponse` encodes it (orjson writes the same compact UTF-8 text,
    several times faster: a season's chart is some 60,000 numbers)."""
    return orjson.dumps(data)


def _seats(given: list[_SeatOf]) -> tuple[Player, ...]:
    return tuple(Player(s.kind, s.member) for s in given)


class GroupRouter(APIRouter):
    """The group routes, holding their store (the app closes it when it stops)."""

    store: GroupStore


def group_router(
    db_path: str | Path | Target, manager: Manager, limits: Limits, accounts: AccountStore
) -> GroupRouter:
    """The group page and API over the groups kept in ``db_path``, the live tables of ``manager``
    and the accounts of ``accounts``."""
    router = GroupRouter(route_class=AccountRoute)
    db = router.store = open_group_store(db_path)
    idle = limits.session_idle_days * 86_400

    def group_of(group_id: str) -> Group:
        group = db.group(group_id) if len(group_id) <= 64 else None
        if group is None:
            raise AccountError("no such group", 404, rule="group")
        return group

    def member_of(
        request: Request, group_id: str, *, csrf: bool, admin: bool = False
    ) -> tuple[Group, Member]:
        signed = sessions.signed_in(request, accounts, idle, csrf=csrf)
        group = group_of(group_id)
        member = db.member(group.id, signed.user.id)
        if member is None or not member.active:
            raise AccountError("only the group's members may see or change this", 403, rule="member")
        if admin and member.role != "admin":
            raise AccountError("only an admin of the group may do this", 403, rule="admin")
        return group, member

    def shown(member: Member) -> str:
        return FORMER if member.former else member.name

    def names(group_id: str) -> dict[str, str]:
        return {m.user_id: shown(m) for m in db.members(group_id)}

    def season_of(group_id: str, season: str | None) -> tuple[str | None, str, float, float]:
        if season:
            for s in db.seasons(group_id):
                if s.id == season:
                    return s.id, s.name, s.starts, s.ends
            raise AccountError("'season': the group has no such season", 404, field="season")
        start, end = _year(time.time())
        return None, str(datetime.datetime.fromtimestamp(start, tz=datetime.UTC).year), start, end

    def settle(group_id: str) -> None:
        """Keep the record of every web table made for the group that is over now (one indexed query
        when none is pending)."""
        members: list[Member] | None = None
        for game_id, table_id, made in db.pending(group_id):
            table = manager.find(table_id)
            if table is None or table.game is None or not table.game.is_over:
                continue
            text = manager.export(table, whole=True)
            if members is None:
                members = db.members(group_id)
            bound: dict[int, str] = {}
            for m in members:
                for seat in accounts.seats(m.user_id):
                    if seat.table_id == table_id and seat.seat not in bound:
                        bound[seat.seat] = m.user_id
            seats = tuple(
                Player("member", bound[s]) if s in bound else Player("guest" if kind == "human" else "bot")
                for s, kind in enumerate(table.kinds)
            )
            db.finish_game(group_id, game_id, made, text, game_result(loads(text)), seats)

    def league(group_id: str) -> list[LeagueGame]:
        settle(group_id)
        return [g.game for g in db.games(group_id) if g.game is not None]

    # The standings of each group and season, counted again only from a game written since
    # (db.games keeps unchanged games the same objects, and reads the group's count of writes first).
    kept_standings = StandingsCache()

    def group_json(group: Group, me: Member) -> dict[str, object]:
        members = db.members(group.id)
        data: dict[str, object] = {
            "id": group.id,
            "name": group.name,
            "created": group.created,
            "me": {"id": me.user_id, "name": me.name, "role": me.role},
            "members": [
                {"id": m.user_id, "name": shown(m), "role": m.role, "joined": m.joined, "left": m.left}
                for m in members
            ],
            "seasons": [
                {"id": s.id, "name": s.name, "start": s.starts, "end": s.ends} for s in db.seasons(group.id)
            ],
            "next": {"date": group.next_date, "link": group.next_link},
        }
        if me.role == "admin":
            data["invites"] = [
                {"id": i.id, "created": i.created, "expires": i.expires, "revoked": i.revoked}
                for i in db.invites(group.id)
            ]
        return data

    def counted(
        group_id: str, season: str | None
    ) -> tuple[dict[str, object], Standings, list[LeagueGame], tuple[str, float, float]]:
        """The season and its standings with the members' names, the standings as counted, the
        group's games, and the key they are kept under."""
        season_id, season_name, start, end = season_of(group_id, season)
        games = league(group_id)
        key = (group_id, start, end)
        table = kept_standings.standings(key, games, start, end)
        who = names(group_id)  # names are applied to the numbers as they are now: never kept
        head: dict[str, object] = {
            "season": {"id": season_id, "name": season_name, "start": start, "end": end},
            "standings": [{**row.to_json(), "name": who.get(row.member, FORMER)} for row in table.members],
        }
        return head, table, games, key

    def chart(table: Standings, games: list[LeagueGame]) -> dict[str, object]:
        by_id = {g.id: g for g in games}
        return {
            "games": [
                {"id": gid, "played": by_id[gid].played, "kind": by_id[gid].kind} for gid in table.games
            ],
            "running": {member: list(line) for member, line in table.running.items()},
        }

    def standings_json(group_id: str, season: str | None) -> dict[str, object]:
        head, table, games, _key = counted(group_id, season)
        return {**head, **chart(table, games)}

    # The chart's part of the answer (the season's games and everyone's points after each: most of
    # its bytes, and no names) encoded once for each count of the standings.
    charts: dict[tuple[str, float, float], tuple[Standings, bytes]] = {}

    def standings_body(group_id: str, season: str | None) -> bytes:
        """:func:`standings_json` encoded as a JSON answer is."""
        head, table, games, key = counted(group_id, season)
        kept = charts.get(key)
        if kept is None or kept[0] is not table:
            kept = charts[key] = (table, _encoded(chart(table, games))[1:-1])
            while len(charts) > 64:
                del charts[next(iter(charts))]
        return _encoded(head)[:-1] + b"," + kept[1] + b"}"

    def game_json(group_id: str, game: LeagueGame, who: dict[str, str], source: str) -> dict[str, object]:
        places = game.result.places
        players = []
        for seat, (name, p) in enumerate(zip(game.result.players, game.seats, strict=True)):
            shown_as = who.get(p.member, FORMER) if p.member is not None else name
            players.append(
                {"name": shown_as, "kind": p.kind, "member": p.member, "total": game.result.totals[seat],
                 "place": places[seat]}
            )  # fmt: skip
        return {
            "id": game.id,
            "kind": game.kind,
            "played": game.played,
            "rounds": len(game.result.rounds),
            "players": players,
            "record": f"/api/groups/{group_id}/games/{game.id}/record",
            # A finished table's page shows its post-game review; a keeper evening's sheet is its own.
            "review": f"/t/{source}" if game.kind == "web" else None,
        }

    @router.post("/api/groups")
    async def create(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, accounts, idle)
        body = await read_body(request, _NewGroup, limits)
        group = db.create(_name(body.name, "name"), signed.user.id, signed.user.name)
        member = db.member(group.id, signed.user.id)
        assert member is not None
        return JSONResponse(group_json(group, member), status_code=201)

    @router.get("/api/groups")
    async def mine(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, accounts, idle, csrf=False)
        return JSONResponse({"groups": [{"id": g.id, "name": g.name} for g in db.groups_of(signed.user.id)]})

    @router.get("/api/groups/{group_id}")
    async def one(group_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=False)
        return JSONResponse(group_json(group, me))

    @router.post("/api/groups/{group_id}/invites")
    async def invite(group_id: str, request: Request) -> JSONResponse:
        group, _me = member_of(request, group_id, csrf=True, admin=True)
        body = await read_body(request, _NewInvite, limits)
        low, high = INVITE_DAYS
        if not low <= body.days <= high:
            raise AccountError(f"'days': an invite link opens for {low} to {high} days", 400, field="days")
        made, secret = db.new_invite(group.id, body.days * 86_400)
        return JSONResponse(
            {
                "id": made.id,
                "expires": made.expires,
                "invite": secret,
            },
            status_code=201,
        )

    @router.delete("/api/groups/{group_id}/invites/{invite_id}")
    async def revoke(group_id: str, invite_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True, admin=True)
        if not db.revoke(group.id, invite_id):
            raise AccountError("the group has no such open invite link", 404, rule="invite")
        return JSONResponse(group_json(group, me))

    @router.post("/api/groups/{group_id}/join")
    async def join(group_id: str, request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, accounts, idle)
        body = await read_body(request, _Join, limits)
        group = group_of(group_id)
        opens = db.invite_opens(group.id, body.invite)
        if opens != "open":
            why = {
                "expired": "this invite link has expired: ask an admin of the group for a new one",
                "revoked": "this invite link was revoked: ask an admin of the group for a new one",
                "unknown": "this invite link opens nothing: check that the whole link was copied",
            }[opens]
            raise AccountError(why, 409 if opens != "unknown" else 403, rule="invite", reason=opens)
        db.add_member(group.id, signed.user.id, signed.user.name)
        member = db.member(group.id, signed.user.id)
        assert member is not None
        return JSONResponse(group_json(group, member))

    @router.post("/api/groups/{group_id}/leave")
    async def leave(group_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True)
        body = await read_body(request, _Leave, limits)
        admins = [m for m in db.members(group.id) if m.active and m.role == "admin"]
        db.leave(group.id, me.user_id, former=body.former)
        if me.role == "admin" and len(admins) == 1:
            others = [m for m in db.members(group.id) if m.active]
            if others:  # the group keeps an admin: the longest-standing member
                db.set_role(group.id, others[0].user_id, "admin")
        return JSONResponse({"left": True, "former": body.former})

    @router.delete("/api/groups/{group_id}/members/{user_id}")
    async def remove(group_id: str, user_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True, admin=True)
        other = db.member(group.id, user_id)
        if other is None or not other.active:
            raise AccountError("the group has no such member", 404, rule="member")
        if other.user_id == me.user_id:
            raise AccountError("to leave the group, use leave", 400, rule="member")
        db.leave(group.id, user_id)
        return JSONResponse(group_json(group, me))

    @router.post("/api/groups/{group_id}/seasons")
    async def season(group_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True, admin=True)
        body = await read_body(request, _Season, limits)
        start, end = _day(body.start, "start"), _day(body.end, "end") + 86_400
        if end <= start:
            raise AccountError("'end': a season ends on or after the day it starts", 400, field="end")
        db.add_season(group.id, _name(body.name, "name"), start, end)
        return JSONResponse(group_json(group, me), status_code=201)

    @router.delete("/api/groups/{group_id}/seasons/{season_id}")
    async def drop_season(group_id: str, season_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True, admin=True)
        if not db.remove_season(group.id, season_id):
            raise AccountError("the group has no such season", 404, rule="season")
        return JSONResponse(group_json(group, me))

    @router.put("/api/groups/{group_id}/next")
    async def next_night(group_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True, admin=True)
        body = await read_body(request, _Next, limits)
        if body.date is not None:
            _day(body.date, "date")
        link = body.link
        if link is not None and not (link.startswith("/t/") or link.startswith("https://")):
            raise AccountError("'link': a table's link starts with /t/ or https://", 400, field="link")
        db.set_next(group.id, body.date, link)
        updated = db.group(group.id)
        assert updated is not None
        return JSONResponse(group_json(updated, me))

    @router.post("/api/groups/{group_id}/tables")
    async def table(group_id: str, request: Request) -> JSONResponse:
        group, me = member_of(request, group_id, csrf=True)
        body = await read_body(request, _Table, limits)
        try:
            made, token = manager.create(
                name=me.name,
                seats=body.seats,
                options=body.options,
                creator=0,
                settings=TableSettings.of({"pace": body.pace}),
                group=group.id,
            )
        except PlayerNameError as error:
            return refusal(f"your name: {error}", field="name", rule="name")
        except RulesError as error:
            return refusal(str(error), option=error.option)
        except (TableError, SettingError) as error:
            return refusal(str(error))
        accounts.bind_seat(me.user_id, made.id, 0, made.keys.tenure[0])
        game_id = db.add_game(group.id, "web", made.id, time.time())
        return JSONResponse(
            {
                "table": made.id,
                "seat": 0,
                "token": token,
                "url": f"/t/{made.id}#token={token}",
                "game": game_id,
            },
            status_code=201,
        )

    @router.post("/api/groups/{group_id}/evenings")
    async def evening(group_id: str, request: Request) -> JSONResponse:
        group, _me = member_of(request, group_id, csrf=True)
        body = await read_body(request, _Evening, limits)
        sheets = open_sheet_store(db.db.target)
        try:
            stored = sheets.load(body.sheet)
        finally:
            sheets.close()
        if stored is None:
            raise AccountError("'sheet': no such sheet (give its edit link's id)", 404, field="sheet")
        record = stored.sheet.to_record()
        text = dumps(record)
        try:
            result = game_result(loads(text))
        except (RecordError, IllegalActionError) as error:
            raise AccountError(f"'sheet': {error}", 400, field="sheet") from None
        seats = _seats(body.seats)
        try:
            check_seats(seats, len(result.players))
        except ValueError as error:
            raise AccountError(f"'seats': {error}", 400, field="seats") from None
        active = {m.user_id for m in db.members(group.id) if m.active}
        for p in seats:
            if p.member is not None and p.member not in active:
                raise AccountError(
                    "'seats': a player is mapped to someone not in the group", 400, field="seats"
                )
        played = time.time()
        game_id = db.replace_game(group.id, stored.id, played, text, result, seats)
        if game_id is None:
            game_id = db.add_game(group.id, "keeper", stored.id, played, text, result, seats)
        return JSONResponse({"game": game_id}, status_code=201)

    @router.put("/api/groups/{group_id}/games/{game_id}/seats")
    async def remap(group_id: str, game_id: str, request: Request) -> JSONResponse:
        group, _me = member_of(request, group_id, csrf=True, admin=True)
        body = await read_body(request, _Seats, limits)
        found = next((g for g in db.games(group.id, records=True) if g.id == game_id and g.game), None)
        if found is None or found.game is None or found.record is None:
            raise AccountError("the group has no such finished game", 404, rule="game")
        seats = _seats(body.seats)
        try:
            check_seats(seats, len(found.game.result.players))
        except ValueError as error:
            raise AccountError(f"'seats': {error}", 400, field="seats") from None
        db.finish_game(group.id, game_id, found.played, found.record, found.game.result, seats)
        return JSONResponse({"game": game_id})

    @router.get("/api/groups/{group_id}/standings")
    async def table_of_standings(group_id: str, request: Request, season: str | None = None) -> Response:
        group, _me = member_of(request, group_id, csrf=False)
        return Response(standings_body(group.id, season), media_type="application/json")

    @router.get("/api/groups/{group_id}/standings.csv")
    async def standings_csv(group_id: str, request: Request, season: str | None = None) -> Response:
        group, _me = member_of(request, group_id, csrf=False)
        data = standings_json(group.id, season)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        heads = ("name", "games", "firsts", "points", "average_place", "exact_rate", "average_round",
                 "best_game", "longest_streak", "mu", "sigma")  # fmt: skip
        writer.writerow(heads)
        for row in data["standings"]:  # type: ignore[attr-defined]
            values = [row["name"], row["games"], row["firsts"], row["points"], row["average_place"],
                      row["exact_rate"], row["average_round"], row["best_game"]["points"],
                      row["longest_streak"], row["rating"]["mu"], row["rating"]["sigma"]]  # fmt: skip
            writer.writerow([spreadsheet_cell(str(v)) for v in values])
        return Response(
            out.getvalue(),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="upriver-group-{group.id}.csv"'},
        )

    @router.get("/api/groups/{group_id}/head-to-head")
    async def versus(
        group_id: str, a: str, b: str, request: Request, season: str | None = None
    ) -> JSONResponse:
        group, _me = member_of(request, group_id, csrf=False)
        _sid, _season_name, start, end = season_of(group.id, season)
        return JSONResponse(head_to_head(league(group.id), a, b, start, end).to_json())

    @router.get("/api/groups/{group_id}/games")
    async def games(group_id: str, request: Request, last: int = 20) -> JSONResponse:
        group, _me = member_of(request, group_id, csrf=False)
        settle(group.id)
        who = names(group.id)
        kept = [g for g in db.games(group.id) if g.game is not None][::-1][: max(0, min(last, 200))]
        return JSONResponse({"games": [game_json(group.id, g.game, who, g.source) for g in kept if g.game]})

    @router.get("/api/groups/{group_id}/history")
    async def history(group_id: str, request: Request) -> Response:
        group, _me = member_of(request, group_id, csrf=False)
        settle(group.id)
        who = names(group.id)
        out = []
        for stored in db.games(group.id, records=True):
            if stored.game is None or stored.record is None:
                continue
            shown_game = game_json(group.id, stored.game, who, stored.source)
            out.append({**shown_game, "game_record": json.loads(stored.record)})
        return Response(
            json.dumps({"group": group.id, "name": group.name, "games": out}, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="upriver-group-{group.id}-history.json"'},
        )

    @router.get("/api/groups/{group_id}/games/{game_id}/record")
    async def record(group_id: str, game_id: str, request: Request) -> Response:
        group, _me = member_of(request, group_id, csrf=False)
        text = db.game_record(group.id, game_id)
        if text is None:
            raise AccountError("the group has no such finished game", 404, rule="game")
        return Response(text, media_type="application/json")

    return router
