"""A real evening on the score keeper page, in Chromium against a live server: four start, Eve arrives
after the first round (with the average total), Dee sits a round out, Cid gets a penalty, round 1 is
corrected three rounds later, the hook strikes out a dealer's bid; the game ends with each player's
statistics, and its game link opens with no request to any server. Screenshots of the sheet with these
entries, on a desktop and on a phone, go to ``artifacts/screenshots/``."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import BLOCKING, LiveServer, described, person, shot, violations
from tests.live import SHOTS

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cid", "Dee"]
TIMEOUT_MS = 15_000


def tap(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def bids(page: Page, order: list[str]) -> None:
    for who in order:
        tap(page, f"{who} bids 0")


def took(page: Page, who: str, count: int) -> None:
    for _ in range(count):
        tap(page, f"{who} tricks: more")
    tap(page, "Save the tricks")


def totals(server: str, sheet_id: str) -> list[int]:
    answer: list[int] = httpx.get(f"{server}/api/sheets/{sheet_id}").json()["sheet"]["totals"]
    return answer


def test_a_five_player_evening_with_an_arrival_a_sit_out_a_penalty_and_a_late_correction(
    live: LiveServer, browser: Browser
) -> None:
    server = live.url
    made = httpx.post(
        f"{server}/api/sheets",
        json={"players": NAMES, "preset": "classic-hook", "schedule": [1, 2, 3, 2, 1], "dealer": 0},
    )
    assert made.status_code == 201, made.text
    sheet_id = made.json()["id"]
    page = person(browser, "phone")[1]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/keep/{sheet_id}")

    # Round 1: Ann deals; the hook strikes out her 0, and a tap on it says why.
    tap(page, "Bob bids 1")
    bids(page, ["Cid", "Dee"])
    struck = page.get_by_role("button", name="0, not allowed")
    struck.click()
    expect(page.get_by_role("alert")).to_contain_text("Ann may not bid 0: with the hook")
    tap(page, "Ann bids 1")
    took(page, "Bob", 1)
    expect(page.locator("#round-head")).to_contain_text("Round 2 of 5")  # the tricks are in
    assert totals(server, sheet_id) == [0, 11, 10, 10]

    # Eve arrives, starting from the average total; she sits after Dee, and Bob deals round 2.
    tap(page, "Someone arrives")
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Name of the newcomer").fill("Eve")
    dialog.get_by_label("the average total").check()
    page.screenshot(path=str(SHOTS / "keep-evening-join-phone.png"))  # the dialog, as on the screen
    dialog.get_by_role("button", name="Join").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#sheet thead")).to_contain_text("Eve")
    expect(page.locator("#evening-notes")).to_contain_text("Eve joined from round 2, starting at 8")
    expect(page.locator("#round-head")).to_contain_text("Bob deals · Cid bids first")
    bids(page, ["Cid", "Dee", "Eve", "Ann", "Bob"])
    tap(page, "Cid tricks: more")
    took(page, "Dee", 1)

    # Dee sits round 3 out: the others play it, and Cid deals (the deal passes to the next at the table).
    tap(page, "Sit out a round")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Dee").click()
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#round-head")).to_contain_text("Cid deals · Eve bids first")
    bids(page, ["Eve", "Ann", "Bob", "Cid"])
    took(page, "Eve", 3)
    expect(page.locator('#sheet td[data-cell="3-3"]')).to_contain_text("sits out")

    # A penalty, with its note, under the round it follows.
    tap(page, "Bonus or penalty")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Cid").click()
    dialog.get_by_label("Points (negative for a penalty)").fill("-5")
    dialog.get_by_label("Note").fill("renege")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#sheet tr.adjustment")).to_contain_text("Cid −5 after round 3: renege")

    # Round 4, Dee back and dealing.
    expect(page.locator("#round-head")).to_contain_text("Dee deals · Eve bids first")
    bids(page, ["Eve", "Ann", "Bob", "Cid", "Dee"])
    took(page, "Eve", 2)
    expect(page.locator("#round-head")).to_contain_text("Round 5 of 5")
    before = totals(server, sheet_id)

    # Round 1 corrected three rounds later: Ann took the trick, not Bob. Eve's start follows.
    tap(page, "Edit round 1")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Bob tricks in round 1: fewer").click()
    dialog.get_by_role("button", name="Ann tricks in round 1: more").click()
    dialog.get_by_role("button", name="Save the round").click()
    expect(dialog).to_have_count(0)
    after = totals(server, sheet_id)
    assert (after[0] - before[0], after[1] - before[1]) == (11, -11)
    assert after[2:4] == before[2:4]
    shot(page, "keep-evening-phone")
    # The paper sheet: who sat out, and the evening's changes under the table.
    expect(page.locator("#paper tr[data-round='3'] td.absent")).to_have_text("sits out")
    expect(page.locator("#paper .changes")).to_contain_text("Dee sits out round 3")
    expect(page.locator("#paper .changes")).to_contain_text("Cid −5 after round 3: renege")
    desktop = person(browser, "desktop")[1]
    desktop.goto(f"{server}/keep/{sheet_id}")
    expect(desktop.locator('#sheet td[data-cell="3-3"]')).to_contain_text("sits out")
    shot(desktop, "keep-evening-desktop")
    desktop.emulate_media(media="print")
    shot(desktop, "keep-evening-paper")
    desktop.emulate_media(media="screen")

    # The last round: the game ends with the podium, the statistics and the chart.
    bids(page, ["Ann", "Bob", "Cid", "Dee", "Eve"])
    took(page, "Ann", 1)
    expect(page.locator("#entry")).to_contain_text("Game over")
    stats = page.locator("#stats")
    # Dee sat one round out: four played, three exact, one over (she took a trick on a bid of 0).
    expect(stats.locator("tr[data-seat='3'] td")).to_have_text(["3/4 · 75 %", "1", "0", "2"])
    desktop.reload()
    expect(desktop.locator("#stats")).to_be_visible()
    shot(desktop, "keep-evening-over-desktop")

    # The game link holds the whole game: it opens with every request to the server refused.
    tap(page, "A link that holds the whole game (opens with no server)")
    # The link is compressed after the tap: wait for it rather than read the empty box.
    expect(page.locator("#game-link")).to_have_value(re.compile(r"^http://.+/keep/#"))
    link = page.locator("#game-link").input_value()
    reader = person(browser, "phone")[1]
    reader.route("**/api/**", lambda route: route.abort())
    reader.goto(link)
    expect(reader.locator("#sheet thead")).to_contain_text("Eve")
    expect(reader.locator("#headline")).to_have_text(page.locator("#headline").inner_text())
    expect(reader.locator('#sheet td[data-cell="3-3"]')).to_contain_text("sits out")
    shot(reader, "keep-evening-link-phone")
    assert errors == []


def test_a_new_sheet_offers_the_names_of_earlier_evenings_and_its_seats_can_be_reordered(
    live: LiveServer, browser: Browser
) -> None:
    server = live.url
    made = httpx.post(f"{server}/api/sheets", json={"players": ["Åsa", "Bo", "Cilla", "Dag"], "dealer": 0})
    assert made.status_code == 201, made.text
    page = person(browser, "desktop")[1]
    page.goto(f"{server}/keep/{made.json()['id']}")  # this browser now knows that evening's names
    expect(page.locator("#round-head")).to_be_visible()
    page.goto(f"{server}/keep")
    offered = page.locator("#known-names option")
    expect(offered).to_have_count(4)
    assert [offered.nth(k).get_attribute("value") for k in range(4)] == ["Åsa", "Bo", "Cilla", "Dag"]
    for seat, name in enumerate(["Bo", "Åsa", "Cilla", "Dag"], start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    tap(page, "Move Seat 2 one seat up")  # Åsa sits first after all
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Åsa")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Bo")
    tap(page, "Start the sheet")
    expect(page.locator("#entry")).to_be_visible()
    sheet_id = page.url.rstrip("/").split("/")[-1]
    assert httpx.get(f"{server}/api/sheets/{sheet_id}").json()["players"] == ["Åsa", "Bo", "Cilla", "Dag"]


def test_axe_finds_no_serious_or_critical_violation_in_the_evenings_dialogs(
    live: LiveServer, browser: Browser
) -> None:
    made = httpx.post(f"{live.url}/api/sheets", json={"players": NAMES, "dealer": 0})
    assert made.status_code == 201, made.text
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()  # axe is injected, so the page's CSP is bypassed
    page.goto(f"{live.url}/keep/{made.json()['id']}")
    for button in (
        "Someone arrives",
        "Sit out a round",
        "Someone leaves",
        "Bonus or penalty",
        "Change the schedule",
    ):
        tap(page, button)
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the dialog {button!r}:\n{described(blocking)}"
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_have_count(0)
    context.close()
