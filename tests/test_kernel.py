"""The compiled kernel agrees with the engine: same deals and choices give the same tricks and scores.

Two directions, under every rule option for 3–8 players: the kernel replays the
engine's randomly chosen moves and must find the same trick winners and scores;
and the engine replays the kernel's own moves (random and rule-of-thumb, from the
start of a round or from the middle) through its legality-checked API, so every
kernel move is legal and every outcome agrees. The rule of thumb must also choose
exactly what :class:`~upriver.bots.BasicBot` chooses.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules, random_action
from upriver import DECK, Card, DealerBid, Game, Rules, Schedule, Scoring, Suit, preset
from upriver.bots import BasicBot
from upriver.fast import position_from_game, position_from_view, rollout, sample_worlds, simulate, world_of

SETTINGS = settings(max_examples=40, deadline=None)


def round_winners(game: Game) -> list[int]:
    """Winners of the round's finished tricks so far (the engine forgets them when the round ends)."""
    return [trick.winner for trick in game.tricks]


def finish_round(game: Game, choose: object) -> list[int]:
    """Play the current round to its end with ``choose(game)`` making each move; every trick's winner."""
    number, winners = game.round_number, round_winners(game)
    while game.round_number == number and not game.is_over:
        finished = game.last_trick
        choose(game)  # type: ignore[operator]
        last = game.last_trick  # a trick's cards are never those of the trick before it
        if last is not None and last != finished:
            winners.append(last.winner)
    return winners


