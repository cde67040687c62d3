"""A table's pace (slow / normal / fast), the bot that is thinking, and the kernel warmed at start."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from upriver.web.app import create_app

BOTS3 = ["human", "basic", "basic", "basic"]


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """A server at the default bot delay (0.8 s for a normal pace)."""
    with TestClient(create_app(db)) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"name": "Ada", "seats": BOTS3, "preset": "classic", **body})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def bot_move_times(ws: WebSocketTestSession, moves: int) -> tuple[list[float], list[dict[str, Any]]]:
    """Seconds each of the first ``moves`` bot bids took, from the state that made it due to the
    state that shows it (the person at seat 0 bids at once when asked); every state received."""
    states: list[dict[str, Any]] = []
    seen: dict[int, float] = {}
    times: list[float] = []
    due: float | None = None
    while len(times) < moves:
        state = ws.receive_json()
        now = time.perf_counter()
        if state["type"] != "state" or state["game"] is None:
            continue
        states.append(state)
        game = state["game"]
        if state["v"] not in seen:
            seen[state["v"]] = now
            if due is not None:
                times.append(now - due)
            due = None
            if game["phase"] != "bidding":
                break
            if game["my_turn"]:
                bid = next(o["bid"] for o in game["bid_options"] if o["legal"])
                ws.send_json({"type": "bid", "bid": bid, "v": state["v"], "id": f"b{state['v']}"})
            else:
                due = now
    return times, states


def test_a_fast_tables_bots_answer_sooner_than_a_slow_ones(client: TestClient) -> None:
    seen: dict[str, list[float]] = {}
    for pace in ("fast", "slow"):
        table = create(client, pace=pace)
        with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}") as ws:
            seen[pace], states = bot_move_times(ws, 2)
        assert {state["pace"] for state in states} == {pace}
    assert len(seen["fast"]) == len(seen["slow"]) == 2, seen
    assert max(seen["fast"]) <= 0.6, seen
    assert min(seen["slow"]) >= 1.2, seen


def test_each_pace_sends_how_long_a_finished_trick_stays_up(client: TestClient) -> None:
    pauses = {}
    for pace in ("slow", "normal", "fast"):
        table = create(client, pace=pace)
        with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}") as ws:
            pauses[pace] = ws.receive_json()["trick_pause_ms"]
    assert pauses == {"slow": 2000, "normal": 1200, "fast": 600}


def test_a_table_created_without_a_pace_is_normal(client: TestClient) -> None:
    table = create(client)
    assert client.get("/api/options").json()["pace"] == "normal"
    with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}") as ws:
        assert ws.receive_json()["pace"] == "normal"


def test_an_unknown_pace_is_refused_naming_the_choices(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "Ada", "seats": BOTS3, "pace": "brisk"})
    assert response.status_code == 400
    answer = response.json()
    assert answer["field"] == "pace"
    assert all(f"'{pace}'" in answer["error"] for pace in ("slow", "normal", "fast")), answer
    assert client.get("/api/options").json()["paces"] == ["slow", "normal", "fast"]


def test_the_state_names_the_bot_that_is_thinking_and_no_one_on_a_persons_turn(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.1)) as client:
        table = create(client)
        with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}") as ws:
            _, states = bot_move_times(ws, 3)
    thinking = [state for state in states if state["thinking"] is not None]
    assert thinking, "no state said a bot was thinking"
    for state in thinking:
        assert state["thinking"] in state["game"]["awaiting"]
        assert state["game"]["kinds"][state["thinking"]] != "human"
    assert all(state["thinking"] is None for state in states if state["game"]["my_turn"])


WARM_THEN_PLAY = """
import json, sys, threading
from fastapi.testclient import TestClient
import upriver.fast.api, upriver.fast.infer, upriver.fast.kernel, upriver.fast.policies
from upriver import Game, preset
from upriver.bots import act, make_bot
from upriver.web import bots
from upriver.web.app import create_app

def compiled():
    modules = (upriver.fast.api, upriver.fast.infer, upriver.fast.kernel, upriver.fast.policies)
    return {f"{m.__name__}.{name}": len(getattr(f, "signatures", ()))
            for m in modules for name, f in vars(m).items() if hasattr(f, "signatures")}

with TestClient(create_app(sys.argv[1], warm=True)):
    started = [t for t in threading.enumerate() if t.name == "upriver-warm-kernel"]
    bots.warm_in_background().join()
before = compiled()
game = Game(preset("classic", player_count=4), seed=3)
players = [make_bot(kind, seed=seat) for seat, kind in enumerate(("normal", "hard", "expert", "basic"))]
for _ in range(30):
    seat = game.awaiting[0]
    act(game, seat, players[seat])
print(json.dumps({"started": len(started), "before": before, "after": compiled()}))
"""


@pytest.mark.slow
def test_the_warmed_server_has_compiled_everything_the_search_levels_then_use(tmp_path: Path) -> None:
    # A fresh process: nothing compiled in memory yet, whatever the disk cache holds.
    out = subprocess.run(
        [sys.executable, "-c", WARM_THEN_PLAY, str(tmp_path / "tables.db")],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["started"] == 1, "the app did not start warming the kernel as it started"
    assert any(seen["before"].values()), "warming compiled nothing"
    assert seen["after"] == seen["before"], "the search levels compiled what warming had not"
