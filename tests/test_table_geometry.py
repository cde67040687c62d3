"""Where the table page lays out the trick, measured in a real browser (Debian's Chromium).

A played card lies between its player's label and the centre of the felt: never under a seat
label, the trump card or another played card, and inside the viewport, for 3 to 8 seats on a
1280×800 screen and a 390×844 phone; and a round's summary covers neither the trump card nor the
seats across the table. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import TIMEOUT_MS, VIEWPORTS, LiveServer, shot

# The boxes, once every animation has finished: played cards, seat labels, the trump card.
MEASURE = """async () => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const box = (el, what) => {
    const r = el.getBoundingClientRect();
    return { what, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  return {
    cards: [...document.querySelectorAll("#trick .card")].map((el) => box(el, `card ${el.dataset.card}`)),
    seats: [...document.querySelectorAll("#seats .seat")].map(
      (el) => box(el, `label of seat ${el.dataset.seat}`),
    ),
    trump: [...document.querySelectorAll("#turned .card")].map((el) => box(el, "trump card")),
    width: window.innerWidth,
    height: window.innerHeight,
  };
}"""

Box = dict[str, Any]


def overlap(a: Box, b: Box) -> bool:
    return bool(
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def misplaced(boxes: dict[str, Any]) -> list[str]:
    """Every way a played card (or a seat label) is covered or off screen, in words."""
    faults = []
    cards: list[Box] = boxes["cards"]
    for i, card in enumerate(cards):
        for other in [*boxes["seats"], *boxes["trump"], *cards[i + 1 :]]:
            if overlap(card, other):
                faults.append(f"{card['what']} overlaps the {other['what']}")
    for item in [*cards, *boxes["seats"]]:
        if (
            item["left"] < 0
            or item["top"] < 0
            or item["right"] > boxes["width"]
            or item["bottom"] > boxes["height"]
        ):
            faults.append(f"{item['what']} is outside the {boxes['width']}×{boxes['height']} viewport")
    return faults


BOT_DELAY = 0.01
"""How long the bots of this module's server (conftest's ``live``) wait before a move, in seconds."""


def open_table(
    live: LiveServer, browser: Browser, device: str, seats: int, schedule: tuple[int, ...] | list[int] = (1,)
) -> Page:
    """This page's seat deals a one-card round to ``seats`` players, so it plays last to the trick."""
    body = live.create(
        seats=["human"] + ["random"] * (seats - 1), schedule=list(schedule), first_dealer="chosen"
    )
    context = browser.new_context(**VIEWPORTS[device])
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(live.url + body["url"])
    page.locator("#bids button.playable").first.click()
    return page


@pytest.mark.parametrize("seats", [3, 4, 6, 8])
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_played_cards_lie_between_their_seat_and_the_centre_under_nothing(
    live: LiveServer, browser: Browser, device: str, seats: int
) -> None:
    page = open_table(live, browser, device, seats)
    try:
        # Every other seat has played: the trick waits for this page's card.
        expect(page.locator("#trick .card")).to_have_count(seats - 1)
        expect(page.locator("#hand button.card.playable")).to_have_count(1)
        before = page.evaluate(MEASURE)
        shot(page, f"geometry-{device}-{seats}-seats")
        assert len(before["cards"]) == seats - 1
        assert misplaced(before) == []
        # This page's card completes the trick, which stays on the table a moment with all its cards.
        page.locator("#hand button.card.playable").click()
        page.wait_for_function(f"() => document.querySelectorAll('#trick .card').length === {seats}")
        full = page.evaluate(MEASURE)
        shot(page, f"geometry-{device}-{seats}-seats-full-trick")
        assert len(full["cards"]) == seats
        assert misplaced(full) == [], full
    finally:
        page.context.close()


# The round summary's box, the trump card's and the seat labels', once every animation has finished.
MEASURE_SUMMARY = """async () => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const box = (el, what) => {
    const r = el.getBoundingClientRect();
    return { what, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  return {
    docked: getComputedStyle(document.getElementById("summary")).position !== "fixed",
    hand: document.getElementById("hand").getBoundingClientRect().bottom,
    summary: box(document.getElementById("summary"), "round summary"),
    others: [
      ...[...document.querySelectorAll("#seats .seat:not(.me)")].map(
        (el) => box(el, `label of seat ${el.dataset.seat}`),
      ),
      ...[...document.querySelectorAll("#turned .card")].map((el) => box(el, "trump card")),
    ],
    width: window.innerWidth,
    height: window.innerHeight,
  };
}"""


@pytest.mark.parametrize("seats", [3, 4, 6, 8])
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_the_round_summary_covers_neither_the_trump_card_nor_the_other_seats(
    live: LiveServer, browser: Browser, device: str, seats: int
) -> None:
    page = open_table(live, browser, device, seats, schedule=[1, 1])
    try:
        page.locator("#hand button.card.playable").click()  # the first round's one trick is complete
        summary = page.locator("#summary")
        expect(summary).to_be_visible()  # over the next round's bidding, until closed or a card is played
        expect(page.locator("#bids button.playable").first).to_be_visible()
        boxes = page.evaluate(MEASURE_SUMMARY)
        shot(page, f"geometry-{device}-{seats}-seats-round-summary")
        area = boxes["summary"]
        assert area["left"] >= 0, area
        assert area["right"] <= boxes["width"], area
        if boxes["docked"]:
            # This seat must bid: on a narrow screen the summary waits in the page under the hand.
            assert device == "phone", area
            assert area["top"] >= boxes["hand"], area
        else:
            assert area["top"] >= 0, area
            assert area["bottom"] <= boxes["height"], area
        assert [other["what"] for other in boxes["others"] if overlap(area, other)] == []
    finally:
        page.context.close()
