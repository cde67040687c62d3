"""JSON as the record reader takes it: plain JSON within limits, and values shown in bounded excerpts.

A record comes from anyone, so the reader decides once what JSON it follows
(docs/record.md §4.1): no ``NaN`` or ``Infinity`` (not JSON), no key twice in one
object (two readers would see two records), no number of more than
:data:`MAX_DIGITS` digits, nothing nested more than :data:`MAX_DEPTH` deep, and
text that is valid Unicode. Every refusal is a :class:`RecordError` of one line,
which quotes what it refuses with :func:`shown`, never in full.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable

from upriver.errors import RecordError
from upriver.names import quoted

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_MESSAGE",
    "check_json",
    "clipped",
    "decode",
    "kind",
    "printable",
    "shown",
]

MAX_DEPTH = 32
"""The most lists and objects inside one another a record may hold (its own structure needs 4)."""

MAX_DIGITS = 4300
"""The most digits a number may have: Python's own limit for reading whole numbers."""

MAX_MESSAGE = 300
"""The most characters of a message about a record (a breach, or why it is not one), after the file name."""

_MAX_BITS = math.floor(MAX_DIGITS * math.log2(10))
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,30}")
_NOT_FOLLOWED = "record: not JSON this reader can follow: "


def kind(value: object) -> str:
    """How JSON would name a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def printable(text: str) -> str:
    """``text`` with anything that is not printable (a newline, a lone surrogate) escaped, as in ``repr``."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def clipped(text: str) -> str:
    """``text`` cut to :data:`MAX_MESSAGE` characters, its last one ``…`` when cut."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def shown(value: object) -> str:
    """A value for a message: a bounded one-line excerpt of text or a number, else its kind.

    Lists and objects are named, not printed, so a message never walks a hostile structure.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {math.floor(value.bit_length() * math.log10(2)) + 1} digits"
    if value is None or isinstance(value, str | int | float):
        return quoted(value)
    return kind(value)


def _no_constant(name: str) -> object:
    raise RecordError(f"{_NOT_FOLLOWED}{name} is not JSON (a number must be finite)")


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordError(f"{_NOT_FOLLOWED}a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise RecordError(f"{_NOT_FOLLOWED}the key {quoted(twice)} appears twice in one object")
    return found


def decode(text: str) -> object:
    """The JSON value of ``text`` (a leading byte order mark is skipped), within this reader's limits."""
    try:
        return json.loads(
            text.removeprefix("\ufeff"),
            parse_constant=_no_constant,
            parse_int=_whole_number,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as error:
        raise RecordError(
            f"record: not JSON: line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise RecordError(f"{_NOT_FOLLOWED}nested too deeply (at most {MAX_DEPTH})") from None
    except RecordError:
        raise
    except ValueError as error:  # e.g. a float literal Python cannot convert; keep it to one line
        raise RecordError(f"{_NOT_FOLLOWED}{quoted(str(error), 80)}") from None


def _segment(key: object) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    if isinstance(key, str) and _NAME.fullmatch(key):
        return f".{key}"
    return f"[{quoted(key)}]"


def _path(where: str, keys: list[object]) -> str:
    path = where + "".join(_segment(key) for key in keys)
    return path if len(path) <= 120 else f"{path[:80]}…{_segment(keys[-1])}"


def _scalar_problem(item: object) -> str | None:
    """Why a value that is not a list or object is not JSON this reader takes, or ``None``."""
    if isinstance(item, str):
        found = _SURROGATE.search(item)
        if found:
            return (
                f"text must be valid Unicode; {quoted(item)} holds a lone surrogate "
                f"(U+{ord(found.group()):04X})"
            )
    elif isinstance(item, float):
        if not math.isfinite(item):
            return f"{item} is not JSON (a number must be finite)"
    elif isinstance(item, int) and not isinstance(item, bool):
        if item.bit_length() > _MAX_BITS:
            return f"{shown(item)} (at most {MAX_DIGITS})"
    elif item is not None and not isinstance(item, bool):
        return f"{kind(item)} is not a JSON value"
    return None


def check_json(value: object, where: str, depth: int) -> None:
    """Refuse what :func:`decode` refuses in a value already decoded (by another reader).

    ``where`` is the value's path in the document and ``depth`` how many lists and
    objects hold it there (1 for a key of the document). Checks without recursion,
    so any structure can be checked, in time linear in its size.
    """
    stack: list[tuple[object, int, list[object]]] = [(value, depth, [])]
    while stack:
        item, level, keys = stack.pop()
        if not isinstance(item, list | dict):
            problem = _scalar_problem(item)
            if problem:
                raise RecordError(f"{_path(where, keys)}: {problem}")
            continue
        if level + 1 > MAX_DEPTH:
            raise RecordError(f"{_path(where, keys)}: nested more than {MAX_DEPTH} deep")
        pairs: Iterable[tuple[object, object]] = item.items() if isinstance(item, dict) else enumerate(item)
        for key, inner in pairs:
            if isinstance(item, dict) and (not isinstance(key, str) or _SURROGATE.search(key)):
                problem = f"a key must be valid text, not {shown(key)}"
                raise RecordError(f"{_path(where, keys)}: {problem}")
            if isinstance(inner, list | dict):
                stack.append((inner, level + 1, [*keys, key]))
            else:
                problem = _scalar_problem(inner)
                if problem:
                    raise RecordError(f"{_path(where, [*keys, key])}: {problem}")
