"""Clients of the web app's WebSocket API for the tests: :class:`Client`, which checks every message it
receives, and :class:`Room`, an all-human table with a client per seat.

Both check against the server's own table (:func:`tests.conftest.manager_of`): a seat's state may
show no card but those it was dealt, which only the whole deal tells.

And what a browser sends in a passkey ceremony, made by a software authenticator (:func:`created`,
:func:`asserted`), for the tests of accounts and of what needs one.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from fastapi.testclient import TestClient
from soft_webauthn import SoftWebauthnDevice  # type: ignore[import-untyped]
from starlette.testclient import WebSocketTestSession

from tests.conftest import manager_of
from upriver.actions import Phase
from upriver.game import Game
from upriver.web.play.tables import Table

HUMANS4 = ["human"] * 4
"""Four people: the seats of a table where the test alone moves the game."""


def own_cards(game: Game, seat: int) -> set[str]:
    """Every card ``seat`` was dealt in any round so far: all a seat's state may show as its hand."""
    cards = {str(c) for result in game.results if result.hands for c in result.hands[seat]}
    return cards | {str(c) for c in game.dealt_hand(seat) or ()}


class Client:
    """One WebSocket client of a table that checks every message it receives."""

    def __init__(self, ws: WebSocketTestSession, table: Table, seat: int | None) -> None:
        self.ws = ws
        self.table = table
        self.seat = seat
        self.v = -1
        self.ids = 0
        self.received: list[dict[str, Any]] = []

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.received.append(message)
        assert message["v"] >= self.v, "versions never go down"
        game = self.table.game
        state = message.get("game")
        if message["type"] == "state":
            assert message["v"] > self.v or self.v < 0 or message["v"] == self.v
            self.v = message["v"]
            if state is not None:
                assert game is not None
                shown = {entry["card"] for entry in state["hand"]}
                if self.seat is None:
                    assert shown == set(), "a spectator sees no hand"
                else:
                    assert shown <= own_cards(game, self.seat), "a seat sees only its own cards"
        return message

    def state(self) -> dict[str, Any]:
        """The next state message (errors before it are kept in ``received``)."""
        while True:
            message = self.receive()
            if message["type"] == "state":
                return message

    def error(self) -> dict[str, Any]:
        """The next error message. Before it may come only states at the version already seen (a
        seat's presence or the number watching changed: :mod:`upriver.web.seats.presence`), never a new
        one."""
        while True:
            seen = self.v
            message = self.receive()
            if message["type"] != "state" or message["v"] != seen:
                break
        assert message["type"] == "error", message
        return message

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def act(self, kind: str, value: Any, *, v: int | None = None, id: str | None = None) -> str:
        """Send a bid or a card against the last state seen (or ``v``); returns the message id."""
        self.ids += 1
        message_id = id or f"s{self.seat}-{self.ids}"
        key = "bid" if kind == "bid" else "card"
        self.send(type=kind, **{key: value}, v=self.v if v is None else v, id=message_id)
        return message_id


