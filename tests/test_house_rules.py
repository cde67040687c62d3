"""The house rules beyond the sources: Board Game Arena's scorings and a custom one, rotating trump,
trump lead after the first trick and the blind one-card round (docs/rules.md §2.7–§2.10).

Points come from a table written out by hand from the definitions, not from the engine; golden
records of a seeded game under each new option are scored by ``upriver check`` and summed again
here without the engine.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import upriver.cli.arena
import upriver.cli.check  # noqa: F401  (registers the command)
from tests.conftest import cards, expected_score
from tests.helpers import HOUSE_RULES
from upriver import (
    DECK,
    Card,
    CustomScoring,
    Game,
    IllegalActionError,
    Phase,
    RecordError,
    Rules,
    RulesError,
    Schedule,
    Scoring,
    Suit,
    Trump,
    TrumpLead,
    round_score,
)
from upriver.bots import BOT_KINDS, Bot, make_bot
from upriver.cli import app
from upriver.record import RecordRuleError, dumps, loads, record_of, replay
from upriver.view import SeatView

GOLDEN = Path(__file__).parent / "golden"


def random_move(game: Game, rng: random.Random) -> None:
    """One uniformly random legal move for the seat to act."""
    bids = game.legal_bids()
    game.move(rng.choice(bids) if bids else rng.choice(game.legal_cards()))


def sized(players: int, sizes: tuple[int, ...], **options: Any) -> Rules:
    """Rules for these hand sizes, one round each, with ``options``."""
    return Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=sizes, **options)


NAMES = ["Ann", "Bob", "Cid", "Dee"]
SEED = 2024

# ------------------------------------------------------------------ the points table

POINTS = [
    # (scoring, bid, tricks, round) -> points, from docs/rules.md §2.8 (d = |tricks - bid|)
    (Scoring.TEN_PLUS_BID, 2, 2, 1, 12),
    (Scoring.TEN_PLUS_BID, 2, 3, 1, 0),
    (Scoring.TRICKS_PLUS_TEN, 2, 2, 1, 12),
    (Scoring.TRICKS_PLUS_TEN, 2, 3, 1, 3),
    (Scoring.NEGATIVE, 0, 0, 1, 10),
    (Scoring.NEGATIVE, 3, 3, 1, 10),
    (Scoring.NEGATIVE, 2, 5, 1, -30),
    (Scoring.NEGATIVE, 2, 0, 1, -20),
    (Scoring.BALANCED, 2, 2, 1, 12),
    (Scoring.BALANCED, 2, 3, 1, -2),
    (Scoring.BALANCED, 4, 1, 1, -6),
    (Scoring.HYBRID, 2, 2, 1, 12),
    (Scoring.HYBRID, 3, 1, 1, 1),
    (Scoring.HYBRID, 3, 0, 1, 0),
    (Scoring.HYBRID, 1, 4, 1, 0),
    (Scoring.DOUBLES, 3, 3, 1, 16),
    (Scoring.DOUBLES, 3, 1, 1, -4),
    (Scoring.TRIPLES, 3, 3, 1, 19),
    (Scoring.TRIPLES, 3, 6, 1, -9),
    (Scoring.SQUARES, 3, 3, 1, 19),
    (Scoring.SQUARES, 0, 0, 1, 10),
    (Scoring.SQUARES, 1, 4, 1, -9),
    (Scoring.SQUARES, 2, 1, 1, -1),
    (Scoring.ANDERSON, 2, 2, 1, 20),
    (Scoring.ANDERSON, 2, 2, 3, 60),
    (Scoring.ANDERSON, 0, 0, 5, 0),
    (Scoring.ANDERSON, 1, 3, 4, -80),
    (Scoring.ANDERSON, 3, 2, 10, -100),
    (CustomScoring(), 2, 2, 1, 12),
    (CustomScoring(), 2, 3, 1, 3),
    (CustomScoring(exact_bonus=5, per_bid=2, per_trick=0), 3, 3, 1, 11),
    (CustomScoring(exact_bonus=20, per_trick=2, per_trick_when="exact", miss_per_trick_off=5), 1, 3, 1, -10),
    (CustomScoring(exact_bonus=20, per_trick=2, per_trick_when="exact"), 2, 2, 1, 24),
    (CustomScoring(exact_bonus=10, per_trick=1, miss_per_trick_off=3), 4, 2, 1, -4),
]


@pytest.mark.parametrize(("scoring", "bid", "tricks", "number", "points"), POINTS)
def test_each_scoring_pays_a_round_as_its_definition_says(
    scoring: Scoring | CustomScoring, bid: int, tricks: int, number: int, points: int
) -> None:
    assert round_score(scoring, bid, tricks, number) == points
    assert expected_score(scoring, bid, tricks, number) == points


def test_the_points_table_covers_every_scoring_with_an_exact_bid_and_a_miss() -> None:
    for scoring in Scoring:
        rows = [row for row in POINTS if row[0] is scoring]
        assert any(bid == tricks for _, bid, tricks, _, _ in rows), scoring
        assert any(bid != tricks for _, bid, tricks, _, _ in rows), scoring


def test_a_custom_scoring_given_nothing_is_tricks_plus_ten() -> None:
    for bid in range(6):
        for tricks in range(6):
            plain = round_score(Scoring.TRICKS_PLUS_TEN, bid, tricks)
            assert round_score(CustomScoring(), bid, tricks) == plain


@pytest.mark.parametrize(
    "numbers",
    [
        {"exact_bonus": 0},
        {"exact_bonus": 0, "per_trick": 0},
        {"exact_bonus": 1, "per_trick": 1},
        {"exact_bonus": 2, "per_trick": 3},
    ],
)
def test_a_custom_scoring_that_pays_no_exact_bid_more_than_a_miss_is_refused_saying_why(
    numbers: dict[str, int],
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"scoring": numbers}, player_count=4)
    text = str(info.value)
    assert text.startswith("a custom scoring must pay an exact bid more than a miss, but with ")
    assert "no exact bid does: bid 0 and take 0 scores" in text
    assert info.value.option == "scoring"


@pytest.mark.parametrize(
    ("numbers", "refusal"),
    [
        ({"exact_bonus": -1}, "scoring.exact_bonus must be a whole number from 0 to 1000, not -1"),
        ({"per_trick": 1.5}, "scoring.per_trick must be a whole number from 0 to 1000, not 1.5"),
        ({"per_trick_when": "never"}, "scoring.per_trick_when must be 'always' or 'exact', not 'never'"),
        ({"bonus": 10}, "unknown key 'bonus' in a custom scoring: the keys are exact_bonus, per_trick, "
         "per_trick_when, per_bid, miss_per_trick_off"),
    ],
)  # fmt: skip
def test_a_custom_scoring_with_a_wrong_number_or_key_is_refused_naming_it(
    numbers: dict[str, object], refusal: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"scoring": numbers}, player_count=4)
    assert str(info.value) == refusal


def test_the_options_write_each_new_rule_and_read_it_back() -> None:
    options = {
        "scoring": {"exact_bonus": 5, "per_bid": 2},
        "trump": "rotate",
        "trump_lead": "after-first-trick",
        "blind_one_card": True,
    }
    rules = Rules.from_options(options, player_count=5)
    written = rules.options()
    assert written["scoring"] == {
        "exact_bonus": 5,
        "per_trick": 1,
        "per_trick_when": "always",
        "per_bid": 2,
        "miss_per_trick_off": 0,
    }
    assert (written["trump"], written["trump_lead"], written["blind_one_card"]) == (
        "rotate",
        "after-first-trick",
        True,
    )
    assert Rules.from_options(written, player_count=5).options() == written
    # The sources' defaults are not written, so their records read as they always did.
    assert "trump" not in Rules(player_count=4).options()
    assert "blind_one_card" not in Rules(player_count=4).options()


def test_blind_one_card_must_be_true_or_false() -> None:
    with pytest.raises(RulesError, match="blind_one_card must be true or false, not 'yes'"):
        Rules.from_options({"blind_one_card": "yes"}, player_count=4)


# ------------------------------------------------------------------ rotating trump


def test_rotating_trump_runs_hearts_diamonds_clubs_spades_none_from_round_one_with_no_card_turned() -> None:
    rules = sized(4, (2,) * 11, trump=Trump.ROTATE)
    game = Game(rules, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        random_move(game, rng)
    trumps = [result.trump for result in game.results]
    cycle = [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, None]
    assert trumps == (cycle * 3)[:11]
    assert all(result.turned is None for result in game.results)


def test_in_a_no_trump_round_the_highest_card_of_the_suit_led_wins_and_no_trump_lead_rule_applies() -> None:
    rules = sized(4, (2,) * 5, trump=Trump.ROTATE, trump_lead=TrumpLead.BROKEN)
    game = Game(rules, auto_deal=False)
    for _ in range(4):  # rounds 1-4 have trump; play them out
        game.deal()
        while game.phase is not Phase.DEALING:
            game.move((game.legal_bids() or game.legal_cards())[0])
    assert game.round_number == 5
    game.deal([cards("2S AH"), cards("KS 3H"), cards("QS 4C"), cards("JS 5D")], None)
    assert game.trump is None
    for bid in (0, 0, 0, 0):
        game.bid(bid)
    assert set(game.legal_cards()) == set(cards("KS 3H"))  # Bob leads: anything, no trump to hold back
    game.play("KS")
    game.play("QS")
    game.play("JS")
    game.play("2S")
    assert game.tricks[0].winner == 1


def test_under_rotating_trump_the_peak_may_use_the_whole_deck_since_no_card_is_turned() -> None:
    rules = Rules.from_options({"trump": "rotate", "max_cards": 13}, player_count=4)
    assert max(rules.hand_sizes) == 13
    game = Game(rules, seed=2)
    while game.hand_size < 13:
        random_move(game, random.Random(2))
    assert game.turned is None
    assert game.trump is not None or game.round_number % 5 == 0
    with pytest.raises(RulesError) as info:
        Rules.from_options({"trump": "rotate", "max_cards": 14}, player_count=4)
    assert (
        str(info.value)
        == "4 players × 14 cards needs 56 cards; the deck has 52, so the most for 4 players is 13"
    )
    with pytest.raises(RulesError, match="needs 53 cards; the most for 4 players is 12"):
        Rules.from_options({"max_cards": 13}, player_count=4)


def test_under_rotating_trump_a_deal_with_a_turned_card_is_refused_naming_the_rounds_trump() -> None:
    game = Game(Rules(player_count=4, trump=Trump.ROTATE), auto_deal=False)
    with pytest.raises(IllegalActionError) as info:
        game.deal([cards("2S"), cards("3S"), cards("4S"), cards("5S")], Card.parse("6S"))
    assert str(info.value) == "round 1: trump rotates, so no card is turned up; in this round trump is hearts"
    assert game.phase is Phase.DEALING


# ------------------------------------------------------------------ trump lead after the first trick


def after_first(hands: list[str]) -> Game:
    rules = sized(4, (3,), trump_lead=TrumpLead.AFTER_FIRST_TRICK)
    game = Game(rules, NAMES, auto_deal=False, dealer=0)
    game.deal([cards(hand) for hand in hands], Card.parse("2H"))
    for _ in range(4):
        game.bid(1)
    return game


def test_trump_may_not_lead_the_first_trick_from_a_hand_with_another_suit() -> None:
    game = after_first(["3C 4C 5C", "AH 7S 8S", "9C TC JC", "QD KD AD"])
    assert game.legal_cards() == cards("7S 8S")
    with pytest.raises(IllegalActionError) as info:
        game.play("AH")
    assert str(info.value) == (
        "Bob may not lead trump (hearts) to the first trick: trump may lead from the second trick on, "
        "and they hold other suits"
    )
    assert info.value.rule == "trump first trick"


def test_trump_may_lead_the_first_trick_from_a_hand_of_trumps_and_any_later_trick() -> None:
    game = after_first(["3C 4C 5C", "AH KH QH", "9C TC JC", "QD KD AD"])
    assert game.legal_cards() == cards("QH KH AH")
    game = after_first(["3C 4C 5C", "AH 7S 8S", "9S TC JC", "QD KD AD"])
    for card in ("8S", "9S", "QD", "3C"):
        game.play(card)
    assert game.to_act == 2  # Cid took the first trick with 9S and leads; trump was never played
    game = after_first(["3C 4C 5C", "AH 7S 8S", "2S TC JC", "QD KD AD"])
    for card in ("8S", "2S", "QD", "3C"):
        game.play(card)
    assert game.to_act == 1  # Bob won with 8S and may now lead his trump, unbroken
    assert Card.parse("AH") in game.legal_cards()


# ------------------------------------------------------------------ the blind one-card round


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_in_a_blind_round_each_seat_sees_every_other_card_and_never_its_own(players: int, seed: int) -> None:
    rules = sized(players, (1, 2, 1), blind_one_card=True)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    blind_rounds = 0
    while not game.is_over:
        if game.phase is Phase.BIDDING and game.hand_size == 1:
            blind_rounds += game.bids.count(None) == players
            for seat in range(players):
                view = game.view(seat)
                own = game.hand(seat)[0]
                assert view.hand == ()
                assert own not in view.foreheads
                if not view.history:  # nowhere in the view, under any name (later, past rounds show cards)
                    assert repr(own) not in repr(view)
                assert view.foreheads == tuple(None if s == seat else game.hand(s)[0] for s in range(players))
            assert game.view(None).foreheads == ()  # a spectator sees none: a player could open one
        else:
            assert all(game.view(seat).foreheads == () for seat in range(players))
        random_move(game, rng)
    assert blind_rounds == 2
    for number in (1, 3):  # each blind round's trick played itself from the dealer's left
        result = game.results[number - 1]
        assert result.plays is not None
        assert len(result.plays) == players


class Watching(Bot):
    """Asks a real bot, after writing down every view it is shown."""

    kind = "watching"

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.views: list[SeatView] = []

    def act(self, view: SeatView) -> int | Card:
        self.views.append(view)
        return self.inner.act(view)

    def choose_bid(self, view: SeatView) -> int:  # pragma: no cover - act answers
        raise AssertionError

    def choose_card(self, view: SeatView) -> Card:  # pragma: no cover - act answers
        raise AssertionError


@pytest.mark.parametrize("kind", ["random", "basic", "normal", "expert", "ucb"])
def test_no_bot_is_shown_its_own_card_in_a_blind_round_and_each_bids_from_the_others(kind: str) -> None:
    rules = sized(4, (1, 1), blind_one_card=True)
    game = Game(rules, seed=11)
    bots = [Watching(make_bot(kind, seed=seat, budget=20 if kind not in ("random", "basic") else None))
            for seat in range(4)]  # fmt: skip
    while not game.is_over:
        seat = game.awaiting[0]
        own = game.hand(seat)[0]
        game.move(bots[seat].act(game.view(seat)), seat)
        seen = bots[seat].views[-1]
        assert seen.hand == ()
        assert own not in seen.foreheads
        if not seen.history:
            assert repr(own) not in repr(seen)
    assert len(game.results) == 2
    assert kind in BOT_KINDS


def test_a_blind_bid_weighs_the_chance_the_unseen_card_wins_by_the_scoring() -> None:
    # Ann deals and plays last. She sees Bob lead 4C, Cid's 2C and Dee's 3C, and the turned AS:
    # spades are trump. Her card is one of the 48 she cannot see; it takes the trick if it is one
    # of the 12 other spades or one of the 10 clubs from 5 to A: 22 of 48.
    from upriver.bots.blind import blind_bid, blind_chance

    rules = sized(4, (1,), blind_one_card=True)
    for scoring, bid in ((Scoring.TRICKS_PLUS_TEN, 0), (Scoring.NEGATIVE, 0), (Scoring.ANDERSON, 1)):
        game = Game(rules.replace(scoring=scoring), NAMES, auto_deal=False, dealer=0)
        game.deal([cards("KD"), cards("4C"), cards("2C"), cards("3C")], Card.parse("AS"))
        for _ in range(3):
            game.bid(0)
        view = game.view(0)
        assert view.foreheads == (None, *cards("4C 2C 3C"))
        assert blind_chance(view) == 22 / 48
        assert blind_bid(view) == bid


# ------------------------------------------------------------------ golden records


def house_game(name: str) -> str:
    """A seeded 4-player game under one house rule, played by uniformly random legal moves."""
    rules = Rules.from_options(HOUSE_RULES[name], player_count=4)
    game = Game(rules, NAMES, seed=SEED)
    rng = random.Random(SEED)
    while not game.is_over:
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat=seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    return dumps(record_of(game, extras={"seed": SEED, "policy": "uniform random legal moves"}))


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_a_house_rule_golden_record_regenerates_to_the_same_bytes(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    text = house_game(name)
    if os.environ.get("UPRIVER_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


def took_per_seat(entry: dict[str, Any], trump: str | None) -> list[int]:
    """Tricks per seat from a round's plays, computed without the engine."""
    took = [0] * 4
    leader = (entry["dealer"] + 1) % 4
    plays = entry["plays"]
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        led = trick[0][1]

        def strength(card: str, led: str = led) -> int:
            rank = "23456789TJQKA".index(card[0])
            return rank + 100 if card[1] == trump else rank + 50 if card[1] == led else -1

        leader = (leader + max(range(4), key=lambda i: strength(trick[i]))) % 4
        took[leader] += 1
    return took


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_upriver_check_scores_each_house_rule_golden_record_as_its_definition_does(
    name: str, tmp_path: Path
) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    rules = Rules.from_options(data["rules"], player_count=4)
    totals = [0] * 4
    for number, entry in enumerate(data["rounds"], start=1):
        if rules.trump is Trump.ROTATE:
            assert entry["turned"] is None
            trump = "HDCS"[(number - 1) % 5] if (number - 1) % 5 < 4 else None
        else:
            trump = entry["turned"][1] if entry["turned"] else None
        for seat, took in enumerate(took_per_seat(entry, trump)):
            totals[seat] += expected_score(rules.scoring, entry["bids"][seat], took, number)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"] == totals
    if name in ("negative", "squares", "anderson"):
        assert min(totals) < 0, "negative totals are shown and read back"


