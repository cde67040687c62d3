"""The start page in Chromium in each of its five languages: chosen from the browser's language,
switched from the menu and remembered, with no English string left on a page in another language,
fitting a phone; a screenshot per language and viewport in ``artifacts/screenshots/``."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browsing import TIMEOUT_MS, LiveServer
from tests.live import SHOTS
from tests.pagetext import (
    DESKTOP,
    LOCALES,
    PHONE,
    each_text_shown,
    english_fragments,
    english_words,
    everything_shown,
)
from upriver import DECK, Game, IllegalActionError, Phase, preset
from upriver.i18n import LANGUAGES, catalogue, reason, restriction_reason, translate


def console_errors(page: Page) -> list[str]:
    """The page's console errors from now on (a list that fills as they come)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def open_start_page(
    browser: Browser, live: LiveServer, lang: str, viewport: ViewportSize, errors: list[str] | None = None
) -> Page:
    """The start page in a browser whose language is ``lang``, once its menus are filled; console
    errors go to ``errors``."""
    context = browser.new_context(viewport=viewport, locale=LOCALES[lang], is_mobile=viewport is PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    if errors is not None:
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live.url + "/")
    expect(page.locator("#seat-1 option").first).to_be_attached()
    expect(page.locator("#duration")).not_to_be_empty()
    return page


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_start_page_speaks_the_browsers_language_with_no_english_left(
    browser: Browser, live: LiveServer, lang: str
) -> None:
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        errors: list[str] = []
        page = open_start_page(browser, live, lang, viewport, errors)
        assert page.evaluate("document.documentElement.lang") == lang
        expect(page.locator("h1")).to_have_text(str(catalogue(lang)["game.name"]))
        expect(page.locator(".lang-select")).to_have_value(lang)
        page.click("summary")  # the rule options are part of the page too
        shown = everything_shown(page)
        if lang != "en":
            left = [fragment for fragment in english_fragments(lang) if fragment in shown]
            assert left == [], f"English on the {lang} start page: {left}"
            assert sorted(english_words(lang) & each_text_shown(page)) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"i18n-start-{lang}-{name}.png"), full_page=True)
        assert errors == []
        page.context.close()


def test_the_language_menu_switches_the_page_and_is_remembered(browser: Browser, live: LiveServer) -> None:
    page = open_start_page(browser, live, "en", DESKTOP)
    expect(page.locator("#create button[type=submit]")).to_have_text("Create the table")
    page.select_option(".lang-select", "cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#create button[type=submit]")).to_have_text(str(catalogue("cs")["lobby.create"]))
    expect(page.locator("#players option").first).to_have_text("4 hráči")  # Czech plural "few"
    page.goto(live.url + "/")  # a later visit keeps the choice over the browser's language
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("h1")).to_have_text("Nahoru a dolů po řece")
    page.context.close()


def test_a_refused_name_is_said_in_the_pages_language(browser: Browser, live: LiveServer) -> None:
    page = open_start_page(browser, live, "it", DESKTOP)
    page.fill("#name", "Bea (basic)")
    page.click("#create button[type=submit]")
    expect(page.locator("#create-error")).to_have_text(str(catalogue("it")["reason.name.bot_label"]))
    page.context.close()


