"""Accessibility: axe-core finds no serious or critical violation on any page, desktop and phone.

axe-core (vendored in ``tests/vendor/axe-core``, MPL-2.0) runs in real Chromium against a live
server on the start page (the lobby), a table page in the middle of a game, the join page an
invite opens, the score keeper (its start and a sheet with rounds entered) and the account page
(signed out; signed in in ``tests/test_accounts_browser.py``), each at
1280×800 and at 390×844. A failure lists every violation: rule, impact, the elements it found.
Also a link that opens nothing any more (its panel, which takes the page), a table that is not there
(``missing.html``), a re-invited seat offered to take back, and the dialog that moves a seat to
another device with its link shown. The pages' CSP allows only their own scripts, so the test's
browser context bypasses it to inject axe. It fails, never skips, without Chromium.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect
from websockets.sync.client import ClientConnection, connect

from tests.browsing import BLOCKING, TIMEOUT_MS, LiveServer, described, violations
from upriver import Game, preset
from upriver.record import dumps, record_of

DEVICES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def table_mid_game(live: LiveServer) -> str:
    """A table continued from a saved game after two rounds, its creator's seat to play: its URL."""
    names = ["Ann", "Bob", "Cid", "Dee"]
    game = Game(preset("classic", player_count=4), names, seed=11)
    rng = random.Random(2)
    while len(game.results) < 2:
        if game.legal_bids():
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    record = record_of(game)
    saved = dumps(dataclasses.replace(record, rounds=record.rounds[:2]))
    body = live.create(seats=["human", "random", "random", "random"], record=saved)
    return live.url + str(body["url"])


def join_page(live: LiveServer) -> str:
    """The page a friend's invite opens: the table, its seats, and the form to take the seat."""
    body = live.create(seats=["human", "human", "basic", "basic"])
    token = str(body["url"]).split("#token=")[1]
    summary = httpx.get(f"{live.url}/api/tables/{body['table']}", params={"token": token}).json()
    invite = str(summary["invites"][0]["url"])
    return live.url + "/t/" + invite.split("/t/", 1)[1]


def kept_sheet(live: LiveServer) -> str:
    """A score keeper's sheet of six with one round entered: on a phone it scrolls sideways."""
    players = ["Annabelle", "Bartholomew", "Cid", "Dee", "Evangeline", "Fay"]
    made = httpx.post(f"{live.url}/api/sheets", json={"players": players, "dealer": 0})
    assert made.status_code == 201, made.text
    sheet = made.json()

    def post(action: str, **body: Any) -> dict[str, Any]:
        answer = httpx.post(
            f"{live.url}/api/sheets/{sheet['id']}/{action}", json={**body, "version": sheet["version"]}
        )
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    for seat in sheet["current"]["bidding_order"]:
        sheet = post("bid", seat=seat, bid=0)
    sheet = post("tricks", tricks=[1, 0, 0, 0, 0, 0])
    return f"{live.url}/keep/{sheet['id']}"


def seat_socket(live: LiveServer, table: str, token: str) -> ClientConnection:
    """A seat's WebSocket, past its first state."""
    ws = connect(f"ws://127.0.0.1:{live.port}/ws/{table}?token={token}", open_timeout=10, legacy=True)
    while json.loads(ws.recv(timeout=10))["type"] != "state":
        pass
    return ws


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def moved_link(live: LiveServer) -> str:
    """A seat's link after its person signed their other devices out: it opens nothing now."""
    body = live.create(seats=["human", "basic", "basic"])
    with seat_socket(live, body["table"], body["token"]) as ws:
        ws.send(json.dumps({"type": "rekey"}))
        until(ws, "seat")
    return live.url + str(body["url"])


def reinvited_seat(live: LiveServer) -> str:
    """The new link the host gave Bea's seat mid-game while she was away: it offers her seat."""
    body = live.create(seats=["human", "human", "basic"])
    table = body["table"]
    invite = str(live.summary(table, body["token"])["invites"][0]["url"]).split("#token=")[1]
    with seat_socket(live, table, invite) as bea:
        bea.send(json.dumps({"type": "join", "name": "Bea"}))
        until(bea, "seat")
    with seat_socket(live, table, body["token"]) as host:
        host.send(json.dumps({"type": "reinvite", "seat": 1}))
        while True:
            invites = until(host, "state")["lobby"].get("invites", [])
            if invites:
                return live.url + str(invites[0]["url"])


PAGES: dict[str, tuple[Callable[[LiveServer], str], str]] = {
    "lobby": (lambda live: live.url + "/", "#create"),
    "table": (table_mid_game, "#hand button.card"),
    "join": (join_page, "#join:not([hidden])"),
    "keeper-start": (lambda live: live.url + "/keep", "form[aria-label='New sheet']"),
    "keeper-sheet": (kept_sheet, "#chart canvas"),
    "account": (lambda live: live.url + "/account", "#signin"),
    "dead-link": (moved_link, "#dead-link[data-reason='moved']"),
    "missing": (lambda live: live.url + "/t/no-such-table", "#dead-title"),
    "take-seat": (reinvited_seat, "#take-seat:not([hidden])"),
}
"""Each page: how to reach it on the live server, and what shows once it has drawn itself."""


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation(
    live: LiveServer, browser: Browser, name: str, device: str
) -> None:
    reach, drawn = PAGES[name]
    phone = device == "phone"
    context = browser.new_context(viewport=DEVICES[device], is_mobile=phone, has_touch=phone, bypass_csp=True)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(reach(live))
        expect(page.locator(drawn).first).to_be_visible()
        page.wait_for_load_state("networkidle")
        blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the {name} page ({device}):\n{described(blocking)}"
    finally:
        context.close()


@pytest.mark.parametrize("device", list(DEVICES))
def test_axe_finds_nothing_serious_in_the_dialog_that_moves_a_seat_with_its_link_shown(
    live: LiveServer, browser: Browser, device: str
) -> None:
    phone = device == "phone"
    context = browser.new_context(viewport=DEVICES[device], is_mobile=phone, has_touch=phone, bypass_csp=True)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(table_mid_game(live))
        page.click("#seat-tools button.move-seat")
        page.click("#move-show")
        expect(page.locator("#move-qr[src^='data:image/svg+xml']")).to_be_visible()
        blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the move dialog ({device}):\n{described(blocking)}"
    finally:
        context.close()
