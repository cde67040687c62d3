"""The score keeper page in a real browser (Debian's Chromium through Playwright) against a live server.

One short game (classic-hook, hand sizes 1, 2, 1) is entered by tapping, as at a table:
the first Jack, a refused hook bid, a refused trick count, an edit of an earlier round
that changes the totals, reloads that keep everything, undo, the read-only link, and the
exported record scored by ``upriver check``. Then the sheet's chart (Chart.js) on the keeper and
the table page, the sheet on a phone, the paper sheet the keeper prints, and the preset it offers
first. They fail, never skip, without Chromium. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from typer.testing import CliRunner

import upriver.cli.check
from tests.browsing import TIMEOUT_MS, person, post_entry
from tests.live import CHROMIUM, CHROMIUM_ARGS, SHOTS
from upriver import Game, preset
from upriver.cli import app as cli_app
from upriver.record import dumps, record_of

NAMES = ("Ann", "Bob", "Cid", "Dee")

assert upriver.cli.check  # registers `check` on the app


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

        # The source's procedure: deal face up from Ann until a Jack shows; Cid got it.
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
        save = page.get_by_role("button", name="Save the tricks")
        expect(save).to_have_attribute("aria-disabled", "true")  # off until the tricks add up
        save.click(force=True)  # a tap says why
        expect(page.get_by_role("alert")).to_have_text(
            "Round 1: the tricks add up to 2, but 1 trick was played."
        )
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
        expect(page.locator("#sheet tr[data-round='2'] th")).to_contain_text("2 cards · Dee")
        expect(page.locator("#sheet tr[data-round='2'] [aria-label=hearts]")).to_have_text("♥")

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
        expect(page.locator(".sheet-legend li")).to_have_count(4)
        assert chart_of(page)["labels"] == ["Start", "1", "2", "3"]
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


# ------------------------------------------------------------------ the chart, the phone, the paper

LONG = ("Annabelle Whitfield", "Bob", "Cid", "Dee")
"""Four players, one with a long name: :func:`kept_sheet` leaves three tied after round 1, two after 2."""

TIED_ROUNDS = (
    # (bids, tricks) by seat; dealer 0 first, classic scoring (10 + bid when exact)
    ((0, 1, 0, 0), (0, 1, 0, 0)),  # 10 11 10 10
    ((1, 1, 0, 0), (1, 1, 0, 0)),  # 21 22 20 20
)

CHART_JS = """(selector) => {
  const chart = Chart.getChart(document.querySelector(selector));
  const x = chart.scales.x;
  return {
    labels: x.ticks.map((tick) => x.getLabelForValue(tick.value)),
    names: chart.data.datasets.map((d) => d.label),
    y: chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).data.map((p) => p.y)),
    x: chart.getDatasetMeta(0).data.map((p) => p.x),
    styles: chart.data.datasets.map((d) => [d.pointStyle, d.borderDash.join(",")]),
  };
}"""


def chart_of(page: Page, selector: str = "#chart canvas") -> dict[str, Any]:
    """What Chart.js drew: the x axis' labels, each line's name, its points' pixels and its style."""
    page.wait_for_function(
        "(s) => document.querySelector(s) && Chart.getChart(document.querySelector(s))", arg=selector
    )
    state: dict[str, Any] = page.evaluate(CHART_JS, selector)
    return state


