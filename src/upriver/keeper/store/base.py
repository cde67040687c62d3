"""Score sheets, beside the web app's tables in the same database: the one interface, :class:`SheetStore`.

A sheet's row holds what never changes (players, rules, title, its two links' ids);
``sheet_entries`` holds one row per entry with everything entered up to then, numbered
from 1 (the start). The newest row is the sheet; undo deletes it. Only the newest
:attr:`SheetStore.kept_entries` rows are kept (older ones are deleted as new ones come), so a
sheet's storage and the time to read it stay bounded however long it is kept: undo goes back
that many entries less one, and no further (a whole game is at most a few hundred entries, and
each row already holds everything entered). Each write is one
transaction committed before it returns, so a closed browser or a killed server loses
nothing, and the row number doubles as a version: a write based on an older version
(another phone, or the terminal, got there first) is refused with :class:`StaleSheetError`.

An entry made against a round (:mod:`upriver.keeper.conflicts`) goes through
:meth:`SheetStore.enter`, which applies it only if the round is as the entry saw it, and
otherwise keeps it in ``sheet_conflicts`` (one row per conflict, open until the table picks one
with :meth:`SheetStore.resolve`, then kept with the pick): the conflicts survive a restart like
every entry.

:mod:`upriver.keeper.store.sqlite` (the default) and :mod:`upriver.keeper.store.postgres`
differ only in their schema and their :class:`~upriver.database.Database`: every statement is
the same. A failure of the database is a :class:`~upriver.database.StoreError` (one sentence).

A sheet's players and rules are read back through the record reader. A sheet stored
before the reader's checks were the keeper's too (two names differing only in case, a
control character in a name) cannot be opened: :meth:`SheetStore.load` refuses it with
:class:`UnreadableSheetError`, saying why, and :meth:`SheetStore.sheets` lists it with
its :attr:`SheetSummary.problem`.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from abc import ABC, abstractmethod
from typing import Any

from upriver.database import Database, Transaction
from upriver.errors import IllegalActionError, RecordError
from upriver.keeper.commands import apply
from upriver.keeper.conflicts import (
    META,
    Conflict,
    Made,
    Pick,
    Verdict,
    decide,
    made_of,
    round_state,
    use_entry,
    wanted,
    why,
)
from upriver.keeper.entries import SheetEntries
from upriver.keeper.sheet import KeptSheet
from upriver.record import Record, parse_record, to_json
from upriver.record.decoding import printable

__all__ = [
    "ConflictGoneError",
    "Entered",
    "SheetStore",
    "SheetSummary",
    "StaleSheetError",
    "StoredSheet",
    "UnreadableSheetError",
]


class StaleSheetError(Exception):
    """The sheet changed since it was read; read it again and retry."""


class ConflictGoneError(LookupError):
    """The conflict named is not open on the sheet (resolved already, on this phone or another)."""

    def __init__(self, conflict_id: str) -> None:
        super().__init__(f"conflict {conflict_id} is not open on this sheet: it was resolved already")
        self.conflict_id = conflict_id


class UnreadableSheetError(RecordError):
    """A stored sheet whose players or rules the record reader refuses; ``sheet_id`` is its id
    and ``reason`` the reader's sentence."""

    def __init__(self, sheet_id: str, reason: str) -> None:
        super().__init__(f"sheet {sheet_id} cannot be opened: {reason}")
        self.sheet_id = sheet_id
        self.reason = reason


def _record(sheet_id: str, config: dict[str, object]) -> Record:
    """The stored sheet's rules and players, read as every record is read.

    :raises UnreadableSheetError: when the reader refuses them (a sheet stored before its checks).
    """
    try:
        return parse_record(config["record"])
    except RecordError as error:
        raise UnreadableSheetError(sheet_id, str(error)) from None


@dataclasses.dataclass(frozen=True, slots=True)
class StoredSheet:
    """A sheet as loaded: its edit id, its read-only share id, its version and the sheet."""

    id: str
    share: str
    version: int
    sheet: KeptSheet
    first: int = 1
    """The number of the oldest entry kept (the sheet's history starts there): ``version`` is
    ``first + len(sheet.history)``."""
    conflicts: tuple[Conflict, ...] = ()
    """The entries kept as conflicts, not yet resolved, oldest first."""


