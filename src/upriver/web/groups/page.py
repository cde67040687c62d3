"""The group page, ``/g/{id}``: the group's name, standings, chart, last games, next game night,
members and (for its admins) invite links.

The page holds nothing of the group itself: its script reads the members-only API
(:mod:`upriver.web.groups.routes`) as the person signed in, so a signed-out visitor or a non-member
is told why and shown no data. An invite link is ``/g/{id}#invite=SECRET``: the secret stays in the
fragment, which a browser never sends, so it reaches no server log; the page posts it to join.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

__all__ = ["group_page_router"]

STATIC = Path(__file__).resolve().parent.parent / "static"


def group_page_router() -> APIRouter:
    """The route of the group page (the same page for every group: it asks the API what to show)."""
    router = APIRouter()

    @router.get("/g/{group_id}", include_in_schema=False)
    async def page(group_id: str) -> FileResponse:
        return FileResponse(STATIC / "group.html")

    return router