def tooltip_at(page: Page, index: int, selector: str = "#chart canvas") -> list[str]:
    """Point at the chart over round ``index`` (0: the start; a tap on a phone); the tooltip's lines."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    assert box is not None
    x, y = box["x"] + chart_of(page, selector)["x"][index], box["y"] + box["height"] / 2
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.move(x, y)
    tooltip = "(s) => Chart.getChart(document.querySelector(s)).tooltip"
    page.wait_for_function(f"(s) => ({tooltip})(s).opacity > 0 && ({tooltip})(s).title.length", arg=selector)
    lines: list[str] = page.evaluate(
        f"(s) => {{ const t = ({tooltip})(s); "
        "return [...t.title, ...t.body.flatMap((b) => b.lines), ...t.footer]; }",
        selector,
    )
    return lines


def kept_sheet(server: str, players: tuple[str, ...] = LONG, **options: Any) -> str:
    """A classic sheet (the first player deals first) through the API, with four players
    :data:`TIED_ROUNDS` entered; its page's URL."""
    made = httpx.post(
        f"{server}/api/sheets", json={"players": list(players), "preset": "classic", "dealer": 0, **options}
    )
    assert made.status_code == 201, made.text
    sheet = made.json()
    for bids, took in TIED_ROUNDS if len(players) == 4 else ():
        for seat in sheet["current"]["bidding_order"]:
            sheet = post_entry(server, sheet, "bid", seat=seat, bid=bids[seat])
        sheet = post_entry(server, sheet, "tricks", tricks=list(took))
    return f"{server}/keep/{sheet['id']}"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_keepers_chart_spans_the_rounds_played_with_full_names_a_legend_and_ties_side_by_side(
    server: str, browser: Browser, device: str
) -> None:
    page = person(browser, device)[1]
    page.goto(kept_sheet(server, schedule=[1, 2, 3, 2, 1]))
    chart = chart_of(page)
    # Two of five rounds scored: the x axis is the start and those two rounds, not all five.
    assert chart["labels"] == ["Start", "1", "2"]
    assert chart["names"] == list(LONG)
    assert len({tuple(style) for style in chart["styles"]}) == 4, "each line has its own marker and dash"
    legend = page.locator(".sheet-legend li")
    for who, total, item in zip(LONG, (21, 22, 20, 20), legend.all(), strict=True):
        expect(item).to_have_text(f"{who} {total}")
        assert item.bounding_box()["x"] + item.bounding_box()["width"] <= page.viewport_size["width"]  # type: ignore[index]
    # Equal totals are drawn side by side: Ann, Cid and Dee at 10 after round 1, Cid and Dee at 20 after 2.
    after_1 = sorted(chart["y"][seat][1] for seat in (0, 2, 3))
    assert after_1[1] - after_1[0] >= 3
    assert after_1[2] - after_1[1] >= 3
    assert abs(chart["y"][2][2] - chart["y"][3][2]) >= 3
    lines = tooltip_at(page, 1)
    assert lines[0] == "After round 1"
    assert [line.strip() for line in lines[1:5]] == [
        "Bob: 11",
        "Annabelle Whitfield: 10",
        "Cid: 10",
        "Dee: 10",
    ]
    assert lines[5] == "Tied at 10: Annabelle Whitfield, Cid, Dee"
    # The sheet's columns carry each player's line, as in the chart.
    expect(page.locator("#sheet thead th.player canvas.swatch")).to_have_count(4)
    shot(page, f"7-chart-{device}")
    page.context.close()


def test_the_table_pages_chart_shows_the_finished_rounds_and_every_players_full_name(
    server: str, browser: Browser
) -> None:
    game = Game(preset("classic", player_count=4), list(LONG), seed=7)
    rng = random.Random(1)
    while len(game.results) < 3:
        if game.legal_bids():
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    record = record_of(game)
    body = {
        "name": LONG[0],
        "seats": ["human", "random", "random", "random"],
        "record": dumps(dataclasses.replace(record, rounds=record.rounds[:3])),
    }
    made = httpx.post(f"{server}/api/tables", json=body)
    assert made.status_code == 201, made.text
    for device in ("desktop", "phone"):
        page = person(browser, device)[1]
        page.goto(server + made.json()["url"])
        chart = chart_of(page)
        assert chart["labels"] == ["Start", "1", "2", "3"]
        assert [name.split(" (")[0] for name in chart["names"]] == list(LONG)
        totals = game.totals  # after the three rounds of the record
        legend = page.locator("#chart-legend li")
        expect(legend).to_have_count(4)
        for item, total in zip(legend.all(), totals, strict=True):
            expect(item.locator("strong")).to_have_text(str(total))
        expect(legend.first).to_contain_text(LONG[0])
        page.locator("#sheet-box").screenshot(path=str(SHOTS / f"keep-8-table-chart-{device}.png"))
        page.context.close()


def test_the_sheet_on_a_phone_fits_four_players_and_scrolls_sideways_for_more_with_the_round_column_fixed(
    server: str, browser: Browser
) -> None:
    page = person(browser, "phone")[1]
    page.goto(kept_sheet(server, NAMES))  # four players, two rounds: every column, Fix too, in 390 px
    expect(page.locator("#sheet tbody tr")).to_have_count(2)
    assert page.locator(".sheet-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
    fix = page.get_by_role("button", name="Edit round 2").bounding_box()
    assert fix is not None
    assert fix["x"] + fix["width"] <= 390
    players = ("Annabelle", "Bartholomew", "Cid", "Dee", "Evangeline", "Fay", "Gustavo")
    page.goto(kept_sheet(server, players))
    made = httpx.get(page.url.replace("/keep/", "/api/sheets/"))
    sheet = made.json()
    for seat in sheet["current"]["bidding_order"]:
        sheet = post_entry(server, sheet, "bid", seat=seat, bid=0)
    sheet = post_entry(server, sheet, "tricks", tricks=[1, 0, 0, 0, 0, 0, 0])
    page.reload()
    wrap = page.locator(".sheet-wrap")
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth"), (
        "seven players do not fit a phone: the sheet scrolls"
    )
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    page.wait_for_function(
        "w => w.scrollLeft + w.clientWidth >= w.scrollWidth - 1", arg=wrap.element_handle()
    )
    frame = wrap.bounding_box()
    round_cell = page.locator("#sheet tbody th.rd").bounding_box()
    last = page.locator("#sheet thead th.player").last.bounding_box()
    assert frame is not None
    assert round_cell is not None
    assert last is not None
    assert abs(round_cell["x"] - frame["x"]) <= 1, "the round column stays at the left edge"
    assert last["x"] + last["width"] <= frame["x"] + frame["width"] + 1, (
        "the last column can be scrolled into view"
    )
    expect(page.locator("#sheet thead th.player").last).to_have_text("Gustavo")
    wrap.screenshot(path=str(SHOTS / "keep-9-sheet-scrolled-phone.png"))
    page.context.close()


