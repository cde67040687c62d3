"""The server's own work per move at a web table, without the network: accepting it, and building
and encoding the state message of each of the four seats.

K four-player tables (people only, the classic preset) are made in one process over a temporary
SQLite file; then, round after round, each table's seat to act makes its first legal move through
``Manager.act`` and the four seats' states are built as the server's writer tasks would. The CPU
time of each part (``time.process_time``, so other jobs on the machine change it little) is
divided by the moves made. Run it as ``python bench/states.py --json``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from upriver.web.play.messages import Bid, Play
from upriver.web.play.tables import Manager
from upriver.web.seats.holders import Connection
from upriver.web.store import SqliteTableStore


def measure(tables: int, rounds: int) -> dict[str, object]:
    """Play ``rounds`` moves at each of ``tables`` tables; the CPU milliseconds a move of each part."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteTableStore(Path(folder) / "states.db")
        manager = Manager(store, bot_delay=0)
        live = []
        for _ in range(tables):
            table, _token = manager.create(name="P0", seats=["human"] * 4, options={})
            for seat in range(1, 4):
                manager.join(table, seat, f"P{seat}")
            live.append((table, [Connection(seat) for seat in range(4)]))
        moves = 0
        accepting = building = 0.0
        for _ in range(rounds):
            for table, connections in live:
                game = table.game
                assert game is not None
                if game.is_over:
                    continue
                seat = game.awaiting[0]
                move = (game.legal_bids(seat) or game.legal_cards(seat))[0]
                message = (
                    Bid(id=f"m{moves}", v=table.version, bid=move)
                    if isinstance(move, int)
                    else Play(id=f"m{moves}", v=table.version, card=str(move))
                )
                start = time.process_time()
                manager.act(table, seat, message)
                middle = time.process_time()
                for conn in connections:
                    table.state(conn, "")
                accepting += middle - start
                building += time.process_time() - middle
                moves += 1
        store.close()
    return {
        "tables": tables,
        "moves": moves,
        "accept_ms_per_move": round(accepting / moves * 1000, 3),
        "four_states_ms_per_move": round(building / moves * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of four people")
    parser.add_argument("--rounds", type=int, default=60, help="moves made at each table")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = measure(args.tables, args.rounds)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['moves']} moves at {args.tables} tables: accepting {figures['accept_ms_per_move']} ms, "
        f"the four seats' states {figures['four_states_ms_per_move']} ms of CPU a move"
    )


if __name__ == "__main__":
    main()
