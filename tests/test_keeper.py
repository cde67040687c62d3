"""The score keeper's model: the engine's rules on a real-table sheet, fixing mistakes, export and import."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import upriver.cli.check
from tests.conftest import custom_rules, expected_score, play_out
from upriver import Bidding, DealerBid, Game, IllegalActionError, Rules, Schedule, Scoring, Suit, preset
from upriver.cli import app
from upriver.keeper import EXTRA, KeptSheet
from upriver.record import RecordRuleError, dumps, loads, record_of
from upriver.sheet import RowStatus

NAMES = ["Ann", "Bob", "Cid", "Dee"]

assert upriver.cli.check  # registers `check` on the app


def hook(sizes: tuple[int, ...] = (1, 2, 1), **options: object) -> Rules:
    return preset(
        "classic-hook", 4, schedule=Schedule.EXPLICIT, explicit_sizes=sizes, max_cards=None, **options
    )


def sheet_with(rules: Rules, rounds: list[tuple[list[int], list[int]]], dealer: int = 0) -> KeptSheet:
    """A sheet with these (bids, tricks) rounds entered, bids in bidding order."""
    sheet = KeptSheet.start(NAMES[: rules.player_count], rules, dealer=dealer)
    for bids, tricks in rounds:
        enter_round(sheet, bids, tricks)
    return sheet


def enter_round(sheet: KeptSheet, bids: list[int], tricks: list[int]) -> None:
    """Bids one by one in bidding order (all at once under simultaneous bidding), then the tricks."""
    if sheet.rules.bidding is Bidding.SIMULTANEOUS:
        sheet.enter_bids(bids)
    else:
        for seat in sheet.bidding_order:
            sheet.enter_bid(seat, bids[seat])
    sheet.enter_tricks(tricks)


def checked(sheet: KeptSheet, tmp_path: Path) -> dict[str, object]:
    """``upriver check --json`` on the sheet's exported record."""
    path = tmp_path / "sheet.json"
    path.write_text(dumps(sheet.to_record()), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "--json", str(path)])
    assert result.exit_code == 0, result.output
    summary: dict[str, object] = json.loads(result.output)
    return summary


# ------------------------------------------------------------------ the dealer's rule


def test_the_hook_strikes_out_the_one_bid_that_makes_the_total_and_refuses_it() -> None:
    sheet = KeptSheet.start(NAMES, hook((3,)), dealer=0)
    for seat, bid in ((1, 1), (2, 0), (3, 1)):
        sheet.enter_bid(seat, bid)
    restriction = sheet.bid_restriction()
    assert restriction is not None
    assert (restriction.rule, restriction.seat, restriction.forbidden) == (DealerBid.HOOK, 0, (1,))
    assert (
        restriction.reason
        == "with the hook, the bids may not total 3, the number of tricks (the others bid 2)"
    )
    before = sheet.entries
    with pytest.raises(IllegalActionError, match="Ann may not bid 1: with the hook") as refused:
        sheet.enter_bid(0, 1)
    assert refused.value.rule == "hook"
    assert dict(refused.value.facts) == {"bid": 1, "tricks": 3, "others": 2, "allowed": (0, 2, 3)}
    assert sheet.entries == before
    sheet.enter_bid(0, 2)
    assert sheet.phase == "tricks"
    assert sheet.bid_restriction() is None


def test_the_forbidden_bid_is_only_shown_when_the_dealer_is_next() -> None:
    sheet = KeptSheet.start(NAMES, hook((3,)), dealer=0)
    sheet.enter_bid(1, 1)
    assert sheet.bid_restriction() is None
    assert sheet.to_bid == (2,)


def test_overbid_strikes_out_every_bid_too_low_with_the_engines_reason() -> None:
    rules = preset("overbid", 4, schedule=Schedule.EXPLICIT, explicit_sizes=(3,), max_cards=None)
    sheet = KeptSheet.start(NAMES, rules, dealer=0)
    for seat in (1, 2, 3):
        sheet.enter_bid(seat, 0)
    restriction = sheet.bid_restriction()
    assert restriction is not None
    assert restriction.forbidden == (0, 1, 2)
    assert "the dealer must overbid" in restriction.reason
    with pytest.raises(IllegalActionError, match="must overbid"):
        sheet.enter_bid(0, 2)