@SETTINGS
@given(rules=custom_rules(max_size=6), seed=st.integers(0, 2**32 - 1))
def test_kernel_replaying_engine_moves_finds_the_same_winners_and_scores(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over:
        position, world = position_from_game(game), world_of(game)
        winners = finish_round(game, lambda g: random_action(g, rng))
        result = game.results[-1]
        order = [(position.dealer + 1 + i) % rules.player_count for i in range(rules.player_count)]
        script: tuple[int | Card, ...] = (*[result.bids[s] for s in order], *(result.plays or ()))
        out = rollout(position, world, "random", seed, script=script, record=True)
        assert out.status[0] == 0
        assert out.winners is not None
        assert list(out.winners[0]) == winners
        assert tuple(out.bids[0]) == result.bids
        assert tuple(out.tricks[0]) == result.tricks_won
        assert tuple(out.scores[0]) == result.scores


@SETTINGS
@given(
    rules=custom_rules(max_size=6),
    seed=st.integers(0, 2**32 - 1),
    policy=st.sampled_from(["random", "basic", "learned"]),
    into_round=st.floats(0, 1),
)
def test_engine_accepts_every_kernel_move_and_agrees_on_the_outcome(
    rules: Rules, seed: int, policy: str, into_round: float
) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    # Walk a random way into the round, so the kernel starts mid-bidding or mid-play.
    moves = int(into_round * rules.player_count * (game.hand_size + 1))
    for _ in range(moves):
        random_action(game, rng)
        if game.results:
            return  # walked past the round: nothing is left to complete
    position, world = position_from_game(game), world_of(game)
    held = int(np.bitwise_or.reduce(world[0]))
    out = rollout(position, world, policy, seed, record=True)  # type: ignore[arg-type]
    assert out.status[0] == 0
    assert out.cards is not None
    assert out.winners is not None
    cards = [int(c) for c in out.cards[0] if c >= 0]
    assert sorted(cards) == [c.index for c in DECK if held >> c.index & 1]  # each held card played once
    n = rules.player_count
    number = game.round_number
    for i in range(n):
        seat = (position.dealer + 1 + i) % n
        if position.bids[seat] < 0:
            game.bid(int(out.bids[0, seat]), seat)
    if len(game.results) == number:  # a blind round: its one trick played itself after the bids
        result = game.results[-1]
        assert result.plays == tuple(DECK[c] for c in cards)
        assert game.last_trick is not None
        assert list(out.winners[0]) == [game.last_trick.winner]
        assert tuple(out.tricks[0]) == result.tricks_won
        assert tuple(out.scores[0]) == result.scores
        return
    plays = iter(cards)
    winners = finish_round(game, lambda g: g.play(DECK[next(plays)]))
    result = game.results[-1]
    assert list(out.winners[0, position.tricks_done :]) == winners[position.tricks_done :]
    assert tuple(out.tricks[0]) == result.tricks_won
    assert tuple(out.scores[0]) == result.scores


@pytest.mark.parametrize("scoring", list(Scoring))
@settings(max_examples=12, deadline=None)
@given(rules=custom_rules(max_size=5), seed=st.integers(0, 2**32 - 1))
def test_rule_of_thumb_policy_chooses_what_the_basic_bot_chooses(
    rules: Rules, seed: int, scoring: Scoring
) -> None:
    # Under every scoring: the rule of thumb plays for points, not only for the exact bid.
    rules = rules.replace(scoring=scoring)
    game = Game(rules, seed=seed)
    bot = BasicBot(seed=0)
    while not game.is_over:
        seat = game.awaiting[0]
        view = game.view(seat)
        position = position_from_view(view)
        world = np.zeros((1, rules.player_count), dtype=np.uint64)
        world[0] = world_of(game)[0]
        out = rollout(position, world, "basic", record=True, check=False)
        move = bot.act(view)
        if isinstance(move, Card):
            assert out.cards is not None
            assert DECK[out.cards[0, 0]] == move
            game.play(move, seat)
        else:
            assert out.bids[0, seat] == move
            game.bid(move, seat)


@pytest.mark.slow
def test_a_seed_gives_the_same_results_on_any_number_of_threads() -> None:
    rules = preset("classic", player_count=5)
    one = simulate(rules, 600, "basic", seed=11, threads=1)
    every = simulate(rules, 600, "basic", seed=11)
    again = simulate(rules, 600, "basic", seed=11, threads=2)
    for other in (every, again):
        assert np.array_equal(one.bids, other.bids)
        assert np.array_equal(one.tricks, other.tricks)
        assert np.array_equal(one.scores, other.scores)
    assert not np.array_equal(one.tricks, simulate(rules, 600, "basic", seed=12, threads=1).tricks)


@pytest.mark.parametrize("policy", ["random", "basic"])
@pytest.mark.parametrize("name", ["classic", "classic-hook", "countdown", "closed-fists", "overbid"])
def test_simulate_returns_per_seat_arrays_whose_tricks_add_up(name: str, policy: str) -> None:
    rules = preset(name, player_count=4)
    sim = simulate(rules, 300, policy, seed=3)  # type: ignore[arg-type]
    shape = (300, rules.rounds, 4)
    assert sim.bids.shape == sim.tricks.shape == sim.scores.shape == shape
    assert sim.totals.shape == (300, 4)
    assert np.array_equal(sim.tricks.sum(axis=2), np.broadcast_to(rules.hand_sizes, (300, rules.rounds)))
    exact = sim.bids == sim.tricks
    tricks, bids = sim.tricks.astype(np.int16), sim.bids.astype(np.int16)
    if rules.scoring is Scoring.TEN_PLUS_BID:
        expected = np.where(exact, 10 + bids, 0)
    else:
        expected = tricks + np.where(exact, 10, 0)
    assert np.array_equal(sim.scores, expected)
    totals = sim.bids.sum(axis=2)
    sizes = np.broadcast_to(rules.hand_sizes, totals.shape)
    if rules.dealer_bid is DealerBid.HOOK:
        assert not np.any(totals == sizes)
    elif rules.dealer_bid is DealerBid.OVERBID:
        assert np.all((totals > sizes) | (sim.bids == sizes[..., None]).any(axis=2))


def test_whole_deck_rounds_are_played_without_trump_and_still_add_up() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13, 1))
    sim = simulate(rules, 200, "basic", seed=5)
    assert np.array_equal(sim.tricks.sum(axis=2), np.broadcast_to((13, 1), (200, 2)))


def test_rollout_reports_an_illegal_scripted_move() -> None:
    game = Game(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(5,)), seed=2)
    position, world = position_from_game(game), world_of(game)
    out = rollout(position, world, "random", script=(6,))  # more tricks than cards
    assert out.status[0] == 1
    assert rollout(position, world, "random", script=(5,)).status[0] == 0


