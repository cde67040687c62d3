"""The web tables' store on each engine: how long committing one event takes, and reading a table back.

For each store (a SQLite file in a temporary folder; PostgreSQL at ``--postgres URL``, or else a
private throw-away server started from Debian's binaries as the tests do, with fsync and
synchronous commit on as a server runs by default), it makes ``--tables`` tables, appends
``--events`` events to each in turn from one thread (as the server's event loop does: one table's
event after another's), and reads every table's events back. Prints per store the appends per
second and the latency of one append (p50, p99, max) in milliseconds, and the tables read back per
second, as JSON with ``--json``.

    python bench/store.py [--tables T] [--events E] [--postgres URL] [--json]

PostgreSQL is measured twice on the same server: as it comes (each commit waits for the disk) and
with ``options=-csynchronous_commit%3Doff`` in the URL (a commit returns before its WAL is flushed:
a crash of the *database server* may lose the last fraction of a second of moves; one of upriver's
processes dying loses nothing either way).

The appends are the cost a move pays before anyone is told of it (:meth:`TableStore.append`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pg import benched_database  # noqa: E402 - the tests' private server, from the checkout

from upriver.web.store import Event, TableStore, open_table_store  # noqa: E402


def measure(store: TableStore, tables: int, events: int) -> dict[str, float]:
    """Append ``events`` events to each of ``tables`` new tables in turn, then read them all back."""
    ids = [f"bench{n}" for n in range(tables)]
    for table_id in ids:
        store.add_table(table_id, {"kinds": ["human"] * 4})
    latencies: list[float] = []
    start = time.perf_counter()
    for version in range(1, events + 1):
        for table_id in ids:
            before = time.perf_counter()
            store.append(table_id, Event(version, "bid", version % 4, str(version % 3), f"m{version}"))
            latencies.append(time.perf_counter() - before)
    appending = time.perf_counter() - start
    start = time.perf_counter()
    for table_id in ids:
        assert len(store.events(table_id)) == events
    reading = time.perf_counter() - start
    latencies.sort()
    return {
        "appends_per_s": round(len(latencies) / appending),
        "append_p50_ms": round(statistics.median(latencies) * 1000, 3),
        "append_p99_ms": round(latencies[int(0.99 * (len(latencies) - 1))] * 1000, 3),
        "append_max_ms": round(latencies[-1] * 1000, 3),
        "tables_read_per_s": round(tables / reading),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--postgres", help="a postgresql:// URL (default: a private throw-away server)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, object] = {"tables": args.tables, "events_per_table": args.events}
    with tempfile.TemporaryDirectory() as folder:
        store = open_table_store(Path(folder) / "bench.db")
        try:
            results["sqlite"] = measure(store, args.tables, args.events)
        finally:
            store.close()
    with benched_database(args.postgres) as (url, how):
        # The same server, with each commit waiting for the disk (PostgreSQL's default), then not.
        relaxed = url + ("&" if "?" in url else "?") + "options=-csynchronous_commit%3Doff"
        for name, target in (("postgres", url), ("postgres_synchronous_commit_off", relaxed)):
            store = open_table_store(target)
            try:
                # CASCADE: other tables of the same database refer to these, and are emptied with them.
                store.db.execute("TRUNCATE events, tables CASCADE")
                results[name] = {**measure(store, args.tables, args.events), "server": how}
            finally:
                store.close()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name in ("sqlite", "postgres", "postgres_synchronous_commit_off"):
        print(name, results[name])


if __name__ == "__main__":
    main()