def test_simultaneous_bids_are_taken_all_at_once_with_nothing_struck_out() -> None:
    rules = preset("closed-fists", 4, max_cards=2)
    sheet = KeptSheet.start(NAMES, rules, dealer=0)
    assert sheet.to_bid == (1, 2, 3, 0)
    assert sheet.bid_restriction() is None
    sheet.enter_bids([1, 1, 0, 0])  # totals the tricks: allowed without a last bidder
    assert sheet.phase == "tricks"


def test_a_bid_out_of_turn_is_refused_with_the_engines_turn_order() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    with pytest.raises(IllegalActionError, match="it is Bob's turn to bid, not Cid's"):
        sheet.enter_bid(2, 0)
    assert sheet.entries.rounds == ()


def test_a_seat_cannot_bid_twice_in_a_round() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    sheet.enter_bid(1, 0)
    with pytest.raises(IllegalActionError, match="Bob has already bid 0 in round 1"):
        sheet.enter_bid(1, 1)


# ------------------------------------------------------------------ tricks


def test_tricks_are_refused_unless_they_add_up_to_the_hand_size() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    for seat, bid in ((1, 0), (2, 0), (3, 0), (0, 0)):
        sheet.enter_bid(seat, bid)
    before = sheet.entries
    with pytest.raises(IllegalActionError, match="the tricks add up to 2, but 1 were played") as refused:
        sheet.enter_tricks([1, 1, 0, 0])
    assert refused.value.rule == "tricks add up"
    assert sheet.entries == before
    sheet.enter_tricks([0, 0, 0, 1])
    assert sheet.totals == (10, 10, 10, 0)


def test_tricks_before_every_bid_is_in_are_refused() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    sheet.enter_bid(1, 0)
    with pytest.raises(IllegalActionError, match="trick counts are entered after the bids"):
        sheet.enter_tricks([1, 0, 0, 0])


def test_the_sheet_says_who_deals_and_bids_first_and_follows_the_schedule() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])], dealer=2)
    assert sheet.current == 2
    assert sheet.hand_size == 2
    assert sheet.dealer == 3
    assert sheet.bidding_order == (0, 1, 2, 3)
    assert sheet.score_sheet.rows[0].dealer == 2


def test_a_whole_game_ends_with_the_winner_and_refuses_more_rounds() -> None:
    sheet = sheet_with(
        hook(), [([0, 0, 0, 0], [1, 0, 0, 0]), ([1, 0, 0, 0], [1, 1, 0, 0]), ([0, 0, 0, 0], [0, 1, 0, 0])]
    )
    assert sheet.phase == "over"
    assert sheet.headline == "Cid and Dee win with 30"
    with pytest.raises(IllegalActionError, match="the game is over"):
        sheet.enter_bid(None, 0)


def test_the_trump_suit_is_noted_for_the_round_and_kept_in_the_record() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    sheet.note_trump(Suit.HEARTS)
    assert sheet.trump is Suit.HEARTS
    for seat in sheet.bidding_order:
        sheet.enter_bid(seat, 0)
    sheet.enter_tricks([1, 0, 0, 0])
    assert sheet.to_record().rounds[0].trump is Suit.HEARTS
    sheet.note_trump(Suit.SPADES, 1)
    assert sheet.score_sheet.rows[0].trump is Suit.SPADES


# ------------------------------------------------------------------ fixing mistakes


def test_editing_an_earlier_round_recomputes_every_total_after_it() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0]), ([1, 0, 0, 0], [1, 1, 0, 0])])
    assert sheet.totals == (11, 10, 20, 20)
    sheet.edit_round(1, tricks=[0, 1, 0, 0])
    rows = sheet.score_sheet.rows
    assert [cell.score for cell in rows[0].cells] == [10, 0, 10, 10]
    assert [cell.total for cell in rows[1].cells] == [21, 0, 20, 20]
    assert sheet.totals == (21, 0, 20, 20)


def test_an_edit_that_breaks_its_own_round_is_refused_and_changes_nothing() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])])
    before = sheet.entries
    with pytest.raises(IllegalActionError, match="Ann may not bid 1: with the hook"):
        sheet.edit_round(1, bids=[1, 0, 0, 0])  # Ann dealt round 1: the total would be 1
    with pytest.raises(IllegalActionError, match="add up to 2"):
        sheet.edit_round(1, tricks=[1, 1, 0, 0])
    assert sheet.entries == before


