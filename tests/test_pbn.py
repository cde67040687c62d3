"""An Oh Hell hand in PBN as Trickster Cards exports it: read into a game record, written back, and
refused in words naming the tag, the line and what would be right (docs/trickster.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from upriver import Game, Rules
from upriver.actions import Phase
from upriver.cards import Card
from upriver.record import (
    PbnError,
    Record,
    RecordRuleError,
    dumps,
    dumps_pbn,
    load,
    loads,
    loads_any,
    loads_pbn,
    record_of,
    replay,
)
from upriver.record.pbn import PbnGame, Tag, format_games, parse
from upriver.record.trickster import text_of

DATA = Path(__file__).parent / "data" / "pbn"
# A real export: the hand a player pasted into TricksterCards/TricksterBots issue #245
# (https://github.com/TricksterCards/TricksterBots/issues/245, comment of 2024-04-15), as pasted,
# with its LocalDateTime tag missing its ] and GameOptionsJson's inner quotes not escaped.
TRICKSTER_245 = DATA / "trickster-245.pbn"
GOLDEN = Path(__file__).parent / "golden"


def hand(**changes: str) -> str:
    """The issue #245 hand with some tag lines replaced (``{"Deal": '[Deal "…"]'}``) or removed (``""``)."""
    lines = []
    for line in TRICKSTER_245.read_text(encoding="utf-8").splitlines():
        name = line[1:].split(" ", 1)[0] if line.startswith("[") else None
        if name in changes:
            if changes[name]:
                lines.append(changes[name])
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def refusal(text: str) -> PbnError:
    with pytest.raises(PbnError) as caught:
        loads_pbn(text)
    return caught.value