def test_rollout_rejects_worlds_that_contradict_the_position() -> None:
    game = Game(preset("countdown", player_count=4), seed=4)
    position, world = position_from_game(game), world_of(game)
    swapped = world.copy()
    swapped[0, position.seat] = world[0, (position.seat + 1) % 4]
    with pytest.raises(ValueError, match="its own hand"):
        rollout(position, swapped)
    doubled = world.copy()
    other = (position.seat + 1) % 4
    doubled[0, other] = world[0, (position.seat + 2) % 4]
    with pytest.raises(ValueError, match="twice"):
        rollout(position, doubled)


@pytest.mark.slow
def test_sampled_worlds_keep_the_seats_hand_and_deal_only_unseen_cards() -> None:
    rng = random.Random(8)
    game = Game(preset("countdown", player_count=5), seed=8)
    for _ in range(12):
        random_action(game, rng)
    position = position_from_game(game)
    worlds = sample_worlds(position, 1000, seed=1)
    assert worlds.shape == (1000, 5)
    assert np.all(worlds[:, position.seat] == position.hand)
    assert np.array_equal(np.bitwise_count(worlds), np.broadcast_to(position.counts, (1000, 5)))
    union = np.bitwise_or.reduce(worlds, axis=1)
    assert np.all(np.bitwise_count(union) == sum(position.counts))
    assert not np.any(union & np.uint64(position.played))
    assert len({tuple(w) for w in worlds.tolist()}) > 900  # the deals really vary
    out = rollout(position, worlds, "basic", seed=3)
    assert np.all(out.status == 0)
    assert np.all(out.tricks.sum(axis=1) == position.hand_size)


def test_importing_upriver_and_its_cli_never_imports_numba() -> None:
    code = (
        "import sys\nfrom upriver.cli import main\nsys.argv = ['upriver', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_kernels_card_strength_judges_every_pair_of_cards_as_the_engine_does() -> None:
    """Exhaustive: every card against every card that can be winning a trick (one of the suit led,
    or a trump), under every trump and suit led; the stronger card is the one ``beats`` lets take it."""
    from upriver.actions import beats
    from upriver.fast.policies import strength

    trumps: tuple[Suit | None, ...] = (None, *Suit)
    table = {
        (card, lead, trump): strength(card.index, lead.index, -1 if trump is None else trump.index)
        for card in DECK
        for lead in Suit
        for trump in trumps
    }
    compared = 0
    for trump in trumps:
        for lead in Suit:
            for best in DECK:
                if best.suit is not lead and best.suit is not trump:
                    continue  # a card off the suit led and not a trump never wins a trick
                for card in DECK:
                    if card is best:
                        continue
                    stronger = table[card, lead, trump] > table[best, lead, trump]
                    assert stronger == beats(card, best, trump), (str(card), str(best), lead, trump)
                    compared += 1
    # A trick's possible winners by suit led: 13 without trump or when trump was led, 26 under each
    # of the 3 other trumps; each met by the 51 other cards.
    assert compared == 4 * (13 + 13 + 3 * 26) * 51


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True),
    trump=st.sampled_from((None, *Suit)),
    leader=st.integers(0, 7),
)
def test_the_kernels_trick_winner_is_the_engines(cards: list[Card], trump: Suit | None, leader: int) -> None:
    from upriver.actions import winning_play
    from upriver.fast.policies import trick_standing

    n = max(len(cards), 3)
    leader %= n
    trick = np.array([card.index for card in cards] + [-1] * (n - len(cards)), dtype=np.int64)
    lead_suit, seat, card, _ = trick_standing(trick, len(cards), leader, -1 if trump is None else trump.index)
    plays = [((leader + i) % n, played) for i, played in enumerate(cards)]
    assert lead_suit == cards[0].suit.index
    assert (seat, DECK[card]) == winning_play(plays, trump)


def test_the_kernels_left_of_the_dealer_is_the_engines() -> None:
    from upriver.deal import left_of as engine_left_of
    from upriver.fast.policies import left_of

    for n in range(3, 9):
        assert [left_of(seat, n) for seat in range(n)] == [engine_left_of(seat, n) for seat in range(n)]
