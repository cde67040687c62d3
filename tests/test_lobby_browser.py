"""The start page in Chromium: this browser's tables to go back to, invite links to copy, a seat
given to a bot, levels and options in words, an estimated length, and the favicon."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browsing import TIMEOUT_MS, LiveServer
from tests.live import SHOTS

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create_with_a_friend(page: Page, live: LiveServer) -> str:
    """Create a 4-seat table from the start page with seat 2 a friend; the table's id."""
    page.goto(live.url + "/")
    page.fill("#name", "Ann")
    page.select_option("#seat-1", "human")
    page.click("#create button[type=submit]")
    expect(page.locator("#created")).to_be_visible()
    item = page.locator("#my-table-list li").first
    table_id = item.get_attribute("data-table")
    assert table_id is not None
    return table_id


def test_levels_and_options_read_in_words_with_an_estimated_length(live: LiveServer, desk: Page) -> None:
    errors: list[str] = []
    desk.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    desk.goto(live.url + "/")
    assert desk.input_value("#name") == ""
    assert desk.get_attribute("#name", "placeholder")
    seat = desk.locator("#seat-1")
    assert "Expert — reads the bids" in seat.inner_text()
    kinds = httpx.get(live.url + "/api/options").json()["bots"]
    levels = {"human", "easy", "normal", "hard", "expert"}
    advanced = seat.locator("optgroup[label^='Advanced']").locator("option")
    assert advanced.count() == len([kind for kind in kinds if kind not in levels]) >= 4
    desk.click("summary")
    scoring = desk.locator("#rule-scoring").inner_text()
    assert "ten-plus-bid" not in scoring
    assert "an exact bid scores 10 plus the bid" in scoring
    assert "first Jack deals" in desk.locator("#rule-first_dealer").inner_text()
    duration = desk.locator("#duration")
    expect(duration).to_contain_text("About")
    expect(duration).to_contain_text("rounds × 4 seats")
    desk.fill("#schedule", "1,2,1")
    expect(duration).to_contain_text("3 rounds × 4 seats")
    shot(desk, "lobby-start-desktop")
    assert errors == []


def test_the_favicon_is_served(live: LiveServer) -> None:
    response = httpx.get(live.url + "/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")


def test_a_created_table_is_listed_with_copyable_invites_and_a_clickable_spectator_link(
    live: LiveServer, desk: Page
) -> None:
    table_id = create_with_a_friend(desk, live)
    item = desk.locator(f"#my-table-list li[data-table='{table_id}']")
    expect(item.locator(".table-status")).to_contain_text("Waiting for 1 player")
    invite = item.locator(".invite input.link-text")
    expect(invite).to_have_count(1)
    url = invite.input_value()
    assert f"/t/{table_id}#token=" in url
    item.locator(".invite button", has_text="Copy").click()
    expect(item.locator(".invite .copied")).to_have_text("Copied.")
    assert desk.evaluate("navigator.clipboard.readText()") == url
    spectate = item.locator("a.watch")
    assert spectate.get_attribute("href") == f"{live.url}/t/{table_id}"
    shot(desk, "lobby-tables-desktop")
    # Gone from the page, the table is still listed when the person comes back.
    desk.goto(live.url + "/keep")
    desk.goto(live.url + "/")
    expect(desk.locator(f"#my-table-list li[data-table='{table_id}'] a.back-link")).to_contain_text(
        "Back to the table"
    )
    desk.locator(f"#my-table-list li[data-table='{table_id}'] a.back-link").click()
    expect(desk.locator("#lobby")).to_be_visible()
    assert desk.url.startswith(f"{live.url}/t/{table_id}#token=")


def test_the_host_gives_the_open_seat_to_a_bot_and_the_game_starts(live: LiveServer, phone: Page) -> None:
    table_id = create_with_a_friend(phone, live)
    item = phone.locator(f"#my-table-list li[data-table='{table_id}']")
    shot(phone, "lobby-tables-phone")
    item.locator(".bot-row select").select_option("easy")
    item.locator(".bot-row button").click()
    expect(phone.locator(f"#my-table-list li[data-table='{table_id}'] .table-status")).to_contain_text(
        "Playing"
    )
    summary = live.summary(table_id)
    assert summary["seats"][1]["kind"] == "easy"
    assert summary["started"]


def test_the_start_page_fits_a_phone(live: LiveServer, phone: Page) -> None:
    phone.goto(live.url + "/")
    expect(phone.locator("#seat-1")).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    shot(phone, "lobby-start-phone")


def test_a_forgotten_table_leaves_the_list(live: LiveServer, desk: Page) -> None:
    table_id = create_with_a_friend(desk, live)
    desk.locator(f"#my-table-list li[data-table='{table_id}'] button.forget").click()
    expect(desk.locator(f"#my-table-list li[data-table='{table_id}']")).to_have_count(0)
