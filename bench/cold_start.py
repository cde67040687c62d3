"""Cold start: how late the first expert bid of a table created as the server starts arrives.

Each run starts ``upriver serve`` afresh (its own port, database and numba cache folder, through
``NUMBA_CACHE_DIR``), creates a table as soon as the server answers (one person and three
``expert`` bots, classic rules with the keeper's left-hand neighbour dealing, so a bot bids first)
and listens on the person's WebSocket until the first bot's bid arrives. The bid is due the
table's bot delay (the normal pace) after the table was created; ``late_s`` is how long after
that it arrived. Three cases:

- ``cold``: an empty numba cache, as a fresh install's first start was before ``run.py serve``
  compiled the kernel at set-up: the server compiles it in the background while the table waits;
- ``set_up``: an empty cache, then ``run.py``'s set-up step (``run.WARM_KERNEL``, timed as
  ``set_up_s``), then the server: what a fresh install via ``python3 run.py serve`` gets;
- ``warm``: the cache the runs before left, as on every later start.

Run it from the checkout (about a minute on two cores; it prints JSON)::

    .venv/bin/python bench/cold_start.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run  # noqa: E402 - run.py lives at the checkout's root, beside no package

TABLE = {
    "name": "Ann",
    "seats": ["human", "expert", "expert", "expert"],
    "preset": "classic",
    "first_dealer": "left-of-keeper",
}
"""Seat 0 deals, so seat 1, an expert bot, bids first."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def first_bid(cache: Path, work: Path) -> dict[str, float]:
    """Start a server on ``cache``, create :data:`TABLE` at once, and time its first bot bid."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    db = work / f"{port}.sqlite3"
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "upriver", "serve", "--port", str(port), "--db", str(db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                options = httpx.get(f"{url}/api/options", timeout=1).json()
                break
            except httpx.TransportError:
                assert server.poll() is None, "the server stopped"
                assert time.perf_counter() - started < 60, "the server did not answer within 60 s"
                time.sleep(0.02)
        answering = time.perf_counter()
        made = httpx.post(f"{url}/api/tables", json=TABLE, timeout=10)
        created = time.perf_counter()
        assert made.status_code == 201, made.text
        body: dict[str, Any] = made.json()
        due = created + float(options["pace_seconds"][options["pace"]]["move"])
        token = str(body["url"]).split("#token=")[1]
        with connect(f"ws://127.0.0.1:{port}/ws/{body['table']}?token={token}", open_timeout=10) as ws:
            while True:
                message = json.loads(ws.recv(timeout=300))  # a cold compile on a busy machine is slow
                game = message.get("game") or {}
                if message.get("type") == "state" and any(bid is not None for bid in game.get("bids", [])):
                    arrived = time.perf_counter()
                    break
        return {
            "server_answers_s": round(answering - started, 3),
            "table_created_s": round(created - started, 3),
            "bid_due_s": round(due - started, 3),
            "bid_arrived_s": round(arrived - started, 3),
            "late_s": round(arrived - due, 3),
        }
    finally:
        server.terminate()
        server.wait(timeout=10)


def set_up(cache: Path) -> float:
    """``run.py serve``'s set-up step that compiles the kernel into ``cache``; its seconds."""
    start = time.perf_counter()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-c", run.WARM_KERNEL], env=env, check=True, cwd=ROOT)
    return round(time.perf_counter() - start, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"cold": [], "set_up": [], "warm": []}
    with tempfile.TemporaryDirectory(prefix="upriver-cold-") as folder:
        work = Path(folder)
        for attempt in range(args.repeat):
            cold = work / f"cold-{attempt}"
            runs["cold"].append(first_bid(cold, work))
            fresh = work / f"set-up-{attempt}"
            seconds = set_up(fresh)
            runs["set_up"].append({"set_up_s": seconds, **first_bid(fresh, work)})
            runs["warm"].append(first_bid(fresh, work))
    print(
        json.dumps(
            {
                "bench": "cold_start",
                "target": "the first expert bid arrives within 2 s of being due",
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                "table": TABLE,
                "runs": runs,
                "worst_late_s": {case: max(r["late_s"] for r in results) for case, results in runs.items()},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
