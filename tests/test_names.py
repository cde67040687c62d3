"""What a player's name may be: one decision for the web tables, the keeper, the terminal and records."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upriver.names import (
    MAX_NAME_LENGTH,
    PlayerNameError,
    TextError,
    check_names,
    name_key,
    player_name,
    quoted,
    text_line,
    visible_text,
)


def test_a_name_is_trimmed_and_kept_in_its_composed_form() -> None:
    assert player_name("  A\u030asa  ") == "Åsa"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * (MAX_NAME_LENGTH + 1), "too long"),
        ("Bea\ud800", "surrogate"),
        ("Ann\nBob", "control"),
        ("Ann\x00", "control"),
        ("\u202eAnn", "control"),
        (7, "not text"),
        (None, "not text"),
    ],
)
def test_a_name_that_cannot_be_shown_safely_is_refused_with_its_reason(value: object, reason: str) -> None:
    with pytest.raises(PlayerNameError) as info:
        player_name(value, seat=2)
    assert info.value.reason == reason
    assert info.value.seat == 2
    assert "\n" not in str(info.value)


def test_names_at_one_table_differ_in_more_than_case_and_spaces() -> None:
    assert name_key(" Ann  Marie ") == name_key("annmarie")
    with pytest.raises(PlayerNameError, match="already at the table as 'Ann Marie' \\(seat 0\\)") as info:
        check_names(["Ann Marie", "Bob", "annmarie"])
    assert (info.value.reason, info.value.seat) == ("taken", 2)
    assert check_names([" Ann", "Bob "]) == ("Ann", "Bob")


@given(st.text())
def test_any_text_is_either_a_printable_name_or_refused(value: str) -> None:
    try:
        name = player_name(value)
    except PlayerNameError as error:
        message = str(error)
        assert "\n" not in message
        assert len(message) < 300
        message.encode("utf-8")
    else:
        name.encode("utf-8")
        assert 1 <= len(name) <= MAX_NAME_LENGTH
        assert name == name.strip()
        assert "\n" not in name


@given(st.text(max_size=5000) | st.binary().map(repr))
def test_a_quoted_value_is_one_bounded_line_of_valid_text(value: str) -> None:
    excerpt = quoted(value)
    assert "\n" not in excerpt
    assert len(excerpt) <= 44
    excerpt.encode("utf-8")


def test_a_huge_value_is_quoted_by_an_excerpt() -> None:
    excerpt = quoted("x" * 20_000_000)
    assert excerpt.startswith("'xxx")
    assert excerpt.endswith("…'")
    assert len(excerpt) < 50


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "empty"),
        ("well\tplayed", "control"),
        ("  ", "empty"),
        ("x" * 201, "too long"),
        ("well\nplayed", "control"),
        ("\u2067oops", "control"),
        ("oops\ud83d", "surrogate"),
        (b"oops", "not text"),
    ],
)
def test_a_chat_line_follows_the_rules_of_a_name_but_for_its_length(value: object, reason: str) -> None:
    with pytest.raises(TextError) as info:
        text_line(value, 200)
    assert (info.value.reason, info.value.limit) == (reason, 200)
    assert "\n" not in str(info.value)
    assert text_line(" " + "y" * 200 + " ", 200) == "y" * 200
    assert text_line("<b>A\u030asa</b>", 200) == "<b>Åsa</b>"


@given(st.text(max_size=300))
def test_any_text_is_either_one_line_kept_as_typed_or_refused(value: str) -> None:
    try:
        line = text_line(value, 200)
    except TextError as error:
        reason, message = error.reason, str(error)
        assert reason in ("empty", "too long", "surrogate", "control")
        assert "\n" not in message
        assert len(message) < 300
    else:
        line.encode("utf-8")
        assert 1 <= len(line) <= 200
        assert line == visible_text(value)  # trimmed, NFC, what shows nothing dropped
        assert not any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in line)
        assert not set(line) & set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
