"""What a player's name may be, decided once for every way a name comes in.

A name is typed at a web table, in the score keeper or the terminal, or read from a
game record. Everywhere it must be text a person can read back and that every
output (a terminal line, a JSON export, an error message) can carry: valid Unicode,
no control or bidirectional-override characters, 1 to :data:`MAX_NAME_LENGTH`
characters once the spaces around it are trimmed, at least one of them visible. Characters that
show nothing where they stand (zero width spaces, word joiners, soft hyphens, byte order marks,
Hangul fillers, Unicode tags, …) are dropped; those that shape what is shown are kept: a zero width
joiner or non-joiner between two visible characters (👨‍👩‍👧, Persian and Indic words), a variation
selector after one (❤️), the tags of a region's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿) — :func:`visible_text`. The same rules hold
for a line of table talk (:func:`text_line`). Names at one table differ in more
than case, spacing, invisible characters and letters that look alike, so "Ann" and " ann "
cannot both sit down, nor "Host" and "Ηost" (a Greek capital Eta) or "H\u200bost" (a zero width
space): names are compared by their Unicode confusable skeletons (UTS #39, from the
``confusable_homoglyphs`` package's copy of Unicode's confusables.txt), in NFKC form, without
default ignorable characters (:func:`name_keys`).

>>> player_name("  Åsa ")
'Åsa'
>>> player_name("Bea\\ud800")
Traceback (most recent call last):
...
upriver.names.PlayerNameError: a name must be valid Unicode text; 'Bea\\ud800' holds a lone surrogate (U+D800)
>>> check_names(["Ann", "Bob", "ANN"])
Traceback (most recent call last):
...
upriver.names.PlayerNameError: 'ANN' is already at the table as 'Ann' (seat 0); names must differ ...
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Sequence

from upriver.errors import UpriverError

__all__ = [
    "MAX_NAME_LENGTH",
    "PlayerNameError",
    "TextError",
    "check_names",
    "compared",
    "name_key",
    "name_keys",
    "player_name",
    "quoted",
    "text_line",
    "unique_name",
    "visible_text",
]

MAX_NAME_LENGTH = 24
"""The most characters a name may have: enough for "Grandma Åsa", short enough for a seat label."""

_EXCERPT = 40
"""How many characters of a refused value an error message quotes."""

# Bidirectional controls let a name display as something else ("Ann" that reads "nnA").
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class PlayerNameError(UpriverError, ValueError):
    """A name that may not be used; ``reason`` is a short code (``"empty"``, ``"too long"``,
    ``"not text"``, ``"surrogate"``, ``"control"``, ``"taken"``), ``seat`` its seat if known."""

    def __init__(self, message: str, *, reason: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat


class TextError(UpriverError, ValueError):
    """A line of text (a chat line) that may not be shown; ``reason`` is a short code as a name's
    (``"empty"``, ``"too long"``, ``"not text"``, ``"surrogate"``, ``"control"``), ``limit`` the
    most characters such a line may have."""

    def __init__(self, message: str, *, reason: str, limit: int) -> None:
        super().__init__(message)
        self.reason = reason
        self.limit = limit


def quoted(value: object, limit: int = _EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages about input of any size.

    The result is plain ASCII-safe text on one line (``repr`` escapes newlines and lone
    surrogates), so an error line stays one bounded line whatever was sent.
    """
    text = repr(value) if not isinstance(value, str) else repr(value[: limit + 1])
    if len(text) > limit + 2:
        text = text[: limit + 1] + "…" + text[-1]
    return text


def _shown(value: object, what: str, limit: int, refuse: Callable[[str, str], Exception]) -> str:
    """``value`` trimmed and in NFC form if it is text a person can read back (see the module), at most
    ``limit`` characters; else raises ``refuse(message, reason)``, the message naming ``what`` it is."""
    if not isinstance(value, str):
        raise refuse(f"{what} must be text, not {quoted(value)}", "not text")
    for char in value:
        if "\ud800" <= char <= "\udfff":
            raise refuse(
                f"{what} must be valid Unicode text; {quoted(value)} holds a lone surrogate "
                f"(U+{ord(char):04X})",
                "surrogate",
            )
    text = unicodedata.normalize("NFC", value).strip()
    for char in text:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            raise refuse(
                f"{what} may not hold control characters such as {char!r}: {quoted(text)}", "control"
            )
    text = visible_text(text)
    if not any(_shows(char) for char in text):
        raise refuse(
            f"{what} must have at least one letter or sign, not only spaces or invisible characters",
            "empty",
        )
    if len(text) > limit:
        raise refuse(
            f"{what} may have at most {limit} characters, not {len(text)} ({quoted(text)})", "too long"
        )
    return text


