"""The table page in a real browser (Debian's Chromium through Playwright) against a live server.

These tests fail, never skip, when Chromium is missing: the web app's promise is that a
person can play it in a browser. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browsing import TIMEOUT_MS, LiveServer, hand_of, play_one_move, shot
from tests.waiting import wait_until
from upriver.actions import Phase


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_one_person_plays_a_whole_short_game_against_three_bots_by_clicking(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/")
    page.fill("#name", "Ann")
    page.click("summary")
    page.fill("#schedule", "1,2,1")
    shot(page, "01-new-table")
    page.click("#create button[type=submit]")
    expect(page.locator("#play")).to_be_visible()
    table_id = page.url.split("/t/")[1].split("#")[0]
    moves = 0
    while play_one_move(page, live, table_id):
        moves += 1
        if moves == 2:
            shot(page, "02-playing")
        assert moves < 20
    expect(page.locator("#standings li")).to_have_count(4)
    assert live.game(table_id).is_over
    assert moves == 3 + 1 + 2 + 1  # a bid a round, then the cards of rounds of 1, 2 and 1
    expect(page.locator("#sheet tbody tr")).to_have_count(3)
    expect(page.locator("#chart canvas")).to_have_count(1)  # the running totals, drawn by Chart.js
    for player in live.game(table_id).players:
        expect(page.locator("#chart-legend")).to_contain_text(player)
    # The last trick's box shows its plays (seat and card), each card once, in the order played.
    last = live.game(table_id).last_trick
    assert last is not None
    shown = page.locator("#last-trick figure .card")
    expect(shown).to_have_count(4)
    assert [c.get_attribute("data-card") for c in shown.all()] == [str(card) for _seat, card in last.plays]
    shot(page, "03-final-standings")


def test_two_people_in_separate_browsers_each_see_only_their_own_hand(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[5])
    first = browser.new_context()
    second = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)  # a phone
    try:
        host = first.new_page()
        host.goto(live.url + body["url"])
        invite = host.locator("#invites a[data-seat='1']")
        expect(invite).to_be_visible()
        link = str(invite.get_attribute("href"))
        shot(host, "04-lobby-invites")
        guest = second.new_page()
        guest.goto(link)
        guest.fill("#join-name", "Bea")
        guest.click("#join-button")
        for page in (host, guest):
            expect(page.locator("#hand button.card")).to_have_count(5)
        game = live.game(body["table"])
        assert sorted(hand_of(host)) == sorted(str(c) for c in game.hand(0))
        assert sorted(hand_of(guest)) == sorted(str(c) for c in game.hand(1))
        assert not set(hand_of(host)) & set(hand_of(guest))
        shot(guest, "05-second-player")
    finally:
        first.close()
        second.close()


def test_reloading_the_page_mid_trick_resumes_the_same_trick_and_hand(live: LiveServer, page: Page) -> None:
    found = False
    for _attempt in range(10):
        body = live.create(seats=["human", "basic", "basic", "basic"], schedule=[4])
        page.goto(live.url + body["url"])
        table_id = body["table"]
        # Play until it is this seat's turn with the bots' cards already on the table.
        while play_one_move(page, live, table_id):
            expect(
                page.locator("#bids button.playable, #hand button.card.playable, #final:not([hidden])").first
            ).to_be_visible()
            game = live.game(body["table"])
            if game.phase is Phase.PLAYING and game.to_act == 0 and game.trick:
                found = True
                break
        if found:
            break
    assert found, "this seat never played to a trick others had started"
    trick = sorted(str(card) for _seat, card in game.trick)
    hand = hand_of(page)
    expect(page.locator("#trick .card")).to_have_count(len(trick))
    page.reload()
    expect(page.locator("#trick .card")).to_have_count(len(trick))
    assert sorted(str(c.get_attribute("data-card")) for c in page.locator("#trick .card").all()) == trick
    assert hand_of(page) == hand
    shot(page, "06-after-reload")
    before = len(game.log)
    assert play_one_move(page, live, body["table"])
    assert len(live.game(body["table"]).log) > before


def test_the_dealers_hooked_bid_is_disabled_with_the_reason(live: LiveServer, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})  # wide enough for the table talk's column
    for _attempt in range(20):
        body = live.create(seats=["human", "basic", "basic"], schedule=[10], dealer_bid="hook")
        page.goto(live.url + body["url"])
        expect(page.locator("#bids button").first).to_be_visible()
        game = live.game(body["table"])
        if sum(bid or 0 for bid in game.bids) <= game.hand_size:
            break
    else:
        pytest.fail("the bots never left the dealer a forbidden bid")
    forbidden = game.hand_size - sum(bid or 0 for bid in game.bids)
    button = page.locator(f"#bids button[data-bid='{forbidden}']")
    expect(button).to_be_disabled()
    assert "hook" in str(button.get_attribute("title"))
    assert "not allowed" in str(button.get_attribute("aria-label"))
    expect(page.locator("#bid-reason")).to_contain_text("hook")
    # The reason is read whole: on screen and clear of the table talk's column on a wide screen.
    reason = page.locator("#bid-reason").bounding_box()
    talk = page.locator("#chat").bounding_box()
    assert reason is not None
    assert reason["x"] >= 0
    if talk is not None and page.locator("#chat").is_visible():
        assert reason["x"] >= talk["x"] + talk["width"], (reason, talk)
    shot(page, "07-hook-reason")
    button.click(force=True)  # Playwright holds back on an aria-disabled button; a person's click does not
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice")).to_contain_text("hook")
    assert live.game(body["table"]).bids[0] is None
    shot(page, "07-hook-bid-disabled")
    expect(page.locator("#bids button.playable").first).to_be_enabled()


def test_a_damaged_table_says_why_and_offers_no_move(tmp_path: Path, browser: Browser) -> None:
    db = tmp_path / "damaged.db"
    first = LiveServer(db, bot_delay=60)  # the bots sleep, so only the stored events move the game
    # Seat 0 deals (first_dealer "chosen"), so this page's seat 1 bids first and would have a choice.
    body = first.create(seats=["basic", "human", "basic", "basic"], creator=1, schedule=[3])
    version = first.table(body["table"]).version
    seat = 1
    assert first.game(body["table"]).awaiting == (seat,)
    first.stop()
    with contextlib.closing(sqlite3.connect(db)) as store, store:
        store.execute(
            "INSERT INTO events (table_id, version, kind, seat, value, client_id, at)"
            " VALUES (?, ?, 'bid', ?, '9', NULL, 0)",
            (body["table"], version + 1, seat),
        )
    second = LiveServer(db, bot_delay=0.05)
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(second.url + body["url"])
        banner = page.locator("#damaged")
        expect(banner).to_be_visible()
        expect(page.locator("#damaged-reason")).to_contain_text("may not bid 9")
        expect(page.locator("#bids button")).to_have_count(4)  # the bids it would have had
        expect(page.locator("#bids button.playable")).to_have_count(0)
        expect(page.locator("#status")).to_contain_text("damaged")
        expect(page.locator("#hand button.card.playable")).to_have_count(0)
        shot(page, "08-damaged-table")
        assert second.table(body["table"]).version == version
    finally:
        context.close()
        second.stop()


def test_each_opponent_shows_its_cards_left_face_down_and_the_leader_is_marked(
    live: LiveServer, page: Page
) -> None:
    # This page's seat deals, so seat 1 leads and this seat plays last to the first trick.
    body = live.create(seats=["human", "random", "random", "random"], schedule=[3], first_dealer="chosen")
    page.goto(live.url + body["url"])
    page.locator("#bids button.playable").first.click()
    expect(page.locator("#trick .card")).to_have_count(3)
    game = live.game(body["table"])
    assert game.leader == 1
    assert len(game.trick) == 3
    for seat in (1, 2, 3):
        backs = page.locator(f"#seats .seat[data-seat='{seat}'] .backs")
        expect(backs).to_have_attribute("data-count", "2")  # three cards dealt, one on the table
        expect(backs.locator(".back")).to_have_count(2)
    expect(page.locator("#seats .seat[data-seat='0'] .backs")).to_have_count(0)  # this hand is face up
    expect(page.locator("#seats .seat .badge.leader")).to_have_count(1)
    expect(page.locator("#seats .seat[data-seat='1'] .badge.leader")).to_be_visible()
    expect(page.locator("#trick .card.led")).to_have_attribute("data-card", str(game.trick[0][1]))
    shot(page, "09-backs-and-leader")


def test_tapping_a_card_or_bid_that_is_not_allowed_on_a_phone_shows_why(
    live: LiveServer, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        for _attempt in range(20):
            # This seat deals, so it bids last, under the hook: with few bids before it one is forbidden.
            body = live.create(
                seats=["human", "random", "random"], schedule=[2], dealer_bid="hook", first_dealer="chosen"
            )
            page.goto(live.url + body["url"])
            expect(page.locator("#bids button.playable").first).to_be_visible()
            game = live.game(body["table"])
            if sum(bid or 0 for bid in game.bids) <= game.hand_size:
                break
        else:
            pytest.fail("the bots never left the dealer a forbidden bid")
        notice = page.locator("#notice")
        expect(notice).to_be_hidden()
        card = page.locator("#hand button.card").first
        expect(card).to_have_attribute("aria-disabled", "true")  # no card is played during the bidding
        card.tap(force=True)  # aria-disabled: Playwright would wait, a finger does not
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Wait for the bids")
        forbidden = game.hand_size - sum(bid or 0 for bid in game.bids)
        page.locator(f"#bids button[data-bid='{forbidden}']").tap(force=True)
        expect(notice).to_contain_text("hook")
        box = notice.bounding_box()
        assert box is not None
        assert box["x"] >= 0  # the reason is on screen, not below the fold
        assert box["y"] >= 0
        assert box["x"] + box["width"] <= 390
        assert box["y"] + box["height"] <= 844
        assert live.game(body["table"]).bids[0] is None
        shot(page, "10-phone-tap-shows-why")
    finally:
        context.close()


def test_the_rules_in_play_are_one_tap_away_in_words_and_the_bids_are_counted_against_the_tricks(
    live: LiveServer, page: Page
) -> None:
    # This seat deals, so the three bots bid before it: the tally has their bids when it is its turn.
    body = live.create(
        seats=["human", "basic", "basic", "basic"], preset="classic-hook", first_dealer="chosen"
    )
    page.goto(live.url + body["url"])
    game = live.game(body["table"])
    wait_until(lambda: game.awaiting == (0,), "the bots never bid")
    expect(page.locator("#bids button.playable").first).to_be_visible()
    total = sum(bid or 0 for bid in game.bids)
    verdict = "under" if total < game.hand_size else "over" if total > game.hand_size else "even"
    expect(page.locator("#bid-total")).to_have_text(f"Bids {total} of {game.hand_size} — {verdict}")
    panel = page.locator("#rules-panel")
    expect(panel).to_be_hidden()
    page.click("#rules-button")
    expect(panel).to_be_visible()
    expect(page.locator("#rules-preset")).to_have_text(
        "The “Classic, screw the dealer” preset, with its own first dealer."
    )
    sizes = ", ".join(str(size) for size in game.rules.hand_sizes)
    for words in (
        f"{len(game.rules.hand_sizes)} rounds, up from 1 and back down: {sizes} cards",
        "The first dealer was chosen at the table",  # an option given over the preset is the one in play
        "Dealer may not make the bids total the tricks (the hook)",
        "Trump may not be led until broken",
        "Exact bid: 10 + bid; otherwise 0",
    ):
        expect(page.locator("#rules-list li", has_text=words)).to_have_count(1)
    shot(page, "11-rules-panel")
    page.click("#rules-close")
    expect(panel).to_be_hidden()


def test_under_closed_fists_the_page_shows_who_has_bid_but_not_the_bid(live: LiveServer, page: Page) -> None:
    body = live.create(seats=["human", "basic", "basic", "basic"], preset="closed-fists", schedule=[3])
    page.goto(live.url + body["url"])
    game = live.game(body["table"])
    wait_until(lambda: game.awaiting == (0,), "the bots never bid")
    hidden = [
        bid for seat, bid in enumerate(game.bids) if seat
    ]  # the bots' bids, which this page may not see
    assert None not in hidden
    expect(page.locator("#bid-total")).to_contain_text("3 of 4 have bid")
    for seat in (1, 2, 3):
        label = page.locator(f"#seats .seat[data-seat='{seat}']")
        expect(label.locator(".has-bid")).to_have_text("bid ✓")
        assert "has bid (hidden)" in str(label.get_attribute("aria-label"))
    expect(page.locator("#seats .seat[data-seat='0'] .has-bid")).to_have_count(0)  # this seat has not bid
    shot(page, "12-closed-fists")
    page.locator("#bids button.playable").first.click()
    # All four are in: the bids are shown together, each seat's own.
    for seat in (1, 2, 3):
        expect(page.locator(f"#seats .seat[data-seat='{seat}'] .nums span").first).to_have_text(
            f"bid {game.bids[seat]}"
        )


# Records, in the page, when the trick on the felt became whole and when it was gathered, and the
# round and trump the header showed while it was whole.
WATCH_TRICK = """(seats) => {
  window.held = {};
  const trick = document.getElementById("trick");
  const info = document.getElementById("round-info");
  new MutationObserver(() => {
    const count = trick.children.length;
    if (count === seats && window.held.whole === undefined) {
      const turned = document.querySelector("#turned .card");
      window.held = {
        whole: performance.now(), round: info.dataset.round, trump: info.dataset.trump,
        turned: turned && turned.dataset.card,
      };
    } else if (count < seats && window.held.whole !== undefined && window.held.gathered === undefined) {
      window.held.gathered = performance.now();
    }
  }).observe(trick, { childList: true });
}"""


def test_a_finished_trick_stays_for_the_tables_pause_under_its_own_rounds_trump(
    tmp_path: Path, browser: Browser
) -> None:
    paced = LiveServer(tmp_path / "paced.db", bot_delay=0.4)  # a normal pace: a finished trick stays 0.6 s
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        # This seat deals a one-card round, so its card finishes the round's only trick.
        body = paced.create(
            seats=["human", "random", "random", "random"], schedule=[1, 1], first_dealer="chosen"
        )
        page = context.new_page()
        page.goto(paced.url + body["url"])
        page.locator("#bids button.playable").first.click()
        expect(page.locator("#hand button.card.playable")).to_have_count(1)
        game = paced.game(body["table"])
        first_trump = game.trump
        assert first_trump is not None
        first_turned = game.turned
        page.evaluate(WATCH_TRICK, 4)
        page.locator("#hand button.card.playable").click()
        page.wait_for_function("() => window.held.gathered !== undefined")
        held = page.evaluate("() => window.held")
        pause = paced.table(body["table"]).pace.trick_pause * 1000
        assert game.round_number == 2  # the next round was dealt while the trick was still up
        assert held["round"] == "1"
        assert held["trump"] == first_trump.value
        assert held["turned"] == str(first_turned)  # the felt's trump card too, not the next round's
        assert pause * 0.8 <= held["gathered"] - held["whole"] <= pause + 400  # not the page's own 1.2 s
        expect(page.locator("#round-info")).to_have_attribute("data-round", "2")
        second_trump = game.trump
        assert second_trump is not None
        expect(page.locator("#round-info")).to_have_attribute("data-trump", second_trump.value)
        expect(page.locator("#round-info")).to_contain_text(
            f"trump {second_trump.symbol} {second_trump.name.lower()}"
        )
    finally:
        context.close()
        paced.stop()


COUNT_SOCKET_CLOSES = """(() => {
  const Native = window.WebSocket;
  window.socketCloses = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("close", () => { window.socketCloses += 1; });
    }
  };
})()"""
"""A page script counting the WebSockets that closed (``window.socketCloses``): each failed
reconnection is one, so a test waits for one instead of waiting a while."""


def test_a_lost_connection_is_said_over_the_table_moves_are_off_and_the_page_catches_up_on_reconnecting(
    tmp_path: Path, browser: Browser
) -> None:
    db = tmp_path / "restart.db"
    first = LiveServer(db, bot_delay=0.05)
    away = browser.new_context(viewport={"width": 1280, "height": 800})
    other = browser.new_context()  # the same seat in another browser, which stays online
    second = None
    try:
        for context in (away, other):
            context.set_default_timeout(TIMEOUT_MS)
        away.add_init_script(COUNT_SOCKET_CLOSES)
        body = first.create(seats=["human", "random", "random"], schedule=[2], first_dealer="chosen")
        page = away.new_page()
        page.goto(first.url + body["url"])
        banner = page.locator("#offline")
        expect(page.locator("#bids button.playable").first).to_be_visible()
        expect(banner).to_be_hidden()
        version = first.table(body["table"]).version
        first.stop()  # the server goes away, closing the page's socket
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Connection lost — reconnecting…")
        expect(page.locator("#bids button.playable")).to_have_count(0)
        expect(page.locator("#bids button[aria-disabled='true']")).to_have_count(3)
        expect(page.locator("#status")).to_contain_text("Connection lost")
        page.locator("#bids button[data-bid='0']").click(force=True)
        expect(page.locator("#notice")).to_contain_text("Not connected: nothing was sent")
        shot(page, "13-connection-lost")
        away.set_offline(True)  # this page stays away while the game moves on without it
        second = LiveServer(db, bot_delay=0.05, port=first.port)  # back, from the stored table
        assert second.table(body["table"]).version == version  # the click while away was not sent
        elsewhere = other.new_page()
        elsewhere.goto(second.url + body["url"])
        elsewhere.locator("#bids button.playable").first.click()
        wait_until(lambda: second.game(body["table"]).bids[0] is not None, "the other tab's bid never landed")
        bid = second.game(body["table"]).bids[0]
        closes = page.evaluate("window.socketCloses")
        page.wait_for_function(f"() => window.socketCloses > {closes}")  # a reconnection failed, offline
        expect(banner).to_be_visible()
        away.set_offline(False)  # back online: the page reconnects and draws the fresh state
        expect(banner).to_be_hidden()
        expect(page.locator("#connection")).to_have_text("connected")
        expect(page.locator("#bidding")).to_be_hidden()
        expect(page.locator("#seats .seat[data-seat='0'] .nums span").first).to_have_text(f"bid {bid}")
        expect(
            page.locator("#hand button.card.playable").or_(page.locator("#trick .card")).first
        ).to_be_visible()
    finally:
        away.close()
        other.close()
        if second is not None:
            second.stop()


def inside(page: Page, selector: str) -> None:
    """The element is wholly on screen: seen without scrolling (to within half a pixel, as fractional
    layout sizes are drawn)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["x"] >= -0.5, box
    assert box["y"] >= -0.5, box
    assert box["x"] + box["width"] <= size["width"] + 0.5, (box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (box, size)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_round_summary_comes_over_the_table_and_the_end_names_the_winners_on_a_podium(
    live: LiveServer, browser: Browser, device: str
) -> None:
    viewport: ViewportSize = (
        {"width": 1280, "height": 800} if device == "desktop" else {"width": 390, "height": 844}
    )
    context = browser.new_context(viewport=viewport, is_mobile=device == "phone", has_touch=device == "phone")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        body = live.create(seats=["human", "random", "random", "random"], schedule=[1, 2])
        table_id = body["table"]
        page.goto(live.url + body["url"])
        summary = page.locator("#summary")
        while live.game(table_id).round_number == 1:
            assert play_one_move(page, live, table_id)
        # Round 1 is over: its summary is over the table, each seat's bid, tricks and points (on a
        # phone, while this seat must bid, in the page under the hand: scrolled to, it is whole).
        expect(summary).to_be_visible()
        if summary.evaluate("(el) => getComputedStyle(el).position") != "fixed":
            assert device == "phone"
            summary.evaluate("(el) => el.scrollIntoView({block: 'end'})")
        inside(page, "#summary")
        first = live.game(table_id).view(None).history[0]
        for seat in range(4):
            row = page.locator(f"#summary-rows tr[data-seat='{seat}'] td")
            exact = first.bids[seat] == first.tricks_won[seat]
            expect(row.nth(0)).to_have_text(str(first.bids[seat]))
            expect(row.nth(1)).to_have_text(str(first.tricks_won[seat]))
            expect(row.nth(2)).to_contain_text("made ✓" if exact else "missed ✗")
            expect(row.nth(2)).to_contain_text(str(first.scores[seat]))
        shot(page, f"14-round-summary-{device}")
        page.click("#summary-close")  # the player closes it
        expect(summary).to_be_hidden()
        while play_one_move(page, live, table_id):
            pass
        final = page.locator("#final")
        expect(final).to_be_visible()
        expect(summary).to_be_hidden()
        inside(page, "#final")
        standings = live.game(table_id).standings()
        winners = [live.game(table_id).players[seat] for place, seat, _total in standings if place == 1]
        for winner in winners:
            expect(page.locator("#winners")).to_contain_text(winner)
            expect(page.locator("#podium .place-1 .names")).to_contain_text(winner)
        expect(page.locator("#winners")).to_contain_text("share the win" if len(winners) > 1 else "wins")
        places = sorted({place for place, _seat, _total in standings if place <= 3})
        expect(page.locator("#podium .step")).to_have_count(len(places))
        expect(page.locator("#standings li")).to_have_count(4)
        shot(page, f"15-final-podium-{device}")
    finally:
        context.close()