def test_a_record_whose_blind_round_plays_other_cards_than_the_engine_played_is_refused() -> None:
    data = json.loads((GOLDEN / "blind-one-card.json").read_text(encoding="utf-8"))
    first = data["rounds"][0]
    first["plays"] = first["plays"][1:] + first["plays"][:1]
    with pytest.raises(RecordRuleError) as info:
        replay(loads(json.dumps(data)))
    assert "round 1: the round is blind, so each card is played for its holder from the dealer's left" in str(
        info.value
    )


def test_every_card_of_a_blind_record_is_one_of_the_deck() -> None:
    data = json.loads((GOLDEN / "blind-one-card.json").read_text(encoding="utf-8"))
    assert all(Card.parse(card) in DECK for card in data["rounds"][0]["plays"])


# ------------------------------------------------------------------ engine and kernel, option by option

option_values = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.sampled_from(["classic", "countdown", "overbid", "closed-fists"]),
        "scoring": st.one_of(
            st.sampled_from([*(s.value for s in Scoring), "golf"]),
            st.fixed_dictionaries(
                {},
                optional={
                    "exact_bonus": st.integers(-1, 25),
                    "per_trick": st.integers(0, 4),
                    "per_trick_when": st.sampled_from(["always", "exact", "never"]),
                    "per_bid": st.integers(0, 4),
                    "miss_per_trick_off": st.integers(0, 6),
                },
            ),
        ),
        "trump": st.sampled_from(["turn-up", "rotate", "sideways"]),
        "trump_lead": st.sampled_from(["any", "broken", "after-first-trick"]),
        "blind_one_card": st.sampled_from([True, False, "yes"]),
        "dealer_bid": st.sampled_from(["free", "hook", "overbid"]),
        "max_cards": st.integers(1, 4),
    },
)


