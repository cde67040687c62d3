"""The game record: round trips through text and through the engine, lenient reading, every refusal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.conftest import record_doc, round_doc
from upriver import PRESETS, Card, Game, Phase, Rules, Schedule, Suit, preset
from upriver.errors import RecordError
from upriver.record import (
    FORMAT,
    Record,
    RecordRuleError,
    RoundRecord,
    dump,
    dumps,
    load,
    loads,
    parse_record,
    record_of,
    replay,
    to_json,
)

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def random_move(game: Game, rng: random.Random) -> None:
    """One uniformly random legal bid or card."""
    if game.phase is Phase.BIDDING:
        seat = rng.choice(game.awaiting)
        game.bid(rng.choice(game.legal_bids(seat)), seat=seat)
    else:
        game.play(rng.choice(game.legal_cards()))


def random_game(rules: Rules, seed: int, moves: int | None = None) -> Game:
    """A seeded game played by uniformly random legal moves, to the end or for ``moves`` moves."""
    game = Game(rules, NAMES[: rules.player_count] if rules.player_count <= 4 else None, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.is_over and (moves is None or made < moves):
        random_move(game, rng)
        made += 1
    return game


def state(game: Game) -> dict[str, object]:
    """What a continued game depends on."""
    n = game.rules.player_count
    return {
        "phase": game.phase,
        "round": game.round_number,
        "dealer": game.dealer,
        "hands": tuple(game.hand(seat) for seat in range(n)),
        "turned": game.turned,
        "bids": game.bids,
        "plays": game.plays,
        "trick": game.trick,
        "to_act": game.to_act,
        "tricks_won": game.tricks_won,
        "results": game.results,
        "totals": tuple(game.totals),
    }


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_full_game_of_every_preset_replays_from_its_text_to_identical_results(name: str) -> None:
    game = random_game(preset(name, 4), seed=11)
    text = dumps(game)
    again = replay(loads(text))
    assert again.is_over
    assert again.results == game.results
    assert again.totals == game.totals
    assert again.winners == game.winners
    assert dumps(again) == text


def test_written_record_reads_back_as_the_same_record() -> None:
    record = record_of(random_game(preset("countdown", 4), seed=3), extras={"event": "club night"})
    assert loads(dumps(record)) == record


def test_game_with_a_no_trump_round_and_simultaneous_bids_round_trips() -> None:
    rules = Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(13, 2),
        bidding=preset("closed-fists", 4).bidding,
    )
    game = random_game(rules, seed=5)
    record = loads(dumps(game))
    assert record.rounds[0].turned is None
    assert replay(record).results == game.results


@pytest.mark.parametrize("moves", [0, 3, 9, 40, 77])
def test_game_in_progress_replays_to_the_same_state_and_finishes_its_round_alike(moves: int) -> None:
    game = random_game(preset("classic", 4), seed=8, moves=moves)
    again = replay(loads(dumps(game)))
    assert state(again) == state(game)
    rng_a, rng_b = random.Random(1), random.Random(1)
    number = game.round_number
    while game.round_number == number:
        random_move(game, rng_a)
        random_move(again, rng_b)
    assert again.results == game.results
    assert again.totals == game.totals
    assert again.phase is Phase.BIDDING
    assert again.round_number == number + 1


def test_game_in_progress_writes_null_bids_for_bids_not_yet_made_and_the_plays_so_far() -> None:
    game = Game(preset("classic", 4), NAMES, seed=1)
    game.bid(0)
    current = to_json(record_of(game))["rounds"]
    assert isinstance(current, list)
    assert len(current) == 1
    bids = current[0]["bids"]
    assert bids.count(None) == 3
    assert current[0]["plays"] == []


def test_game_waiting_to_deal_writes_no_entry_for_the_undealt_round() -> None:
    game = Game(preset("countdown", 4), NAMES, auto_deal=False)
    assert to_json(record_of(game))["rounds"] == []
    game.deal()
    assert len(loads(dumps(game)).rounds) == 1


def test_replayed_finished_card_round_deals_the_next_round_itself() -> None:
    game = random_game(
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 2, 3)), seed=2, moves=8
    )
    record = loads(dumps(game))
    record = Record(rules=record.rules, players=record.players, rounds=record.rounds[:1])
    again = replay(record, seed=4)
    assert again.phase is Phase.DEALING
    assert again.auto_deal
    again.deal()
    assert again.legal_bids() == (0, 1, 2)
    assert again.hand_size == 2


def test_real_table_rounds_write_bids_and_tricks_without_cards() -> None:
    game = Game(
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2, 1)), NAMES, auto_deal=False
    )
    game.deal_at_table(Suit.SPADES)
    for bid in (1, 0, 0, 0):
        game.bid(bid)
    game.record_tricks((0, 1, 1, 0))
    written = to_json(record_of(game))["rounds"]
    assert written == [{"dealer": 0, "bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0], "trump": "S"}]
    again = replay(loads(dumps(game)))
    assert again.results == game.results
    assert again.phase is Phase.DEALING
    assert not again.auto_deal


def test_reading_is_lenient_about_card_and_rule_spelling_and_writing_is_canonical() -> None:
    data = record_doc(
        rules={
            "schedule": [1],
            "Bidding": "x",
            "dealer_bid": "HOOK",
            "trump_lead": "Broken",
            "scoring": "TEN_PLUS_BID",
        },
    )
    data["rules"].pop("Bidding")
    data["rounds"][0].update(
        hands=[["as"], ["7h"], ["10c"], ["kD"]], turned="qd", plays=["7h", "10C", "kd", "AS"]
    )
    data["rounds"][0]["bids"] = [1, 1, 0, 1]
    record = parse_record(data)
    assert record.rounds[0].hands == (
        (Card.parse("AS"),),
        (Card.parse("7H"),),
        (Card.parse("TC"),),
        (Card.parse("KD"),),
    )
    written = json.loads(dumps(record))
    assert written["rounds"][0]["hands"] == [["AS"], ["7H"], ["TC"], ["KD"]]
    assert written["rounds"][0]["plays"] == ["7H", "TC", "KD", "AS"]
    assert written["rules"] == {
        "schedule": [1],
        "first_dealer": "chosen",
        "bidding": "sequential",
        "dealer_bid": "hook",
        "trump_lead": "broken",
        "scoring": "ten-plus-bid",
    }


def test_absent_rule_keys_take_the_documented_defaults() -> None:
    rules = parse_record(record_doc(rules={}, rounds=[])).rules
    assert json.loads(dumps(Record(rules=rules, players=tuple(NAMES), rounds=())))["rules"] == {
        "schedule": "up-down",
        "max_cards": 11,
        "first_dealer": "chosen",
        "bidding": "sequential",
        "dealer_bid": "free",
        "trump_lead": "any",
        "scoring": "tricks-plus-ten",
    }


def test_preset_key_stands_for_the_preset_and_explicit_keys_override_it() -> None:
    rules = parse_record(
        record_doc(rules={"preset": "countdown", "max_cards": 6, "dealer_bid": "free"}, rounds=[])
    ).rules
    assert rules == preset("countdown", 4, max_cards=6, dealer_bid=preset("classic", 4).dealer_bid)
    assert rules.hand_sizes[:2] == (6, 5)


def test_unknown_keys_are_kept_when_a_record_is_rewritten() -> None:
    data = record_doc(event="club night", started="2024-05-01T20:00")
    data["rules"]["house_note"] = "no reneging"
    data["rounds"][0]["comment"] = "Bob's lucky 7"
    written = json.loads(dumps(loads(json.dumps(data))))
    assert written["event"] == "club night"
    assert written["started"] == "2024-05-01T20:00"
    assert written["rules"]["house_note"] == "no reneging"
    assert written["rounds"][0]["comment"] == "Bob's lucky 7"


def test_seed_extra_seeds_the_replayed_games_next_deals() -> None:
    base = loads(json.dumps(record_doc(rules={"schedule": [1, 1]})))
    seeded = Record(rules=base.rules, players=base.players, rounds=base.rounds, extras={"seed": 99})
    first, second = replay(seeded), replay(base, seed=99)
    first.deal()
    second.deal()
    assert first.hand(0) == second.hand(0)


def test_dump_and_load_use_utf8_files(tmp_path: Any) -> None:
    record = parse_record(record_doc(players=["Åsa", "Bob", "Cid", "Dee"]))
    path = tmp_path / "game.json"
    dump(record, path)
    assert "Åsa" in path.read_text(encoding="utf-8")
    assert load(path) == record


# ------------------------------------------------------------------ not a record


NOT_RECORDS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "record: a record must be a JSON object"),
    ("unknown format", record_doc(format="upriver-record/9"), "format: unknown format 'upriver-record/9'"),
    ("missing players", {"format": FORMAT, "rounds": []}, "record: missing key 'players'"),
    ("missing bids", record_doc(rounds=[{"dealer": 0}]), "rounds[0]: missing key 'bids'"),
    (
        "missing turned",
        record_doc(rounds=[{k: v for k, v in record_doc()["rounds"][0].items() if k != "turned"}]),
        "rounds[0]: missing key 'turned'",
    ),
    ("players not a list", record_doc(players="Ann"), "players: players must be a list"),
    (
        "duplicate player",
        record_doc(players=["Ann", "Bob", "Ann", "Dee"]),
        "players[2]: 'Ann' is already at the table as 'Ann' (seat 0); names must differ",
    ),
    ("bid as text", round_doc(bids=[0, "1", 0, 1]), "rounds[0].bids[1]: a bid must be a whole number"),
    (
        "too few bids",
        round_doc(bids=[0, 1, 0]),
        "rounds[0].bids: bids must have one entry per player (4), not 3",
    ),
    ("dealer out of range", round_doc(dealer=4), "rounds[0].dealer: seat 4 does not exist"),
    (
        "unknown card",
        round_doc(hands=[["AS"], ["XX"], ["2C"], ["KD"]]),
        "rounds[0].hands[1][0]: unknown card 'XX'",
    ),
    (
        "card not text",
        round_doc(plays=["7H", 2, "KD", "AS"]),
        "rounds[0].plays[1]: a card must be written as text",
    ),
    (
        "unknown rule value",
        record_doc(rules={"scoring": "golf"}),
        "rules.scoring: scoring must be one of 'ten-plus-bid', 'tricks-plus-ten', 'negative', 'balanced', "
        "'hybrid', 'doubles', 'triples', 'squares', 'anderson' or a custom scoring object, not 'golf'",
    ),
    ("unknown preset", record_doc(rules={"preset": "bridge"}), "rules.preset: unknown preset 'bridge'"),
    (
        "simultaneous with hook",
        record_doc(rules={"bidding": "simultaneous", "dealer_bid": "hook"}),
        "rules.dealer_bid: simultaneous bidding",
    ),
    ("too many cards", record_doc(rules={"max_cards": 13}), "rules.max_cards: 4 players × 13 cards"),
    (
        "card dealt twice",
        round_doc(hands=[["AS"], ["7H"], ["as"], ["KD"]]),
        "rounds[0].hands[2][0]: AS is dealt twice",
    ),
    ("turned card also dealt", round_doc(turned="KD"), "rounds[0].turned: the turned card KD is also dealt"),
    (
        "plays without hands",
        record_doc(rounds=[{"dealer": 0, "bids": [0, 0, 0, 0], "plays": ["AS"]}]),
        "rounds[0].plays",
    ),
]


@pytest.mark.parametrize(
    ("data", "message"), [case[1:] for case in NOT_RECORDS], ids=[c[0] for c in NOT_RECORDS]
)
def test_document_that_is_not_a_record_is_refused_with_one_line_saying_what_and_where(
    data: Any, message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(data))
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_text_that_is_not_json_is_refused_with_its_position() -> None:
    with pytest.raises(RecordError, match=r"^record: not JSON: line 1, column 2"):
        loads("{oops")


# ------------------------------------------------------------------ rule breaches


def breach(data: dict[str, Any]) -> RecordRuleError:
    record = parse_record(data)
    with pytest.raises(RecordRuleError) as caught:
        replay(record)
    assert "\n" not in str(caught.value)
    return caught.value


def two_card_round(**changes: Any) -> dict[str, Any]:
    """Classic rules (trump must be broken), one round of 2 cards; hearts are trump; Bob leads."""
    entry = {
        "dealer": 0,
        "hands": [["7C", "9S"], ["AH", "3C"], ["KC", "4D"], ["QC", "5D"]],
        "turned": "2H",
        "bids": [1, 1, 1, 0],
        "plays": ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"],
    }
    return record_doc(rules={"preset": "classic", "schedule": [2]}, rounds=[{**entry, **changes}])


def test_the_story_record_itself_is_legal() -> None:
    assert replay(parse_record(two_card_round())).totals == (0, 11, 11, 10)


def test_revoke_names_round_player_and_follow_suit() -> None:
    error = breach(two_card_round(plays=["3C", "4D"]))
    assert str(error) == "round 1, Cid: must follow suit: clubs were led and Cid holds KC"
    assert (error.round_number, error.player, error.seat, error.rule) == (1, "Cid", 2, "follow suit")


def test_trump_led_before_broken_is_refused() -> None:
    error = breach(two_card_round(plays=["AH"]))
    assert str(error).startswith("round 1, Bob: may not lead trump (hearts) before trump is broken")
    assert error.rule == "trump broken"


def test_card_not_in_the_players_hand_is_refused() -> None:
    error = breach(two_card_round(plays=["KC"]))
    assert str(error) == "round 1, Bob: does not hold KC"
    assert error.rule == "card in hand"


def test_hook_bid_is_refused_for_the_dealer() -> None:
    data = two_card_round(bids=[0, 1, 1, 0])
    data["rules"]["dealer_bid"] = "hook"
    error = breach(data)
    assert str(error).startswith("round 1, Ann: may not bid 0: with the hook, the bids may not total 2")
    assert (error.player, error.rule) == ("Ann", "hook")


def test_dealer_who_does_not_overbid_is_refused() -> None:
    data = two_card_round(bids=[1, 0, 0, 0])
    data["rules"]["preset"] = "overbid"
    error = breach(data)
    assert str(error).startswith("round 1, Ann: may not bid 1: the dealer must overbid")
    assert error.rule == "overbid"


def test_wrong_dealer_for_a_later_round_is_refused() -> None:
    first = two_card_round()["rounds"][0]
    data = record_doc(
        rules={"preset": "classic", "schedule": [2, 1]}, rounds=[first, {"dealer": 2, "bids": [None] * 4}]
    )
    error = breach(data)
    assert str(error) == "round 2, Cid: the deal passes to the left, so Bob deals round 2, not Cid"
    assert error.rule == "dealer"


def test_hand_of_the_wrong_size_for_the_schedule_is_refused() -> None:
    error = breach(record_doc(rules={"schedule": [2]}))
    assert str(error).startswith("round 1, Ann: was dealt 1 cards; the schedule deals 2")
    assert error.rule == "hand size"


def test_more_rounds_than_the_schedule_are_refused() -> None:
    data = record_doc()
    data["rounds"].append({"dealer": 1, "bids": [None] * 4})
    error = breach(data)
    assert str(error) == "round 2, Bob: the schedule has only 1 rounds"
    assert error.rule == "schedule"


def test_cards_played_before_every_bid_is_in_are_refused() -> None:
    error = breach(two_card_round(bids=[None, 1, 1, 0]))
    assert str(error) == "round 1, Ann: cards are played before Ann has bid"


def test_bid_written_after_a_missing_earlier_bid_is_refused() -> None:
    error = breach(two_card_round(bids=[None, None, 1, None], plays=[]))
    assert str(error) == "round 1, Cid: bids after Bob, whose bid is missing"
    assert error.rule == "turn order"


def test_null_turned_card_while_cards_remain_is_refused() -> None:
    error = breach(two_card_round(turned=None))
    assert str(error).startswith("round 1, Ann: 44 cards are left after the deal")
    assert error.rule == "turn-up"


def test_unfinished_round_followed_by_another_is_refused() -> None:
    first = two_card_round(plays=["3C"])["rounds"][0]
    data = record_doc(
        rules={"preset": "classic", "schedule": [2, 1]}, rounds=[first, {"dealer": 1, "bids": [None] * 4}]
    )
    error = breach(data)
    assert error.round_number == 1
    assert str(error) == "round 1, Cid: the round still waits for playing to finish, yet round 2 follows"


def test_score_only_tricks_that_do_not_add_up_are_refused() -> None:
    data = record_doc(
        rules={"schedule": [3]}, rounds=[{"dealer": 0, "bids": [1, 1, 0, 0], "tricks": [1, 1, 0, 0]}]
    )
    error = breach(data)
    assert str(error) == "round 1: the tricks add up to 2 (Ann 1, Bob 1, Cid 0, Dee 0), but 3 were played"
    assert error.rule == "tricks add up"
    assert error.player is None


def test_score_only_hook_bid_is_refused() -> None:
    data = record_doc(
        rules={"schedule": [3], "dealer_bid": "hook"},
        rounds=[{"dealer": 0, "bids": [1, 1, 1, 0], "tricks": [1, 1, 1, 0]}],
    )
    error = breach(data)
    assert str(error).startswith("round 1, Ann: may not bid 1: with the hook")


def test_tricks_that_contradict_the_plays_are_refused() -> None:
    error = breach(two_card_round(tricks=[1, 1, 0, 0]))
    assert (
        str(error)
        == "round 1: the tricks say Ann 1, Bob 1, Cid 0, Dee 0, but the plays give Ann 0, Bob 1, Cid 1, Dee 0"
    )


def test_round_record_defaults_describe_a_score_keeping_round() -> None:
    entry = RoundRecord(dealer=0, bids=(None,) * 4)
    assert not entry.has_cards
    assert entry.plays is None
    assert dict(entry.extras) == {}


def test_replayed_game_given_its_seed_deals_the_rounds_to_come_as_the_original_would() -> None:
    game = random_game(preset("countdown", 4), seed=21, moves=30)
    again = replay(loads(dumps(record_of(game, extras={"seed": game.seed}))))
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(120):
        random_move(game, rng_a)
        random_move(again, rng_b)
    assert state(again) == state(game)