def engine_refusals() -> list[tuple[str, dict[str, object]]]:
    """One refusal of each kind a player meets, as (rule, JSON facts), from real games."""
    game = Game(preset("classic-hook", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=2063)
    found: dict[str, dict[str, object]] = {}
    for _ in range(400):
        if game.is_over:
            break
        for seat in range(4):
            for move in [*range(-1, game.hand_size + 2), *DECK]:
                try:
                    game.check_move(move, seat)
                except IllegalActionError as error:
                    found.setdefault(error.rule, error.facts_json())
        if game.phase is Phase.BIDDING:
            game.bid(game.legal_bids()[0])
        else:
            game.play(game.legal_cards()[0])
    return sorted(found.items())


def test_the_page_words_refusals_cards_and_plurals_as_the_terminal_does(
    browser: Browser, live: LiveServer
) -> None:
    refusals = engine_refusals()
    assert {"follow suit", "hook", "trump broken", "bid range", "card in hand", "turn order"} <= {
        rule for rule, _ in refusals
    }
    restriction = {"rule": "hook", "tricks": 3, "others": 2, "forbidden": [1], "allowed": [0, 2, 3]}
    for lang in LANGUAGES:
        page = open_start_page(browser, live, lang, DESKTOP)
        said = page.evaluate(
            """async ([refusals, restriction]) => {
                const i18n = await import('/static/i18n.js');
                return {
                    reasons: refusals.map(([rule, facts]) => i18n.reason({ rule, facts })),
                    restriction: i18n.restrictionReason(restriction, { name: 'Ann' }),
                    cards: ['QH', 'TC', 'AS', '7D'].map(i18n.cardName),
                    tricks: [0, 1, 2, 5, 21].map((count) => i18n.t('n.tricks', { count })),
                    parts: i18n.parts('keeper.roundOf', { number: 2, rounds: 9, size: 3 }).join(''),
                };
            }""",
            [refusals, restriction],
        )
        assert said["reasons"] == [reason(lang, rule, facts) for rule, facts in refusals]
        why = restriction_reason(lang, restriction)
        assert said["restriction"] == translate(
            lang, "restriction.dealer_may_not", name="Ann", forbidden="1", why=why
        )
        assert said["cards"] == [translate(lang, f"card.{card}") for card in ("QH", "TC", "AS", "7D")]
        assert said["tricks"] == [translate(lang, "n.tricks", count=n) for n in (0, 1, 2, 5, 21)]
        assert said["parts"] == translate(lang, "keeper.roundOf", number=2, rounds=9, size=3)
        page.context.close()


@pytest.mark.parametrize("lang", ["fr"])
def test_this_browsers_tables_are_listed_in_the_pages_language(
    browser: Browser, live: LiveServer, lang: str
) -> None:
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = open_start_page(browser, live, lang, viewport)
        page.fill("#name", "Ann")
        page.select_option("#seat-1", "human")
        page.click("#create button[type=submit]")
        expect(page.locator("#created")).to_be_visible()
        item = page.locator("#my-table-list li").first
        expect(item.locator(".table-status")).to_have_text(translate(lang, "lobby.status_waiting", count=1))
        expect(item.locator(".invite button", has_text=translate(lang, "lobby.copy"))).to_be_visible()
        expect(item.locator(".bot-row button")).to_have_text(translate(lang, "lobby.give_to_bot"))
        level = translate(lang, "level.easy").lower()  # in a bot's label, as the table shows it
        expect(item.locator(".back-link")).to_contain_text(f"Cid ({level})")
        left = [fragment for fragment in english_fragments(lang) if fragment in everything_shown(page)]
        assert left == []
        assert sorted(english_words(lang) & each_text_shown(page)) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(SHOTS / f"i18n-tables-{lang}-{name}.png"), full_page=True)
        page.context.close()


def test_an_unknown_tables_page_says_so_in_the_browsers_language(browser: Browser, live: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE, locale=LOCALES["cs"], is_mobile=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    response = page.goto(live.url + "/t/no-such-table")
    assert response is not None
    assert response.status == 404
    expect(page.locator("main .dead-why")).to_have_text(translate("cs", "reason.table"))
    expect(page.locator("main a[href='/']")).to_have_text(translate("cs", "table.dead.start"))
    context.close()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_score_keeper_speaks_the_browsers_language(browser: Browser, live: LiveServer, lang: str) -> None:
    made = httpx.post(
        live.url + "/api/sheets",
        json={"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "countdown", "schedule": [2, 1]},
    )
    assert made.status_code == 201, made.text
    sheet = made.json()
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=viewport, locale=LOCALES[lang], is_mobile=viewport is PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors = console_errors(page)
        for path, shot in (("/keep", "start"), (f"/keep/{sheet['id']}", "sheet")):
            page.goto(live.url + path)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("main h1, main h2").first).to_be_visible()
            shown = everything_shown(page)
            assert [fragment for fragment in english_fragments(lang) if fragment in shown] == []
            assert sorted(english_words(lang) & each_text_shown(page)) == []
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.screenshot(path=str(SHOTS / f"i18n-keep-{shot}-{lang}-{name}.png"), full_page=True)
        assert errors == []
        context.close()