def player_name(value: object, seat: int | None = None) -> str:
    """The name as it will be shown: trimmed and in NFC form.

    :raises PlayerNameError: when the name may not be used, saying why.
    """

    def refuse(message: str, reason: str) -> PlayerNameError:
        return PlayerNameError(message, reason=reason, seat=seat)

    return _shown(value, "a name", MAX_NAME_LENGTH, refuse)


def text_line(value: object, limit: int) -> str:
    """A line a person typed (a chat line) as it will be shown: trimmed and in NFC form, by the rules
    of a name but for its length (at most ``limit`` characters): one line of readable text.

    >>> text_line("  <b>well played</b> ", 200)
    '<b>well played</b>'

    :raises TextError: when the line may not be shown, saying why.
    """

    def refuse(message: str, reason: str) -> TextError:
        return TextError(message, reason=reason, limit=limit)

    return _shown(value, "a line", limit, refuse)


_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters that show
nothing (zero width space and joiners, word joiner, soft hyphen, variation selectors, tags, …)."""


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)


_JOINERS = frozenset("\u200c\u200d")
"""Zero width non-joiner and joiner: between two visible characters they join or part them."""
_TAG_BASE = "\U0001f3f4"
"""The waving black flag, which tags (U+E0020–U+E007E, ended by the cancel tag) make a region's flag."""
_TAGS = range(0xE0020, 0xE007F)
_CANCEL_TAG = "\U000e007f"
_BLANK = frozenset("\u2800")
"""Characters that are neither spaces nor ignorable but show nothing (the blank braille pattern)."""


def _selector(char: str) -> bool:
    """A variation selector: after a visible character it picks how that character looks."""
    point = ord(char)
    return (
        0xFE00 <= point <= 0xFE0F
        or 0xE0100 <= point <= 0xE01EF
        or 0x180B <= point <= 0x180D
        or point == 0x180F
    )


def _shows(char: str) -> bool:
    """Whether ``char`` shows something by itself: neither a space, nor a control, format or
    ignorable character, nor a blank one."""
    return not (
        char.isspace()
        or char in _BLANK
        or _ignorable(char)
        or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zs", "Zl", "Zp")
    )


