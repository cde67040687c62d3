"""A late arrival on the score keeper page, in Chromium against a live server: four play `classic` (1 up
to 11 and back), a fifth arrives before round 5, and the arrival dialog says, before Join is pressed,
what the rest of the schedule becomes (up to five players' 10 instead of 11), in English and in Czech.
Once a bid of a round is in, the buttons that change the players wait, saying why. Screenshots of the
dialog on a phone go to ``artifacts/screenshots/``."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import LiveServer
from tests.live import SHOTS

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cid", "Dee"]
TIMEOUT_MS = 15_000


def four_rounds_of_classic(server: str) -> str:
    """A sheet of `classic` for four with rounds 1–4 entered through the API (Ann takes every trick)."""
    made = httpx.post(f"{server}/api/sheets", json={"players": NAMES, "preset": "classic", "dealer": 0})
    assert made.status_code == 201, made.text
    sheet_id: str = made.json()["id"]
    for size in (1, 2, 3, 4):
        entered = httpx.post(f"{server}/api/sheets/{sheet_id}/bids", json={"bids": [0, 0, 0, 0]})
        assert entered.status_code == 200, entered.text
        entered = httpx.post(f"{server}/api/sheets/{sheet_id}/tricks", json={"tricks": [size, 0, 0, 0]})
        assert entered.status_code == 200, entered.text
    return sheet_id


def phone(browser: Browser, locale: str) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=locale
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def test_the_arrival_dialog_shows_the_new_hand_sizes_before_join_and_the_join_makes_them(
    live: LiveServer, browser: Browser
) -> None:
    sheet_id = four_rounds_of_classic(live.url)
    page = phone(browser, "en-GB")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live.url}/keep/{sheet_id}")
    page.get_by_role("button", name="Someone arrives", exact=True).click()
    dialog = page.get_by_role("dialog")
    change = dialog.locator("#schedule-change")
    expect(change).to_contain_text("Cards in each round, from round 5")
    expect(change).to_contain_text("Now: 5 6 7 8 9 10 11 11 10 9 8 7 6 5 4 3 2 1 (18 rounds)")
    expect(change).to_contain_text("With one more player: 5 6 7 8 9 10 10 9 8 7 6 5 4 3 2 1 (16 rounds)")
    dialog.get_by_label("Name of the newcomer").fill("Eve")
    page.screenshot(path=str(SHOTS / "keep-arrival-schedule-phone-en.png"))  # the dialog, as on the screen
    dialog.get_by_role("button", name="Join").click()
    expect(dialog).to_have_count(0)
    view = httpx.get(f"{live.url}/api/sheets/{sheet_id}").json()
    assert view["players"] == [*NAMES, "Eve"]
    assert view["evening"]["schedule"][4:] == [5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    expect(page.locator("#round-head")).to_contain_text("Round 5 of 20")

    # Eve deals round 5, after Dee; Ann bids first. Once her bid is in: arrivals, departures,
    # sit-outs and a new schedule wait, and say why.
    page.get_by_role("button", name="Ann bids 0", exact=True).click()
    for button in ("Someone arrives", "Someone leaves", "Sit out a round", "Change the schedule"):
        expect(page.get_by_role("button", name=button, exact=True)).to_be_disabled()
    expect(page.locator("#evening-wait")).to_have_text(
        "Round 5 has begun: arrivals, departures, sit-outs and schedule changes wait until it is scored."
    )
    expect(page.get_by_role("button", name="Someone arrives", exact=True)).to_have_accessible_description(
        "Round 5 has begun: arrivals, departures, sit-outs and schedule changes wait until it is scored."
    )
    assert not errors


def test_the_departure_dialog_and_the_czech_arrival_dialog_say_the_change_in_their_words(
    live: LiveServer, browser: Browser
) -> None:
    sheet_id = four_rounds_of_classic(live.url)
    page = phone(browser, "cs-CZ")
    page.goto(f"{live.url}/keep/{sheet_id}")
    page.get_by_role("button", name="Někdo přišel", exact=True).click()
    dialog = page.get_by_role("dialog")
    change = dialog.locator("#schedule-change")
    expect(change).to_contain_text("Počet karet v každém kole, od kola 5")
    expect(change).to_contain_text("Teď: 5 6 7 8 9 10 11 11 10 9 8 7 6 5 4 3 2 1 (18 kol)")
    expect(change).to_contain_text("S jedním hráčem navíc: 5 6 7 8 9 10 10 9 8 7 6 5 4 3 2 1 (16 kol)")
    dialog.get_by_label("Jméno příchozího").fill("Eva")
    page.screenshot(path=str(SHOTS / "keep-arrival-schedule-phone-cs.png"))
    dialog.get_by_role("button", name="Zrušit").click()
    expect(dialog).to_have_count(0)

    # With four at the table a departure leaves three, whose largest hand is the deck's 17.
    page.goto(f"{live.url}/keep/{sheet_id}?lang=en")
    page.evaluate("localStorage.setItem('upriver.lang', 'en')")
    page.reload()
    page.get_by_role("button", name="Someone leaves", exact=True).click()
    change = page.get_by_role("dialog").locator("#schedule-change")
    expect(change).to_contain_text("With one player fewer: 5 6 7 8 9 10 11 12 13 14 15 16 17 17 16")
    expect(change).to_contain_text("(30 rounds)")
