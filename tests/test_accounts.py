"""Optional accounts by passkey, through the HTTP API with a software authenticator (soft-webauthn):
registering, signing out and in, a second passkey, the last one kept, recovery codes used once,
the CSRF header, the cookie's flags, a fresh session at each sign-in, the rate limit, deleting and
exporting an account, seats kept by an account and My tables; on SQLite and PostgreSQL, and a
session made by one server process accepted by another."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from soft_webauthn import SoftWebauthnDevice  # type: ignore[import-untyped]

from tests.pg import query
from tests.webclient import ORIGIN, asserted, created
from upriver.web.app import create_app
from upriver.web.hosting.limits import Limits


class Person:
    """A browser at the site: its HTTP client (with its cookies) and the page's CSRF token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.csrf = ""

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> Any:
        headers = {"Origin": ORIGIN} | ({"X-Upriver-CSRF": self.csrf} if csrf else {})
        return self.client.post(path, json={} if body is None else body, headers=headers)

    def send(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Origin": ORIGIN, "X-Upriver-CSRF": self.csrf}
        return self.client.request(method, path, json=body, headers=headers)

    def account(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get("/api/account").json()
        self.csrf = answer.get("csrf", "")
        return answer

    def register(self, device: SoftWebauthnDevice, name: str = "Ann") -> dict[str, Any]:
        asked = self.post("/api/account/register/options", {"name": name}, csrf=False)
        assert asked.status_code == 200, asked.text
        body = {"ceremony": asked.json()["ceremony"], "credential": created(device, asked.json()["options"])}
        answer = self.post("/api/account/register", body, csrf=False)
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]
        data: dict[str, Any] = answer.json()
        return data

    def sign_in(self, device: SoftWebauthnDevice) -> Any:
        asked = self.post("/api/account/signin/options", csrf=False)
        assert asked.status_code == 200, asked.text
        body = {"ceremony": asked.json()["ceremony"], "credential": asserted(device, asked.json()["options"])}
        answer = self.post("/api/account/signin", body, csrf=False)
        if answer.status_code == 200:
            self.csrf = answer.json()["csrf"]
        return answer

    def add_passkey(self, device: SoftWebauthnDevice, name: str) -> dict[str, Any]:
        asked = self.post("/api/account/passkeys/options")
        assert asked.status_code == 200, asked.text
        body = {"ceremony": asked.json()["ceremony"], "credential": created(device, asked.json()["options"])}
        answer = self.post("/api/account/passkeys", {**body, "name": name})
        assert answer.status_code == 201, answer.text
        data: dict[str, Any] = answer.json()
        return data


@contextlib.contextmanager
def site(db: str, base_url: str = ORIGIN, **limits: Any) -> Iterator[Person]:
    with TestClient(create_app(db, bot_delay=0.0, limits=Limits(**limits)), base_url=base_url) as client:
        yield Person(client)


@pytest.fixture
def ann(db: str) -> Iterator[Person]:
    with site(db) as person:
        yield person


def test_a_new_account_is_signed_in_with_its_passkey_and_sees_its_ten_recovery_codes_once(
    ann: Person,
) -> None:
    made = ann.register(SoftWebauthnDevice(), "Ann")
    assert len(made["recovery_codes"]) == 10
    assert len(set(made["recovery_codes"])) == 10
    account = ann.account()
    assert account["signed_in"]
    assert account["user"]["name"] == "Ann"
    assert [key["name"] for key in account["passkeys"]] == ["Passkey 1"]
    assert account["recovery_codes_left"] == 10
    assert "recovery_codes" not in account


def test_signing_out_ends_the_session_and_the_passkey_signs_in_again(ann: Person) -> None:
    device = SoftWebauthnDevice()
    ann.register(device)
    assert ann.post("/api/account/signout").json() == {"signed_in": False}
    assert ann.account() == {"signed_in": False}
    answer = ann.sign_in(device)
    assert answer.status_code == 200
    assert answer.json()["user"]["name"] == "Ann"
    assert ann.account()["passkeys"][0]["last_used"] is not None


def test_a_second_passkey_signs_in_and_the_last_passkey_cannot_be_removed(ann: Person) -> None:
    phone, laptop = SoftWebauthnDevice(), SoftWebauthnDevice()
    first = ann.register(phone)["passkeys"][0]["id"]
    keys = ann.add_passkey(laptop, "Laptop")["passkeys"]
    assert [key["name"] for key in keys] == ["Passkey 1", "Laptop"]
    ann.post("/api/account/signout")
    assert ann.sign_in(laptop).status_code == 200
    renamed = ann.send("PATCH", f"/api/account/passkeys/{first}", {"name": "Phone"})
    assert [key["name"] for key in renamed.json()["passkeys"]] == ["Phone", "Laptop"]
    assert [
        key["name"] for key in ann.send("DELETE", f"/api/account/passkeys/{first}").json()["passkeys"]
    ] == ["Laptop"]
    last = ann.send("DELETE", f"/api/account/passkeys/{keys[1]['id']}")
    assert last.status_code == 409
    assert "add another passkey first, or delete the account" in last.json()["error"]
    ann.post("/api/account/signout")
    assert ann.sign_in(phone).status_code == 400  # the removed passkey opens nothing


def test_a_recovery_code_signs_in_once_and_new_codes_replace_the_old(ann: Person) -> None:
    codes = ann.register(SoftWebauthnDevice())["recovery_codes"]
    ann.post("/api/account/signout")
    used = ann.post("/api/account/recover", {"code": codes[0].upper().replace("-", " ")}, csrf=False)
    assert used.status_code == 200
    assert used.json()["recovered"]
    assert "add a passkey" in used.json()["suggestion"]
    ann.csrf = used.json()["csrf"]
    assert ann.account()["recovery_codes_left"] == 9
    ann.post("/api/account/signout")
    again = ann.post("/api/account/recover", {"code": codes[0]}, csrf=False)
    assert again.status_code == 400
    assert again.json()["field"] == "code"
    assert ann.post("/api/account/recover", {"code": codes[1]}, csrf=False).status_code == 200
    ann.account()
    fresh = ann.post("/api/account/recovery-codes").json()["recovery_codes"]
    ann.post("/api/account/signout")
    assert ann.post("/api/account/recover", {"code": codes[2]}, csrf=False).status_code == 400
    assert ann.post("/api/account/recover", {"code": fresh[0]}, csrf=False).status_code == 200


def test_a_change_without_the_sessions_csrf_token_is_refused(ann: Person) -> None:
    ann.register(SoftWebauthnDevice())
    without = ann.post("/api/account/signout", csrf=False)
    assert without.status_code == 403
    assert without.json()["rule"] == "csrf"
    ann.csrf = "not-the-token"
    assert ann.post("/api/account/recovery-codes").status_code == 403
    assert ann.send("DELETE", "/api/account").status_code == 403
    assert ann.account()["signed_in"]  # nothing was changed


def test_without_a_session_the_account_routes_answer_401(ann: Person) -> None:
    for answer in (
        ann.client.get("/api/account/tables"),
        ann.client.get("/api/account/export"),
        ann.post("/api/account/signout"),
        ann.post("/api/account/seats", {"table": "x", "token": "y"}),
        ann.send("DELETE", "/api/account"),
    ):
        assert (answer.status_code, answer.json()["rule"]) == (401, "signed out"), answer.text


def cookie_flags(db: str, base_url: str) -> str:
    """The ``Set-Cookie`` header of a new account's session at a site served at ``base_url``."""
    with TestClient(create_app(db, bot_delay=0.0), base_url=base_url) as client:
        asked = client.post(
            "/api/account/register/options", json={"name": "Bob"}, headers={"Origin": base_url}
        )
        options = asked.json()["options"]
        body = {
            "ceremony": asked.json()["ceremony"],
            "credential": created(SoftWebauthnDevice(), options, base_url),
        }
        answer = client.post("/api/account/register", json=body, headers={"Origin": base_url})
        assert answer.status_code == 201, answer.text
        return str(answer.headers["set-cookie"]).lower()


def test_the_session_cookie_is_httponly_and_samesite_lax_and_secure_only_over_tls(db: str) -> None:
    plain = cookie_flags(db, ORIGIN)
    assert plain.startswith("upriver_session=")
    assert "httponly" in plain
    assert "samesite=lax" in plain
    assert "secure" not in plain
    assert "path=/" in plain
    tls = cookie_flags(db, "https://localhost")
    assert "httponly" in tls
    assert "samesite=lax" in tls
    assert "; secure" in tls


def test_signing_in_gives_a_fresh_session_and_the_old_one_opens_nothing(ann: Person) -> None:
    device = SoftWebauthnDevice()
    ann.register(device)
    before = ann.client.cookies["upriver_session"]
    assert ann.sign_in(device).status_code == 200
    after = ann.client.cookies["upriver_session"]
    assert after != before
    old = ann.client.get("/api/account", headers={"Cookie": f"upriver_session={before}"})
    assert old.json() == {"signed_in": False}
    assert ann.client.get("/api/account", headers={"Cookie": f"upriver_session={after}"}).json()["signed_in"]


def test_too_many_sign_ins_from_one_address_are_refused_for_a_minute(db: str) -> None:
    with site(db, sign_ins_per_minute=3) as person:
        for _ in range(3):
            assert person.post("/api/account/signin/options", csrf=False).status_code == 200
        refused = person.post("/api/account/signin/options", csrf=False)
        assert refused.status_code == 429
        assert refused.json()["rule"] == "rate"
        assert person.post("/api/account/register/options", {"name": "Ann"}, csrf=False).status_code == 429
        assert person.post("/api/account/recover", {"code": "abcd-efgh-jkmn"}, csrf=False).status_code == 429


def test_bad_requests_are_refused_with_a_sentence_naming_what_is_wrong(ann: Person) -> None:
    empty = ann.post("/api/account/register/options", {"name": "  "}, csrf=False)
    assert empty.status_code == 400
    assert empty.json()["field"] == "name"
    unknown = ann.post("/api/account/signin", {"ceremony": "nope", "credential": {"id": "x"}}, csrf=False)
    assert unknown.status_code == 400
    assert unknown.json()["field"] == "ceremony"
    asked = ann.post("/api/account/register/options", {"name": "Ann"}, csrf=False).json()
    garbage = ann.post(
        "/api/account/register", {"ceremony": asked["ceremony"], "credential": {"id": "x"}}, csrf=False
    )
    assert garbage.status_code == 400
    assert "could not be verified" in garbage.json()["error"]
    used = ann.post(
        "/api/account/register", {"ceremony": asked["ceremony"], "credential": {"id": "x"}}, csrf=False
    )
    assert used.status_code == 400
    assert used.json()["field"] == "ceremony"
    no_origin = ann.client.post("/api/account/signin/options", json={})
    assert no_origin.status_code == 400
    assert "Origin" in no_origin.json()["error"]
    extra = ann.post("/api/account/signin/options", {"user": "Ann"}, csrf=False)
    assert extra.status_code == 400
    assert extra.json()["field"] == "user"


def test_a_passkey_request_from_an_ip_address_is_refused_saying_to_use_a_host_name(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.0), base_url="http://127.0.0.1:8000") as client:
        answer = client.post(
            "/api/account/signin/options", json={}, headers={"Origin": "http://127.0.0.1:8000"}
        )
    assert answer.status_code == 400
    assert "localhost" in answer.json()["error"]


