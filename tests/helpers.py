"""Plain helpers shared by several test modules (the shared fixtures are in ``tests/conftest.py``):
short games, random and bot play, and deals that fit a seat's view."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from upriver import (
    DECK,
    PRESETS,
    Bidding,
    Card,
    DealerBid,
    Game,
    Phase,
    Rules,
    Schedule,
    SeatView,
    preset,
)
from upriver.bots import Bot, act
from upriver.bots.knowledge import knowledge_of
from upriver.options import OPTION, OPTIONS, Kind, RuleOption
from upriver.rules import most_cards

SHORT = preset("classic", 4, max_cards=3)
"""Six rounds of 1–3 cards: games fast enough for many tests."""


def play_bots(game: Game, bots: list[Bot], stop: int | None = None) -> None:
    """Play on (to the end, or ``stop`` moves), checking every answer against the view's legal moves."""
    moves = 0
    while not game.is_over and (stop is None or moves < stop):
        seat = game.awaiting[0]
        view = game.view(seat)
        move = bots[seat].act(view)
        assert move in (view.legal_cards if isinstance(move, Card) else view.legal_bids)
        act(game, seat, _Fixed(move))
        moves += 1


class _Fixed(Bot):
    """Answers one given move: lets :func:`act` apply a move already checked."""

    kind = "fixed"

    def __init__(self, move: int | Card) -> None:
        super().__init__(0)
        self.move = move

    def choose_bid(self, view: SeatView) -> int:
        assert isinstance(self.move, int)
        return self.move

    def choose_card(self, view: SeatView) -> Card:
        assert isinstance(self.move, Card)
        return self.move


def option_strategy(option: RuleOption) -> st.SearchStrategy[Any]:
    """Every value of one rule option, as a field of :class:`Rules` holds it, from its kind in the
    options table: a choice's members, true or false, a hand size."""
    if option.kind is Kind.SWITCH:
        return st.booleans()
    if option.kind is Kind.WHOLE:
        return st.integers(1, 17)
    return st.sampled_from(option.choices)


CHOSEN = tuple(
    option.name for option in OPTIONS if option.kind is not Kind.WHOLE and option.name != "schedule"
)
"""The rule options chosen from a fixed set of values: all but the schedule and its size."""


@st.composite
def rule_choices(
    draw: st.DrawFn, /, names: tuple[str, ...] = CHOSEN, **strategies: st.SearchStrategy[Any]
) -> dict[str, Any]:
    """A value for each rule option of ``names`` (every one chosen from a fixed set, by default), as
    :class:`Rules` fields; ``strategies`` draw some options otherwise (``scoring=…`` with custom
    scorings). Simultaneous bidding comes with the free dealer's bid, the one it can have."""
    values = {name: draw(strategies.get(name, option_strategy(OPTION[name]))) for name in names}
    if values.get("bidding") is Bidding.SIMULTANEOUS and "dealer_bid" in values:
        values["dealer_bid"] = DealerBid.FREE
    return values


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A short game under any preset or custom rules (3–8 players, whole-deck rounds without trump)."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(PRESETS)))
        players = draw(st.integers(PRESETS[name].min_players, PRESETS[name].max_players))
        rules = preset(name, players, max_cards=draw(st.integers(1, min(3, most_cards(players)))))
    else:
        players = draw(st.integers(3, 8))
        rules = Rules(
            player_count=players,
            schedule=Schedule.EXPLICIT,
            explicit_sizes=tuple(draw(st.lists(st.integers(1, 52 // players), min_size=1, max_size=2))),
            **draw(rule_choices(("bidding", "dealer_bid", "trump_lead", "scoring"))),
        )
    return Game(rules, seed=draw(st.integers(0, 2**32)))


def random_move(game: Game, rng: random.Random) -> None:
    """One uniformly random legal move by a seat that may act (any pending bidder when simultaneous)."""
    seat = rng.choice(game.awaiting)
    if game.phase is Phase.BIDDING:
        game.bid(rng.choice(game.legal_bids(seat)), seat)
    else:
        game.play(rng.choice(game.legal_cards(seat)), seat)


def hidden_bids(game: Game, seat: int) -> dict[int, int] | None:
    """The bids ``seat``'s view hides (simultaneous bidding still under way), as the game has them."""
    if game.rules.bidding is not Bidding.SIMULTANEOUS or game.phase is not Phase.BIDDING:
        return None
    return {s: bid for s, bid in enumerate(game.bids) if bid is not None and s != seat}


def other_deal(view: SeatView, rng: random.Random) -> list[tuple[Card, ...]] | None:
    """A random deal of the unseen cards to the other seats that fits what the view has shown; in a
    blind round the others' cards are seen, and the unseen one is the seat's own."""
    if view.foreheads:
        seen = {card for card in view.foreheads if card is not None} | {view.turned}
        own = rng.choice([card for card in DECK if card not in seen])
        return [(own,) if card is None else (card,) for card in view.foreheads]
    know = knowledge_of(view)
    hands: list[tuple[Card, ...]] = [()] * view.player_count
    hands[view.seat] = view.hand
    pool = [card for card in DECK if know.unknown & card.mask]
    others = sorted(
        (s for s in range(view.player_count) if s != view.seat), key=lambda s: -know.voids[s].bit_count()
    )
    for s in others:
        allowed = [card for card in pool if know.allows(s, card)]
        if len(allowed) < know.counts[s]:
            return None
        hand = rng.sample(allowed, know.counts[s])
        hands[s] = tuple(sorted(hand))
        pool = [card for card in pool if card not in hand]
    return hands


HOUSE_RULES: dict[str, dict[str, object]] = {
    "negative": {"preset": "countdown", "scoring": "negative"},
    "balanced": {"preset": "countdown", "scoring": "balanced"},
    "hybrid": {"preset": "countdown", "scoring": "hybrid"},
    "doubles": {"preset": "countdown", "scoring": "doubles"},
    "triples": {"preset": "countdown", "scoring": "triples"},
    "squares": {"preset": "countdown", "scoring": "squares"},
    "anderson": {"preset": "classic", "scoring": "anderson"},
    "custom-scoring": {
        "preset": "classic",
        "scoring": {"exact_bonus": 20, "per_trick": 2, "per_trick_when": "exact", "miss_per_trick_off": 5},
    },
    "rotate": {"preset": "classic", "trump": "rotate"},
    "after-first-trick": {"preset": "countdown", "trump_lead": "after-first-trick"},
    "blind-one-card": {"preset": "classic", "blind_one_card": True},
}
"""The house rules each written down as a golden record (``tests/golden/<name>.json``), as rule options."""
