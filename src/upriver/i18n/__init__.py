"""The words of the pages and the terminal game in English, French, Czech, Italian and Swedish.

One JSON catalogue per language (``catalogues/{lang}.json``) holds every string the pages
(``static/i18n.js``, which loads the same files from ``/i18n/{lang}.json``) and the terminal
game show. A catalogue maps a key to a template, or, for a word that changes with a number, to
its CLDR plural forms (``{"one": "{count} trick", "other": "{count} tricks"}``; Czech also
``few`` and ``many``). A template's placeholders are named: ``{name}`` is the parameter as
text, ``{count:n.tricks}`` is the plural entry ``n.tricks`` for the number ``count``. Plural
forms are chosen by Babel's CLDR rules (``babel.Locale(lang).plural_form``), as the pages
choose them with ``Intl.PluralRules``.

A refusal is worded from the engine's facts, never from its English sentence: :func:`reason`
takes a rule and its facts (:class:`upriver.errors.RefusalError`'s ``rule`` and ``facts``, a
:class:`upriver.legality.BidRestriction`, the web's error replies) and says it to the person
concerned, in their language.

>>> translate("fr", "n.tricks", count=3)
'3 plis'
>>> reason("cs", "follow suit", {"led": "C", "held": ["3C", "7C"]})
'Musíte přiznat barvu (kříže): máte 3♣ 7♣.'
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from babel import Locale

__all__ = [
    "CATALOGUES",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Translator",
    "card_name",
    "card_symbol",
    "catalogue",
    "language_from_environment",
    "placeholders",
    "plural_categories",
    "plural_category",
    "reason",
    "reason_key",
    "resolve_language",
    "restriction_reason",
    "spoken_list",
    "translate",
]

CATALOGUES = Path(__file__).parent / "catalogues"
"""The folder of the catalogues, one ``{lang}.json`` per language (served at ``/i18n/``)."""

LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "fr": "Français",
    "cs": "Čeština",
    "it": "Italiano",
    "sv": "Svenska",
}
"""The languages spoken, each with its own name for itself (what a language menu shows)."""

DEFAULT_LANGUAGE = "en"

Entry = str | Mapping[str, str]
"""A catalogue's value: a template, or a plural entry mapping CLDR categories to templates."""

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z0-9_.]+))?\}")
_SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@functools.cache
def catalogue(lang: str) -> Mapping[str, Entry]:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`), read once.

    :raises ValueError: for a language there is no catalogue of.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"the {lang} catalogue is not a JSON object")
    return data


def resolve_language(value: str | None) -> str:
    """The language a locale name means: ``fr_FR.UTF-8`` → ``fr``, ``cs-CZ`` → ``cs``;
    :data:`DEFAULT_LANGUAGE` for anything unknown, empty, ``C`` or ``POSIX``."""
    if not value:
        return DEFAULT_LANGUAGE
    code = re.split(r"[_.@-]", value.strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language, as gettext reads it: ``LANGUAGE`` (its first known entry), then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; English when none names a language spoken here."""
    env = os.environ if environ is None else environ
    for entry in env.get("LANGUAGE", "").split(":"):
        code = re.split(r"[_.@-]", entry.strip().lower(), maxsplit=1)[0]
        if code in LANGUAGES:
            return code
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return resolve_language(env[name])
    return DEFAULT_LANGUAGE


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(lang: str, count: int | float) -> str:
    """The CLDR plural category of ``count`` in ``lang``: ``"one"``, ``"few"``, ``"many"`` or ``"other"``."""
    return str(_locale(lang).plural_form(abs(count)))


def plural_categories(lang: str) -> frozenset[str]:
    """Every plural category ``lang`` uses (``other`` included): what each plural entry must give."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses: ``"{count:n.tricks} by {name}"`` → ``{"count", "name"}``."""
    return frozenset(match.group(1) for match in _PLACEHOLDER.finditer(template))


def _entry(lang: str, key: str) -> Entry:
    found = catalogue(lang).get(key)
    if found is None:
        found = catalogue(DEFAULT_LANGUAGE).get(key)
    if found is None:
        raise KeyError(f"no string {key!r} in the catalogues")
    return found


def translate(lang: str, key: str, /, **params: object) -> str:
    """The string ``key`` in ``lang`` with ``params`` put in (English when ``lang`` lacks it).

    A plural entry is chosen by the parameter ``count``; ``{n:other.key}`` in a template puts
    in the plural entry ``other.key`` for the number ``n``.

    :raises KeyError: for a key no catalogue has, or a placeholder without its parameter.
    """
    entry = _entry(lang, key)
    if not isinstance(entry, str):
        if "count" not in params:
            raise KeyError(f"the plural string {key!r} needs a number 'count'")
        count = params["count"]
        # Not a number (a fact a refusal lacks, said "?"): the "other" form, as Intl.PluralRules does.
        category = plural_category(lang, count) if isinstance(count, int | float) else "other"
        entry = entry.get(category) or entry["other"]

    def fill(match: re.Match[str]) -> str:
        name, plural = match.group(1), match.group(2)
        if name not in params:
            raise KeyError(f"the string {key!r} needs the parameter {name!r}")
        value = params[name]
        if plural is not None:
            return translate(lang, plural, **{**params, "count": value})
        return str(value)

    return _PLACEHOLDER.sub(fill, entry)


class Translator:
    """:func:`translate` bound to one language: ``t = Translator("fr"); t("n.tricks", count=2)``."""

    def __init__(self, lang: str) -> None:
        self.lang = resolve_language(lang)

    def __call__(self, key: str, /, **params: object) -> str:
        """The string ``key`` in this language (:func:`translate`)."""
        return translate(self.lang, key, **params)

    def has(self, key: str) -> bool:
        """Whether the catalogues have ``key`` (for words chosen at run time, such as a preset's name)."""
        return key in catalogue(DEFAULT_LANGUAGE)

    def plural(self, key: str, count: int) -> str:
        """The plural entry ``key`` for ``count`` (its ``{count}`` put in)."""
        return translate(self.lang, key, count=count)


def spoken_list(lang: str, items: Sequence[object], *, conjunction: str = "or") -> str:
    """Items as a person lists them in ``lang``: ``1, 2 or 3``, ``1, 2 nebo 3``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return translate(
        lang, f"list.{conjunction}", rest=translate(lang, "list.separator").join(words[:-1]), last=words[-1]
    )


def card_symbol(text: object) -> str:
    """A card's text as its symbol: ``"QH"`` → ``Q♥``, ``"TC"`` → ``10♣``; other text as it came."""
    if isinstance(text, str) and len(text) == 2 and text[1] in _SUITS and text[0] in "23456789TJQKA":
        return ("10" if text[0] == "T" else text[0]) + _SUITS[text[1]]
    return str(text)


def card_name(lang: str, text: str) -> str:
    """A card named in words for a screen reader: ``"QH"`` → ``Queen of hearts``, ``dame de cœur``."""
    return translate(lang, f"card.{text}")


def reason_key(rule: str) -> str:
    """The catalogue key of a rule's reason: ``"follow suit"`` → ``reason.follow_suit``."""
    return "reason." + re.sub(r"[^a-z0-9]+", "_", rule.lower()).strip("_")


_SUIT_FACTS = frozenset({"led", "trump"})
_CARD_FACTS = frozenset({"card", "held", "cards"})


def _fact_params(lang: str, facts: Mapping[str, object]) -> dict[str, object]:
    """The facts as a template's parameters: a suit (``led``, ``trump``) by its name, cards
    (``card``, ``held``) as symbols, any other list as a spoken list (``1, 2 or 3``)."""
    params: dict[str, object] = {}
    for name, value in facts.items():
        items = list(value) if isinstance(value, list | tuple) else None
        if name in _SUIT_FACTS and isinstance(value, str) and value in _SUITS:
            params[name] = translate(lang, f"suit.{value}")
        elif name in _CARD_FACTS:
            params[name] = " ".join(card_symbol(item) for item in (items if items is not None else [value]))
        elif items is not None:
            params[name] = spoken_list(lang, items)
        else:
            params[name] = "" if value is None else value
    return params


def reason(lang: str, rule: str, facts: Mapping[str, object] | None = None) -> str:
    """A refusal worded for the person refused, in ``lang``, from its ``rule`` and JSON ``facts``
    (:meth:`upriver.errors.RefusalError.facts_json`, or a web error reply's ``facts``).

    A fact ``case`` picks a variant (``reason.name.too_long``) when the catalogue has one. A
    rule no catalogue knows is said as ``reason.unknown``, naming the rule.
    """
    facts = dict(facts or {})
    key = reason_key(rule)
    case = facts.get("case")
    english = catalogue(DEFAULT_LANGUAGE)
    if isinstance(case, str) and f"{key}.{reason_key(case)[7:]}" in english:
        key = f"{key}.{reason_key(case)[7:]}"
    if key not in english:
        return translate(lang, "reason.unknown", rule=rule)
    params = _fact_params(lang, facts)
    needed = placeholders(_template_text(english[key]))
    for name in needed - params.keys():
        params[name] = "?"
    return translate(lang, key, **params)


def _template_text(entry: Entry) -> str:
    return entry if isinstance(entry, str) else " ".join(entry.values())


def restriction_reason(lang: str, restriction: Mapping[str, object]) -> str:
    """The dealer's bid restriction (:meth:`upriver.legality.BidRestriction.to_json`) in words:
    why the dealer may not make some bids. In English it is the engine's own ``reason`` when
    given (the catalogue's English says the same, for a restriction known only by its facts)."""
    english = restriction.get("reason")
    if lang == "en" and isinstance(english, str):
        return english
    rule = str(restriction.get("rule"))
    params = {
        "forbidden": spoken_list(lang, list(restriction.get("forbidden") or ())),  # type: ignore[call-overload]
        "allowed": spoken_list(lang, list(restriction.get("allowed") or ())),  # type: ignore[call-overload]
        "tricks": restriction.get("tricks", "?"),
        "others": restriction.get("others", "?"),
    }
    key = "restriction.overbid" if rule == "overbid" else "restriction.hook"
    return translate(lang, key, **params)
