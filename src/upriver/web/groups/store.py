"""Groups, their members, invite links, seasons, the next game night and the group's games, kept in
the web app's own database (SQLite or PostgreSQL, :mod:`upriver.database`), as the accounts are.

An invite link's secret is never stored, only its SHA-256. A game is kept with its record (the
text of the game record, docs/record.md), its result as the league reads it
(:func:`upriver.web.groups.league.game_result`, kept so that the standings never replay a game) and
who each seat was. A web table made for the group is kept at once with no record, and gets its
record when it is found finished.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import orjson

from upriver.database import Database, Row, Target, Transaction, open_database
from upriver.database.sqlite import SqliteDatabase
from upriver.web.groups.league import GameResult, LeagueGame, Player

__all__ = [
    "Group",
    "GroupStore",
    "Invite",
    "Member",
    "Season",
    "StoredGame",
    "open_group_store",
]

_TABLES = """
CREATE TABLE IF NOT EXISTS group_groups (
    id {key} PRIMARY KEY,
    name TEXT NOT NULL,
    created {time} NOT NULL,
    next_date TEXT,
    next_link TEXT,
    changes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS group_members (
    group_id {key} NOT NULL REFERENCES group_groups(id),
    user_id {key} NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    joined {time} NOT NULL,
    left_at {time},
    former INTEGER NOT NULL,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX IF NOT EXISTS group_members_user ON group_members (user_id);
CREATE TABLE IF NOT EXISTS group_invites (
    id {key} PRIMARY KEY,
    group_id {key} NOT NULL REFERENCES group_groups(id),
    hash TEXT NOT NULL,
    created {time} NOT NULL,
    expires {time} NOT NULL,
    revoked {time}
);
CREATE INDEX IF NOT EXISTS group_invites_hash ON group_invites (hash);
CREATE TABLE IF NOT EXISTS group_seasons (
    id {key} PRIMARY KEY,
    group_id {key} NOT NULL REFERENCES group_groups(id),
    name TEXT NOT NULL,
    starts {time} NOT NULL,
    ends {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS group_games (
    id {key} PRIMARY KEY,
    group_id {key} NOT NULL REFERENCES group_groups(id),
    kind TEXT NOT NULL,
    source {key} NOT NULL,
    played {time} NOT NULL,
    record TEXT,
    result TEXT,
    seats TEXT,
    changed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS group_games_group ON group_games (group_id, played);
"""

SQLITE_SCHEMA = _TABLES.format(key="TEXT", time="REAL")
POSTGRES_SCHEMA = _TABLES.format(key='TEXT COLLATE "C"', time="DOUBLE PRECISION")

_MIGRATIONS = (
    ("group_groups", "changes", "INTEGER NOT NULL DEFAULT 0"),
    ("group_games", "changed", "INTEGER NOT NULL DEFAULT 0"),
)
"""Columns a database made before them gets: the group's count of writes to its games, and the
count at a game's last write (which :meth:`GroupStore.games` reads the changes since)."""

_INDEXES = """
CREATE INDEX IF NOT EXISTS group_games_changed ON group_games (group_id, changed);
CREATE INDEX IF NOT EXISTS group_games_pending ON group_games (group_id) WHERE record IS NULL;
"""
"""Made after the migrations, which may have just added the column they index."""

KEPT_GROUPS = 32
"""How many groups' games a store keeps parsed in memory (the least recently read forgotten)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True)
class Group:
    """A group: its id, name, when made, and the next game night (a date, a table's link)."""

    id: str
    name: str
    created: float
    next_date: str | None
    next_link: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class Member:
    """A member (an account) of a group: ``role`` ``"admin"`` or ``"member"``; ``left`` when they
    left or were removed (``None`` while a member); ``former`` when they asked to be shown as
    "a former member" in the group's history."""

    user_id: str
    name: str
    role: str
    joined: float
    left: float | None
    former: bool

    @property
    def active(self) -> bool:
        return self.left is None


@dataclasses.dataclass(frozen=True, slots=True)
class Invite:
    """An invite link's public part: its id, when made, until when it opens, and if revoked."""

    id: str
    created: float
    expires: float
    revoked: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class Season:
    """A season set by an admin: ``[starts, ends)`` in seconds since the epoch."""

    id: str
    name: str
    starts: float
    ends: float


@dataclasses.dataclass(frozen=True, slots=True)
class StoredGame:
    """One of the group's games as kept: ``record`` and ``game`` are ``None`` while a web table made
    for the group is not finished."""

    id: str
    kind: str
    source: str
    played: float
    record: str | None
    game: LeagueGame | None


@dataclasses.dataclass(frozen=True, slots=True)
class _Kept:
    """A group's games as last read: the group's count of writes then, by id, and in order played."""

    changes: int
    by_id: dict[str, StoredGame]
    ordered: tuple[StoredGame, ...]


def _member(row: Row) -> Member:
    return Member(
        row[0], row[1], row[2], float(row[3]), None if row[4] is None else float(row[4]), bool(row[5])
    )


_GAME_COLUMNS = "id, kind, source, played, record, result, seats"


def _game(row: Row, *, with_record: bool = True) -> StoredGame:
    game_id, kind, source, played = row[0], row[1], row[2], float(row[3])
    league = None
    if row[5] is not None and row[6] is not None:
        # orjson: a group's every result is parsed as the first request reads it (and kept).
        seats = tuple(Player.from_json(p) for p in orjson.loads(row[6]))
        league = LeagueGame(game_id, kind, played, GameResult.from_json(orjson.loads(row[5])), seats)
    return StoredGame(game_id, kind, source, played, row[4] if with_record else None, league)


class GroupStore:
    """The groups of one database; ``now`` is the clock invite links expire by."""

    def __init__(self, db: Database, *, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        try:
            db.prepare(SQLITE_SCHEMA if isinstance(db, SqliteDatabase) else POSTGRES_SCHEMA, _MIGRATIONS)
            db.prepare(_INDEXES)
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        """Close the database connection(s)."""
        self.db.close()

    # ------------------------------------------------------------------ groups and members

    def create(self, name: str, user_id: str, user_name: str) -> Group:
        """A new group, whose first member (an admin) is ``user_id``."""
        group_id = secrets.token_urlsafe(9)
        now = self.now()
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO group_groups (id, name, created) VALUES (?, ?, ?)", (group_id, name, now))
            tx.execute(
                "INSERT INTO group_members (group_id, user_id, name, role, joined, left_at, former) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (group_id, user_id, user_name, "admin", now, None, 0),
            )
        return Group(group_id, name, now, None, None)

    def group(self, group_id: str) -> Group | None:
        """The group ``group_id``, or ``None``."""
        row = self.db.fetch_one(
            "SELECT id, name, created, next_date, next_link FROM group_groups WHERE id = ?", (group_id,)
        )
        return None if row is None else Group(row[0], row[1], float(row[2]), row[3], row[4])

    def groups_of(self, user_id: str) -> list[Group]:
        """The groups ``user_id`` is a member of now, by name."""
        rows = self.db.fetch(
            "SELECT g.id, g.name, g.created, g.next_date, g.next_link FROM group_groups g "
            "JOIN group_members m ON m.group_id = g.id WHERE m.user_id = ? AND m.left_at IS NULL "
            "ORDER BY g.name, g.id",
            (user_id,),
        )
        return [Group(r[0], r[1], float(r[2]), r[3], r[4]) for r in rows]

    def members(self, group_id: str) -> list[Member]:
        """Everyone who ever was a member of the group, by when they joined."""
        rows = self.db.fetch(
            "SELECT user_id, name, role, joined, left_at, former FROM group_members WHERE group_id = ? "
            "ORDER BY joined, user_id",
            (group_id,),
        )
        return [_member(row) for row in rows]

    def member(self, group_id: str, user_id: str) -> Member | None:
        """``user_id`` in the group (also after leaving), or ``None``."""
        row = self.db.fetch_one(
            "SELECT user_id, name, role, joined, left_at, former FROM group_members "
            "WHERE group_id = ? AND user_id = ?",
            (group_id, user_id),
        )
        return None if row is None else _member(row)

    def add_member(self, group_id: str, user_id: str, name: str, role: str = "member") -> None:
        """``user_id`` joins (or joins again, keeping their history and their choice to be shown)."""
        now = self.now()
        with self.db.transaction() as tx:
            changed = tx.execute(
                "UPDATE group_members SET left_at = NULL, name = ? WHERE group_id = ? AND user_id = ?",
                (name, group_id, user_id),
            )
            if not changed:
                tx.execute(
                    "INSERT INTO group_members (group_id, user_id, name, role, joined, left_at, former) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (group_id, user_id, name, role, now, None, 0),
                )

    def leave(self, group_id: str, user_id: str, *, former: bool | None = None) -> None:
        """``user_id`` is a member no more (their results stay); ``former``: shown as "a former member"."""
        with self.db.transaction() as tx:
            tx.execute(
                "UPDATE group_members SET left_at = ?, role = 'member' WHERE group_id = ? AND user_id = ? "
                "AND left_at IS NULL",
                (self.now(), group_id, user_id),
            )
            if former is not None:
                tx.execute(
                    "UPDATE group_members SET former = ? WHERE group_id = ? AND user_id = ?",
                    (int(former), group_id, user_id),
                )

    def set_role(self, group_id: str, user_id: str, role: str) -> None:
        """Make a member an admin or a member."""
        self.db.execute(
            "UPDATE group_members SET role = ? WHERE group_id = ? AND user_id = ?", (role, group_id, user_id)
        )

    def set_next(self, group_id: str, date: str | None, link: str | None) -> None:
        """The next game night: a date (``YYYY-MM-DD``) and a table's link, or none."""
        self.db.execute(
            "UPDATE group_groups SET next_date = ?, next_link = ? WHERE id = ?", (date, link, group_id)
        )

    # ------------------------------------------------------------------ invites

    def new_invite(self, group_id: str, seconds: float) -> tuple[Invite, str]:
        """A new invite link opening for ``seconds``: it and its secret (shown once, kept hashed)."""
        secret = secrets.token_urlsafe(18)
        now = self.now()
        invite = Invite(secrets.token_urlsafe(6), now, now + seconds, None)
        self.db.execute(
            "INSERT INTO group_invites (id, group_id, hash, created, expires, revoked) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (invite.id, group_id, _digest(secret), now, invite.expires, None),
        )
        return invite, secret

    def invites(self, group_id: str) -> list[Invite]:
        """The group's invite links, newest first."""
        rows = self.db.fetch(
            "SELECT id, created, expires, revoked FROM group_invites WHERE group_id = ? "
            "ORDER BY created DESC, id",
            (group_id,),
        )
        return [Invite(r[0], float(r[1]), float(r[2]), None if r[3] is None else float(r[3])) for r in rows]

    def revoke(self, group_id: str, invite_id: str) -> bool:
        """Revoke an invite link; ``False`` when the group has no such link."""
        changed = self.db.execute(
            "UPDATE group_invites SET revoked = ? WHERE group_id = ? AND id = ? AND revoked IS NULL",
            (self.now(), group_id, invite_id),
        )
        return changed == 1

    def invite_opens(self, group_id: str, secret: str) -> str:
        """What the invite ``secret`` does for the group: ``"open"``, ``"expired"``, ``"revoked"`` or
        ``"unknown"``."""
        row = self.db.fetch_one(
            "SELECT expires, revoked FROM group_invites WHERE group_id = ? AND hash = ?",
            (group_id, _digest(secret)),
        )
        if row is None:
            return "unknown"
        if row[1] is not None:
            return "revoked"
        return "expired" if float(row[0]) <= self.now() else "open"

    # ------------------------------------------------------------------ seasons

    def add_season(self, group_id: str, name: str, starts: float, ends: float) -> Season:
        """A season the admins set."""
        season = Season(secrets.token_urlsafe(6), name, starts, ends)
        self.db.execute(
            "INSERT INTO group_seasons (id, group_id, name, starts, ends) VALUES (?, ?, ?, ?, ?)",
            (season.id, group_id, name, starts, ends),
        )
        return season

    def seasons(self, group_id: str) -> list[Season]:
        """The group's seasons, latest start first."""
        rows = self.db.fetch(
            "SELECT id, name, starts, ends FROM group_seasons WHERE group_id = ? ORDER BY starts DESC, id",
            (group_id,),
        )
        return [Season(r[0], r[1], float(r[2]), float(r[3])) for r in rows]

    def remove_season(self, group_id: str, season_id: str) -> bool:
        """Remove a season (its games stay); ``False`` when the group has no such season."""
        return (
            self.db.execute("DELETE FROM group_seasons WHERE group_id = ? AND id = ?", (group_id, season_id))
            == 1
        )

    # ------------------------------------------------------------------ games

    @staticmethod
    def _written(tx: Transaction, group_id: str) -> int:
        """Count one more write to the group's games; the count, which the written game keeps.

        Writers of one group's games wait for each other here (SQLite's write transaction; the
        group's row lock on PostgreSQL), so the counts are committed in their order and a reader
        who has read a count can read every game written up to it.
        """
        tx.execute("UPDATE group_groups SET changes = changes + 1 WHERE id = ?", (group_id,))
        rows = tx.fetch("SELECT changes FROM group_groups WHERE id = ?", (group_id,))
        return int(rows[0][0]) if rows else 0

    def add_game(
        self,
        group_id: str,
        kind: str,
        source: str,
        played: float,
        record: str | None = None,
        result: GameResult | None = None,
        seats: Sequence[Player] | None = None,
    ) -> str:
        """Keep a game of the group (a web table's, pending while ``record`` is ``None``); its id."""
        game_id = secrets.token_urlsafe(9)
        with self.db.transaction() as tx:
            changed = self._written(tx, group_id)
            tx.execute(
                f"INSERT INTO group_games (group_id, {_GAME_COLUMNS}, changed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (group_id, game_id, kind, source, played, record,
                 None if result is None else json.dumps(result.to_json(), separators=(",", ":")),
                 None if seats is None else json.dumps([p.to_json() for p in seats], separators=(",", ":")),
                 changed),
            )  # fmt: skip
        return game_id

    @classmethod
    def _finish(
        cls,
        tx: Transaction,
        group_id: str,
        game_id: str,
        played: float,
        record: str,
        result: GameResult,
        seats: Sequence[Player],
    ) -> None:
        changed = cls._written(tx, group_id)
        tx.execute(
            "UPDATE group_games SET played = ?, record = ?, result = ?, seats = ?, changed = ? "
            "WHERE group_id = ? AND id = ?",
            (played, record, json.dumps(result.to_json(), separators=(",", ":")),
             json.dumps([p.to_json() for p in seats], separators=(",", ":")), changed, group_id, game_id),
        )  # fmt: skip

    def finish_game(
        self,
        group_id: str,
        game_id: str,
        played: float,
        record: str,
        result: GameResult,
        seats: Sequence[Player],
    ) -> None:
        """A pending game's record, result and seats, now that it is over (or a finished game's
        seats corrected)."""
        with self.db.transaction() as tx:
            self._finish(tx, group_id, game_id, played, record, result, seats)

    def replace_game(
        self,
        group_id: str,
        source: str,
        played: float,
        record: str,
        result: GameResult,
        seats: Sequence[Player],
    ) -> str | None:
        """The keeper evening ``source`` attached again (it went on): its id, or ``None`` if not attached."""
        with self.db.transaction() as tx:
            rows = tx.fetch(
                "SELECT id FROM group_games WHERE group_id = ? AND kind = 'keeper' AND source = ?",
                (group_id, source),
            )
            if not rows:
                return None
            game_id: str = rows[0][0]
            self._finish(tx, group_id, game_id, played, record, result, seats)
        return game_id

    def changes(self, group_id: str) -> int:
        """How many times the group's games were written (added, finished, replaced, seats corrected):
        one indexed read that tells whether anything kept from an earlier read is still current."""
        row = self.db.fetch_one("SELECT changes FROM group_groups WHERE id = ?", (group_id,))
        return 0 if row is None else int(row[0])

    def games(self, group_id: str, *, records: bool = False) -> list[StoredGame]:
        """The group's games in the order played (with their records' text when ``records``).

        Without the records, the games are kept parsed in memory and only those written since the
        last read are read again (by the group's count of writes, read first, so what is kept is
        never older than the database: another process's write is seen at the next read). An
        unchanged game is the same :class:`StoredGame` (and :class:`LeagueGame`) object from one read
        to the next, which :class:`upriver.web.groups.league.StandingsCache` relies on. Games are
        never deleted, so the games written since are all that can differ.
        """
        if records:
            rows = self.db.fetch(
                f"SELECT {_GAME_COLUMNS} FROM group_games WHERE group_id = ? ORDER BY played, id", (group_id,)
            )
            return [_game(row) for row in rows]
        count = self.changes(group_id)
        with self._lock:
            kept = self._kept.get(group_id)
            if kept is not None and kept.changes == count:
                self._kept.move_to_end(group_id)
                return list(kept.ordered)
        since = -1 if kept is None or kept.changes > count else kept.changes
        rows = self.db.fetch(
            f"SELECT {_GAME_COLUMNS.replace('record', 'NULL')} FROM group_games "
            "WHERE group_id = ? AND changed > ?",
            (group_id, since),
        )
        with self._lock:
            known = {} if since < 0 or kept is None else dict(kept.by_id)
            for row in rows:
                game = _game(row, with_record=False)
                known[game.id] = game
            ordered = tuple(sorted(known.values(), key=lambda g: (g.played, g.id)))
            self._kept[group_id] = _Kept(count, known, ordered)
            self._kept.move_to_end(group_id)
            while len(self._kept) > KEPT_GROUPS:
                self._kept.popitem(last=False)
        return list(ordered)

    def pending(self, group_id: str) -> list[tuple[str, str, float]]:
        """The group's web tables not yet finished: ``(game id, table id, when made)``."""
        rows = self.db.fetch(
            "SELECT id, source, played FROM group_games WHERE group_id = ? AND record IS NULL "
            "ORDER BY played, id",
            (group_id,),
        )
        return [(r[0], r[1], float(r[2])) for r in rows]

    def game_record(self, group_id: str, game_id: str) -> str | None:
        """The record's text of one of the group's games, or ``None``."""
        row = self.db.fetch_one(
            "SELECT record FROM group_games WHERE group_id = ? AND id = ?", (group_id, game_id)
        )
        return None if row is None else row[0]


def open_group_store(db: str | Path | Target, *, now: Callable[[], float] = time.time) -> GroupStore:
    """The groups kept where ``db`` says (a SQLite path or URL, or a ``postgresql://`` URL).

    :raises upriver.database.StoreError: ``db`` names no database, or it cannot be opened.
    """
    return GroupStore(open_database(db), now=now)
