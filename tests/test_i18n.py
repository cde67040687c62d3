"""The catalogues are complete and consistent, every string the code asks for exists, and every
refusal of the engine is worded in every language from its rule and facts alone."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import preset_and_players
from upriver import DECK, Game, IllegalActionError, Phase, Suit, preset
from upriver.bots import BOT_KINDS
from upriver.cli.tui import headline
from upriver.i18n import (
    CATALOGUES,
    LANGUAGES,
    Translator,
    catalogue,
    language_from_environment,
    placeholders,
    plural_categories,
    reason,
    reason_key,
    resolve_language,
    restriction_reason,
    translate,
)
from upriver.legality import BidRestriction
from upriver.rules import PRESETS, DealerBid, rules_catalogue
from upriver.sheet import ScoreSheet
from upriver.web.play import bots as web_bots

SRC = Path(__file__).resolve().parent.parent / "src" / "upriver"
STATIC = SRC / "web" / "static"
_REFERENCE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*:([A-Za-z0-9_.]+)\}")


def texts(entry: object) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())  # type: ignore[attr-defined]


def used_placeholders(entry: object) -> frozenset[str]:
    return frozenset().union(*(placeholders(text) for text in texts(entry)))


def test_there_is_one_catalogue_per_language_and_no_other() -> None:
    assert sorted(path.stem for path in CATALOGUES.glob("*.json")) == sorted(LANGUAGES)
    js = (STATIC / "i18n.js").read_text(encoding="utf-8")
    menu = re.search(r"export const LANGUAGES = \{(.*?)\};", js)
    assert menu is not None
    assert re.findall(r"(\w+): \"", menu.group(1)) == list(LANGUAGES)  # the page offers the same languages


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_english_string_is_translated_with_the_same_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang} lacks these strings"
    assert sorted(set(other) - set(english)) == [], f"{lang} has strings English does not"
    differ = {
        key: (sorted(used_placeholders(english[key])), sorted(used_placeholders(other[key])))
        for key in english
        if used_placeholders(english[key]) != used_placeholders(other[key])
    }
    assert differ == {}
    assert [key for key, entry in other.items() if any(not text.strip() for text in texts(entry))] == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_plural_has_exactly_the_categories_its_language_uses(lang: str) -> None:
    needed = plural_categories(lang)
    wrong = {
        key: sorted(entry)
        for key, entry in catalogue(lang).items()
        if not isinstance(entry, str) and set(entry) != needed
    }
    assert wrong == {}, f"{lang} plurals need {sorted(needed)}"
    assert catalogue("en")["n.tricks"] != "", "the English catalogue has plural entries to check"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_plural_reference_in_a_template_names_a_plural_entry(lang: str) -> None:
    entries = catalogue(lang)
    for key, entry in entries.items():
        for text in texts(entry):
            for target in _REFERENCE.findall(text):
                assert target in entries, (key, target)
                assert not isinstance(entries[target], str), (key, target)


def test_plural_forms_follow_each_languages_rules() -> None:
    assert [translate("cs", "n.tricks", count=n) for n in (1, 2, 5, 1.5)] == [
        "1 štych",
        "2 štychy",
        "5 štychů",
        "1.5 štychu",
    ]
    assert translate("fr", "n.tricks", count=0) == "0 pli"  # French: 0 is singular
    assert translate("en", "n.tricks", count=0) == "0 tricks"
    assert translate("fr", "lobby.estimate", minutes=1, rounds=22, seats=4, bot="0,8", person=4) == (
        "Environ 1 minute\u00a0: 22 donnes × 4 places, 0,8 s par coup de robot à ce rythme "
        "et environ 4 s par coup d'une personne."
    )


def source_keys() -> dict[str, set[str]]:
    """Every catalogue key the pages and the terminal name literally, by file."""
    patterns = {
        ".js": [r"(?<![\w$])t\(\s*\"([^\"$`]+)\"", r"\bhas\(\s*\"([^\"]+)\""],
        ".html": [r"data-i18n(?:-[a-z-]+)?=\"([^\"]+)\""],
        ".py": [r"(?<![\w])t\(\s*[\"']([^\"'{]+)[\"']", r"\btranslate\(\s*[\w.]+,\s*[\"']([^\"'{]+)[\"']"],
    }
    found: dict[str, set[str]] = {}
    files = [*STATIC.glob("*.js"), *STATIC.glob("*.html"), *(SRC / "cli").glob("*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        keys = {key for pattern in patterns[path.suffix] for key in re.findall(pattern, text)}
        if keys:
            found[path.name] = keys
    return found


def test_every_string_the_pages_and_the_terminal_ask_for_is_in_the_catalogues() -> None:
    english = catalogue("en")
    found = source_keys()
    missing = {name: sorted(keys - set(english)) for name, keys in found.items() if keys - set(english)}
    assert missing == {}
    assert {"index.html", "lobby.js", "play.py", "tui.py"} <= set(found)
    assert sum(len(keys) for keys in found.values()) > 120  # the scan reads the sources it should


def test_every_word_chosen_at_run_time_is_in_the_catalogues() -> None:
    english = catalogue("en")
    choices = rules_catalogue()["rules"]
    assert isinstance(choices, dict)
    wanted = [f"preset.{name}" for name in PRESETS] + [f"preset.{name}.summary" for name in PRESETS]
    wanted += [f"option.{key}" for key in choices]
    wanted += [f"choice.{value}" for values in choices.values() for value in values]
    wanted += [f"level.{kind}" for kind in BOT_KINDS] + [f"level.{kind}.text" for kind in BOT_KINDS]
    wanted += [f"pace.{pace}" for pace in web_bots.PACES]
    wanted += [f"card.{card}" for card in DECK] + [f"suit.{suit.value}" for suit in Suit]
    assert [key for key in wanted if key not in english] == []


def refusal_rules() -> set[str]:
    """Every rule name a refusal the server or the engine can send a person is made with: each
    ``rule="…"`` in the engine, the web and the keeper, and each rule of a WebSocket error reply.
    (The search's InconsistentDealError, in branch.py, is for bots and never reaches a person.)"""
    rules: set[str] = set()
    # the rooms of the tables and the keeper: accounts and groups word their refusals on their own pages
    table_rooms = [
        path for path in (SRC / "web").rglob("*.py") if path.parent.name not in ("accounts", "groups")
    ]
    paths = [*SRC.glob("*.py"), *table_rooms, *(SRC / "keeper").rglob("*.py")]
    for path in paths:
        if path.name == "branch.py":
            continue
        text = path.read_text(encoding="utf-8")
        rules |= set(re.findall(r"\brule=\"([^\"]+)\"", text))
        rules |= set(re.findall(r"error_message\(\s*[\w.]+,\s*\"([^\"]+)\"", text))
        rules |= set(re.findall(r"_check_count\([^,]+,\s*\"([^\"]+)\"", text))  # the keeper's rule=what
    return rules


def test_every_refusal_rule_has_a_reason_in_the_catalogues() -> None:
    rules = refusal_rules()
    assert {"follow suit", "hook", "stale", "spectator", "field"} - {"hook"} <= rules
    rules |= {"hook", "overbid"}  # the dealer's rules are named by their option value
    english = catalogue("en")
    assert sorted(rule for rule in rules if reason_key(rule) not in english) == []


def every_refusal(game: Game) -> list[IllegalActionError]:
    """Every refusal of every seat's wrong moves now: bids from -1 to the hand size + 1 and every card."""
    refusals: list[IllegalActionError] = []
    for seat in range(game.rules.player_count):
        moves: list[object] = [*range(-1, game.hand_size + 2), *DECK, "zz"]
        for move in moves:
            try:
                game.check_move(move, seat)  # type: ignore[arg-type]
            except IllegalActionError as error:
                refusals.append(error)
    return refusals


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=preset_and_players(), seed=st.integers(min_value=0, max_value=2**31), stops=st.integers(1, 10))
def test_every_refusal_in_random_games_is_worded_in_every_language_from_its_facts(
    setup: tuple[str, int], seed: int, stops: int
) -> None:
    name, players = setup
    game = Game(preset(name, player_count=players), [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(stops):
        if game.is_over:
            break
        for error in every_refusal(game):
            seen.add(error.rule)
            facts = error.facts_json()
            for lang in LANGUAGES:
                text = reason(lang, error.rule, facts)
                assert "{" not in text, (lang, error.rule, facts, text)
                assert "?" not in text, (lang, error.rule, facts, text)
                assert text != translate(lang, "reason.unknown", rule=error.rule), (lang, error.rule)
        restriction = game.bid_restriction()
        if restriction is not None:
            for lang in LANGUAGES:
                said = restriction_reason(lang, restriction.to_json())
                assert "{" not in said
                assert str(restriction.tricks) in said
        for _ in range(rng.randint(1, 6)):
            if game.phase is Phase.BIDDING:
                game.bid(rng.choice(game.legal_bids()))
            elif game.phase is Phase.PLAYING:
                game.play(rng.choice(game.legal_cards()))
    assert seen  # every position has a wrong move to refuse


def test_a_follow_suit_refusal_names_the_suit_and_the_cards_held_in_each_language() -> None:
    facts = {"led": "C", "held": ["3C", "TC"]}
    said = {lang: reason(lang, "follow suit", facts) for lang in LANGUAGES}
    assert said == {
        "en": "You must follow suit (clubs): you hold 3♣ 10♣.",
        "fr": "Vous devez fournir à la couleur demandée (trèfle)\u00a0: vous avez 3♣ 10♣.",
        "cs": "Musíte přiznat barvu (kříže): máte 3♣ 10♣.",
        "it": "Devi rispondere al seme di uscita (fiori): hai 3♣ 10♣.",
        "sv": "Du måste bekänna färg (klöver): du har 3♣ 10♣.",
    }


def test_a_variant_is_chosen_by_the_case_fact_and_an_unknown_rule_is_named() -> None:
    assert reason("sv", "name", {"case": "too long"}) == "Ett namn har högst 24 tecken."
    assert reason("sv", "name", {"case": "no such case"}) == translate("sv", "reason.name")
    assert reason("it", "no such rule") == "Rifiutato (no such rule)."


def test_card_names_for_screen_readers_read_naturally() -> None:
    names = {lang: translate(lang, "card.QH") for lang in LANGUAGES}
    assert names == {
        "en": "Queen of hearts",
        "fr": "Dame de cœur",
        "cs": "Srdcová dáma",
        "it": "Donna di cuori",
        "sv": "Hjärter dam",
    }
    assert translate("cs", "card.AS") == "Pikové eso"
    assert translate("cs", "card.KC") == "Křížový král"


@pytest.mark.parametrize(
    ("environment", "lang"),
    [
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "sv_SE.UTF-8"}, "it"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminals_language_comes_from_the_environment(environment: dict[str, str], lang: str) -> None:
    assert language_from_environment(environment) == lang


def test_a_locale_name_means_its_language() -> None:
    assert [resolve_language(v) for v in ("sv-SE", "FR", "it_IT@euro", "", None, "xx")] == [
        "sv",
        "fr",
        "it",
        "en",
        "en",
        "en",
    ]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_refusal_rule_is_worded_in_every_language_even_without_facts(lang: str) -> None:
    for rule in sorted(refusal_rules() | {"hook", "overbid"}):
        text = reason(lang, rule, {})
        assert "{" not in text, (rule, text)
        assert text != translate(lang, "reason.unknown", rule=rule), rule
        assert text.strip(), rule


@pytest.mark.parametrize("rule", [DealerBid.HOOK, DealerBid.OVERBID])
@pytest.mark.parametrize("tricks", [1, 2, 7])
def test_the_english_catalogue_words_the_dealers_restriction_as_the_engine_does(
    rule: DealerBid, tricks: int
) -> None:
    """A restriction known only by its facts (a refusal) reads in English as the engine's own reason."""
    restriction = BidRestriction(rule=rule, seat=3, tricks=tricks, others=1, forbidden=(0,), allowed=(1, 2))
    facts_only = {key: value for key, value in restriction.to_json().items() if key != "reason"}
    assert (
        restriction_reason("en", facts_only)
        == restriction.reason
        == restriction_reason("en", restriction.to_json())
    )
    assert restriction_reason("fr", restriction.to_json()) == restriction_reason("fr", facts_only)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 600))
def test_the_english_catalogue_says_who_leads_as_the_score_sheet_does(seed: int, moves: int) -> None:
    game = Game(preset("classic", 4), ["Ann", "Bob", "Cid", "Dee"], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    sheet = ScoreSheet.of(game)
    assert headline(sheet, Translator("en")) == sheet.headline
