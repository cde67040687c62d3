"""The score keeper as a player saw it in an audit: Save the tricks waits until they add up and says
why in a sentence with the right plural, a refusal is said once, a cancelled edit leaves nothing
over the page, and five players fit a phone's sheet and edit dialog. Screenshots go to
``artifacts/screenshots/``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import TIMEOUT_MS, post_entry
from tests.live import SHOTS
from upriver.i18n import catalogue, reason

LOCALES = {"en": "en-GB", "cs": "cs-CZ", "fr": "fr-FR"}
FIVE = ("Annabelle", "Bob", "Cid", "Dee", "Eve")


def open_sheet(browser: Browser, url: str, lang: str = "en", phone: bool = True) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 800},
        is_mobile=phone,
        has_touch=phone,
        locale=LOCALES[lang],
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    return page


def new_sheet(server: str, players: tuple[str, ...], rounds: int = 0, **options: Any) -> dict[str, Any]:
    """A sheet through the API (the first player deals first) with ``rounds`` rounds entered: every
    bid 0, the first player takes every trick."""
    made = httpx.post(
        f"{server}/api/sheets", json={"players": list(players), "preset": "classic", "dealer": 0, **options}
    )
    assert made.status_code == 201, made.text
    sheet: dict[str, Any] = made.json()
    for _ in range(rounds):
        for seat in sheet["current"]["bidding_order"]:
            sheet = post_entry(server, sheet, "bid", seat=seat, bid=0)
        size = sheet["current"]["hand_size"]
        sheet = post_entry(server, sheet, "tricks", tricks=[size] + [0] * (len(players) - 1))
    return sheet


def shown_alerts(page: Page) -> list[str]:
    texts: list[str] = page.evaluate(
        """() => [...document.querySelectorAll("[role=alert]")]
             .filter((el) => el.checkVisibility() && el.textContent.trim())
             .map((el) => el.textContent.trim())"""
    )
    return texts


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_save_the_tricks_waits_until_they_add_up_and_a_tap_says_why_in_a_sentence(
    server: str, browser: Browser, lang: str
) -> None:
    sheet = new_sheet(server, ("Ann", "Bob", "Cid", "Dee"))
    for seat in sheet["current"]["bidding_order"]:
        sheet = post_entry(server, sheet, "bid", seat=seat, bid=0)
    page = open_sheet(browser, f"{server}/keep/{sheet['id']}", lang)
    try:
        more = page.locator("#entry .stepper button:last-child")
        more.nth(0).click()
        more.nth(1).click()  # two tricks where one card was dealt
        save = page.locator("#entry button.primary")
        expect(save).to_have_attribute("aria-disabled", "true")
        save.click(force=True)  # still tappable: to say why
        said = reason(lang, "tricks add up", {"round": 1, "total": 2, "hand_size": 1})
        assert said.startswith(("Round 1:", "Kolo 1:")), said
        assert "1 trick was played" in said or "hrál se 1 štych" in said, said
        expect(page.locator("#error")).to_have_text(said)
        assert shown_alerts(page) == [said]
        unsent = httpx.get(f"{server}/api/sheets/{sheet['id']}").json()
        assert unsent["version"] == sheet["version"]  # nothing was sent
        page.locator("#entry .stepper button:first-child").nth(1).click()  # one fewer
        expect(save).to_have_attribute("aria-disabled", "false")
        save.click()
        expect(page.locator("#sheet tbody tr[data-status='scored']")).to_have_count(1)
    finally:
        page.context.close()


def test_a_struck_out_hook_bid_is_explained_once(server: str, browser: Browser) -> None:
    sheet = new_sheet(server, ("Ann", "Bob", "Cid", "Dee"), preset="classic-hook")
    order = sheet["current"]["bidding_order"]
    for seat in order[:-1]:
        sheet = post_entry(server, sheet, "bid", seat=seat, bid=0)
    page = open_sheet(browser, f"{server}/keep/{sheet['id']}")
    try:
        struck = page.locator(".pad button.forbidden")
        expect(struck).to_have_count(1)
        struck.click()
        explained = page.locator("#forbidden-reason")
        expect(explained).to_have_attribute("role", "alert")
        assert shown_alerts(page) == [explained.text_content()]
        expect(page.locator("#error")).to_be_hidden()
        copies = page.evaluate(
            """() => [...document.querySelectorAll("body *")].filter((el) => el.offsetParent !== null
                 && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes("may not bid")))
                 .length"""
        )
        assert copies == 1
    finally:
        page.context.close()


def test_a_cancelled_edit_leaves_no_message_over_the_page(server: str, browser: Browser) -> None:
    sheet = new_sheet(server, ("Ann", "Bob", "Cid", "Dee"), rounds=2)
    page = open_sheet(browser, f"{server}/keep/{sheet['id']}")
    try:
        page.get_by_role("button", name="Edit round 2").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_role("button", name="Bob tricks in round 2: more").click()
        save = dialog.get_by_role("button", name="Save the round")
        expect(save).to_have_attribute("aria-disabled", "true")
        save.click(force=True)
        said = reason("en", "tricks add up", {"round": 2, "total": 3, "hand_size": 2})
        expect(dialog.locator(".dialog-error")).to_have_text(said)
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_have_count(0)
        expect(page.locator("#error")).to_be_hidden()
        assert shown_alerts(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_five_players_on_a_phone_reach_every_column_and_the_edit_dialogs_buttons(
    server: str, browser: Browser, lang: str
) -> None:
    sheet = new_sheet(server, FIVE, rounds=3)
    page = open_sheet(browser, f"{server}/keep/{sheet['id']}", lang)
    try:
        wrap = page.locator(".sheet-wrap")
        expect(page.locator("#sheet tbody tr")).to_have_count(3)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # the page itself fits
        if wrap.evaluate("(w) => w.scrollWidth > w.clientWidth"):
            # The sheet scrolls sideways: it says so, with a fade where more of it lies.
            expect(wrap).to_have_class("sheet-wrap scrolls more-right")
            assert wrap.evaluate("(w) => getComputedStyle(w).maskImage") != "none"
            wrap.evaluate("(w) => { w.scrollLeft = w.scrollWidth; }")
            expect(wrap).to_have_class("sheet-wrap scrolls more-left")
        frame = wrap.bounding_box()
        assert frame
        for button in page.locator("#sheet button.edit").all():
            box = button.bounding_box()
            assert box
            assert frame["x"] <= box["x"]
            assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5
        # Scrolled, the round and the trump columns both stay in view, side by side.
        round_cell = page.locator("#sheet tbody tr[data-round='2'] th.rd").bounding_box()
        trump_cell = page.locator("#sheet tbody tr[data-round='2'] td.trump").bounding_box()
        assert round_cell
        assert trump_cell
        assert trump_cell["x"] >= round_cell["x"] + round_cell["width"] - 0.5
        assert trump_cell["x"] + trump_cell["width"] <= frame["x"] + frame["width"]
        wrap.screenshot(path=str(SHOTS / f"audit-keep-five-scrolled-{lang}-phone.png"))
        page.locator("#sheet button.edit").nth(1).click()
        dialog = page.locator("dialog[open]")
        expect(dialog).to_be_visible()
        for button in dialog.locator(".dialog-actions button").all():
            box = button.bounding_box()
            assert box
            assert box["y"] + box["height"] <= 844, f"{button.text_content()} is below the fold"
        page.screenshot(path=str(SHOTS / f"audit-keep-five-edit-{lang}-phone.png"))
    finally:
        page.context.close()


def test_the_new_words_are_in_every_language() -> None:
    for lang in ("en", "fr", "cs", "it", "sv"):
        words = catalogue(lang)
        assert "n.tricks_played" in words
        assert "{hand_size:n.tricks_played}" in str(words["reason.tricks_add_up"])
