"""Load test of `upriver serve`: K tables of four WebSocket players each, on loopback.

Every table is four people (four WebSocket clients) playing the classic preset. A client
whose turn it is waits ``--think`` seconds, then sends its first legal bid or card. The
latency of an action is the time from sending it to the moment the last of the table's
four clients has a state that includes it. ``--saturate`` drops the think time and reports
throughput (actions a second) as well.

The server runs as its own process (``python -m upriver serve``, a temporary database);
the clients run in ``--procs`` other processes, so server and clients share the machine's
cores. Run it as ``python bench/load.py --tables 500 --json``.

``--postgres`` keeps the tables in a private, throw-away PostgreSQL server instead (the tests'
own, ``tests/pg.py``: Debian's ``postgresql`` package, durability off as it is thrown away), or
``--db URL`` in a database of yours; ``--workers N`` runs ``upriver serve --workers N`` (N server
processes on one port, which needs PostgreSQL). The server's CPU is that of all its processes;
``actions_per_s_per_worker`` divides the throughput by N, and ``worker_cpu_ms_per_action`` gives
each worker's CPU over its even share of the moves (with no work done twice, one process's figure);
``--reference`` first plays the same load on one process, in the same run, and gives each
worker's ratio to it. A worker sends the states of the players connected to it and takes their
moves, so ``worker_cpu_ms_per_action_of_its_players`` divides its CPU by its share of the players
instead (read from ``/metrics`` during the run). The figures are printed as one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import queue
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

Result = dict[str, Any]
_STATE = '{"type":"state","v":'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> dict[int, float]:
    """User + system CPU time so far of a process and of each of its live descendants (Linux /proc),
    by process id."""
    found: dict[int, float] = {}
    pending = [pid]
    while pending:
        current = pending.pop()
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            found[current] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
    return found


class Table:
    """One table's four clients, and the actions in flight with their send times."""

    def __init__(self) -> None:
        self.sockets: list[ClientConnection] = []
        self.seen = [0, 0, 0, 0]  # newest version each seat has received
        self.pending: list[tuple[int, float]] = []  # (version the action was sent against, time sent)
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.over = False

    def received(self, seat: int, version: int, now: float, measuring: bool) -> None:
        self.seen[seat] = max(self.seen[seat], version)
        low = min(self.seen)
        while self.pending and self.pending[0][0] < low:
            _, sent = self.pending.pop(0)
            if measuring:
                self.latencies.append(now - sent)
                self.actions += 1


async def start_table(client: httpx.AsyncClient, url: str, table: Table) -> None:
    """Create a table, join its four seats and wait for the deal."""
    for attempt in range(3):
        try:
            response = await client.post(f"{url}/api/tables", json={"name": "P0", "seats": ["human"] * 4})
            break
        except httpx.TransportError:  # a kept-alive connection the busy server closed meanwhile: again
            if attempt == 2:
                raise
    created = response.json()
    base = url.replace("http", "ws") + f"/ws/{created['table']}?token="
    first = await connect(base + created["token"], max_queue=None, ping_interval=None)
    lobby = json.loads(await first.recv())["lobby"]
    tokens = [created["token"]] + [invite["url"].split("#token=")[1] for invite in lobby["invites"]]
    table.sockets = [first] + [
        await connect(base + token, max_queue=None, ping_interval=None) for token in tokens[1:]
    ]
    for seat, ws in enumerate(table.sockets[1:], start=1):
        await ws.recv()
        await ws.send(json.dumps({"type": "join", "name": f"P{seat}"}))


async def play_seat(table: Table, seat: int, think: float, state: dict[str, bool], count: list[int]) -> None:
    """Read this seat's states; on its turn, think, then send its first legal move."""
    ws = table.sockets[seat]
    acted = -1
    async for raw in ws:
        now = time.perf_counter()
        # Only the seat to act needs the whole state; the others read just the version, so the
        # clients' CPU goes to moving the game rather than to parsing JSON nobody looks at.
        text = raw if isinstance(raw, str) else raw.decode()
        if not text.startswith(_STATE):
            table.errors += 1
            continue
        version = int(text[len(_STATE) : text.index(",", len(_STATE))])
        table.received(seat, version, now, state["measuring"])
        if '"over":true' in text:
            table.over = True
            continue
        if '"my_turn":true' not in text or acted >= version or state["stopping"]:
            continue
        game = json.loads(text)["game"]
        acted = version
        if think:
            await asyncio.sleep(think)
        if game["bid_options"]:
            move: dict[str, Any] = {
                "type": "bid",
                "bid": next(o["bid"] for o in game["bid_options"] if o["legal"]),
            }
        else:
            move = {"type": "play", "card": next(h["card"] for h in game["hand"] if h["legal"])}
        count[0] += 1
        move.update(v=version, id=f"{seat}-{count[0]}")
        table.pending.append((version, time.perf_counter()))
        await ws.send(json.dumps(move))


