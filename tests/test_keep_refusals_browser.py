"""The keeper's refusals in the page's language, in a real browser (Debian's Chromium through Playwright).

A family keeping score in French or Czech is told why an entry is refused in their language, players
by name: by the server, and by the engine on the phone with no network. Phone screenshots of the
refusals go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browsing import shot
from tests.pagetext import LOCALES
from upriver.i18n import reason, translate

pytestmark = pytest.mark.slow

START = {"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic-hook", "schedule": [1, 2], "dealer": 0}
ENGINE_MS = 60_000  # with no network, the first entry waits for Python to start in the worker
BIDI = "\u202eegener"  # "renege" shown backwards by a right-to-left override


def phone(browser: Browser, lang: str) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=LOCALES[lang]
    )
    context.set_default_timeout(ENGINE_MS)
    return context.new_page()


def adjustment(page: Page, lang: str) -> Locator:
    """The bonus-or-penalty dialog, opened."""
    page.get_by_role("button", name=translate(lang, "keeper.adjust"), exact=True).click()
    return page.get_by_role("dialog")


def save(dialog: Locator, lang: str) -> Locator:
    dialog.get_by_role("button", name=translate(lang, "keeper.save"), exact=True).click()
    return dialog.get_by_role("alert")


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_a_refused_adjustment_is_said_in_the_pages_language_by_the_server_and_by_the_phone(
    browser: Browser, server: str, lang: str
) -> None:
    sheet = httpx.post(f"{server}/api/sheets", json=START).json()["id"]
    page = phone(browser, lang)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/keep/{sheet}")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    dialog = adjustment(page, lang)
    said = save(dialog, lang)  # nobody chosen, no points
    expect(said).to_have_text(reason(lang, "request", {"case": "seat"}))
    dialog.get_by_role("button", name="Cid", exact=True).click()
    expect(save(dialog, lang)).to_have_text(reason(lang, "request", {"case": "points"}))
    dialog.get_by_label(translate(lang, "keeper.points")).fill("-5")
    dialog.get_by_label(translate(lang, "keeper.note")).fill(BIDI)
    note_refused = reason(lang, "adjustment", {"case": "note control"})
    expect(save(dialog, lang)).to_have_text(note_refused)
    assert note_refused != reason("en", "adjustment", {"case": "note control"})
    shot(page, f"keep-refusal-{lang}-phone")

    # The same refusal from the engine on the phone, with no network: in the same words.
    page.wait_for_function(
        """async (key) => {
            const { keptSheets } = await import("/static/keep-api.js");
            const kept = (await keptSheets()).find((k) => k.key === key);
            return Boolean(kept && kept.current && kept.recordVersion === kept.server.version);
        }""",
        arg=sheet,
    )
    page.context.set_offline(True)
    said.evaluate("(line) => { line.textContent = ''; }")  # so the sentence below is the phone's
    said = save(dialog, lang)
    expect(said).to_have_text(note_refused, timeout=ENGINE_MS)
    dialog.get_by_label(translate(lang, "keeper.note")).fill("renege")
    dialog.get_by_role("button", name=translate(lang, "keeper.save"), exact=True).click()
    expect(dialog).to_have_count(0, timeout=ENGINE_MS)
    expect(page.locator("#app")).to_contain_text("renege")
    expect(page.locator(".offline-strip")).to_be_visible()  # kept on the phone, for the server later
    assert not errors, errors
    page.context.close()
