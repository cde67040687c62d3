"""What one server process tells the others over PostgreSQL arrives whole and in order, however many
notifications wait to be sent at once (they go in batches, not one round trip each)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import psycopg
import pytest

from tests.pg import PostgresServer
from upriver.web.cluster.news import REACTIONS_CHANNEL, PostgresCluster
from upriver.web.store import Event, open_table_store


class Quiet:
    """A follower with no tables."""

    def received(self, table_id: str, event: Event) -> None:
        pass

    def table_added(self, table_id: str) -> None:
        pass

    def catch_up_all(self) -> None:
        pass

    def needing_owner(self) -> Iterable[str]:
        return ()

    def took_over(self, table_id: str) -> None:
        pass


@pytest.mark.postgres
def test_a_burst_of_notifications_reaches_the_other_processes_whole_and_in_order(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.url(postgres_server.create_database())
    open_table_store(url).close()  # the tables the notifications' triggers are on
    sent = [f"reaction {n}" for n in range(450)]

    async def burst() -> list[str]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as other:
            await other.execute(f"LISTEN {REACTIONS_CHANNEL}")
            cluster = PostgresCluster(url)
            running = asyncio.create_task(cluster.run(Quiet()))
            try:
                for payload in sent:
                    cluster.publish(REACTIONS_CHANNEL, payload)
                heard: list[str] = []
                async with asyncio.timeout(20):
                    async for notify in other.notifies():
                        heard.append(notify.payload)
                        if len(heard) == len(sent):
                            break
                return heard
            finally:
                running.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await running
                cluster.close()

    assert asyncio.run(burst()) == sent