def upriver(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "upriver", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


# ------------------------------------------------------------------ a real Trickster hand


def test_a_trickster_hand_reads_as_a_round_in_progress_seated_from_south() -> None:
    record = loads_pbn(TRICKSTER_245.read_text(encoding="utf-8"))
    assert record.players == ("Rick (2438974)", "Fletcher (Auto)", "Vanessa (Auto)", "Joann (Auto)")
    (entry,) = record.rounds
    assert entry.dealer == 1  # West
    assert entry.turned == Card.parse("QH")  # the stock's first card
    assert entry.hands is not None
    assert entry.hands[1] == tuple(Card.parse(c) for c in ("6C", "JC", "AC", "6D", "7S"))  # W:7..6.AJ6
    assert entry.bids == (0, 0, 2, 2)  # Auction "N": N 2, E 2, S 0, W 0
    # Each Play row lists the seats from North; the second trick was led by East, who won the first.
    assert entry.plays == tuple(
        Card.parse(c) for c in ("4H", "TH", "3H", "AC", "AS", "5S", "7S", "6H", "JD", "QD")
    )
    assert record.rules.options()["dealer_bid"] == "free"  # hookRule false, "without hook"
    assert record.rules.hand_sizes == (5,)
    game = replay(record)
    assert game.phase is Phase.PLAYING
    assert game.tricks_won == (0, 0, 1, 1)
    kept = entry.extras["pbn"]
    assert isinstance(kept, dict)
    assert kept["GameScores"] == "S:82 95 98 79"
    assert kept["LocalDateTime"] == "4/14/2024 4:45 PM PDT"
    assert json.loads(kept["GameOptionsJson"]) == {"hookRule": False, "noWatching": True}


def test_written_back_a_trickster_hand_reads_as_the_same_record() -> None:
    record = loads_pbn(TRICKSTER_245.read_text(encoding="utf-8"))
    written = dumps_pbn(record)
    assert '[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]' in written
    assert "H6 SA S5 S7\nDJ DQ - -\n*\n" in written  # PBN's * after a play cut short
    assert loads_pbn(written) == record
    assert loads(dumps(record)) == record


def test_the_hook_comes_from_the_options_else_the_event_else_tricksters_default() -> None:
    no_options = hand(GameOptionsJson="")
    assert loads_pbn(no_options).rules.options()["dealer_bid"] == "free"  # "without hook" in the event
    with_hook = hand(GameOptionsJson="", Event='[Event "Practice Oh Hell - 4-player, with hook"]')
    assert loads_pbn(with_hook).rules.options()["dealer_bid"] == "hook"
    neither = hand(GameOptionsJson="", Event="")
    assert loads_pbn(neither).rules.options()["dealer_bid"] == "hook"
    escaped = hand(GameOptionsJson='[GameOptionsJson "{\\"hookRule\\":false}"]')  # the 2025 spelling
    assert loads_pbn(escaped).rules.options()["dealer_bid"] == "free"


def test_comments_escape_lines_and_blank_lines_between_tags_are_read_past() -> None:
    text = TRICKSTER_245.read_text(encoding="utf-8")
    noisy = "% PBN 2.1\n{ a comment\nover two lines }\n" + text.replace("\n[", "\n\n[").replace(
        "H6 SA S5 S7", "H6 SA S5 S7 ; the second trick"
    )
    assert loads_pbn(noisy) == loads_pbn(text)


def test_a_three_player_hand_is_seated_south_west_east() -> None:
    text = "\n".join(
        [
            '[GameCode "OhHell"]',
            '[South "Ann"]',
            '[West "Bob"]',
            '[East "Cid"]',
            '[Dealer "E"]',
            '[Deal "E:A.K.. .A.K. ..A.K"]',
            '[Undealt "C2"]',
            '[Auction "S"]',
            "1 0 -",
            "*",
        ]
    )
    record = loads_pbn(text)
    assert record.players == ("Ann", "Bob", "Cid")
    (entry,) = record.rounds
    assert entry.dealer == 2
    assert entry.hands == (
        (Card.parse("KD"), Card.parse("AH")),
        (Card.parse("KC"), Card.parse("AD")),
        (Card.parse("KH"), Card.parse("AS")),
    )  # each hand in deck order, as upriver deals
    assert entry.bids == (1, 0, None)
    assert replay(record).phase is Phase.BIDDING


def test_a_seat_without_a_name_is_called_by_its_seat() -> None:
    record = loads_pbn(hand(North='[North ""]', East=""))
    assert record.players[2:] == ("North", "East")


def test_a_latin_1_file_is_read_as_pbns_own_character_set() -> None:
    text = hand(South='[South "Åsa"]')
    assert loads_pbn(text_of(text.encode("latin-1"))).players[0] == "Åsa"
    assert loads_any(text) == loads_pbn(text)


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("changes", "tag", "words"),
    [
        ({"Deal": '[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.A"]'}, "Deal", "AC is dealt twice"),
        ({"Deal": '[Deal "W:7..6.AJ .64.J.95 A3.T.Q.Q 5.3.94.7"]'}, "Deal", "not the same size"),
        ({"Deal": '[Deal "W:7..6.AJ6 .64.J.95"]'}, "Deal", "upriver reads Trickster's tables of 3"),
        ({"Deal": '[Deal "X:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]'}, "Deal", "one of S W N E"),
        ({"Deal": '[Deal "W:7..6.AJ6 - A3.T.Q.Q 5.3.94.7"]'}, "Deal", "North's hand is not given"),
        ({"Deal": '[Deal "W:7..6.AJX .64.J.95 A3.T.Q.Q 5.3.94.7"]'}, "Deal", "unknown rank"),
        ({"Dealer": ""}, "Dealer", "no Dealer tag"),
        ({"Undealt": '[Undealt "HQH1"]'}, "Undealt", "not a card"),
        ({"Undealt": '[Undealt "HQCA"]'}, "Undealt", "AC is dealt to West"),
        ({"Undealt": ""}, "Undealt", "no card is turned up"),
        ({"Auction": '[Auction "E"]'}, "Auction", "left of the dealer (W): N"),
        ({"Play": '[Play "E"]'}, "Play", "left of the dealer (W): N"),
        ({"GameCode": '[GameCode "Bridge"]'}, "GameCode", 'upriver reads Oh Hell hands: [GameCode "OhHell"]'),
        (
            {"GameOptionsJson": '[GameOptionsJson "{\\"hookRule\\":false,\\"leadTrump\\":1}"]'},
            "GameOptionsJson",
            "cannot play Trickster's option leadTrump=1",
        ),
        ({"GameOptionsJson": '[GameOptionsJson "{\\"hookRule\\":true}"]'}, "Event", "the two agreeing"),
        ({"GameOptionsJson": '[GameOptionsJson "[1]"]'}, "GameOptionsJson", "not a JSON object"),
        ({"Event": '[Event "Practice Oh Hell - 5-player"]'}, "Event", "5-player game but the deal has 4"),
        ({"South": '[South "PaulDominic Check Score please (3216758)"]'}, "South", "at most 24 characters"),
        ({"South": '[South "Fletcher (auto)"]'}, "West", "none alike another"),
    ],
)
def test_a_bad_tag_is_refused_naming_it_its_line_and_what_would_be_right(
    changes: dict[str, str], tag: str | None, words: str
) -> None:
    text = hand(**changes)
    error = refusal(text)
    assert error.tag == tag
    assert words in str(error)
    assert error.expected
    assert error.expected in str(error)
    if error.line is not None:
        assert text.splitlines()[error.line - 1].startswith(f"[{tag} ")
    assert isinstance(error, ValueError)
    assert set(error.facts_json()) == {"tag", "line", "problem", "expected", "found"}


