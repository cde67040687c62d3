"""What the web server refuses before anything else reads a request: the limits, the origin, the body.

Every HTTP body and WebSocket message is read with a pydantic model
(``Model.model_validate_json`` of the raw bytes). pydantic-core's JSON parser refuses
nesting deeper than about 200 levels, lone UTF-16 surrogates (``"\\ud800"``) and numbers
too large for a 64-bit float or integer, so none of them reaches Python's ``json`` (whose
recursion and 4,300-digit limits raise unhelpful errors) or the store (whose UTF-8
encoding fails on a surrogate). A refusal is an :class:`InputError` that names the field
at fault and what would be right, in the API's error shape ``{"error", "field"}``.

:class:`~upriver.web.hosting.limits.Limits` holds the server's limits (``upriver serve`` sets them);
:class:`RateLimiter` counts creations per client address; :data:`SECURITY_HEADERS` and
:func:`origin_allowed` are the browser-facing defences (see "Security" in docs/hosting.md).
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse

from upriver.actions import Phase
from upriver.errors import RecordError
from upriver.names import PlayerNameError, check_names, quoted
from upriver.record import Record, RecordRuleError, loads, replay
from upriver.web.hosting import refusals
from upriver.web.hosting.hosts import HostPolicy
from upriver.web.hosting.limits import Limits, RoundsLimitError

__all__ = [
    "SECURITY_HEADERS",
    "AnyObject",
    "InputError",
    "RateLimiter",
    "continuable_record",
    "form_options",
    "guarded_record",
    "origin_allowed",
    "parse_json",
    "read_body",
    "record_within",
    "refusal",
    "rounds_within",
]

Model = TypeVar("Model", bound=BaseModel)


class InputError(ValueError):
    """A request or message the server will not read; ``field`` names the part at fault (or ``None``)."""

    def __init__(self, message: str, *, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.status = status


class AnyObject(BaseModel):
    """Any JSON object (its keys in ``model_extra``): the parser's limits, no fields of its own."""

    model_config = ConfigDict(extra="allow")

    def data(self) -> dict[str, Any]:
        """The object's keys and values."""
        return dict(self.model_extra or {})


def _json_sentence(message: str) -> str:
    if "recursion limit" in message:
        return "the JSON is nested too deep (at most about 200 levels of [ ] and { })"
    if "hex escape" in message or "surrogate" in message:
        return (
            "the JSON holds a lone UTF-16 surrogate (such as \\ud800), which is not text: send valid Unicode"
        )
    if "number out of range" in message:
        return "the JSON holds a number too large: whole numbers have at most 18 digits here"
    return f"not JSON: {message}"


def _has_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, list):
        return any(_has_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_has_surrogate(key) or _has_surrogate(item) for key, item in value.items())
    return False


def _surrogate_field(raw: bytes | str) -> str | None:
    """The top-level key whose value holds a lone surrogate, to name it in the refusal (or ``None``).

    Only called once pydantic-core has found one, on a body within the size limit; Python's
    parser, which lets surrogates through, reads it here only to find where.
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return next((str(key) for key, value in data.items() if _has_surrogate(value)), None)


def _field(loc: Iterable[int | str]) -> str | None:
    parts = [str(part) for part in loc]
    return parts[0] if parts else None


def parse_json(model: type[Model], raw: bytes | str) -> Model:
    """``raw`` read as ``model``, or :class:`InputError` naming the field and what would be right."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        if first["type"] == "json_invalid":
            reason = str(first.get("ctx", {}).get("error", first["msg"]))
            sentence = _json_sentence(reason)
            field = _surrogate_field(raw) if "surrogate" in sentence else None
            raise InputError(sentence if field is None else f"'{field}': {sentence}", field=field) from None
        if first["type"] == "model_type":
            raise InputError("the JSON must be an object { … }", field=None) from None
        field = _field(first["loc"])
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise InputError(f"'{where}': {first['msg']}", field=field) from None


async def read_body(request: Request, model: type[Model], limits: Limits) -> Model:
    """The request's JSON body as ``model``: ``application/json``, at most ``limits.body_bytes``.

    :raises InputError: 415 for another content type, 413 for a body too large, 400 for the rest.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise InputError(
            f"the request body must be sent as Content-Type: application/json, not {quoted(kind or 'none')}",
            field=None,
            status=415,
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.body_bytes:
        raise InputError(_too_large(limits), status=413)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limits.body_bytes:
            raise InputError(_too_large(limits), status=413)
    return parse_json(model, bytes(raw))


def _too_large(limits: Limits) -> str:
    return f"the request body is larger than this server's limit of {limits.body_bytes:,} bytes"


def form_options(body: Mapping[str, object], not_options: Iterable[str]) -> dict[str, object]:
    """The rule options of a request from a form: every key of ``body`` but ``not_options``,
    spelled as in the game record, a blank field (``""``) meaning not given (``None``).

    They are for :meth:`upriver.rules.Rules.from_options`, which refuses a key that is no option.

    >>> form_options({"seats": ["human"], "preset": "", "dealer_bid": "hook"}, ("seats",))
    {'preset': None, 'dealer_bid': 'hook'}
    """
    skip = frozenset(not_options)
    return {key: None if value == "" else value for key, value in body.items() if key not in skip}


def refusal(message: str, status: int = 400, **data: object) -> JSONResponse:
    """The API's error reply: ``{"error": sentence, …data}``, counted
    (:mod:`upriver.web.hosting.refusals`)."""
    rule = data.get("rule")
    refusals.count(rule if isinstance(rule, str) else f"http {status}")
    return JSONResponse({"error": message, **data}, status_code=status)


class RateLimiter:
    """At most ``per_minute`` events per key (a client address) in any 60 seconds."""

    def __init__(self, per_minute: int, *, clock: Any = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._seen: dict[str, collections.deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count one event for ``key``, unless it is over the limit (then ``False``, nothing counted)."""
        now = self._clock()
        times = self._seen.setdefault(key, collections.deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        if len(self._seen) > 10_000:  # forget quiet addresses so the table stays small
            for quiet in [k for k, v in self._seen.items() if not v or v[-1] <= now - 60]:
                del self._seen[quiet]
        return True


SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""Sent on every response: no inline script or style, no framing, no referrer (tokens live in links).
WebAssembly may be compiled (never JavaScript from text): the keeper's offline engine is Pyodide."""

_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def _origin_of(url: str) -> tuple[str, str, int | None] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme)
    return scheme, parts.hostname.lower(), port if port is not None else default


