"""The account routes: the page ``/account`` and the JSON API under ``/api/account``.

An account is optional: nothing at a table needs one. It keeps the seats a person holds, so
that they find their games from any browser they sign in on (My tables). Every answer is JSON;
a refusal is ``{"error", "rule"?, "field"?}``: 400 bad input (naming what is wrong and what would
be right), 401 not signed in, 403 a missing or wrong CSRF token (or a seat's token that holds no
seat), 404 no such table, 409 a passkey that may not be removed or is registered already, 429 too
many attempts from one address. docs/accounts.md lists every route and its answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from upriver.database import DuplicateKeyError, Target
from upriver.names import PlayerNameError, TextError, player_name, text_line
from upriver.web.accounts import passkeys, sessions
from upriver.web.accounts.errors import AccountError
from upriver.web.accounts.mytables import bindable_seat, my_tables, seat_entry
from upriver.web.accounts.store import (
    AccountStore,
    Challenge,
    Passkey,
    SeatBinding,
    User,
    open_account_store,
)
from upriver.web.accounts.tokens import new_recovery_codes, new_user_id
from upriver.web.hosting.guard import InputError, RateLimiter, read_body, refusal
from upriver.web.hosting.limits import Limits
from upriver.web.play.tables import Manager

__all__ = ["AccountRoute", "AccountRouter", "account_router"]

STATIC = Path(__file__).resolve().parent.parent / "static"
PASSKEY_NAME = 40
"""The longest name a passkey may be given."""


class AccountRoute(APIRoute):
    """A route of the account or group API whose refusals (:class:`AccountError`, bad input) are the
    API's JSON, never a server error."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except AccountError as error:
                return refusal(str(error), error.status, **error.data)
            except InputError as error:
                return refusal(str(error), error.status, rule="request", field=error.field)

        return run


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Empty(_Body):
    """A body with nothing in it: ``{}``."""


class _NewAccount(_Body):
    name: str = Field(max_length=200)


class _Answer(_Body):
    ceremony: str = Field(max_length=100)
    credential: dict[str, Any]
    name: str | None = Field(default=None, max_length=200)


class _Rename(_Body):
    name: str = Field(max_length=200)


class _Code(_Body):
    code: str = Field(max_length=100)


class _Seat(_Body):
    table: str = Field(max_length=100)
    token: str = Field(max_length=200)


def _display_name(value: str) -> str:
    try:
        return player_name(value)
    except PlayerNameError as error:
        raise AccountError(f"'name': {error}", 400, field="name") from None


def _passkey_name(value: str | None, fallback: str) -> str:
    if value is None or not value.strip():
        return fallback
    try:
        return text_line(value, PASSKEY_NAME)
    except TextError as error:
        raise AccountError(f"'name': a passkey's name: {error}", 400, field="name") from None


def _passkey_json(key: Passkey, *, public: bool = False) -> dict[str, object]:
    """A passkey as the page shows it; ``public``: with its public key and counter (the export)."""
    data: dict[str, object] = {"id": key.id, "name": key.name, "created": key.created}
    data |= {"last_used": key.last_used, "transports": list(key.transports)}
    if public:
        data |= {"public_key": key.public_key, "sign_count": key.sign_count}
    return data


def _user_json(user: User) -> dict[str, object]:
    return {"id": user.id, "name": user.name, "created": user.created}


class AccountRouter(APIRouter):
    """The account routes, holding their store (the app closes it when it stops)."""

    store: AccountStore