def test_a_new_first_dealer_that_breaks_a_later_round_is_kept_and_that_round_flagged() -> None:
    # Overbid, 1 card: Ann may bid 1 after three 0s only as the dealer (nothing can exceed 1 then).
    rules = preset("overbid", 4, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 1), max_cards=None)
    sheet = sheet_with(rules, [([1, 0, 0, 0], [0, 1, 0, 0])], dealer=0)
    sheet.set_first_dealer(3)
    assert sheet.flag is not None
    assert sheet.flag.round == 1
    assert sheet.flag.rule == "overbid"
    assert sheet.phase == "flagged"
    assert sheet.entries.rounds[0].bids == (1, 0, 0, 0)  # nothing typed is lost
    flagged = sheet.score_sheet.rows[0]
    assert (flagged.status, flagged.note) == (RowStatus.FLAGGED, sheet.flag.message)
    assert [cell.bid for cell in flagged.cells] == [1, 0, 0, 0]
    with pytest.raises(IllegalActionError, match="round 1 must be fixed first"):
        sheet.enter_bid(None, 0)
    sheet.edit_round(1, bids=[1, 0, 0, 1])
    assert sheet.flag is None
    assert sheet.totals == (0, 1, 10, 0)


def test_a_new_first_dealer_flags_bids_of_the_round_in_progress_made_out_of_turn() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=0)
    sheet.enter_bid(1, 0)  # Bob, left of Ann
    sheet.set_first_dealer(1)
    assert sheet.flag is not None
    assert sheet.flag.message == "it is Cid's turn to bid, not Bob's"
    sheet.undo()
    assert sheet.flag is None
    assert sheet.dealer == 0


def test_undo_takes_back_entries_and_edits_one_at_a_time() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])])
    sheet.edit_round(1, tricks=[0, 1, 0, 0])
    sheet.undo()
    assert sheet.totals == (0, 10, 10, 10)
    sheet.undo()
    assert sheet.phase == "tricks"
    assert sheet.totals == (0, 0, 0, 0)
    while sheet.history:
        sheet.undo()
    assert sheet.entries.rounds == ()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        sheet.undo()


# ------------------------------------------------------------------ the first Jack


def test_the_first_jack_procedure_waits_for_the_jack_then_that_seat_deals() -> None:
    sheet = KeptSheet.start(NAMES, preset("classic", 4, max_cards=2))
    assert sheet.awaiting_jack
    assert sheet.phase == "jack"
    with pytest.raises(IllegalActionError, match="starting with Ann, until a Jack shows"):
        sheet.enter_bid(None, 0)
    sheet.first_jack(2)
    assert sheet.dealer == 2
    assert sheet.bidding_order[0] == 3
    assert sheet.to_record().extras[EXTRA] == {"first_jack": 2, "jack_dealt_from": 0}


def test_a_chosen_dealer_sheet_has_no_jack_to_record() -> None:
    sheet = KeptSheet.start(NAMES, hook(), dealer=1)
    with pytest.raises(IllegalActionError, match="chosen, not found by the first Jack"):
        sheet.first_jack(2)


# ------------------------------------------------------------------ export and import


def test_csv_has_a_row_per_round_with_bid_tricks_score_and_total_per_player() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])])
    sheet.enter_bid(None, 1)
    lines = sheet.to_csv().splitlines()
    assert lines[0].startswith("round,cards,dealer,trump,Ann bid,Ann tricks,Ann score,Ann total,Bob bid")
    assert lines[1] == "1,1,Ann,,0,1,0,0,0,0,10,10,0,0,10,10,0,0,10,10,"
    assert lines[2] == "2,2,Bob,,,,,,,,,,1,,,,,,,,"


def test_the_exported_record_scores_the_same_under_upriver_check(tmp_path: Path) -> None:
    sheet = sheet_with(
        hook(), [([0, 0, 0, 0], [1, 0, 0, 0]), ([1, 0, 0, 0], [1, 1, 0, 0]), ([0, 0, 0, 0], [0, 1, 0, 0])]
    )
    summary = checked(sheet, tmp_path)
    assert summary["totals"] == list(sheet.totals)
    assert summary["complete"] is True
    assert summary["winners"] == [2, 3]
    assert [r["scores"] for r in summary["rounds"]] == [  # type: ignore[attr-defined]
        [cell.score for cell in row.cells] for row in sheet.score_sheet.rows
    ]


def test_a_record_round_trips_into_an_equal_sheet() -> None:
    sheet = sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])], dealer=2)
    sheet.note_trump(Suit.CLUBS)
    sheet.enter_bid(None, 1)
    again = KeptSheet.from_record(loads(dumps(sheet.to_record())))
    assert again.entries == sheet.entries
    assert again.players == sheet.players
    assert again.totals == sheet.totals
    assert again.to_bid == sheet.to_bid


