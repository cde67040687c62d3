"""The table page fits its screen in Chromium: a big hand (17 cards, a three-player game's largest)
beside the chat's column on a wide screen, every card's centre a card a click reaches; the chat's
column folds away and comes back; on a phone the open chat sheet folds away when this seat's turn
comes, so its bids and its own clock are in view. Screenshots go to ``artifacts/screenshots/``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import TIMEOUT_MS, LiveServer, label, person, play_one_move, shot, sit_down
from tests.pagetext import open_page
from tests.waiting import in_page, wait_until

# For each element of `selector`: whether the element at its centre (elementFromPoint) is it or
# inside it, its box, and what lies there instead. The page is scrolled to it first.
REACHED = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  node.scrollIntoView({ block: "nearest" });
  const r = node.getBoundingClientRect();
  const there = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    what: node.dataset.card || node.dataset.bid || node.className,
    reached: Boolean(there) && node.contains(there),
    instead: there ? (there.id || there.className || there.tagName) : null,
    left: r.left, right: r.right,
  };
})"""


def unreachable(page: Page, selector: str) -> list[dict[str, Any]]:
    """The elements of ``selector`` whose centre a click does not reach (something else lies there)."""
    found: list[dict[str, Any]] = page.evaluate(REACHED, selector)
    assert found, f"nothing matches {selector}"
    return [item for item in found if not item["reached"]]


def chat_box(page: Page) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        "() => { const r = document.getElementById('chat').getBoundingClientRect();"
        " return { left: r.left, right: r.right }; }"
    )
    return box


@pytest.mark.parametrize("size", [(1280, 800), (1440, 900)])
def test_every_card_of_a_seventeen_card_hand_is_reached_beside_the_chat_column(
    live: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    width, height = size
    body = live.create(seats=["human", "basic", "basic"], schedule=[17])
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(live.url + body["url"])
        expect(page.locator("#hand button.card")).to_have_count(17)
        expect(page.locator("#chat")).to_be_visible()
        assert unreachable(page, "#hand button.card") == []
        assert unreachable(page, "#bids button.bid") == []
        # Nothing of the hand or the bids lies under the chat's column.
        chat = chat_box(page)
        lefts = page.evaluate(
            "() => [...document.querySelectorAll('#hand button.card, #bids button.bid')]"
            ".map((n) => n.getBoundingClientRect().left)"
        )
        assert min(lefts) >= chat["right"], (min(lefts), chat)
        shot(page, f"fit-17-cards-{width}x{height}")
        # The column folds away with its ✕, and the Chat button opens it again.
        page.click("#chat-close")
        expect(page.locator("#chat")).to_be_hidden()
        expect(page.locator("#chat-toggle")).to_be_visible()
        assert unreachable(page, "#hand button.card") == []
        shot(page, f"fit-17-cards-{width}x{height}-chat-closed")
        page.click("#chat-toggle")
        expect(page.locator("#chat")).to_be_visible()
        expect(page.locator("#chat-toggle")).to_be_hidden()
        assert unreachable(page, "#hand button.card") == []
        # A card chosen from the middle of the overlapped hand is the one played.
        page.locator("#bids button.playable").first.click()
        playable = page.locator("#hand button.card.playable")
        expect(playable.first).to_be_visible()
        middle = playable.nth(playable.count() // 2)
        card = middle.get_attribute("data-card")
        middle.click()
        expect(page.locator(f"#hand button.card[data-card='{card}']")).to_have_count(0)
        expect(page.locator("#hand button.card")).to_have_count(16)
    finally:
        context.close()


def test_every_card_of_a_seventeen_card_hand_is_reached_on_a_phone(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "basic", "basic"], schedule=[17])
    context, page = person(browser, "phone")
    try:
        page.goto(live.url + body["url"])
        expect(page.locator("#hand button.card")).to_have_count(17)
        assert unreachable(page, "#hand button.card") == []
        assert unreachable(page, "#bids button.bid") == []
        shot(page, "fit-17-cards-phone")
    finally:
        context.close()


def test_a_phone_chat_sheet_folds_away_when_the_turn_comes_keeping_the_line_being_written(
    live: LiveServer, browser: Browser
) -> None:
    # Round 2 is dealt by Bea (seat 1): the bot bids, then Ann, then Bea.
    body = live.create(seats=["human", "human", "basic"], schedule=[2, 2], clock=60)
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        game = live.game(table_id)

        def anns_bid_in_round_two() -> bool:
            """Play both people's moves until Ann is to bid in round 2; whether she is."""
            if game.round_number > 1 and 0 in game.awaiting:
                return True
            assert not game.is_over
            if 0 in game.awaiting:
                play_one_move(host, live, table_id, seat=0)
            elif 1 in game.awaiting:
                play_one_move(guest, live, table_id, seat=1)
            return False

        wait_until(anns_bid_in_round_two, "Ann's bid in round 2", timeout=60, pause=in_page(host))
        # Ann is to bid: Bea opens the chat and starts a line.
        guest.wait_for_function(f"() => Number(document.body.dataset.v) >= {table.version}")
        guest.click("#chat-toggle")
        expect(guest.locator("#chat")).to_be_visible()
        guest.fill("#chat-input", "half a sent")
        shot(guest, "fit-phone-chat-open")
        play_one_move(host, live, table_id, seat=0)
        # Bea's turn: the sheet is gone, her bids and her own clock are in view and reached.
        expect(guest.locator("#bids button.playable").first).to_be_visible()
        expect(guest.locator("#chat")).to_be_hidden()
        expect(label(guest, 1).locator(".clock")).to_be_visible()
        assert unreachable(guest, "#bids button.bid") == []
        assert unreachable(guest, "#seats .seat.me .clock") == []
        assert unreachable(guest, "#status") == []
        shot(guest, "fit-phone-chat-folded-at-turn")
        # Opened again, the line is still there to finish.
        guest.click("#chat-toggle")
        expect(guest.locator("#chat-input")).to_have_value("half a sent")
    finally:
        host_context.close()
        guest_context.close()


# Each cell of the round summary whose text is wider than its box (cut), and the table's overflow.
CUT_CELLS = """() => {
  const box = document.getElementById("summary").getBoundingClientRect();
  const cut = [...document.querySelectorAll("#summary-table th, #summary-table td")]
    .filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > box.right + 0.5)
    .map((c) => c.textContent);
  return cut;
}"""


def test_the_italian_table_keeps_the_round_summary_whole_and_a_chat_refusal_clear_of_mute(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "basic", "basic", "basic"], schedule=[1, 1], first_dealer="chosen")
    errors: list[str] = []
    page = open_page(browser, live.url + body["url"], "it", "desktop", errors)
    try:
        page.locator("#bids button.playable").first.click()
        page.locator("#hand button.card.playable").click()
        expect(page.locator("#summary")).to_be_visible()
        expect(page.locator("#summary-table thead th").nth(3)).to_have_text("Punti")
        assert page.evaluate(CUT_CELLS) == []
        page.fill("#chat-input", "x" * 201)
        page.click("#chat-form button[type=submit]")
        refusal = page.locator("#chat-error")
        expect(refusal).not_to_be_empty()
        below = page.evaluate(
            "() => document.querySelector('#chat .chat-mute').getBoundingClientRect().top"
            " - document.getElementById('chat-error').getBoundingClientRect().bottom"
        )
        assert below >= 0, f"the chat's refusal runs {-below:.0f} px into Mute"
        shot(page, "fit-italian-table-desktop")
        assert errors == []
    finally:
        page.context.close()