@dataclasses.dataclass(frozen=True, slots=True)
class Entered:
    """What :meth:`SheetStore.enter` did with an entry: applied it, found it there already, or kept
    it as ``conflict``; ``stored`` is the sheet after."""

    verdict: Verdict
    stored: StoredSheet
    conflict: Conflict | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SheetSummary:
    """One line of the list of sheets to resume."""

    id: str
    title: str
    players: tuple[str, ...]
    round: int
    rounds: int
    headline: str
    updated: float
    problem: str | None = None
    """Why the sheet cannot be opened (see :class:`UnreadableSheetError`), or ``None``."""


def _insert(tx: Transaction, sheet_id: str, seq: int, action: str, entries: SheetEntries, at: float) -> None:
    tx.execute(
        "INSERT INTO sheet_entries (sheet_id, seq, action, entries, at) VALUES (?, ?, ?, ?, ?)",
        (sheet_id, seq, action, json.dumps(entries.to_json()), at),
    )


def _summary(sheet: KeptSheet) -> str:
    scored = sheet.score_sheet
    return json.dumps(
        {
            "round": sum(1 for row in scored.rows if row.finished),
            "rounds": scored.rounds,
            "headline": scored.headline,
        }
    )


class SheetStore(ABC):
    """The score sheets of one database (the web app's, by default); subclasses give the schema."""

    kept_entries: int = 100
    """How many of a sheet's newest entries are kept (its storage's bound; undo goes back one less)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        try:
            db.prepare(self.schema())
        except BaseException:
            db.close()
            raise

    @abstractmethod
    def schema(self) -> str:
        """The ``CREATE TABLE IF NOT EXISTS`` script of ``sheets`` and ``sheet_entries``."""

    @property
    def target(self) -> str:
        """Where the sheets are kept, to name to a person (a PostgreSQL password hidden)."""
        return self.db.target.display

    def close(self) -> None:
        """Close the database connection(s)."""
        self.db.close()

    def create(self, sheet: KeptSheet) -> StoredSheet:
        """Store a new sheet (its whole history, so an imported or restored sheet keeps its undo)."""
        sheet_id, share = secrets.token_hex(10), secrets.token_hex(10)
        config = {
            "record": to_json(
                Record(rules=sheet.rules, players=sheet.starters, rounds=(), extras=sheet.extras)
            ),
            "title": sheet.title,
            "jack_procedure": sheet.jack_procedure,
        }
        now = time.time()
        version = len(sheet.history) + 1
        first = self._forget(sheet, 1, version)
        with self.db.transaction() as tx:
            tx.execute(
                "INSERT INTO sheets (id, share, created, updated, config, summary) VALUES (?, ?, ?, ?, ?, ?)",
                (sheet_id, share, now, now, json.dumps(config), _summary(sheet)),
            )
            for seq, entries in enumerate([*sheet.history, sheet.entries], start=first):
                _insert(tx, sheet_id, seq, "start" if seq == 1 else "entry", entries, now)
        return StoredSheet(sheet_id, share, version, sheet, first)

    def _forget(self, sheet: KeptSheet, first: int, version: int) -> int:
        """Drop from ``sheet``'s history (which starts at entry ``first``) what is older than the newest
        :attr:`kept_entries` entries up to ``version``; the number of the oldest entry it then keeps."""
        keep_from = max(first, version - self.kept_entries + 1)
        del sheet.history[: keep_from - first]
        return keep_from

    def _row(self, column: str, key: str) -> StoredSheet | None:
        row = self.db.fetch_one(f"SELECT id, share, config FROM sheets WHERE {column} = ?", (key,))
        if row is None:
            return None
        sheet_id, share, config_text = row
        config = json.loads(config_text)
        record = _record(sheet_id, config)
        rows = self.db.fetch(
            "SELECT seq, entries FROM sheet_entries WHERE sheet_id = ? ORDER BY seq DESC LIMIT ?",
            (sheet_id, self.kept_entries),
        )[::-1]
        states = [SheetEntries.from_json(json.loads(text)) for _, text in rows]
        sheet = KeptSheet(
            record.rules,
            record.players,
            states[-1],
            title=config["title"],
            jack_procedure=config["jack_procedure"],
            history=states[:-1],
            extras=record.extras,
        )
        first = rows[0][0]
        return StoredSheet(sheet_id, share, first + len(states) - 1, sheet, first, self._open(sheet_id))

    def _open(self, sheet_id: str) -> tuple[Conflict, ...]:
        rows = self.db.fetch(
            "SELECT data FROM sheet_conflicts WHERE sheet_id = ? AND resolved IS NULL ORDER BY opened, id",
            (sheet_id,),
        )
        return tuple(Conflict.from_json(json.loads(text)) for (text,) in rows)

    def load(self, sheet_id: str) -> StoredSheet | None:
        """The sheet with this edit id, or ``None``.

        :raises UnreadableSheetError: when its stored players or rules cannot be read back.
        """
        return self._row("id", sheet_id)

    def load_shared(self, share: str) -> StoredSheet | None:
        """The sheet with this read-only share id, or ``None``.

        :raises UnreadableSheetError: when its stored players or rules cannot be read back.
        """
        return self._row("share", share)

    def save(self, stored: StoredSheet, sheet: KeptSheet, action: str) -> StoredSheet:
        """Write ``sheet`` (changed from ``stored`` by one entry, edit or undo) in one transaction.

        Raises :class:`StaleSheetError`, writing nothing, if the stored sheet is no longer at
        ``stored.version``. Entries older than the newest :attr:`kept_entries` are deleted, and
        dropped from ``sheet``'s history.
        """
        with self.db.transaction() as tx:
            self._check(tx, stored)
            version, first = self._write(tx, stored, sheet, action)
        self._forget(sheet, stored.first, version)
        return StoredSheet(stored.id, stored.share, version, sheet, first, stored.conflicts)

    def _check(self, tx: Transaction, stored: StoredSheet) -> None:
        """Lock the sheet's row, so two writers of one version are served one after the other, and
        refuse with :class:`StaleSheetError` if it is no longer at ``stored.version``."""
        tx.fetch("SELECT id FROM sheets WHERE id = ?" + self.db.row_lock, (stored.id,))
        ((latest,),) = tx.fetch(
            "SELECT COALESCE(MAX(seq), 0) FROM sheet_entries WHERE sheet_id = ?", (stored.id,)
        )
        if latest != stored.version:
            raise StaleSheetError(
                f"the sheet changed (version {latest}, not {stored.version}); read it again"
            )

    def _write(self, tx: Transaction, stored: StoredSheet, sheet: KeptSheet, action: str) -> tuple[int, int]:
        """Write ``sheet`` as the entry after ``stored`` (:meth:`_check` first): its version, first entry."""
        version = stored.first + len(sheet.history)
        now = time.time()
        if version > stored.version:
            _insert(tx, stored.id, version, action, sheet.entries, now)
        else:
            tx.execute("DELETE FROM sheet_entries WHERE sheet_id = ? AND seq > ?", (stored.id, version))
        tx.execute(
            "UPDATE sheets SET updated = ?, summary = ? WHERE id = ?", (now, _summary(sheet), stored.id)
        )
        first = max(stored.first, version - self.kept_entries + 1)
        if first > stored.first:
            tx.execute("DELETE FROM sheet_entries WHERE sheet_id = ? AND seq < ?", (stored.id, first))
        return version, first

    # --------------------------------------------------- entries made against a round

    def enter(self, stored: StoredSheet, action: str, body: dict[str, Any], *, attempts: int = 5) -> Entered:
        """Make the entry ``action`` with ``body`` (:func:`upriver.keeper.commands.apply`'s, with how it
        was made: ``against``, ``device``, ``by``, ``queued``, :mod:`upriver.keeper.conflicts`) and save it.

        An entry made against a round applies only if the round is as it saw it; one the round
        already holds changes nothing; any other is kept as a conflict on the sheet, and so is a
        ``queued`` entry the engine refuses here (it was accepted on the phone that made it). A
        write that crossed another is decided again on the latest sheet (up to ``attempts`` times).
        An entry for no round, or made against nothing, is applied as it always was.

        :raises BadEntryError: the body is not what the action takes (or its ``against`` is not).
        :raises IllegalActionError: the engine refuses an entry that was not queued; nothing changes.
        :raises StaleSheetError: the sheet kept changing under it.
        """
        made = made_of(stored.sheet, body)
        entry = {key: value for key, value in body.items() if key not in META}
        if made.against is None:
            sheet, label = apply(stored.sheet, action, entry)
            return Entered(Verdict.APPLY, self.save(stored, sheet, label))
        for attempt in range(attempts):
            try:
                return self._enter(stored, action, entry, made)
            except StaleSheetError:
                again = self.load(stored.id)
                if attempt == attempts - 1 or again is None:
                    raise
                stored = again
        raise AssertionError("unreachable")  # the loop returns or raises

    def _enter(self, stored: StoredSheet, action: str, entry: dict[str, Any], made: Made) -> Entered:
        sheet, against = stored.sheet, made.against
        assert against is not None
        verdict = decide(sheet, action, entry, against)
        if verdict is Verdict.SAME:
            return Entered(verdict, stored)
        if verdict is Verdict.CONFLICT:
            return self._keep(stored, action, entry, made, why(sheet, against), "conflict")
        try:
            sheet, label = apply(sheet, action, entry)
        except IllegalActionError as error:
            if not made.queued:
                raise
            return self._keep(stored, action, entry, made, str(error), error.rule)
        return Entered(verdict, self.save(stored, sheet, label))

    def _keep(
        self, stored: StoredSheet, action: str, entry: dict[str, Any], made: Made, reason: str, rule: str
    ) -> Entered:
        """Keep an entry as a conflict (the same entry kept already is not kept twice)."""
        against = made.against
        assert against is not None
        conflict = Conflict(
            id=secrets.token_hex(6),
            round=against.round,
            action=action,
            body=entry,
            seen=against.seen,
            now=round_state(stored.sheet, against.round),
            wanted=wanted(stored.sheet, action, entry, against),
            device=made.device,
            by=made.by,
            at=time.time(),
            reason=reason,
            rule=rule,
        )
        with self.db.transaction() as tx:
            self._check(tx, stored)
            rows = tx.fetch(
                "SELECT data FROM sheet_conflicts WHERE sheet_id = ? AND resolved IS NULL", (stored.id,)
            )
            kept = [Conflict.from_json(json.loads(text)) for (text,) in rows]
            same = [c for c in kept if c.key == conflict.key]
            if same:
                conflict = same[0]
            else:
                tx.execute(
                    "INSERT INTO sheet_conflicts (sheet_id, id, opened, data) VALUES (?, ?, ?, ?)",
                    (stored.id, conflict.id, conflict.at, json.dumps(conflict.to_json())),
                )
                tx.execute("UPDATE sheets SET updated = ? WHERE id = ?", (conflict.at, stored.id))
                kept.append(conflict)
        return Entered(Verdict.CONFLICT, dataclasses.replace(stored, conflicts=tuple(kept)), conflict)

    def resolve(self, stored: StoredSheet, conflict_id: str, pick: Pick) -> StoredSheet:
        """The table's pick for a conflict: keep the sheet as it is, or make the round what the entry
        wanted (an edit, checked by the engine); a write of ``stored.version`` like any other.

        :raises ConflictGoneError: the conflict is not open (resolved already, here or on another phone).
        :raises IllegalActionError: the engine refuses the entry's values; nothing changes.
        :raises StaleSheetError: the sheet changed since ``stored`` was read.
        """
        found = [c for c in stored.conflicts if c.id == conflict_id]
        if not found:
            raise ConflictGoneError(conflict_id)
        sheet = stored.sheet
        if pick is Pick.ENTRY:
            use_entry(sheet, found[0])
        with self.db.transaction() as tx:
            self._check(tx, stored)
            done = tx.execute(
                "UPDATE sheet_conflicts SET resolved = ? WHERE sheet_id = ? AND id = ? AND resolved IS NULL",
                (pick.value, stored.id, conflict_id),
            )
            if done != 1:
                raise ConflictGoneError(conflict_id)
            if pick is Pick.ENTRY:
                version, first = self._write(tx, stored, sheet, f"conflict {found[0].round}")
            else:
                version, first = stored.version, stored.first
                tx.execute("UPDATE sheets SET updated = ? WHERE id = ?", (time.time(), stored.id))
        self._forget(sheet, stored.first, version)
        left = tuple(c for c in stored.conflicts if c.id != conflict_id)
        return StoredSheet(stored.id, stored.share, version, sheet, first, left)

    def sheets(self) -> list[SheetSummary]:
        """Every sheet, the most recently changed first; one that cannot be opened says why."""
        rows = self.db.fetch("SELECT id, config, summary, updated FROM sheets ORDER BY updated DESC, id")
        out = []
        for sheet_id, config_text, summary_text, updated in rows:
            config, summary = json.loads(config_text), json.loads(summary_text)
            problem = None
            try:
                players = _record(sheet_id, config).players
            except UnreadableSheetError as error:
                problem = error.reason
                players = tuple(printable(str(name)) for name in config["record"]["players"])
            out.append(
                SheetSummary(
                    id=sheet_id,
                    title=config["title"],
                    players=players,
                    round=summary["round"],
                    rounds=summary["rounds"],
                    headline=summary["headline"],
                    updated=updated,
                    problem=problem,
                )
            )
        return out