@pytest.mark.parametrize(
    ("play", "line", "words"),
    [
        # Written in the order played instead of by seat: AS is East's card, in South's column.
        ("H4 HT H3 CA\nSA S5 S7 H6\nDJ DQ - -", 20, "AS is not in North's hand but in East's"),
        ("H4 HT H3 CA\nH6 SA S5 S7\nDJ - D9 -", 21, "South plays to trick 3 before East"),
        ("H4 HT H3 -\nH6 SA S5 S7", 20, "a trick after an unfinished one"),
        ("H4 HT H3 CA\nH4 SA S5 S7", 20, "4H is played twice"),
        ("H4 HT H3 CA\nH6 SA S5 XX", 20, "not a card"),
        ("H4 HT H3 CA\n*\nH6 SA S5 S7", 21, "a card after the * that ends the play"),
    ],
)
def test_a_play_section_out_of_its_seat_order_is_refused_at_its_line(
    play: str, line: int, words: str
) -> None:
    text = TRICKSTER_245.read_text(encoding="utf-8").replace("H4 HT H3 CA\nH6 SA S5 S7\nDJ DQ - -", play)
    error = refusal(text)
    assert error.tag == "Play"
    assert error.line == line
    assert words in str(error)


def test_a_bid_that_is_not_a_number_is_refused_at_its_line() -> None:
    error = refusal(TRICKSTER_245.read_text(encoding="utf-8").replace("2 2 0 0", "2 Pass 0 0"))
    assert (error.tag, error.line) == ("Auction", 17)
    assert "a whole number, or - for a bid not made yet" in str(error)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('7..6.AJ6\n[Deal "W:"]', "text before the first tag pair"),
        ("[Deal W:7..6]", "the tag's value is not in quotes"),
        ('[Deal "W:7..6]', "no closing quote"),
        ('[Event "x"]\n{ never closed', "never closed"),
        ("% only an escape line\n", "no hand in the text"),
    ],
)
def test_text_that_is_not_pbn_is_refused_in_words(text: str, words: str) -> None:
    assert words in str(refusal(text))


def test_two_trickster_hands_in_one_text_are_refused() -> None:
    text = TRICKSTER_245.read_text(encoding="utf-8")
    error = refusal(text + "\n" + text)
    assert "holds 2 hands" in str(error)
    assert error.line == 24


def test_a_hand_that_breaks_a_rule_reads_and_the_replay_names_the_rule() -> None:
    # South holds 3H but throws 9D on the heart led.
    record = loads_pbn(TRICKSTER_245.read_text(encoding="utf-8").replace("H4 HT H3 CA", "H4 HT D9 CA"))
    with pytest.raises(RecordRuleError) as caught:
        replay(record)
    assert caught.value.rule == "follow suit"
    assert caught.value.player == "Rick (2438974)"


def test_a_record_pbn_cannot_hold_is_refused_when_written() -> None:
    seven = record_of(Game(Rules.from_options({}, player_count=7), None, seed=1))
    with pytest.raises(PbnError, match="seats for 3 to 6 players"):
        dumps_pbn(seven)
    keeping = loads(
        '{"format": "upriver-record/1", "players": ["A", "B", "C"], '
        '"rounds": [{"dealer": 0, "bids": [0, 1, 0], "tricks": [0, 1, 0]}]}'
    )
    with pytest.raises(PbnError, match="round 1 was kept without its cards"):
        dumps_pbn(keeping)


# ------------------------------------------------------------------ round trips


def random_record(rules: Rules, seed: int, moves: int) -> Record:
    game = Game(rules, None, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat=seat)
        elif game.phase is Phase.PLAYING:
            game.play(rng.choice(game.legal_cards()))
        else:
            break
    return record_of(game)


