"""The ``--lang`` option of the interactive commands (``play``, ``keep``): which words to say.

The words are :mod:`upriver.i18n`'s catalogues; without ``--lang`` the language is the
terminal's (``$LANGUAGE``, ``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG``), else English.
"""

from __future__ import annotations

from typing import Annotated

import typer

from upriver.i18n import LANGUAGES, Translator, language_from_environment

__all__ = ["LangOption", "translator"]

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=f"Language of the game: {', '.join(LANGUAGES)} (default: from $LANGUAGE or $LANG, else en).",
        show_default=False,
    ),
]


def translator(lang: str | None) -> Translator:
    """The words of ``--lang``, or of the environment when it is not given.

    :raises typer.Exit: (2) for a language there are no words for, saying which there are.
    """
    if lang is None:
        return Translator(language_from_environment())
    code = lang.strip().lower().replace("_", "-").split("-")[0]
    if code not in LANGUAGES:
        t = Translator(language_from_environment())
        typer.echo(
            t(
                "cli.error",
                message=t("cli.unknown_language", lang=repr(lang[:20]), languages=", ".join(LANGUAGES)),
            ),
            err=True,
        )
        raise typer.Exit(2)
    return Translator(code)
