"""A game record replayed into what one seat saw at each of its decisions, and nothing more.

:func:`round_tasks` is the only place the review holds a :class:`~upriver.Game`: it replays
the record through the engine and keeps, for every bid and card of the seats reviewed, the
seat's :class:`~upriver.view.SeatView` at that moment and the move it made. The reviewer
(:func:`upriver.review.review_round`) gets these views alone, as a bot does.
"""

from __future__ import annotations

import dataclasses

from upriver.actions import Phase
from upriver.errors import UpriverError
from upriver.game import Game
from upriver.record import Record, replay
from upriver.review.evaluate import Choice
from upriver.view import SeatView

__all__ = ["Moment", "NoCardsError", "RoundTask", "round_tasks"]


class NoCardsError(UpriverError, ValueError):
    """A record whose rounds were kept without their cards (a score keeper's sheet): nothing to review.

    ``round_number`` is the first such round (1-based).
    """

    def __init__(self, message: str, *, round_number: int) -> None:
        super().__init__(message)
        self.round_number = round_number


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Moment:
    """One decision: the seat's view when it was asked, and what it chose."""

    view: SeatView
    chosen: Choice


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RoundTask:
    """One seat's decisions in one round, and how the round ended for it: the review's unit of work.

    ``score`` and ``tricks`` are ``None`` for a round the record leaves unfinished.
    """

    seat: int
    round_number: int
    hand_size: int
    moments: tuple[Moment, ...]
    bid: int | None
    tricks: int | None
    score: int | None


def round_tasks(record: Record, seats: tuple[int, ...] | None = None) -> tuple[RoundTask, ...]:
    """Every round of ``record`` for each of ``seats`` (default: all), seat by seat, round by round.

    The record is first replayed as ``upriver check`` does, so one that breaks a rule raises
    :class:`~upriver.record.RecordRuleError` naming it.

    :raises NoCardsError: a round was kept without its cards.
    :raises ValueError: a seat the table does not have.
    """
    n = len(record.players)
    wanted = tuple(range(n)) if seats is None else seats
    for seat in wanted:
        if not 0 <= seat < n:
            raise ValueError(f"the table has seats 0 to {n - 1}, not {seat}")
    for number, entry in enumerate(record.rounds, start=1):
        if not entry.has_cards:
            raise NoCardsError(
                f"round {number} was kept without its cards (a score keeper's record), so there are "
                "no decisions to review: a review needs a record with hands and plays, as the terminal "
                "game saves and the web table exports",
                round_number=number,
            )
    replay(record)  # a record that breaks a rule is refused here, in the engine's words
    first = record.rounds[0].dealer if record.rounds else None
    game = Game(record.rules, record.players, dealer=first, auto_deal=False)
    found: dict[int, list[RoundTask]] = {seat: [] for seat in wanted}
    for number, entry in enumerate(record.rounds, start=1):
        assert entry.hands is not None
        game.deal(entry.hands, entry.turned)
        moments: dict[int, list[Moment]] = {seat: [] for seat in wanted}
        for seat in game.bidding_order:
            bid = entry.bids[seat]
            if bid is None:
                continue
            if seat in moments:
                moments[seat].append(Moment(view=game.view(seat), chosen=bid))
            game.bid(bid, seat)
        played_itself = len(game.results) == number  # a blind round: no card was chosen
        for card in () if played_itself else entry.plays or ():
            player = game.to_act
            assert player is not None
            if player in moments:
                moments[player].append(Moment(view=game.view(player), chosen=card))
            game.play(card)
        done = game.phase is Phase.DEALING or game.is_over
        result = game.results[-1] if done else None
        for seat in wanted:
            found[seat].append(
                RoundTask(
                    seat=seat,
                    round_number=number,
                    hand_size=len(entry.hands[seat]),
                    moments=tuple(moments[seat]),
                    bid=entry.bids[seat],
                    tricks=None if result is None else result.tricks_won[seat],
                    score=None if result is None else result.scores[seat],
                )
            )
    return tuple(task for seat in wanted for task in found[seat])
