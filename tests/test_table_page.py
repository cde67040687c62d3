"""The table page in real Chromium: motion, the keyboard, the join page, the rematch, this browser's
list of tables and a quiet console. Screenshots go to ``artifacts/screenshots/``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.browsing import TIMEOUT_MS, VIEWPORTS, LiveServer, play_one_move, shot
from tests.waiting import wait_until
from upriver.actions import Phase

BOT_DELAY = 0.02
"""How long the bots of this module's server (conftest's ``live``) wait before a move, in seconds."""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**VIEWPORTS["phone"])
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**VIEWPORTS["desktop"])
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def table_of(page: Page) -> str:
    return page.url.split("/t/")[1].split("#")[0]


# Counts, in the page, every card element put on the felt's trick (a re-insertion counts again).
COUNT_INSERTIONS = """() => {
  window.inserted = [];
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) window.inserted.push(node.dataset.card);
    }
  }).observe(document.getElementById("trick"), { childList: true });
}"""


def test_each_played_card_is_put_on_the_felt_exactly_once_in_a_whole_round(
    live: LiveServer, desktop: Page
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[4], pace="fast")
    desktop.goto(live.url + body["url"])
    expect(desktop.locator("#bids button").first).to_be_visible()
    desktop.evaluate(COUNT_INSERTIONS)
    while play_one_move(desktop, live, body["table"]):
        pass
    game = live.game(body["table"])
    played = [str(card) for result in game.results for card in result.plays or ()]
    assert len(played) == 16
    inserted = desktop.evaluate("() => window.inserted")
    assert sorted(inserted) == sorted(played)  # each card once: nothing re-inserted at an update


def focused(page: Page) -> dict[str, Any]:
    """The focused element: its group (hand, bids or elsewhere), card or bid, and its focus ring."""
    found: dict[str, Any] = page.evaluate(
        """() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return {
        group: el.closest("#hand") ? "hand" : el.closest("#bids") ? "bids" : el.tagName,
        card: el.dataset.card ?? null, bid: el.dataset.bid ?? null,
        outline: style.outlineStyle, width: style.outlineWidth, offset: style.outlineOffset,
        colour: style.outlineColor, shadow: style.boxShadow,
      };
    }"""
    )
    return found


def test_the_arrow_keys_reach_every_card_and_bid_and_enter_on_one_not_allowed_says_why(
    live: LiveServer, desktop: Page
) -> None:
    body = live.create(seats=["human", "random", "random", "random"], schedule=[5], first_dealer="chosen")
    desktop.goto(live.url + body["url"])
    game = live.game(body["table"])
    wait_until(lambda: game.awaiting == (0,), "the bots never bid")
    expect(desktop.locator("#bids button.playable").first).to_be_visible()
    # During the bidding no card may be played: the arrows still go over every one of them.
    hand = [str(c.get_attribute("data-card")) for c in desktop.locator("#hand button.card").all()]
    assert len(hand) == 5
    desktop.locator("#hand button.card").first.focus()
    reached = []
    for _ in hand:
        reached.append(focused(desktop)["card"])
        desktop.keyboard.press("ArrowRight")
    assert reached == hand
    assert focused(desktop)["card"] == hand[0]  # round again to the first
    desktop.keyboard.press("ArrowLeft")
    assert focused(desktop)["card"] == hand[-1]
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#notice")).to_be_visible()
    expect(desktop.locator("#notice")).to_contain_text("Wait for the bids")
    # The bids: every one reached, the ring a sky-blue outline set off the button, not the gold.
    desktop.locator("#bids button").first.focus()
    bids = [str(b.get_attribute("data-bid")) for b in desktop.locator("#bids button").all()]
    seen = []
    for _ in bids:
        seen.append(focused(desktop)["bid"])
        desktop.keyboard.press("ArrowRight")
    assert seen == bids
    desktop.keyboard.press("End")
    ring = focused(desktop)
    assert ring["bid"] == bids[-1]
    assert (ring["outline"], ring["width"], ring["offset"]) == ("solid", "3px", "3px")
    assert ring["colour"] == "rgb(79, 195, 247)"
    assert "rgb(255, 213, 79)" not in ring["colour"]  # the gold of what may be played is the shadow's
    shot(desktop, "table-keyboard-focus-on-a-bid")
    # A bid by the keyboard: the focus goes on to the hand, not to the page.
    desktop.keyboard.press("Home")
    desktop.keyboard.press("Enter")
    wait_until(lambda: game.bids[0] is not None, "the bid never landed")
    expect(desktop.locator("#bidding")).to_be_hidden()
    assert focused(desktop)["group"] == "hand"


def test_the_focus_stays_in_the_hand_after_a_card_is_played_by_the_keyboard(
    live: LiveServer, desktop: Page
) -> None:
    # This page's seat deals, so seat 1 leads and this seat plays last to the first trick.
    body = live.create(seats=["human", "random", "random"], schedule=[4], first_dealer="chosen")
    desktop.goto(live.url + body["url"])
    game = live.game(body["table"])
    desktop.locator("#bids button.playable").first.click()
    wait_until(
        lambda: game.phase is Phase.PLAYING and game.awaiting == (0,), "never this seat's turn to play"
    )
    playable = desktop.locator("#hand button.card.playable").first
    expect(playable).to_be_visible()
    card = str(playable.get_attribute("data-card"))
    cards = [str(c.get_attribute("data-card")) for c in desktop.locator("#hand button.card").all()]
    playable.focus()
    desktop.keyboard.press("Enter")
    wait_until(lambda: card not in {str(c) for c in game.hand(0)}, "the card never landed")
    expect(desktop.locator(f"#hand button.card[data-card='{card}']")).to_have_count(0)
    where = focused(desktop)
    assert where["group"] == "hand"
    # The card now in the played card's place (the next one), or the last if it was the last.
    at = cards.index(card)
    rest = [c for c in cards if c != card]
    assert where["card"] == rest[min(at, len(rest) - 1)]


def test_the_join_page_says_the_rules_in_words_and_who_is_seated_with_the_bots_levels(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "easy", "basic"], preset="classic-hook")
    [url] = [i["url"] for i in live.summary(body["table"], body["token"])["invites"] if i["seat"] == 1]
    invite = url.partition("#token=")[2]
    context = browser.new_context(**VIEWPORTS["phone"])
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(f"{live.url}/t/{body['table']}#token={invite}")
        expect(page.locator("#lobby-title")).to_have_text("Join this table")
        seats = page.locator("#lobby-seats li")
        expect(seats).to_have_count(4)
        expect(seats.nth(0)).to_have_text("Seat 1: Ann — player")
        expect(seats.nth(1)).to_have_text("Seat 2: your seat — type your name below to take it")
        expect(seats.nth(2)).to_have_text("Seat 3: Cid — bot, level Easy")
        expect(seats.nth(3)).to_have_text("Seat 4: Dee — bot, basic")
        # The rules as the table's Rules panel words them (the same builder).
        expect(page.locator("#lobby-preset")).to_contain_text("Classic, screw the dealer")
        for words in (
            "Dealer may not make the bids total the tricks (the hook)",
            "Trump may not be led until broken",
            "The first player dealt a Jack deals first",
        ):
            expect(page.locator("#lobby-rules-list li", has_text=words)).to_have_count(1)
        shot(page, "table-join-page-phone")
        # Joining records the table in this browser's list, as the start page does at creation.
        page.fill("#join-name", "Bea")
        page.click("#join-button")
        expect(page.locator("#play")).to_be_visible()
        wait_until(lambda: live.summary(body["table"])["seats"][1]["name"] == "Bea", "Bea never sat down")
        stored = json.loads(page.evaluate("() => localStorage.getItem('upriver.tables')"))
        assert [(t["table"], t["seat"]) for t in stored] == [(body["table"], 1)]
        assert stored[0]["token"] != invite  # the invite was spent; the seat has a link of its own
        assert live.summary(body["table"], stored[0]["token"])["seat"] == 1
        assert isinstance(stored[0]["at"], int)
    finally:
        context.close()


def test_a_rematch_starts_a_new_game_with_the_same_seats_from_the_final_standings(
    live: LiveServer, phone: Page
) -> None:
    body = live.create(seats=["human", "easy", "random", "basic"], schedule=[1], pace="fast")
    phone.goto(live.url + body["url"])
    while play_one_move(phone, live, body["table"]):
        pass
    old = live.table(body["table"])
    rematch = phone.locator("#rematch")
    expect(rematch).to_be_visible()
    expect(phone.locator("#new-game")).to_have_attribute("href", "/")
    shot(phone, "table-final-with-rematch-phone")
    rematch.click()
    phone.wait_for_url(lambda url: body["table"] not in url)
    new = live.table(table_of(phone))
    assert new.rematch_of == old.id
    assert new.kinds == old.kinds
    assert new.names == old.names
    assert new.seed != old.seed
    expect(phone.locator("#hand button.card")).to_have_count(1)  # the game is on: every seat is taken
    game = new.game
    assert game is not None
    assert game.players == live.game(old.id).players
    stored = json.loads(phone.evaluate("() => localStorage.getItem('upriver.tables')"))
    assert stored[0]["table"] == new.id
    assert new.seat_of(stored[0]["token"]) == 0


def test_expected_refusals_leave_the_console_quiet(live: LiveServer, browser: Browser) -> None:
    context = browser.new_context(**VIEWPORTS["phone"])
    context.set_default_timeout(TIMEOUT_MS)
    messages: list[str] = []

    def listen(message: ConsoleMessage) -> None:
        # The review panel's own module is loaded beside the table's; whether it is there is its own.
        if message.type in ("error", "warning") and not message.location.get("url", "").endswith(
            "/static/review.js"
        ):
            messages.append(f"{message.type}: {message.text}")

    try:
        page = context.new_page()
        page.on("console", listen)
        page.on("pageerror", lambda error: messages.append(f"page error: {error}"))
        body = live.create(seats=["human", "random", "random"], schedule=[2, 1], dealer_bid="hook")
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button").first).to_be_visible()
        page.locator("#hand button.card").first.tap(force=True)  # no card during the bidding
        expect(page.locator("#notice")).to_be_visible()
        moving = page.locator("#bids button.playable, #hand button.card.playable, #final:not([hidden])")
        refused = page.locator("#hand button.card:not(.legal)")
        while True:
            expect(moving.first).to_be_visible()
            if page.locator("#hand button.card.playable").count() and refused.count():
                refused.first.tap(force=True)  # a card not allowed now: its reason, on screen only
                expect(page.locator("#notice")).to_be_visible()
            if not play_one_move(page, live, body["table"]):
                break
        expect(page.locator("#final")).to_be_visible()
        assert messages == []
    finally:
        context.close()


# Every box the player needs while bidding a big hand: the header's items, the felt, the bids, the cards.
MEASURE_ESSENTIALS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { what: el.id || el.dataset.card || el.dataset.bid || el.className, left: r.left, top: r.top,
             right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  };
  const shown = (el) => getComputedStyle(el).display !== "none" && el.getClientRects().length > 0;
  return {
    header: [...document.querySelectorAll(".bar > *")].filter(shown).map(box),
    felt: box(document.getElementById("felt")),
    cards: [...document.querySelectorAll("#hand button.card")].map(box),
    bids: [...document.querySelectorAll("#bids button")].map(box),
    width: window.innerWidth, height: window.innerHeight, scrolled: window.scrollY,
  };
}"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_big_hand_and_its_bids_fit_on_screen_with_a_one_line_header_and_44_px_targets(
    live: LiveServer, browser: Browser, device: str
) -> None:
    context = browser.new_context(**VIEWPORTS[device])
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        # Eleven cards, the most a classic-hook game deals to four: this seat deals, so it bids last.
        body = live.create(
            seats=["human", "random", "random", "random"], schedule=[11], first_dealer="chosen"
        )
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button.playable").first).to_be_visible()
        boxes = page.evaluate(MEASURE_ESSENTIALS)
        shot(page, f"table-big-hand-bidding-{device}")
        assert boxes["scrolled"] == 0
        assert len(boxes["cards"]) == 11
        assert len(boxes["bids"]) == 12
        tops = {round(item["top"] + item["height"] / 2) for item in boxes["header"]}
        assert max(tops) - min(tops) <= 4, boxes["header"]  # one line: every item on the same middle
        for item in [*boxes["header"], boxes["felt"], *boxes["cards"], *boxes["bids"]]:
            assert item["left"] >= 0, item
            assert item["top"] >= 0, item
            assert item["right"] <= boxes["width"], item
            assert item["bottom"] <= boxes["height"], item
        for target in [*boxes["cards"], *boxes["bids"]]:
            assert target["width"] >= 44, target
            assert target["height"] >= 44, target
    finally:
        context.close()


def test_the_other_person_is_told_of_the_rematch_and_its_link_seats_them_under_their_name(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "random"], schedule=[1], pace="fast")
    old = live.table(body["table"])
    contexts = [browser.new_context(**VIEWPORTS["desktop"]), browser.new_context(**VIEWPORTS["phone"])]
    try:
        host, guest = (context.new_page() for context in contexts)
        for context in contexts:
            context.set_default_timeout(TIMEOUT_MS)
        host.goto(live.url + body["url"])
        guest.goto(f"{live.url}/t/{old.id}#token={old.tokens[1]}")
        guest.fill("#join-name", "Bea")
        guest.click("#join-button")
        game = live.game(old.id)
        while not game.is_over:
            wait_until(lambda: game.is_over or set(game.awaiting) & {0, 1}, "the bot never moved")
            if game.is_over:
                break
            page = (host, guest)[game.awaiting[0]] if game.awaiting[0] in (0, 1) else host
            play_one_move(page, live, old.id, seat=game.awaiting[0])
        for page in (host, guest):
            expect(page.locator("#rematch")).to_be_visible()
        host.click("#rematch")
        host.wait_for_url(lambda url: old.id not in url)
        news = guest.locator("#rematch-news")
        expect(news).to_contain_text("Ann started a rematch.")
        expect(guest.locator("#rematch")).to_be_hidden()  # one rematch: this seat joins it
        shot(guest, "table-told-of-a-rematch-phone")
        guest.click("#rematch-link")
        guest.wait_for_url(lambda url: old.id not in url)
        new = live.table(table_of(guest))
        assert table_of(host) == new.id
        wait_until(lambda: new.game is not None, "Bea never took her seat")  # the rematch starts
        assert new.names[:2] == ["Ann", "Bea"]
        for page in (host, guest):
            expect(page.locator("#hand button.card")).to_have_count(1)
        stored = json.loads(guest.evaluate("() => localStorage.getItem('upriver.tables')"))
        assert stored[0]["table"] == new.id
        assert new.seat_of(stored[0]["token"]) == 1
        assert "name=" not in guest.url  # the name was used once, to sit down; the link keeps the token only
    finally:
        for context in contexts:
            context.close()


# When a trick is gathered: each card's distance to the winner's label as its animation starts and
# halfway through it (in window.gather once known). The animations are paused and set to those
# moments, so what is measured does not depend on how fast the browser draws.
WATCH_GATHER = """() => {
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  new MutationObserver((records, observer) => {
    const cards = records.flatMap((r) => [...r.addedNodes]);
    if (!cards.length) return;
    observer.disconnect();
    const winner = cards.find((el) => el.classList.contains("winner")).dataset.seat;
    // The labels are drawn again at each update: find the winner's each time.
    const label = () => document.querySelector(`#seats .seat[data-seat="${winner}"]`);
    const apart = () => cards.map((el) => Math.hypot(...centre(el).map((v, i) => v - centre(label())[i])));
    const animations = cards.flatMap((el) => el.getAnimations());
    const at = (share) => {
      for (const a of animations) {
        a.pause();
        a.currentTime = share * a.effect.getComputedTiming().duration;
      }
      return apart();
    };
    const before = at(0);
    const after = at(0.5);
    for (const a of animations) a.play();
    const inTrick = [...document.querySelectorAll("#trick .card")].map((el) => el.dataset.card);
    window.gather = {
      before, after, inTrick, gathered: cards.map((el) => el.dataset.card), animated: animations.length,
    };
  }).observe(document.getElementById("gathered"), { childList: true });
}"""


def test_a_finished_trick_is_gathered_toward_its_winners_seat(live: LiveServer, desktop: Page) -> None:
    # This seat deals, so it plays last: its card finishes the first trick.
    body = live.create(seats=["human", "random", "random", "random"], schedule=[2], first_dealer="chosen")
    desktop.goto(live.url + body["url"])
    desktop.locator("#bids button.playable").first.click()
    expect(desktop.locator("#trick .card")).to_have_count(3)
    desktop.evaluate(WATCH_GATHER)
    desktop.locator("#hand button.card.playable").first.click()
    desktop.wait_for_function("() => window.gather !== undefined")
    moved = desktop.evaluate("() => window.gather")
    assert len(moved["before"]) == 4  # the whole trick leaves together
    assert moved["animated"] == 4  # each card on its way
    for before, after in zip(moved["before"], moved["after"], strict=True):
        assert after < before or before < 1  # each card nearer its winner's label (the winner's own too)
    assert not set(moved["inTrick"]) & set(moved["gathered"])  # the trick holds only the cards in play
