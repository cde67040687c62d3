"""The accounts' tables, one script per engine: the same columns, in each engine's types.

They live beside the web tables and the score sheets, in the database ``--db`` names, under names
that start with ``account_``. A secret is never stored: sessions and recovery codes by their
SHA-256 (:mod:`upriver.web.accounts.tokens`), passkeys by their public key only.
"""

from __future__ import annotations

__all__ = ["POSTGRES_SCHEMA", "SQLITE_SCHEMA"]

_TABLES = """
CREATE TABLE IF NOT EXISTS account_users (
    id {key} PRIMARY KEY,
    name TEXT NOT NULL,
    created {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS account_passkeys (
    id {key} PRIMARY KEY,
    user_id {key} NOT NULL REFERENCES account_users(id),
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    transports TEXT NOT NULL,
    name TEXT NOT NULL,
    created {time} NOT NULL,
    last_used {time}
);
CREATE INDEX IF NOT EXISTS account_passkeys_user ON account_passkeys (user_id);
CREATE TABLE IF NOT EXISTS account_sessions (
    hash {key} PRIMARY KEY,
    user_id {key} NOT NULL REFERENCES account_users(id),
    created {time} NOT NULL,
    last_seen {time} NOT NULL,
    csrf TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS account_sessions_user ON account_sessions (user_id);
CREATE TABLE IF NOT EXISTS account_challenges (
    id {key} PRIMARY KEY,
    kind TEXT NOT NULL,
    challenge TEXT NOT NULL,
    user_id {key},
    name TEXT,
    expires {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS account_recovery_codes (
    hash {key} PRIMARY KEY,
    user_id {key} NOT NULL REFERENCES account_users(id),
    created {time} NOT NULL
);
CREATE INDEX IF NOT EXISTS account_recovery_codes_user ON account_recovery_codes (user_id);
CREATE TABLE IF NOT EXISTS account_seats (
    user_id {key} NOT NULL REFERENCES account_users(id),
    table_id {key} NOT NULL,
    seat INTEGER NOT NULL,
    tenure BIGINT NOT NULL,
    bound {time} NOT NULL,
    PRIMARY KEY (user_id, table_id, seat)
);
"""

SQLITE_SCHEMA = _TABLES.format(key="TEXT", time="REAL")
"""The accounts' tables in SQLite."""

POSTGRES_SCHEMA = _TABLES.format(key='TEXT COLLATE "C"', time="DOUBLE PRECISION")
"""The accounts' tables in PostgreSQL (byte-wise keys, as the other stores')."""
