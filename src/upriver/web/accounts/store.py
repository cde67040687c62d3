"""Accounts, their passkeys, sessions, WebAuthn challenges, recovery codes and seat bindings, kept
in the web app's own database (SQLite or PostgreSQL, :mod:`upriver.database`).

Everything a server process needs between two requests is here, not in its memory: a challenge
made by one process is verified by another (``upriver serve --workers``), and a session made by
one is accepted by every other. Each write is one transaction, committed before it returns.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from upriver.database import Database, Row, Target, Transaction, open_database
from upriver.database.sqlite import SqliteDatabase
from upriver.web.accounts import tokens
from upriver.web.accounts.schema import POSTGRES_SCHEMA, SQLITE_SCHEMA

__all__ = [
    "CHALLENGE_SECONDS",
    "AccountStore",
    "Challenge",
    "NewPasskey",
    "Passkey",
    "SeatBinding",
    "Session",
    "User",
    "open_account_store",
]

CHALLENGE_SECONDS = 300.0
"""How long a WebAuthn challenge may be answered (the browser's own timeout is shorter)."""
TOUCH_SECONDS = 300.0
"""A session's ``last_seen`` is written at most this often, not at every request."""


@dataclasses.dataclass(frozen=True, slots=True)
class User:
    """An account: its id (also its WebAuthn user handle), the name it shows, when it was made."""

    id: str
    name: str
    created: float


@dataclasses.dataclass(frozen=True, slots=True)
class NewPasskey:
    """A passkey a registration just verified, before it is stored."""

    id: str
    """The credential id, base64url."""
    public_key: str
    """The COSE public key, base64url."""
    sign_count: int
    transports: tuple[str, ...]
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class Passkey:
    """A stored passkey: its public part only (the private key never leaves the authenticator)."""

    id: str
    user_id: str
    public_key: str
    sign_count: int
    transports: tuple[str, ...]
    name: str
    created: float
    last_used: float | None


@dataclasses.dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: whose, since when, last seen, and the token its page sends against CSRF."""

    hash: str
    user_id: str
    created: float
    last_seen: float
    csrf: str


@dataclasses.dataclass(frozen=True, slots=True)
class Challenge:
    """A WebAuthn challenge being answered: ``register`` (a new account named ``name`` with the
    handle ``user_id``), ``signin``, or ``add`` (another passkey of ``user_id``)."""

    kind: str
    challenge: str
    """The challenge's bytes, base64url."""
    user_id: str | None
    name: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class SeatBinding:
    """A seat at a web table kept by an account, for as long as the seat's tenure stays ``tenure``."""

    table_id: str
    seat: int
    tenure: int
    bound: float


def _passkey(row: Row) -> Passkey:
    return Passkey(
        id=row[0],
        user_id=row[1],
        public_key=row[2],
        sign_count=int(row[3]),
        transports=tuple(json.loads(row[4])),
        name=row[5],
        created=float(row[6]),
        last_used=None if row[7] is None else float(row[7]),
    )


_PASSKEY_COLUMNS = "id, user_id, public_key, sign_count, transports, name, created, last_used"


def _insert_passkey(tx: Transaction, user_id: str, passkey: NewPasskey, at: float) -> None:
    tx.execute(
        f"INSERT INTO account_passkeys ({_PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (passkey.id, user_id, passkey.public_key, passkey.sign_count, json.dumps(passkey.transports),
         passkey.name, at, None),
    )  # fmt: skip


def _insert_codes(tx: Transaction, user_id: str, codes: Sequence[str], at: float) -> None:
    tx.execute("DELETE FROM account_recovery_codes WHERE user_id = ?", (user_id,))
    for code in codes:
        tx.execute(
            "INSERT INTO account_recovery_codes (hash, user_id, created) VALUES (?, ?, ?)",
            (tokens.digest(code), user_id, at),
        )


