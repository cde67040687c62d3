"""An Oh Hell hand in PBN, as Trickster Cards exports it, read into a game record and written back.

Trickster Cards (where most people play Oh Hell online) exports a hand as PBN (the notation is
:mod:`upriver.record.pbn`) with tags of its own; its players paste such hands into bug reports
about its bots, for example this one (TricksterCards/TricksterBots issue #245, April 2024)::

    [Event "Trickster Cards: Practice Oh Hell - 4-player, deal 10..1..10 without hook"]
    [GameCode "OhHell"]
    [GameOptionsJson "{"hookRule":false,"noWatching":true}"]
    [GameScores "S:82 95 98 79"]
    [West "Fletcher (Auto)"]
    ...
    [Dealer "W"]
    [Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]
    [Undealt "HQHJSKS6D3S9H5D7CKH2HAH7S8C2DTD2C3STS2H8C8CTDASQHKDKH9S4D8C4D5SJ"]
    [Auction "N"]
    2 2 0 0
    [Play "N"]
    H4 HT H3 CA
    H6 SA S5 S7
    DJ DQ - -

:func:`loads_pbn` makes it a one-round record (docs/trickster.md says how each tag is read);
:func:`dumps_pbn` writes a record's rounds in the same form, with ``Upriver…`` tags that carry
what Trickster's tags cannot say (the rules in full, several rounds), so that
``loads_pbn(dumps_pbn(record)) == record`` for every record whose rounds have their cards.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from upriver.cards import DECK, Card
from upriver.deal import left_of, rotating_trump
from upriver.errors import RulesError
from upriver.record.model import Record, RoundRecord
from upriver.record.pbn import PbnError, PbnGame, Tag, format_games, looks_like_pbn, parse
from upriver.record.pbn_hand import (
    NAME_TAGS,
    SEATS,
    Deal,
    bids_of,
    card_text,
    deal_of,
    hand_text,
    json_tag,
    names_of,
    plays_of,
    stock_text,
    winner,
)
from upriver.record.reading import loads, parse_record
from upriver.record.writing import to_json
from upriver.rules import Rules, Trump

KEPT = "pbn"
"""The round's extra key holding the tags upriver does not turn into the record, by name."""

RULES, EXTRAS, ROUND = "UpriverRules", "UpriverExtras", "UpriverRound"
"""upriver's own tags: the rules as the record writes them, the record's extra keys, the round's."""

_HARMLESS = ("noWatching", "noSuggestions", "isFaceUp", "allowUndo", "gameOverScore", "variation")
"""GameOptionsJson keys that change nothing in one hand's bids and play (who may watch, hints,
undo, the deal pattern and target score of the game around it)."""

_GENERATED = frozenset({"Deal", "Dealer", "Auction", "Play", "GameCode", RULES, EXTRAS, ROUND})
"""Tags the record says otherwise, or that upriver writes itself."""


