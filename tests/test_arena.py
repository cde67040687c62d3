"""The arena: duplicate deals, statistics with known answers, reproducible runs, reports, interruption,
specs, and the OpenSpiel mirror (against a small stand-in for pyspiel; the fair seat's tests, in
test_arena_fair.py, play the real one)."""

from __future__ import annotations

import json
import math
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from tests.helpers import SHORT
from upriver import Card, DealerBid, Game, Rules, Schedule, SeatView, preset
from upriver.actions import BidAction, DealAction, PlayAction
from upriver.arena.core import ArenaConfig, ArenaResult, run_arena
from upriver.arena.match import GameResult, play_out
from upriver.arena.openspiel import (
    Mirror,
    OpenSpielPlayer,
    action_move,
    card_action,
    check_rules,
    deal_actions,
    move_action,
    openspiel_rules,
)
from upriver.arena.runner import run_games
from upriver.arena.schedule import plan, rotations
from upriver.arena.spec import ArenaError, BotPlayer, BotSpec, SeatPlayer, parse_spec
from upriver.arena.stats import estimate, summarize, t_quantile
from upriver.bots import BOT_KINDS, Bot, make_bot
from upriver.cards import DECK
from upriver.cli import app
from upriver.cli import arena as arena_cli

assert arena_cli  # registers `arena` on the app, for the OpenSpiel tests' runs


def result(
    index: int,
    deal: int,
    seating: tuple[int, ...],
    totals: tuple[int, ...],
    *,
    hands: int = 2,
    exact: tuple[int, ...] = (0, 0, 0, 0),
    within_one: tuple[int, ...] = (0, 0, 0, 0),
    times: tuple[tuple[float, ...], ...] = (),
) -> GameResult:
    return GameResult(
        index=index,
        deal=deal,
        rotation=index % 2,
        seed=deal,
        seating=seating,
        totals=totals,
        hands=hands,
        exact=exact,
        within_one=within_one,
        move_seconds=times,
    )


AB, BA = (0, 1, 0, 1), (1, 0, 1, 0)


# ------------------------------------------------------------- statistics


