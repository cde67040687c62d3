"""Changes of the players and the schedule between two rounds, as new :class:`SheetEntries`.

Each function takes the sheet as it stands between rounds (:class:`Between`) and answers the
entries with the change made, or raises :class:`~upriver.errors.IllegalActionError` with the
sentence saying why not. :class:`~upriver.keeper.KeptSheet` then replays them through the
engine (:mod:`upriver.keeper.evening` says how an evening becomes games).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from upriver.errors import IllegalActionError, RulesError
from upriver.keeper import evening
from upriver.keeper.entries import Join, Leave, SheetEntries, SitOut, Start
from upriver.names import PlayerNameError, check_names
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, Schedule

__all__ = ["MOST_ROUNDS", "Between", "Preview", "join", "leave", "preview", "reschedule", "sit_out"]

MOST_ROUNDS = 100
"""The most rounds a schedule edited on the sheet may leave to play."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Between:
    """A sheet between two rounds: ``next`` is the first round no entry has been made for."""

    rules: Rules
    starters: int
    players: tuple[str, ...]
    entries: SheetEntries
    next: int

    @property
    def schedule(self) -> tuple[int, ...]:
        """The evening's hand sizes as they stand.

        :raises IllegalActionError: when the players at the table cannot play the rules (a sheet
            read from a record whose evening no longer adds up: its flagged round says why).
        """
        try:
            return evening.schedule(self.rules, self.starters, self.entries)
        except RulesError as error:
            raise IllegalActionError(str(error), rule="roster", facts={"case": "unreadable"}) from None

    def playing(self, number: int, entries: SheetEntries | None = None) -> tuple[int, ...]:
        """The seats playing round ``number``."""
        return evening.roster(self.starters, self.entries if entries is None else entries, number)


def playable(at: Between, entries: SheetEntries, rule: str) -> SheetEntries:
    """``entries``, unless a round from ``at.next`` on cannot be played by those at the table then."""
    number, sizes = at.next, tuple[int, ...]()
    try:
        sizes = evening.schedule(at.rules, at.starters, entries)
        for number in range(at.next, len(sizes) + 1):
            evening.segment_rules(at.rules, len(at.playing(number, entries)), [sizes[number - 1]])
    except RulesError as error:
        raise IllegalActionError(
            f"round {number}: {error}", rule=rule, facts=_unplayable(at, entries, number, sizes)
        ) from None
    return entries


def _unplayable(at: Between, entries: SheetEntries, number: int, sizes: Sequence[int]) -> dict[str, object]:
    """Why round ``number`` cannot be played, as facts: too few players, no cards, or more cards than
    the deck holds for the players then (``case``), with the numbers the sentence names."""
    players = len(at.playing(number, entries))
    if players < MIN_PLAYERS:
        return {"case": "few players", "round": number, "players": players, "least": MIN_PLAYERS}
    if number > len(sizes):
        return {"case": "unplayable", "round": number}
    size, most = sizes[number - 1], evening.deck_limit(at.rules, players, explicit=True)
    if size < 1:
        return {"case": "no cards", "round": number, "size": size}
    if size > most:
        return {"case": "deck", "round": number, "players": players, "size": size, "most": most}
    return {"case": "unplayable", "round": number}


def join(at: Between, name: str, start: Start) -> SheetEntries:
    """A newcomer from round ``at.next`` on, seated after the last seat.

    The rounds not yet begun follow the rules for the new number of players
    (:func:`upriver.keeper.evening.schedule`); a list of hand sizes keeps its sizes, but one the
    deck cannot hold for the new number is dealt as the most it can, written into the entries.
    """
    try:
        (name,) = check_names([*at.players, name])[-1:]
    except PlayerNameError as error:
        raise IllegalActionError(str(error), rule="name", facts={"case": error.reason}) from None
    return _arrival(at, name, start)


def _arrival(at: Between, name: str, start: Start) -> SheetEntries:
    """:func:`join` once the name is checked."""
    if len(at.playing(at.next)) >= MAX_PLAYERS:
        raise IllegalActionError(
            f"a game is for at most {MAX_PLAYERS} players: {name} cannot join",
            rule="roster",
            facts={"case": "full", "player": name, "most": MAX_PLAYERS},
        )
    joins = (*at.entries.joins, Join(name=name, round=at.next, start=start))
    return playable(at, _fitted(at, dataclasses.replace(at.entries, joins=joins)), "roster")


