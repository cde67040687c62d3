"""A seat's link as a QR code, for moving the seat to another device (a phone scans it).

- ``POST /api/tables/{id}/qr`` ``{"token"}`` → ``image/svg+xml``: the QR code of the seat's link
  ``{base}/t/{id}#token=…``, only when ``token`` opens a seat at this table; 403 otherwise, with the
  API's refusal (rule ``token``, and the ``reason`` a dead link has, as ``GET /api/tables/{id}``
  says it); 404 for no such table.

A POST, so the token travels in the body: never in a URL, a browser's history or an access log. The
link's base is the server's own when it was given one (the manager's ``base_url``), else the origin
of the page that asks (its ``Origin`` header, which the app's guard already allowed), else the
address the request came to: the code opens the seat on the site the person is using. The answer is
never cached.
"""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ConfigDict, Field

from upriver.web.hosting.guard import AnyObject, InputError, read_body, refusal
from upriver.web.hosting.limits import Limits
from upriver.web.play.lookup import TableRoute, table_lookup
from upriver.web.play.tables import Manager, Table

__all__ = ["SeatLinkRequest", "seat_qr_router"]


class SeatLinkRequest(AnyObject):
    """``POST /api/tables/{id}/qr``: the token of the seat whose link is drawn."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(min_length=1, max_length=200)


def _base(manager: Manager, request: Request) -> str:
    """Where the seat's link points: the server's own base, the asking page's origin, or this address."""
    if manager.base_url:
        return manager.base_url.rstrip("/")
    origin = request.headers.get("origin")
    if origin and origin != "null":
        return origin.rstrip("/")
    return str(request.base_url).rstrip("/")


def qr_svg(link: str) -> bytes:
    """The QR code of ``link`` as an SVG: dark modules on white with a quiet zone, so it scans on any
    page colour, and sized in its own units (the page scales it)."""
    code = segno.make(link, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False, svgclass=None)
    return out.getvalue()


def seat_qr_router(manager: Manager, limits: Limits | None = None) -> APIRouter:
    """The seat-link QR route, over ``manager``'s tables."""
    router = APIRouter(route_class=TableRoute)
    limits = limits or Limits()
    found = Depends(table_lookup(manager))  # the table the path names, or the one 404 refusal

    @router.post("/api/tables/{table_id}/qr")
    async def seat_qr(request: Request, table: Table = found) -> Response:
        try:
            body = await read_body(request, SeatLinkRequest, limits)
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        if table.seat_of(body.token) is None:
            return _dead(table, body.token)
        link = f"{_base(manager, request)}/t/{table.id}#token={body.token}"
        return Response(qr_svg(link), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    return router


def _dead(table: Table, token: str) -> JSONResponse:
    """The refusal of a token that opens no seat here: why, when it once opened one."""
    dead = table.keys.why_dead(token)
    if dead is None:
        return refusal(
            "this token opens no seat at this table: check that the whole link was copied",
            403,
            rule="token",
            reason="unknown",
        )
    return refusal(dead.sentence(), 403, rule="token", **dead.facts())
