"""A game night in Chromium: two or three people in separate browsers at one table against a live
server. A closed page shows its seat away to the others; a turn clock counts down and a bot moves
for the person who is gone, marked automatic; a person leaves and comes back; an away seat is given
to a bot; the chat shows hostile text as text, with reactions and mute; a claim shows the claimer's
hand; hints; a join whose answer is lost is recovered by the page; two server processes over
PostgreSQL. Screenshots (desktop and phone) go to ``artifacts/screenshots/night-*.png``."""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.browsing import (
    LiveServer,
    Shifted,
    label,
    person,
    play_one_move,
    play_until,
    shot,
    sit_down,
)
from tests.live import Server
from tests.waiting import in_page, wait_until
from upriver.actions import Phase


@pytest.fixture(scope="module")
def live(night: LiveServer) -> LiveServer:
    """The module's server: the night's (``tests/conftest.py``), whose clock a test moves on."""
    return night


@pytest.fixture(autouse=True)
def back_to_now(shifted: Shifted) -> Iterator[None]:
    yield
    shifted.offset = 0.0


def test_a_joined_page_confirms_its_new_link_and_the_invite_then_opens_nothing(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[2])
    table = live.table(body["table"])
    invite = table.tokens[1]
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        wait_until(lambda: not table.joined_pending(1), "the joined page never confirmed its link")
        # The page keeps its own link (this browser's list and its address) and the invite is spent.
        assert table.tokens[1] != invite
        assert f"#token={table.tokens[1]}" in guest.url
        stale_context, stale = person(browser, "phone")
        stale.goto(f"{live.url}/t/{table.id}#token={invite}")
        expect(stale.locator("#connection")).to_contain_text("disconnected")
        expect(stale.locator("#chat")).to_be_hidden()
        stale_context.close()
        guest.reload()
        expect(guest.locator("#hand button.card")).to_have_count(2)
    finally:
        host_context.close()
        guest_context.close()


def test_a_closed_page_shows_its_seat_away_to_the_others_and_the_spectators_within_two_seconds(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3])
    host_context, host = person(browser)
    guest_context, _guest = sit_down(browser, live, body, 1, "Bea")
    watcher_context, watcher = person(browser, "phone")
    try:
        host.goto(live.url + body["url"])
        watcher.goto(f"{live.url}/t/{body['table']}")
        for page in (host, watcher):
            expect(label(page, 1).locator(".presence")).to_have_attribute("data-status", "online")
        expect(host.locator("#watching")).to_have_text("👁 1 watching")
        expect(label(host, 0).locator(".presence")).to_have_count(0)  # the page itself says this seat is here
        guest_context.close()  # the socket closes with the page, as when a phone's browser is killed
        for page in (host, watcher):
            expect(label(page, 1).locator(".presence")).to_have_attribute("data-status", "away")
        expect(label(host, 1).locator(".presence")).to_contain_text("away")
        assert "away" in str(label(watcher, 1).get_attribute("aria-label"))
        shot(host, "night-away-desktop")
        shot(watcher, "night-away-spectator-phone")
    finally:
        host_context.close()
        watcher_context.close()


