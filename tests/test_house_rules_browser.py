"""The house rules in Chromium: the start page offers every scoring with its worked examples (the
server's points) and a scoring of the group's own, refused in the engine's words when it pays no
exact bid more than a miss; a table whose trump rotates shows the round's suit, and "No trump" in
its fifth round, with no card turned; a blind one-card round shows this seat's own card face down
on its forehead and the others' face up on their seats; the score keeper keeps a sheet under
``anderson`` with negative totals on screen and on paper, and shows the round's rotating trump."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browsing import TIMEOUT_MS, LiveServer, play_one_move
from tests.live import SHOTS
from upriver.actions import Phase
from upriver.game import Game
from upriver.record import dumps, loads
from upriver.record.writing import record_of
from upriver.rules import Rules
from upriver.scoring import Scoring

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}


def opened(browser: Browser, device: str) -> Page:
    phone = device == "phone"
    context = browser.new_context(viewport=DEVICES[device], is_mobile=phone, has_touch=phone)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture(params=["desktop", "phone"])
def device(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def page(browser: Browser, device: str) -> Iterator[Page]:
    made = opened(browser, device)
    yield made
    assert made.errors == []  # type: ignore[attr-defined]
    made.context.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(
        path=str(SHOTS / f"house-{name}-{'phone' if width < 600 else 'desktop'}.png"), full_page=True
    )


def table_of(page: Page) -> str:
    return page.url.split("/t/")[1].split("#")[0]


def rules_of(live: LiveServer, page: Page) -> Rules:
    """The rules of the page's table, from the game record its seat exports."""
    table, _, token = page.url.split("/t/")[1].partition("#token=")
    exported = httpx.get(f"{live.url}/api/tables/{table}/record", params={"token": token})
    assert exported.status_code == 200, exported.text
    return loads(exported.text).rules


def examples_of(page: Page, box: str = "") -> list[list[str]]:
    table = page.locator(f"{box} .scoring-examples").first
    expect(table).to_be_visible()
    rows = table.locator("tr").all()
    return [[cell.inner_text() for cell in row.locator("th, td").all()] for row in rows]


# ------------------------------------------------------------------ the start page


