"""Portable Bridge Notation (PBN 2.1) as text: games made of tag pairs and their sections.

This module reads and writes the notation only; what an Oh Hell hand means in it (Trickster
Cards' tags, seats and rules) is :mod:`upriver.record.trickster`. The conventions followed are
PBN 2.1's (Tis Veugen and others, https://www.tistis.nl/pbn/pbn_v21.txt):

- a tag pair is ``[Name "value"]``; in the value ``\\"`` stands for a quote and ``\\\\`` for a
  backslash;
- a line beginning with ``%`` is an escape line (``% PBN 2.1``, ``% EXPORT``), read as nothing;
- ``;`` starts a comment to the end of the line, ``{`` one that runs to the next ``}``, over
  lines if need be;
- the tokens after a tag pair, up to the next tag pair, are that tag's *section* (the Auction's
  calls, the Play's cards);
- an empty line ends a game.

Readers in the wild are lenient, and so is this one, in three ways met in hands that players
pasted from Trickster Cards into bug reports (docs/trickster.md):

- a value's quote closes it only when a ``]`` or the end of the line follows, so that
  ``[GameOptionsJson "{"hookRule":false}"]``, written with its inner quotes unescaped, reads as
  the JSON it holds;
- a tag pair missing its closing ``]`` at the end of its line is read;
- an empty line between two tag pairs of one game (pasted text often has one after every line)
  starts a new game only when the tags after it name a tag the game already has.

:func:`format_games` writes PBN's export form: the two escape lines, each tag pair on a line
of its own, a section's rows under its tag, an empty line between games.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping

from upriver.errors import RecordError
from upriver.names import quoted

__all__ = ["PbnError", "PbnGame", "Tag", "Token", "format_games", "looks_like_pbn", "parse"]

_EXCERPT = 40
"""Characters of a refused value a message quotes at most."""

_TAG_START = re.compile(r'\[\s*[A-Za-z_][A-Za-z0-9_]*\s*"')
"""How a text that begins with a tag pair begins: a JSON list never does."""


class PbnError(RecordError):
    """A PBN text that is not a hand upriver can read, or a record that cannot be written as one.

    The facts are data: ``tag`` the tag pair at fault (``"Deal"``; ``None`` when no single tag
    is), ``line`` its line in the text (1-based; ``None`` when writing), ``problem`` what is
    wrong, ``expected`` what would be right, and ``found`` the text refused (a bounded excerpt)
    when there is one. The message says all of them in one line.
    """

    def __init__(
        self,
        problem: str,
        *,
        expected: str,
        tag: str | None = None,
        line: int | None = None,
        found: str | None = None,
    ) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if tag is not None:
            where.append(f"tag {tag}")
        head = ", ".join(where)
        shown = "" if found is None else f" {quoted(found, _EXCERPT)}"
        super().__init__(f"{head + ': ' if head else ''}{problem}{shown}; {expected}")
        self.problem = problem
        self.expected = expected
        self.tag = tag
        self.line = line
        self.found = None if found is None else found[: _EXCERPT * 4]

    def facts_json(self) -> dict[str, object]:
        """The facts as JSON data: ``{"tag", "line", "problem", "expected", "found"}``."""
        return {
            "tag": self.tag,
            "line": self.line,
            "problem": self.problem,
            "expected": self.expected,
            "found": self.found,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Token:
    """One token of a section (a call, a card, ``-``, ``*``) and the line it stands on."""

    text: str
    line: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Tag:
    """A tag pair, the line it stands on, and its section's tokens (empty for most tags)."""

    name: str
    value: str
    line: int = 0
    section: tuple[Token, ...] = ()

    @staticmethod
    def of(name: str, value: str, rows: Iterable[Iterable[str]] = ()) -> Tag:
        """A tag to write: its section given as rows of tokens, each row a line of its own."""
        tokens = tuple(Token(text, number) for number, row in enumerate(rows) for text in row)
        return Tag(name, value, 0, tokens)

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """The section's tokens, one tuple per line they stand on."""
        rows: list[list[str]] = []
        last: int | None = None
        for token in self.section:
            if token.line != last or not rows:
                rows.append([])
                last = token.line
            rows[-1].append(token.text)
        return tuple(tuple(row) for row in rows)


@dataclasses.dataclass(frozen=True, slots=True)
class PbnGame:
    """One game of a PBN text: its tag pairs in the order written."""

    tags: tuple[Tag, ...]

    def get(self, name: str) -> Tag | None:
        """The tag pair of this name (its first, as PBN ignores a repeated one), or ``None``."""
        return next((tag for tag in self.tags if tag.name == name), None)

    def values(self) -> Mapping[str, str]:
        """Each tag's value by name, the first of a repeated one."""
        out: dict[str, str] = {}
        for tag in self.tags:
            out.setdefault(tag.name, tag.value)
        return out


def looks_like_pbn(text: str) -> bool:
    """Whether ``text`` is PBN rather than JSON: it begins (after spaces, and after ``{ … }``
    comments) with a tag pair (``[Name "``, never a JSON list), ``%`` or ``;``. A ``{`` that no
    ``}`` closes, or that is not followed by PBN, is a JSON object's."""
    body = text.removeprefix("\ufeff").lstrip()
    while body[:1] == "{":
        end = body.find("}")
        if end < 0:
            return False
        body = body[end + 1 :].lstrip()
    if body[:1] in ("%", ";"):
        return True
    return body[:1] == "[" and _TAG_START.match(body) is not None


