"""Properties of whole games under random legal play, for every preset and every option combination.

Each game is checked twice: step by step while it is played (the legal choices agree with
``can_*`` and ``check_*``), and afterwards from its log alone, recomputing every trick winner,
trick count, score, dealer and bid restriction independently of the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules, expected_score, expected_winner, preset_and_players
from upriver import (
    DECK,
    BidAction,
    Bidding,
    Card,
    DealAction,
    DealerBid,
    FirstDealer,
    Game,
    IllegalActionError,
    Phase,
    PlayAction,
    Rules,
    Schedule,
    Suit,
    Trump,
    TrumpLead,
    preset,
    winning_play,
)

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def check_legal_choices(game: Game) -> None:
    """``legal_bids``/``legal_cards`` are exactly what ``can_*`` accepts and ``check_*`` lets pass."""
    n = game.rules.player_count
    if game.phase is Phase.BIDDING:
        size = game.hand_size
        for seat in range(n):
            bids = game.legal_bids(seat)
            accepted = tuple(b for b in range(-1, size + 2) if game.can_bid(b, seat))
            assert bids == accepted
            assert game.view(seat).legal_bids == bids
            assert game.view(seat).legal_cards == ()
            for b in range(-1, size + 2):
                if b in bids:
                    game.check_bid(b, seat)
                else:
                    with pytest.raises(IllegalActionError):
                        game.check_bid(b, seat)
            assert bool(bids) == (seat in game.awaiting)
    elif game.phase is Phase.PLAYING:
        actor = game.to_act
        assert actor is not None
        legal = game.legal_cards()
        assert legal == game.legal_cards(actor) == game.view(actor).legal_cards
        assert set(legal) <= set(game.hand(actor))
        assert legal, "the seat to act always has a legal card"
        assert {c for c in DECK if game.can_play(c)} == set(legal)
        for c in DECK:
            if c in legal:
                game.check_play(c)
            else:
                with pytest.raises(IllegalActionError):
                    game.check_play(c)
        for seat in set(range(n)) - {actor}:
            assert game.legal_cards(seat) == ()
            assert game.view(seat).legal_cards == ()
            assert not any(game.can_play(c, seat) for c in legal)


def play_checked(game: Game, rng: random.Random, *, check_every: int = 1) -> None:
    """Play uniformly random legal moves to the end, checking the legal choices as it goes."""
    step = 0
    while not game.is_over:
        if step % check_every == 0:
            check_legal_choices(game)
        step += 1
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            assert game.phase is Phase.PLAYING
            game.play(rng.choice(game.legal_cards()))


def check_finished_game(game: Game) -> None:
    """Recompute the whole game from its log and compare with what the engine reported."""
    rules = game.rules
    n = rules.player_count
    assert game.phase is Phase.OVER
    assert len(game.results) == rules.rounds == len(rules.hand_sizes)
    log = list(game.log)
    deals = [i for i, action in enumerate(log) if isinstance(action, DealAction)]
    assert len(deals) == rules.rounds
    totals = [0] * n
    for number, (start, result) in enumerate(zip(deals, game.results, strict=True), start=1):
        end = deals[number] if number < len(deals) else len(log)
        deal = log[start]
        assert isinstance(deal, DealAction)
        actions = log[start + 1 : end]
        size = rules.hand_sizes[number - 1]
        assert result.number == deal.round == number
        assert result.hand_size == size

        # The deal passes left each round.
        assert deal.dealer == result.dealer == (game.first_dealer + number - 1) % n

        # Cards are conserved: hands and the turn-up are distinct cards of the one deck.
        assert deal.hands is not None
        hands = [set(hand) for hand in deal.hands]
        assert [len(hand) for hand in hands] == [size] * n
        dealt = [c for hand in deal.hands for c in hand]
        assert len(set(dealt)) == n * size
        if rules.trump is Trump.ROTATE:  # hearts, diamonds, clubs, spades, none; nothing turned
            assert deal.turned is None
            assert deal.trump is (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, None)[(number - 1) % 5]
        elif n * size < 52:
            assert deal.turned is not None
            assert deal.turned not in set(dealt)
            assert deal.trump is deal.turned.suit
        else:
            assert deal.turned is None
            assert deal.trump is None
        assert result.turned is deal.turned
        assert result.trump is deal.trump

        # Bids: one per seat, in order left of the dealer first (unless simultaneous), 0..size.
        bids = [a for a in actions if isinstance(a, BidAction)]
        plays = [a for a in actions if isinstance(a, PlayAction)]
        assert len(bids) + len(plays) == len(actions)
        assert actions[: len(bids)] == bids, "every bid comes before the first card"
        order = [(deal.dealer + 1 + i) % n for i in range(n)]
        if rules.bidding is Bidding.SEQUENTIAL:
            assert [b.seat for b in bids] == order
        else:
            assert sorted(b.seat for b in bids) == list(range(n))
        by_seat = {b.seat: b.bid for b in bids}
        assert tuple(by_seat[s] for s in range(n)) == result.bids
        assert all(0 <= b <= size for b in result.bids)
        total = sum(result.bids)
        dealer_bid = result.bids[deal.dealer]
        if rules.dealer_bid is DealerBid.HOOK:
            assert total != size
        elif rules.dealer_bid is DealerBid.OVERBID:
            others = total - dealer_bid
            assert total > size or (others + size <= size and dealer_bid == size)

        # Every dealt card is played exactly once, in turn, following suit; recompute each trick.
        assert len(plays) == n * size
        assert sorted(p.card for p in plays) == sorted(dealt)
        assert result.plays == tuple(p.card for p in plays)
        held = [set(hand) for hand in hands]
        leader = (deal.dealer + 1) % n
        took = [0] * n
        broken = False
        for t in range(size):
            trick = plays[t * n : (t + 1) * n]
            assert [p.seat for p in trick] == [(leader + i) % n for i in range(n)]
            led = trick[0].card.suit
            lead_card = trick[0].card
            if rules.trump_lead is TrumpLead.BROKEN and lead_card.suit is deal.trump and not broken:
                assert all(c.suit is deal.trump for c in held[leader]), "trump led before broken"
            if rules.trump_lead is TrumpLead.AFTER_FIRST_TRICK and lead_card.suit is deal.trump and t == 0:
                assert all(c.suit is deal.trump for c in held[leader]), "trump led to the first trick"
            for p in trick:
                assert p.card in held[p.seat]
                if p.card.suit is not led:
                    assert all(c.suit is not led for c in held[p.seat]), "did not follow suit"
                held[p.seat].remove(p.card)
            pairs = [(p.seat, p.card) for p in trick]
            winner = expected_winner(pairs, deal.trump)
            took[winner] += 1
            if any(c.suit is deal.trump for _, c in pairs):
                broken = True
            leader = winner
        assert all(not hand for hand in held)
        assert tuple(took) == result.tricks_won
        assert sum(result.tricks_won) == size

        # Scores follow the formula.
        scores = tuple(
            expected_score(rules.scoring, b, k, number) for b, k in zip(result.bids, took, strict=True)
        )
        assert result.scores == scores
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
    assert game.totals == tuple(totals)
    best = max(totals)
    assert game.winners == tuple(s for s in range(n) if totals[s] == best)
    assert game.winners


def check_tricks_of_current_round(game: Game) -> None:
    """Each finished trick of the round in progress has exactly one, correct, winner."""
    for trick in game.tricks:
        assert len(trick.cards) == game.rules.player_count
        assert trick.plays[0][0] == trick.leader
        assert trick.winner == expected_winner(trick.plays, game.trump)


@pytest.mark.slow
@FAST
@given(choice=preset_and_players(), seed=seeds)
def test_presets_play_by_the_rules_under_random_legal_play(choice: tuple[str, int], seed: int) -> None:
    name, players = choice
    rules = preset(name, player_count=players)
    game = Game(rules, seed=seed)
    if rules.first_dealer is FirstDealer.FIRST_JACK:
        assert game.dealer == game.dealer_draw[-1][0]
    play_checked(game, random.Random(seed), check_every=3)
    check_finished_game(game)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(rules=custom_rules(), seed=seeds)
def test_every_option_combination_plays_by_the_rules(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        check_legal_choices(game)
        check_tricks_of_current_round(game)
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    check_finished_game(game)


@settings(max_examples=40, deadline=None)
@given(rules=custom_rules(), seed=seeds)
def test_trump_broken_flag_is_true_exactly_after_a_trump_was_played(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.phase is Phase.PLAYING:
            trump = game.trump
            played = [c for t in game.tricks for _, c in t.plays] + [c for _, c in game.trick]
            assert game.trump_broken == any(c.suit is trump for c in played)
            actor = game.to_act
            assert actor is not None
            hand = game.hand(actor)
            if not game.trick and rules.trump_lead is TrumpLead.BROKEN and not game.trump_broken:
                non_trumps = tuple(c for c in hand if c.suit is not trump)
                assert game.legal_cards() == (non_trumps or hand)
            game.play(rng.choice(game.legal_cards()))
        else:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)


@settings(max_examples=40, deadline=None)
@given(rules=custom_rules(max_size=6), seed=seeds)
def test_schedule_matches_rules_and_deals_are_conserved(rules: Rules, seed: int) -> None:
    assert rules.rounds == len(rules.hand_sizes)
    if rules.schedule is Schedule.UP_DOWN:
        peak = max(rules.hand_sizes)
        assert rules.hand_sizes == tuple(range(1, peak + 1)) + tuple(range(peak, 0, -1))
    elif rules.schedule is Schedule.DOWN_UP:
        start = rules.hand_sizes[0]
        assert rules.hand_sizes == tuple(range(start, 0, -1)) + tuple(range(2, start + 1))
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    sizes: list[int] = []
    while not game.is_over:
        if game.phase is Phase.BIDDING and all(b is None for b in game.bids):
            hands = [game.hand(s) for s in range(rules.player_count)]
            everything: Counter[Card] = Counter(c for hand in hands for c in hand)
            if game.turned is not None:
                everything[game.turned] += 1
            assert all(count == 1 for count in everything.values())
            assert {len(h) for h in hands} == {game.hand_size}
            sizes.append(game.hand_size)
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    assert tuple(sizes) == rules.hand_sizes
    assert game.phase is Phase.OVER
    assert game.to_act is None


@settings(max_examples=30, deadline=None)
@given(choice=preset_and_players(), seed=seeds, moves=seeds)
def test_same_seed_and_moves_replay_the_same_game(choice: tuple[str, int], seed: int, moves: int) -> None:
    name, players = choice
    rules = preset(name, player_count=players)
    logs = []
    for _ in range(2):
        game = Game(rules, seed=seed)
        rng = random.Random(moves)
        for _ in range(40):
            if game.is_over:
                break
            if game.phase is Phase.BIDDING:
                seat = rng.choice(game.awaiting)
                game.bid(rng.choice(game.legal_bids(seat)), seat)
            else:
                game.play(rng.choice(game.legal_cards()))
        logs.append((game.dealer_draw, game.log))
    assert logs[0] == logs[1]


@pytest.mark.parametrize(("players", "rounds"), [(4, 22), (5, 20), (6, 16), (7, 14)])
def test_classic_schedule_lengths_are_22_20_16_14(players: int, rounds: int) -> None:
    rules = preset("classic", player_count=players)
    assert rules.rounds == len(rules.hand_sizes) == rounds
    game = Game(rules, seed=players)
    play_checked(game, random.Random(players), check_every=7)
    check_finished_game(game)
    assert len(game.results) == rounds


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 8),
    deck=st.permutations(DECK),
    trump=st.one_of(st.none(), st.sampled_from(Suit)),
)
def test_trick_winner_matches_independent_recomputation(
    players: int, deck: list[Card], trump: Suit | None
) -> None:
    """Any trick of a one-card round is won by the highest trump, else the highest of the led suit."""
    hand_cards = deck[:players]
    turned = deck[players]
    if trump is not None:
        # Turn up a card of the drawn suit that is in no hand (there always is one).
        turned = next(c for c in DECK if c.suit is trump and c not in hand_cards)
    rules = Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(1,))
    game = Game(rules, auto_deal=False, dealer=players - 1)
    game.deal([(c,) for c in hand_cards], turned)
    for _ in range(players):
        game.bid(0)
    for seat in range(players):
        game.play(hand_cards[seat])
    winner = expected_winner([(s, hand_cards[s]) for s in range(players)], turned.suit)
    assert game.results[0].tricks_won == tuple(1 if s == winner else 0 for s in range(players))


@settings(max_examples=40, deadline=None)
@given(rules=custom_rules(max_size=6), seed=seeds)
def test_winning_play_leads_each_next_trick_exactly_as_the_played_game_went(rules: Rules, seed: int) -> None:
    """``winning_play``, the rule bots and observations read, agrees with every trick a game decides.

    Each round's cards are replayed from its result alone: the first trick led left of the
    dealer, each later one by the seat ``winning_play`` names, so one wrong winner puts the
    next cards in the wrong hands and the tricks taken off the game's count.
    """
    game = Game(rules, seed=seed)
    play_checked(game, random.Random(seed), check_every=1_000_000)
    n = rules.player_count
    for result in game.results:
        assert result.plays is not None
        assert result.hands is not None
        took = [0] * n
        leader = (result.dealer + 1) % n
        for start in range(0, len(result.plays), n):
            plays = [((leader + i) % n, card) for i, card in enumerate(result.plays[start : start + n])]
            assert all(card in result.hands[seat] for seat, card in plays)
            leader, _ = winning_play(plays, result.trump)
            took[leader] += 1
        assert tuple(took) == result.tricks_won