def test_deleting_the_account_removes_everything_of_it(db: str, ann: Person) -> None:
    device = SoftWebauthnDevice()
    made = ann.register(device)
    table = ann.client.post("/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]}).json()
    assert (
        ann.post("/api/account/seats", {"table": table["table"], "token": table["token"]}).status_code == 201
    )
    answer = ann.send("DELETE", "/api/account")
    assert answer.json() == {"signed_in": False, "deleted": True}
    user = made["user"]["id"]
    for name in ("account_passkeys", "account_sessions", "account_recovery_codes", "account_seats"):
        assert query(db, f"SELECT COUNT(*) FROM {name} WHERE user_id = ?", (user,)) == [(0,)]
    assert query(db, "SELECT COUNT(*) FROM account_users") == [(0,)]
    assert ann.account() == {"signed_in": False}
    assert ann.sign_in(device).status_code == 400


def test_the_export_holds_the_account_its_passkeys_public_parts_and_its_seats(ann: Person) -> None:
    made = ann.register(SoftWebauthnDevice(), "Ann")
    table = ann.client.post("/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]}).json()
    ann.post("/api/account/seats", {"table": table["table"], "token": table["token"]})
    answer = ann.client.get("/api/account/export")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    data = json.loads(answer.text)
    assert data["account"]["name"] == "Ann"
    assert data["account"]["id"] == made["user"]["id"]
    assert [key["id"] for key in data["passkeys"]] == [made["passkeys"][0]["id"]]
    assert data["passkeys"][0]["public_key"]
    assert data["recovery_codes_left"] == 10
    assert [(seat["table"], seat["seat"]) for seat in data["seats"]] == [(table["table"], 0)]
    assert data["tables"]["hosting"][0]["table"] == table["table"]
    assert not any(code in answer.text for code in made["recovery_codes"])


def test_a_seat_is_kept_only_with_a_token_that_holds_it(ann: Person) -> None:
    ann.register(SoftWebauthnDevice())
    table = ann.client.post("/api/tables", json={"name": "Ann", "seats": ["human", "human", "basic"]}).json()
    wrong = ann.post("/api/account/seats", {"table": table["table"], "token": "not-a-seat-token"})
    assert wrong.status_code == 403
    assert wrong.json()["rule"] == "token"
    invite = ann.client.get(f"/api/tables/{table['table']}", params={"token": table["token"]}).json()
    invite_token = invite["invites"][0]["url"].split("#token=")[1]
    not_joined = ann.post("/api/account/seats", {"table": table["table"], "token": invite_token})
    assert not_joined.status_code == 403  # an invitation is a seat nobody holds yet
    missing = ann.post("/api/account/seats", {"table": "no-such-table", "token": table["token"]})
    assert missing.status_code == 404
    malformed = ann.post("/api/account/seats", {"table": "../etc", "token": table["token"]})
    assert malformed.status_code == 400
    assert malformed.json()["field"] == "table"
    assert ann.client.get("/api/account/tables").json()["playing"] == []


def join(ws: Any, name: str) -> str:
    """Join the seat whose invite ``ws`` was opened with; the seat's own token the server sends back."""
    ws.send_text(json.dumps({"type": "join", "name": name, "proof": "0" * 64}))
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", json.dumps(message)
        if message["type"] == "seat":
            return str(message["token"])


def test_my_tables_lists_a_kept_seat_with_its_link_until_its_tenure_changes(ann: Person) -> None:
    ann.register(SoftWebauthnDevice())
    client = ann.client
    table = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "human", "basic"]}).json()
    table_id = table["table"]
    summary = client.get(f"/api/tables/{table_id}", params={"token": table["token"]}).json()
    invite = summary["invites"][0]["url"].split("#token=")[1]
    with client.websocket_connect(f"/ws/{table_id}?token={table['token']}") as host:
        with client.websocket_connect(f"/ws/{table_id}?token={invite}") as bob:
            bob_token = join(bob, "Bob")
        assert ann.post("/api/account/seats", {"table": table_id, "token": bob_token}).status_code == 201
        assert ann.post("/api/account/seats", {"table": table_id, "token": table["token"]}).status_code == 201
        mine = client.get("/api/account/tables").json()
        # Each table once: the host's seat under the tables hosted, the other seat under the games on.
        assert [(entry["seat"], entry["link"]) for entry in mine["hosting"]] == [
            (0, f"/t/{table_id}#token={table['token']}")
        ]
        assert [(entry["seat"], entry["link"]) for entry in mine["playing"]] == [
            (1, f"/t/{table_id}#token={bob_token}")
        ]
        assert mine["playing"][0]["players"] == ["Ann", "Bob", mine["playing"][0]["players"][2]]
        host.send_text(json.dumps({"type": "reinvite", "seat": 1}))
        fresh = next(
            link
            for message in iter(host.receive_json, None)
            if message["type"] == "state"
            for link in message["lobby"].get("invites", [])
            if link["seat"] == 1 and not link["url"].endswith(invite)  # the new invite, not Bob's
        )["url"].split("#token=")[1]
        assert client.get("/api/account/tables").json()["playing"] == []
        with client.websocket_connect(f"/ws/{table_id}?token={fresh}") as cid:
            join(cid, "Cid")
        assert client.get("/api/account/tables").json()["playing"] == []
        assert [entry["seat"] for entry in client.get("/api/account/tables").json()["hosting"]] == [0]


def test_a_session_and_a_challenge_made_by_one_server_process_are_accepted_by_another(database: str) -> None:
    device = SoftWebauthnDevice()
    with site(database) as first, site(database) as second:
        first.register(device)
        second.client.cookies.set("upriver_session", first.client.cookies["upriver_session"])
        assert second.account()["user"]["name"] == "Ann"  # the session, made by the first
        assert second.post("/api/account/signout").status_code == 200  # and its CSRF token
        assert first.account() == {"signed_in": False}
        asked = first.post("/api/account/signin/options", csrf=False).json()
        body = {"ceremony": asked["ceremony"], "credential": asserted(device, asked["options"])}
        answer = second.post("/api/account/signin", body, csrf=False)  # the challenge, made by the first
        assert answer.status_code == 200
        assert answer.json()["user"]["name"] == "Ann"
