"""The table page as a player saw it in an audit, desktop 1280×800 and phone 390×844, in the five
languages: what is hidden stays hidden, nothing covers the suit to follow, the hand, a seat or its
card, a held trick shows with its own round, the header keeps its line and says the connection in
words, the keyboard lands where the play is, bots' levels are in the page's language. Screenshots
go to ``artifacts/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browsing import TIMEOUT_MS, LiveServer, ReviewServer, play_one_move, shot
from tests.live import SHOTS
from tests.waiting import wait_until
from upriver.actions import Phase
from upriver.i18n import catalogue

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "cs": "cs-CZ", "it": "it-IT", "sv": "sv-SE"}


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server at the default pace: a finished trick stays up long enough to be looked at."""
    server = LiveServer(tmp_path_factory.mktemp("audit-paced") / "tables.db", bot_delay=0.8)
    yield server
    server.stop()


def open_page(browser: Browser, viewport: ViewportSize, lang: str = "en") -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=viewport, locale=LOCALES[lang])
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


Box = dict[str, float]


def box_of(page: Page, selector: str) -> list[Box]:
    boxes: list[Box] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === "fixed")
             .map((el) => { const r = el.getBoundingClientRect();
                            return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })""",
        selector,
    )
    return boxes


def as_box(b: Any) -> Box:
    """A Playwright bounding box as edges."""
    return {"left": b["x"], "top": b["y"], "right": b["x"] + b["width"], "bottom": b["y"] + b["height"]}


def overlap(a: Box, b: Box) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


# ------------------------------------------------------------------ hidden stays hidden


def test_the_join_form_is_hidden_for_the_host_and_for_a_spectator_and_every_hidden_element_is_unseen(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "easy"], schedule=[1])
    for who, url in (("host", body["url"]), ("spectator", f"/t/{body['table']}")):
        context, page = open_page(browser, PHONE)
        try:
            page.goto(live.url + url)
            expect(page.locator("#lobby")).to_be_visible()
            expect(page.locator("#lobby-seats li")).to_have_count(3)
            expect(page.locator("#join")).to_be_hidden()
            expect(page.get_by_text("Take my seat")).to_be_hidden()
            shown = page.evaluate(
                """() => [...document.querySelectorAll("[hidden]")]
                     .filter((el) => getComputedStyle(el).display !== "none")
                     .map((el) => el.id || el.tagName)"""
            )
            assert shown == [], f"{who}: elements with the hidden attribute are displayed: {shown}"
            shot(page, f"audit-waiting-room-{who}-phone")
        finally:
            context.close()


# ------------------------------------------------------------------ the felt on a phone


def bid_when_asked(page: Page, live: LiveServer, table: str) -> None:
    """This seat's bid, once asked for, taken by the server (a click a redraw swallowed is not lost)."""
    expect(page.locator("#bids button.playable").first).to_be_visible()
    assert play_one_move(page, live, table)


SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
"""Resolves when every animation on the page has finished."""


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_on_a_phone_the_led_mark_lies_between_the_led_cards_rank_and_its_suit(
    live: LiveServer, browser: Browser, lang: str
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[3], first_dealer="chosen")
    context, page = open_page(browser, PHONE, lang)
    try:
        page.goto(live.url + body["url"])
        bid_when_asked(page, live, body["table"])
        led = page.locator("#trick .card.led")
        expect(led).to_have_count(1)
        mark = led.locator(".led-mark")
        expect(mark).to_have_text(str(catalogue(lang)["table.felt.led"]))
        # Measured once the card has landed: mid-flight it moves between the boxes' measurements.
        page.evaluate(SETTLED)
        pip, rank, word = (led.locator(part).bounding_box() for part in (".pip", ".rank", ".led-mark"))
        card = led.bounding_box()
        assert pip
        assert rank
        assert word
        assert card
        assert not overlap(as_box(word), as_box(pip)), f"the led mark covers the suit: {word} {pip}"
        assert not overlap(as_box(word), as_box(rank)), f"the led mark covers the rank: {word} {rank}"
        assert card["x"] <= word["x"]
        assert word["x"] + word["width"] <= card["x"] + card["width"] + 0.5
        shot(page, f"audit-led-mark-{lang}-phone")
    finally:
        context.close()


