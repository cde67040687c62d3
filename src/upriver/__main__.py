"""``python -m upriver``: the same command line as ``upriver``."""

from upriver.cli import main

main()
