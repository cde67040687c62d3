"""A protocol fuzz test against a live app: every message gets a reply, none is logged as an error
or a traceback, and a refused message changes nothing."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.webclient import Room
from upriver.web.app import create_app

FIELDS = ("type", "id", "v", "bid", "card", "name", "seat")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
messages = st.one_of(
    st.dictionaries(
        st.sampled_from(FIELDS) | st.text(max_size=8),
        st.sampled_from(["join", "bid", "play", "sync", "revoke", "dance"]) | json_values,
        max_size=6,
    ).map(json.dumps),
    st.text(max_size=200),
    st.sampled_from(
        [
            "[" * 2000 + "]" * 2000,
            '{"type": "join", "name": "Bea\\ud800"}',
            '{"type": "bid", "bid": 0, "v": 1, "id": "c\\udfff"}',
            '{"type": "bid", "bid": ' + "9" * 5000 + ', "v": 1, "id": "n"}',
            '{"type": "play", "card": "ZZ", "v": 1, "id": "p"}',
        ]
    ),
)


@pytest.fixture(scope="module")
def room() -> Iterator[tuple[TestClient, Room]]:
    import contextlib
    import tempfile

    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        client = stack.enter_context(TestClient(create_app(Path(folder) / "t.db", bot_delay=0.0)))
        yield client, Room(client, stack, schedule=[3])


def snapshot(room: Room) -> tuple[Any, ...]:
    table = room.table
    return (table.version, tuple(table.names), tuple(table.tokens), room.game.log)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(messages, min_size=1, max_size=5))
def test_every_hostile_message_gets_a_reply_and_a_refusal_changes_nothing(
    room: tuple[TestClient, Room], batch: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    _client, live = room
    # A seat that may not move now: nothing it sends can be accepted, so the table must not change.
    idle = next(seat for seat in range(4) if seat not in live.game.awaiting)
    member = live.clients[idle]
    before = snapshot(live)
    with caplog.at_level(logging.WARNING):
        for text in batch:
            member.ws.send_text(text)
            reply = member.receive()
            while reply["type"] == "state" and not _is_sync(text):
                reply = member.receive()  # a state left over from an earlier sync
            assert reply["type"] in ("error", "state"), reply
            if reply["type"] == "error":
                assert len(reply["message"]) < 600
    assert snapshot(live) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text


def _is_sync(text: str) -> bool:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("type") == "sync"
