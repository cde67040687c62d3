"""Who is at the table, seen in Chromium: a browser gone without a word (it answers no ping: frozen,
its network lost) shows away to the others within ten seconds, while a browser that answers stays
online; the moves a stand-in bot makes for a person who left carry the robot's mark, in its own
words, as the clock's do. Screenshots go to ``artifacts/screenshots/``."""

from __future__ import annotations

import base64
import json
import os
import socket

from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

from tests.browsing import LiveServer, label, person, play_until, shot, sit_down
from tests.waiting import wait_until
from upriver.web.seats.presence import PING_INTERVAL, PING_TIMEOUT

BOT_DELAY = 0.02
"""How long the bots of this module's server (conftest's ``live``) wait before a move, in seconds."""


def silent_socket(live: LiveServer, table_id: str, token: str) -> socket.socket:
    """A WebSocket of ``token``'s seat that, once open, never reads again: no pong ever answers the
    server's pings, as from a frozen browser or one whose network is gone (no close, no FIN)."""
    raw = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws/{table_id}?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1024)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return raw


def test_a_browser_gone_without_a_word_is_away_within_ten_seconds_and_one_that_answers_stays_online(
    live: LiveServer, browser: Browser
) -> None:
    assert PING_INTERVAL + PING_TIMEOUT <= 10
    body = live.create(seats=["human", "human", "human"], schedule=[3])
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        # Cid takes his seat from a client of his own, which then goes silent.
        with connect(f"ws://127.0.0.1:{live.port}/ws/{table_id}?token={table.tokens[2]}") as ws:
            ws.send(json.dumps({"type": "join", "name": "Cid"}))
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "seat":
                    break
        wait_until(lambda: table.names[2] == "Cid", "Cid never took his seat")
        host.goto(live.url + body["url"])
        expect(label(host, 2).locator(".presence")).to_have_attribute("data-status", "away")
        silent = silent_socket(live, table_id, str(message["token"]))
        try:
            expect(label(host, 2).locator(".presence")).to_have_attribute("data-status", "online")
            # Found out by the pings: an interval, then the time to answer (9 s), and room for a busy machine.
            expect(label(host, 2).locator(".presence")).to_have_attribute(
                "data-status", "away", timeout=12_000
            )
            # Bea's browser answered every ping meanwhile: online throughout.
            expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
            assert table.presence.online(1)
            shot(host, "presence-silent-browser-away-desktop")
        finally:
            silent.close()
        assert guest.locator("#connection.ok").count() == 1
    finally:
        host_context.close()
        guest_context.close()


def test_a_stand_in_bots_moves_carry_the_robots_mark_in_their_own_words(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic"], schedule=[3, 3])
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        guest.click("#seat-tools button.leave")
        guest.click("#confirm-yes")
        wait_until(lambda: table.standin_status(1) == "left", "Bea never left")
        game = live.game(table_id)
        # Ann plays until the stand-in has bid and played a card for Bea in this round.

        def standin() -> list[dict[str, object]]:
            return [m for m in table.automatic_json(0) if m["seat"] == 1 and m["by"] == "standin"]

        play_until(
            host,
            live,
            table_id,
            0,
            lambda: {m["kind"] for m in standin()} >= {"bid", "play"} or game.is_over,
            "the stand-in never played",
        )
        assert not game.is_over
        bid_mark = label(host, 1).locator(".nums .auto-mark")
        expect(bid_mark).to_have_attribute("aria-label", "bid made by a bot standing in")
        played = host.locator("#trick .auto-mark, #last-trick .auto-mark").first
        host.click("#last-trick-box summary")
        expect(played).to_be_attached()
        expect(played).to_have_attribute("aria-label", "played by a bot standing in")
        shot(host, "presence-stand-in-marks-desktop")
    finally:
        host_context.close()
        guest_context.close()


def test_the_join_page_and_the_rules_say_the_pace_a_move_and_what_a_time_out_does(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic"], schedule=[2], clock=30)
    table = live.table(body["table"])
    context, page = person(browser, "phone")
    try:
        page.goto(f"{live.url}/t/{table.id}#token={table.tokens[1]}")
        pace = page.locator("#lobby-rules-list li[data-rule='clock']")
        expect(pace).to_have_text(
            "Turn clock: 30 s a move. When it runs out, a bot makes that move for you; after two in"
            " a row, a bot plays for you until you say you are back."
        )
        shot(page, "presence-join-page-pace-phone")
        page.fill("#join-name", "Bea")
        page.click("#join-button")
        page.click("#rules-button")
        expect(page.locator("#rules-list li[data-rule='clock']")).to_contain_text("30 s a move")
        page.click("#rules-close")
        # Without a clock the page says so, and what may happen when someone is away.
        untimed = live.create(seats=["human", "basic", "basic"], schedule=[2])
        page.goto(live.url + untimed["url"])
        page.click("#rules-button")
        expect(page.locator("#rules-list li[data-rule='clock']")).to_contain_text("No turn clock")
    finally:
        context.close()
