"""OpenSpiel as an arena opponent: its bots play upriver seats through a mirrored ``oh_hell`` state.

OpenSpiel's ``oh_hell`` plays single hands with the hook, 1 point a trick + 10 for
an exact bid, and any lead. Each round of an upriver game under those rules is
mirrored in a pyspiel state: the chance outcomes that reproduce upriver's deal are
applied (hand size, dealer, every card in OpenSpiel's round-robin dealing order, the
turned card), then every bid and card played in the upriver game is applied to the
pyspiel state too, and an OpenSpiel seat's action is translated back into an upriver
bid or card that the engine judges. At the end of each round both must agree on the
scores. OpenSpiel's ISMCTS resamples hidden hands from the information state, so it
does not see the other hands, but its resampler keeps the stock out of them (see
:class:`OpenSpielPlayer`); :mod:`upriver.arena.fair` gives it fair deals instead.

``spiel-ismcts`` needs no mirror and no ``oh_hell`` rules: :mod:`upriver.arena.spielseat`.

OpenSpiel's encoding (checked against pyspiel): card action ``rank * 4 + suit`` with
rank 0 for a two and suits in ``C D S H`` order; bid action ``52 + bid``; the k-th
dealt card goes to player ``k mod players``; seats are numbered as in upriver.

>>> card_action(Card.parse("2C")), card_action(Card.parse("2H")), card_action(Card.parse("AS"))
(0, 3, 50)
>>> action_move(54), action_move(50)
(2, Card.parse('AS'))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from upriver.arena.base import ArenaError, parse_number
from upriver.cards import Card, Rank, Suit
from upriver.game import Game
from upriver.rules import Bidding, DealerBid, FirstDealer, Rules, Schedule, Scoring, Trump, TrumpLead
from upriver.view import SeatView

__all__ = [
    "DEFAULT_SIMULATIONS",
    "Mirror",
    "OpenSpielPlayer",
    "action_move",
    "card_action",
    "check_rules",
    "deal_actions",
    "load_pyspiel",
    "move_action",
    "openspiel_rules",
    "parse_simulations",
    "seat_factory",
]

DEFAULT_SIMULATIONS = 1000
"""The default simulations a move of ``spiel-ismcts``: OpenSpiel's Python ISMCTS on a Python game
takes 2–3 ms a simulation (a 4-seat 3-card hand), where its C++ ISMCTS on ``oh_hell`` takes 0.02."""
UCT_C = 2.0
"""OpenSpiel's usual exploration constant for ISMCTS on card games."""
ROLLOUTS = 1
"""Random rollouts per leaf evaluation, as in OpenSpiel's ISMCTS examples."""

_DECK = 52
_OS_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.SPADES: 2, Suit.HEARTS: 3}
_UP_SUIT = {index: suit for suit, index in _OS_SUIT.items()}
_MIN_PLAYERS, _MAX_PLAYERS = 3, 7  # oh_hell's kMinNumPlayers, kMaxNumPlayers


def card_action(card: Card) -> int:
    """OpenSpiel's action (and chance outcome) for a card."""
    return (card.rank - 2) * 4 + _OS_SUIT[card.suit]


def move_action(move: int | Card) -> int:
    """OpenSpiel's action for an upriver bid or card."""
    return card_action(move) if isinstance(move, Card) else _DECK + move


