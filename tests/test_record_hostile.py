"""The record reader against hostile input: whatever a document holds, the answer is a
:class:`RecordError` (or a rule breach) of one bounded line quoting an excerpt, never a hang or a crash."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import record_doc, round_doc
from upriver.errors import RecordError
from upriver.record import RecordRuleError, dumps, load, loads, parse_record, replay
from upriver.record.decoding import MAX_MESSAGE

HOSTILE_TEXT: list[tuple[str, str, str]] = [
    (
        "4301-digit number",
        json.dumps(record_doc()).replace('"dealer": 0', '"dealer": ' + "9" * 4301),
        "4301 digits",
    ),
    ("NaN", json.dumps(record_doc()).replace('"dealer": 0', '"dealer": NaN'), "NaN is not JSON"),
    (
        "Infinity",
        json.dumps(record_doc()).replace('"dealer": 0', '"dealer": -Infinity'),
        "-Infinity is not JSON",
    ),
    ("nested 100,000 deep", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (
        "duplicate key",
        json.dumps(record_doc()).replace('"format"', '"players": ["Ann", "Bob", "Cid", "Eve"], "format"'),
        "the key 'players' appears twice in one object",
    ),
]


@pytest.mark.parametrize(("text", "message"), [c[1:] for c in HOSTILE_TEXT], ids=[c[0] for c in HOSTILE_TEXT])
def test_hostile_json_text_is_refused_as_not_json_this_reader_can_follow(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        loads(text)
    line = str(caught.value)
    assert line.startswith("record: not JSON this reader can follow: ")
    assert message in line
    assert "\n" not in line
    assert len(line) <= MAX_MESSAGE


HUGE = "x" * 1_000_000
HOSTILE_VALUES: list[tuple[str, Any, str]] = [
    ("huge format", record_doc(format=HUGE), "format: unknown format 'xxxx"),
    ("huge card", round_doc(plays=["7H", HUGE, "KD", "AS"]), "rounds[0].plays[1]: unknown card 'xxxx"),
    (
        "huge card of spaces",
        round_doc(plays=["7H", " " * 10**6, "KD", "AS"]),
        "rounds[0].plays[1]: unknown card",
    ),
    (
        "huge suit",
        record_doc(rounds=[{"dealer": 0, "bids": [0] * 4, "trump": HUGE}]),
        "rounds[0].trump: unknown suit",
    ),
    ("huge name", record_doc(players=["Ann", HUGE, "Cid", "Dee"]), "players[1]: a name may have at most 24"),
    ("huge dealer", round_doc(dealer=10**4000), "rounds[0].dealer: seat a number of about 4001 digits"),
    (
        "long list as dealer",
        round_doc(dealer=[0] * 10**6),
        "rounds[0].dealer: the dealer must be a whole number",
    ),
    (
        "long list as format",
        record_doc(format=[[0] * 1000] * 1000),
        "format: unknown format a list: expected",
    ),
    (
        "float dealer",
        round_doc(dealer=1.0),
        "rounds[0].dealer: the dealer must be a whole number, not a number 1.0",
    ),
    ("bool bid", round_doc(bids=[True, 1, 0, 1]), "rounds[0].bids[0]: a bid must be a whole number"),
    (
        "hand as text",
        round_doc(hands=["AS", ["7H"], ["2C"], ["KD"]]),
        "rounds[0].hands[0]: a hand must be a list",
    ),
    ("negative dealer", round_doc(dealer=-1), "rounds[0].dealer: seat -1 does not exist"),
    (
        "name with a newline",
        record_doc(players=["Ann", "Bob\n", "Cid\nDee", "Eve"]),
        "players[2]: a name may not hold",
    ),
    (
        "name with a surrogate",
        record_doc(players=["Ann", "B\ud800b", "Cid", "Dee"]),
        "players[1]: a name must be valid",
    ),
    (
        "name that is not text",
        record_doc(players=["Ann", 7, "Cid", "Dee"]),
        "players[1]: a name must be text, not 7",
    ),
    (
        "name only spaces",
        record_doc(players=["Ann", " ", "Cid", "Dee"]),
        "players[1]: a name must have at least one",
    ),
    (
        "names alike but for case",
        record_doc(players=["Ann", "Bob", " bOB", "Dee"]),
        "players[2]: 'bOB' is already",
    ),
    ("huge rule value", record_doc(rules={"scoring": HUGE}), "rules.scoring: scoring must be one of"),
    ("huge preset", record_doc(rules={"preset": HUGE}), "rules.preset: unknown preset"),
]


@pytest.mark.parametrize(
    ("data", "message"), [c[1:] for c in HOSTILE_VALUES], ids=[c[0] for c in HOSTILE_VALUES]
)
def test_hostile_values_are_refused_with_one_bounded_line_quoting_an_excerpt(data: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    line = str(caught.value)
    assert line.startswith(message)
    assert "\n" not in line
    assert len(line) <= MAX_MESSAGE


def test_names_are_read_trimmed_and_in_nfc_as_every_entry_point_reads_them() -> None:
    record = parse_record(record_doc(players=["  Ann ", "A\u030asa", "Cid", "Dee"]))
    assert record.players == ("Ann", "\u00c5sa", "Cid", "Dee")
    assert json.loads(dumps(record))["players"] == ["Ann", "\u00c5sa", "Cid", "Dee"]


def test_a_leading_byte_order_mark_is_read_past() -> None:
    assert loads("\ufeff" + json.dumps(record_doc())) == loads(json.dumps(record_doc()))


def test_a_file_with_a_byte_order_mark_loads(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record_doc()).encode())
    assert load(path) == loads(json.dumps(record_doc()))


def test_an_extra_nested_more_than_32_deep_is_refused_with_its_path() -> None:
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(record_doc(note=[])).replace("[]", "[" * 900 + "]" * 900))
    assert str(caught.value) == f"record.note{'[0]' * 31}: nested more than 32 deep"
    parse_record(record_doc(note=json.loads("[" * 31 + "]" * 31)))


def test_a_breach_quoting_a_huge_number_is_one_bounded_line() -> None:
    with pytest.raises(RecordRuleError) as caught:
        replay(parse_record(round_doc(bids=[0, 10**4000, 0, 1])))
    error = caught.value
    assert "\n" not in str(error)
    assert str(error).startswith("round 1, Bob: may not bid 10000000… (4001 digits)")
    assert len(str(error)) <= MAX_MESSAGE


def test_a_file_that_cannot_be_read_is_one_line_whatever_its_name(tmp_path: Any) -> None:
    with pytest.raises(RecordError) as caught:
        load(tmp_path / "two\nlines.json")
    assert str(caught.value) == f"{tmp_path / 'two'}\\nlines.json: cannot be read: No such file or directory"