async def run_clients(url: str, tables: int, think: float, warmup: float, seconds: float) -> Result:
    """One client process: start its tables, play, and measure during the window."""
    state = {"measuring": False, "stopping": False}
    count = [0]
    mine = [Table() for _ in range(tables)]
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        for start in range(0, tables, 20):
            await asyncio.gather(*(start_table(client, url, t) for t in mine[start : start + 20]))
    # The clients are the measuring instrument: their own collector's pauses would be counted as the
    # server's latency, so they are kept short as the server keeps its own (upriver.web.cluster.workers).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 100)
    tasks = [
        asyncio.create_task(play_seat(table, seat, think, state, count))
        for table in mine
        for seat in range(4)
    ]
    await asyncio.sleep(warmup)
    state["measuring"] = True
    began, began_wall, began_cpu = time.perf_counter(), time.time(), time.process_time()
    await asyncio.sleep(seconds)
    state["measuring"] = False
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - began_cpu
    state["stopping"] = True
    for task in tasks:
        task.cancel()
    for table in mine:
        for ws in table.sockets:
            await ws.close()
    return {
        "cpu": cpu,
        "window": (began_wall, began_wall + elapsed),
        "latencies": [x for t in mine for x in t.latencies],
        "actions": sum(t.actions for t in mine),
        "errors": sum(t.errors for t in mine),
        "over": sum(t.over for t in mine),
        "elapsed": elapsed,
    }


def client_process(args: tuple[str, int, float, float, float], out: Any) -> None:
    out.put(asyncio.run(run_clients(*args)))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def private_postgres(stack: contextlib.ExitStack) -> str:
    """A database on a private, throw-away PostgreSQL server (the tests' own), stopped with the stack."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.pg import PostgresServer

    server = PostgresServer()
    stack.callback(server.close)
    server.start()
    return server.url(server.create_database())


def start_server(stack: contextlib.ExitStack, db: str | None, workers: int) -> tuple[str, int]:
    """`python -m upriver serve` on a free port over ``db`` (default: a temporary SQLite file) with
    ``workers`` processes; stopped with the stack."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    if db is None:
        db = f"{stack.enter_context(tempfile.TemporaryDirectory())}/load.db"
    server = subprocess.Popen(
        # The bench creates every table from one address: lift the per-address creation limit.
        [
            *(sys.executable, "-m", "upriver", "serve", "--port", str(port), "--db", db),
            *("--creations-per-minute", "1000000", "--no-warm"),
            *(("--workers", str(workers)) if workers > 1 else ()),
        ],
        stdout=subprocess.DEVNULL,
    )

    def stop() -> None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    stack.callback(stop)
    deadline = time.monotonic() + 120  # a loaded machine may take long to start several workers
    while True:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}; see its error above")
        try:
            httpx.get(f"{url}/api/options", timeout=1)
            return url, server.pid
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


_PLAYERS = re.compile(
    r'^upriver_connections\{(?=[^}]*role="player")(?=[^}]*worker="(\d+)")[^}]*\} (\S+)$', re.M
)


def players_by_worker(url: str) -> dict[int, int]:
    """The players' connections of the server process one scrape of ``/metrics`` reaches, by its id."""
    with contextlib.suppress(httpx.HTTPError):
        page = httpx.get(f"{url}/metrics", timeout=1).text
        return {int(pid): int(float(count)) for pid, count in _PLAYERS.findall(page)}
    return {}


