"""A table's own settings (not its rules), their names, defaults and the values each may take.

The create form sends them beside the rule options; a table keeps them in its stored configuration,
each under its own name (``{"clock": 30, "level": "normal", …}``), so a table stored before a
setting existed reads that setting's default. The state's ``options`` carries all but the pace,
which the state gives on its own (:mod:`upriver.web.play.protocol`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from upriver.bots import BOT_KINDS
from upriver.web.play.bots import DEFAULT_PACE, PACES, PaceName

__all__ = ["CLOCK_SECONDS", "SettingError", "TableSettings"]

CLOCK_SECONDS = (10, 300)
"""The shortest and longest clock a table may have (0: none)."""


class SettingError(ValueError):
    """A table setting that is not one, or a value it cannot have; ``setting`` names it and the
    sentence says what would do."""

    def __init__(self, message: str, *, setting: str) -> None:
        super().__init__(message)
        self.setting = setting


@dataclasses.dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's own settings, each checked when made (:class:`SettingError` says what is wrong)."""

    clock: int = 0
    """Seconds a person has for a move before a bot moves for them (0: no clock)."""
    level: str = "normal"
    """The bot kind that plays for a person (their clock ran out, they left, or were handed over);
    read without case or surrounding spaces."""
    hints: bool = False
    """Whether the seats may ask for a hint (a practice table)."""
    spectator_chat: bool = False
    """Whether spectators may write in the table's chat."""
    pace: PaceName = DEFAULT_PACE
    """How fast the bots move (:data:`upriver.web.play.bots.PACES`)."""

    def __post_init__(self) -> None:
        clock = self.clock
        low, high = CLOCK_SECONDS
        if isinstance(clock, bool) or not isinstance(clock, int) or not (clock == 0 or low <= clock <= high):
            said = f"the clock is 0 (none) or a whole number of seconds from {low} to {high}, not {clock!r}"
            raise SettingError(said[:200], setting="clock")  # a value sent may be long: the sentence is not
        level = self.level
        if not isinstance(level, str) or level.strip().lower() not in BOT_KINDS:
            raise SettingError(
                f"the level of the bot that plays for a person is one of {', '.join(BOT_KINDS)}, "
                f"not {level!r}"[:300],
                setting="level",
            )
        object.__setattr__(self, "level", level.strip().lower())
        for flag in ("hints", "spectator_chat"):
            value = getattr(self, flag)
            if not isinstance(value, bool):
                raise SettingError(f"{flag!r} is true or false, not {value!r}"[:200], setting=flag)
        if not isinstance(self.pace, str) or self.pace not in PACES:
            raise SettingError(
                f"the pace is one of {', '.join(map(repr, PACES))}, not {self.pace!r}"[:200], setting="pace"
            )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every setting's name, as the create request and the stored configuration spell it."""
        return tuple(field.name for field in dataclasses.fields(cls))

    @classmethod
    def of(cls, given: Mapping[str, object]) -> TableSettings:
        """The settings ``given`` names, the others at their defaults.

        :raises SettingError: a name that is no setting, or a value it cannot have.
        """
        names = cls.names()
        for key in given:
            if key not in names:
                raise SettingError(
                    f"unknown table option {key[:30]!r}: expected one of {', '.join(names)}", setting=key[:30]
                )
        return cls(**given)  # type: ignore[arg-type]  # each value is checked by __post_init__

    @classmethod
    def from_config(cls, config: Mapping[str, object]) -> TableSettings:
        """The settings of a stored table's configuration (a setting it lacks: the default).

        :raises SettingError: a stored value the setting cannot have (the configuration is unreadable).
        """
        return cls.of({name: config[name] for name in cls.names() if name in config})

    def config(self) -> dict[str, object]:
        """The settings as a table's stored configuration keeps them, each under its name."""
        return dataclasses.asdict(self)

    def options(self) -> dict[str, object]:
        """The settings the state's ``options`` carries: all but the pace, which it gives on its own."""
        return {name: value for name, value in self.config().items() if name != "pace"}
