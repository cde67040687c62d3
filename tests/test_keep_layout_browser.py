"""The score keeper's page at phone width in every language, in Chromium: nothing runs past the screen's
edge (the bar with its install button, the sheet of five players with its column of edit buttons),
and the chart's key keeps the total of a player who left."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browsing import LiveServer, person, post_entry, shot

pytestmark = pytest.mark.slow

LANGUAGES = ("en", "fr", "cs", "it", "sv")
FIVE = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def evening_where_dee_left(server: str) -> dict[str, Any]:
    """Five players, three rounds scored, then Dee leaves and round 4's bids are in."""
    made = httpx.post(f"{server}/api/sheets", json={"players": FIVE, "preset": "classic", "dealer": 0})
    assert made.status_code == 201, made.text
    sheet: dict[str, Any] = made.json()

    def bid_round() -> None:
        nonlocal sheet
        while sheet["current"]["to_bid"]:
            seat = sheet["current"]["to_bid"][0]
            sheet = post_entry(
                server, sheet, "bid", seat=seat, bid=sheet["current"]["legal_bids"][str(seat)][0]
            )

    for number in range(3):
        bid_round()
        tricks = [0] * 5
        tricks[number] = sheet["current"]["hand_size"]
        sheet = post_entry(server, sheet, "tricks", tricks=tricks)
    sheet = post_entry(server, sheet, "leave", seat=3)
    bid_round()
    return sheet


def opened(browser: Browser, server: str, sheet_id: str, language: str) -> Page:
    page = person(browser, "phone")[1]
    page.add_init_script(f"localStorage.setItem('upriver.lang', '{language}')")
    page.goto(f"{server}/keep/{sheet_id}")
    expect(page.locator("#sheet")).to_be_visible()
    # Where the browser offers to install the keeper, the bar shows the button (pwa.js).
    page.evaluate("document.querySelector('header.bar button.install').hidden = false")
    return page


def overflow(page: Page, selector: str) -> list[str]:
    """The elements under ``selector`` whose right edge lies past the screen's."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
             .map((e) => `${e.tagName}.${e.className}: ${(e.textContent || "").trim().slice(0, 30)}`)""",
        selector,
    )
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_at_phone_width_the_bar_and_a_five_player_sheet_stay_on_the_screen(
    live: LiveServer, browser: Browser, language: str
) -> None:
    sheet = evening_where_dee_left(live.url)
    page = opened(browser, live.url, sheet["id"], language)
    # The page settles once its sheet, chart and badges are drawn: the check waits for that.
    fits = """() => {
      const wrap = document.querySelector(".sheet-wrap");
      const edit = document.querySelector("#sheet button.edit");
      const width = document.documentElement.clientWidth;
      return document.scrollingElement.scrollWidth <= width
        && [...document.querySelectorAll("header.bar, header.bar *")]
             .every((e) => e.getBoundingClientRect().right <= width + 0.5)
        && wrap.scrollWidth <= wrap.clientWidth
        && edit.getBoundingClientRect().right <= wrap.getBoundingClientRect().right + 0.5;
    }"""
    try:
        page.wait_for_function(fits, timeout=5_000)
    except PlaywrightTimeout:
        shot(page, f"keep-phone-{language}-overflow")
        width = page.evaluate("[document.scrollingElement.scrollWidth, document.documentElement.clientWidth]")
        wrap = page.locator(".sheet-wrap").evaluate("(e) => [e.scrollWidth, e.clientWidth]")
        pytest.fail(
            f"past the screen's edge: page {width}, bar {overflow(page, 'header.bar *')}, sheet {wrap}"
        )
    shot(page, f"keep-phone-{language}")


def test_the_charts_key_keeps_the_total_of_a_player_who_left(live: LiveServer, browser: Browser) -> None:
    sheet = evening_where_dee_left(live.url)
    page = opened(browser, live.url, sheet["id"], "en")
    key = page.locator("#chart .sheet-legend, section.chart .sheet-legend")
    expect(key).to_be_visible()
    totals = sheet["sheet"]["totals"]
    expect(key.locator("li")).to_have_text(
        [f"{name} {total}" for name, total in zip(FIVE, totals, strict=True)]
    )
    summary = page.locator("#chart canvas").get_attribute("aria-label") or ""
    assert "null" not in page.locator("section.chart").inner_text() + summary
