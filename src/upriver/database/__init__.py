"""Where durable data is kept: a SQLite file (the embedded default) or a PostgreSQL database.

The web game's tables (:mod:`upriver.web.store`) and the score keeper's sheets
(:mod:`upriver.keeper.store`) are written once, over a :class:`Database`: a thin runner of
SQL statements written with ``?`` placeholders, one implementation per engine
(:mod:`upriver.database.sqlite`, :mod:`upriver.database.postgres`). So both engines run the
same statements and keep the same promises: a write is committed before it returns, a
transaction is all or nothing, and a failure of the engine is a :class:`StoreError` whose
message is one sentence, never a driver's exception.

:func:`parse_target` reads what ``upriver serve --db`` was given: a path or ``sqlite:///PATH``
(SQLAlchemy's spelling: ``sqlite:////abs/path`` is absolute) for SQLite, or a
``postgresql://`` (``postgres://``) URL for PostgreSQL, which needs the ``postgres`` extra.
"""

from __future__ import annotations

from pathlib import Path

from upriver.database.base import (
    Database,
    DuplicateKeyError,
    PostgresTarget,
    Row,
    SqliteTarget,
    StoreError,
    StoreUnavailableError,
    Target,
    TargetError,
    Transaction,
)

__all__ = [
    "Database",
    "DuplicateKeyError",
    "PostgresTarget",
    "Row",
    "SqliteTarget",
    "StoreError",
    "StoreUnavailableError",
    "Target",
    "TargetError",
    "Transaction",
    "open_database",
    "parse_target",
]

_POSTGRES_SCHEMES = ("postgresql", "postgres")
_EXPECTED = (
    "a SQLite file (a path, or sqlite:///PATH) or a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE)"
)


def parse_target(value: str | Path | Target) -> Target:
    """The database ``value`` names: a path or ``sqlite:///PATH`` → SQLite, ``postgresql://…`` → PostgreSQL.

    :raises TargetError: a URL of another scheme, a ``sqlite://`` URL with a host, or a PostgreSQL URL
        that libpq's rules refuse (an unknown parameter, a port that is not a number, bad
        percent-encoding), saying which.
    """
    if isinstance(value, SqliteTarget | PostgresTarget):
        return value
    if isinstance(value, Path):
        return SqliteTarget(value)
    text = value.strip()
    if not text:
        raise TargetError(f"the database is empty: give {_EXPECTED}")
    scheme, sep, rest = text.partition("://")
    if not sep:
        return SqliteTarget(Path(text).expanduser())
    scheme = scheme.lower()
    if scheme == "sqlite":
        host, slash, path = rest.partition("/")
        if host or not slash or not path:
            raise TargetError(
                f"{text!r} is not a SQLite URL: write sqlite:///PATH (three slashes; "
                "sqlite:////abs/path for an absolute path) or the file's path alone"
            )
        return SqliteTarget(Path(path).expanduser())
    if scheme in _POSTGRES_SCHEMES:
        from upriver.database.postgres import check_url

        return PostgresTarget(check_url(text))
    raise TargetError(
        f"{text[:80]!r} uses the scheme {scheme[:20]!r}, which upriver cannot store in: give {_EXPECTED}"
    )


def open_database(value: str | Path | Target) -> Database:
    """A :class:`Database` over what ``value`` names (:func:`parse_target`), ready to use.

    :raises TargetError: ``value`` names no database.
    :raises StoreUnavailableError: it cannot be opened: one sentence saying why.
    """
    target = parse_target(value)
    if isinstance(target, SqliteTarget):
        from upriver.database.sqlite import SqliteDatabase

        return SqliteDatabase(target)
    from upriver.database.postgres import PostgresDatabase

    return PostgresDatabase(target)
