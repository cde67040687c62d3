"""What a player's name may be: one decision for the web tables, the keeper, the terminal and records."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upriver.names import MAX_NAME_LENGTH, PlayerNameError, check_names, name_key, player_name, quoted


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
