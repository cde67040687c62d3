"""The score keeper page in a real browser (Debian's Chromium through Playwright) against a live server.

One short game (classic-hook, hand sizes 1, 2, 1) is entered by tapping, as at a table:
the first Jack, a refused hook bid, a refused trick count, an edit of an earlier round
that changes the totals, reloads that keep everything, undo, the read-only link, and the
exported record scored by ``upriver check``. It fails, never skips, without Chromium.
Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Page, expect, sync_playwright
from typer.testing import CliRunner

import upriver.cli.check
from tests.live import CHROMIUM, CHROMIUM_ARGS, SHOTS, free_port
from upriver.cli import app as cli_app
from upriver.web.app import create_app

TIMEOUT_MS = 15_000
NAMES = ("Ann", "Bob", "Cid", "Dee")

assert upriver.cli.check  # registers `check` on the app


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The whole web app (tables and keeper) under uvicorn in a thread, on a temporary database."""
    web = create_app(tmp_path / "upriver.sqlite3", bot_delay=0)
    port = free_port()
    live = uvicorn.Server(uvicorn.Config(web, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not live.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    live.should_exit = True
    thread.join(timeout=10)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"keep-{name}.png"), full_page=True)


def tap(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def bid(page: Page, who: str, value: int) -> None:
    tap(page, f"{who} bids {value}")


def tricks(page: Page, counts: dict[str, int]) -> None:
    for who, count in counts.items():
        for _ in range(count):
            tap(page, f"{who} tricks: more")


def expect_totals(page: Page, totals: tuple[int, ...]) -> None:
    for who, total in zip(NAMES, totals, strict=True):
        expect(page.locator(f"[data-total={who}]")).to_have_text(str(total))


def test_a_whole_short_game_is_kept_by_tapping_and_survives_reloads_edits_and_export(
    server: str, tmp_path: Path
) -> None:
    assert Path(CHROMIUM).exists(), f"Chromium is needed at {CHROMIUM} for the browser tests"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))

        # The start page links to the score keeper.
        page.goto(server + "/")
        page.get_by_role("link", name="Score keeper").first.click()
        expect(page.get_by_role("heading", name="New sheet")).to_be_visible()
        for seat, who in enumerate(NAMES, start=1):
            page.get_by_label(f"Player {seat}").fill(who)
        page.locator("select[name=preset]").select_option("classic-hook")
        page.locator("summary").click()
        page.locator("input[name=schedule]").fill("1,2,1")
        page.locator("select[name=dealer]").select_option("jack")
        shot(page, "1-new-sheet")
        tap(page, "Start the sheet")

        # The seed's procedure: deal face up from Ann until a Jack shows; Cid got it.
        expect(page.locator("#entry")).to_contain_text("starting with Ann")
        page.locator("#entry").get_by_role("button", name="Cid").click()
        expect(page.locator("#round-head")).to_contain_text("Round 1 of 3 · 1 card")
        expect(page.locator("#round-head")).to_contain_text("Cid deals · Dee bids first")
        sheet_url = page.url

        # Round 1: Dee, Ann and Bob bid 1, 0, 0; the hook strikes out Cid's 0.
        bid(page, "Dee", 1)
        bid(page, "Ann", 0)
        bid(page, "Bob", 0)
        struck = page.get_by_role("button", name="0, not allowed")
        expect(struck).to_have_class("forbidden")
        expect(page.locator("#forbidden-reason")).to_contain_text("with the hook, the bids may not total 1")
        shot(page, "2-hook")
        struck.click()
        expect(page.get_by_role("alert")).to_contain_text("Cid may not bid 0: with the hook")
        bid(page, "Cid", 1)

        # Tricks that do not add up are refused; then the right ones are taken.
        tricks(page, {"Dee": 1, "Ann": 1})
        expect(page.locator("#trick-sum")).to_have_text("2 of 1 tricks")
        tap(page, "Save the tricks")
        expect(page.get_by_role("alert")).to_contain_text("the tricks add up to 2, but 1 were played")
        shot(page, "3-tricks-refused")
        tap(page, "Ann tricks: fewer")
        tap(page, "Save the tricks")
        expect_totals(page, (10, 10, 0, 11))
        expect(page.locator("#headline")).to_have_text("Dee leads with 11")

        # Round 2: a trump noted, bids, tricks.
        expect(page.locator("#round-head")).to_contain_text("Round 2 of 3 · 2 cards")
        tap(page, "Trump hearts")
        expect(page.get_by_role("button", name="Trump hearts")).to_have_attribute("aria-pressed", "true")
        bid(page, "Ann", 1)
        bid(page, "Bob", 0)
        bid(page, "Cid", 0)
        expect(page.get_by_role("button", name="1, not allowed")).to_be_visible()
        bid(page, "Dee", 0)
        tricks(page, {"Ann": 1, "Cid": 1})
        tap(page, "Save the tricks")
        expect_totals(page, (21, 20, 0, 21))

        # A reload (or a closed browser) keeps everything.
        page.reload()
        expect(page.locator("#round-head")).to_contain_text("Round 3 of 3 · 1 card")
        expect_totals(page, (21, 20, 0, 21))
        expect(page.locator("tr[data-round='2'] th")).to_contain_text("2 cards · Dee")
        expect(page.locator("tr[data-round='2'] [aria-label=hearts]")).to_have_text("♥")

        # Fix round 1: Cid took the trick, not Dee. Everything after is re-scored.
        tap(page, "Edit round 1")
        dialog = page.get_by_role("dialog")
        dialog.get_by_role("button", name="Dee tricks in round 1: fewer").click()
        dialog.get_by_role("button", name="Cid tricks in round 1: more").click()
        shot(page, "4-edit")
        dialog.get_by_role("button", name="Save the round").click()
        expect(dialog).to_have_count(0)
        expect_totals(page, (21, 20, 11, 10))

        # Round 3, then undo its tricks and enter them again.
        bid(page, "Bob", 0)
        bid(page, "Cid", 0)
        bid(page, "Dee", 0)
        bid(page, "Ann", 0)
        tricks(page, {"Bob": 1})
        tap(page, "Save the tricks")
        expect(page.locator("#entry")).to_contain_text("Game over")
        tap(page, "↶ Undo last entry")
        expect(page.get_by_role("heading", name="Tricks taken")).to_be_visible()
        tricks(page, {"Bob": 1})
        tap(page, "Save the tricks")
        expect(page.locator("#headline")).to_have_text("Ann wins with 31")
        expect_totals(page, (31, 20, 21, 20))
        expect(page.locator(".chart svg polyline")).to_have_count(4)
        page.reload()
        expect(page.locator("#headline")).to_have_text("Ann wins with 31")
        shot(page, "5-over")

        # The read-only link shows the sheet without any control that writes.
        share = page.locator("#share-link").input_value()
        viewer = browser.new_page(viewport={"width": 390, "height": 844})
        viewer.goto(share)
        expect(viewer.locator("#headline")).to_have_text("Ann wins with 31")
        expect(viewer.get_by_role("button", name="Edit round 1")).to_have_count(0)
        expect(viewer.get_by_role("button", name="↶ Undo last entry")).to_have_count(0)
        shot(viewer, "6-read-only")
        assert errors == []
        browser.close()

    # The exported record scores the same under `upriver check`.
    sheet_id = sheet_url.rstrip("/").rsplit("/", 1)[1]
    exported = tmp_path / "sheet.json"
    exported.write_text(httpx.get(f"{server}/api/sheets/{sheet_id}/record").text, encoding="utf-8")
    checked = CliRunner().invoke(cli_app, ["check", "--json", str(exported)])
    assert checked.exit_code == 0, checked.output
    summary = json.loads(checked.output)
    assert summary["totals"] == [31, 20, 21, 20]
    assert summary["winners"] == [0]
    assert [r["scores"] for r in summary["rounds"]] == [[10, 10, 11, 0], [11, 10, 0, 10], [10, 0, 10, 10]]
