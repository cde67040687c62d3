"""A table's pace (slow / normal / fast), the bot that is thinking, and the kernel warmed at start."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from upriver.web.app import create_app
from upriver.web.play import bots

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


class BotClock:
    """The bots' clock (``upriver.web.play.bots``'s ``asyncio``), with every wait written down and none
    taken: a bot moves as soon as it is due, so what a pace makes it wait is read, not timed."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(0)

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)


def bot_bids(ws: WebSocketTestSession, moves: int) -> list[dict[str, Any]]:
    """Every state received until ``moves`` bot bids were shown (the person at seat 0 bids at once
    when asked), or the bidding ended."""
    states: list[dict[str, Any]] = []
    seen: set[int] = set()
    shown = 0
    due = False
    while shown < moves:
        state = ws.receive_json()
        if state["type"] != "state" or state["game"] is None:
            continue
        states.append(state)
        game = state["game"]
        if state["v"] not in seen:
            seen.add(state["v"])
            shown += due
            due = False
            if game["phase"] != "bidding":
                break
            if game["my_turn"]:
                bid = next(o["bid"] for o in game["bid_options"] if o["legal"])
                ws.send_json({"type": "bid", "bid": bid, "v": state["v"], "id": f"b{state['v']}"})
            else:
                due = True
    return states


def test_a_fast_tables_bots_wait_a_quarter_of_the_bot_delay_and_a_slow_ones_twice_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: dict[str, list[float]] = {}
    for pace in ("fast", "slow"):
        clock = BotClock()
        monkeypatch.setattr(bots, "asyncio", clock)
        # A server of its own per pace, so that every wait written down is this table's.
        with TestClient(create_app(tmp_path / f"{pace}.db", bot_delay=0.8)) as client:
            table = create(client, pace=pace)
            with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}") as ws:
                states = bot_bids(ws, 2)
        assert {state["pace"] for state in states} == {pace}
        waits[pace] = clock.waits[:2]
    assert waits == {"fast": [0.2, 0.2], "slow": [1.6, 1.6]}


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
            states = bot_bids(ws, 3)
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
from upriver.web.play import bots
from upriver.web.play import bots
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
