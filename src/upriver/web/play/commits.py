"""Moves committed by a thread while the event loop serves the other tables (over PostgreSQL).

:class:`BackgroundCommits` is the part of :class:`upriver.web.play.tables.Manager` (``manager.commits``)
that drives an event's one path (:meth:`upriver.web.play.tables.Manager._path`, handed to it as
``path``) with its commits made off the event loop: a table's moves wait their turn in
``table.waiting`` and go one at a time (:meth:`BackgroundCommits.take`); the path yields each event
to commit, a thread commits it, and the path goes on with what the commit raised — applied and
announced, checked again after another process stored that version first, or refused.
A refusal goes to the move's ``refused`` (its sender waits for no answer), or to the log.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
from collections.abc import Callable, Generator

from upriver.database import StoreError
from upriver.errors import IllegalActionError
from upriver.web.play.table import CommitError, Refused, Table, TableRefusalError
from upriver.web.store import Event

__all__ = ["BackgroundCommits", "Steps", "in_event_loop"]

log = logging.getLogger("upriver.web")

_COMMITTERS = 4
"""Threads committing moves in the background: as many as the PostgreSQL pool's connections."""

Steps = Generator[Event, BaseException | None, None]
"""An event's way along its one path: it yields each event to commit and is sent what the commit
raised (``None``: committed)."""


def in_event_loop() -> bool:
    """Whether an event loop runs in this thread: only then can a commit go to a thread and its
    outcome come back to the loop (a test's synchronous call commits in place)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _tell(refused: Refused | None, error: Exception) -> None:
    if refused is None:
        log.info("a move committed in the background was refused: %s", error)
    else:
        refused(error)


Path = Callable[[Table, Callable[[], Event], None, float], Steps]
"""The manager's one path of every event (:meth:`upriver.web.play.tables.Manager._path`)."""


class BackgroundCommits:
    """The thread-committing driver of the manager's one path of events."""

    def __init__(
        self,
        *,
        background: bool,
        path: Path,
        commit: Callable[[str, Event], None],
        catch_up: Callable[[Table], None],
    ) -> None:
        """``background``: commit moves by threads (else :attr:`enabled` is off and nothing here runs);
        ``path``: the manager's one path of every event; ``commit``: commit one event to the store;
        ``catch_up``: apply what the store holds of a table after its version."""
        self._committer = (
            concurrent.futures.ThreadPoolExecutor(_COMMITTERS, thread_name_prefix="upriver-commit")
            if background
            else None
        )
        self._path = path
        self._commit = commit
        self._catch_up = catch_up

    @property
    def enabled(self) -> bool:
        """Whether moves are committed by threads here (a table's move goes through :meth:`take`)
        — only while an event loop runs in this thread (:func:`in_event_loop`)."""
        return self._committer is not None and in_event_loop()

    def close(self) -> None:
        """Let the moves being committed finish (unannounced, as after a crash) and stop the threads."""
        if self._committer is not None:
            self._committer.shutdown(wait=True, cancel_futures=True)

    def take(self, table: Table) -> None:
        """Take the table's next waiting move along its path, its commits made by a thread (one move
        of a table at a time); a refusal goes to the move's ``refused``."""
        while table.waiting and table.committing is None:
            make, refused, arrived = table.waiting.popleft()
            steps = self._path(table, make, None, arrived)
            self._step(table, steps, refused, functools.partial(next, steps))

    def _step(
        self, table: Table, steps: Steps, refused: Refused | None, advance: Callable[[], Event]
    ) -> None:
        """Go on along ``steps`` (``advance``: to the next commit): hand the commit to a thread, or
        settle the move and read what news came meanwhile."""
        try:
            event: Event | None = advance()
        except StopIteration:
            event = None
        except (TableRefusalError, IllegalActionError, CommitError) as error:
            _tell(refused, error)
            event = None
        except Exception:  # the table is damaged: it was logged, and says why to every seat
            event = None
        table.committing = event
        if event is not None:
            assert self._committer is not None
            future = asyncio.get_running_loop().run_in_executor(
                self._committer, self._commit, table.id, event
            )
            future.add_done_callback(functools.partial(self._committed, table, steps, refused))
        elif table.missed:  # news of later events came while committing: read them
            table.missed = False
            try:
                self._catch_up(table)
            except StoreError as error:
                log.error("table %s: the events other processes stored cannot be read: %s", table.id, error)

    def _committed(
        self, table: Table, steps: Steps, refused: Refused | None, future: asyncio.Future[None]
    ) -> None:
        """A background commit ended: go on along the move's path, then to the table's next move."""
        if future.cancelled():
            table.committing = None
            return
        self._step(table, steps, refused, functools.partial(steps.send, future.exception()))
        self.take(table)