LAST_STATE = """() => { window.states = [];
  document.addEventListener("upriver:state", (e) => window.states.push(e.detail.state)); }"""


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_on_a_phone_a_seat_label_with_dealer_led_and_a_two_digit_hand_keeps_all_inside_it(
    live: LiveServer, browser: Browser, lang: str
) -> None:
    body = live.create(
        seats=["human", "random", "random", "random", "random"], schedule=[10], first_dealer="chosen"
    )
    context, page = open_page(browser, PHONE, lang)
    try:
        page.add_init_script(f"({LAST_STATE})()")
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button.playable").first).to_be_visible()
        # The felt as it is when the seat that deals is to lead the first trick, 10 cards in each hand.
        page.evaluate(
            """async () => {
              const { renderFelt } = await import("/static/table-felt.js");
              const game = structuredClone(window.states.at(-1).game);
              for (const seat of [1, 2, 3, 4]) {
                const turn = { dealer: seat, phase: "playing", trick: [], leader: seat, awaiting: [seat] };
                Object.assign(game, turn);
                renderFelt(game, { mySeat: 0, holding: false, thinking: (seat + 2) % 5 });
                const label = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
                const outer = label.getBoundingClientRect();
                for (const part of label.querySelectorAll("*")) {
                  const r = part.getBoundingClientRect();
                  if (!r.width || getComputedStyle(part).display === "none") continue;
                  const out = r.left < outer.left - 0.5 || r.right > outer.right + 0.5
                    || r.top < outer.top - 0.5 || r.bottom > outer.bottom + 0.5;
                  if (out) {
                    throw new Error(`seat ${seat}: ${part.className} "${part.textContent}" sticks out`);
                  }
                }
                if (label.scrollWidth > label.clientWidth + 1) throw new Error(`seat ${seat}: overflows`);
                const marks = label.querySelector(".badge.dealer") && label.querySelector(".badge.leader");
                if (!marks) throw new Error("marks missing");
                if (label.querySelector(".count").textContent !== "10") throw new Error("count missing");
              }
            }"""
        )
        shot(page, f"audit-seat-marks-{lang}-phone")
    finally:
        context.close()


HELD = """() => { window.held = [];
  const watch = () => {
    const status = document.getElementById("status");
    new MutationObserver(() => {
      if (!/takes the trick/.test(status.textContent)) return;
      window.held.push({
        status: status.textContent,
        round: document.getElementById("round-info").dataset.round,
        hand: document.querySelectorAll("#hand button.card").length,
        bidding: !document.getElementById("bidding").hidden,
        took: Object.fromEntries([...document.querySelectorAll("#seats .seat")].map(
          (s) => [s.dataset.seat, s.querySelectorAll(".nums span")[1].textContent])),
      });
    }).observe(status, { childList: true, characterData: true, subtree: true });
  };
  document.addEventListener("DOMContentLoaded", watch);
}"""


def test_a_rounds_last_trick_is_held_beside_that_rounds_labels_with_no_hand_of_the_next(
    paced: LiveServer, browser: Browser
) -> None:
    body = paced.create(
        seats=["human", "random", "random", "random"], schedule=[1, 3], first_dealer="chosen", pace="fast"
    )
    table = body["table"]
    context, page = open_page(browser, PHONE)
    try:
        page.add_init_script(f"({HELD})()")
        page.goto(paced.url + body["url"])
        game = paced.game(table)
        while not game.results:
            assert play_one_move(page, paced, table)
        expect(page.locator("#round-info")).to_have_attribute("data-round", "2")
        first = page.evaluate("() => window.held")[0]
        result = game.results[0]
        assert first["round"] == "1", first  # the header says the trick's own round
        assert first["hand"] == 0, first  # no card of the next round yet
        assert not first["bidding"], first
        assert first["took"] == {str(s): f"took {n}" for s, n in enumerate(result.tricks_won)}, first
        winner = game.players[result.tricks_won.index(1)]
        assert first["status"] == f"{winner} takes the trick.", first
    finally:
        context.close()