def text_of(data: bytes) -> str:
    """A file's text: UTF-8 (what Trickster and upriver write), else Latin-1 when it is PBN
    (PBN's own character set).

    :raises UnicodeDecodeError: for bytes that are neither.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        if looks_like_pbn(text):
            return text
        raise


def loads_any(text: str) -> Record:
    """A record from a JSON record (docs/record.md) or a PBN hand, told apart by their first character.

    :raises RecordError: (a :class:`PbnError` for PBN) when the text is neither.
    """
    return loads_pbn(text) if looks_like_pbn(text) else loads(text)


def _trickster_rules(game: PbnGame, count: int, size: int) -> dict[str, object]:
    """The rule options of a Trickster hand: its hook from GameOptionsJson or the Event line."""
    code = game.get("GameCode")
    if code is not None and code.value.strip().lower() != "ohhell":
        raise PbnError(
            "the hand is of another game:",
            tag="GameCode",
            line=code.line,
            found=code.value,
            expected='upriver reads Oh Hell hands: [GameCode "OhHell"]',
        )
    hook: bool | None = None
    options = game.get("GameOptionsJson")
    if options is not None:
        for key, value in json_tag(options).items():
            if key == "hookRule" and isinstance(value, bool):
                hook = value
            elif key == "players" and value == count:
                continue
            elif key not in _HARMLESS:
                raise PbnError(
                    f"upriver cannot play Trickster's option {key}={json.dumps(value)}",
                    tag="GameOptionsJson",
                    line=options.line,
                    expected=(
                        f"options upriver reads: hookRule (true or false), players ({count}); "
                        f"{', '.join(_HARMLESS)} change nothing in a hand"
                    ),
                )
    event = game.get("Event")
    if event is not None:
        said = re.search(r"(\d+)-player", event.value)
        if said and int(said.group(1)) != count:
            raise PbnError(
                f"the event is a {said.group(1)}-player game but the deal has {count} hands",
                tag="Event",
                line=event.line,
                expected="as many hands as players",
            )
        named = re.search(r"\b(without|with) hook\b", event.value, re.IGNORECASE)
        if named:
            by_event = named.group(1).lower() == "with"
            if hook is not None and hook != by_event:
                raise PbnError(
                    f"the event says {named.group(0)} but GameOptionsJson says hookRule {json.dumps(hook)}",
                    tag="Event",
                    line=event.line,
                    expected="the two agreeing",
                )
            hook = by_event
    return {
        "schedule": [size],
        "dealer_bid": "free" if hook is False else "hook",
        "scoring": "ten-plus-bid",
    }


def _kept(game: PbnGame, count: int, undealt: str | None) -> dict[str, str]:
    """The tags the record keeps as they were: those it does not otherwise say."""
    seats = {NAME_TAGS[letter] for letter in SEATS[count]}
    kept: dict[str, str] = {}
    for tag in game.tags:
        if tag.name in _GENERATED or tag.name in seats or tag.name in kept:
            continue
        if tag.name == "Undealt" and "".join(tag.value.split()).upper() == undealt:
            continue
        if tag.name == "GameOptionsJson" and set(json_tag(tag)) <= {"hookRule"}:
            continue
        kept[tag.name] = tag.value
    return kept


def _round(
    game: PbnGame, deal: Deal, rules: Rules, number: int, extra: Mapping[str, object]
) -> dict[str, object]:
    size = len(deal.hands[0])
    if rules.trump is Trump.ROTATE:
        turned, trump = None, rotating_trump(number)
    elif deal.stock:
        turned = deal.stock[0]
        trump = turned.suit
    elif size * deal.count < len(DECK):
        tag = game.get("Undealt")
        raise PbnError(
            "no card is turned up",
            tag="Undealt",
            line=None if tag is None else tag.line,
            expected='the stock, its first card the turn-up, like [Undealt "HQHJSK…"]',
        )
    else:
        turned, trump = None, None
    entry: dict[str, object] = {
        "dealer": deal.dealer,
        "hands": [[str(card) for card in hand] for hand in deal.hands],
        "turned": None if turned is None else str(turned),
        "bids": list(bids_of(game, deal)),
        "plays": [str(card) for card in plays_of(game, deal, trump)],
    }
    entry.update(extra)
    kept = _kept(game, deal.count, stock_text(deal.hands, turned, rules))
    if kept:
        entry[KEPT] = kept
    return entry


def _rules_of(options: Mapping[str, object], count: int, tag: Tag | None) -> Rules:
    try:
        return Rules.from_options(options, player_count=count)
    except RulesError as error:
        raise PbnError(
            f"rules upriver cannot play: {error}",
            tag=None if tag is None else tag.name,
            line=None if tag is None else tag.line,
            expected="rules of docs/rules.md",
        ) from None


def loads_pbn(text: str) -> Record:
    """The record of a PBN text: one Trickster hand (a one-round record), or what
    :func:`dumps_pbn` wrote (every round, with its rules).

    :raises PbnError: naming the tag, its line and what would be right, for text that is not such a
        hand. Whether the bids and cards follow the rules is :func:`upriver.record.replay`'s to say.
    """
    games = [game for game in parse(text) if game.tags]
    if not games:
        raise PbnError(
            "no hand in the text",
            expected=(
                'a hand as Trickster Cards exports it, with [Deal "…"], [Dealer "…"], '
                '[Auction "…"] and [Play "…"]'
            ),
        )
    ours = [game.get(RULES) for game in games]
    if not any(ours) and len(games) > 1:
        raise PbnError(
            f"the text holds {len(games)} hands",
            tag="Deal",
            line=games[1].tags[0].line,
            expected="one Trickster hand at a time: paste or save each hand on its own",
        )
    deals = [deal_of(game) for game in games]
    count = deals[0].count
    players = names_of(games[0], count)
    if not any(ours):
        options = _trickster_rules(games[0], count, len(deals[0].hands[0]))
        rules = _rules_of(options, count, games[0].get("GameOptionsJson"))
        rounds = [_round(games[0], deals[0], rules, 1, _round_extra(games[0]))]
        document: dict[str, object] = {"format": "upriver-record/1", "rules": options}
    else:
        rules_tag = next(tag for tag in ours if tag is not None)
        options = json_tag(rules_tag)
        rules = _rules_of(options, count, rules_tag)
        rounds = []
        for number, (game, deal) in enumerate(zip(games, deals, strict=True), start=1):
            tag = game.get(RULES)
            where = game.tags[0].line
            if tag is None or json_tag(tag) != options:
                raise PbnError(
                    f"round {number} has other rules than round 1",
                    tag=RULES,
                    line=where if tag is None else tag.line,
                    expected="the same UpriverRules in every game of the text",
                )
            if deal.count != count or names_of(game, count) != players:
                raise PbnError(
                    f"round {number} has other players than round 1",
                    tag="Deal",
                    line=where,
                    expected="the same players in every game of the text",
                )
            _check_hook(game, rules)
            rounds.append(_round(game, deal, rules, number, _round_extra(game)))
        document = {"format": "upriver-record/1", "rules": options}
    extras_tag = games[0].get(EXTRAS)
    if extras_tag is not None:
        document.update((k, v) for k, v in json_tag(extras_tag).items() if k not in document)
    document["players"] = players
    document["rounds"] = rounds
    return parse_record(document)


def _round_extra(game: PbnGame) -> dict[str, object]:
    """The round's extra keys and trick counts from its UpriverRound tag, if it has one."""
    tag = game.get(ROUND)
    return {} if tag is None else json_tag(tag)