def test_t_quantile_matches_published_table_values() -> None:
    assert t_quantile(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile(2) == pytest.approx(4.303, abs=1e-3)
    assert t_quantile(10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile(40) == pytest.approx(2.021, abs=1e-3)
    assert t_quantile(120) == pytest.approx(1.980, abs=1e-3)
    assert t_quantile(10**7) == pytest.approx(1.960, abs=1e-3)


def test_estimate_gives_the_t_interval_and_none_from_one_value() -> None:
    est = estimate([1.0, 2.0, 3.0])
    half = 4.302653 * 1.0 / math.sqrt(3)  # sd of 1, 2, 3 is 1
    assert (est.mean, est.n) == (2.0, 3)
    assert est.low == pytest.approx(2 - half)
    assert est.high == pytest.approx(2 + half)
    one = estimate([5.0])
    assert (one.mean, one.low, one.high) == (5.0, None, None)


def test_summary_of_a_synthetic_arena_gives_the_hand_computed_answers() -> None:
    # Three duplicate sets of two rotations; bot 0 holds seats 0 and 2 in ABAB, 1 and 3 in BABA.
    games = [
        result(0, 0, AB, (10, 0, 20, 0), exact=(2, 0, 1, 1), within_one=(2, 1, 2, 1)),
        result(1, 0, BA, (0, 10, 10, 0), exact=(0, 1, 2, 0), within_one=(1, 2, 2, 0)),
        result(2, 1, AB, (30, 10, 30, 10), exact=(1, 1, 1, 1), within_one=(2, 2, 2, 2)),
        result(3, 1, BA, (10, 20, 10, 20), exact=(0, 2, 0, 2), within_one=(1, 2, 1, 2)),
        result(4, 2, AB, (5, 5, 5, 5), exact=(1, 1, 1, 1), within_one=(1, 1, 1, 1)),
        result(5, 2, BA, (5, 5, 5, 5), exact=(1, 1, 1, 1), within_one=(1, 1, 1, 1)),
    ]
    summary = summarize(games, ["A", "B"], rotations=2)
    a, b = summary.bots
    # Per set, A's mean over its four seats: (10+20+10+0)/4 = 10, (30+30+20+20)/4 = 25, 5.
    assert a.points_per_game.mean == pytest.approx(40 / 3)
    per_set_a = [10.0, 25.0, 5.0]
    mean_a = sum(per_set_a) / 3
    sd_a = math.sqrt(sum((v - mean_a) ** 2 for v in per_set_a) / 2)
    assert a.points_per_game.high == pytest.approx(mean_a + 4.302653 * sd_a / math.sqrt(3))
    # B: (0+0+0+10)/4 = 2.5, (10+10+10+10)/4 = 10, 5; per hand halves that (2 hands a game).
    assert b.points_per_game.mean == pytest.approx(17.5 / 3)
    assert b.points_per_hand.mean == pytest.approx(17.5 / 6)
    # Wins: A (seat 2); A and B tie (seats 1 and 2); A (seats 0, 2); A (seats 1, 3); two four-way ties.
    assert a.win_share == pytest.approx((1 + 0.5 + 1 + 1 + 0.5 + 0.5) / 6)
    assert b.win_share == pytest.approx((0 + 0.5 + 0 + 0 + 0.5 + 0.5) / 6)
    # A's seats, 2 rounds each: exact 2+1, 1+0, 1+1, 2+2, 1+1, 1+1 = 14 of 24; within one 18 of 24.
    assert a.exact_rate == pytest.approx(14 / 24)
    assert a.within_one_rate == pytest.approx((4 + 2 + 4 + 4 + 2 + 2) / 24)
    assert b.exact_rate == pytest.approx((0 + 1 + 0 + 2 + 1 + 1 + 0 + 0 + 1 + 1 + 1 + 1) / 24)
    diff = summary.pairs[0]
    assert (diff.a, diff.b) == ("A", "B")
    assert diff.difference.mean == pytest.approx(mean_a - 17.5 / 3)
    assert (summary.games, summary.sets, summary.dropped_games) == (6, 3, 0)


def test_ties_share_the_win_between_bots() -> None:
    games = [result(0, 0, AB, (7, 7, 3, 3)), result(1, 0, BA, (7, 3, 3, 7))]
    a, b = summarize(games, ["A", "B"], rotations=2).bots
    assert a.win_share == pytest.approx(0.5)
    assert b.win_share == pytest.approx(0.5)
    assert a.win_share + b.win_share == pytest.approx(1.0)


def test_move_times_give_the_mean_and_95th_percentile() -> None:
    times = (tuple(float(i) for i in range(1, 101)), (1.0,), (), (3.0,))
    games = [result(0, 0, AB, (1, 2, 3, 4), times=times), result(1, 0, BA, (1, 2, 3, 4))]
    a, b = summarize(games, ["A", "B"], rotations=2).bots
    assert a.moves == 100
    assert a.mean_move_s == pytest.approx(50.5)
    assert a.p95_move_s == pytest.approx(95.05)
    assert (b.moves, b.mean_move_s) == (2, 2.0)


def test_only_complete_duplicate_sets_count_when_there_are_some() -> None:
    games = [result(0, 0, AB, (1, 0, 1, 0)), result(1, 0, BA, (1, 0, 1, 0)), result(2, 1, AB, (9, 0, 9, 0))]
    summary = summarize(games, ["A", "B"], rotations=2)
    assert (summary.games, summary.sets, summary.dropped_games) == (2, 1, 1)
    assert summary.bots[0].points_per_game.mean == pytest.approx(0.5)


def test_ratings_put_the_bot_that_always_scores_more_above() -> None:
    games = [
        result(i, i // 2, seating, tuple(20 if bot == 0 else 5 for bot in seating))
        for i, seating in enumerate([AB, BA] * 10)
    ]
    a, b = summarize(games, ["A", "B"], rotations=2).bots
    assert a.rating.mu > 25 > b.rating.mu
    assert a.rating.ordinal == pytest.approx(a.rating.mu - 3 * a.rating.sigma)


# ---------------------------------------------------------- duplicate deals


@pytest.mark.parametrize("seats", range(3, 9))
def test_rotations_seat_every_bot_in_every_seat_equally_often(seats: int) -> None:
    for bots in range(1, seats + 1):
        seatings = rotations(seats, bots)
        for seat in range(seats):
            counts = [sum(seating[seat] == bot for seating in seatings) for bot in range(bots)]
            holds = [sum(seating.count(bot) for seating in seatings) / seats for bot in range(bots)]
            assert counts == pytest.approx(holds)  # in proportion to the seats each bot holds
        assert len(set(seatings)) == len(seatings)


def test_plan_rounds_games_up_to_whole_duplicate_sets() -> None:
    tasks = plan(("random", "basic", "random"), SHORT, 5, seed=1)
    assert len(tasks) == 8  # 3 bots at 4 seats: 4 distinct rotations a set
    assert [task.index for task in tasks] == list(range(8))
    assert len({task.seed for task in tasks}) == 2


def test_every_rotation_of_a_duplicate_set_is_dealt_the_same_cards() -> None:
    tasks = plan(("random", "basic"), SHORT, 4, seed=11)
    dealt: dict[int, list[tuple[object, ...]]] = {}
    for task in tasks:
        game = Game(task.rules, seed=task.seed)
        bots: list[Bot] = [make_bot(task.specs[bot], seed=seat) for seat, bot in enumerate(task.seating)]
        rounds: list[tuple[object, ...]] = []
        while not game.is_over:
            if not game.plays and not any(bid is not None for bid in game.bids):
                hands = tuple(game.dealt_hand(seat) for seat in range(4))
                rounds.append((game.dealer, game.turned, hands))
            seat = game.awaiting[0]
            move = bots[seat].act(game.view(seat))
            if isinstance(move, Card):
                game.play(move, seat=seat)
            else:
                game.bid(move, seat=seat)
        dealt.setdefault(task.deal, []).append(tuple(rounds))
    assert len(dealt) == 2
    for deals in dealt.values():
        assert len(deals) == 2
        assert deals[0] == deals[1]
        assert len(deals[0]) == SHORT.rounds
    assert dealt[0] != dealt[1]


# -------------------------------------------------------------- real runs


def numbers(res: ArenaResult) -> list[object]:
    """Everything in a result that does not depend on the clock."""
    return [
        [(r.index, r.seed, r.seating, r.totals, r.exact, r.within_one) for r in res.results],
        [
            (b.name, b.points_per_game, b.points_per_hand, b.win_share, b.exact_rate, b.rating)
            for b in res.summary.bots
        ],
        res.summary.pairs,
    ]


def test_basic_beats_random_and_one_or_two_jobs_give_the_same_numbers() -> None:
    config = ArenaConfig(bots=("random", "basic"), rules=SHORT, games=6, seed=5)
    alone = run_arena(config)
    shared = run_arena(ArenaConfig(bots=config.bots, rules=SHORT, games=6, seed=5, jobs=2))
    assert numbers(alone) == numbers(shared)
    assert len(alone.results) == 6
    assert not alone.interrupted
    random_bot, basic = alone.summary.bots
    assert basic.points_per_game.mean > random_bot.points_per_game.mean
    assert all(bot.moves > 0 and bot.mean_move_s > 0 for bot in alone.summary.bots)


def test_a_fixed_seed_gives_the_same_games_and_another_seed_others() -> None:
    config = ArenaConfig(bots=("random", "random"), rules=SHORT, games=4, seed=3)
    assert numbers(run_arena(config)) == numbers(run_arena(config))
    other = ArenaConfig(bots=config.bots, rules=SHORT, games=4, seed=4)
    assert numbers(run_arena(config))[0] != numbers(run_arena(other))[0]


class FirstLegal(Bot):
    """A bot registered only in this test: it proves that the arena takes any registered kind."""

    kind = "first-legal"
    seen: ClassVar[list[SeatView]] = []

    def choose_bid(self, view: SeatView) -> int:
        FirstLegal.seen.append(view)
        return view.legal_bids[0]

    def choose_card(self, view: SeatView) -> Card:
        FirstLegal.seen.append(view)
        return view.legal_cards[0]


def test_the_arena_plays_any_registered_kind_and_shows_it_only_its_seat_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOT_KINDS, FirstLegal.kind, FirstLegal)
    FirstLegal.seen = []
    res = run_arena(ArenaConfig(bots=("first-legal", "basic"), rules=SHORT, games=2, seed=1))
    assert [bot.name for bot in res.summary.bots] == ["first-legal", "basic"]
    assert FirstLegal.seen
    assert all(type(view) is SeatView for view in FirstLegal.seen)
    assert all(view.to_act == view.seat and view.my_turn for view in FirstLegal.seen)


# ---------------------------------------------------------- interruption


def test_a_stop_event_ends_the_run_and_the_finished_games_are_reported() -> None:
    stop = threading.Event()
    done: list[GameResult] = []

    def finished(res: GameResult) -> None:
        done.append(res)
        if len(done) == 3:
            stop.set()

    config = ArenaConfig(bots=("random", "basic"), rules=SHORT, games=10, seed=2)
    res = run_arena(config, runner=lambda tasks: run_games(tasks, on_result=finished, stop=stop))
    assert res.interrupted
    assert len(res.results) == 3
    assert res.planned == 10
    assert res.summary.games == 2  # the third game's set is incomplete
    assert res.summary.dropped_games == 1


def interrupt_after(count: int) -> Callable[[GameResult], None]:
    seen: list[GameResult] = []

    def finished(res: GameResult) -> None:
        seen.append(res)
        if len(seen) == count:
            raise KeyboardInterrupt

    return finished


def test_ctrl_c_with_worker_processes_keeps_the_games_already_played() -> None:
    tasks = plan(("random", "basic"), SHORT, 40, seed=9)
    outcome = run_games(tasks, jobs=2, on_result=interrupt_after(2))
    assert outcome.interrupted
    assert 2 <= len(outcome.results) < len(tasks)
    assert len({r.index for r in outcome.results}) == len(outcome.results)


# ------------------------------------------------------------------- specs


def test_specs_read_name_and_budget() -> None:
    assert parse_spec(" Basic ") == BotSpec("basic")
    assert parse_spec("openspiel-ismcts:1000") == BotSpec("openspiel-ismcts", "1000")
    assert str(parse_spec("openspiel-ismcts : 50")) == "openspiel-ismcts:50"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("wizard", "unknown bot 'wizard': expected one of random, basic"),
        ("basic:", "has a ':' but no budget"),
        ("", "unknown bot ''"),
    ],
)
def test_bad_specs_are_refused_with_a_message(text: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        parse_spec(text)


def test_a_budget_for_a_kind_without_one_is_refused_before_any_game() -> None:
    with pytest.raises(ArenaError, match="takes no budget"):
        parse_spec("basic:5").factory()


def test_a_spec_makes_a_bot_player_that_answers_from_the_view() -> None:
    player = parse_spec("basic").factory()(3)
    assert isinstance(player, BotPlayer)
    game = Game(SHORT, seed=1)
    seat = game.awaiting[0]
    assert player.move(game.view(seat)) in game.legal_bids(seat)


# ------------------------------------------------------ OpenSpiel mirroring


def test_openspiel_card_actions_follow_its_deck_order() -> None:
    # pyspiel's oh_hell names actions 0, 1, 2, 3 C2 D2 S2 H2, then C3 ..., up to HA at 51.
    order = [Card.parse(rank + suit) for rank in "23456789TJQKA" for suit in "CDSH"]
    assert [card_action(card) for card in order] == list(range(52))
    assert all(action_move(card_action(card)) is card for card in DECK)
    assert [move_action(bid) for bid in (0, 3)] == [52, 55]
    assert [action_move(52 + bid) for bid in (0, 10)] == [0, 10]


def test_openspiel_deal_actions_deal_round_robin_then_turn_up_trump() -> None:
    hands = [[Card.parse(text) for text in hand.split()] for hand in ("AS KS", "2C 3C", "2D 3D", "2H 3H")]
    actions = deal_actions(4, 2, hands, Card.parse("4C"))
    assert actions[:2] == [2, 2]  # two tricks, dealer seat 2
    assert [action_move(a) for a in actions[2:10]] == [hands[seat][k] for k in range(2) for seat in range(4)]
    assert action_move(actions[-1]) is Card.parse("4C")


def test_openspiel_rules_are_refused_unless_they_match_oh_hell() -> None:
    check_rules(openspiel_rules(4, 10))
    check_rules(preset("countdown", 4))
    with pytest.raises(ArenaError, match=r"dealer_bid 'free'.*trump_lead 'broken'.*scoring 'ten-plus-bid'"):
        check_rules(preset("classic", 4))
    with pytest.raises(ArenaError, match="8 players"):
        check_rules(preset("countdown", 8, max_cards=5))
    whole = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13,), dealer_bid=DealerBid.HOOK)
    with pytest.raises(ArenaError, match="hands of 13 cards"):
        check_rules(whole)


