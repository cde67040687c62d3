"""Shared helpers and Hypothesis strategies for the rules tests.

Everything here works through the public API (``from upriver import ...``) and
recomputes what it checks independently of the engine: the trick winner from
the cards and the trump, the score from the bid and the tricks.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from upriver import (
    PRESETS,
    Bidding,
    Card,
    DealerBid,
    FirstDealer,
    Game,
    Phase,
    Rules,
    Schedule,
    Scoring,
    Suit,
    TrumpLead,
)


def card(text: str) -> Card:
    """One card from its notation, e.g. ``card("TH")``."""
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated notation, e.g. ``cards("AS KS 2H")``."""
    return tuple(Card.parse(word) for word in text.split())


def dealt_game(
    rules: Rules,
    hands: Sequence[str],
    turned: str | None,
    *,
    dealer: int = 0,
) -> Game:
    """A game whose first round is dealt exactly these hands (notation strings) and turn-up."""
    game = Game(rules, auto_deal=False, dealer=dealer)
    game.deal([cards(hand) for hand in hands], None if turned is None else card(turned))
    return game


def one_round_rules(players: int, size: int, **options: Any) -> Rules:
    """Rules for a single round of ``size`` cards (explicit schedule)."""
    return Rules(players=players, schedule=Schedule.EXPLICIT, explicit_sizes=(size,), **options)


def expected_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    """The seat that wins ``trick`` by the core rules, computed without the engine.

    The highest trump wins; if no trump was played, the highest card of the led suit.
    """
    led = trick[0][1].suit
    trumps = [(c.rank, seat) for seat, c in trick if trump is not None and c.suit is trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, seat) for seat, c in trick if c.suit is led)[1]


def expected_score(scoring: Scoring, bid: int, took: int) -> int:
    """A seat's points for one round, from the seeds' wording."""
    if scoring is Scoring.TEN_PLUS_BID:
        return 10 + bid if bid == took else 0
    return took + (10 if bid == took else 0)


def snapshot(game: Game) -> dict[str, object]:
    """Everything observable about a game, to compare before and after a refused action."""
    n = game.rules.players
    return {
        "log": game.log,
        "hands": tuple(game.hand(seat) for seat in range(n)),
        "dealt": tuple(game.dealt_hand(seat) for seat in range(n)),
        "bids": game.bids,
        "trick": game.trick,
        "tricks": game.tricks,
        "tricks_won": game.tricks_won,
        "to_act": game.to_act,
        "awaiting": game.awaiting,
        "phase": game.phase,
        "leader": game.leader,
        "dealer": game.dealer,
        "round": game.round_number,
        "turned": game.turned,
        "trump": game.trump,
        "trump_broken": game.trump_broken,
        "plays": game.plays,
        "totals": tuple(game.totals),
        "results": game.results,
        "views": tuple(game.view(seat) for seat in range(n)),
        "legal_bids": game.legal_bids(),
        "legal_cards": game.legal_cards(),
    }


def random_action(game: Game, rng: random.Random) -> None:
    """Make one uniformly random legal bid or play for the seat to act."""
    if game.phase is Phase.BIDDING:
        seat = rng.choice(game.awaiting)
        game.bid(rng.choice(game.legal_bids(seat)), seat)
    elif game.phase is Phase.PLAYING:
        game.play(rng.choice(game.legal_cards()))
    else:  # pragma: no cover - a dealt game never waits for anything else
        raise AssertionError(f"unexpected phase {game.phase}")


def play_out(game: Game, rng: random.Random) -> None:
    """Play uniformly random legal moves until the game is over."""
    while not game.is_over:
        random_action(game, rng)


# ------------------------------------------------------------------ strategies

PRESET_NAMES = sorted(PRESETS)


@st.composite
def preset_and_players(draw: st.DrawFn) -> tuple[str, int]:
    """A preset name and a player count that preset is written for."""
    name = draw(st.sampled_from(PRESET_NAMES))
    found = PRESETS[name]
    return name, draw(st.integers(found.min_players, found.max_players))


@st.composite
def custom_rules(draw: st.DrawFn, max_size: int = 4) -> Rules:
    """Any combination of rule options for 3–8 players, with a short schedule."""
    players = draw(st.integers(3, 8))
    bidding = draw(st.sampled_from(Bidding))
    dealer_bid = DealerBid.FREE if bidding is Bidding.SIMULTANEOUS else draw(st.sampled_from(DealerBid))
    options: dict[str, Any] = {
        "players": players,
        "first_dealer": draw(st.sampled_from(FirstDealer)),
        "bidding": bidding,
        "dealer_bid": dealer_bid,
        "trump_lead": draw(st.sampled_from(TrumpLead)),
        "scoring": draw(st.sampled_from(Scoring)),
    }
    schedule = draw(st.sampled_from(Schedule))
    if schedule is Schedule.EXPLICIT:
        limit = 52 // players
        sizes = draw(
            st.lists(
                st.one_of(st.integers(1, min(limit, max_size)), st.just(limit)),
                min_size=1,
                max_size=4,
            )
        )
        return Rules(schedule=schedule, explicit_sizes=tuple(sizes), **options)
    peak = draw(st.integers(1, min(max_size, 51 // players)))
    return Rules(schedule=schedule, max_cards=peak, **options)


def fields_of(obj: object) -> dict[str, object]:
    """A frozen dataclass's fields by name."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
