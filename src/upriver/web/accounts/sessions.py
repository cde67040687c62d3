"""Sessions by cookie, done as a browser expects: the cookie and the CSRF check.

The cookie holds the session id and nothing else; it is ``HttpOnly`` (no script reads it),
``SameSite=Lax`` (a foreign site's form or script does not send it), ``Secure`` when the request
came over TLS (the scheme uvicorn reports, behind a proxy from its forwarded headers), and
lives on the whole site. The server keeps only the id's SHA-256. Every request that changes
something under a session also sends ``X-Upriver-CSRF``, the session's own token, which only
the site's page can read (``GET /api/account``).
"""

from __future__ import annotations

import dataclasses
import hmac

from starlette.requests import Request
from starlette.responses import Response

from upriver.web.accounts.errors import AccountError
from upriver.web.accounts.store import AccountStore, Session, User

__all__ = ["COOKIE", "CSRF_HEADER", "Signed", "clear_cookie", "current", "set_cookie", "signed_in"]

COOKIE = "upriver_session"
"""The session cookie's name."""
CSRF_HEADER = "X-Upriver-CSRF"
"""The header a state-changing request under a session carries: the session's CSRF token."""


@dataclasses.dataclass(frozen=True, slots=True)
class Signed:
    """The account a request is signed in to, and its session."""

    user: User
    session: Session


def _secure(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: Request, session_id: str, max_age: float) -> None:
    """Give the browser its new session's cookie, for ``max_age`` seconds."""
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=int(max_age),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def clear_cookie(response: Response, request: Request) -> None:
    """Tell the browser to forget its session cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))


def current(request: Request, store: AccountStore, idle_seconds: float) -> Signed | None:
    """The account the request's cookie is signed in to, or ``None``."""
    session_id = request.cookies.get(COOKIE)
    if not session_id or len(session_id) > 200:
        return None
    session = store.session(session_id, idle_seconds)
    if session is None:
        return None
    user = store.user(session.user_id)
    return None if user is None else Signed(user, session)


def signed_in(request: Request, store: AccountStore, idle_seconds: float, *, csrf: bool = True) -> Signed:
    """The account the request is signed in to; with ``csrf`` (a request that changes something),
    only when it carries the session's CSRF token.

    :raises AccountError: 401 not signed in; 403 the CSRF token is missing or wrong.
    """
    signed = current(request, store, idle_seconds)
    if signed is None:
        raise AccountError("sign in first: this needs an account's session", 401, rule="signed out")
    if csrf:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent.isascii() or not hmac.compare_digest(sent, signed.session.csrf):
            raise AccountError(
                f"the {CSRF_HEADER} header must carry this session's token (GET /api/account gives it "
                "to the page): a request without it may come from another site",
                403,
                rule="csrf",
            )
    return signed
