"""A bystander's hints while one client address floods the server with hint requests.

The server runs as its own process (``python -m upriver serve`` over a temporary SQLite file). A
bystander — a practice table of its own, one person and two ``basic`` bots, connecting from
another loopback address (127.0.0.2) — asks a hint at each of its decisions and then plays the
hinted move; its latency is from sending ``{"type": "hint"}`` to the answer. First alone (the
reference), then while a flood runs from 127.0.0.1: ``--tables`` practice tables, each open in
``--connections`` connections of its person's seat, every connection asking a hint at each of the
seat's decisions and again 10 ms after a refusal (``--hammer``: again after every answer too, a
connection's hints without pause), and each table playing the hinted move as soon as one comes,
so the flood keeps asking for new positions. Both phases are the same run on the same
server. Printed as one JSON object with ``--json``: the bystander's p50/p95/max alone and during
the flood, their ratio, and what the flood was answered (hints, refusals by case). Target: the
bystander's p95 during the flood ≤ 1 s.

Run it as ``python bench/hints_flood.py --json`` (28 tables × 8 connections by default).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Server:
    """``upriver serve`` on a free port over a throw-away SQLite file."""

    def __init__(self, folder: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "upriver", "serve", "--port", str(self.port)]
        command += ["--db", str(Path(folder) / "tables.db"), "--bot-delay", "0.05"]
        command += ["--creations-per-minute", "1000"]  # the flood's tables are made in a few seconds
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            assert self.process.poll() is None, "the server stopped"
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{self.url}/api/options", timeout=1).status_code == 200:
                    return
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)

    def table(self) -> Result:
        body = {
            "name": "Ann",
            "seats": ["human", "basic", "basic"],
            "hints": True,
            "schedule": [7] * 12,
        }
        response = httpx.post(f"{self.url}/api/tables", json=body, timeout=30)
        assert response.status_code == 201, response.text
        made: Result = response.json()
        return made

    async def socket(self, table: Result, source: str) -> ClientConnection:
        """A connection of the table's first seat from the loopback address ``source``."""
        raw = socket.socket()
        raw.bind((source, 0))
        raw.setblocking(False)
        await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", self.port))
        uri = f"ws://127.0.0.1:{self.port}/ws/{table['table']}?token={table['token']}"
        return await connect(uri, sock=raw, max_size=None, open_timeout=30)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


_ids = itertools.count()


def move_of(hint: Result) -> Result:
    """The move a hint advises, as a client sends it."""
    choice, ident = hint["choice"], f"m{next(_ids)}"
    if isinstance(choice, int):
        return {"type": "bid", "bid": choice, "v": hint["v"], "id": ident}
    return {"type": "play", "card": choice, "v": hint["v"], "id": ident}


async def my_turn(ws: ClientConnection, timeout: float = 30) -> int:
    """Read until a state where this seat has a decision; its version."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if message["type"] == "state" and message.get("game") and message["game"]["my_turn"]:
            return int(message["v"])


async def bystander(server: Server, hints: int) -> list[float]:
    """The seconds each of ``hints`` hints took to come, one decision after another."""
    times: list[float] = []
    while len(times) < hints:
        ws = await server.socket(server.table(), "127.0.0.2")
        try:
            while len(times) < hints:
                try:
                    version = await my_turn(ws, 10)
                except TimeoutError:
                    break  # the game is over: a new table
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "hint"}))
                while True:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if answer["type"] == "hint" and answer["v"] >= version:
                        break
                    assert answer["type"] != "error", answer
                times.append(time.perf_counter() - sent)
                await ws.send(json.dumps(move_of(answer)))
        finally:
            await ws.close()
    return times


async def flood(
    server: Server, tables: int, connections: int, hammer: bool, tally: collections.Counter[str]
) -> None:
    """Every connection of every flooding table asks a hint at each of its seat's decisions, and again
    when refused (``hammer``: again after every answer too, without pause); each table plays the first
    hint it gets, so it has a new position to ask about. Runs until cancelled."""

    async def one_table() -> None:
        table = server.table()
        sockets = [await server.socket(table, "127.0.0.1") for _ in range(connections)]
        played: set[int] = set()

        async def asker(ws: ClientConnection) -> None:
            asked = -1
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state":
                    mine = message.get("game") and message["game"]["my_turn"]
                    if mine and message["v"] > asked:  # every connection asks at each new decision
                        asked = message["v"]
                        await ws.send(json.dumps({"type": "hint"}))
                    continue
                if message["type"] == "hint":
                    tally["hint"] += 1
                    if message["v"] not in played:  # whichever connection has it first plays it
                        played.add(message["v"])
                        await ws.send(json.dumps(move_of(message)))
                elif message["type"] == "error":
                    case = (message.get("facts") or {}).get("case")
                    tally[f"refused {message['rule']}" + (f" {case}" if case else "")] += 1
                    await asyncio.sleep(0.01)
                    if not hammer and case in ("queue", "busy"):
                        await ws.send(json.dumps({"type": "hint"}))  # turned away: ask again
                        continue
                else:
                    continue
                if hammer:
                    await ws.send(json.dumps({"type": "hint"}))

        try:
            await asyncio.gather(*(asker(ws) for ws in sockets))
        finally:
            for ws in sockets:  # no closing handshakes: the server is stopped next
                ws.transport.abort()

    await asyncio.gather(*(one_table() for _ in range(tables)), return_exceptions=True)


def figures(times: list[float]) -> Result:
    return {
        "n": len(times),
        "p50_ms": round(statistics.median(times) * 1000),
        "p95_ms": round(percentile(times, 0.95) * 1000),
        "max_ms": round(max(times) * 1000),
    }


async def run(args: argparse.Namespace) -> Result:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(folder)
        try:
            await bystander(server, 3)  # the kernel loaded, the first hints' costs paid
            print("the bystander alone…", file=sys.stderr)
            alone = await bystander(server, args.hints)
            tally: collections.Counter[str] = collections.Counter()
            flooding = asyncio.create_task(flood(server, args.tables, args.connections, args.hammer, tally))
            await asyncio.sleep(args.ramp)
            print("the bystander during the flood…", file=sys.stderr)
            started = time.monotonic()
            during = await bystander(server, args.hints)
            seconds = time.monotonic() - started
            flooding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flooding
        finally:
            server.stop()
    result: Result = {
        "tables": args.tables,
        "connections": args.connections,
        "hammer": args.hammer,
        "alone": figures(alone),
        "flood": figures(during),
        "p95_ratio": round(percentile(during, 0.95) / percentile(alone, 0.95), 2),
        "flood_answers_per_s": {key: round(count / seconds, 1) for key, count in sorted(tally.items())},
        "target_p95_ms": 1000,
        "met": percentile(during, 0.95) <= 1.0,
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=28, help="flooding tables (one client address)")
    parser.add_argument("--connections", type=int, default=8, help="connections of each flooding table")
    parser.add_argument("--hints", type=int, default=40, help="the bystander's hints in each phase")
    parser.add_argument("--ramp", type=float, default=3.0, help="seconds of flood before measuring")
    parser.add_argument("--hammer", action="store_true", help="the flood asks again after every answer")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=None if args.json else 1))


if __name__ == "__main__":
    main()