def _fitted(at: Between, entries: SheetEntries) -> SheetEntries:
    """``entries`` with a listed schedule's hands from ``at.next`` on no larger than the deck holds
    for the players seated then (the rules' own river is worked out by the evening, never listed)."""
    if entries.sizes is None and at.rules.schedule is not Schedule.EXPLICIT:
        return entries
    sizes = evening.schedule(at.rules, at.starters, entries)
    seated = len(at.playing(at.next, dataclasses.replace(entries, sit_outs=())))
    most = evening.deck_limit(at.rules, seated, explicit=True)
    fitted = (*sizes[: at.next - 1], *(min(size, most) for size in sizes[at.next - 1 :]))
    return entries if fitted == sizes else dataclasses.replace(entries, sizes=fitted)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Preview:
    """What a change of players would make of the rounds not yet begun, before it is made: the hand
    sizes from round ``start`` on as they stand, after an arrival, and after a departure (whoever
    leaves, one fewer play). A change the engine would refuse has its sentence instead of sizes."""

    start: int
    sizes: tuple[int, ...]
    arrival: tuple[int, ...] | str
    departure: tuple[int, ...] | str

    def to_json(self) -> dict[str, object]:
        """Plain JSON data: ``{"from", "sizes", "arrival", "departure"}``, each change
        ``{"sizes": [...]}`` or ``{"refused": sentence}``."""

        def one(made: tuple[int, ...] | str) -> dict[str, object]:
            return {"refused": made} if isinstance(made, str) else {"sizes": list(made)}

        return {
            "from": self.start,
            "sizes": list(self.sizes),
            "arrival": one(self.arrival),
            "departure": one(self.departure),
        }


def preview(at: Between) -> Preview:
    """The rounds not yet begun now, after an arrival, and after a departure (see :class:`Preview`)."""
    seated = at.playing(at.next, dataclasses.replace(at.entries, sit_outs=()))
    return Preview(
        start=at.next,
        sizes=at.schedule[at.next - 1 :],
        arrival=_rest(at, lambda: _arrival(at, "a newcomer", Start.ZERO)),
        departure=_rest(at, lambda: leave(at, seated[-1])),
    )


def _rest(at: Between, change: Callable[[], SheetEntries]) -> tuple[int, ...] | str:
    """The hand sizes from ``at.next`` on once ``change`` is made, or the sentence refusing it."""
    try:
        entries = change()
    except IllegalActionError as error:
        return str(error)
    return evening.schedule(at.rules, at.starters, entries)[at.next - 1 :]


def leave(at: Between, seat: int) -> SheetEntries:
    """``seat`` gone from round ``at.next`` on (and any round they were to sit out forgotten)."""
    name = at.players[seat]
    seated = at.playing(at.next, dataclasses.replace(at.entries, sit_outs=()))
    if seat not in seated:
        raise IllegalActionError(
            f"{name} has already left", rule="roster", seat=seat, facts={"case": "gone", "player": name}
        )
    if len(seated) <= MIN_PLAYERS:
        raise IllegalActionError(
            f"a game needs at least {MIN_PLAYERS} players: {name} cannot leave",
            rule="roster",
            seat=seat,
            facts={"case": "fewest", "player": name, "least": MIN_PLAYERS},
        )
    sit_outs = tuple(s for s in at.entries.sit_outs if s.seat != seat or s.round < at.next)
    leaves = (*at.entries.leaves, Leave(seat=seat, round=at.next))
    return playable(at, dataclasses.replace(at.entries, leaves=leaves, sit_outs=sit_outs), "roster")


def sit_out(at: Between, seat: int, number: int | None) -> SheetEntries:
    """``seat`` sits out round ``number`` (``None``: ``at.next``), not yet begun."""
    name, last = at.players[seat], len(at.schedule)
    number = at.next if number is None else number
    if not at.next <= number <= last:
        raise IllegalActionError(
            f"{name} can sit out round {at.next} or a later one up to {last}, not round {number}",
            rule="roster",
            seat=seat,
            facts={"case": "sit round", "player": name, "next": at.next, "last": last, "round": number},
        )
    playing = at.playing(number)
    if seat not in playing:
        raise IllegalActionError(
            f"{name} does not play round {number}",
            rule="roster",
            seat=seat,
            facts={"case": "not playing", "player": name, "round": number},
        )
    if len(playing) <= MIN_PLAYERS:
        raise IllegalActionError(
            f"round {number} needs at least {MIN_PLAYERS} players: {name} cannot sit it out",
            rule="roster",
            seat=seat,
            facts={"case": "sit fewest", "player": name, "round": number, "least": MIN_PLAYERS},
        )
    sit_outs = (*at.entries.sit_outs, SitOut(seat=seat, round=number))
    return playable(at, dataclasses.replace(at.entries, sit_outs=sit_outs), "roster")


def reschedule(at: Between, sizes: Sequence[int]) -> SheetEntries:
    """The hand sizes from round ``at.next`` on replaced by ``sizes``; the rounds before stay."""
    if len(sizes) > MOST_ROUNDS:
        raise IllegalActionError(
            f"at most {MOST_ROUNDS} rounds may be left to play, not {len(sizes)}",
            rule="schedule",
            facts={"case": "too many", "most": MOST_ROUNDS, "count": len(sizes)},
        )
    schedule = (*at.schedule[: at.next - 1], *sizes)
    if not schedule:
        raise IllegalActionError(
            "the game needs at least one round", rule="schedule", facts={"case": "empty"}
        )
    return playable(at, dataclasses.replace(at.entries, sizes=schedule), "schedule")
