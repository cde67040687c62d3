"""A seat's link in Chromium: a player moves their seat mid-game from a desktop to a phone (the link
and its QR code shown only on request, the other devices signed out from the phone, the desktop then
told its seat moved, the phone playing on); the host gives an away person's seat a new link, which a
third browser opens and takes back under the same name; and every link that opens nothing any more
(taken, revoked, given to a bot, moved, re-invited, unknown, and a table that is not there) explains
itself in a panel of its own in five languages, on a desktop and a phone, with no English left.
Screenshots go to ``artifacts/screenshots/seat-links-*.png``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.browsing import LiveServer, label, person, play_one_move, shot, sit_down
from tests.pagetext import LOCALES, SCREENS, assert_no_english
from tests.waiting import wait_until
from upriver.i18n import catalogue

pytestmark = pytest.mark.slow  # each test opens several pages in Chromium

LANGS = list(LOCALES)
NAMES = {"taken": "Bea", "moved": "Ann", "reinvited": "Bea"}
"""Who sat at the seat each dead link opened, as its sentence names them."""


def socket(live: LiveServer, table: str, token: str) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{live.port}/ws/{table}?token={token}", open_timeout=10, legacy=True)


def next_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the others are passed over)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return message


def join(live: LiveServer, table: str, invite: str, name: str) -> tuple[ClientConnection, str]:
    """Take the seat ``invite`` opens under ``name`` over a WebSocket: the open socket, the seat's token."""
    ws = socket(live, table, invite)
    next_of(ws, "state")
    ws.send(json.dumps({"type": "join", "name": name}))
    token = str(next_of(ws, "seat")["token"])
    ws.send(json.dumps({"type": "confirm"}))
    return ws, token


def invite_of(live: LiveServer, table: str, host: str, seat: int) -> str:
    """The seat's invite as the host's summary lists it ("" when it lists none)."""
    invites = live.summary(table, host)["invites"]
    return next((str(i["url"]).split("#token=")[1] for i in invites if i["seat"] == seat), "")


def dead_links(live: LiveServer) -> dict[str, str]:
    """A link of each kind that opens nothing any more, made through the public API: its path."""
    two = {"seats": ["human", "human", "basic"]}
    links: dict[str, str] = {}
    # taken: Bea joined with the invite.
    body = live.create(**two)
    invite = invite_of(live, body["table"], body["token"], 1)
    ws, _ = join(live, body["table"], invite, "Bea")
    ws.close()
    links["taken"] = f"/t/{body['table']}#token={invite}"
    # revoked: the host renewed the open seat's invite.
    body = live.create(**two)
    invite = invite_of(live, body["table"], body["token"], 1)
    with socket(live, body["table"], body["token"]) as host:
        next_of(host, "state")
        host.send(json.dumps({"type": "revoke", "seat": 1}))
        next_of(host, "state")
    wait_until(
        lambda: invite_of(live, body["table"], body["token"], 1) != invite, "the invite was never renewed"
    )
    links["revoked"] = f"/t/{body['table']}#token={invite}"
    # bot: the host gave the open seat to a bot before the game.
    body = live.create(**two)
    invite = invite_of(live, body["table"], body["token"], 1)
    answer = httpx.post(
        f"{live.url}/api/tables/{body['table']}/seats/1/bot", json={"token": body["token"], "kind": "basic"}
    )
    assert answer.status_code == 200, answer.text
    links["bot"] = f"/t/{body['table']}#token={invite}"
    # moved: Ann signed her other devices out.
    body = live.create(seats=["human", "basic", "basic"])
    with socket(live, body["table"], body["token"]) as ann:
        next_of(ann, "state")
        ann.send(json.dumps({"type": "rekey"}))
        next_of(ann, "seat")
    links["moved"] = f"/t/{body['table']}#token={body['token']}"
    # reinvited: Bea went away mid-game and the host gave her seat a new link.
    body = live.create(**two)
    ws, bea = join(live, body["table"], invite_of(live, body["table"], body["token"], 1), "Bea")
    ws.close()
    with socket(live, body["table"], body["token"]) as host:
        next_of(host, "state")
        wait_until(
            lambda: live.state(body["table"])["presence"][1]["status"] == "away", "Bea never went away"
        )
        host.send(json.dumps({"type": "reinvite", "seat": 1}))
        wait_until(lambda: invite_of(live, body["table"], body["token"], 1) != "", "no new link came")
    links["reinvited"] = f"/t/{body['table']}#token={bea}"
    links["unknown"] = f"/t/{body['table']}#token={'x' * 32}"
    links["table"] = "/t/no-such-table"
    # The table page itself, open on a table that is gone (archived while the page was away): its
    # WebSocket is refused with rule "table" (the test's browser fetches a live table's page for it).
    links["table-page"] = "/t/archived-meanwhile"
    return links


