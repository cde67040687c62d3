"""Rules validation, presets (ranges, aliases, options, source files) and schedules."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

import upriver.rules
from upriver import (
    PRESETS,
    Bidding,
    DealerBid,
    FirstDealer,
    Game,
    Preset,
    Rules,
    RulesError,
    Schedule,
    Scoring,
    TrumpLead,
    preset,
)

SOURCE_FILES = {
    "000": "000_e04aff71c7e107c9.txt",
    "001": "001_30fd4ee3e97452d8.txt",
    "002": "002_10cdc975e3438e45.txt",
    "003": "003_e379bf01c9006316.txt",
    "004": "004_59e8131c200403a0.txt",
}


# ------------------------------------------------------------------ validation


def options_of(option: str, value: object) -> dict[str, Any]:
    """One option as keyword arguments, untyped so that bad values reach the validation."""
    return {option: value}


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 9, 52])
def test_players_outside_3_to_8_is_refused_with_the_range(players: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=players)
    assert str(info.value) == f"players must be a whole number from 3 to 8, not {players}"


@pytest.mark.parametrize("players", ["4", 4.0, None])
def test_players_must_be_a_whole_number(players: Any) -> None:
    with pytest.raises(RulesError, match="players must be a whole number from 3 to 8"):
        Rules(player_count=players)


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [
        ("schedule", "sideways", "'up-down', 'down-up', 'explicit'"),
        ("first_dealer", "youngest", "'first-jack', 'left-of-keeper', 'chosen'"),
        ("bidding", "auction", "'sequential', 'simultaneous'"),
        ("dealer_bid", "underbid", "'free', 'hook', 'overbid'"),
        ("trump_lead", "never", "'any', 'broken', 'after-first-trick'"),
        ("trump", "upside-down", "'turn-up', 'rotate'"),
        (
            "scoring",
            "double",
            "'ten-plus-bid', 'tricks-plus-ten', 'negative', 'balanced', 'hybrid', 'doubles', 'triples', "
            "'squares', 'anderson' or a custom scoring object",
        ),
    ],
)
def test_unknown_option_value_is_refused_listing_the_choices(option: str, value: str, choices: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=4, **options_of(option, value))
    assert str(info.value) == f"{option} must be one of {choices}, not {value!r}"


@pytest.mark.parametrize(
    ("option", "value", "member"),
    [
        ("schedule", "down-up", Schedule.DOWN_UP),
        ("first_dealer", "first-jack", FirstDealer.FIRST_JACK),
        ("dealer_bid", "hook", DealerBid.HOOK),
        ("trump_lead", "broken", TrumpLead.BROKEN),
        ("scoring", "ten-plus-bid", Scoring.TEN_PLUS_BID),
    ],
)
def test_option_spelled_as_a_listed_choice_is_not_refused_as_unknown(
    option: str, value: str, member: object
) -> None:
    """The message lists the record spellings as the choices, so giving one must not be refused
    by that same message: either the spelling is accepted, or the message says to use the enum."""
    try:
        outcome: Rules | RulesError = Rules(player_count=4, **options_of(option, value))
    except RulesError as error:
        outcome = error
    if isinstance(outcome, RulesError):
        listed_choices = str(outcome).rsplit(", not ", 1)[0]
        assert repr(value) not in listed_choices, f"refused a listed choice: {outcome}"
    else:
        assert getattr(outcome, option) is member


@pytest.mark.parametrize("max_cards", [0, -3, True, 2.5, "5"])
def test_max_cards_must_be_a_whole_number_of_at_least_one(max_cards: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=4, max_cards=max_cards)
    assert str(info.value) == f"max_cards must be a whole number of at least 1, not {max_cards!r}"


@pytest.mark.parametrize(("players", "most"), [(3, 17), (4, 12), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_max_cards_above_the_deck_is_refused_naming_the_most(players: int, most: int) -> None:
    Rules(player_count=players, max_cards=most)
    Rules(player_count=players, schedule=Schedule.DOWN_UP, max_cards=most)
    with pytest.raises(RulesError) as info:
        Rules(player_count=players, max_cards=most + 1)
    assert str(info.value) == (
        f"{players} players × {most + 1} cards + 1 turn-up needs {players * (most + 1) + 1} cards; "
        f"the most for {players} players is {most}"
    )


@pytest.mark.parametrize("restriction", [DealerBid.HOOK, DealerBid.OVERBID])
def test_simultaneous_bidding_with_a_dealer_restriction_is_refused(restriction: DealerBid) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=5, bidding=Bidding.SIMULTANEOUS, dealer_bid=restriction)
    message = str(info.value)
    assert "simultaneous bidding has no last bidder" in message
    assert repr(restriction.value) in message
    assert "use dealer_bid 'free' or sequential bidding" in message
    assert Rules(player_count=5, bidding=Bidding.SIMULTANEOUS).dealer_bid is DealerBid.FREE
    assert Rules(player_count=5, dealer_bid=restriction).bidding is Bidding.SEQUENTIAL


def test_explicit_schedule_refuses_max_cards() -> None:
    with pytest.raises(RulesError, match="max_cards applies to 'up-down' and 'down-up', not to an explicit"):
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(3,), max_cards=3)


def test_explicit_schedule_needs_a_hand_size() -> None:
    with pytest.raises(RulesError, match=r"needs at least one hand size, e\.g\. \[7\]"):
        Rules(player_count=4, schedule=Schedule.EXPLICIT)


@pytest.mark.parametrize("size", [0, -1, True, 1.5, "3"])
def test_explicit_hand_sizes_must_be_whole_numbers_of_at_least_one(size: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2, size))
    assert str(info.value) == f"hand sizes must be whole numbers of at least 1, not {size!r}"


@pytest.mark.parametrize(("players", "limit"), [(3, 17), (4, 13), (5, 10), (8, 6)])
def test_explicit_hand_size_may_use_the_whole_deck_but_no_more(players: int, limit: int) -> None:
    assert Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(limit,)).hand_sizes == (
        limit,
    )
    with pytest.raises(RulesError) as info:
        Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(1, limit + 1))
    assert str(info.value) == (
        f"{players} players × {limit + 1} cards needs {players * (limit + 1)} cards; "
        f"the deck has 52, so the most for {players} players is {limit}"
    )


@pytest.mark.parametrize("schedule", [Schedule.UP_DOWN, Schedule.DOWN_UP])
def test_explicit_sizes_need_the_explicit_schedule(schedule: Schedule) -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=4, schedule=schedule, explicit_sizes=(3,))
    assert str(info.value) == f"explicit hand sizes need schedule 'explicit', not {schedule.value!r}"


def test_explicit_schedule_is_played_as_given() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2,))
    assert rules.hand_sizes == (2,)
    assert rules.rounds == 1
    rules = Rules(player_count=5, schedule=Schedule.EXPLICIT, explicit_sizes=(3, 1, 3, 10))
    assert rules.hand_sizes == (3, 1, 3, 10)
    assert rules.rounds == 4


@pytest.mark.parametrize(("players", "peak"), [(3, 17), (4, 11), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_default_max_cards_is_source_000s_table_else_the_decks_most(players: int, peak: int) -> None:
    rules = Rules(player_count=players)
    assert max(rules.hand_sizes) == peak
    assert rules.hand_sizes == tuple(range(1, peak + 1)) + tuple(range(peak, 0, -1))
    assert upriver.rules.default_max_cards(players) == peak
    down_up = Rules(player_count=players, schedule=Schedule.DOWN_UP)
    assert down_up.hand_sizes[0] == peak


def test_rules_are_frozen_and_replace_validates_again() -> None:
    rules = Rules(player_count=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.player_count = 5  # type: ignore[misc]
    assert rules.replace(player_count=5).player_count == 5
    assert rules.replace(player_count=5).hand_sizes[:-1] == rules.replace(player_count=5).hand_sizes[:-1]
    assert max(rules.replace(player_count=7).hand_sizes) == 7
    with pytest.raises(RulesError, match="players must be a whole number"):
        rules.replace(player_count=9)
    with pytest.raises(RulesError, match="the most for 8 players is 6"):
        rules.replace(player_count=8, max_cards=7)


def test_rules_compare_and_hash_by_options() -> None:
    assert Rules(player_count=4) == Rules(player_count=4, max_cards=None)
    assert hash(Rules(player_count=4)) == hash(Rules(player_count=4))
    assert Rules(player_count=4) != Rules(player_count=4, scoring=Scoring.TEN_PLUS_BID)


# ------------------------------------------------------------------ presets


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [
        ("classic", 4, 7),
        ("classic-hook", 4, 7),
        ("countdown", 4, 8),
        ("closed-fists", 4, 8),
        ("overbid", 3, 7),
    ],
)
def test_preset_player_ranges_follow_the_sources(name: str, low: int, high: int) -> None:
    found = PRESETS[name]
    assert (found.min_players, found.max_players) == (low, high)
    for players in range(low, high + 1):
        assert found.rules(players).player_count == players
    for players in (low - 1, high + 1):
        with pytest.raises(RulesError) as info:
            preset(name, player_count=players)
        message = str(info.value)
        assert f"the {name!r} preset" in message
        assert f"is for {low}–{high} players, not {players}" in message
        assert "use custom rules for other counts" in message
        assert found.source in message


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("000", "classic"),
        ("001", "countdown"),
        ("002", "overbid"),
        ("003", "countdown"),
        ("004", "countdown"),
        ("Classic", "classic"),
        (" countdown ", "countdown"),
        ("CLOSED-FISTS", "closed-fists"),
    ],
)
def test_preset_aliases_and_spelling(alias: str, name: str) -> None:
    assert preset(alias, player_count=5) == PRESETS[name].rules(5)


def test_unknown_preset_is_refused_listing_the_presets() -> None:
    with pytest.raises(RulesError) as info:
        preset("bridge", player_count=4)
    assert str(info.value) == (
        "unknown preset 'bridge': expected one of classic, classic-hook, countdown, closed-fists, overbid"
    )


def test_presets_reproduce_the_source_rule_sets() -> None:
    classic = preset("classic", player_count=4)
    assert (
        classic.schedule,
        classic.first_dealer,
        classic.bidding,
        classic.dealer_bid,
        classic.trump_lead,
        classic.scoring,
    ) == (
        Schedule.UP_DOWN,
        FirstDealer.FIRST_JACK,
        Bidding.SEQUENTIAL,
        DealerBid.FREE,
        TrumpLead.BROKEN,
        Scoring.TEN_PLUS_BID,
    )
    assert preset("classic-hook", player_count=4) == classic.replace(dealer_bid=DealerBid.HOOK)
    countdown = preset("countdown", player_count=4)
    assert (
        countdown.schedule,
        countdown.first_dealer,
        countdown.bidding,
        countdown.dealer_bid,
        countdown.trump_lead,
        countdown.scoring,
    ) == (
        Schedule.DOWN_UP,
        FirstDealer.LEFT_OF_KEEPER,
        Bidding.SEQUENTIAL,
        DealerBid.HOOK,
        TrumpLead.ANY,
        Scoring.TRICKS_PLUS_TEN,
    )
    assert countdown.hand_sizes[0] == 10
    assert preset("closed-fists", player_count=4) == countdown.replace(
        bidding=Bidding.SIMULTANEOUS, dealer_bid=DealerBid.FREE
    )
    overbid = preset("overbid", player_count=3)
    assert (
        overbid.schedule,
        overbid.bidding,
        overbid.dealer_bid,
        overbid.trump_lead,
        overbid.scoring,
    ) == (Schedule.UP_DOWN, Bidding.SEQUENTIAL, DealerBid.OVERBID, TrumpLead.ANY, Scoring.TRICKS_PLUS_TEN)


def test_preset_overrides_change_single_options() -> None:
    rules = preset("classic", player_count=4, dealer_bid=DealerBid.HOOK)
    assert rules == preset("classic-hook", player_count=4)
    assert preset("countdown", player_count=4, max_cards=8).hand_sizes[0] == 8
    assert preset("classic", player_count=4, max_cards=3).hand_sizes == (1, 2, 3, 3, 2, 1)
    with pytest.raises(RulesError, match="simultaneous"):
        preset("countdown", player_count=4, bidding=Bidding.SIMULTANEOUS)


@pytest.mark.parametrize("name", ["countdown", "closed-fists"])
def test_countdown_schedule_can_be_overridden(name: str) -> None:
    """The countdown presets' placeholder start must not leak into other schedules."""
    up_down = preset(name, player_count=4, schedule=Schedule.UP_DOWN)
    assert up_down.schedule is Schedule.UP_DOWN
    assert max(up_down.hand_sizes) == 11
    explicit = preset(name, player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(3, 2))
    assert explicit.hand_sizes == (3, 2)