def account_router(db_path: str | Path | Target, manager: Manager, limits: Limits) -> AccountRouter:
    """The account page and API over the accounts kept in ``db_path`` (the web tables' database)
    and the live tables of ``manager``.

    :raises upriver.database.StoreError: the database cannot be opened or prepared (one sentence).
    """
    router = AccountRouter(route_class=AccountRoute)
    db = router.store = open_account_store(db_path)
    attempts = RateLimiter(limits.sign_ins_per_minute)
    idle = limits.session_idle_days * 86_400

    def counted(request: Request) -> None:
        address = request.client.host if request.client is not None else "?"
        if not attempts.allow(address):
            raise AccountError(
                f"this address started {limits.sign_ins_per_minute} sign-ins or registrations in the "
                "last minute, this server's limit: wait a minute and try again",
                429,
                rule="rate",
            )

    def account_json(signed: sessions.Signed) -> dict[str, object]:
        user = signed.user
        return {
            "signed_in": True,
            "user": _user_json(user),
            "passkeys": [_passkey_json(key) for key in db.passkeys(user.id)],
            "recovery_codes_left": db.recovery_codes_left(user.id),
            "csrf": signed.session.csrf,
        }

    def sign_in(request: Request, user: User, extra: dict[str, object], status: int = 200) -> JSONResponse:
        """A fresh session for ``user`` (the browser's old one, if any, ended: rotation)."""
        old = sessions.current(request, db, idle)
        if old is not None:
            db.end_session(old.session.hash)
        session_id, session = db.new_session(user.id)
        response = JSONResponse({**account_json(sessions.Signed(user, session)), **extra}, status_code=status)
        sessions.set_cookie(response, request, session_id, idle)
        return response

    def ceremony(kind: str, rp: passkeys.RelyingParty, challenge: str, options: dict[str, Any],
                 user_id: str | None = None, name: str | None = None) -> dict[str, object]:  # fmt: skip
        kept = db.new_challenge(Challenge(kind=kind, challenge=challenge, user_id=user_id, name=name))
        return {"ceremony": kept, "options": options}

    def answered(body: _Answer, kind: str) -> Challenge:
        challenge = db.take_challenge(body.ceremony, kind)
        if challenge is None:
            raise AccountError(
                "'ceremony': no such passkey request is waiting (it expired after 5 minutes, was answered "
                "already, or was made for something else): start again",
                400,
                field="ceremony",
            )
        return challenge

    @router.get("/account", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "account.html")

    @router.get("/api/account")
    async def whoami(request: Request) -> JSONResponse:
        signed = sessions.current(request, db, idle)
        return JSONResponse({"signed_in": False} if signed is None else account_json(signed))

    @router.post("/api/account/register/options")
    async def register_options(request: Request) -> JSONResponse:
        body = await read_body(request, _NewAccount, limits)
        name = _display_name(body.name)
        rp = passkeys.RelyingParty.of(request)
        counted(request)
        user_id = new_user_id()
        challenge, options = passkeys.registration_options(rp, user_id, name, [])
        return JSONResponse(ceremony("register", rp, challenge, options, user_id, name))

    @router.post("/api/account/register")
    async def register(request: Request) -> JSONResponse:
        body = await read_body(request, _Answer, limits)
        rp = passkeys.RelyingParty.of(request)
        challenge = answered(body, "register")
        if challenge.user_id is None or challenge.name is None:  # a register challenge always has both
            raise AccountError("'ceremony': this passkey request made no account", 400, field="ceremony")
        key = passkeys.verify_registration(
            rp, body.credential, challenge.challenge, _passkey_name(body.name, "Passkey 1")
        )
        codes = new_recovery_codes()
        try:
            user = db.create_user(challenge.user_id, challenge.name, key, codes)
        except DuplicateKeyError:
            raise AccountError(
                "this passkey is registered already: sign in with it", 409, rule="passkey"
            ) from None
        return sign_in(request, user, {"recovery_codes": codes}, status=201)

    @router.post("/api/account/signin/options")
    async def signin_options(request: Request) -> JSONResponse:
        await read_body(request, _Empty, limits)
        rp = passkeys.RelyingParty.of(request)
        counted(request)
        challenge, options = passkeys.authentication_options(rp)
        return JSONResponse(ceremony("signin", rp, challenge, options))

    @router.post("/api/account/signin")
    async def signin(request: Request) -> JSONResponse:
        body = await read_body(request, _Answer, limits)
        rp = passkeys.RelyingParty.of(request)
        challenge = answered(body, "signin")
        key = db.passkey(passkeys.credential_id(body.credential))
        user = None if key is None else db.user(key.user_id)
        if key is None or user is None:
            raise AccountError(
                "this passkey is not registered here (it was removed, or its account deleted): create an "
                "account, or sign in with a recovery code",
                400,
                rule="passkey",
            )
        count = passkeys.verify_authentication(rp, body.credential, challenge.challenge, key)
        db.passkey_used(key.id, count)
        return sign_in(request, user, {})

    @router.post("/api/account/recover")
    async def recover(request: Request) -> JSONResponse:
        body = await read_body(request, _Code, limits)
        counted(request)
        user_id = db.use_recovery_code(body.code)
        user = None if user_id is None else db.user(user_id)
        if user is None:
            raise AccountError(
                "'code': this recovery code opens no account (each works once; "
                "one looks like abcd-efgh-jkmn)",
                400,
                field="code",
            )
        suggestion = (
            "you are signed in with a recovery code, which now opens nothing: add a passkey on this device"
        )
        return sign_in(request, user, {"recovered": True, "suggestion": suggestion})

    @router.post("/api/account/signout")
    async def signout(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        db.end_session(signed.session.hash)
        response = JSONResponse({"signed_in": False})
        sessions.clear_cookie(response, request)
        return response

    @router.post("/api/account/passkeys/options")
    async def passkey_options(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        await read_body(request, _Empty, limits)
        rp = passkeys.RelyingParty.of(request)
        user = signed.user
        challenge, options = passkeys.registration_options(rp, user.id, user.name, db.passkeys(user.id))
        return JSONResponse(ceremony("add", rp, challenge, options, user.id))

    @router.post("/api/account/passkeys")
    async def add_passkey(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        body = await read_body(request, _Answer, limits)
        rp = passkeys.RelyingParty.of(request)
        challenge = answered(body, "add")
        if challenge.user_id != signed.user.id:
            raise AccountError(
                "'ceremony': this passkey request was made for another account", 400, field="ceremony"
            )
        fallback = f"Passkey {len(db.passkeys(signed.user.id)) + 1}"
        key = passkeys.verify_registration(
            rp, body.credential, challenge.challenge, _passkey_name(body.name, fallback)
        )
        try:
            db.add_passkey(signed.user.id, key)
        except DuplicateKeyError:
            raise AccountError("this passkey is registered already", 409, rule="passkey") from None
        return JSONResponse(account_json(signed), status_code=201)

    @router.patch("/api/account/passkeys/{credential}")
    async def rename_passkey(credential: str, request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        body = await read_body(request, _Rename, limits)
        if not db.rename_passkey(signed.user.id, credential, _passkey_name(body.name, "")):
            raise AccountError("this account has no such passkey", 404, rule="passkey")
        return JSONResponse(account_json(signed))

    @router.delete("/api/account/passkeys/{credential}")
    async def remove_passkey(credential: str, request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        outcome = db.remove_passkey(signed.user.id, credential)
        if outcome == "missing":
            raise AccountError("this account has no such passkey", 404, rule="passkey")
        if outcome == "last":
            raise AccountError(
                "this is the account's only passkey, and without one nobody could sign in: add another "
                "passkey first, or delete the account",
                409,
                rule="last passkey",
            )
        return JSONResponse(account_json(signed))

    @router.post("/api/account/recovery-codes")
    async def recovery_codes(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        await read_body(request, _Empty, limits)
        return JSONResponse({"recovery_codes": db.new_recovery_codes(signed.user.id)})

    @router.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        db.delete_user(signed.user.id)
        response = JSONResponse({"signed_in": False, "deleted": True})
        sessions.clear_cookie(response, request)
        return response

    @router.get("/api/account/export")
    async def export(request: Request) -> Response:
        signed = sessions.signed_in(request, db, idle, csrf=False)
        user = signed.user
        data = {
            "exported": time.time(),
            "account": _user_json(user),
            "passkeys": [_passkey_json(key, public=True) for key in db.passkeys(user.id)],
            "recovery_codes_left": db.recovery_codes_left(user.id),
            "sessions": db.sessions(user.id),
            "seats": [
                {"table": seat.table_id, "seat": seat.seat, "tenure": seat.tenure, "bound": seat.bound}
                for seat in db.seats(user.id)
            ],
            "tables": my_tables(manager, db.seats(user.id)),
        }
        return Response(
            json.dumps(data, indent=2, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="upriver-account.json"'},
        )

    @router.post("/api/account/seats")
    async def bind_seat(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle)
        body = await read_body(request, _Seat, limits)
        table, seat, tenure = bindable_seat(manager, body.table, body.token)
        db.bind_seat(signed.user.id, table.id, seat, tenure)
        return JSONResponse(
            seat_entry(table, SeatBinding(table.id, seat, tenure, time.time())), status_code=201
        )

    @router.get("/api/account/tables")
    async def tables(request: Request) -> JSONResponse:
        signed = sessions.signed_in(request, db, idle, csrf=False)
        return JSONResponse(my_tables(manager, db.seats(signed.user.id)))

    return router