@pytest.fixture(scope="module")
def links(live: LiveServer) -> dict[str, str]:
    return dead_links(live)


@pytest.fixture(scope="module")
def contexts(browser: Browser) -> Iterator[dict[tuple[str, str], BrowserContext]]:
    """One browser context a language and a screen, reused by the panels' test."""
    made = {}
    for lang in LANGS:
        for device, size in SCREENS.items():
            phone = device == "phone"
            context = browser.new_context(
                viewport=size, locale=LOCALES[lang], is_mobile=phone, has_touch=phone
            )
            context.set_default_timeout(15_000)
            made[lang, device] = context
    yield made
    for context in made.values():
        context.close()


def test_a_seat_moves_from_a_desktop_to_a_phone_which_signs_the_desktop_out_and_plays_on(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "basic", "basic"], schedule=[3, 3])
    table = body["table"]
    desk_context, desk = person(browser, "desktop")
    phone_context, phone = person(browser, "phone")
    try:
        desk.goto(live.url + body["url"])
        expect(desk.locator("#hand button.card").first).to_be_visible()
        desk.click("#seat-tools button.move-seat")
        dialog = desk.locator("#move-dialog")
        expect(dialog).to_be_visible()
        # The link and its code are private: shown only when asked for.
        expect(desk.locator("#move-link-box")).to_be_hidden()
        expect(dialog).to_contain_text("whoever opens this link plays as you")
        shot(desk, "seat-links-move-desktop")
        desk.click("#move-show")
        expect(desk.locator("#move-qr")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
        link = desk.input_value("#move-link")
        assert link == f"{live.url}/t/{table}#token={body['token']}"
        shot(desk, "seat-links-move-shown-desktop")
        phone.goto(link)
        expect(phone.locator("#hand button.card").first).to_be_visible()
        phone.click("#seat-tools button.move-seat")
        expect(phone.locator("#move-dialog")).to_be_visible()
        shot(phone, "seat-links-move-phone")
        phone.click("#move-signout")
        expect(phone.locator("#move-signed-out")).to_contain_text("your other devices are signed out")
        # The desktop is told, in a panel of its own, that its seat moved.
        expect(desk.locator("#dead-link")).to_be_visible()
        expect(desk.locator("#dead-link")).to_have_attribute("data-reason", "moved")
        expect(desk.locator("#play")).to_be_hidden()
        expect(desk.locator("#dead-title")).to_have_text("Your seat moved to another device")
        # The phone holds the seat's new link (in its address, and in its open dialog) and plays on.
        new = phone.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('token')")
        assert new
        assert new != body["token"]
        phone.click("#move-show")
        expect(phone.locator("#move-link")).to_have_value(f"{live.url}/t/{table}#token={new}")
        shot(phone, "seat-links-move-signed-out-phone")
        phone.click("#move-close")
        assert play_one_move(phone, live, table, seat=0)
        phone.reload()
        expect(phone.locator("#hand button.card").first).to_be_visible()
    finally:
        desk_context.close()
        phone_context.close()


def test_the_host_gives_an_away_persons_seat_a_new_link_and_a_third_browser_takes_it_back(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic"], schedule=[3, 3])
    table = body["table"]
    host_context, host = person(browser, "phone")
    bea_context, _ = sit_down(browser, live, body, 1, "Bea")
    back_context, back = person(browser, "desktop")
    try:
        host.goto(live.url + body["url"])
        expect(host.locator("#hand button.card").first).to_be_visible()
        # Never while Bea is connected.
        expect(host.locator("#seat-tools button.reinvite")).to_have_count(0)
        bea_context.close()
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "away")
        offer = host.locator("#seat-tools button.reinvite[data-seat='1']")
        expect(offer).to_have_text("New link for Bea")
        offer.scroll_into_view_if_needed()
        shot(host, "seat-links-reinvite-offer-phone")
        offer.click()
        expect(host.locator("#confirm")).to_be_visible()
        host.click("#confirm-yes")
        dialog = host.locator("#reinvite-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Bea's old link opens nothing now")
        link = host.input_value("#reinvite-link")
        assert link.startswith(f"{live.url}/t/{table}#token=")
        shot(host, "seat-links-reinvite-phone")
        host.click("#reinvite-close")
        expect(host.locator("#seat-tools button.reinvite-again[data-seat='1']")).to_be_visible()
        # Whoever opens the new link is offered Bea's seat, in place of the playing controls.
        back.goto(link)
        expect(back.locator("#take-seat")).to_be_visible()
        expect(back.locator("#take-seat-title")).to_have_text("This is Bea's seat — take it")
        expect(back.locator("#hand")).to_be_hidden()
        shot(back, "seat-links-take-seat-desktop")
        back.click("#take-seat-button")
        expect(back.locator("#take-seat")).to_be_hidden()
        expect(back.locator("#hand button.card").first).to_be_visible()
        assert live.table(table).names[1] == "Bea"
        expect(host.locator("#seat-tools button.reinvite-again")).to_have_count(0)
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
    finally:
        host_context.close()
        back_context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_dead_link_explains_itself_in_a_panel_of_its_own_in_each_language(
    live: LiveServer, links: dict[str, str], contexts: dict[tuple[str, str], BrowserContext], lang: str
) -> None:
    words = {key: text for key, text in catalogue(lang).items() if isinstance(text, str)}
    errors: list[str] = []
    # The gone table's page is a real table's page under the gone table's address.
    real_page = live.url + links["taken"].split("#")[0]
    for device in SCREENS:
        page: Page = contexts[lang, device].new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.route("**/t/archived-meanwhile", lambda route: route.continue_(url=real_page))
        try:
            for kind, path in links.items():
                why = "table" if kind == "table-page" else kind
                page.goto("about:blank")
                page.goto(live.url + path)
                panel = page.locator("#dead-link")
                expect(panel).to_be_visible()
                expect(page.locator("#dead-title")).to_have_text(words[f"table.dead.title.{why}"])
                if why == "table":
                    expect(page.locator("#dead-link [data-i18n='missing.check']")).to_have_text(
                        words["missing.check"]
                    )
                if kind != "table":
                    expect(panel).to_have_attribute("data-reason", why)
                    expect(page.locator("#play")).to_be_hidden()
                    expect(page.locator("#lobby")).to_be_hidden()
                    expect(page.locator("#offline")).to_be_hidden()
                why_text = page.locator(".dead-why").inner_text()
                expected = words[f"reason.token.{why}"] if why != "table" else words["reason.table"]
                assert why_text == expected.replace("{name}", NAMES.get(why, "")), (why, lang)
                expect(panel.locator("a[href='/account']")).to_be_visible()
                expect(panel.locator("a[href='/']").last).to_be_visible()
                # The first way out is the one likely to help: the seat elsewhere, or watching
                # while the host sends a new link when the seat is no longer this person's.
                first = panel.locator(".dead-ways li:not([hidden]) a").first
                expect(first).to_have_class(re.compile(r"\bprimary\b"))
                wanted = "/t/" if why in ("revoked", "bot", "reinvited") else "/account"
                assert str(first.get_attribute("href")).startswith(wanted), why
                assert_no_english(page, lang, f"{kind} panel ({device})")
                shot(page, f"seat-links-dead-{kind}-{lang}-{device}")
            assert errors == []
        finally:
            page.close()