def test_presets_name_their_source_files() -> None:
    assert PRESETS["classic"].source == SOURCE_FILES["000"]
    assert PRESETS["classic-hook"].source == SOURCE_FILES["000"]
    assert PRESETS["overbid"].source == SOURCE_FILES["002"]
    for name in ("countdown", "closed-fists"):
        for number in ("001", "003", "004"):
            assert SOURCE_FILES[number] in PRESETS[name].source
    named = " ".join(p.source for p in PRESETS.values())
    assert all(file in named for file in SOURCE_FILES.values())
    # The presets' docstrings in the rules module name the same files.
    source = inspect.getsource(upriver.rules)
    for file in SOURCE_FILES.values():
        assert f"``{file}``" in source


def test_presets_are_preset_objects_with_summaries() -> None:
    assert set(PRESETS) == {"classic", "classic-hook", "countdown", "closed-fists", "overbid"}
    for name, found in PRESETS.items():
        assert isinstance(found, Preset)
        assert found.name == name
        assert found.summary
        assert 3 <= found.min_players <= found.max_players <= 8


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_makes_a_playable_game_for_every_player_count(name: str) -> None:
    found = PRESETS[name]
    for players in range(found.min_players, found.max_players + 1):
        game = Game(found.rules(players), seed=players)
        assert game.hand_size == game.rules.hand_sizes[0]
        assert game.legal_bids()


@pytest.mark.parametrize("option", ["bidding", "schedule", "max_cards", "preset", "x" * 1000])
def test_a_refused_option_value_is_quoted_by_a_bounded_excerpt(option: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({option: "y" * 30_000_000}, player_count=4)
    assert len(str(info.value)) < 300
    assert "\n" not in str(info.value)


def test_a_schedule_named_by_text_lists_the_spellings_a_record_can_use() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"schedule": "sideways"}, player_count=4)
    assert str(info.value) == (
        "schedule must be one of 'up-down', 'down-up' or a list of hand sizes such as [1, 2, 3], "
        "not 'sideways'"
    )