def test_on_a_phone_the_round_summary_covers_neither_the_hand_nor_the_bids_while_you_must_bid(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[1, 3], first_dealer="chosen")
    table = body["table"]
    context, page = open_page(browser, PHONE)
    try:
        page.goto(live.url + body["url"])
        game = live.game(table)
        while not game.results:
            assert play_one_move(page, live, table)
        expect(page.locator("#round-info")).to_have_attribute("data-round", "2")
        expect(page.locator("#bids button.playable").first).to_be_visible()
        summary = page.locator("#summary")
        expect(summary).to_be_visible()  # still there to read: in the page, under the hand
        expect(summary).to_have_class(re.compile(r"\bdocked\b"))
        covered = box_of(page, "#summary")[0]
        close = box_of(page, "#summary-close")[0]  # its ✕ goes with it
        assert covered["left"] <= close["left"], (close, covered)
        assert close["right"] <= covered["right"], (close, covered)
        assert covered["top"] <= close["top"], (close, covered)
        assert close["bottom"] <= covered["bottom"], (close, covered)
        for part in box_of(page, "#bids button") + box_of(page, "#hand button.card"):
            assert not overlap(covered, part), f"the summary {covered} covers {part}"
        shot(page, "audit-summary-while-bidding-phone")
        summary.click()  # a tap still closes it, and the bids are there to choose from
        expect(summary).to_be_hidden()
        expect(page.locator("#bids button.playable").first).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_why_a_card_cannot_be_played_shows_under_the_felt_not_over_a_seat_or_a_card(
    live: LiveServer, browser: Browser, viewport: str
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[6, 6, 6, 6])
    table = body["table"]
    context, page = open_page(browser, DESKTOP if viewport == "desktop" else PHONE, "fr")
    try:
        page.goto(live.url + body["url"])
        refused = page.locator("#hand button.card:not(.legal)")
        game = live.game(table)
        # Play until this seat must follow a suit others have led while holding cards it may not play.
        turn = page.locator("#bids button.playable, #hand button.card.playable, #final:not([hidden])")
        while True:
            expect(turn.first).to_be_visible()
            page.wait_for_function(f"() => Number(document.body.dataset.v) >= {live.table(table).version}")
            if game.phase is Phase.PLAYING and game.trick and refused.count():
                break
            assert play_one_move(page, live, table), "the game ended before a card was refused"
        expect(page.locator("#trick .card").first).to_be_visible()
        page.evaluate("() => window.scrollTo(0, 0)")
        refused.first.click(force=True)  # aria-disabled: it stays tappable, to say why
        notice = page.locator("#notice")
        expect(notice).to_be_visible()
        said = box_of(page, "#notice")[0]
        for part in (
            box_of(page, "#seats .seat:not(.me)") + box_of(page, "#trick .card") + box_of(page, "#turned-box")
        ):
            assert not overlap(said, part), f"the message {said} covers {part}"
        shot(page, f"audit-notice-fr-{viewport}")
    finally:
        context.close()


# ------------------------------------------------------------------ the header on a phone


def test_on_a_phone_the_header_keeps_the_round_line_whole_and_names_the_connection_in_a_word(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[11])
    for lang in sorted(LOCALES):
        words = catalogue(lang)
        context, page = open_page(browser, PHONE, lang)
        try:
            page.goto(live.url + body["url"])
            expect(page.locator("#hand button.card")).to_have_count(11)
            line = page.locator("#round-info .short-line")
            expect(line).to_be_visible()
            expect(page.locator("#round-info .long-line")).to_be_hidden()
            fits = line.evaluate("(el) => el.scrollWidth <= el.clientWidth")
            assert fits, f"{lang}: the round line is cut: {line.text_content()}"
            # The longest line a game has, two-digit rounds and hand: still whole beside the rest.
            cards = str(words["n.cards"]["other"]).replace("{count}", "10")  # type: ignore[index]
            longest = (
                str(words["table.roundLineShort"])
                .replace("{round}", "10")
                .replace("{rounds}", "19")
                .replace("{size:n.cards}", cards)
            )
            fits = line.evaluate(
                "(el, text) => { el.textContent = text; return el.scrollWidth <= el.clientWidth; }", longest
            )
            assert fits, f"{lang}: the round line is cut: {longest}"
            bar = page.locator(".bar").bounding_box()
            assert bar
            assert bar["height"] < 60, f"{lang}: the header takes {bar}"
            connection = page.locator("#connection")
            expect(connection).to_have_text(
                str(words["table.connected"])
            )  # the whole words, for screen readers
            short = connection.evaluate("(el) => getComputedStyle(el, '::after').content")
            assert str(words["table.connectedShort"]) in short, short
            assert connection.evaluate("(el) => getComputedStyle(el, '::after').display") != "none"
            shot(page, f"audit-header-{lang}-phone")
        finally:
            context.close()


