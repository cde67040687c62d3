"""The Review panel at the table, in real Chromium: after a short game against bots, a deliberately bad
bid shows up flagged, and the panel steps through the decisions. Screenshots (desktop 1280×800 and
phone 390×844) go to ``artifacts/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browsing import TIMEOUT_MS, VIEWPORTS, ReviewServer, play_one_move
from tests.live import SHOTS
from tests.waiting import wait_until
from upriver.game import Game
from upriver.review import evaluate


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReviewServer]:
    server = ReviewServer(tmp_path_factory.mktemp("review") / "tables.db")
    yield server
    server.stop()


def shot(page: Page, name: str) -> None:
    """What the screen shows (the panel is fixed over the table: a full-page shot would mislead)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def worst_bid(game: Game) -> tuple[int, float]:
    """The bid the expert rates lowest for seat 0 now (the deliberately bad play), and its cost."""
    evaluation = evaluate(game.view(0), deals=200, seed=0)
    worst = max(evaluation.candidates, key=lambda c: c.loss)
    assert isinstance(worst.choice, int)
    return worst.choice, worst.loss


def play_a_short_game_badly(page: Page, live: ReviewServer) -> str:
    """Seat 0 against three bots on a 2-card then 1-card schedule, bidding the worst bid in round 1
    (on the first of a few deals where that bid is clearly bad: 4 expected points or more)."""
    for _ in range(10):
        body = live.create(
            seats=["human", "basic", "basic", "basic"], preset="classic", schedule=[2, 1], pace="fast"
        )
        page.goto(live.url + body["url"])
        table_id: str = body["table"]
        expect(page.locator("#bids button.playable").first).to_be_visible()
        game = live.game(table_id)
        bad, cost = worst_bid(game)
        if cost >= 4:
            break
    else:
        raise AssertionError("ten deals in a row had no clearly bad bid")
    page.click(f'#bids button[data-bid="{bad}"]')
    wait_until(lambda: game.bids[0] is not None, "the server to receive the bid")
    return table_id


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_review_panel_steps_through_a_round_and_flags_the_bad_bid(
    browser: Browser, live: ReviewServer, device: str
) -> None:
    context = browser.new_context(**VIEWPORTS[device])
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems: list[str] = []  # the console stays quiet: no error, no warning, no page error
    page.on(
        "console",
        lambda message: (
            problems.append(f"{message.type}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    table_id = play_a_short_game_badly(page, live)
    game = live.game(table_id)
    for _ in range(2):  # Ann's two cards of round 1 (and not, by a race, her bid of round 2)
        assert play_one_move(page, live, table_id)
    wait_until(lambda: len(game.results) >= 1, "the bots to finish round 1's last trick")
    # The round's summary offers its review.
    button = page.locator("#review-summary-button")
    expect(button).to_be_visible()
    button.click()
    panel = page.locator("#review-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".review-dot")).to_have_count(3)  # the bid and two cards
    expect(panel.locator(".review-dot.flagged").first).to_be_visible()
    # The bad bid is step 1 and flagged, with the expert's better bid beside it.
    expect(panel.locator(".review-dot.current")).to_have_text("B")
    expect(panel.locator(".review-verdict.flagged")).to_be_visible()
    expect(panel.locator(".review-chosen")).to_have_text(f"You bid {game.results[0].bids[0]}")
    expect(panel.locator(".review-expert")).to_contain_text("Expert: bid")
    # Only the player's own cards are drawn in the hand.
    own = {str(card) for card in game.results[0].hands[0]}  # type: ignore[index]
    drawn = {str(c.get_attribute("data-card")) for c in panel.locator(".review-hand .card").all()}
    assert drawn == own
    shot(page, f"review-round-{device}")
    # Every legal bid with its expected points, the best first.
    panel.locator(".review-choices summary").click()
    expect(panel.locator(".review-choices li")).to_have_count(3)  # 0, 1 or 2 of two cards
    expect(panel.locator(".review-choices li").first).to_have_class("best")
    shot(page, f"review-choices-{device}")
    panel.locator(".review-next").click()
    expect(panel.locator(".review-dot.current")).to_have_text("1")  # trick 1
    expect(panel.locator(".review-chosen")).to_contain_text("You played")
    shot(page, f"review-card-{device}")
    panel.locator(".review-close").click()
    expect(panel).to_be_hidden()
    # To the end; the final standings offer the whole game's review.
    while play_one_move(page, live, table_id):
        pass
    final = page.locator("#review-final-button")
    expect(final).to_be_visible()
    final.click()
    expect(panel.locator(".review-game")).to_be_visible()
    expect(panel.locator(".review-chip")).to_have_count(2)
    expect(panel.locator(".review-mistakes li").first).to_be_visible()  # at least the bad bid
    expect(panel.locator(".review-chip").first).to_have_class(re.compile(r"\bflagged\b"))  # round 1's bid
    shot(page, f"review-game-{device}")
    assert problems == []
    # After the game the table shows the others' reviews too (its default): Bob's, in his name.
    panel.locator(".review-seat select").select_option("1")
    expect(panel.locator("#review-title")).to_contain_text(game.players[1])
    expect(panel.locator(".review-game-line")).to_contain_text(f"{game.players[1]} gave up")
    context.close()
