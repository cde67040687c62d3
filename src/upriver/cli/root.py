"""The ``upriver`` command group: each command module registers its subcommand on :data:`app`.

Apart from :mod:`upriver.cli` itself, so that the package's :func:`~upriver.cli.main`
can import the command modules without those importing the package back.
"""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(
    name="upriver",
    help="Up and Down the River (Oh Hell, Nomination Whist): play, keep and check games.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _commands() -> None:
    """Keep ``upriver`` a group of subcommands even while only one is registered."""
