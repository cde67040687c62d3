"""The start page's quick ways in, in Chromium against a live server: Play now seats you against three
bots with the settings of the last table made here (or the classic rules and normal bots the first
time), and Watch bots opens a short game of bots only as a spectator, played to its end. Screenshots
go to ``artifacts/screenshots/night-*.png``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browsing import TIMEOUT_MS, VIEWPORTS, LiveServer, shot

BOT_DELAY = 0.02
"""How long the bots of this module's server (conftest's ``live``) wait before a move, in seconds."""


def person(browser: Browser, kind: str = "desktop") -> tuple[BrowserContext, Page]:
    context = browser.new_context(**VIEWPORTS[kind])
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def test_play_now_seats_you_against_three_bots_with_the_last_settings_used(
    live: LiveServer, browser: Browser
) -> None:
    context, page = person(browser, "phone")
    try:
        page.goto(live.url + "/")
        expect(page.locator("#play-now-hint")).to_have_text(
            re.compile(r"^You against three bots \(Normal\): Classic, \d+ rounds\.$")
        )
        shot(page, "night-start-phone")
        page.click("#play-now")
        expect(page.locator("#play")).to_be_visible()
        first = page.url.split("/t/")[1].split("#")[0]
        assert [seat["kind"] for seat in live.summary(first)["seats"]] == [
            "human",
            "normal",
            "normal",
            "normal",
        ]
        assert live.state(first)["options"]["clock"] == 0
        # A table made from the form: its settings are the next Play now's.
        page.goto(live.url + "/")
        expect(page.locator("#play-now-hint")).not_to_be_empty()  # the page is ready
        expect(page.locator("#name")).to_have_value("")  # Play now's "Player" is not kept as a name
        page.fill("#name", "Ann")
        page.select_option("#preset", "countdown")
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "easy")
        page.select_option("#clock", "30")
        page.check("#hints")
        page.click("#create button[type=submit]")
        expect(page.locator("#play")).to_be_visible()
        page.goto(live.url + "/")
        hint = page.locator("#play-now-hint")
        expect(hint).to_have_text(re.compile(r"^You against three bots \(Easy\): Countdown, \d+ rounds, "))
        expect(hint).to_contain_text("hints on")
        expect(hint).to_contain_text("(30 s)")
        expect(page.locator("#name")).to_have_value("Ann")  # the name given last time
        page.fill("#name", "")  # Play now sits under the last name all the same
        page.click("#play-now")
        expect(page.locator("#play")).to_be_visible()
        again = page.url.split("/t/")[1].split("#")[0]
        seats = live.summary(again)["seats"]
        assert [seat["kind"] for seat in seats] == ["human", "easy", "easy", "easy"]
        assert seats[0]["name"] == "Ann"
        state = live.state(again)
        assert (state["options"]["clock"], state["options"]["hints"]) == (30, True)
        assert state["game"] is not None
        assert state["game"]["rules"]["dealer_bid"] == "hook"
        shot(page, "night-play-now-phone")
    finally:
        context.close()


def test_watch_bots_opens_a_bot_only_table_as_a_spectator_and_it_plays_to_the_end(
    live: LiveServer, browser: Browser
) -> None:
    context, page = person(browser)
    try:
        page.goto(live.url + "/")
        page.click("#watch-bots")
        page.wait_for_url(lambda url: "/t/" in url)
        assert "token=" not in page.url
        expect(page.locator("#play")).to_be_visible()
        expect(page.locator("#hand button.card")).to_have_count(0)
        expect(page.locator("#chat")).to_be_hidden()  # bots only: nobody to talk to
        shot(page, "night-watch-desktop")
        expect(page.locator("#final")).to_be_visible(timeout=90_000)
        expect(page.locator("#standings li")).to_have_count(4)
        shot(page, "night-watch-end-desktop")
    finally:
        context.close()


def test_play_now_starts_the_table_the_form_under_it_shows_and_says_so(
    live: LiveServer, browser: Browser
) -> None:
    context, page = person(browser)
    try:
        page.goto(live.url + "/")
        hint = page.locator("#play-now-hint")
        expect(hint).not_to_be_empty()
        page.click("#create summary")
        page.fill("#schedule", "1,2,1")
        page.check("#hints")
        expect(hint).to_have_text("You against three bots (Normal): Classic, hand sizes 1, 2, 1, hints on.")
        shot(page, "quick-play-now-says-the-form")
        page.click("#play-now")
        expect(page.locator("#play")).to_be_visible()
        table = page.url.split("/t/")[1].split("#")[0]
        state = live.state(table)
        assert state["game"]["rules"]["hand_sizes"] == [1, 2, 1]
        assert state["options"]["hints"] is True
        # Back on the start page the form shows that table again, and Play now says it.
        page.goto(live.url + "/")
        expect(hint).to_have_text("You against three bots (Normal): Classic, hand sizes 1, 2, 1, hints on.")
        expect(page.locator("#schedule")).to_have_value("1, 2, 1")
    finally:
        context.close()