def test_a_ten_second_clock_runs_out_and_a_bot_moves_for_the_idle_person_marked_automatic(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3, 3], clock=10)
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        game = live.game(table_id)
        play_until(host, live, table_id, 0, lambda: 1 in game.awaiting, "Bea's turn never came")
        clock = label(host, 1).locator(".clock")
        expect(clock).to_be_visible()
        assert re.fullmatch(r"⏱\s*0:(10|0\d)", clock.inner_text())
        expect(clock).to_have_class("clock urgent")  # the last 10 s: the whole clock here
        expect(label(guest, 1).locator(".clock")).to_be_visible()
        expect(guest.locator("#clock-announce")).to_contain_text("seconds left before a bot moves for you")
        shot(host, "night-clock-desktop")
        shot(guest, "night-clock-phone")
        # The clock runs out: a bot bids or plays for Bea, and both pages mark it.
        marks = "#seats .auto-mark, #trick .auto-mark, #last-trick .auto-mark"
        expect(host.locator(marks).first).to_be_attached(timeout=15_000)
        assert host.locator(marks).first.get_attribute("aria-label") in {
            "bid made automatically",
            "played automatically",
        }
        expect(guest.locator("#seat-tools .standin-news")).to_have_text(
            "Your time ran out: a bot moved for you."
        )
        shot(host, "night-automatic-desktop")
        shot(guest, "night-automatic-phone")
        # Twice in a row: a bot plays her seat until she says she is back.
        play_until(host, live, table_id, 0, lambda: table.standin_status(1) == "bot", "no stand-in")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "bot")
        expect(guest.locator("#seat-tools .standin-news")).to_have_text("A bot is playing for you.")
        shot(guest, "night-im-back-phone")
        guest.click("#seat-tools button.im-back")
        wait_until(lambda: table.standin_status(1) is None, "Bea never took her seat back")
        expect(guest.locator("#seat-tools button.im-back")).to_have_count(0)
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
    finally:
        host_context.close()
        guest_context.close()


def test_a_person_away_a_whole_clock_gets_a_stand_in_and_takes_the_seat_back_with_their_link(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3, 3], clock=10)
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        wait_until(lambda: not table.joined_pending(1), "the join was never confirmed")
        link = guest.url
        guest_context.close()
        game = live.game(table_id)
        play_until(host, live, table_id, 0, lambda: table.standin_status(1) == "bot", "no stand-in")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "bot")
        shot(host, "night-stand-in-desktop")
        back_context, back = person(browser, "phone")
        back.goto(link)
        expect(back.locator("#seat-tools .standin-news")).to_have_text("A bot is playing for you.")
        back.click("#seat-tools button.im-back")
        wait_until(lambda: table.standin_status(1) is None, "Bea never took her seat back")
        expect(back.locator("#seat-tools button.im-back")).to_have_count(0)
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
        assert not game.is_over
        back_context.close()
    finally:
        host_context.close()


def test_a_person_leaves_after_saying_yes_and_comes_back_with_im_back(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3, 3])
    table = live.table(body["table"])
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        guest.click("#seat-tools button.leave")
        expect(guest.locator("#confirm")).to_be_visible()
        expect(guest.locator("#confirm-text")).to_contain_text("A bot (Normal) plays your seat")
        shot(guest, "night-leave-ask-phone")
        guest.click("#confirm-no")  # not yet: nothing changes
        assert table.standin_status(1) is None
        guest.click("#seat-tools button.leave")
        guest.click("#confirm-yes")
        wait_until(lambda: table.standin_status(1) == "left", "the seat was never left")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "left")
        expect(host.locator("#chat-log .chat-line.system")).to_contain_text(
            "Bea left the table; a bot plays for them."
        )
        expect(guest.locator("#seat-tools .standin-news")).to_have_text(
            "You left the table: a bot is playing for you."
        )
        # While the bot plays her seat, her cards are not hers to play: a tap says how to get them back.
        expect(guest.locator("#hand button.card.playable")).to_have_count(0)
        guest.locator("#hand button.card").first.click(force=True)  # aria-disabled: tapped all the same
        expect(guest.locator("#notice")).to_have_text(
            "A bot is playing for you: press “I'm back” to play again."
        )
        shot(host, "night-left-desktop")
        shot(guest, "night-left-phone")
        guest.click("#seat-tools button.im-back")
        wait_until(lambda: table.standin_status(1) is None, "Bea never came back")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
        expect(host.locator("#chat-log .chat-line.system").last).to_contain_text("Bea is back.")
    finally:
        host_context.close()
        guest_context.close()


