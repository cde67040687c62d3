"""Who plays for each seat is derived from the stored events alone: after any sequence of leaving,
coming back, confirming, people's own moves and the clock's automatic moves, a server restarted over
the same store knows the same stand-ins, automatic moves in a row, unconfirmed joins, bot-driven
seats and turn clocks (Hypothesis), and a refused request changes none of it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upriver.errors import IllegalActionError
from upriver.web.play.messages import Bid, Play
from upriver.web.play.settings import TableSettings
from upriver.web.play.table import Table, TableRefusalError
from upriver.web.play.tables import Manager
from upriver.web.store import Event, SqliteTableStore

_ACTIONS = st.lists(
    st.tuples(st.sampled_from(["leave", "back", "confirm", "own", "clock", "stand_in"]), st.integers(0, 2)),
    max_size=25,
)


class Ticking:
    """A clock that moves on one second each time it is read, so every event is stored at its own time."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def control(table: Table) -> tuple[object, ...]:
    c = table.control
    return (
        table.version,
        dict(c.standins),
        list(c.auto),
        dict(table.keys.pending),
        list(table.keys.tenure),
        list(c.turn_started),
        [move.json() for move in c.automatic],
        sorted(table.bots),
        list(table.tokens),
        [table.standin_status(seat) for seat in range(table.seats)],
    )


def in_a_row(events: list[Event], seat: int) -> int:
    """The clock's moves for ``seat`` since its person last moved or came back, counted from the log."""
    count = 0
    for event in events:
        if event.seat != seat:
            continue
        if event.kind in ("bid", "play") and event.client_id == "clock":
            count += 1
        elif (event.kind in ("bid", "play") and event.client_id != "standin") or event.kind == "back":
            count = 0
    return count


def play(manager: Manager, table: Table, action: str, seat: int) -> None:
    """One request; a refusal must change nothing."""
    game = table.game
    assert game is not None
    before = control(table)
    try:
        if action == "leave":
            manager.standins.leave(table, seat)
        elif action == "back":
            manager.standins.back(table, seat)
        elif action == "confirm":
            manager.standins.confirm(table, seat)
        elif action == "stand_in":
            manager.standins.stand_in(table, seat, "away")
        elif game.is_over or seat not in game.awaiting:
            return
        elif action == "clock":
            manager.standins.automatic_move(
                table, seat, (game.legal_bids(seat) or game.legal_cards(seat))[0], table.version
            )
        else:
            move = (game.legal_bids(seat) or game.legal_cards(seat))[0]
            message = (
                Bid(id=f"p{table.version}", v=table.version, bid=move)
                if isinstance(move, int)
                else Play(id=f"p{table.version}", v=table.version, card=str(move))
            )
            manager.act(table, seat, message)
    except (TableRefusalError, IllegalActionError):
        assert control(table) == before, "a refused request changed the table"


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(actions=_ACTIONS)
def test_a_restarted_server_knows_who_plays_for_each_seat_from_the_stored_events(
    actions: list[tuple[str, int]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tables.db"
        store = SqliteTableStore(path)
        manager = Manager(store, bot_delay=0.0, now=Ticking())
        table, _token = manager.create(
            name="Ann",
            seats=["human", "human", "human"],
            options={"schedule": [2, 1]},
            settings=TableSettings(clock=30),
        )
        for seat in (1, 2):
            manager.join(table, seat, f"P{seat}")
        for action, seat in actions:
            play(manager, table, action, seat)
        # Automatic moves in a row: the clock's since the seat's own last move or its return.
        for seat in range(3):
            assert table.auto_moves(seat) == in_a_row(store.events(table.id), seat)
        expected = control(table)
        store.close()
        again = SqliteTableStore(path)
        try:
            restarted = Manager(again, bot_delay=0.0, now=Ticking()).tables[table.id]
            assert control(restarted) == expected
        finally:
            again.close()
