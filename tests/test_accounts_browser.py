"""Accounts in Chromium with the DevTools virtual authenticator: a guest plays, creates an account
with a passkey (the seat the browser holds is kept), signs out, signs in on a second browser with
the same passkey, finds the game in My tables and opens the seat mid-game; a recovery code signs
in once and the page suggests adding a passkey. The account page is looked at signed out and in,
on a desktop and a phone (screenshots in /tmp/shots), and axe-core finds no serious violation.

The pages are opened at ``localhost``: WebAuthn refuses an IP address as the site's id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browsing import (
    BLOCKING,
    LiveServer,
    described,
    violations,
    with_authenticator,
)

SHOTS = Path("/tmp/shots")
"""Where the account page's screenshots go, to be looked at."""


def site(live: LiveServer) -> str:
    return f"http://localhost:{live.port}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"account-{name}.png"), full_page=True)


def no_serious_violation(page: Page, where: str) -> None:
    blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, f"axe-core on the account page ({where}):\n{described(blocking)}"


def register(page: Page, url: str, name: str) -> list[str]:
    """Create an account at ``url``'s account page; the recovery codes it shows once."""
    page.goto(url + "/account")
    page.fill("#register-name", name)
    page.click("#register")
    expect(page.locator("#codes")).to_be_visible()
    expect(page.locator("#codes-title")).to_be_focused()
    return page.locator("#code-list code").all_inner_texts()


def test_a_guest_keeps_their_seat_in_an_account_and_opens_it_mid_game_on_another_browser(
    live: LiveServer, browser: Browser
) -> None:
    url = site(live)
    first, page, cdp, authenticator = with_authenticator(browser, "desktop")
    second: BrowserContext | None = None
    try:
        page.goto(url + "/")
        expect(page.locator("#account-link")).to_have_text("Sign in")
        page.click("#play-now")  # a guest's game against three bots: the browser holds the seat
        expect(page.locator("#hand button.card").first).to_be_visible()
        table = page.url.split("/t/")[1].split("#")[0]
        page.goto(url + "/account")
        expect(page.locator("#signin")).to_be_visible()
        shot(page, "desktop-signed-out")
        no_serious_violation(page, "desktop, signed out")
        codes = register(page, url, "Ann")
        assert len(codes) == 10
        shot(page, "desktop-codes")
        page.click("#codes-done")
        expect(page.locator("#hello")).to_have_text("Signed in as Ann.")
        expect(page.locator("#tables a.back-link").first).to_have_attribute(
            "href", f"/t/{table}#token=" + page_token(page)
        )
        expect(page.locator("#passkey-list li")).to_have_count(1)
        shot(page, "desktop-signed-in")
        no_serious_violation(page, "desktop, signed in")
        page.goto(url + "/")
        expect(page.locator("#account-link")).to_have_text("My tables")
        page.goto(url + "/account")
        page.click("#signout")
        expect(page.locator("#signin")).to_be_visible()
        expect(page.locator("#status")).to_have_text("You are signed out.")

        # The same passkey, copied to a phone's authenticator: a second browser with nothing stored.
        credential: dict[str, Any] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"
        ][0]
        assert credential.get("isResidentCredential"), sorted(credential)
        second, phone, phone_cdp, phone_authenticator = with_authenticator(browser, "phone")
        phone_cdp.send(
            "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": credential}
        )
        phone.goto(url + "/account")
        shot(phone, "phone-signed-out")
        no_serious_violation(phone, "phone, signed out")
        phone.click("#signin")
        expect(phone.locator("#status")).to_have_text("Welcome back, Ann.")
        seat_link = phone.locator("#tables a.back-link").first
        expect(seat_link).to_have_text("Open your seat")
        shot(phone, "phone-signed-in")
        no_serious_violation(phone, "phone, signed in")
        seat_link.click()
        expect(phone.locator("#hand button.card").first).to_be_visible()  # the seat, mid-game
        assert phone.url.split("/t/")[1].split("#")[0] == table
        assert live.game(table).round_number >= 1
    finally:
        first.close()
        if second is not None:
            second.close()


def page_token(page: Page) -> str:
    """The token of the seat this browser holds (the table page keeps it in localStorage)."""
    token: str = page.evaluate("JSON.parse(localStorage.getItem('upriver.tables'))[0].token")
    return token


def test_a_recovery_code_signs_in_once_and_the_page_suggests_adding_a_passkey(
    live: LiveServer, browser: Browser
) -> None:
    url = site(live)
    context, page, cdp, authenticator = with_authenticator(browser, "phone")
    try:
        codes = register(page, url, "Bob")
        shot(page, "phone-codes")
        page.click("#codes-done")
        page.click("#signout")
        cdp.send("WebAuthn.clearCredentials", {"authenticatorId": authenticator})  # the passkey is lost
        page.fill("#recover-code", codes[3])
        page.click("#recover-form button[type=submit]")
        expect(page.locator("#suggest")).to_be_visible()
        expect(page.locator("#suggest-title")).to_be_focused()
        expect(page.locator("#codes-left")).to_have_text("9 unused recovery codes.")
        page.click("#add-passkey")
        expect(page.locator("#passkey-list li")).to_have_count(2)
        expect(page.locator("#suggest")).to_be_hidden()
        page.click("#signout")
        page.fill("#recover-code", codes[3])
        page.click("#recover-form button[type=submit]")
        expect(page.locator("#error")).to_have_text(
            "This recovery code opens no account: each works once, and looks like abcd-efgh-jkmn."
        )
    finally:
        context.close()