def origin_allowed(
    origin: str | None, host: str | None, allowed: Iterable[str] = (), hosts: HostPolicy | None = None
) -> bool:
    """Whether a request from ``origin`` (its Origin header) may change state on this server.

    No Origin header (a program, not a browser page) is allowed. Otherwise the origin must
    be one of ``allowed`` or, when that is empty, this server itself: the request's Host
    (its host and port), or a loopback name with the same port when Host is loopback; and
    its host must be one the server answers to (``hosts``, :mod:`upriver.web.hosting.hosts`).
    """
    if origin is None:
        return True
    seen = _origin_of(origin)
    if seen is None:
        return False
    allowed = list(allowed)
    if allowed:
        return any(_origin_of(item) == seen for item in allowed)
    if hosts is not None and not hosts.allows(seen[1]):
        return False
    if not host:
        return False
    own = _origin_of(f"{seen[0]}://{host}")
    if own is None:
        return False
    if own[1:] == seen[1:]:
        return True
    return own[1] in _LOOPBACK and seen[1] in _LOOPBACK and own[2] == seen[2]


def rounds_within(limits: Limits, rounds: int, what: str, field: str) -> None:
    """:meth:`Limits.check_rounds` as the API refuses it: :class:`InputError` (400) naming ``field``."""
    try:
        limits.check_rounds(rounds, what, field)
    except RoundsLimitError as error:
        raise InputError(str(error), field=field) from None


def _record_rounds(data: Mapping[str, object]) -> int:
    """The most rounds a record's JSON object lists: its rounds, or its rules' schedule (a list)."""
    rounds = data.get("rounds")
    rules = data.get("rules")
    schedule = rules.get("schedule") if isinstance(rules, dict) else None
    return max(
        len(rounds) if isinstance(rounds, list) else 0, len(schedule) if isinstance(schedule, list) else 0
    )


def record_within(text: str, limits: Limits) -> None:
    """Refuse a record (to continue at a table, or to keep as a sheet) longer than the server plays
    (:meth:`Limits.check_rounds`), counted from its JSON before the record is read; text that is no
    record is left for the reader to refuse.

    :raises InputError: (``field`` ``record``) the record has too many rounds.
    """
    try:
        data = parse_json(AnyObject, text).data()
    except InputError:
        return
    rounds_within(limits, _record_rounds(data), "the record", "record")


def guarded_record(text: str, limits: Limits | None = None) -> Record:
    """A game record sent to the web (to continue at a table, or to keep as a sheet), read safely.

    Its JSON is first read by pydantic-core, so nesting too deep, a lone surrogate or a
    number too large is an :class:`InputError` before the record reader sees it, and a game
    longer than ``limits`` allow is refused (:func:`record_within`); then the
    reader (:func:`upriver.record.loads`) reads it, and every player's name must be one a
    person could type here (:func:`upriver.names.check_names`).

    :raises InputError: (``field`` ``record``) the JSON, the length or a name; :raises RecordError,
        RecordRuleError: as the reader refuses the record.
    """
    try:
        data = parse_json(AnyObject, text).data()
    except InputError as error:
        raise InputError(f"the record: {error}", field="record") from None
    if limits is not None:
        rounds_within(limits, _record_rounds(data), "the record", "record")
    record = loads(text)
    if limits is not None:
        rounds_within(limits, record.rules.rounds, "the record's game", "record")
    try:
        check_names(record.players)
    except PlayerNameError as error:
        raise InputError(f"the record's players: {error}", field="record") from None
    return record


def continuable_record(text: str, seats: int, seed: int) -> str:
    """``text`` if it is a game record a web table of ``seats`` can continue, dealing every new
    round from ``seed`` (the server's secret): read safely (:func:`guarded_record`), played with
    cards, not over, and stopping between two rounds (never inside one, whose hands its sender wrote).

    :raises InputError: (``field`` ``record``) why the table cannot continue it.
    """
    try:
        record = guarded_record(text)
        game = replay(record, seed=seed)
    except (RecordError, RecordRuleError, InputError) as error:
        raise InputError(f"not a record this table can continue: {error}", field="record") from None
    if len(record.players) != seats:
        raise InputError(
            f"the record is for {len(record.players)} players, not {seats} seats", field="record"
        )
    if game.phase is Phase.TRICKS or (record.rounds and not record.rounds[-1].has_cards):
        raise InputError(
            "the record was kept at a real table (no cards); the web table plays with cards", field="record"
        )
    if game.is_over:
        raise InputError("the record's game is over: there is nothing left to play", field="record")
    if len(game.results) != len(record.rounds):
        raise InputError(
            f"the record stops inside a round (round {len(record.rounds)} is dealt but not finished): "
            "a saved game continues from the end of a round, and every new round is dealt by this server",
            field="record",
        )
    return text