def _tag(line: str, start: int, number: int) -> tuple[Tag, int]:
    """The tag pair opening at ``line[start]`` (a ``[``) and where reading goes on."""
    pos = start + 1
    while pos < len(line) and line[pos] in " \t":
        pos += 1
    name_start = pos
    while pos < len(line) and (line[pos].isalnum() or line[pos] == "_"):
        pos += 1
    name = line[name_start:pos]
    if not name:
        raise PbnError(
            "a tag pair without a name",
            line=number,
            found=line[start:],
            expected='a tag pair is a name and a quoted value, like [Dealer "W"]',
        )
    while pos < len(line) and line[pos] in " \t":
        pos += 1
    if pos >= len(line) or line[pos] != '"':
        raise PbnError(
            "the tag's value is not in quotes",
            tag=name,
            line=number,
            found=line[start:],
            expected=f'write it as [{name} "value"]',
        )
    pos += 1
    value: list[str] = []
    while True:
        if pos >= len(line):
            raise PbnError(
                "the tag's value has no closing quote",
                tag=name,
                line=number,
                found=line[start:],
                expected=f'write it as [{name} "value"] on one line',
            )
        char = line[pos]
        if char == "\\" and pos + 1 < len(line) and line[pos + 1] in '"\\':
            value.append(line[pos + 1])
            pos += 2
            continue
        if char == '"':
            rest = line[pos + 1 :].lstrip(" \t")
            if not rest or rest[0] == "]":
                # A quote closes the value only before the ] (or the line's end: Trickster
                # Cards has written a tag pair without its ]); one inside is part of it.
                end = len(line) - len(rest)
                return Tag(name, "".join(value), number), end + (1 if rest else 0)
        value.append(char)
        pos += 1


@dataclasses.dataclass
class _Reading:
    """The games read so far, the game being read, and where its last run of lines after an empty
    line began (``chunk``), should that run turn out to be the next game."""

    games: list[list[Tag]] = dataclasses.field(default_factory=list)
    current: list[Tag] = dataclasses.field(default_factory=list)
    tokens: list[Token] = dataclasses.field(default_factory=list)
    chunk: int | None = None

    def close_tag(self) -> None:
        if self.current and self.tokens:
            last = self.current[-1]
            self.current[-1] = dataclasses.replace(last, section=last.section + tuple(self.tokens))
        self.tokens = []

    def empty_line(self) -> None:
        self.close_tag()
        if self.current:
            self.chunk = len(self.current)

    def add_tag(self, tag: Tag) -> None:
        self.close_tag()
        if self.chunk is not None and any(t.name == tag.name for t in self.current[: self.chunk]):
            # The lines since the empty line name a tag the game had before it: a new game.
            self.games.append(self.current[: self.chunk])
            self.current = self.current[self.chunk :]
            self.chunk = None
        self.current.append(tag)

    def finish(self) -> tuple[PbnGame, ...]:
        self.close_tag()
        if self.current:
            self.games.append(self.current)
        return tuple(PbnGame(tuple(tags)) for tags in self.games)


def parse(text: str) -> tuple[PbnGame, ...]:
    """The games of a PBN text, each a tuple of tag pairs with their sections.

    :raises PbnError: for text that is not PBN: a token before any tag pair, a tag pair that
        is not ``[Name "value"]``, a ``{`` comment never closed.
    """
    reading = _Reading()
    brace_from: int | None = None
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        pos = 0
        if brace_from is not None:
            end = line.find("}")
            if end < 0:
                continue
            brace_from = None
            pos = end + 1
        elif line.startswith("%"):
            continue
        if not line[pos:].strip():
            if pos == 0:
                reading.empty_line()
            continue
        while pos < len(line):
            char = line[pos]
            if char.isspace():
                pos += 1
            elif char == ";":
                break
            elif char == "{":
                end = line.find("}", pos + 1)
                if end < 0:
                    brace_from = number
                    break
                pos = end + 1
            elif char == "[":
                tag, pos = _tag(line, pos, number)
                reading.add_tag(tag)
            else:
                end = pos
                while end < len(line) and not line[end].isspace() and line[end] not in ";{[":
                    end += 1
                if not reading.current:
                    raise PbnError(
                        "text before the first tag pair",
                        line=number,
                        found=line[pos:end],
                        expected='a PBN game begins with tag pairs such as [Event "…"] and [Deal "…"]',
                    )
                reading.tokens.append(Token(line[pos:end], number))
                pos = end
    if brace_from is not None:
        raise PbnError("a comment opened with { is never closed", line=brace_from, expected="close it with }")
    return reading.finish()


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_games(games: Iterable[PbnGame]) -> str:
    """PBN text in export form: ``% PBN 2.1`` and ``% EXPORT``, then the games, an empty line
    between two; each tag pair on a line of its own, its section's rows under it."""
    blocks = []
    for game in games:
        lines = []
        for tag in game.tags:
            lines.append(f'[{tag.name} "{_escaped(tag.value)}"]')
            lines.extend(" ".join(row) for row in tag.rows)
        blocks.append("\n".join(lines))
    return "% PBN 2.1\n% EXPORT\n" + "\n\n".join(blocks) + "\n"
