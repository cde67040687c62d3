"""The ``upriver`` command line: play, check, review, import, export, keep, arena, selfplay, serve,
backup and restore."""

from __future__ import annotations

from upriver.cli.root import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``upriver`` console script."""
    from upriver.cli import arena, backup, check, keep, pbn, play, review, selfplay, serve  # noqa: F401  (each registers its command)

    app()