class FakeOhHellState:
    """OpenSpiel's ``oh_hell`` as its source describes it, small: chance deal, bids with the hook, tricks."""

    def __init__(self, players: int) -> None:
        self.n = players
        self.chance: list[int] = []
        self.size = 0
        self.holder: dict[int, int] = {}
        self.bids: list[int | None] = [None] * players
        self.won = [0] * players
        self.trick: list[tuple[int, int]] = []
        self.played = 0
        self.player = -1
        self.actions: list[int] = []

    def history(self) -> list[int]:
        return list(self.actions)

    def _chance_done(self) -> bool:
        return len(self.chance) >= 3 and len(self.chance) == 3 + self.n * self.chance[0]

    def current_player(self) -> int:
        if self.is_terminal():
            return -4
        return self.player if self._chance_done() else -1

    def is_terminal(self) -> bool:
        return self._chance_done() and self.played == self.n * self.size

    def legal_actions(self) -> list[int]:
        if None in self.bids:
            last = sum(b is None for b in self.bids) == 1
            total = sum(b or 0 for b in self.bids)
            return [52 + b for b in range(self.size + 1) if not (last and b + total == self.size)]
        mine = [c for c, p in self.holder.items() if p == self.player]
        led = [c for c in mine if self.trick and c % 4 == self.trick[0][1] % 4]
        return sorted(led or mine)

    def apply_action(self, action: int) -> None:
        self.actions.append(action)
        if not self._chance_done():
            self.chance.append(action)
            if len(self.chance) == 1:
                self.size = action
            elif 2 < len(self.chance) <= 2 + self.n * self.size:
                self.holder[action] = (len(self.chance) - 3) % self.n
            if len(self.chance) >= 2:
                self.player = (self.chance[1] + 1) % self.n  # left of the dealer bids first
            return
        assert action in self.legal_actions(), (action, self.legal_actions())
        if action >= 52:
            self.bids[self.player] = action - 52
            self.player = (self.player + 1) % self.n
            return
        del self.holder[action]
        self.trick.append((self.player, action))
        self.played += 1
        if len(self.trick) < self.n:
            self.player = (self.player + 1) % self.n
            return
        trump, led = self.chance[-1] % 4, self.trick[0][1] % 4
        best = max(self.trick, key=lambda pc: (pc[1] % 4 == trump, pc[1] % 4 == led, pc[1] // 4))
        self.won[best[0]] += 1
        self.player = best[0]
        self.trick = []

    def returns(self) -> list[float]:
        return [float(w + (10 if w == b else 0)) for w, b in zip(self.won, self.bids, strict=True)]


class FakeISMCTS:
    """An ISMCTS bot that keeps every state it is asked about and plays its first legal action."""

    seen: ClassVar[list[FakeOhHellState]] = []

    def __init__(self, *args: object) -> None:
        pass

    def step(self, state: FakeOhHellState) -> int:
        FakeISMCTS.seen.append(state)
        return state.legal_actions()[0]


class FakePyspiel:
    """Enough of the pyspiel module for the mirror: ``load_game`` of ``oh_hell``, and ISMCTS."""

    ISMCTSBot = FakeISMCTS
    ISMCTSFinalPolicyType = type("ISMCTSFinalPolicyType", (), {"MAX_VISIT_COUNT": 0})

    @staticmethod
    def RandomRolloutEvaluator(*args: object) -> None:  # noqa: N802  (pyspiel's name)
        return None

    def __init__(self) -> None:
        self.loaded: list[dict[str, Any]] = []

    def load_game(self, name: str, params: dict[str, Any]) -> Any:
        assert name == "oh_hell"
        self.loaded.append(params)
        players = params["players"]

        class FakeGame:
            def new_initial_state(self) -> FakeOhHellState:
                return FakeOhHellState(players)

        return FakeGame()


def test_an_openspiel_seat_plays_a_legal_mirrored_game_in_lockstep() -> None:
    fake = FakePyspiel()
    rules = preset("countdown", 4, max_cards=3)  # 3, 2, 1, 2, 3: a new mirrored state each round
    game = Game(rules, seed=8)
    mirror = Mirror(game, pyspiel=fake)
    players: list[SeatPlayer] = [
        OpenSpielPlayer("openspiel-random", 1, seed=1, pyspiel=fake),
        BotPlayer(make_bot("basic", seed=2)),
        OpenSpielPlayer("openspiel-random", 1, seed=3, pyspiel=fake),
        BotPlayer(make_bot("random", seed=4)),
    ]
    times = play_out(game, players, mirror)
    assert game.is_over
    assert [len(t) for t in times] == [sum(rules.hand_sizes) + rules.rounds] * 4
    assert [params["num_tricks_fixed"] for params in fake.loaded] == [3, 2, 1]  # one OpenSpiel game a size
    assert mirror.state.is_terminal()
    # The mirror saw each round's deal as chance outcomes, then every bid and card the game logged.
    expected: list[int] = []
    for action in game.log:
        if isinstance(action, DealAction):
            assert action.hands is not None
            expected += deal_actions(4, action.dealer, action.hands, action.turned)
        elif isinstance(action, BidAction):
            expected.append(move_action(action.bid))
        elif isinstance(action, PlayAction):
            expected.append(move_action(action.card))
    assert mirror.applied == expected


def test_the_mirror_notices_when_it_falls_out_of_step_with_the_game() -> None:
    game = Game(openspiel_rules(4, 2), seed=3)
    mirror = Mirror(game, pyspiel=FakePyspiel())
    game.bid(0, seat=game.awaiting[0])  # not followed
    bidder = game.awaiting[0]
    game.bid(0, seat=bidder)
    with pytest.raises(ArenaError, match="lost step"):
        mirror.follow(game, 0)


def test_an_openspiel_seat_without_the_bench_extra_is_refused_with_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails, as without the extra
    out = CliRunner().invoke(app, ["arena", "basic", "openspiel-ismcts:100", "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert "install the bench extra" in out.output


def arena_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str) -> dict[str, Any]:
    """The rules ``upriver arena ARGS`` played, from its JSON report; OpenSpiel is the fake above."""
    monkeypatch.setitem(sys.modules, "pyspiel", FakePyspiel())
    args = ("arena", *args, "--games", "1", "--jobs", "1", "--out", str(tmp_path), "--json")
    out = CliRunner().invoke(app, list(args))
    assert out.exit_code == 0, out.output
    rules: dict[str, Any] = json.loads(out.stdout)["rules"]
    return rules


def reported(rules: Rules) -> dict[str, Any]:
    """What the arena's JSON report says of ``rules``."""
    options = ("first_dealer", "bidding", "dealer_bid", "trump_lead", "scoring")
    return {"hand_sizes": list(rules.hand_sizes)} | {name: getattr(rules, name).value for name in options}


def test_openspiel_seats_default_to_single_ten_card_hands_under_its_rules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def played(*args: str) -> dict[str, Any]:
        rules = arena_rules(monkeypatch, tmp_path, *args)
        return {name: rules[name] for name in reported(openspiel_rules(4, 10))}

    assert played("basic", "openspiel-random") == reported(openspiel_rules(4, 10))
    assert played("basic", "openspiel-random")["hand_sizes"] == [10]
    mixed = played("basic", "OpenSpiel-Random", "--schedule", "3,2")
    assert (mixed["hand_sizes"], mixed["dealer_bid"]) == ([3, 2], "hook")  # countdown's rules, as asked
    assert played("basic", "random") == reported(preset("classic", 4))
