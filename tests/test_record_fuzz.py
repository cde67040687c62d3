"""Fuzzed records: golden records mutated at random paths never crash the reader or `upriver check`.

Whatever a record file holds, ``upriver check`` exits 0, 1 or 2; on 1 or 2 it prints exactly
one bounded line on standard error and nothing else; ``--json`` prints JSON that parses. The
reader's Python API raises only :class:`RecordError` (and a replay only
:class:`RecordRuleError`), each a bounded line.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import upriver.cli.check  # noqa: F401  (registers the command)
from upriver.cli import app
from upriver.errors import RecordError
from upriver.record import Record, RecordRuleError, loads, parse_record, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
DOCUMENTS = [json.loads(path.read_text(encoding="utf-8")) for path in GOLDEN]
LINE_LIMIT = 300
runner = CliRunner()
T = TypeVar("T")

# Raw JSON text that json.dumps cannot make (or that is not JSON at all), put in by placeholder.
RAW = [
    "9" * 4301,
    "-" + "1" * 5000,
    "[" * 3000 + "]" * 3000,
    '{"a": ' * 900 + "1" + "}" * 900,
    "NaN",
    "-Infinity",
    "1e999",
    "1.0",
    "-0",
    '{"k": 1, "k": 2}',
]
HOSTILE_TEXT = [
    "B\ud800b",
    "\udfff",
    "Cid\nDee",
    "\u202eeeD",
    "x" * 100_000,
    " ",
    "",
    "  Ann ",
    "ANN",
    "10h",
    "\x00",
    "A\u030asa",
]


def placeholder(index: int) -> str:
    return f"@@raw{index}@@"


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.integers(-3, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(HOSTILE_TEXT),
    st.sampled_from([placeholder(i) for i in range(len(RAW))]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (keys and indices), the empty path first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A golden record with one to three values replaced, deleted or inserted at random paths."""
    document: Any = copy.deepcopy(draw(st.sampled_from(DOCUMENTS)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(document)))
        value = draw(json_value)
        if not path:
            document = value if draw(st.booleans()) else document
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        action = draw(st.sampled_from(["replace", "delete", "insert"]))
        if action == "replace":
            parent[last] = value
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, list):
            parent.insert(last, value)
        else:
            parent[draw(st.sampled_from(["extra", "seed", "tricks", "trump", "turned", "plays"]))] = value
    return document


def text_of(document: Any) -> str:
    """The document as JSON text, placeholders replaced by their raw text."""
    text = json.dumps(document)
    for index, raw in enumerate(RAW):
        text = text.replace(json.dumps(placeholder(index)), raw)
    return text


@st.composite
def record_bytes(draw: st.DrawFn) -> bytes:
    """A mutated record's UTF-8 bytes, sometimes with a BOM, a stray byte or cut short."""
    data = text_of(draw(mutated())).encode("utf-8")
    damage = draw(st.sampled_from(["none", "none", "none", "bom", "byte", "cut"]))
    if damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "byte":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"])) + data[at:]
    elif damage == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    return data


def assert_answer(code: int, out: str, err: str, path: Path, as_json: bool) -> None:
    """What `upriver check` promises, whatever the file held."""
    assert code in (0, 1, 2), err[-2000:]
    assert "Traceback" not in err
    if code == 0:
        assert err == ""
        if as_json:
            summary = json.loads(out)
            assert list(summary) == ["rounds", "totals", "complete", "winners"]
        return
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1, err[:2000]
    prefix = f"{path}: " + ("rule broken: " if code == 1 else "")
    assert err.startswith(prefix)
    assert len(err) - 1 - len(f"{path}: ") <= LINE_LIMIT, err[:2000]


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=record_bytes(), as_json=st.booleans())
def test_upriver_check_answers_every_mutated_record_with_exit_0_1_or_2_and_one_bounded_line(
    fuzz_dir: Path, data: bytes, as_json: bool
) -> None:
    path = fuzz_dir / "game.json"
    path.write_bytes(data)
    result = runner.invoke(app, ["check", str(path), *(["--json"] if as_json else [])])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert_answer(result.exit_code, result.stdout, result.stderr, path, as_json)


def outcome(action: Callable[[], T]) -> T | Exception:
    """What ``action`` returns, or the exception it raises (any kind, to be checked)."""
    try:
        return action()
    except Exception as error:  # the property is which kinds of error can come out
        return error


def assert_one_bounded_line(error: Exception) -> None:
    assert "\n" not in str(error)
    assert len(str(error)) <= LINE_LIMIT


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(document=mutated())
def test_the_reader_raises_only_record_errors_and_a_replay_only_rule_breaches(document: Any) -> None:
    text = text_of(document)
    readers: list[Callable[[], Record]] = [lambda: loads(text), lambda: parse_record(document)]
    for read in readers:
        record = outcome(read)
        if isinstance(record, Exception):
            assert isinstance(record, RecordError), repr(record)
            assert isinstance(record, ValueError)
            assert_one_bounded_line(record)
            continue
        game = outcome(partial(replay, record))
        if isinstance(game, Exception):
            assert isinstance(game, RecordRuleError), repr(game)
            assert_one_bounded_line(game)


def test_the_real_command_answers_a_few_hostile_records_in_a_subprocess(tmp_path: Path) -> None:
    names = copy.deepcopy(DOCUMENTS[0])
    names["players"][1] = "B\ud800b\nx" * 10
    names["rounds"][1]["plays"][0] = placeholder(0)
    huge_bid = copy.deepcopy(DOCUMENTS[1])
    huge_bid["rounds"][0]["bids"][2] = 10**40
    deep = copy.deepcopy(DOCUMENTS[2])
    deep["note"] = placeholder(3)
    samples = [
        (text_of(names).encode(), [], 2),
        (b"\xef\xbb\xbf" + text_of(huge_bid).encode(), ["--json"], 1),
        (text_of(deep).encode(), [], 2),
    ]
    for index, (data, options, expected) in enumerate(samples):
        path = tmp_path / f"sample{index}.json"
        path.write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "upriver", "check", str(path), *options],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == expected, done.stderr[:2000]
        assert_answer(done.returncode, done.stdout, done.stderr, path, bool(options))