def visible_text(text: str) -> str:
    """``text`` without the default ignorable characters (Unicode's DerivedCoreProperties.txt) that show
    nothing where they stand, trimmed, in NFC form. Kept, as they change what is shown: a zero width
    joiner or non-joiner between two characters that show (:func:`_shows`), a variation selector right
    after one, and a region's flag: the tags after a waving black flag up to and with the cancel tag.

    >>> visible_text("\u200bwell\u00ad played\ufeff\U000e0041\u3164")
    'well played'
    >>> rainbow = "\U0001f3f3\ufe0f\u200d\U0001f308"  # a flag, a selector, a joiner, a rainbow
    >>> visible_text(f" {rainbow} ") == rainbow
    True
    """
    kept: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == _TAG_BASE:
            end = at + 1
            while end < len(text) and ord(text[end]) in _TAGS:
                end += 1
            if end > at + 1 and end < len(text) and text[end] == _CANCEL_TAG:
                kept.append(text[at : end + 1])  # the flag of a region, whole
                at = end + 1
                continue
        if not _ignorable(char):
            kept.append(char)
        elif char in _JOINERS:
            before = kept[-1][-1] if kept else ""
            following = next((c for c in text[at + 1 :] if not _ignorable(c) or c == _TAG_BASE), "")
            if before and following and (_shows(before) or _selector(before)) and _shows(following):
                kept.append(char)
        elif _selector(char) and kept and _shows(kept[-1][-1]):
            kept.append(char)
        at += 1
    return unicodedata.normalize("NFC", "".join(kept)).strip()


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39), from Unicode's confusables.txt as the
    ``confusable_homoglyphs`` package keeps it: for each pair "source → prototype", both ways.

    A source has one entry, its prototype; a prototype lists its sources. Where a pair stands alone
    (each lists only the other) the package no longer says which way it went: both then map to the
    smaller, which compares them alike all the same.
    """
    from confusable_homoglyphs import utils  # its data alone: the package's other modules load much more

    data: dict[str, list[dict[str, str]]] = utils.load("confusables.json")

    def others(key: str) -> list[str]:
        return [entry["c"].replace("\u200e", "") for entry in data.get(key, ())]

    mapped: dict[str, str] = {}
    for raw in data:
        char = raw.replace("\u200e", "")  # the package marks right-to-left text with left-to-right marks
        found = others(raw)
        if len(char) != 1 or len(found) != 1 or not found[0] or found[0] == char:
            continue  # a prototype of several sources (or of a sequence) stays itself
        target = found[0]
        if len(target) > 1 or len(others(target)) > 1:
            mapped[char] = target
        else:
            mapped[char] = min(char, target)
    return mapped


def _skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: each character replaced by its prototype, in NFD form."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def compared(name: str) -> str:
    """``name`` as names are compared: in NFKC form (fullwidth and superscript letters and brackets as
    the plain ones), without default ignorable characters, each character as its confusable prototype.

    >>> compared("Eve （ba\u200bsic）")
    'Eve (basic)'
    """
    text = "".join(char for char in unicodedata.normalize("NFKC", name) if not _ignorable(char))
    return unicodedata.normalize("NFC", _skeleton(text))


def name_keys(name: str) -> tuple[str, str]:
    """What two names must not share at one table (either key): the name as :func:`compared`, without
    case or spaces, folded to lower case before the confusables, and between two passes of them (so
    "Ian" is alike both "ian" and "lan", which are not alike each other).

    >>> name_keys("Host"), name_keys("\u0397ost"), name_keys("H\u200bost")
    (('host', 'host'), ('n\u0329ost', 'host'), ('host', 'host'))
    """
    folded_first = "".join(compared(name.casefold()).casefold().split())
    folded_between = "".join(compared(compared(name).casefold()).split())
    return folded_first, folded_between


def _plain_key(name: str) -> str:
    """The name without case or spaces only (to say which way two alike names are alike)."""
    return "".join(unicodedata.normalize("NFC", name).casefold().split())


def name_key(name: str) -> str:
    """The first of :func:`name_keys`: the name without case (folded first), spaces, invisible characters
    or lookalike letters."""
    return name_keys(name)[0]


def unique_name(name: str, seat: int, taken: Sequence[str | None]) -> str:
    """``name`` if no other seat's name in ``taken`` (seat by seat; ``None``: an open seat) is
    alike (:func:`name_key`): names at one table differ in more than case and spaces.

    >>> unique_name("Cid", 2, ["Ann", None, None])
    'Cid'

    :raises PlayerNameError: (reason ``taken``, ``seat``) naming the seat that has it already.
    """
    keys = set(name_keys(name))
    for other, existing in enumerate(taken):
        if other != seat and existing is not None and keys.intersection(name_keys(existing)):
            plainly = _plain_key(name) == _plain_key(existing)
            raise PlayerNameError(
                f"{quoted(name)} is already at the table as {quoted(existing)} (seat {other}); "
                + (
                    "names must differ in more than case and spaces"
                    if plainly
                    else "names must differ in more than invisible characters and letters that look alike"
                ),
                reason="taken",
                seat=seat,
            )
    return name


def check_names(names: Sequence[object]) -> tuple[str, ...]:
    """Every seat's name checked with :func:`player_name`, and no two alike (:func:`unique_name`).

    :raises PlayerNameError: for the first name that may not be used, with its seat.
    """
    seen: set[str] = set()
    cleaned: list[str] = []
    for seat, value in enumerate(names):
        name = player_name(value, seat)
        keys = name_keys(name)
        if seen.intersection(keys):  # a set first, so a long hostile list stays linear; unique_name words it
            unique_name(name, seat, cleaned)
        seen.update(keys)
        cleaned.append(name)
    return tuple(cleaned)
