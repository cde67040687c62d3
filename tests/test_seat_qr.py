"""A seat's link as a QR code (``POST /api/tables/{id}/qr``): drawn only for a token that opens a seat
at that table, and refused in the API's own shapes otherwise — a dead token says why, a token of
another table opens nothing here, and a table that is not there is the one 404."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from upriver.web.play.lookup import NO_SUCH_TABLE

TABLE = {"name": "Ann", "seats": ["human", "human", "basic"]}


def qr(client: TestClient, table: str, body: object) -> tuple[int, str, str]:
    """The answer's status, content type and text."""
    answer = client.post(f"/api/tables/{table}/qr", json=body)
    return answer.status_code, answer.headers["content-type"], answer.text


def test_a_seats_token_gets_its_link_as_an_svg_that_no_cache_keeps(client: TestClient) -> None:
    body = client.post("/api/tables", json=TABLE).json()
    answer = client.post(f"/api/tables/{body['table']}/qr", json={"token": body["token"]})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.text.startswith("<svg")
    assert answer.text.rstrip().endswith("</svg>")
    assert body["token"] not in answer.text  # the link is drawn as modules, never written out
    # An open seat's invite is a seat's link too.
    invite = client.get(f"/api/tables/{body['table']}", params={"token": body["token"]}).json()["invites"][0]
    status, kind, text = qr(client, body["table"], {"token": invite["url"].split("#token=")[1]})
    assert (status, kind, text[:4]) == (200, "image/svg+xml", "<svg")


def test_a_dead_token_is_refused_saying_why_and_a_foreign_one_opens_nothing(client: TestClient) -> None:
    body = client.post("/api/tables", json=TABLE).json()
    table, host = body["table"], body["token"]
    invite = client.get(f"/api/tables/{table}", params={"token": host}).json()["invites"][0]
    old = invite["url"].split("#token=")[1]
    with client.websocket_connect(f"/ws/{table}?token={host}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "revoke", "seat": 1}))
        while ws.receive_json()["type"] != "state":
            pass
    status, kind, text = qr(client, table, {"token": old})
    assert (status, kind) == (403, "application/json")
    refused = json.loads(text)
    assert refused["rule"] == "token"
    assert refused["reason"] == "revoked"
    assert refused["seat"] == 1
    other = client.post("/api/tables", json=TABLE).json()
    status, _, text = qr(client, table, {"token": other["token"]})
    assert status == 403
    assert json.loads(text)["rule"] == "token"
    assert json.loads(text)["reason"] == "unknown"


def test_no_table_is_the_one_404_and_a_body_without_a_token_names_the_field(client: TestClient) -> None:
    status, _, text = qr(client, "no-such-table", {"token": "x" * 20})
    assert status == 404
    assert json.loads(text) == {"error": NO_SUCH_TABLE}
    body = client.post("/api/tables", json=TABLE).json()
    status, _, text = qr(client, body["table"], {})
    assert status == 400
    assert json.loads(text)["field"] == "token"
    # The token goes in the body only: a query's is not read.
    answer = client.post(f"/api/tables/{body['table']}/qr?token={body['token']}", json={})
    assert answer.status_code == 400