def test_an_away_seat_is_given_to_a_bot_by_another_person_once_the_server_allows_it(
    live: LiveServer, browser: Browser, shifted: Shifted
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3, 3])
    table_id = body["table"]
    table = live.table(table_id)
    host_context, host = person(browser)
    guest_context, _guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        guest_context.close()
        game = live.game(table_id)
        play_until(host, live, table_id, 0, lambda: 1 in game.awaiting, "Bea's turn never came")
        give = host.locator("#seat-tools button.handover[data-seat='1']")
        # Away at her turn, at a table without a clock: offered only once the server would take it,
        # after two minutes of her turn (the state says when), never at once to be refused.
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "away")
        live.state(table_id)  # a spectator comes and goes: the page draws a state sent now
        host.wait_for_function(f"() => Number(document.body.dataset.v) >= {live.table(table_id).version}")
        expect(give).to_have_count(0)
        shifted.offset = 130.0  # her turn has lasted two minutes
        live.state(table_id)  # a spectator comes and goes: each page gets a state sent now
        expect(give).to_have_text("Give Bea's seat to a bot")
        # Had the server's clock disagreed, its refusal says why in words and how long to wait...
        shifted.offset = 0.0
        give.click()
        host.click("#confirm-yes")
        expect(host.locator("#error")).to_have_text(
            re.compile(r"^Bea has been away \d+ s: the seat can go to a bot in \d+ s\.$")
        )
        assert table.standin_reason(1) is None
        shot(host, "night-handover-refused-desktop")
        # ... and the refusal goes once it no longer holds.
        shifted.offset = 130.0
        live.state(table_id)
        expect(host.locator("#error")).to_be_empty()
        give.click()
        host.click("#confirm-yes")
        wait_until(lambda: table.standin_status(1) == "bot", "the seat was never given to a bot")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "bot")
        expect(host.locator("#chat-log .chat-line.system").last).to_contain_text(
            "Ann gave Bea's seat to a bot."
        )
        expect(give).to_have_count(0)
        shot(host, "night-handover-desktop")
    finally:
        host_context.close()