def _check_hook(game: PbnGame, rules: Rules) -> None:
    """GameOptionsJson's hookRule, when there is one, may not contradict the UpriverRules."""
    tag = game.get("GameOptionsJson")
    if tag is None:
        return
    hook = json_tag(tag).get("hookRule")
    dealer_bid = rules.options()["dealer_bid"]
    if isinstance(hook, bool) and dealer_bid in ("free", "hook") and hook != (dealer_bid == "hook"):
        raise PbnError(
            f"hookRule {json.dumps(hook)} contradicts the UpriverRules' dealer_bid {dealer_bid!r}",
            tag="GameOptionsJson",
            line=tag.line,
            expected="the two agreeing",
        )


def dumps_pbn(record: Record) -> str:
    """The record's rounds in PBN, one game a round, as Trickster Cards writes a hand.

    Each game also carries ``UpriverRules`` (and, when there is something to say,
    ``UpriverExtras`` and ``UpriverRound``) so that :func:`loads_pbn` gives the record back.

    :raises PbnError: for a record PBN cannot hold: a round kept without its cards, a table of
        fewer than 3 or more than 6 players (Trickster's seat names), no round at all.
    """
    count = len(record.players)
    if count not in SEATS:
        raise PbnError(
            f"the record has {count} players",
            expected="PBN as Trickster writes it has seats for 3 to 6 players",
        )
    if not record.rounds:
        raise PbnError("the record has no round yet", expected="a round with its cards to write")
    document = to_json(record)
    rules_text = json.dumps(document["rules"], ensure_ascii=False, separators=(",", ":"))
    extras = {k: v for k, v in document.items() if k not in ("format", "rules", "players", "rounds")}
    seats = SEATS[count]
    games = []
    for number, entry in enumerate(record.rounds, start=1):
        if entry.hands is None:
            raise PbnError(
                f"round {number} was kept without its cards (a score keeper's round)",
                expected="PBN holds hands: only rounds played with cards can be written",
            )
        kept = entry.extras.get(KEPT, {})
        if not isinstance(kept, Mapping) or not all(isinstance(v, str) for v in kept.values()):
            raise PbnError(
                f"round {number}'s {KEPT!r} is not tags and their values",
                expected='an object of text values, like {"Event": "…"}',
            )
        tags = [
            Tag.of(name, value) for name, value in kept.items() if name not in ("Undealt", "GameOptionsJson")
        ]
        tags.append(Tag.of("GameCode", "OhHell"))
        dealer_bid = record.rules.options()["dealer_bid"]
        if "GameOptionsJson" in kept:
            tags.append(Tag.of("GameOptionsJson", kept["GameOptionsJson"]))
        elif dealer_bid in ("free", "hook"):
            tags.append(Tag.of("GameOptionsJson", json.dumps({"hookRule": dealer_bid == "hook"})))
        tags.append(Tag.of(RULES, rules_text))
        if number == 1 and extras:
            tags.append(Tag.of(EXTRAS, json.dumps(extras, ensure_ascii=False, separators=(",", ":"))))
        round_extra: dict[str, object] = {k: v for k, v in entry.extras.items() if k != KEPT}
        if entry.tricks is not None:
            round_extra["tricks"] = list(entry.tricks)
        if round_extra:
            tags.append(Tag.of(ROUND, json.dumps(round_extra, ensure_ascii=False, separators=(",", ":"))))
        for letter in ("W", "NW", "N", "NE", "E", "SE", "S", "SW"):
            if letter in seats:
                tags.append(Tag.of(NAME_TAGS[letter], record.players[seats.index(letter)]))
        dealer = entry.dealer
        tags.append(Tag.of("Dealer", seats[dealer]))
        hands = " ".join(hand_text(entry.hands[left_of(dealer, count, i)]) for i in range(count))
        tags.append(Tag.of("Deal", f"{seats[dealer]}:{hands}"))
        undealt = kept.get("Undealt", stock_text(entry.hands, entry.turned, record.rules))
        if (
            "Undealt" in kept
            and entry.turned is not None
            and not undealt.upper().startswith(card_text(entry.turned))
        ):
            raise PbnError(
                f"round {number}'s kept Undealt does not begin with the turned card {entry.turned}",
                tag="Undealt",
                expected="the stock's first card is the turn-up",
            )
        if undealt is not None:
            tags.append(Tag.of("Undealt", undealt))
        first = left_of(dealer, count)
        order = [left_of(first, count, i) for i in range(count)]
        bids = [("-" if entry.bids[seat] is None else str(entry.bids[seat])) for seat in order]
        tags.append(Tag.of("Auction", seats[first], [bids]))
        if entry.plays:
            tags.append(Tag.of("Play", seats[first], _play_rows(entry, count, record.rules, number)))
        games.append(PbnGame(tuple(tags)))
    return format_games(games)


def _play_rows(entry: RoundRecord, count: int, rules: Rules, number: int) -> list[list[str]]:
    """The Play section's rows: a trick a row, the columns the seats from the first leader; a
    last row ``*`` when the play stops before the round's end (PBN's mark of a play cut short)."""
    plays = entry.plays or ()
    dealer, turned = entry.dealer, entry.turned
    trump = rotating_trump(number) if rules.trump is Trump.ROTATE else (turned.suit if turned else None)
    first = left_of(dealer, count)
    leader = first
    rows: list[list[str]] = []
    for start in range(0, len(plays), count):
        trick = [((leader + k) % count, card) for k, card in enumerate(plays[start : start + count])]
        columns: list[Card | None] = [None] * count
        for seat, card in trick:
            columns[(seat - first) % count] = card
        rows.append([card_text(card) for card in columns])
        if len(trick) == count:
            leader = winner(trick, trump)
    size = 0 if entry.hands is None else len(entry.hands[0])
    if len(plays) < count * size:
        rows.append(["*"])
    return rows
