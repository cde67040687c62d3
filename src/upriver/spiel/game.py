"""The ``python_upriver`` game and state: OpenSpiel's API over upriver's engine.

A state holds an upriver :class:`~upriver.game.Game` made with ``auto_deal`` off: chance deals
each round card by card into it (:meth:`Game.deal` once every hand and the turn-up are
drawn), and every bid and card is the engine's move, judged by the engine.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

import pyspiel

from upriver.actions import Phase
from upriver.cards import DECK, Card, cards_in
from upriver.deal import left_of
from upriver.game import Game
from upriver.rules import Trump
from upriver.spiel.observe import SeatObserver
from upriver.spiel.params import (
    DEFAULTS,
    GAME_NAME,
    SpielConfig,
    Utility,
    canonical_params,
    config_of,
    utility_range,
)
from upriver.spiel.resample import resample
from upriver.view import SeatView

__all__ = ["UpriverGame", "UpriverState", "game_type", "move_of"]


def game_type(utility: Utility) -> Any:
    """OpenSpiel's ``GameType`` of ``python_upriver`` (zero-sum when the returns are differences)."""
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Up and Down the River (upriver)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if utility is Utility.DIFFERENCES
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def move_of(action: int, max_bid: int) -> int | Card:
    """The bid or card of a player's action in a game whose largest hand is ``max_bid`` cards."""
    return action if action <= max_bid else DECK[action - max_bid - 1]


def first_game(config: SpielConfig, dealer: int) -> Game:
    """The engine's game of ``config`` waiting for ``dealer`` to deal the first round."""
    return Game(config.rules, seed=0, dealer=dealer, auto_deal=False, first_round=config.first_round)


class UpriverGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The ``python_upriver`` game: made by ``pyspiel.load_game``, or directly from parameters.

    :raises SpielParameterError: for parameters that cannot be played, naming the one at fault.
    """

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        self.config = config_of(dict(params or {}))
        config = self.config
        n = config.players
        low, high = utility_range(config)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.max_bid + 1 + len(DECK),
            max_chance_outcomes=len(DECK),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if config.utility is Utility.DIFFERENCES else None,
            max_game_length=sum(n + n * size for size in config.rules.hand_sizes),
        )
        super().__init__(game_type(config.utility), info, canonical_params(config))
        self.first_game = None if config.dealer is None else first_game(config, config.dealer)
        """The engine's game before the first deal when the first dealer is fixed (copied, never moved)."""

    def new_initial_state(self) -> UpriverState:
        """A game before the first dealer is drawn (or, with ``dealer`` set, before the first deal)."""
        return UpriverState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The first-dealer draw, and every card dealt and turned up."""
        n = self.config.players
        return 1 + sum(n * size + 1 for size in self.config.rules.hand_sizes)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        """A seat's observation (``perfect_recall`` off) or information state (on)."""
        if params:
            raise ValueError(f"python_upriver observers take no parameters, not {params!r}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_upriver observes one seat with its cards (private_info SINGLE_PLAYER)")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SeatObserver(self.config, perfect_recall=recall)


class _RoundStart:
    """Where the current round's deal starts in the history, and the state there once it is built.

    Shared by every state of the round (copying returns it): resampling builds the state
    at the start of the round once and clones it for every deal.
    """

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.state: Any = None

    def __deepcopy__(self, memo: object) -> _RoundStart:
        return self

    def __reduce__(self) -> tuple[type[_RoundStart], tuple[int]]:
        return _RoundStart, (self.moves,)  # the built state is a cache, rebuilt when needed


class _Core:
    """An :class:`UpriverState`'s Python side, copied cheaply when OpenSpiel clones the state."""

    def __init__(self, config: SpielConfig, first: Game | None) -> None:
        self.config = config
        self.game = None if first is None else first.copy()
        self.dealt: list[list[Card]] = [[] for _ in range(config.players)]
        self.undealt = config.deck
        self.moves = 0
        self.start = _RoundStart(0)

    def __deepcopy__(self, memo: object) -> _Core:
        twin = _Core.__new__(_Core)
        twin.config, twin.undealt, twin.moves, twin.start = self.config, self.undealt, self.moves, self.start
        twin.game = None if self.game is None else self.game.copy()
        twin.dealt = [list(cards) for cards in self.dealt]
        return twin