PAPER_CELLS = """() => [...document.querySelectorAll('#paper tbody tr')].map((tr) =>
  [...tr.children].map((cell) => [...cell.childNodes].map((n) => n.textContent).join(" ").trim()))"""


def test_the_keeper_prints_the_sources_paper_sheet_blank_or_filled_in_black_and_white(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    page = person(browser, "desktop")[1]
    page.goto(kept_sheet(server, schedule=[1, 2, 3, 2, 1]))
    expect(page.get_by_role("button", name="Print blank sheet")).to_be_visible()
    expect(page.get_by_role("button", name="Print the sheet")).to_be_visible()
    expect(page.locator("#paper")).to_be_hidden()  # on screen only the page
    page.evaluate("window.print = () => { window.printed = document.querySelector('#paper').dataset.mode; }")
    tap(page, "Print blank sheet")
    assert page.evaluate("window.printed") == "blank"
    page.set_viewport_size({"width": 703, "height": 1000})  # A4's width inside its margins
    page.emulate_media(media="print")
    # On paper: only the sheet, none of the page's buttons or header.
    expect(page.locator("#paper")).to_be_visible()
    for chrome in (".bar", "#app", "#error"):
        expect(page.locator(chrome)).to_be_hidden()
    head = [th.inner_text() for th in page.locator("#paper thead tr").first.locator("th").all()]
    assert head == ["Round", "Cards", "Dealer", "Trump", *LONG]
    expect(page.locator("#paper thead tr").nth(1).locator("th")).to_have_text(["Bid", "Score"] * 4)
    blank = page.evaluate(PAPER_CELLS)
    assert [row[:2] for row in blank] == [["1", "1"], ["2", "2"], ["3", "3"], ["4", "2"], ["5", "1"]]
    assert all(cell == "" for row in blank for cell in row[2:]), "a blank sheet is for a pen"
    shot(page, "10-print-blank")
    pdf = tmp_path / "blank.pdf"
    page.pdf(path=str(pdf))
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1, "the whole sheet on one A4 page"
    # After printing the page's own sheet is back: the filled-in one, also what Ctrl+P prints.
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    filled = page.evaluate(PAPER_CELLS)
    assert filled[0] == [
        "1",
        "1",
        "Annabelle Whitfield",
        "",
        "0 ✓",
        "+10 10",
        "1 ✓",
        "+11 11",
        "0 ✓",
        "+10 10",
        "0 ✓",
        "+10 10",
    ]
    assert filled[1][2] == "Bob"
    assert filled[1][4:6] == ["1 ✓", "+11 21"]
    assert all(cell == "" for cell in filled[2][2:]), "rounds not played yet stay blank"
    expect(page.locator("#paper tfoot td")).to_have_text(["21", "22", "20", "20"])
    # Black and white: no colour in the paper sheet's text or lines.
    colours = page.evaluate(
        """() => [...document.querySelectorAll('#paper, #paper *')].flatMap((e) => {
             const s = getComputedStyle(e); return [s.color, s.borderTopColor]; })"""
    )
    assert set(colours) <= {"rgb(0, 0, 0)"}, set(colours)
    shot(page, "11-print-filled")
    page.context.close()


def test_the_keeper_offers_first_the_preset_the_start_page_does(server: str, browser: Browser) -> None:
    page = person(browser, "desktop")[1]
    page.goto(server + "/")
    page.wait_for_function(
        "() => document.querySelector('#preset') && document.querySelector('#preset').value"
    )
    lobby = page.locator("#preset").input_value()
    page.goto(server + "/keep")
    expect(page.locator("select[name=preset]")).to_have_value(lobby)
    page.context.close()
