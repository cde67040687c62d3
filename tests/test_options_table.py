"""The one table of rule options (``upriver.options.OPTIONS``) agrees with everything derived from it:
the fields of ``Rules``, the catalogues of words, the kernel's numbers, the observation's bits, the
command line's flags and the record's round trip."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import upriver.cli.arena
import upriver.cli.keep
import upriver.cli.play
from tests.helpers import rule_choices
from upriver import Game, Rules, Schedule
from upriver.cli import app as cli_app
from upriver.fast import policies
from upriver.fast.api import round_opts
from upriver.options import OPTION, OPTIONS, DealerBid, Kind, TrumpLead
from upriver.rl.encoding import encode, offset

assert upriver.cli.play
assert upriver.cli.keep
assert upriver.cli.arena

CATALOGUES = Path(__file__).resolve().parent.parent / "src" / "upriver" / "i18n" / "catalogues"
NOT_OPTIONS = ("player_count", "explicit_sizes", "hand_sizes")


def test_the_table_holds_every_option_field_of_rules_with_its_default() -> None:
    fields = {
        field.name: field.default for field in dataclasses.fields(Rules) if field.name not in NOT_OPTIONS
    }
    assert list(fields) == [option.name for option in OPTIONS]
    assert fields == {option.name: option.default for option in OPTIONS}


@pytest.mark.parametrize("language", ["en", "fr", "cs", "it", "sv"])
def test_every_catalogue_key_of_the_table_is_in_every_language(language: str) -> None:
    words = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    wanted = [key for option in OPTIONS for key in option.catalogue_keys()]
    assert "rule.trump_lead.after-first-trick" in wanted
    assert "option.blind_one_card" in wanted
    assert [key for key in wanted if key not in words] == []


def test_the_kernel_numbers_of_the_table_are_the_ones_the_kernel_names() -> None:
    assert OPTION["trump_lead"].kernel_codes[TrumpLead.BROKEN] == policies.LEAD_BROKEN
    assert OPTION["trump_lead"].kernel_codes[TrumpLead.AFTER_FIRST_TRICK] == policies.LEAD_AFTER_FIRST
    dealer = OPTION["dealer_bid"].kernel_codes
    assert (dealer[DealerBid.FREE], dealer[DealerBid.HOOK], dealer[DealerBid.OVERBID]) == (
        policies.DEALER_FREE,
        policies.DEALER_HOOK,
        policies.DEALER_OVERBID,
    )
    for option in OPTIONS:
        if option.kernel is not None:
            assert set(option.kernel_codes) == set(option.choices), option.name
            assert len(set(option.kernel_codes.values())) == len(option.choices), option.name


@given(choices=rule_choices(), players=st.integers(3, 8))
def test_each_rule_option_reaches_the_kernel_and_the_observation_as_the_table_says(
    choices: dict[str, Any], players: int
) -> None:
    rules = Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(1,), **choices)
    opts = round_opts(rules)
    observation = encode(Game(rules, seed=1).view(0))
    for option in OPTIONS:
        value = getattr(rules, option.name)
        if option.kernel is not None:
            assert opts[getattr(policies, option.kernel)] == option.kernel_codes[value]
        for bit in option.observation:
            assert observation[offset(bit.field) + bit.index] == float(value == bit.value), (option.name, bit)


@given(choices=rule_choices(), players=st.integers(3, 8))
def test_rules_write_and_read_back_every_option_of_the_table(choices: dict[str, Any], players: int) -> None:
    rules = Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 2), **choices)
    written = rules.options()
    assert Rules.from_options(written, player_count=players) == rules
    for option in OPTIONS[2:]:
        assert (option.name in written) == (
            option.always_written or getattr(rules, option.name) != option.default
        )


@pytest.mark.parametrize("command", ["play", "keep", "arena"])
def test_every_command_that_builds_rules_has_a_flag_for_each_option_with_help(command: str) -> None:
    shown = CliRunner().invoke(cli_app, [command, "--help"], env={"COLUMNS": "240"}).output
    flagged = [option for option in OPTIONS if option.help is not None]
    assert [option.name for option in OPTIONS if option.help is None] == ["first_dealer"]
    for option in flagged:
        assert f"{option.flag} " in shown, option.name
    switches = [option.flag for option in flagged if option.kind is Kind.SWITCH]
    assert all(f"--no-{flag[2:]}" in shown for flag in switches if flag is not None)