def test_the_chat_shows_hostile_text_as_text_refuses_past_its_limits_and_mutes_per_viewer(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3])
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    watcher_context, watcher = person(browser, "phone")
    try:
        host.goto(live.url + body["url"])
        watcher.goto(f"{live.url}/t/{body['table']}")
        markup = '<img src=x onerror="window.pwned=1"><b>bold</b> &amp; text'
        host.fill("#chat-input", markup)
        host.click("#chat-form button[type=submit]")
        expect(guest.locator("#chat-toggle .unread")).to_have_text("1")
        guest.click("#chat-toggle")
        line = guest.locator("#chat-log .chat-line.text").last
        expect(line.locator(".chat-text")).to_have_text(markup)
        expect(line.locator(".chat-name")).to_have_text("Ann")
        assert guest.locator("#chat-log img, #chat-log b").count() == 0
        assert guest.evaluate("() => window.pwned") is None
        expect(watcher.locator("#chat-log .chat-line.text .chat-text")).to_have_text(markup)
        expect(watcher.locator("#chat-form")).to_be_hidden()  # this table keeps its chat to the players
        # A control or direction character is refused in words, and the line is given back.
        host.fill("#chat-input", "evil \u202e text")
        host.click("#chat-form button[type=submit]")
        expect(host.locator("#chat-error")).to_have_text(
            "A line may not hold control or text-direction characters."
        )
        expect(host.locator("#chat-input")).to_have_value("evil \u202e text")
        # 200 characters at most: a longer paste is kept whole, counted, and refused in words.
        host.fill("#chat-input", "x" * 10_000)
        expect(host.locator("#chat-count")).to_have_text("10000/200")
        host.click("#chat-form button[type=submit]")
        expect(host.locator("#chat-error")).to_have_text("A line has at most 200 characters.")
        assert host.input_value("#chat-input") == "x" * 10_000
        host.fill("#chat-input", "")
        # A reaction shows on the sender's seat for a few seconds, in the viewer's words.
        guest.click(".reactions button[data-reaction='well-played']")
        bubble = label(host, 1).locator(".reaction")
        expect(bubble).to_have_text("Well played")
        shot(host, "night-chat-desktop")
        shot(guest, "night-chat-phone")
        expect(bubble).to_have_count(0, timeout=5000)
        # Muted: Ann's lines and reactions are gone from Bea's page only.
        guest.locator("#chat .chat-mute summary").click()
        guest.check("#chat-mute-list input[data-mute='0']")
        expect(guest.locator("#chat-log .chat-line.text[data-seat='0']")).to_have_count(0)
        host.fill("#chat-input", "still there?")
        host.click("#chat-form button[type=submit]")
        host.click(".reactions button[data-reaction='oops']")
        expect(watcher.locator("#chat-log .chat-line.text").last).to_contain_text("still there?")
        expect(label(watcher, 0).locator(".reaction")).to_have_text("Oops")
        expect(label(guest, 0).locator(".reaction")).to_have_count(0)
        expect(guest.locator("#chat-log .chat-line.text[data-seat='0']")).to_have_count(0)
        guest.reload()  # muted in this browser, kept across a reload
        expect(guest.locator("#chat-log .chat-line.text")).to_have_count(0)
        expect(guest.locator("#chat-log .chat-empty")).to_be_attached()
        # On a phone the chat is a sheet over the table: its button opens it, Escape closes it.
        guest.click("#chat-toggle")
        expect(guest.locator("#chat")).to_be_visible()
        expect(guest.locator("#chat-toggle")).to_have_attribute("aria-expanded", "true")
        guest.keyboard.press("Escape")
        expect(guest.locator("#chat")).to_be_hidden()
        expect(guest.locator("#chat-toggle")).to_be_focused()
        # A flood is refused past the rate limit, said under the input, and the line is given back.
        for n in range(8):
            host.fill("#chat-input", f"line {n}")
            host.click("#chat-form button[type=submit]")
        expect(host.locator("#chat-error")).to_contain_text("wait a moment")
        expect(host.locator("#chat-input")).to_have_value(re.compile(r"line \d"))
        shot(host, "night-chat-flood-desktop")
    finally:
        host_context.close()
        guest_context.close()
        watcher_context.close()


def test_a_claim_accepted_shows_the_claimers_hand_to_everyone(
    live: LiveServer, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One card each, and the seed deals Ann the ace of trumps: she can see that she takes the trick.
    monkeypatch.setattr(secrets, "randbits", lambda bits: 11)
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[1, 2])
    table_id = body["table"]
    host_context, host = person(browser)
    guest_context, guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        game = live.game(table_id)
        held = [str(card) for card in game.hand(0)]

        def claimable() -> bool:
            """Bid for the two people while the bidding lasts; whether seat 0 may claim now."""
            if game.phase is Phase.PLAYING and game.round_number == 1 and game.can_claim(0):
                return True
            for seat, page in ((0, host), (1, guest)):
                if seat in game.awaiting and game.phase is Phase.BIDDING:
                    play_one_move(page, live, table_id, seat=seat)
            return False

        wait_until(claimable, "the claim to hold", timeout=30)
        claim = host.locator("#seat-tools button.claim")
        expect(claim).to_have_text("Claim the rest")
        claim.click()
        expect(host.locator("#confirm-text")).to_contain_text("Your cards are shown to everyone")
        host.click("#confirm-yes")
        symbol = (
            held[0].replace("T", "10").replace("H", "♥").replace("D", "♦").replace("C", "♣").replace("S", "♠")
        )
        for page in (host, guest):
            news = page.locator("#claim-news")
            expect(news).to_contain_text(f"Ann claims the rest: {symbol}")
        shot(host, "night-claim-desktop")
        shot(guest, "night-claim-phone")
    finally:
        host_context.close()
        guest_context.close()


