"""The ``upriver`` command line: ``play`` a game in the terminal, ``check`` a record."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="upriver",
    help="Up and Down the River (Oh Hell, Nomination Whist): play, keep and check games.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _commands() -> None:
    """Keep ``upriver`` a group of subcommands even while only one is registered."""


def main() -> None:
    """Entry point of the ``upriver`` console script."""
    from upriver.cli import arena, check, keep, play, serve  # noqa: F401  (each module registers its command)

    app()