class AccountStore:
    """The accounts of one database; ``now`` is the clock sessions and challenges expire by."""

    def __init__(self, db: Database, *, now: Callable[[], float] = time.time) -> None:
        self.db = db
        self.now = now
        try:
            db.prepare(SQLITE_SCHEMA if isinstance(db, SqliteDatabase) else POSTGRES_SCHEMA)
        except BaseException:
            db.close()
            raise

    def close(self) -> None:
        """Close the database connection(s)."""
        self.db.close()

    # ------------------------------------------------------------------ challenges

    def new_challenge(self, challenge: Challenge) -> str:
        """Keep ``challenge`` for :data:`CHALLENGE_SECONDS`; the id to answer it under."""
        ceremony = tokens.new_ceremony_id()
        now = self.now()
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM account_challenges WHERE expires < ?", (now,))
            tx.execute(
                "INSERT INTO account_challenges (id, kind, challenge, user_id, name, expires) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (ceremony, challenge.kind, challenge.challenge, challenge.user_id, challenge.name,
                 now + CHALLENGE_SECONDS),
            )  # fmt: skip
        return ceremony

    def take_challenge(self, ceremony: str, kind: str) -> Challenge | None:
        """The challenge kept under ``ceremony`` for ``kind``, used up now; ``None`` when there is
        none, it expired, it is of another kind, or another request took it first."""
        with self.db.transaction() as tx:
            rows = tx.fetch(
                "SELECT kind, challenge, user_id, name, expires FROM account_challenges WHERE id = ?"
                + self.db.row_lock,
                (ceremony,),
            )
            if not rows or tx.execute("DELETE FROM account_challenges WHERE id = ?", (ceremony,)) != 1:
                return None
        found, challenge, user_id, name, expires = rows[0]
        if found != kind or float(expires) < self.now():
            return None
        return Challenge(kind=found, challenge=challenge, user_id=user_id, name=name)

    # ------------------------------------------------------------------ users and passkeys

    def create_user(self, user_id: str, name: str, passkey: NewPasskey, codes: Sequence[str]) -> User:
        """A new account with its first passkey and its recovery ``codes`` (kept hashed)."""
        now = self.now()
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO account_users (id, name, created) VALUES (?, ?, ?)", (user_id, name, now))
            _insert_passkey(tx, user_id, passkey, now)
            _insert_codes(tx, user_id, codes, now)
        return User(user_id, name, now)

    def user(self, user_id: str) -> User | None:
        """The account ``user_id``, or ``None``."""
        row = self.db.fetch_one("SELECT id, name, created FROM account_users WHERE id = ?", (user_id,))
        return None if row is None else User(row[0], row[1], float(row[2]))

    def add_passkey(self, user_id: str, passkey: NewPasskey) -> None:
        """Another passkey for ``user_id``.

        :raises upriver.database.DuplicateKeyError: that credential is registered already.
        """
        with self.db.transaction() as tx:
            _insert_passkey(tx, user_id, passkey, self.now())

    def passkey(self, credential_id: str) -> Passkey | None:
        """The passkey with this credential id, whoever's it is, or ``None``."""
        row = self.db.fetch_one(
            f"SELECT {_PASSKEY_COLUMNS} FROM account_passkeys WHERE id = ?", (credential_id,)
        )
        return None if row is None else _passkey(row)

    def passkeys(self, user_id: str) -> list[Passkey]:
        """``user_id``'s passkeys, oldest first."""
        rows = self.db.fetch(
            f"SELECT {_PASSKEY_COLUMNS} FROM account_passkeys WHERE user_id = ? ORDER BY created, id",
            (user_id,),
        )
        return [_passkey(row) for row in rows]

    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        """A sign-in with this passkey succeeded: its new signature counter and when."""
        self.db.execute(
            "UPDATE account_passkeys SET sign_count = ?, last_used = ? WHERE id = ?",
            (sign_count, self.now(), credential_id),
        )

    def rename_passkey(self, user_id: str, credential_id: str, name: str) -> bool:
        """Rename ``user_id``'s passkey; ``False`` when the account has no such passkey."""
        changed = self.db.execute(
            "UPDATE account_passkeys SET name = ? WHERE id = ? AND user_id = ?",
            (name, credential_id, user_id),
        )
        return changed == 1

    def remove_passkey(self, user_id: str, credential_id: str) -> str:
        """Remove ``user_id``'s passkey: ``"removed"``, ``"missing"`` (no such passkey of the account)
        or ``"last"`` (it is the account's only one, which is kept)."""
        with self.db.transaction() as tx:
            ids = [
                row[0]
                for row in tx.fetch(
                    "SELECT id FROM account_passkeys WHERE user_id = ?" + self.db.row_lock, (user_id,)
                )
            ]
            if credential_id not in ids:
                return "missing"
            if len(ids) == 1:
                return "last"
            tx.execute("DELETE FROM account_passkeys WHERE id = ? AND user_id = ?", (credential_id, user_id))
        return "removed"

    def delete_user(self, user_id: str) -> None:
        """Remove the account and everything of it: passkeys, sessions, codes, seat bindings."""
        with self.db.transaction() as tx:
            for table in ("account_passkeys", "account_sessions", "account_recovery_codes", "account_seats"):
                tx.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            tx.execute("DELETE FROM account_challenges WHERE user_id = ?", (user_id,))
            tx.execute("DELETE FROM account_users WHERE id = ?", (user_id,))

    # ------------------------------------------------------------------ sessions

    def new_session(self, user_id: str) -> tuple[str, Session]:
        """A new session of ``user_id``: its id (for the cookie only; the store keeps its hash) and it."""
        session_id = tokens.new_session_id()
        now = self.now()
        session = Session(tokens.digest(session_id), user_id, now, now, tokens.new_csrf_token())
        self.db.execute(
            "INSERT INTO account_sessions (hash, user_id, created, last_seen, csrf) VALUES (?, ?, ?, ?, ?)",
            (session.hash, user_id, now, now, session.csrf),
        )
        return session_id, session

    def session(self, session_id: str, idle_seconds: float) -> Session | None:
        """The session ``session_id`` opens, if it was seen within ``idle_seconds`` (noting it is seen
        now); ``None`` otherwise (an expired session is deleted)."""
        hashed = tokens.digest(session_id)
        row = self.db.fetch_one(
            "SELECT hash, user_id, created, last_seen, csrf FROM account_sessions WHERE hash = ?", (hashed,)
        )
        if row is None:
            return None
        session = Session(row[0], row[1], float(row[2]), float(row[3]), row[4])
        now = self.now()
        if session.last_seen < now - idle_seconds:
            self.db.execute("DELETE FROM account_sessions WHERE hash = ?", (hashed,))
            return None
        if session.last_seen < now - TOUCH_SECONDS:
            self.db.execute("UPDATE account_sessions SET last_seen = ? WHERE hash = ?", (now, hashed))
            session = dataclasses.replace(session, last_seen=now)
        return session

    def end_session(self, session_hash: str) -> None:
        """Sign a browser out: its session is deleted."""
        self.db.execute("DELETE FROM account_sessions WHERE hash = ?", (session_hash,))

    def sessions(self, user_id: str) -> int:
        """How many sessions ``user_id`` has open (signed-in browsers)."""
        row = self.db.fetch_one("SELECT COUNT(*) FROM account_sessions WHERE user_id = ?", (user_id,))
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------ recovery codes

    def new_recovery_codes(self, user_id: str) -> list[str]:
        """Fresh recovery codes for ``user_id``, replacing the old ones; shown once, kept hashed."""
        codes = tokens.new_recovery_codes()
        with self.db.transaction() as tx:
            _insert_codes(tx, user_id, codes, self.now())
        return codes

    def use_recovery_code(self, code: str) -> str | None:
        """The account a recovery code opens, using it up; ``None`` for a code that opens none."""
        hashed = tokens.digest(tokens.normal_code(code))
        with self.db.transaction() as tx:
            rows = tx.fetch(
                "SELECT user_id FROM account_recovery_codes WHERE hash = ?" + self.db.row_lock, (hashed,)
            )
            if not rows or tx.execute("DELETE FROM account_recovery_codes WHERE hash = ?", (hashed,)) != 1:
                return None
        user_id: str = rows[0][0]
        return user_id

    def recovery_codes_left(self, user_id: str) -> int:
        """How many of ``user_id``'s recovery codes are unused."""
        row = self.db.fetch_one("SELECT COUNT(*) FROM account_recovery_codes WHERE user_id = ?", (user_id,))
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------ seats

    def bind_seat(self, user_id: str, table_id: str, seat: int, tenure: int) -> None:
        """Keep ``seat`` of ``table_id`` under the account for as long as its tenure is ``tenure``."""
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM account_seats WHERE user_id = ? AND table_id = ? AND seat = ?",
                (user_id, table_id, seat),
            )
            tx.execute(
                "INSERT INTO account_seats (user_id, table_id, seat, tenure, bound) VALUES (?, ?, ?, ?, ?)",
                (user_id, table_id, seat, tenure, self.now()),
            )

    def seats(self, user_id: str) -> list[SeatBinding]:
        """``user_id``'s seat bindings, newest first."""
        rows = self.db.fetch(
            "SELECT table_id, seat, tenure, bound FROM account_seats WHERE user_id = ? "
            "ORDER BY bound DESC, table_id, seat",
            (user_id,),
        )
        return [SeatBinding(row[0], int(row[1]), int(row[2]), float(row[3])) for row in rows]


def open_account_store(db: str | Path | Target, *, now: Callable[[], float] = time.time) -> AccountStore:
    """The accounts kept where ``db`` says (a SQLite path or ``sqlite:///PATH``, or a ``postgresql://``
    URL), beside the web tables.

    :raises upriver.database.StoreError: ``db`` names no database, or it cannot be opened (one sentence).
    """
    return AccountStore(open_database(db), now=now)
