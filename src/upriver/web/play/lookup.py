"""The one table look-up of the HTTP routes under ``/api/tables/{table_id}``, and its one refusal.

The look-up is a FastAPI dependency (:func:`table_lookup`): a route declares
``table: Table = Depends(lookup)`` and receives the table its path names; for a table that is not
there the client receives the API's one refusal, 404 ``{"error": "no such table (or it was
archived)"}``. The refusal is made by the routers' route class (:class:`TableRoute`), so a router
works the same inside the whole app (:mod:`upriver.web.play.routes`, :mod:`upriver.web.play.rematch`,
:mod:`upriver.web.review.api`) or alone in a test's app.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.routing import APIRoute

from upriver.web.hosting.guard import refusal
from upriver.web.play.tables import Manager, Table

__all__ = ["NO_SUCH_TABLE", "NoSuchTableError", "TableRoute", "table_lookup"]

NO_SUCH_TABLE = "no such table (or it was archived)"
"""The one refusal of a table the path names that is not there (404)."""


class NoSuchTableError(LookupError):
    """The table a route's path names is not there (never made, or archived); ``table_id`` is the name."""

    def __init__(self, table_id: str) -> None:
        super().__init__(NO_SUCH_TABLE)
        self.table_id = table_id


class TableRoute(APIRoute):
    """A route whose table look-up may refuse: :class:`NoSuchTableError`, raised by the look-up before
    the route runs, becomes the API's 404 refusal instead of a server error."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except NoSuchTableError:
                return refusal(NO_SUCH_TABLE, 404)

        return run


def table_lookup(manager: Manager) -> Callable[[str], Table]:
    """The dependency that finds the table a route's ``{table_id}`` names among ``manager``'s, or
    raises :class:`NoSuchTableError` (the routers' :class:`TableRoute` answers 404)."""

    def table(table_id: str) -> Table:
        found = manager.find(table_id)
        if found is None:
            raise NoSuchTableError(table_id)
        return found

    return table
