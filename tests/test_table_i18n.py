"""The table page and its join page in Chromium in each of the five languages: every word from the
page's catalogue (no English string left on a page in another language), card names and refusals
worded from the server's rule and facts, the language switch in the one-line phone header; a
screenshot per language and viewport in ``artifacts/screenshots/``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browsing import BLOCKING, LiveServer, ReviewServer, described, violations
from tests.live import SHOTS
from tests.pagetext import DESKTOP, PHONE, SCREENS, assert_no_english, open_page
from tests.waiting import wait_until
from upriver import IllegalActionError, Phase
from upriver.i18n import LANGUAGES, reason, translate
from upriver.web.play.protocol import refusal_json

BOT_DELAY = 0.02
"""How long the bots of this module's server (conftest's ``live``) wait before a move, in seconds."""


def fits(page: Page, viewport: ViewportSize) -> None:
    """Nothing makes the page wider than the screen, and the header is one line."""
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    bar = page.evaluate(
        """() => {
            const bar = document.querySelector('.bar');
            const shown = [...bar.children].filter((e) => e.offsetParent !== null);
            const boxes = shown.map((e) => e.getBoundingClientRect());
            return { height: bar.offsetHeight, right: Math.max(...boxes.map((r) => r.right)) };
        }"""
    )
    assert bar["height"] <= 64, bar
    assert bar["right"] <= viewport["width"], bar


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_join_page_speaks_the_browsers_language(browser: Browser, live: LiveServer, lang: str) -> None:
    body = live.create(seats=["human", "human", "easy", "basic"], preset="classic-hook")
    invite = live.table(body["table"]).tokens[1]
    for device in SCREENS:
        errors: list[str] = []
        page = open_page(browser, f"{live.url}/t/{body['table']}#token={invite}", lang, device, errors)
        expect(page.locator("#lobby-title")).to_have_text(translate(lang, "table.lobby.joinTitle"))
        expect(page.locator("#lobby-rules-list li").first).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == lang
        expect(page.locator(".bar .lang-select")).to_have_value(lang)
        seats = page.locator("#lobby-seats li")
        expect(seats.nth(2)).to_contain_text(
            translate(lang, "table.lobby.botLevel", level=translate(lang, "level.easy"))
        )
        expect(page.locator("#join-button")).to_have_text(translate(lang, "table.lobby.takeSeat"))
        expect(page.locator("#lobby-rules-list li[data-rule='dealer_bid']")).to_have_text(
            translate(lang, "rule.dealer_bid.hook")
        )
        assert_no_english(page, lang, "join page")
        fits(page, SCREENS[device])
        page.screenshot(path=str(SHOTS / f"i18n-join-{lang}-{device}.png"), full_page=True)
        assert errors == []
        page.context.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_table_mid_game_speaks_the_browsers_language_and_says_why_a_card_is_refused(
    browser: Browser, live: LiveServer, lang: str
) -> None:
    errors: list[str] = []
    # This seat deals, so it bids last, under the hook: one of its bids may be forbidden.
    body = live.create(
        seats=["human", "basic", "basic"],
        schedule=[3, 2],
        dealer_bid="hook",
        first_dealer="chosen",
        pace="fast",
    )
    table = body["table"]
    page = open_page(browser, live.url + body["url"], lang, "phone", errors)
    expect(page.locator("#bids button.playable").first).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == lang
    expect(page.locator(".bar .lang-select")).to_have_value(lang)
    game = live.game(table)
    assert game.phase is Phase.BIDDING
    # A card tapped during the bidding says why it cannot be played, in this language.
    hand = [str(card) for card in game.view(0).hand]
    first = page.locator("#hand button.card").first
    first.tap(force=True)  # aria-disabled: Playwright would wait, a finger does not
    said = translate(
        lang,
        "table.hand.cardReason",
        label=translate(lang, f"card.{hand[0]}"),
        reason=reason(lang, "turn order", {"case": "bidding"}),
    )
    expect(page.locator("#notice")).to_have_text(said)
    assert first.get_attribute("aria-label") == translate(
        lang,
        "table.hand.cardRefused",
        label=f"{first.text_content()}, {translate(lang, f'card.{hand[0]}')}",
        reason=reason(lang, "turn order", {"case": "bidding"}),
    )
    # A bid the hook forbids says why, worded from the refusal's facts.
    restriction = game.bid_restriction(0)
    if restriction is not None and restriction.forbidden:
        bid = restriction.forbidden[0]
        why = refusal_json(restriction.refusal(bid, game.players[0]))
        page.locator(f"#bids button[data-bid='{bid}']").tap(force=True)
        expect(page.locator("#notice")).to_have_text(reason(lang, str(why["rule"]), why["facts"]))  # type: ignore[arg-type]
    assert_no_english(page, lang, "table page while bidding")
    fits(page, PHONE)
    shot(page, f"i18n-table-{lang}-phone-bidding")
    # Bid, then wait for this seat's turn to play with a card on the felt: mid-game.
    page.locator("#bids button.playable").first.tap()
    wait_until(lambda: live.game(table).phase is Phase.PLAYING, "the bidding never ended")
    expect(page.locator("#hand button.card.playable").first).to_be_visible()
    expect(page.locator("#status")).to_have_text(translate(lang, "table.yourCard"))
    unplayable = page.locator("#hand button.card:not(.legal)")
    if unplayable.count():
        # A card the rules refuse (follow suit) names the suit led and the cards held, in this language.
        card = str(unplayable.first.get_attribute("data-card"))
        live_game = live.game(table)
        with pytest.raises(IllegalActionError) as refused:  # the engine's refusal, as the server sends it
            live_game.check_play(next(c for c in live_game.view(0).hand if str(c) == card), 0)
        facts = refusal_json(refused.value)
        unplayable.first.tap(force=True)
        expect(page.locator("#notice")).to_have_text(
            translate(
                lang,
                "table.hand.cardReason",
                label=translate(lang, f"card.{card}"),
                reason=reason(lang, str(facts["rule"]), facts["facts"]),  # type: ignore[arg-type]
            )
        )
    assert_no_english(page, lang, "table page mid-game")
    fits(page, PHONE)
    shot(page, f"i18n-table-{lang}-phone")
    # The same seat on a desktop.
    desktop = open_page(browser, page.url, lang, "desktop", errors)
    expect(desktop.locator("#hand button.card").first).to_be_visible()
    line = translate(lang, "table.roundLine", round=1, rounds=2, size=3).strip(" ·")
    expect(desktop.locator("#round-info")).to_contain_text(line)
    assert_no_english(desktop, lang, "table page on a desktop")
    fits(desktop, DESKTOP)
    shot(desktop, f"i18n-table-{lang}-desktop")
    assert errors == []
    desktop.context.close()
    page.context.close()


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReviewServer]:
    server = ReviewServer(tmp_path_factory.mktemp("table-i18n-review") / "tables.db")
    yield server
    server.stop()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_final_standings_and_the_review_panel_speak_the_browsers_language(
    browser: Browser, reviewing: ReviewServer, lang: str
) -> None:
    errors: list[str] = []
    body = reviewing.create(seats=["human", "basic", "basic"], schedule=[1], pace="fast")
    page = open_page(browser, reviewing.url + body["url"], lang, "phone", errors)
    page.locator("#bids button.playable").first.tap()
    page.locator("#hand button.card.playable").first.tap()
    expect(page.locator("#final")).to_be_visible()
    game = reviewing.game(body["table"])
    assert game.is_over
    expect(page.locator("#final-title")).to_have_text(translate(lang, "table.finalTitle"))
    assert_no_english(page, lang, "final standings")
    shot(page, f"i18n-final-{lang}-phone")
    page.locator("#review-final-button").tap()
    panel = page.locator("#review-panel")
    expect(panel.locator(".review-dot").first).to_be_visible()
    expect(panel.locator(".review-dot").first).to_have_text(translate(lang, "review.dotBid"))
    bid = game.results[0].bids[0]
    expect(panel.locator(".review-chosen")).to_have_text(translate(lang, "review.chosenBidYou", bid=bid))
    assert_no_english(page, lang, "review panel")
    shot(page, f"i18n-review-{lang}-phone")
    assert errors == []
    page.context.close()


def test_the_tables_language_menu_on_a_phone_switches_the_page_and_is_remembered(
    browser: Browser, live: LiveServer
) -> None:
    errors: list[str] = []
    body = live.create(seats=["human", "basic", "basic"], schedule=[2], pace="fast")
    page = open_page(browser, live.url + body["url"], "en", "phone", errors)
    expect(page.locator("#rules-button")).to_have_text("Rules")
    menu = page.locator(".bar .lang-select")
    expect(menu).to_have_attribute("aria-label", translate("en", "lang.label"))
    box = menu.bounding_box()
    assert box is not None
    assert box["width"] >= 44  # a touch target, in the one-line header
    assert box["height"] >= 44
    menu.select_option("sv")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("#rules-button")).to_have_text(translate("sv", "table.rulesButton"))
    expect(page.locator("#hand button.card").first).to_be_visible()
    page.reload()  # the choice is kept over the browser's language
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator(".bar .lang-select")).to_have_value("sv")
    fits(page, PHONE)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_rounds_summary_speaks_the_browsers_language(browser: Browser, live: LiveServer, lang: str) -> None:
    errors: list[str] = []
    body = live.create(seats=["human", "basic", "basic"], schedule=[1, 1], pace="fast")
    page = open_page(browser, live.url + body["url"], lang, "phone", errors)
    page.locator("#bids button.playable").first.tap()
    page.locator("#hand button.card.playable").first.tap()
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text(
        translate(lang, "table.summaryTitle", number=1, size=1)
    )
    result = live.game(body["table"]).results[0]
    word = "table.panels.made" if result.bids[0] == result.tricks_won[0] else "table.panels.missed"
    expect(page.locator("#summary-rows tr[data-seat='0'] .verdict-word")).to_have_text(translate(lang, word))
    assert_no_english(page, lang, "round summary")
    shot(page, f"i18n-summary-{lang}-phone")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_axe_finds_no_serious_or_critical_violation_on_the_table_in_another_language(
    browser: Browser, live: LiveServer, lang: str
) -> None:
    body = live.create(seats=["human", "basic", "basic"], schedule=[3], pace="fast")
    for device in SCREENS:
        errors: list[str] = []
        page = open_page(browser, live.url + body["url"], lang, device, errors, bypass_csp=True)
        expect(page.locator("#hand button.card").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
        assert not blocking, f"axe-core on the {lang} table ({device}):\n{described(blocking)}"
        page.context.close()