@settings(max_examples=60, deadline=None)
@given(options=option_values, players=st.integers(4, 6), seed=st.integers(0, 2**31))
def test_every_option_combination_plays_a_whole_game_alike_in_engine_and_kernel_or_is_refused_alike(
    options: dict[str, object], players: int, seed: int
) -> None:
    from upriver.cli.options import build_rules
    from upriver.fast import position_from_game, rollout, world_of

    try:
        rules = Rules.from_options(options, player_count=players)
    except RulesError as error:
        sentence = str(error)
        names = [*NAMES, "Eve", "Fay"][:players]
        record = {"format": "upriver-record/1", "rules": options, "players": names, "rounds": []}
        with pytest.raises(RecordError) as read:
            loads(json.dumps(record))
        assert sentence in str(read.value)
        flags = {
            key: json.dumps(value) if isinstance(value, dict) else value for key, value in options.items()
        }
        preset = flags.pop("preset", None)
        with pytest.raises(RulesError) as built:
            build_rules(preset, players, **flags)  # type: ignore[arg-type]
        assert str(built.value) == sentence
        return
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    kernel_totals = [0] * players
    while not game.is_over:
        position, world = position_from_game(game), world_of(game)
        number = game.round_number
        while len(game.results) < number:
            random_move(game, rng)
        result = game.results[-1]
        order = [(position.dealer + 1 + i) % players for i in range(players)]
        script: tuple[int | Card, ...] = (*[result.bids[s] for s in order], *(result.plays or ()))
        out = rollout(position, world, "random", seed, script=script)
        assert out.status[0] == 0
        assert tuple(out.scores[0]) == result.scores
        kernel_totals = [a + int(b) for a, b in zip(kernel_totals, out.scores[0], strict=True)]
    assert tuple(kernel_totals) == game.totals