RULE_OPTIONS = st.fixed_dictionaries(
    {
        "bidding": st.sampled_from(["sequential", "simultaneous"]),
        "dealer_bid": st.sampled_from(["free", "hook", "overbid"]),
        "trump_lead": st.sampled_from(["any", "broken", "after-first-trick"]),
        "trump": st.sampled_from(["turn-up", "rotate"]),
        "scoring": st.sampled_from(["ten-plus-bid", "tricks-plus-ten", "squares"]),
        "blind_one_card": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    options=RULE_OPTIONS,
    sizes=st.lists(st.integers(1, 8), min_size=1, max_size=4),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 120),
)
def test_any_round_written_as_pbn_reads_back_as_the_same_record(
    players: int, options: dict[str, object], sizes: list[int], seed: int, moves: int
) -> None:
    if options["bidding"] == "simultaneous":
        options = {**options, "dealer_bid": "free"}  # no last bidder to restrict
    rules = Rules.from_options({**options, "schedule": sizes}, player_count=players)
    record = random_record(rules, seed, moves)
    if not record.rounds:
        return
    written = dumps_pbn(record)
    again = loads_pbn(written)
    assert again == record
    assert dumps_pbn(again) == written
    assert replay(again).plays == replay(record).plays


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 60), players=st.integers(3, 6))
def test_a_trickster_shaped_round_reads_back_through_trickster_tags_alone(
    seed: int, moves: int, players: int
) -> None:
    """Without upriver's own tags, a one-round game of Trickster's rules reads back all the same."""
    size = random.Random(seed).randint(1, 52 // players - 1)
    rules = Rules.from_options(
        {"schedule": [size], "dealer_bid": "hook", "scoring": "ten-plus-bid"}, player_count=players
    )
    record = random_record(rules, seed, moves)
    text = "\n".join(line for line in dumps_pbn(record).splitlines() if not line.startswith("[Upriver"))
    assert loads_pbn(text) == record


def test_pbn_text_formats_back_to_the_same_text() -> None:
    games = (
        PbnGame(
            (
                Tag.of("Event", 'a "quoted" \\ event'),
                Tag.of("Deal", "S:A... .A.. ..A. ...A"),
                Tag.of("Auction", "N", [["2", "2", "0", "0"]]),
                Tag.of("Play", "N", [["H4", "HT", "H3", "CA"], ["DJ", "DQ", "-", "-"], ["*"]]),
            )
        ),
        PbnGame((Tag.of("Deal", "N:A... .A.. ..A. ...A"),)),
    )
    text = format_games(games)
    assert format_games(parse(text)) == text
    assert parse(text)[0].tags[0].value == 'a "quoted" \\ event'


def test_every_golden_record_of_three_to_six_players_round_trips_through_pbn() -> None:
    tried = 0
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != "upriver-record/1" or not 3 <= len(data["players"]) <= 6:
            continue
        record = load(path)
        if any(entry.hands is None for entry in record.rounds):
            continue
        assert loads_pbn(dumps_pbn(record)) == record, path.name
        tried += 1
    assert tried >= 5


# ------------------------------------------------------------------ the command line


def test_import_writes_a_record_that_check_accepts(tmp_path: Path) -> None:
    out = tmp_path / "hand.json"
    imported = upriver("import", str(TRICKSTER_245), "-o", str(out), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert loads(out.read_text(encoding="utf-8")) == loads_pbn(TRICKSTER_245.read_text(encoding="utf-8"))
    checked = upriver("check", str(out), "--json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    summary = json.loads(checked.stdout)
    assert summary["rounds"] == [{"tricks": [0, 0, 1, 1], "scores": None}]
    assert summary["complete"] is False
    direct = upriver("check", str(TRICKSTER_245), "--json", cwd=tmp_path)
    assert json.loads(direct.stdout) == summary


def test_export_pbn_then_import_gives_the_record_back(tmp_path: Path) -> None:
    source = GOLDEN / "classic-hook.json"
    pbn = tmp_path / "game.pbn"
    exported = upriver("export", str(source), "--pbn", "-o", str(pbn), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    back = upriver("export", str(pbn), cwd=tmp_path)  # without --pbn: the JSON record
    assert back.returncode == 0, back.stderr
    assert loads(back.stdout) == load(source)


def test_a_bad_hand_is_one_line_on_standard_error_and_nothing_is_written(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_text(hand(Deal='[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.A"]'), encoding="utf-8")
    out = tmp_path / "out.json"
    result = upriver("import", str(bad), "-o", str(out), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{bad}: not a game record: line 14, tag Deal: AC is dealt twice")
    assert "Traceback" not in result.stderr
    assert not out.exists()
    broken = tmp_path / "revoke.pbn"
    broken.write_text(TRICKSTER_245.read_text(encoding="utf-8").replace("H4 HT H3 CA", "H4 HT D9 CA"))
    result = upriver("import", str(broken), cwd=tmp_path)
    assert result.returncode == 1
    assert "rule broken: round 1, Rick (2438974): must follow suit" in result.stderr


def test_review_takes_the_pbn_hand_directly(tmp_path: Path) -> None:
    result = upriver(
        "review",
        str(TRICKSTER_245),
        "--json",
        "--budget",
        "40",
        "--jobs",
        "1",
        "--player",
        "rick (2438974)",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)
    assert review["players"][0] == "Rick (2438974)"
    (seat,) = review["seats"]
    (round_,) = seat["rounds"]
    assert round_["bid"] == 0
    assert round_["tricks"] is None  # the hand stops in the middle of the round
