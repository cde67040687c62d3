"""The text rule every name and chat line is held to (:mod:`upriver.names`): something visible in it,
and none of the characters that show nothing where they stand, over random Unicode."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upriver.names import PlayerNameError, TextError, player_name, text_line, visible_text

LIMIT = 200

DROPPED = [
    "\u200b",  # zero width space
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\ufeff",  # byte order mark
    "\u034f",  # combining grapheme joiner
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u3164",  # Hangul filler
    "\uffa0",  # halfwidth Hangul filler
    "\u180e",  # Mongolian vowel separator
    "\u2061",  # function application
    "\U000e0001",  # language tag
    "\U000e0041",  # tag latin capital letter A
    "\U000e007f",  # cancel tag
    "\U0001d173",  # musical symbol begin beam
]
"""Default ignorable characters that show nothing wherever they stand."""
CONTEXTUAL = ["\u200c", "\u200d", "\ufe0f", "\ufe0e", "\U000e0100"]
"""Those kept in some places (joiners between visible characters, selectors after one)."""
INVISIBLE = st.sampled_from([*DROPPED, *CONTEXTUAL, " ", "\u3000", "\u00a0", "\u2800"])
_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def _ignorable(char: str) -> bool:
    """Default_Ignorable_Code_Point, worked out here apart from names.py: format characters (Cf) but
    the visible ones Unicode lists, and the few others DerivedCoreProperties.txt names."""
    point = ord(char)
    others = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0}
    return (
        point in others
        or 0x180B <= point <= 0x180F
        or 0xFE00 <= point <= 0xFE0F
        or 0xE0000 <= point <= 0xE0FFF
        or 0xFFF0 <= point <= 0xFFF8
        or 0x2060 <= point <= 0x206F
        or 0x1BCA0 <= point <= 0x1BCA3
        or 0x1D173 <= point <= 0x1D17A
        or point in (0x00AD, 0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0xFEFF)
        or 0x202A <= point <= 0x202E
    )


def _selector(char: str) -> bool:
    point = ord(char)
    return (
        0xFE00 <= point <= 0xFE0F
        or 0xE0100 <= point <= 0xE01EF
        or 0x180B <= point <= 0x180D
        or point == 0x180F
    )


def _visible(char: str) -> bool:
    return not (
        char.isspace()
        or char == "\u2800"
        or _ignorable(char)
        or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zs", "Zl", "Zp")
    )


any_text = st.text(
    st.one_of(
        st.characters(exclude_categories=["Cs"]),
        INVISIBLE,
        st.sampled_from(["\U0001f3f4", "\U000e0067", "\U000e007f", "\U0001f468", "a"]),
    ),
    max_size=60,
)


@given(any_text)
def test_a_line_taken_has_something_visible_and_no_character_that_shows_nothing_where_it_stands(
    value: str,
) -> None:
    try:
        line = text_line(value, LIMIT)
    except TextError as error:
        refused = error.reason
    else:
        refused = ""
    if refused:
        assert refused in {"empty", "too long", "control"}
        return
    assert line == line.strip()
    assert unicodedata.is_normalized("NFC", line)
    assert any(_visible(char) for char in line)
    assert 0 < len(line) <= LIMIT
    rest = _FLAG.sub("\U0001f3f4", line)  # a region's flag keeps its tags
    for at, char in enumerate(rest):
        if not _ignorable(char):
            continue
        assert char in "\u200c\u200d" or _selector(char), f"{char!r} kept in {line!r}"
        if char in "\u200c\u200d":
            assert 0 < at < len(rest) - 1, f"a joiner at an end of {line!r}"
        else:
            assert at > 0, f"a selector first in {line!r}"
    assert text_line(line, LIMIT) == line  # taken again as it is


@given(st.text(INVISIBLE, max_size=40))
def test_a_line_or_a_name_of_only_invisible_characters_and_spaces_is_refused_as_empty(value: str) -> None:
    with pytest.raises(TextError) as refused:
        text_line(value, LIMIT)
    assert refused.value.reason == "empty"
    assert "invisible" in str(refused.value)
    with pytest.raises(PlayerNameError) as name_refused:
        player_name(value)
    assert name_refused.value.reason == "empty"


@given(
    st.text(st.characters(categories=["L", "N", "P"]), min_size=1, max_size=30).filter(
        lambda text: any(_visible(char) for char in text)
    ),
    st.lists(st.tuples(st.integers(min_value=0, max_value=30), st.sampled_from(DROPPED)), max_size=8),
)
def test_characters_that_show_nothing_are_dropped_wherever_they_are_put(
    text: str, inserted: list[tuple[int, str]]
) -> None:
    hidden = text
    for where, char in inserted:
        hidden = hidden[:where] + char + hidden[where:]
    assert text_line(hidden, LIMIT) == text_line(text, LIMIT)


@pytest.mark.parametrize(
    "line",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467 well played",  # a family: zero width joiners
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag: a selector and a joiner
        "\u2764\ufe0f thanks",  # a red heart as emoji
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",  # a region's flag
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a non-joiner inside a word
        "1\ufe0f\u20e3 first",  # a keycap
        "\U0001f44d\U0001f3fd",  # a thumb with a skin tone
    ],
)
def test_emoji_sequences_and_words_that_need_a_joiner_or_selector_are_kept_as_typed(line: str) -> None:
    assert text_line(line, LIMIT) == line
    assert visible_text(line) == line


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("gg\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065", "gg"),  # tags hide words
        ("\u200bhi\u200b", "hi"),
        ("\u200d\U0001f44d", "\U0001f44d"),  # a joiner with nothing before it
        ("\ufe0fok", "ok"),  # a selector with nothing before it
        ("so\u00adft", "soft"),
        ("\ufeffhello", "hello"),
        ("\u3164 \u3164hey", "hey"),
        ("\U0001f3f4\U000e0067\U000e0062", "\U0001f3f4"),  # tags never ended: not a flag
    ],
)
def test_invisible_characters_are_dropped_from_a_line_that_shows_something(typed: str, kept: str) -> None:
    assert text_line(typed, LIMIT) == kept


@pytest.mark.parametrize(
    "typed",
    ["\u200b\u200b\u200b", "\u200d\u200c", "\u00ad", "\u3164\u115f\u1160\uffa0", "\ufeff", "\U000e0041" * 30],
)
def test_a_line_of_only_invisible_characters_is_refused_as_showing_nothing(typed: str) -> None:
    with pytest.raises(TextError, match="not only spaces or invisible characters") as refused:
        text_line(typed, LIMIT)
    assert refused.value.reason == "empty"


def test_a_line_over_the_limit_is_refused_saying_the_limit_never_cut() -> None:
    with pytest.raises(TextError, match="at most 200 characters, not 10000"):
        text_line("x" * 10_000, LIMIT)