# ------------------------------------------------------------------ what a learning agent observes


def blind_deal(own: str) -> Game:
    """Ann deals a blind one-card round; Bob holds ``own``, the others 4C 2C 3C; AS is turned."""
    rules = sized(4, (1,), blind_one_card=True, scoring=Scoring.SQUARES)
    game = Game(rules, NAMES, auto_deal=False, dealer=0)
    game.deal([cards("KD"), cards(own), cards("2C"), cards("3C")], Card.parse("AS"))
    return game


def test_a_blind_observation_holds_the_others_cards_and_not_the_seats_own() -> None:
    from upriver.rl.encoding import ENCODING_VERSION, encode, offset

    views = [blind_deal(own).view(1) for own in ("4C", "QH")]
    assert np.array_equal(encode(views[0]), encode(views[1]))  # Bob's own card changes nothing
    obs = encode(views[0])
    assert obs[offset("hand") : offset("hand") + 52].sum() == 0
    assert obs[offset("blind")] == 1
    foreheads = offset("foreheads")
    assert obs[foreheads : foreheads + 52].sum() == 0  # block 0 is Bob's own forehead: empty
    assert obs[foreheads + 52 + Card.parse("2C").index] == 1  # Cid, on Bob's left
    assert obs[foreheads + 3 * 52 + Card.parse("KD").index] == 1  # Ann, three seats round
    changed = Game(blind_deal("4C").rules, NAMES, auto_deal=False, dealer=0)
    changed.deal([cards("KH"), cards("4C"), cards("2C"), cards("3C")], Card.parse("AS"))
    assert not np.array_equal(encode(changed.view(1)), obs)  # another seat's card is seen
    assert ENCODING_VERSION == 2