def action_move(action: int) -> int | Card:
    """The upriver bid or card for an OpenSpiel bidding or play action."""
    if action >= _DECK:
        return action - _DECK
    return Card.of(Rank(action // 4 + 2), _UP_SUIT[action % 4])


def deal_actions(
    players: int, dealer: int, hands: Sequence[Sequence[Card]], turned: Card | None
) -> list[int]:
    """The chance outcomes that make OpenSpiel deal exactly this: size, dealer, cards round-robin, trump."""
    if turned is None:
        raise ArenaError("OpenSpiel's oh_hell always turns up a trump; this round has none")
    size = len(hands[0])
    cards = [card_action(hands[seat][k]) for k in range(size) for seat in range(players)]
    return [size, dealer, *cards, card_action(turned)]


def openspiel_rules(players: int = 4, hand_size: int = 10) -> Rules:
    """Single hands under OpenSpiel's ``oh_hell`` rules; the first dealer is drawn from the seed."""
    return Rules(
        player_count=players,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(hand_size,),
        first_dealer=FirstDealer.FIRST_JACK,
        bidding=Bidding.SEQUENTIAL,
        dealer_bid=DealerBid.HOOK,
        trump_lead=TrumpLead.ANY,
        scoring=Scoring.TRICKS_PLUS_TEN,
    )


def check_rules(rules: Rules) -> None:
    """Raise :class:`ArenaError` unless OpenSpiel's ``oh_hell`` plays every round of these rules."""
    wrong = [
        f"{name} {value.value!r} (OpenSpiel's is {wanted.value!r})"
        for name, value, wanted in (
            ("bidding", rules.bidding, Bidding.SEQUENTIAL),
            ("dealer_bid", rules.dealer_bid, DealerBid.HOOK),
            ("trump_lead", rules.trump_lead, TrumpLead.ANY),
            ("scoring", rules.scoring, Scoring.TRICKS_PLUS_TEN),
            ("trump", rules.trump, Trump.TURN_UP),
        )
        if value is not wanted
    ]
    if rules.blind_one_card:
        wrong.append("blind_one_card true (OpenSpiel's players always see their own cards)")
    if not _MIN_PLAYERS <= rules.player_count <= _MAX_PLAYERS:
        wrong.append(
            f"{rules.player_count} players (OpenSpiel's oh_hell seats {_MIN_PLAYERS} to {_MAX_PLAYERS})"
        )
    most = (_DECK - 1) // rules.player_count
    if max(rules.hand_sizes) > most:
        wrong.append(f"hands of {max(rules.hand_sizes)} cards (OpenSpiel needs a turn-up: at most {most})")
    if wrong:
        raise ArenaError(
            "OpenSpiel seats play OpenSpiel's oh_hell rules (hook, 1 a trick + 10, any lead, in-turn "
            "bids), e.g. --preset countdown --schedule 10; these rules have " + "; ".join(wrong)
        )


def load_pyspiel() -> ModuleType:
    """The ``pyspiel`` module, or an :class:`ArenaError` that says how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise ArenaError(
            "OpenSpiel seats need pyspiel: install the bench extra (pip install 'upriver[bench]')"
        ) from None
    module: ModuleType = pyspiel
    return module


class Mirror:
    """A pyspiel ``oh_hell`` state that follows an upriver game move for move, one state per round.

    ``pyspiel`` may be replaced by any module-like object with OpenSpiel's
    ``load_game`` (the tests use a small stand-in).
    """

    def __init__(self, game: Game, *, pyspiel: Any = None) -> None:
        check_rules(game.rules)
        self._pyspiel: Any = load_pyspiel() if pyspiel is None else pyspiel
        self._games: dict[int, Any] = {}
        self._players = game.rules.player_count
        self.state: Any = None
        """The pyspiel state of the round in play."""
        self.applied: list[int] = []
        """Every action applied to the pyspiel states, chance outcomes included, in order."""
        self._start(game)

    def _start(self, game: Game) -> None:
        size = game.hand_size
        if size not in self._games:
            self._games[size] = self._pyspiel.load_game(
                "oh_hell",
                {
                    "players": self._players,
                    "num_tricks_fixed": size,
                    "off_bid_penalty": False,
                    "points_per_trick": 1,
                },
            )
        hands = [game.dealt_hand(seat) or () for seat in range(self._players)]
        state = self._games[size].new_initial_state()
        for action in deal_actions(self._players, game.dealer, hands, game.turned):
            state.apply_action(action)
            self.applied.append(action)
        self.state = state
        self._dealer = game.dealer
        self._turned = game.turned
        self._check_turn(game)

    def _check_turn(self, game: Game) -> None:
        if self.state.current_player() != game.to_act:
            raise ArenaError(
                f"the OpenSpiel mirror lost step: seat {self.state.current_player()} is to act there, "
                f"seat {game.to_act} in the game"
            )

    def follow(self, game: Game, move: int | Card) -> None:
        """Apply the move just made in ``game``; start the next round's state when a round ends."""
        action = move_action(move)
        self.state.apply_action(action)
        self.applied.append(action)
        if not self.state.is_terminal():
            self._check_turn(game)
            return
        scores = tuple(round(value) for value in self.state.returns())
        if scores != game.results[-1].scores:
            raise ArenaError(
                f"OpenSpiel scored round {len(game.results)} {scores}, upriver {game.results[-1].scores}"
            )
        if not game.is_over:
            self._start(game)


class OpenSpielPlayer:
    """An OpenSpiel bot in an arena seat: its C++ ISMCTS with random rollouts, or uniform random.

    ``openspiel-ismcts`` is the hardest reference, and not a fair one: before every
    simulation it resamples the hidden cards with ``oh_hell``'s own
    ``ResampleFromInfostate``, which (OpenSpiel 2.0) shuffles only the other seats'
    unplayed cards among them and skips the undealt stock, so every deal it searches
    leaves out the same cards the true deal left out: it knows which cards are out of
    play (11 of the 41 it cannot see, with 4 players and 10 cards). The fair one is
    :class:`upriver.arena.fair.FairOpenSpielPlayer` (``openspiel-ismcts-fair``).
    """

    uses_mirror = True
    last_bid_estimates = None
    """OpenSpiel's bots predict no make rates."""
    sees_deal = False

    def __init__(self, kind: str, simulations: int, seed: int, *, pyspiel: Any = None) -> None:
        self.kind = kind
        self.simulations = simulations
        self.seed = seed % (2**31)
        self._pyspiel: Any = pyspiel
        self._mirror: Mirror | None = None
        self._bot: Any = None
        self._rng = random.Random(seed)

    def attach(self, mirror: Mirror) -> None:
        """Play on ``mirror``'s states; the ISMCTS bot is made here, in the process that plays."""
        self._mirror = mirror
        if self.kind == "openspiel-ismcts" and self._bot is None:
            ps = load_pyspiel() if self._pyspiel is None else self._pyspiel
            evaluator = ps.RandomRolloutEvaluator(ROLLOUTS, self.seed)
            self._bot = ps.ISMCTSBot(
                self.seed,
                evaluator,
                UCT_C,
                self.simulations,
                -1,  # unlimited world samples: resample hidden hands from the infostate every simulation
                ps.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                False,
                False,
            )

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """Never called: OpenSpiel's seats read their mirrored state."""

    def move(self, view: SeatView) -> int | Card:
        """OpenSpiel's choice on the mirrored state, as an upriver bid or card."""
        if self._mirror is None:
            raise ArenaError("an OpenSpiel seat plays only in a game with a mirrored OpenSpiel state")
        state = self._mirror.state
        if state.current_player() != view.seat:
            raise ArenaError(f"OpenSpiel has seat {state.current_player()} to act, not seat {view.seat}")
        if self._bot is not None:
            action = int(self._bot.step(state))
        else:
            action = self._rng.choice(list(state.legal_actions()))
        return action_move(action)


def parse_simulations(kind: str, arg: str | None, default: int = DEFAULT_SIMULATIONS) -> int:
    """The simulations a move of an ISMCTS seat written ``KIND[:ARG]``: ``ARG``, else ``default``."""
    if arg is None:
        return default
    value = parse_number(arg, f"the simulations of {kind}")
    if not isinstance(value, int) or value < 1:
        raise ArenaError(f"{kind} needs a whole number of simulations, not {arg!r}")
    return value


def seat_factory(kind: str, arg: str | None) -> Callable[[int], OpenSpielPlayer]:
    """A maker of OpenSpiel players of this kind; fails now if pyspiel is missing or the budget is bad."""
    load_pyspiel()
    if kind == "openspiel-random" and arg is not None:
        raise ArenaError("openspiel-random takes no budget")
    simulations = parse_simulations(kind, arg)
    return lambda seed: OpenSpielPlayer(kind, simulations, seed)
