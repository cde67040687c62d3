"""The event log: one JSON line per table made, event applied, refusal and server start or stop, with
never a token, a table's key, a player's name or a card still in a hand in it."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.webclient import Room
from upriver.actions import Phase
from upriver.web.app import create_app
from upriver.web.cluster.workers import ServeSettings
from upriver.web.hosting import eventlog
from upriver.web.hosting.hosts import HostPolicy

_CARD = re.compile(r"(10|[2-9TJQKA])[SHDC♠♥♦♣]")


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == "upriver.events"]


def test_the_event_log_tells_a_game_without_tokens_names_or_hidden_cards(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="upriver.events")
    secrets: set[str] = set()
    app = create_app(db, bot_delay=0.0, hosts=HostPolicy.of(("testserver",), "127.0.0.1"))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[1, 1])
        table = room.table
        secrets |= {token for token in table.tokens if token}
        secrets |= {str(table.seat_key), *(pending.invite for pending in table.keys.pending.values())}
        invites = client.get(f"/api/tables/{room.id}", params={"token": table.tokens[0]}).json()
        secrets |= {str(invite["url"]).split("#token=")[-1] for invite in invites.get("invites", [])}
        room.clients[1].act("bid", 0, v=0)  # refused: stale
        room.clients[1].error()
        while not room.game.is_over:
            room.move()
            secrets |= {token for token in table.tokens if token}
        names = [str(name) for name in table.names if name]
    lines = _lines(caplog)
    text = "\n".join(record.getMessage() for record in caplog.records if record.name == "upriver.events")
    assert secrets
    for secret in secrets:
        assert secret not in text
    for name in names:
        assert f'"{name}"' not in text
    assert lines[0]["event"] == "created"
    assert lines[0]["table"] == room.id
    assert lines[0]["kinds"] == ["human"] * 4
    applied = [line for line in lines if line["event"] == "applied"]
    assert [line["version"] for line in applied] == list(range(1, table.version + 1))
    assert {line["kind"] for line in applied} >= {"join", "bid", "play"}
    assert all(line["table"] == room.id for line in applied)
    assert all(("value" in line) == (line["kind"] in ("bid", "play")) for line in applied)
    assert {"event": "refused", "rule": "stale"}.items() <= next(
        line for line in lines if line["event"] == "refused"
    ).items()
    played: set[str] = set()
    for line in lines:  # a card is named only as it is played, never before
        if line.get("kind") == "play":
            played.add(line["value"])
        for value in line.values():
            if isinstance(value, str) and _CARD.fullmatch(value):
                assert value in played, f"{value} named before it was played: {line}"


@pytest.fixture
def served_settings() -> Iterator[None]:
    """Give the test process back its event log's handlers and its cycle collector as they were."""
    handlers, level, propagate = list(eventlog.log.handlers), eventlog.log.level, eventlog.log.propagate
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        eventlog.log.handlers[:] = handlers
        eventlog.log.setLevel(level)
        eventlog.log.propagate = propagate
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.mark.slow
@pytest.mark.usefixtures("served_settings")
def test_serve_with_the_event_log_writes_json_lines_from_start_to_stop_and_without_it_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = ServeSettings(db=str(tmp_path / "quiet.db"), warm=False, allowed_hosts=("testserver",))
    with TestClient(quiet.app()) as client:
        assert client.post("/api/tables", json={"name": "Ann", "seats": ["human"] * 3}).status_code == 201
    assert "upriver" not in capsys.readouterr().err
    assert not eventlog.log.isEnabledFor(logging.INFO)

    logged = ServeSettings(
        db=str(tmp_path / "logged.db"), warm=False, allowed_hosts=("testserver",), event_log=True
    )
    assert ServeSettings.from_json(logged.to_json()).event_log
    with TestClient(logged.app()) as client:
        body = client.post("/api/tables", json={"name": "Ann", "seats": ["human"] * 3}).json()
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    assert [line["event"] for line in lines] == ["started", "created", "applied", "stopped"]
    assert len({line["worker"] for line in lines}) == 1
    assert body["token"] not in json.dumps(lines)


def test_a_simultaneous_bid_is_logged_sealed_until_every_seat_has_bid_then_revealed(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="upriver.events")
    app = create_app(db, bot_delay=0.0, hosts=HostPolicy.of(("testserver",), "127.0.0.1"))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[2, 2], bidding="simultaneous", dealer_bid="free")
        made: list[list[int | None]] = []
        while not room.game.is_over:
            if room.game.phase is Phase.BIDDING:
                seat = room.game.awaiting[-1]  # the last pending bidder first: not seat order
                bid = room.game.legal_bids(seat)[-1]
                if not made or None not in made[-1]:
                    made.append([None] * len(room.game.players))
                made[-1][seat] = bid
                room.clients[seat].act("bid", bid)
                room.settle_all()
            else:
                room.move()
    lines = _lines(caplog)
    bids = [line for line in lines if line.get("kind") == "bid"]
    assert len(bids) == 8
    assert all(line["sealed"] is True and "value" not in line for line in bids)
    revealed = [line for line in lines if line["event"] == "revealed"]
    assert [line["bids"] for line in revealed] == made
    assert [line["round"] for line in revealed] == [1, 2]
    for line in revealed:  # right after the round's last bid
        before = lines[lines.index(line) - 1]
        assert (before["kind"], before["version"]) == ("bid", line["version"])