def test_the_observation_says_the_scoring_the_trump_rule_and_what_a_bid_pays_this_round() -> None:
    from upriver.rl.encoding import encode, offset

    rules = Rules.from_options(
        {"scoring": "anderson", "trump": "rotate", "trump_lead": "after-first-trick"}, player_count=4
    )
    game = Game(rules, seed=1)
    obs = encode(game.view(game.awaiting[0]))
    assert obs[offset("scoring") + list(Scoring).index(Scoring.ANDERSON)] == 1
    assert obs[offset("trump_rule") + 1] == 1
    assert obs[offset("trump_first_trick")] == 1
    assert obs[offset("blind_rule")] == 0
    assert obs[offset("exact_points")] == 0  # bid 0 pays nothing under anderson
    assert obs[offset("exact_points") + 1] > 0
    assert obs[offset("over_points")] < 0
    assert np.all(np.abs(obs) <= 1)


# ------------------------------------------------------------------ the arena and the review


def test_the_arena_plays_duplicate_deals_under_a_house_rule_and_scores_by_it(tmp_path: Path) -> None:
    command = ["arena", "basic", "random", "--games", "2", "--seed", "3", "--jobs", "1", "--json"]
    command += ["--preset", "classic", "--schedule", "1,2,1", "--scoring", "squares", "--trump", "rotate"]
    command += ["--blind-one-card", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{") :])
    assert data["rules"]["scoring"] == "squares"
    assert data["rules"]["trump"] == "rotate"
    assert data["rules"]["blind_one_card"] is True


def test_an_openspiel_seat_refuses_the_house_rules_openspiel_does_not_play() -> None:
    from upriver.arena.openspiel import check_rules
    from upriver.arena.spec import ArenaError

    rules = Rules.from_options(
        {"preset": "countdown", "trump": "rotate", "blind_one_card": True}, player_count=4
    )
    with pytest.raises(ArenaError) as info:
        check_rules(rules)
    assert "trump 'rotate' (OpenSpiel's is 'turn-up')" in str(info.value)
    assert "blind_one_card true" in str(info.value)


def test_the_review_judges_a_blind_bid_exactly_under_the_tables_scoring() -> None:
    from upriver.review.evaluate import evaluate

    game = Game(
        sized(4, (1,), blind_one_card=True, scoring=Scoring.NEGATIVE), NAMES, auto_deal=False, dealer=0
    )
    game.deal([cards("KD"), cards("4C"), cards("2C"), cards("3C")], Card.parse("AS"))
    for _ in range(3):
        game.bid(0)
    verdict = evaluate(game.view(0), deals=8, seed=1)
    p = 22 / 48  # Ann's chance: see the test of the blind bid above
    assert verdict.of(0).expected == pytest.approx(p * -10 + (1 - p) * 10)
    assert verdict.of(1).expected == pytest.approx(p * 10 + (1 - p) * -10)
    assert verdict.best == 0
    assert verdict.of(1).loss == pytest.approx(20 * (1 - 2 * p))


def test_a_web_seat_is_sent_the_others_cards_in_a_blind_round_and_never_its_own() -> None:
    from upriver.web.play.protocol import seat_part

    game = blind_deal("QH")
    part = seat_part(game, game.view(1))
    assert part["hand"] == []
    assert part["foreheads"] == ["KD", None, "2C", "3C"]
    assert "QH" not in json.dumps(part)
    assert seat_part(game, game.view(None))["foreheads"] == []


def test_the_score_sheet_shows_negative_scores_and_totals_and_ranks_by_them() -> None:
    from upriver.sheet import ScoreSheet

    rules = sized(4, (2, 2), scoring=Scoring.NEGATIVE)
    game = Game(rules, NAMES, auto_deal=False, dealer=0)
    game.deal([cards("2C 3C"), cards("AS KS"), cards("4D 5D"), cards("6H 7H")], Card.parse("8C"))
    for bid in (2, 0, 0, 2):  # Bob 2, Cid 0, Dee 0, Ann 2 (bidding from the dealer's left)
        game.bid(bid)
    while game.phase is Phase.PLAYING:
        game.play(game.legal_cards()[0])
    sheet = ScoreSheet.of(game)
    scores = game.results[0].scores
    assert min(scores) < 0
    assert sheet.totals == scores
    assert sheet.leaders == tuple(s for s in range(4) if scores[s] == max(scores))
    assert [row[2] for row in sheet.standings()] == sorted(scores, reverse=True)
    data = sheet.to_json()
    assert data["totals"] == list(scores)
    csv = sheet.to_csv()
    assert str(min(scores)) in csv


def test_the_hint_in_a_blind_round_is_the_blind_bid_with_the_chance_the_unseen_card_wins() -> None:
    from upriver.bots.hint import hint

    game = blind_deal("QH")
    game.bid(1)  # Bob leads and bids first; Cid is next
    advice = hint(game.view(2))
    assert advice.kind == "bid"
    assert advice.choice in game.legal_bids()
    assert 0 < advice.estimate < 1
