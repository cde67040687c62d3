"""The game night's marks, controls and chat in Chromium in French, Czech, Italian and Swedish: a
table with a clock, hints, a line of chat, a reaction and a person gone away, seen by a player on a
desktop and a spectator on a phone, with no English string left and nothing axe-core finds serious.
Screenshots go to ``artifacts/screenshots/night-<lang>-*.png``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browsing import BLOCKING, LiveServer, described, label, play_until, shot, sit_down, violations
from tests.pagetext import assert_no_english, open_page


@pytest.fixture(scope="module")
def live(night: LiveServer) -> LiveServer:
    """The module's server: the night's (``tests/conftest.py``)."""
    return night


@pytest.mark.parametrize("lang", ["fr", "cs", "it", "sv"])
def test_the_nights_marks_controls_and_chat_speak_the_browsers_language_and_pass_axe(
    live: LiveServer, browser: Browser, lang: str
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[2], clock=60, hints=True)
    table_id = body["table"]
    errors: list[str] = []
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    host = open_page(browser, live.url + body["url"], lang, "desktop", errors, bypass_csp=True)
    watcher = open_page(browser, f"{live.url}/t/{table_id}", lang, "phone", errors, bypass_csp=True)
    try:
        game = live.game(table_id)
        play_until(guest, live, table_id, 1, lambda: 0 in game.awaiting, "Ann's turn never came")
        host.fill("#chat-input", "hello")
        host.click("#chat-form button[type=submit]")
        host.click(".reactions button[data-reaction='thanks']")
        expect(host.locator("#seat-tools button.hint-button")).to_be_visible()
        host.click("#seat-tools button.hint-button")
        expect(host.locator("#bids .bid.hinted")).to_have_count(1)
        expect(label(host, 0).locator(".clock")).to_be_visible()
        guest_context.close()
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "away")
        host.locator("#chat .chat-mute summary").click()
        assert_no_english(host, lang, "table with its clock, hint, chat and presence")
        blocking = [v for v in violations(host) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the {lang} table with its chat:\n{described(blocking)}"
        shot(host, f"night-{lang}-desktop")
        host.click("#seat-tools button.leave")
        expect(host.locator("#confirm")).to_be_visible()
        assert_no_english(host, lang, "question before leaving")
        host.click("#confirm-no")
        expect(watcher.locator("#chat-toggle")).to_be_visible()
        watcher.click("#chat-toggle")
        assert_no_english(watcher, lang, "spectator's chat")
        blocking = [v for v in violations(watcher) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the {lang} spectator's chat:\n{described(blocking)}"
        shot(watcher, f"night-{lang}-spectator-phone")
        assert errors == []
    finally:
        host.context.close()
        watcher.context.close()