def test_a_hint_shows_the_experts_choice_and_each_choices_expected_points(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "basic", "basic", "basic"], schedule=[2], hints=True)
    for kind in ("desktop", "phone"):
        context, page = person(browser, kind)
        try:
            page.goto(live.url + body["url"])
            expect(page.locator("#bids button.playable").first).to_be_visible()
            page.click("#seat-tools button.hint-button")
            box = page.locator("#hint-box")
            expect(box).to_contain_text("The expert would bid")
            expect(page.locator("#bids .bid.hinted")).to_have_count(1)
            points = page.locator("#bids .bid[data-points]")
            expect(points).to_have_count(page.locator("#bids .bid.legal").count())
            shot(page, f"night-hint-{kind}")
        finally:
            context.close()


def test_a_spectator_writes_under_a_name_only_where_the_table_lets_spectators_chat(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "basic", "basic", "basic"], schedule=[2], spectator_chat=True)
    host_context, host = person(browser)
    watcher_context, watcher = person(browser, "phone")
    try:
        host.goto(live.url + body["url"])
        watcher.goto(f"{live.url}/t/{body['table']}")
        watcher.click("#chat-toggle")
        expect(watcher.locator("#chat-name")).to_be_visible()
        expect(
            watcher.locator(".reactions")
        ).to_be_hidden()  # a reaction shows on a seat: a spectator has none
        watcher.fill("#chat-name", "Ann")  # a seated player's name is refused, in words
        watcher.fill("#chat-input", "hello from the rail")
        watcher.click("#chat-form button[type=submit]")
        expect(watcher.locator("#chat-error")).not_to_be_empty()
        expect(watcher.locator("#chat-input")).to_have_value("hello from the rail")
        watcher.fill("#chat-name", "Zoe")
        watcher.click("#chat-form button[type=submit]")
        line = host.locator("#chat-log .chat-line.text").last
        expect(line.locator(".chat-name")).to_have_text("Zoe (watching)")
        expect(line.locator(".chat-text")).to_have_text("hello from the rail")
        shot(watcher, "night-spectator-chat-phone")
        # Muting the spectators hides their lines for this viewer only.
        host.locator("#chat .chat-mute summary").click()
        host.check("#chat-mute-list input[data-mute='spectators']")
        expect(host.locator("#chat-log .chat-line.text")).to_have_count(0)
        expect(watcher.locator("#chat-log .chat-line.text")).to_have_count(1)
    finally:
        host_context.close()
        watcher_context.close()


def test_a_join_whose_answer_is_lost_is_recovered_by_the_page_with_its_invite(
    live: LiveServer, browser: Browser
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[2])
    table = live.table(body["table"])
    invite = table.tokens[1]
    context, page = person(browser, "phone")
    opened: list[WebSocketRoute] = []

    def cut_after_the_join(ws: WebSocketRoute) -> None:
        """The first connection's join reaches the server, but nothing comes back: the line drops."""
        server = ws.connect_to_server()
        opened.append(ws)
        if len(opened) > 1:
            return  # later connections pass through as they are
        lost: list[bool] = []

        def from_page(message: str | bytes) -> None:
            server.send(message)
            if '"join"' in str(message):
                lost.append(True)
                ws.close()
                server.close()

        ws.on_message(from_page)
        server.on_message(lambda message: None if lost else ws.send(message))

    try:
        page.route_web_socket("**/ws/**", cut_after_the_join)
        page.goto(f"{live.url}/t/{table.id}#token={invite}")
        page.fill("#join-name", "Bea")
        page.click("#join-button")
        # The join was stored; the page reconnects with the invite it still holds, is given its new
        # link, keeps it and confirms: the invite is then spent.
        # (The routes run while Playwright is called: wait in the page, not in a sleep.)
        wait_until(
            lambda: table.names[1] == "Bea" and not table.joined_pending(1),
            "the page to confirm its new link",
            pause=in_page(page),
        )
        assert len(opened) >= 2
        token = table.tokens[1]
        assert token is not None
        assert token != invite
        expect(page.locator("#hand button.card")).to_have_count(2)
        assert page.url.endswith(f"#token={token}")
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('upriver.tables'))")
        assert kept[0]["table"] == table.id
        assert kept[0]["token"] == token
        shot(page, "night-lost-join-recovered-phone")
    finally:
        context.close()