def test_importing_a_record_that_breaks_a_rule_is_refused_naming_round_and_rule() -> None:
    text = dumps(sheet_with(hook(), [([0, 0, 0, 0], [1, 0, 0, 0])]).to_record())
    broken = text.replace('"bids": [0, 0, 0, 0]', '"bids": [1, 0, 0, 0]')
    with pytest.raises(RecordRuleError, match="round 1, Ann: may not bid 1: with the hook"):
        KeptSheet.from_record(loads(broken))


def test_a_played_card_game_imports_as_its_bids_and_tricks() -> None:
    game = Game(preset("countdown", 4, max_cards=2), NAMES, seed=5)
    play_out(game, random.Random(5))
    sheet = KeptSheet.from_record(record_of(game))
    assert sheet.totals == game.totals
    assert [tuple(c.tricks for c in row.cells) for row in sheet.score_sheet.rows] == [
        r.tricks_won for r in game.results
    ]
    assert sheet.phase == "over"


# ------------------------------------------------------------------ properties


@st.composite
def kept_game(draw: st.DrawFn) -> tuple[Rules, int, list[tuple[list[int], list[int]]]]:
    """Rules, a first dealer and valid (bids, tricks) for some rounds, each bid one the engine allows."""
    rules = draw(custom_rules(max_size=3))
    n = rules.player_count
    first = draw(st.integers(0, n - 1))
    game = Game(rules, dealer=first, auto_deal=False)
    rounds = []
    for size in rules.hand_sizes[: draw(st.integers(0, rules.rounds))]:
        game.deal_at_table()
        bids = [0] * n
        for seat in game.bidding_order:
            bids[seat] = draw(st.sampled_from(game.legal_bids(seat)))
            game.bid(bids[seat], seat=seat)
        tricks = [0] * n
        for _ in range(size):
            tricks[draw(st.integers(0, n - 1))] += 1
        game.record_tricks(tricks)
        rounds.append((bids, tricks))
    return rules, first, rounds


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kept_game())
def test_any_valid_sheet_scores_by_the_rules_and_exports_a_record_the_engine_agrees_with(
    case: tuple[Rules, int, list[tuple[list[int], list[int]]]],
) -> None:
    rules, first, rounds = case
    names = [f"P{i}" for i in range(rules.player_count)]
    sheet = KeptSheet.start(names, rules, dealer=first)
    for bids, tricks in rounds:
        enter_round(sheet, bids, tricks)
    expected = [
        sum(expected_score(rules.scoring, b[s], t[s], k) for k, (b, t) in enumerate(rounds, start=1))
        for s in range(rules.player_count)
    ]
    assert list(sheet.totals) == expected
    assert sheet.flag is None
    again = KeptSheet.from_record(loads(dumps(sheet.to_record())))
    assert again.totals == sheet.totals
    assert again.entries == sheet.entries


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kept_game(), st.data())
def test_an_edit_of_an_earlier_rounds_tricks_never_flags_a_later_round_and_rescores_all(
    case: tuple[Rules, int, list[tuple[list[int], list[int]]]], data: st.DataObject
) -> None:
    rules, first, rounds = case
    if not rounds:
        return
    names = [f"P{i}" for i in range(rules.player_count)]
    sheet = KeptSheet.start(names, rules, dealer=first)
    for bids, tricks in rounds:
        enter_round(sheet, bids, tricks)
    k = data.draw(st.integers(1, len(rounds)))
    size = rules.hand_sizes[k - 1]
    new = [0] * rules.player_count
    for _ in range(size):
        new[data.draw(st.integers(0, rules.player_count - 1))] += 1
    sheet.edit_round(k, tricks=new)
    rounds[k - 1] = (rounds[k - 1][0], new)
    assert sheet.flag is None
    expected = [
        sum(expected_score(rules.scoring, b[s], t[s], k) for k, (b, t) in enumerate(rounds, start=1))
        for s in range(rules.player_count)
    ]
    assert list(sheet.totals) == expected


def test_scores_follow_the_chosen_scoring() -> None:
    rules = hook((1,), scoring=Scoring.TRICKS_PLUS_TEN, dealer_bid=DealerBid.FREE)
    sheet = sheet_with(rules, [([1, 0, 0, 0], [1, 0, 0, 0])])
    assert sheet.totals == (11, 10, 10, 10)