def test_the_lobby_shows_a_scorings_examples_and_creates_a_table_under_squares(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/")
    page.fill("#name", "Ann")
    # Until a scoring is chosen, the preset's (classic: ten-plus-bid) is shown by its examples.
    assert examples_of(page) == [
        ["Bid 0", "took 0 → 10", "took 1 → 0"],
        ["Bid 2", "took 2 → 12", "took 1 → 0", "took 3 → 0"],
    ]
    page.select_option("#rule-scoring", "squares")
    expect(page.locator(".scoring-examples td").nth(3)).to_have_text("took 1 → -1")
    assert examples_of(page) == [
        ["Bid 0", "took 0 → 10", "took 1 → -1"],
        ["Bid 2", "took 2 → 14", "took 1 → -1", "took 3 → -1"],
    ]
    shot(page, "lobby-squares")
    page.click("#create summary")
    page.fill("#schedule", "1,2")
    page.click("#create button[type=submit]")
    expect(page.locator("#play")).to_be_visible()
    assert rules_of(live, page).scoring is Scoring.SQUARES
    # The table's rules say the scoring in words.
    page.click("#rules-button")
    expect(page.locator("#rules-list")).to_contain_text("Exact bid: 10 + bid²; a miss: −(tricks off)²")
    shot(page, "table-squares")


def test_the_lobby_shows_anderson_by_round_and_refuses_an_own_scoring_in_the_engines_words(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/")
    page.fill("#name", "Ann")
    page.select_option("#rule-scoring", "anderson")
    expect(page.locator(".scoring-examples th").nth(2)).to_have_text("Round 3, bid 0")
    assert examples_of(page)[3] == ["Round 3, bid 2", "took 2 → 60", "took 1 → -30", "took 3 → -30"]
    shot(page, "lobby-anderson")
    page.select_option("#rule-scoring", "custom")
    expect(page.locator(".custom-scoring")).to_be_visible()
    # The numbers start as tricks-plus-ten's.
    expect(page.locator(".scoring-examples td").first).to_have_text("took 0 → 10")
    # A number out of range is refused in words, by its field, which is marked.
    refusal = page.locator(".scoring-refusal")
    page.fill("#rule-scoring-exact_bonus", "1001")
    expect(refusal).to_have_text("Bonus for an exact bid: give a whole number from 0 to 1000.")
    expect(page.locator("#rule-scoring-exact_bonus")).to_have_attribute("aria-invalid", "true")
    page.fill("#rule-scoring-exact_bonus", "0")
    no_pay = "These numbers pay no exact bid more than a miss (bid 0: made scores 0, missed by one scores 1)."
    expect(refusal).to_contain_text(no_pay)
    expect(page.locator("#rule-scoring-exact_bonus")).to_have_attribute("aria-invalid", "false")
    expect(page.locator(".scoring-field")).to_contain_text("This scoring cannot be played")
    shot(page, "lobby-custom-refused")
    before = live.tables_loaded()
    page.click("#create button[type=submit]")
    expect(page.locator("#create-error")).to_contain_text(no_pay)
    assert live.tables_loaded() == before  # a refusal makes nothing
    # A playable own scoring: a bonus of 5 and 3 a trick bid; the refusals go with the fault.
    page.fill("#rule-scoring-exact_bonus", "5")
    page.fill("#rule-scoring-per_bid", "3")
    expect(refusal).to_have_text("")
    expect(page.locator("#create-error")).to_have_text("")
    expect(page.locator(".scoring-examples td").nth(2)).to_have_text("took 2 → 13")
    page.click("#create summary")
    page.fill("#schedule", "1")
    page.check("#rule-blind_one_card")
    page.select_option("#rule-trump", "rotate")
    shot(page, "lobby-rotate-blind-own-scoring")
    page.click("#create button[type=submit]")
    expect(page.locator("#play")).to_be_visible()
    rules = rules_of(live, page)
    assert rules.options()["scoring"] == {
        "exact_bonus": 5,
        "per_trick": 1,
        "per_trick_when": "always",
        "per_bid": 3,
        "miss_per_trick_off": 0,
    }
    assert rules.blind_one_card is True
    page.click("#rules-button")
    expect(page.locator("#rules-list")).to_contain_text(
        "an exact bid scores 5 + 3 a trick bid + 1 a trick taken"
    )
    expect(page.locator("#rules-list")).to_contain_text("Trump rotates")
    expect(page.locator("#rules-list")).to_contain_text("The one-card round is played blind")


# ------------------------------------------------------------------ the table page


def test_a_rotating_trump_shows_the_rounds_suit_and_no_trump_in_the_fifth_round(
    live: LiveServer, page: Page
) -> None:
    made = live.create(
        seats=["human", "easy", "easy", "easy"],
        schedule=[1, 1, 1, 1, 1],
        trump="rotate",
        scoring="anderson",
        pace="fast",
    )
    page.goto(live.url + made["url"])
    expect(page.locator("#turned .trump-suit")).to_have_attribute("data-suit", "H")
    expect(page.locator("#turned .card")).to_have_count(0)  # no card is turned up
    expect(page.locator("#round-info")).to_contain_text("hearts")
    shot(page, "table-rotate")
    table_id = made["table"]
    # Play (one-card rounds) until the page offers this seat a move in round 5.
    offered = page.locator("#bids button.playable").or_(page.locator("#hand button.card.playable"))
    for _ in range(12):
        expect(offered.first).to_be_visible()
        if page.locator("#round-info").get_attribute("data-round") == "5":
            break
        play_one_move(page, live, table_id)
    expect(page.locator("#round-info")).to_have_attribute("data-round", "5")
    expect(page.locator("#turned .trump-none")).to_have_text("No trump")
    expect(page.locator("#turned .card")).to_have_count(0)
    expect(page.locator("#round-info")).to_contain_text("no trump")
    shot(page, "table-rotate-no-trump")


def test_a_blind_round_shows_my_card_face_down_and_the_others_face_up(live: LiveServer, page: Page) -> None:
    made = live.create(
        seats=["human", "easy", "easy", "easy"], schedule=[1, 2], blind_one_card=True, pace="slow"
    )
    page.goto(live.url + made["url"])
    expect(page.locator("#hand .own-forehead")).to_be_visible()
    expect(page.locator("#hand .own-forehead")).to_contain_text("On your forehead")
    game = live.game(made["table"])
    hands = [list(game.hand(seat)) for seat in range(4)]
    for seat in (1, 2, 3):
        card = str(hands[seat][0])
        expect(page.locator(f'#seats .seat[data-seat="{seat}"] .card.forehead')).to_have_attribute(
            "data-card", card
        )
    own = str(hands[0][0])
    assert page.locator(f'[data-card="{own}"]').count() == 0
    assert own not in page.locator("body").inner_text()
    expect(page.locator('#seats .seat[data-seat="0"] .card.forehead')).to_have_count(0)
    expect(page.locator("#turned .blind-note")).to_have_text("Blind round")
    shot(page, "table-blind")
    # A spectator sees no card on any forehead (a player could open the spectators' page), only backs.
    watcher = page.context.new_page()
    watcher.goto(f"{live.url}/t/{made['table']}")
    expect(watcher.locator("#turned .blind-note")).to_have_text("Blind round")
    expect(watcher.locator("#seats .seat .backs")).to_have_count(4)
    expect(watcher.locator(".card.forehead, .own-forehead")).to_have_count(0)
    for hand in hands:
        assert watcher.locator(f'[data-card="{hand[0]}"]').count() == 0
    watcher.close()


def two_rounds_lost_under_anderson() -> tuple[str, Game]:
    """A record of a game under ``anderson`` (hand sizes 1, 2, 1) stopped before its last round, in
    which Ann lost points and someone is more than 30 down: whatever the last round (30 a trick)
    brings, a total stays below zero. Moves are drawn at random from a seed, so always the same."""
    rules = Rules.from_options(
        {"scoring": "anderson", "trump": "rotate", "schedule": [1, 2, 1]}, player_count=4
    )
    for seed in range(500):
        # Dealt round by round, so the record ends with round 2 (a saved game goes on from a round's end).
        game = Game(rules, ["Ann", "Bob", "Cid", "Dee"], seed=seed, auto_deal=False)
        pick = random.Random(seed)
        while len(game.results) < 2:
            if game.phase is Phase.DEALING:
                game.deal()
            elif game.legal_bids():
                game.bid(pick.choice(game.legal_bids()))
            else:
                game.play(pick.choice(game.legal_cards()))
        if min(game.totals) < -30 and any(result.scores[0] < 0 for result in game.results):
            return dumps(record_of(game)), game
    raise AssertionError("no seed below 500 gives such a game")


def test_negative_scores_and_totals_read_right_on_the_sheet_chart_podium_and_review(
    live: LiveServer, page: Page
) -> None:
    record, before = two_rounds_lost_under_anderson()
    made = live.create(seats=["human", "easy", "easy", "easy"], record=record)
    table_id = made["table"]
    page.goto(live.url + made["url"])
    while play_one_move(page, live, table_id):
        pass
    game = live.game(table_id)
    totals = list(game.totals)
    assert min(totals) < 0
    expect(page.locator("#final")).to_be_visible()
    # The standings list every total in order, the lowest (below zero) last.
    standings = page.locator("#standings li")
    for index, (_place, _seat, total) in enumerate(game.standings()):
        expect(standings.nth(index)).to_contain_text(f"{total} points")
    expect(standings.last).to_contain_text(f"{min(totals)} points")
    lowest = totals.index(min(totals))
    shot(page, "table-negative-podium")
    # The sheet's last row: each running total with its sign; the round's points with a minus.
    last = page.locator("#sheet tbody tr[data-status]").last
    expect(last.locator(f'td[data-cell="3-{lowest}"] .tot')).to_have_text(str(min(totals)))
    lost = next(r for r in before.results if r.scores[0] < 0)
    expect(page.locator(f'#sheet td[data-cell="{lost.number}-0"] .pts')).to_have_text(f" −{-lost.scores[0]}")
    # The chart's lines end at the totals, below zero too.
    canvas = page.locator("#sheet-box .sheet-chart canvas")
    expect(canvas).to_have_attribute("aria-label", re.compile(str(min(totals))))
    drawn = page.evaluate(
        "(c) => Chart.getChart(c).data.datasets.map((d) => d.data.at(-1))", canvas.element_handle()
    )
    assert drawn == totals
    # The review says the round Ann lost points in, with its minus.
    page.locator("#review-final-button").click()
    panel = page.locator("#review-panel")
    panel.locator(".review-chip").nth(lost.number - 1).click()
    expect(panel.locator(".review-outcome")).to_have_text(
        f"Bid {lost.bids[0]}, took {lost.tricks_won[0]}: {lost.scores[0]} points"
    )
    # Trump rotated: the review shows that round's suit, no card turned.
    expect(panel.locator(".review-trump .trump-suit")).to_have_attribute("data-suit", "HDC"[lost.number - 1])
    shot(page, "table-negative-review")


# ------------------------------------------------------------------ the score keeper


def keep_round(server: str, sheet: dict[str, Any], bids: list[int], took: list[int]) -> dict[str, Any]:
    for seat in sheet["current"]["bidding_order"]:
        sheet = post(server, sheet, "bid", seat=seat, bid=bids[seat])
    return post(server, sheet, "tricks", tricks=took)


def post(server: str, sheet: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    answer = httpx.post(
        f"{server}/api/sheets/{sheet['id']}/{action}", json={**body, "version": sheet["version"]}
    )
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_the_keeper_keeps_a_sheet_under_anderson_with_negative_totals_and_a_rotating_trump(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/keep")
    for seat, who in enumerate(["Ann", "Bob", "Cid", "Dee"], start=1):
        page.get_by_label(f"Player {seat}").fill(who)
    page.locator("#keep-scoring").select_option("squares")
    expect(page.locator(".scoring-examples td").nth(2)).to_have_text("took 2 → 14")
    shot(page, "keep-form-squares")
    page.locator("#keep-scoring").select_option("anderson")
    expect(page.locator(".scoring-examples th").nth(2)).to_have_text("Round 3, bid 0")
    page.locator("details summary").first.click()
    page.locator("input[name=schedule]").fill("1,2,3")
    page.locator("select[name=trump]").select_option("rotate")
    page.locator("select[name=dealer]").select_option("0")
    shot(page, "keep-form")
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator("#round-trump")).to_contain_text("Trump this round: hearts")
    sheet_id = page.url.rsplit("/", 1)[1]
    sheet = httpx.get(f"{live.url}/api/sheets/{sheet_id}").json()
    assert sheet["rules"]["scoring"] == "anderson"
    assert sheet["rules"]["trumps"] == ["H", "D", "C"]
    # Round 1 (10 a trick bid): Ann makes 1 (+10), Bob bids 1 and takes nothing (−10).
    sheet = keep_round(live.url, sheet, [1, 1, 0, 0], [1, 0, 0, 0])
    # Round 2 (20 a trick): Ann bids 2 and takes 0 (−40), Bob bids 0 and takes 1 (−20), Cid makes 1 (+20).
    sheet = keep_round(live.url, sheet, [2, 0, 1, 0], [0, 1, 1, 0])
    assert sheet["sheet"]["totals"] == [10 - 40, -10 - 20, 20, 0]
    page.reload()
    expect(page.locator("#round-trump")).to_contain_text("Trump this round: clubs")
    expect(page.locator('[data-total="Ann"]')).to_have_text("-30")
    expect(page.locator('[data-total="Bob"]')).to_have_text("-30")
    expect(page.locator('[data-cell="2-0"] .pts')).to_have_text(" −40")
    shot(page, "keep-anderson")
    # On paper: the round's trump in every row (blank sheets too), and the points with their sign.
    page.evaluate("window.print = () => {}")
    page.get_by_role("button", name="Print the sheet").click()
    page.emulate_media(media="print")
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#paper tbody tr')]"
        ".map((tr) => [...tr.children].map((c) => c.innerText))"
    )
    assert [row[3] for row in rows] == ["♥", "♦", "♣"]
    assert rows[1][4:6] == ["2/0", "−40\n−30"]  # the round's points over the running total
    shot(page, "keep-anderson-paper")


def test_the_keeper_takes_a_scoring_of_your_own_and_shows_the_engines_refusal(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/keep")
    for seat, who in enumerate(["Ann", "Bob", "Cid", "Dee"], start=1):
        page.get_by_label(f"Player {seat}").fill(who)
    page.locator("#keep-scoring").select_option("custom")
    page.fill("#keep-scoring-exact_bonus", "0")
    expect(page.locator(".scoring-refusal")).to_contain_text(
        "These numbers pay no exact bid more than a miss"
    )
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator("#error")).to_contain_text("must pay an exact bid more than a miss")
    assert page.url.endswith("/keep")  # refused: no sheet was made
    page.fill("#keep-scoring-exact_bonus", "10")
    page.select_option("#keep-scoring-per_trick_when", "exact")
    page.fill("#keep-scoring-miss_per_trick_off", "5")
    expect(page.locator(".scoring-examples td").nth(1)).to_have_text("took 1 → -5")
    page.locator("details summary").first.click()
    page.locator("#keep-blind").check()
    page.locator("select[name=trump_lead]").select_option("after-first-trick")
    shot(page, "keep-own-scoring")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/keep/*")
    rules = httpx.get(f"{live.url}/api/sheets/{page.url.rsplit('/', 1)[1]}").json()["rules"]
    assert rules["scoring"] == {
        "exact_bonus": 10,
        "per_trick": 1,
        "per_trick_when": "exact",
        "per_bid": 0,
        "miss_per_trick_off": 5,
    }
    assert rules["blind_one_card"] is True
    assert rules["trump_lead"] == "after-first-trick"
