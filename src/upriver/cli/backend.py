"""Run the arena's games, the self-play chunks and the review rounds as Ray tasks (``--ray``).

Each of those is a pure function of its arguments, so where it runs changes nothing:
:class:`RayExecutor` is a :class:`concurrent.futures.Executor` that sends each call to
Ray, on a local Ray started for the run (``num_cpus`` = the jobs asked for) or on a
cluster already running (``--ray-address``). At most one call per CPU runs at a time; the
rest wait here, so cancelling a waiting call works as with a process pool, a call that
has started runs to its end, and only ``shutdown(cancel_futures=True)`` abandons those
too. Ray is an optional extra (``upriver[cluster]``), imported only when asked for,
since importing it takes seconds.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import os
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import typer

from upriver.errors import UpriverError

__all__ = ["BackendError", "RayAddressOption", "RayExecutor", "RayOption", "ray_executor"]

T = TypeVar("T")

MISSING_RAY = "--ray needs the cluster extra: pip install 'upriver[cluster]'"
CONNECT_TIMEOUT_S = 5.0
"""How long to wait for a cluster's address to answer before saying it is unreachable
(Ray itself would retry for minutes)."""


RayOption = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Run the work as Ray tasks: on a local Ray of --jobs CPUs, or on the cluster at --ray-address "
        "(needs the cluster extra).",
    ),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="The Ray cluster to run on, HOST:PORT, ray://HOST:PORT or auto (implies --ray).",
        show_default=False,
    ),
]


TOKEN_HINT = (
    " (a cluster started with Ray's token authentication also needs RAY_AUTH_MODE=token here, "
    "and its token in RAY_AUTH_TOKEN or ~/.ray/auth_token)"
)
"""Ray's driver sends no token unless told to, and says only in its log that it was refused."""


class BackendError(UpriverError):
    """Ray cannot be used: it is not installed, or the cluster's address does not answer."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(MISSING_RAY) from None
    return ray


def _check_reachable(address: str) -> None:
    """Refuse at once an address nothing listens on (``auto`` is Ray's own lookup of a local cluster)."""
    if address == "auto":
        return
    parts = urlsplit(address if "://" in address else f"ray-gcs://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host or port is None:
        raise BackendError(
            f"--ray-address {address!r} is not a Ray address: give HOST:PORT (e.g. 10.0.0.5:6379), "
            "ray://HOST:PORT or auto"
        )
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise BackendError(f"cannot reach the Ray cluster at {address}: {reason}") from None


class RayExecutor(cf.Executor):
    """An executor whose calls run as Ray tasks, at most ``slots`` at a time.

    Needs Ray initialised (see :func:`ray_executor`). A task's exception is raised as
    itself, not as Ray's wrapper of it.
    """

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"slots must be at least 1, not {slots}")
        self._ray = _import_ray()
        self.slots = slots
        self._lock = threading.Lock()
        self._waiting: collections.deque[tuple[cf.Future[Any], Callable[..., Any], tuple[Any, ...]]] = (
            collections.deque()
        )
        self._running: dict[cf.Future[Any], Any] = {}
        self._remotes: dict[Callable[..., Any], Any] = {}
        self._closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> cf.Future[T]:
        """Queue ``fn(*args)`` to run as a Ray task (keyword arguments are not supported)."""
        if kwargs:
            raise TypeError("RayExecutor.submit takes positional arguments only")
        future: cf.Future[T] = cf.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot submit to a RayExecutor that was shut down")
            self._waiting.append((future, fn, args))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if len(self._running) >= self.slots or not self._waiting:
                    return
                future, fn, args = self._waiting.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                remote = self._remotes.get(fn)
                if remote is None:
                    remote = self._remotes[fn] = self._ray.remote(fn)
                ref = remote.remote(*args)
                self._running[future] = ref
            ref.future().add_done_callback(lambda done, future=future: self._finish(future, done))

    def _finish(self, future: cf.Future[Any], done: cf.Future[Any]) -> None:
        with self._lock:
            self._running.pop(future, None)
        try:
            future.set_result(done.result())
        except BaseException as error:  # handed over to the caller's future
            cause = getattr(error, "cause", None)
            future.set_exception(cause if isinstance(cause, BaseException) else error)
        self._dispatch()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more calls; with ``cancel_futures`` drop the waiting calls and stop the running
        tasks; with ``wait`` wait for the running ones."""
        with self._lock:
            self._closed = True
            waiting = list(self._waiting) if cancel_futures else []
            if cancel_futures:
                self._waiting.clear()
                for ref in self._running.values():
                    with contextlib.suppress(Exception):
                        self._ray.cancel(ref, force=True)
            running = list(self._running)
        for future, _, _ in waiting:
            future.cancel()
        if wait:
            cf.wait(running)


@contextlib.contextmanager
def ray_executor(jobs: int, address: str | None = None) -> Iterator[RayExecutor]:
    """A :class:`RayExecutor` on a local Ray of ``jobs`` CPUs, or on the cluster at ``address``
    (then as many tasks at once as the cluster has CPUs). A Ray started here is shut down on
    leaving; one already initialised in this process is used as it is and left running.

    :raises BackendError: Ray is not installed, or ``address`` does not answer.
    """
    ray = _import_ray()
    if address is not None:
        _check_reachable(address)
    started = False
    if not ray.is_initialized():
        try:
            if address is None:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            else:
                ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        except Exception as error:  # Ray raises many kinds; each means no Ray here
            where = "start a local Ray" if address is None else f"connect to the Ray cluster at {address}"
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            hint = ""
            if address is not None and os.environ.get("RAY_AUTH_MODE") is None:
                hint = TOKEN_HINT
            raise BackendError(f"cannot {where}: {first.rstrip('.')}{hint}") from None
        started = True
    slots = jobs if address is None else max(1, int(ray.cluster_resources().get("CPU", jobs)))
    executor = RayExecutor(slots)
    try:
        yield executor
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        if started:
            ray.shutdown()