class UpriverState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One moment of a ``python_upriver`` game: an upriver :class:`Game` and the deal in progress."""

    def __init__(self, game: UpriverGame) -> None:
        super().__init__(game)
        self._core = _Core(game.config, game.first_game)

    # ------------------------------------------------------------ reading

    @property
    def upriver_game(self) -> Game | None:
        """The engine's game (``None`` until the first dealer is drawn): read it, never move it."""
        return self._core.game

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        game = self._core.game
        if game is None or game.phase is Phase.DEALING:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return game.to_act  # type: ignore[return-value]  # someone acts while bidding or playing

    def is_terminal(self) -> bool:
        """Whether the last round has been scored."""
        return self._core.game is not None and self._core.game.is_over

    def returns(self) -> list[float]:
        """Each seat's final total (``utility`` "scores") or its total less the mean; 0 before the end."""
        core = self._core
        if core.game is None or not core.game.is_over:
            return [0.0] * core.config.players
        totals = [float(t) for t in core.game.totals]
        if core.config.utility is Utility.DIFFERENCES:
            mean = sum(totals) / len(totals)
            return [t - mean for t in totals]
        return totals

    def _deal_size(self) -> int:
        game = self._core.game
        return 0 if game is None else len(game.players) * game.hand_size

    def _turns_up(self) -> bool:
        """Whether a card is turned up once the hands are dealt (trump turns up and cards are left)."""
        config = self._core.config
        return config.rules.trump is Trump.TURN_UP and config.deck.bit_count() > self._deal_size()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer's seat, or a card not dealt yet, all equally likely."""
        core = self._core
        if core.game is None:
            n = core.config.players
            return [(seat, 1 / n) for seat in range(n)]
        cards = [card.index for card in cards_in(core.undealt)]
        return [(index, 1 / len(cards)) for index in cards]

    def _legal_actions(self, player: int) -> list[int]:
        game = self._core.game
        if game is None or player != game.to_act:
            return []
        if game.phase is Phase.BIDDING:
            return list(game.legal_bids())
        offset = self._core.config.max_bid + 1
        return [offset + card.index for card in game.legal_cards()]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._core.game is None:
                return f"seat {action} deals first"
            return f"deal {DECK[action]}"
        move = move_of(action, self._core.config.max_bid)
        return f"play {move}" if isinstance(move, Card) else f"bid {move}"

    # ------------------------------------------------------------ moving

    def _apply_action(self, action: int) -> None:
        core = self._core
        core.moves += 1
        game = core.game
        if game is None:
            core.game = first_game(core.config, action)
            core.start = _RoundStart(core.moves)
            return
        if game.phase is Phase.DEALING:
            self._deal(DECK[action])
            return
        move = move_of(action, core.config.max_bid)
        if isinstance(move, Card):
            game.play(move)
        else:
            game.bid(move)
        if game.phase in (Phase.DEALING, Phase.OVER):  # the move ended the round
            core.dealt = [[] for _ in core.dealt]
            core.undealt = core.config.deck
            core.start = _RoundStart(core.moves)

    def _deal(self, card: Card) -> None:
        core = self._core
        game = core.game
        assert game is not None
        if not core.undealt & card.mask:
            raise ValueError(f"{card} has been dealt already or is not in the deck")
        n = len(core.dealt)
        count = sum(map(len, core.dealt))
        if count < self._deal_size():
            core.dealt[left_of(game.dealer, n, 1 + count)].append(card)
            core.undealt ^= card.mask
            if count + 1 < self._deal_size() or self._turns_up():
                return
            game.deal(core.dealt, None)
        else:  # every hand is dealt: this card is turned up
            core.undealt ^= card.mask
            game.deal(core.dealt, card)

    def __str__(self) -> str:
        core = self._core
        game = core.game
        if game is None:
            return "the first dealer is not drawn yet"
        lines = [
            f"round {game.round_number} of {game.rules.rounds}, dealer {game.dealer}, {game.phase.value}",
            "hands " + " | ".join(" ".join(map(str, cards)) for cards in core.dealt),
            f"turned {game.turned}, trump {game.trump}, bids {list(game.bids)}",
            "played " + " ".join(f"{seat}:{card}" for seat, card in game.view(None).played),
            f"totals {list(game.totals)}",
        ]
        return "\n".join(lines)

    # ------------------------------------------------------------ seeing

    def seat_view(self, seat: int) -> SeatView | None:
        """What ``seat`` may know now (``None`` before the first dealer is drawn); while the cards are
        dealt, its hand is the cards it has been dealt so far."""
        core = self._core
        if not 0 <= seat < core.config.players:
            raise ValueError(f"seat {seat} does not exist: seats are 0 to {core.config.players - 1}")
        if core.game is None:
            return None
        view = core.game.view(seat)
        if core.game.phase is Phase.DEALING:
            return dataclasses.replace(view, hand=tuple(sorted(core.dealt[seat], key=_index)))
        return view

    # ------------------------------------------------------------ resampling

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> UpriverState:
        """A state in ``player_id``'s information set, the cards it has not seen dealt uniformly over
        the deals that agree with what it knows (its cards, the turn-up, the cards played, the
        suits a seat has shown it lacks): the stock is dealt like any hidden card, and a bid
        hidden from it (closed fists) is drawn uniformly from the legal bids.
        ``probability_sampler()`` answers a float in [0, 1) (``pyspiel.UniformProbabilitySampler``)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        core = self._core
        view = self.seat_view(player_id)
        if view is None or core.game is None or core.game.is_over:
            return self.clone()  # type: ignore[no-any-return]  # nothing is hidden
        return resample(self._round_start(), view, core.dealt, rng)  # type: ignore[no-any-return]

    def _round_start(self) -> Any:
        """The state of this game where the current round's deal begins (built once a round)."""
        start = self._core.start
        if start.state is None:
            state = self.get_game().new_initial_state()
            for action in self.history()[: start.moves]:
                state.apply_action(action)
            state._core.start = start
            start.state = state
        return start.state


def _index(card: Card) -> int:
    return card.index
