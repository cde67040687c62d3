"""Two phones correcting one round differently, one of them offline, in a real browser (Chromium).

Phone A (English) loses the network and corrects round 1 by tapping; phone B (French), online,
corrects the same round differently. When A is back, its correction is not written over B's nor
dropped: both phones list the conflict, with each player's two values, and one pick on A settles
it on both. Screenshots of the conflict at phone width in English and French go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live import SHOTS, free_port
from tests.offline import TIMEOUT_MS, api, phone, serve

pytestmark = pytest.mark.slow
POLL = 15_000  # the other phone picks a change up by its poll, every 4 s

START = {"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic", "schedule": [2, 2, 2], "dealer": 0}


def french_phone(browser: Browser) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="fr-FR"
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def kept_record(page: Page, sheet: str) -> None:
    """Wait until the phone keeps the sheet's record, from which its engine carries on offline."""
    page.wait_for_function(
        """async (key) => {
            const { keptSheets } = await import("/static/keep-api.js");
            const kept = (await keptSheets()).find((k) => k.key === key);
            return Boolean(kept && kept.current && kept.server && kept.recordVersion === kept.server.version);
        }""",
        arg=sheet,
    )


def entered(url: str, sheet: str) -> Any:
    return httpx.get(f"{url}/api/sheets/{sheet}").json()


def test_an_offline_correction_and_an_online_one_of_the_same_round_are_both_kept_and_settled_by_one_pick(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "upriver.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    with serve(db, port):
        made = httpx.post(f"{url}/api/sheets", json=START).json()
        sheet = made["id"]
        for path, body in (("bids", {"bids": [0, 1, 0, 1]}), ("tricks", {"tricks": [0, 1, 0, 1]})):
            assert httpx.post(f"{url}/api/sheets/{sheet}/{path}", json=body).status_code == 200
        a, b = phone(browser), french_phone(browser)
        for page in (a, b):
            page.goto(f"{url}/keep")
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.goto(f"{url}/keep/{sheet}")
            expect(page.locator("#sheet tr[data-round='1']")).to_be_visible()
        kept_record(a, sheet)

        # A, with no network, corrects round 1: Ann took a trick, not Bob.
        a.context.set_offline(True)
        a.get_by_role("button", name="Edit round 1").click()
        dialog = a.get_by_role("dialog")
        dialog.get_by_role("button", name="Bob tricks in round 1: fewer").click()
        dialog.get_by_role("button", name="Ann tricks in round 1: more").click()
        dialog.get_by_role("button", name="Save the round").click()
        expect(dialog).to_have_count(0, timeout=TIMEOUT_MS)  # the first entry waits for Python to start
        expect(a.locator(".offline-strip")).to_contain_text("waiting to be added to the server's sheet: 1")

        # B, online, corrects it differently meanwhile: Cid took a trick, not Dee.
        answer = api(b, f"/api/sheets/{sheet}/rounds/1", {"bids": [0, 1, 0, 1], "tricks": [0, 1, 1, 0]})
        assert answer["entered"][0]["tricks"] == [0, 1, 1, 0], answer
        assert entered(url, sheet)["conflicts"] == []

        # A is back: its correction is kept as a conflict, the sheet stays B's, and A says so.
        a.context.set_offline(False)
        a.reload()
        expect(a.locator(".offline-strip")).to_contain_text(
            timeout=TIMEOUT_MS,
            expected="Back online: 0 entries made on this phone added to the sheet; 1 conflict to settle.",
        )
        server = entered(url, sheet)
        assert server["entered"][0]["tricks"] == [0, 1, 1, 0]
        (conflict,) = server["conflicts"]
        assert (conflict["round"], conflict["wanted"]["tricks"], conflict["differs"]) == (
            1,
            [1, 0, 0, 1],
            [0, 1, 2, 3],
        )
        card = a.locator(f"[data-conflict='{conflict['id']}']")
        expect(card).to_contain_text("Round 1: a correction")
        expect(card).to_contain_text("Made on this phone at")
        expect(card.locator("[data-now='0']")).to_have_text("bid 0took 0")
        expect(card.locator("[data-wanted='0']")).to_have_text("bid 0took 1")
        a.locator("#conflicts").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        a.screenshot(path=str(SHOTS / "keep-conflict-en-phone.png"), full_page=False)

        # B sees the same conflict (its poll), in French.
        card_b = b.locator(f"[data-conflict='{conflict['id']}']")
        expect(card_b).to_contain_text("Donne 1 : une correction", timeout=POLL)
        expect(card_b).to_contain_text("Saisie sur un autre téléphone à")
        expect(card_b.locator("[data-wanted='3']")).to_have_text("annonce 1fait 1")
        expect(b.locator("#conflicts h2")).to_have_text("1 saisie à trancher")
        b.locator("#conflicts").scroll_into_view_if_needed()
        b.screenshot(path=str(SHOTS / "keep-conflict-fr-phone.png"), full_page=False)

        # One pick, on A: A's correction. Both phones show round 1 as A made it, and no conflict.
        card.get_by_role("button", name="Use this entry").click()
        expect(a.locator("#conflicts")).to_have_count(0)
        expect(b.locator("#conflicts")).to_have_count(0, timeout=POLL)
        settled = entered(url, sheet)
        assert settled["conflicts"] == []
        assert settled["entered"][0]["tricks"] == [1, 0, 0, 1]
        for page in (a, b):
            expect(page.locator("[data-total=Ann]")).to_have_text("0")  # bid 0, took 1
            expect(page.locator("[data-total=Dee]")).to_have_text("11", timeout=POLL)
        a.context.close()
        b.context.close()