def run_load(
    args: argparse.Namespace, url: str, think: float, server_pid: int | None
) -> tuple[list[Result], dict[int, float] | None, dict[int, int]]:
    """Run the client processes; their results, the share of a core each server process used
    meanwhile (by process id: with ``--workers``, uvicorn's supervisor and each worker), and the
    players' connections each worker held (from ``/metrics``; a scrape reaches one of them)."""
    out: Any = multiprocessing.Queue()
    shares = [args.tables // args.procs + (i < args.tables % args.procs) for i in range(args.procs)]
    procs = [
        multiprocessing.Process(target=client_process, args=((url, n, think, args.warmup, args.seconds), out))
        for n in shares
    ]
    for proc in procs:
        proc.start()
    # Sample the server's CPU time a few times a second, to tell its share during the window.
    samples: list[tuple[float, dict[int, float]]] = []
    players: list[tuple[float, dict[int, int]]] = []
    results: list[Result] = []
    while len(results) < len(procs):
        if server_pid:
            samples.append((time.time(), cpu_seconds(server_pid)))
            if not players or time.time() - players[-1][0] >= 1.0:  # a scrape costs the server too
                players.append((time.time(), players_by_worker(url)))
        with contextlib.suppress(queue.Empty):
            results.append(out.get(timeout=0.2))
        if not any(proc.is_alive() for proc in procs) and out.empty() and len(results) < len(procs):
            raise SystemExit("a client process died; see its error above")
    for proc in procs:
        proc.join(timeout=30)
    if not samples:
        return results, None, {}
    start = max(r["window"][0] for r in results)
    end = min(r["window"][1] for r in results)
    inside = [(t, c) for t, c in samples if start <= t <= end]
    held: dict[int, int] = {}
    for t, seen in players:
        if start <= t <= end:
            held.update(seen)
    if len(inside) < 2:
        return results, None, held
    (first, before), (last, after) = inside[0], inside[-1]
    return results, {pid: (after[pid] - before.get(pid, 0.0)) / (last - first) for pid in after}, held


def measure(args: argparse.Namespace, think: float, workers: int) -> Result:
    """Start a server of ``workers`` processes (unless ``--url``), play the load on it, and give the
    figures."""
    with contextlib.ExitStack() as stack:
        if args.url:
            url, server_pid = args.url.rstrip("/"), None
        else:
            db = private_postgres(stack) if args.postgres else args.db
            url, server_pid = start_server(stack, db, workers)
        results, shares, held = run_load(args, url, think, server_pid)

    latencies = [x * 1000 for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    rate = actions / elapsed
    # The N busiest server processes are its workers (uvicorn's supervisor only watches them). A
    # worker's CPU a move is its CPU over its even share of the moves: were no work done twice, each
    # would equal one process's. A worker sends the states of the players it holds, and its own
    # players make its moves, so its share of the players is its fair share of the moves too.
    busiest = sorted((shares or {}).items(), key=lambda item: -item[1])[:workers]
    everyone = sum(held.get(pid, 0) for pid, _ in busiest)
    fair = [held.get(pid, 0) / everyone if everyone else None for pid, _ in busiest]
    return {
        "tables": args.tables,
        "clients": args.tables * 4,
        "think_s": think,
        "client_procs": args.procs,
        "window_s": round(elapsed, 2),
        "actions": actions,
        "store": "postgresql" if args.postgres or (args.db or "").startswith("postgres") else "sqlite",
        "workers": workers,
        "actions_per_s": round(rate, 1),
        "actions_per_s_per_worker": round(rate / workers, 1),
        "updates_per_s": round(4 * rate, 1),
        "latency_ms": {
            "p50": round(percentile(latencies, 0.50), 2),
            "p90": round(percentile(latencies, 0.90), 2),
            "p95": round(percentile(latencies, 0.95), 2),
            "p99": round(percentile(latencies, 0.99), 2),
            "max": round(max(latencies, default=float("nan")), 2),
            "mean": round(statistics.fmean(latencies), 2) if latencies else None,
        },
        "errors": sum(r["errors"] for r in results),
        "games_over": sum(r["over"] for r in results),
        "server_cpu_share": round(sum(shares.values()), 2) if shares else None,
        "server_cpu_ms_per_action": round(sum(shares.values()) * 1000 / rate, 3) if shares and rate else None,
        "worker_cpu_shares": [round(share, 2) for _, share in busiest],
        "worker_cpu_ms_per_action": [round(share * 1000 / (rate / workers), 3) for _, share in busiest]
        if rate
        else [],
        "worker_players": [held.get(pid) for pid, _ in busiest],
        "worker_cpu_ms_per_action_of_its_players": [
            round(share * 1000 / (rate * part), 3) if part else None
            for (_, share), part in zip(busiest, fair, strict=True)
        ]
        if rate
        else [],
        "client_cpu_share": round(sum(r["cpu"] for r in results) / elapsed, 2),
        "cores": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (four clients each)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a client thinks before it moves")
    parser.add_argument("--saturate", action="store_true", help="no think time: measure throughput")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the measured window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--url", help="use this running server instead of starting one (no CPU figure)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (upriver serve --workers)")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="with --workers N, first play the same load on one server process, and compare each "
        "worker's CPU a move with its",
    )
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--db", help="the server's --db (default: a temporary SQLite file)")
    store.add_argument("--postgres", action="store_true", help="a private PostgreSQL server as the store")
    args = parser.parse_args()
    think = 0.0 if args.saturate else args.think

    one = measure(args, think, 1) if args.reference and args.workers > 1 and not args.url else None
    figures = measure(args, think, args.workers)
    if one is not None and one["server_cpu_ms_per_action"]:
        figures["one_process"] = {
            key: one[key] for key in ("actions_per_s", "server_cpu_ms_per_action", "latency_ms")
        }
        figures["worker_cpu_ratio_to_one_process"] = [
            round(ms / one["server_cpu_ms_per_action"], 2) for ms in figures["worker_cpu_ms_per_action"]
        ]
        figures["worker_cpu_ratio_to_one_process_of_its_players"] = [
            None if ms is None else round(ms / one["server_cpu_ms_per_action"], 2)
            for ms in figures["worker_cpu_ms_per_action_of_its_players"]
        ]
    if args.json:
        print(json.dumps(figures))
        return
    lat = figures["latency_ms"]
    print(
        f"{args.tables} tables ({args.tables * 4} clients, think {think} s, {args.procs} client processes): "
        f"{figures['actions_per_s']} actions/s, latency p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
        f"p99 {lat['p99']} ms, max {lat['max']} ms; CPU in cores: server {figures['server_cpu_share']}, "
        f"clients {figures['client_cpu_share']}; CPU a move in each server process "
        f"{figures['worker_cpu_ms_per_action']} ms; errors {figures['errors']}"
        + (f"; ratio to one process {figures['worker_cpu_ratio_to_one_process']}" if one else "")
    )


if __name__ == "__main__":
    main()
