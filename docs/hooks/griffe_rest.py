"""A griffe extension for the API reference: the docstrings' reStructuredText bits, as Markdown.

The docstrings are written for a reader of the source: doctest examples (``>>>``) without a fence,
literal blocks after ``::``, and Sphinx roles such as :class:`~upriver.game.Game`. mkdocstrings reads
docstrings as Markdown, where ``>>>`` is a quotation and a role is stray punctuation, so this turns
each doctest and literal block into a fenced code block and each role into inline code (the last
name only after ``~``, as Sphinx writes it) that links to the object's entry in the API reference
when it has one (an optional cross-reference of mkdocs-autorefs: a name it cannot find stays plain
code, never a broken link), before the page is drawn.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const|ref|term):`(~?)([^`<]*?)(?:\s*<([^>]*)>)?`"
)
"""A Sphinx role: ``:class:`~a.b.C```, ``:func:`f```, ``:ref:`text <target>```."""


def _reference(match: re.Match[str], module: str) -> str:
    """A role as inline code, linked to its object if the API reference has it."""
    tilde, text, target = match.groups()
    name = text.strip()
    identifier = (target or name).strip().lstrip(".")
    if module and not identifier.startswith("upriver"):
        identifier = f"{module}.{identifier}"  # a name relative to the docstring's module
    shown = name.rsplit(".", 1)[-1] if tilde else name
    return f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>'


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def to_markdown(text: str, module: str = "") -> str:
    """``text``, a docstring, with its doctests and literal blocks fenced and its roles as code.

    ``module`` is the path of the docstring's module, against which a role's relative name is read.
    Fenced blocks are left as they are, so rewriting a docstring twice changes nothing more."""

    def role(match: re.Match[str]) -> str:
        return _reference(match, module)

    lines = text.splitlines()
    out: list[str] = []
    index = 0
    fenced = False
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.startswith("```") or fenced:
            fenced = fenced != stripped.startswith("```")  # Markdown already: leave it as it is
            out.append(line)
            index += 1
            continue
        if stripped.startswith(">>>"):
            margin = " " * _indent(line)
            block = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index][len(margin) :] if lines[index].startswith(margin) else lines[index])
                index += 1
            out += [f"{margin}```pycon", *(margin + row for row in block), f"{margin}```"]
            continue
        directive = stripped.startswith(".. code-block::")
        if (stripped.endswith("::") and not stripped.startswith("..")) or directive:
            base = _indent(line)
            ahead = index + 1
            while ahead < len(lines) and not lines[ahead].strip():
                ahead += 1
            if ahead < len(lines) and _indent(lines[ahead]) > base:
                end = ahead
                while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > base):
                    end += 1
                while end > ahead and not lines[end - 1].strip():
                    end -= 1
                lead = "" if directive else stripped[:-2].rstrip()
                language = stripped.removeprefix(".. code-block::").strip() if directive else ""
                if lead:
                    out.append(" " * base + ROLE.sub(role, lead) + ":")
                margin = " " * base
                body = textwrap.dedent("\n".join(lines[ahead:end])).splitlines()
                fence = [
                    f"{margin}```{language}",
                    *(margin + row if row else "" for row in body),
                    f"{margin}```",
                ]
                out += ["", *fence, ""]
                index = end
                continue
        out.append(ROLE.sub(role, line))
        index += 1
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrites every docstring with :func:`to_markdown` once the objects are loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one."""
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value, obj.module.path)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the top package's own docstring, which :meth:`on_object` is not given."""
        self.on_object(obj=pkg)