def test_on_a_phone_a_lost_connection_stays_one_short_word_in_the_header(
    tmp_path: Any, browser: Browser
) -> None:
    server = LiveServer(tmp_path / "lost.db", bot_delay=0.05)
    context, page = open_page(browser, PHONE, "cs")
    try:
        body = server.create(seats=["human", "random", "random"], schedule=[2])
        page.goto(server.url + body["url"])
        expect(page.locator("#hand button.card")).to_have_count(2)
        height = page.locator(".bar").evaluate("(el) => el.offsetHeight")
        server.stop()
        expect(page.locator("#offline")).to_be_visible()
        connection = page.locator("#connection")
        expect(connection).to_have_class(re.compile(r"\boff\b"))
        expect(connection).to_have_text(str(catalogue("cs")["table.reconnecting"]))
        assert page.locator(".bar").evaluate("(el) => el.offsetHeight") == height  # still one line
        short = connection.evaluate("(el) => getComputedStyle(el, '::after').content")
        assert str(catalogue("cs")["table.offlineShort"]) in short, short
        shot(page, "audit-header-reconnecting-cs-phone")
    finally:
        context.close()
        server.stop()


# ------------------------------------------------------------------ the keyboard


def focus_of(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => { const el = document.activeElement;
             const group = el.closest("#hand") ? "hand" : el.closest("#bids") ? "bids" : null;
             return { id: el.id, tag: el.tagName, group,
                      bid: el.dataset.bid ?? null, card: el.dataset.card ?? null }; }"""
    )
    return found


def test_the_keyboard_starts_in_the_hand_goes_to_the_bids_when_asked_and_each_group_is_one_tab_stop(
    live: LiveServer, browser: Browser
) -> None:
    # This seat deals: the bots bid first, so the page opens with nothing to do but look at the hand.
    body = live.create(seats=["human", "random", "random", "random"], schedule=[6], first_dealer="chosen")
    table = body["table"]
    context, page = open_page(browser, DESKTOP)
    try:
        page.goto(live.url + body["url"])
        expect(page.locator("#hand button.card")).to_have_count(6)
        if live.game(table).awaiting != (0,):
            wait_until(lambda: focus_of(page)["group"] == "hand", "the keyboard did not start in the hand")
        expect(page.locator("#bids button.playable").first).to_be_visible()
        wait_until(lambda: focus_of(page)["group"] == "bids", "bidding did not take the keyboard to the bids")
        assert page.locator("#bids button[tabindex='0']").count() == 1
        assert page.locator("#hand button[tabindex='0']").count() == 1
        first = focus_of(page)["bid"]
        page.keyboard.press("ArrowRight")
        second = focus_of(page)
        assert second["group"] == "bids"
        assert second["bid"] != first
        assert page.locator("#bids button[tabindex='0']").get_attribute("data-bid") == second["bid"]
        page.keyboard.press("Tab")  # one Tab leaves the bids: into the hand, one stop too
        assert focus_of(page)["group"] == "hand"
        page.keyboard.press("Tab")
        assert focus_of(page)["group"] is None
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        assert focus_of(page) == second  # back on the bid the arrows reached
        page.keyboard.press("Enter")
        wait_until(lambda: live.game(table).bids[0] is not None, "Enter on a bid did not bid")
    finally:
        context.close()


def test_the_final_standings_take_the_keyboard_to_rematch(live: LiveServer, browser: Browser) -> None:
    body = live.create(seats=["human", "random", "random"], schedule=[1])
    context, page = open_page(browser, PHONE)
    try:
        page.goto(live.url + body["url"])
        while play_one_move(page, live, body["table"]):
            pass
        expect(page.locator("#final")).to_be_visible()
        expect(page.locator("#rematch")).to_be_focused()
    finally:
        context.close()


def test_a_review_leaves_the_page_as_it_was_and_escape_gives_the_keyboard_back_to_its_button(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "random", "random"], schedule=[1, 1])
    context, page = open_page(browser, DESKTOP)
    try:
        page.goto(live.url + body["url"])
        game = live.game(body["table"])
        while not game.results:
            assert play_one_move(page, live, body["table"])
        button = page.locator("#review-round-button")
        expect(button).to_be_visible()
        look = """() => { const s = getComputedStyle(document.body);
                            return [s.fontWeight, s.backgroundColor, s.color]; }"""
        before = page.evaluate(look)
        button.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#review-panel")).to_be_visible()
        assert page.evaluate(look) == before  # the page is not restyled as the review's buttons are
        page.keyboard.press("Escape")
        expect(page.locator("#review-panel")).to_be_hidden()
        expect(button).to_be_focused()
    finally:
        context.close()


# ------------------------------------------------------------------ words


def test_bot_levels_are_in_the_pages_language_on_the_felt_the_sheet_the_podium_and_the_start_page(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "easy", "normal", "hard"], schedule=[1])
    context, page = open_page(browser, DESKTOP, "fr")
    try:
        page.goto(live.url + body["url"])
        expect(page.locator("#seats .seat[data-seat='1'] .who")).to_have_text("Bob (facile)")
        expect(page.locator("#seats .seat[data-seat='3'] .who")).to_have_text("Dee (difficile)")
        expect(page.locator("#sheet th.player").nth(1)).to_contain_text("Bob (facile)")
        while play_one_move(page, live, body["table"]):
            pass
        expect(page.locator("#final")).to_be_visible()
        expect(page.locator("#standings")).to_contain_text("(facile)")
        expect(page.locator("#podium")).to_contain_text("(")
        shown = page.evaluate("() => document.body.innerText")
        assert "(easy)" not in shown
        assert "(hard)" not in shown
        shot(page, "audit-levels-fr-desktop")
        page.goto(live.url + "/")
        expect(page.locator(".my-table .back-link").first).to_contain_text("Bob (facile)")
        assert "(easy)" not in page.evaluate("() => document.body.innerText")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_your_bid_is_said_once_above_the_bids(live: LiveServer, browser: Browser, lang: str) -> None:
    body = live.create(seats=["human", "random", "random"], schedule=[2])
    context, page = open_page(browser, PHONE, lang)
    try:
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button.playable").first).to_be_visible()
        words = catalogue(lang)
        expect(page.locator("#status")).to_have_text(str(words["table.yourBid"]))
        title = page.locator("#bid-title").bounding_box()
        assert title
        assert title["width"] <= 1
        assert title["height"] <= 1
        said = page.evaluate(
            """(words) => [...document.querySelectorAll("body *")].filter((el) => {
                 const r = el.getBoundingClientRect();
                 const texts = [...el.childNodes].filter((n) => n.nodeType === 3);
                 const own = texts.map((n) => n.textContent).join("").trim();
                 return r.width > 1 && r.height > 1 && words.some((w) => own.startsWith(w));
               }).map((el) => el.id || el.tagName)""",
            [str(words["table.bidTitle"]), str(words["table.yourBid"])],
        )
        assert said == ["status"], said
    finally:
        context.close()


def test_a_saved_game_continued_from_the_start_page_keeps_its_bots_levels_and_names(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "hard", "normal", "expert"], schedule=[1, 2], pace="fast")
    table = body["table"]
    context, page = open_page(browser, DESKTOP)
    try:
        page.goto(live.url + body["url"])
        game = live.game(table)
        while not game.results:
            assert play_one_move(page, live, table)
        saved = httpx.get(f"{live.url}/api/tables/{table}/record", params={"token": body["token"]})
        assert saved.status_code == 200, saved.text
        page.goto(live.url + "/")
        page.select_option("#players", "4")  # the start page's own choices for the seats: its defaults
        page.fill("#record-text", saved.text)
        page.locator("#import button[type=submit]").click()
        page.wait_for_url(re.compile(r"/t/"))
        again = live.table(page.url.split("/t/")[1].split("#")[0])
        assert again.kinds == ["human", "hard", "normal", "expert"]
        assert again.names[1:] == ["Bob (hard)", "Cid (normal)", "Dee (expert)"]
        expect(page.locator("#seats .seat[data-seat='3'] .who")).to_have_text("Dee (expert)")
    finally:
        context.close()


def test_on_a_czech_phone_a_sheet_of_eight_seats_says_it_scrolls_and_keeps_its_first_columns(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human"] + ["random"] * 7, schedule=[1, 2])
    context, page = open_page(browser, PHONE, "cs")
    try:
        page.goto(live.url + body["url"])
        while not live.game(body["table"]).results:
            assert play_one_move(page, live, body["table"])
        frame = page.locator(".sheet-scroll")
        expect(page.locator("#sheet tbody tr")).to_have_count(2)
        summary = page.locator("#summary")  # the round's summary: eight seats' totals in the width
        expect(summary).to_be_visible()
        assert summary.evaluate("(s) => s.scrollWidth <= s.clientWidth"), "the round summary is cut"
        assert frame.evaluate("(f) => f.scrollWidth > f.clientWidth")  # eight seats are wider than a phone
        expect(frame).to_have_class(re.compile(r"\bmore-right\b"))  # a fade at the edge with more
        assert frame.evaluate("(f) => getComputedStyle(f).maskImage") != "none"
        frame.scroll_into_view_if_needed()
        shot(page, "audit-sheet-eight-cs-phone")
        frame.evaluate("(f) => { f.scrollLeft = f.scrollWidth; }")
        expect(frame).to_have_class(re.compile(r"\bmore-left\b"))
        expect(frame).not_to_have_class(re.compile(r"\bmore-right\b"))
        edge = frame.bounding_box()
        round_cell = page.locator("#sheet tbody tr[data-round='1'] th.rd").bounding_box()
        trump_cell = page.locator("#sheet tbody tr[data-round='1'] td.trump").bounding_box()
        assert edge
        assert round_cell
        assert trump_cell
        assert abs(round_cell["x"] - edge["x"]) <= 1  # the round column stays at the left
        assert trump_cell["x"] >= round_cell["x"] + round_cell["width"] - 0.5  # the trump beside it
        assert (
            frame.evaluate("(f) => getComputedStyle(f.querySelector('td.trump')).boxShadow") != "none"
        )  # a shadow: the rest scrolls under them
        frame.screenshot(path=str(SHOTS / "audit-sheet-eight-scrolled-cs-phone.png"))
    finally:
        context.close()


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose reviews run on threads at a small budget (as the review's own tests)."""
    server = ReviewServer(tmp_path_factory.mktemp("audit-review") / "tables.db")
    yield server
    server.stop()


def test_the_review_names_bots_with_their_level_in_the_pages_language(
    reviewing: LiveServer, browser: Browser
) -> None:
    body = reviewing.create(seats=["human", "easy", "easy", "easy"], schedule=[1], pace="fast")
    context, page = open_page(browser, DESKTOP, "fr")
    try:
        page.goto(reviewing.url + body["url"])
        while play_one_move(page, reviewing, body["table"]):
            pass
        page.locator("#review-game-button").click()
        panel = page.locator("#review-panel")
        expect(panel.locator(".review-dot").first).to_be_visible(timeout=60_000)  # the review is ready
        drawn = panel.evaluate("(el) => el.innerHTML")
        assert "(facile)" in drawn
        assert "(easy)" not in drawn
        page.screenshot(path=str(SHOTS / "audit-review-levels-fr-desktop.png"))
    finally:
        context.close()


def test_on_a_touch_phone_no_bid_or_card_is_focused_unasked(live: LiveServer, browser: Browser) -> None:
    # A ring on a bid the player did not touch would read as a choice made for them.
    body = live.create(seats=["human", "random", "random"], schedule=[2])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button.playable").first).to_be_visible()
        assert page.evaluate("() => matchMedia('(pointer: fine)').matches") is False
        assert focus_of(page)["group"] is None
        assert page.locator("#bids button[tabindex='0']").count() == 1  # still one Tab stop for a keyboard
    finally:
        context.close()