def create(client: TestClient, seats: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """Create a table (four people unless ``seats`` says otherwise) as Ann; the server's answer."""
    response = client.post("/api/tables", json={"name": "Ann", "seats": seats or HUMANS4, **options})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def seat_tokens(client: TestClient, table_id: str) -> list[str | None]:
    """Every seat's token (the creator is told only its own: a test plays every seat)."""
    return manager_of(client).tables[table_id].tokens


class Room:
    """An all-human table with every seat joined and a client per seat, each holding the first state."""

    def __init__(self, client: TestClient, stack: Any, **options: Any) -> None:
        body = create(client, **options)
        self.id = body["table"]
        self.table = manager_of(client).tables[self.id]
        self.clients: list[Client] = []
        for seat, token in enumerate(self.table.tokens):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{self.id}?token={token}"))
            member = Client(ws, self.table, seat)
            member.state()
            if seat:
                member.send(type="join", name=f"P{seat}")
            self.clients.append(member)
        for member in self.clients:
            self.settle(member)

    @property
    def game(self) -> Game:
        assert self.table.game is not None
        return self.table.game

    def settle(self, member: Client) -> dict[str, Any]:
        """Read states until this client has seen the table's current version, with no move of it
        being committed (over PostgreSQL a move is committed off the event loop, and a state at the
        same version may come before it: a seat's presence or the number watching changed)."""
        while True:
            message = member.state()
            if (
                message["v"] == self.table.version
                and self.table.committing is None
                and not self.table.waiting
            ):
                return message

    def settle_all(self) -> list[dict[str, Any]]:
        return [self.settle(member) for member in self.clients]

    def move(self) -> None:
        """The seat to act makes its first legal move, and every client catches up."""
        game = self.game
        seat = game.awaiting[0]
        if game.phase is Phase.BIDDING:
            self.clients[seat].act("bid", game.legal_bids(seat)[0])
        else:
            self.clients[seat].act("play", str(game.legal_cards(seat)[0]))
        self.settle_all()


def tables_loaded(client: TestClient) -> float:
    """How many tables the server has loaded, as its ``/metrics`` say (``upriver_tables``)."""
    lines = client.get("/metrics").text.splitlines()
    return sum(float(line.rpartition(" ")[2]) for line in lines if line.startswith("upriver_tables{"))


def found(client: TestClient, table: str) -> bool:
    """Whether the server has the table ``table`` (its summary answers rather than a 404)."""
    status: int = client.get(f"/api/tables/{table}").status_code
    assert status in (200, 404), status
    return status == 200


# ------------------------------------------------------------------ passkeys (a software authenticator)

ORIGIN = "http://localhost:8000"
"""WebAuthn refuses an IP address as the site's id: the tests' pages are at localhost."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def created(device: SoftWebauthnDevice, options: dict[str, Any], origin: str = ORIGIN) -> dict[str, Any]:
    """What a browser sends after ``navigator.credentials.create`` with the server's ``options``."""
    public = {**options, "challenge": unb64(options["challenge"])}
    public["user"] = {**options["user"], "id": unb64(options["user"]["id"])}
    made = device.create({"publicKey": public}, origin)
    return {
        "id": b64(made["rawId"]),
        "rawId": b64(made["rawId"]),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64(made["response"]["clientDataJSON"]),
            "attestationObject": b64(made["response"]["attestationObject"]),
            "transports": ["internal"],
        },
    }


def asserted(device: SoftWebauthnDevice, options: dict[str, Any], origin: str = ORIGIN) -> dict[str, Any]:
    """What a browser sends after ``navigator.credentials.get`` with the server's ``options``."""
    got = device.get({"publicKey": {**options, "challenge": unb64(options["challenge"])}}, origin)
    response = got["response"]
    return {
        "id": b64(got["rawId"]),
        "rawId": b64(got["rawId"]),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64(response["clientDataJSON"]),
            "authenticatorData": b64(response["authenticatorData"]),
            "signature": b64(response["signature"]),
            "userHandle": b64(response["userHandle"]),
        },
    }


class Person:
    """A browser signed in to its own account: its cookies, kept apart from the other browsers' on the
    one client of the app (one event loop, as a server has), and the page's CSRF token."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        device = SoftWebauthnDevice()
        asked = self.post("/api/account/register/options", {"name": name}, csrf=False).json()
        options = asked["options"]
        credential = created(device, options)
        answer = self.post(
            "/api/account/register", {"ceremony": asked["ceremony"], "credential": credential}, csrf=False
        )
        assert answer.status_code == 201, answer.text
        self.csrf: str = answer.json()["csrf"]
        self.id: str = answer.json()["user"]["id"]

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        self.client.cookies.clear()
        for name, value in self.cookies.items():
            self.client.cookies.set(name, value)
        answer = self.client.request(method, path, json=body, headers=headers)
        self.cookies = dict(self.client.cookies.items())
        return answer

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> Any:
        headers = {"Origin": ORIGIN} | ({"X-Upriver-CSRF": self.csrf} if csrf else {})
        return self.request("POST", path, {} if body is None else body, headers)

    def send(self, method: str, path: str, body: Any = None) -> Any:
        return self.request(method, path, body, {"Origin": ORIGIN, "X-Upriver-CSRF": self.csrf})

    def get(self, path: str) -> Any:
        return self.request("GET", path)


def group_with(admin: Person, *others: Person, name: str = "Thursdays") -> str:
    made = admin.post("/api/groups", {"name": name})
    assert made.status_code == 201, made.text
    group: str = made.json()["id"]
    for other in others:
        link = admin.post(f"/api/groups/{group}/invites", {"days": 7}).json()
        joined = other.post(f"/api/groups/{group}/join", {"invite": link["invite"]})
        assert joined.status_code == 200, joined.text
    return group
