"""One arena game: seat the players, play to the end, and keep what the statistics need.

Each seat's player is made afresh for every game from a seed derived from the game
seed and the seat, so a game is reproducible from its task alone, whichever worker
process plays it. Upriver bots see only their seat's view; OpenSpiel seats act on a
pyspiel ``oh_hell`` state kept in lockstep with the game (see :mod:`.openspiel`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from upriver.arena.hands import HandRecord
from upriver.arena.schedule import GameTask
from upriver.arena.spec import ArenaError, SeatPlayer, parse_spec
from upriver.errors import UpriverError
from upriver.game import Game
from upriver.rules import Rules, Schedule, Scoring

if TYPE_CHECKING:
    from upriver.arena.openspiel import Mirror

__all__ = ["GameResult", "play_game", "play_out", "player_seed"]

_SEED_MASK = (1 << 62) - 1


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class GameResult:
    """What one finished arena game leaves for the statistics, seat by seat."""

    index: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[int, ...]
    """The bot index at each seat."""
    totals: tuple[int, ...]
    hands: int
    """Rounds played (every seat plays every round)."""
    exact: tuple[int, ...]
    """Rounds in which the seat took exactly its bid."""
    within_one: tuple[int, ...]
    """Rounds in which the seat took its bid, one more, or one fewer."""
    move_seconds: tuple[tuple[float, ...], ...] = ()
    """Thinking time of each of the seat's moves, in order."""
    hand_log: tuple[HandRecord, ...] = ()
    """Every seat's every round: bid, tricks, bidding position and the bot's predictions."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the most points (ties share the win)."""
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)


def player_seed(game_seed: int, seat: int) -> int:
    """The seed of the player in ``seat``: fixed by the game, different for every seat."""
    return ((game_seed << 4) + seat + 1) & _SEED_MASK


Estimates = dict[tuple[int, int], tuple[tuple[int, float], ...]]
"""Per (round index, seat): each candidate bid's predicted make rate, as the player reported it."""


def play_out(
    game: Game,
    players: Sequence[SeatPlayer],
    mirror: Mirror | None = None,
    estimates: Estimates | None = None,
) -> list[list[float]]:
    """Let ``players`` (one per seat) finish ``game``; return each seat's thinking time per move.

    Each player is shown its seat's view alone; with a ``mirror``, every move is
    applied to the mirrored OpenSpiel state too, for the seats that play there. A
    player that :attr:`~upriver.arena.spec.SeatPlayer.sees_deal` is told each round's
    dealt hands. With ``estimates``, the bid predictions a player reports are kept there.
    """
    if mirror is not None:
        for player in players:
            player.attach(mirror)
    times: list[list[float]] = [[] for _ in players]
    clock = time.perf_counter
    told = [player for player in players if player.sees_deal]
    dealt = -1
    while not game.is_over:
        if told and dealt != len(game.results):
            dealt = len(game.results)
            hands = [game.dealt_hand(s) or () for s in range(len(players))]
            for player in told:
                player.see_deal(hands)
        seat = game.awaiting[0]
        view = game.view(seat)
        start = clock()
        move = players[seat].move(view)
        times[seat].append(clock() - start)
        if estimates is not None and isinstance(move, int):
            reported = players[seat].last_bid_estimates
            if reported:
                estimates[len(game.results), seat] = tuple(
                    sorted((int(b), float(p)) for b, p in reported.items())
                )
        game.move(move, seat=seat)
        if mirror is not None:
            mirror.follow(game, move)
    return times


def play_game(task: GameTask) -> GameResult:
    """Play one arena game to the end and summarise it; a bot's illegal move raises :class:`ArenaError`."""
    try:
        return _play(task)
    except UpriverError as error:
        # Said with the game that failed, and as an error that crosses back from a worker process.
        raise ArenaError(f"game {task.index + 1} (seed {task.seed}): {error}") from None


_warmed: set[str] = set()
"""Bot specs this process has already warmed up."""


def _warm_up(spec: str, factory: Callable[[int], SeatPlayer], rules: Rules) -> None:
    """Play one untimed 2-card hand of self-play the first time this process meets ``spec``.

    A bot's first move in a fresh worker process pays one-off costs (importing and
    loading numba's compiled kernels can take seconds) that are not thinking time
    and would otherwise dominate its mean time per move.
    """
    if spec in _warmed:
        return
    _warmed.add(spec)
    players = [factory(seat) for seat in range(rules.player_count)]
    if any(player.uses_mirror for player in players):
        return  # OpenSpiel's bots are compiled C++: nothing to load on a first move
    hand = rules.replace(schedule=Schedule.EXPLICIT, explicit_sizes=(2,), max_cards=None)
    play_out(Game(hand, seed=0), players)


def _play(task: GameTask) -> GameResult:
    factories: dict[int, Callable[[int], SeatPlayer]] = {}
    players: list[SeatPlayer] = []
    for seat, bot in enumerate(task.seating):
        if bot not in factories:
            factories[bot] = parse_spec(task.specs[bot]).factory()
            _warm_up(task.specs[bot], factories[bot], task.rules)
        players.append(factories[bot](player_seed(task.seed, seat)))
    names = tuple(f"{task.specs[bot]}@{seat + 1}" for seat, bot in enumerate(task.seating))
    game = Game(task.rules, names, seed=task.seed)
    mirror = None
    if any(player.uses_mirror for player in players):
        from upriver.arena.openspiel import Mirror

        mirror = Mirror(game)
    estimates: Estimates = {}
    times = play_out(game, players, mirror, estimates)
    results = game.results
    seats = range(len(players))
    n, rules = len(players), task.rules
    hand_log = tuple(
        HandRecord(
            game=task.index,
            deal=task.deal,
            rotation=task.rotation,
            round=result.number,
            seat=seat,
            bot=task.specs[task.seating[seat]],
            players=n,
            hand_size=result.hand_size,
            dealer_rule=rules.dealer_bid.value,
            scoring=rules.scoring.value if isinstance(rules.scoring, Scoring) else "custom",
            position=(seat - result.dealer - 1) % n,
            bid=result.bids[seat],
            tricks=result.tricks_won[seat],
            score=result.scores[seat],
            estimates=estimates.get((index, seat)),
        )
        for index, result in enumerate(results)
        for seat in seats
    )
    return GameResult(
        index=task.index,
        deal=task.deal,
        rotation=task.rotation,
        seed=task.seed,
        seating=task.seating,
        totals=game.totals,
        hands=len(results),
        exact=tuple(sum(r.bids[s] == r.tricks_won[s] for r in results) for s in seats),
        within_one=tuple(sum(abs(r.bids[s] - r.tricks_won[s]) <= 1 for r in results) for s in seats),
        move_seconds=tuple(tuple(t) for t in times),
        hand_log=hand_log,
    )