def test_over_postgresql_two_server_processes_show_presence_chat_and_the_clock_to_each_others_pages(
    database: str, stack: contextlib.ExitStack, browser: Browser
) -> None:
    # Ann's page is served by one process, Bea's by another, over one database.
    one = Server(database, stack, bot_delay=0.02)
    other = Server(database, stack, bot_delay=0.02)
    body = one.create(["human", "human", "basic", "basic"], schedule=[2, 2], clock=10)
    table_id = body["table"]
    summary = httpx.get(f"{one.url}/api/tables/{table_id}", params={"token": body["token"]}).json()
    invite = next(found["url"] for found in summary["invites"] if found["seat"] == 1)
    host_context, host = person(browser)
    guest_context, guest = person(browser, "phone")
    try:
        host.goto(one.url + body["url"])
        guest.goto(other.url + invite)
        guest.fill("#join-name", "Bea")
        guest.click("#join-button")
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "online")
        host.fill("#chat-input", "across the processes")
        host.click("#chat-form button[type=submit]")
        guest.click("#chat-toggle")
        expect(guest.locator("#chat-log .chat-line.text .chat-text")).to_have_text("across the processes")
        guest.click("#chat-close")
        # A clock runs for whoever's turn it is, seen from both processes' pages.
        expect(host.locator("#seats .clock").first).to_be_visible()
        expect(guest.locator("#seats .clock").first).to_be_visible()
        guest_context.close()
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "away")
        # Bea's clock runs out in the other process's absence: a bot plays her seat, marked on Ann's page.
        expect(label(host, 1).locator(".presence")).to_have_attribute("data-status", "bot", timeout=30_000)
        shot(host, "night-two-processes-desktop")
    finally:
        host_context.close()


# This browser's clock two minutes ahead: the page counts an away person's time from its own clock.
TWO_MINUTES_ON = "(() => { const now = Date.now.bind(Date); Date.now = () => now() + 125000; })()"


def test_an_away_label_says_for_how_long_and_a_minute_away_offers_the_seat_to_a_bot(
    live: LiveServer, browser: Browser, shifted: Shifted
) -> None:
    body = live.create(seats=["human", "human", "basic", "basic"], schedule=[3, 3])
    table = live.table(body["table"])
    host_context, host = person(browser, "phone")
    host_context.add_init_script(TWO_MINUTES_ON)
    guest_context, _guest = sit_down(browser, live, body, 1, "Bea")
    try:
        host.goto(live.url + body["url"])
        guest_context.close()
        expect(label(host, 1).locator(".presence")).to_have_text("◌away 2 min")
        # Away more than a minute by this page's clock, but the server's rule is the one rule.
        give = host.locator("#seat-tools button.handover[data-seat='1']")
        expect(give).to_have_count(0)  # not by the server's clock yet, which decides
        shifted.offset = 125.0  # and by the server's
        live.state(body["table"])  # a spectator comes and goes: the page gets a state sent now
        expect(give).to_be_visible()
        shot(host, "night-away-two-minutes-phone")
        give.click()
        host.click("#confirm-yes")
        wait_until(lambda: table.standin_status(1) == "bot", "the seat was never given to a bot")
        expect(label(host, 1).locator(".presence")).to_have_text("🤖bot plays")
    finally:
        host_context.close()
