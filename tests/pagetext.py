"""What a page shows a person in Chromium, for the tests of its languages: the text, a page opened in a
language on a desktop or a phone, and English left on a page in another language.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, ViewportSize

from tests.browsing import TIMEOUT_MS
from upriver.i18n import catalogue

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "cs": "cs-CZ", "it": "it-IT", "sv": "sv-SE"}
_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def english_fragments(lang: str) -> list[str]:
    """The English catalogue's words that would betray an untranslated string on a ``lang`` page:
    each literal run between placeholders, long enough to mean something, that ``lang`` does not
    also use (a name such as "Expert", the card notation)."""
    english, own = catalogue("en"), catalogue(lang)
    theirs = " ".join(text for entry in own.values() for text in _texts(entry))
    fragments = set()
    for entry in english.values():
        for text in _texts(entry):
            for part in _PLACEHOLDER.split(text):
                part = part.strip(" .,:;()—–-\n")
                if len(part) >= 8 and re.search(r"[a-z]{3}", part) and part not in theirs:
                    fragments.add(part)
    return sorted(fragments)


def english_words(lang: str) -> set[str]:
    """The English catalogue's whole short strings (a button's "Copy", a label's "Seats") that
    ``lang`` words differently: met as a whole text on a ``lang`` page, one was not translated."""
    english, own = catalogue("en"), catalogue(lang)
    theirs = {text.strip() for entry in own.values() for text in _texts(entry)}
    return {
        entry.strip()
        for entry in english.values()
        if isinstance(entry, str)
        and "{" not in entry
        and len(entry.strip()) >= 3
        and entry.strip() not in theirs
    }


def _texts(entry: object) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())  # type: ignore[attr-defined]


def each_text_shown(page: Page) -> set[str]:
    """Every text node, menu option, placeholder, label and title of the page, each on its own."""
    return set(
        page.evaluate(
            """() => {
                const out = [document.title];
                const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                while (walker.nextNode()) out.push(walker.currentNode.textContent);
                for (const o of document.querySelectorAll('option, optgroup')) {
                    out.push(o.label || o.textContent);
                }
                for (const e of document.querySelectorAll('[placeholder]')) out.push(e.placeholder);
                for (const e of document.querySelectorAll('[aria-label]')) {
                    out.push(e.getAttribute('aria-label'));
                }
                return out.map((text) => text.trim()).filter(Boolean);
            }"""
        )
    )


def everything_shown(page: Page) -> str:
    """The page's text as a person or a screen reader meets it: the text, every option of every
    menu, placeholders, labels and the title."""
    return str(
        page.evaluate(
            """() => [
                document.title,
                document.body.innerText,
                ...[...document.querySelectorAll('option, optgroup')].map((o) => o.label || o.textContent),
                ...[...document.querySelectorAll('[placeholder]')].map((e) => e.placeholder),
                ...[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')),
            ].join('\\n')"""
        )
    )


def open_page(
    browser: Browser, url: str, lang: str, device: str, errors: list[str], *, bypass_csp: bool = False
) -> Page:
    """``url`` in a browser whose language is ``lang``, on a desktop or a phone; console errors
    go to ``errors``. ``bypass_csp`` lets a test put axe-core into the page."""
    phone = device == "phone"
    context = browser.new_context(
        viewport=SCREENS[device],
        locale=LOCALES[lang],
        is_mobile=phone,
        has_touch=phone,
        bypass_csp=bypass_csp,
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return page


def assert_no_english(page: Page, lang: str, where: str) -> None:
    """No English catalogue string (a phrase, or a whole short word such as a button's) is shown."""
    if lang == "en":
        return
    shown = everything_shown(page)
    left = [fragment for fragment in english_fragments(lang) if fragment in shown]
    assert left == [], f"English on the {lang} {where}: {left}"
    assert sorted(english_words(lang) & each_text_shown(page)) == [], f"English words on the {lang} {where}"
