"""Command-line options shared by every command that builds rules: a preset with single options over it.

One flag for each rule option of :data:`upriver.options.OPTIONS` that has command-line help,
made once here and given to ``upriver play``, ``keep`` and ``arena`` by :func:`with_rule_flags`. The
command line only translates its spelling (``--schedule 1,2,1``) into the game record's
(``[1, 2, 1]``); :meth:`Rules.from_options` reads the options, so the command line accepts and
refuses exactly what a record, the web lobby and the score keeper do.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import typer

from upriver.errors import RulesError
from upriver.options import OPTIONS, Kind, RuleOption
from upriver.rules import Rules

__all__ = [
    "NO_FLAGS",
    "RuleFlags",
    "build_rules",
    "schedule_option",
    "scoring_option",
    "with_rule_flags",
]

_R = TypeVar("_R")


def _flag_type(option: RuleOption) -> Any:
    """The annotated type of an option's flag: ``None`` when it is not given."""
    choices = ", ".join(option.spelled(value) for value in option.choices)
    text = (option.help or "").format(choices=choices)
    if option.kind is Kind.SWITCH:
        flag = typer.Option(f"{option.flag}/--no-{option.flag[2:]}", help=text, show_default=False)  # type: ignore[index]
        return Annotated[bool | None, flag]
    if option.kind is Kind.WHOLE:
        return Annotated[int | None, typer.Option(option.flag, help=text)]
    if option.name == "schedule":  # its help lists the written schedules and the hand-size list itself
        return Annotated[str | None, typer.Option(option.flag, help=text)]
    return Annotated[str | None, typer.Option(option.flag, help=text, show_default=False)]


FLAGGED: tuple[RuleOption, ...] = tuple(option for option in OPTIONS if option.flag is not None)
"""The rule options the command line has a flag for, in the table's order."""


@dataclasses.dataclass(frozen=True, slots=True)
class RuleFlags:
    """The rule options given on the command line, by name, as typed (only those given)."""

    given: Mapping[str, object]

    def rules(self, preset_name: str | None, players: int) -> Rules:
        """The preset's rules with these options over them (:func:`build_rules`).

        :raises RulesError: with the engine's sentence, for options it refuses.
        """
        return build_rules(preset_name, players, **self.given)


NO_FLAGS = RuleFlags({})
"""No rule option given: the default of a command's ``rule_flags`` parameter, which the flags replace."""


def with_rule_flags(command: Callable[..., _R]) -> Callable[..., _R]:
    """``command`` with one flag for each rule option, in place of its ``rule_flags: RuleFlags`` parameter.

    The flags come in the table's order where that parameter stands (after ``--preset`` in every
    command), and ``command`` gets the ones given as one :class:`RuleFlags`.
    """
    signature = inspect.signature(command, eval_str=True)
    flags = [
        inspect.Parameter(
            option.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=_flag_type(option)
        )
        for option in FLAGGED
    ]
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name == "rule_flags":
            parameters += flags
        else:
            parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))

    @functools.wraps(command)
    def with_flags(**arguments: Any) -> _R:
        given = {option.name: arguments.pop(option.name) for option in FLAGGED}
        chosen = RuleFlags({name: value for name, value in given.items() if value is not None})
        return command(**arguments, rule_flags=chosen)

    with_flags.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return with_flags


def scoring_option(text: str) -> str | object:
    """``--scoring`` as the record spells it: a name stays text; ``{…}`` is a custom scoring's object.

    :raises RulesError: for text that starts like an object but is not one.
    """
    if not text.lstrip().startswith("{"):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise RulesError(
            "--scoring must be a scoring's name or a custom scoring as a JSON object such as "
            f'\'{{"exact_bonus": 20, "per_trick": 2}}\', not {text!r}',
            option="scoring",
        )
    return value


def schedule_option(text: str) -> str | list[int]:
    """``--schedule`` as the record spells it: hand sizes ``1,2,1`` become ``[1, 2, 1]``; a name stays text.

    :raises RulesError: for a list of hand sizes that are not all whole numbers (``1,x``).
    """
    if not any(char.isdigit() or char == "," for char in text):
        return text
    try:
        return [int(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        raise RulesError(
            f"--schedule must be up-down, down-up or hand sizes like 1,2,1; not {text!r}", option="schedule"
        ) from None


def build_rules(preset_name: str | None, players: int, **options: object) -> Rules:
    """The preset's rules with the command line's options laid over them, by :meth:`Rules.from_options`.

    ``options`` are rule options by name as the command line spells them (``schedule="1,2,1"``, a
    custom ``scoring`` as JSON); ``None`` is an option not given.

    :raises RulesError: with the engine's sentence, for options it refuses.
    """
    spelled: dict[str, object] = {"preset": preset_name, **options}
    schedule, scoring = spelled.get("schedule"), spelled.get("scoring")
    if isinstance(schedule, str):
        spelled["schedule"] = schedule_option(schedule)
    if isinstance(scoring, str):
        spelled["scoring"] = scoring_option(scoring)
    return Rules.from_options(spelled, player_count=players)
