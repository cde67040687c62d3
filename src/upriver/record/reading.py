"""Reading a record: strict about meaning, lenient about spelling.

Every refusal is a :class:`~upriver.errors.RecordError` whose one-line message
starts with where the problem is, as a path into the document
(``rounds[2].hands[1][3]: unknown card 'XX': …``). Rule breaches that need the
game to be played out (a revoke, a hook bid) are left to :func:`upriver.record.replay`.
What JSON is read at all, and how a refused value is quoted (a bounded excerpt,
whatever its size), is :mod:`upriver.record.decoding`; what a player's name may be
is :mod:`upriver.names`, as at every other entry point.
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from types import MappingProxyType

from upriver.cards import Card, Suit
from upriver.errors import NotationError, RecordError, RulesError
from upriver.names import PlayerNameError, check_names
from upriver.record.decoding import check_json, decode, kind, printable, shown
from upriver.record.model import FORMAT, Record, RoundRecord, canonical_rules
from upriver.rules import OPTION_NAMES, Rules

__all__ = ["load", "loads", "parse_record"]

_TOP_KEYS = ("format", "rules", "players", "rounds")
_ROUND_KEYS = ("dealer", "hands", "turned", "bids", "plays", "tricks", "trump")


def _whole(value: object, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        found = kind(value) if isinstance(value, list | dict) else f"{kind(value)} {shown(value)}"
        raise RecordError(f"{where}: {what} must be a whole number, not {found}")
    return value


def _list(value: object, where: str, what: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: {what} must be a list, not {kind(value)}")
    return value


def _object(value: object, where: str, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: {what} must be a JSON object, not {kind(value)}")
    return value


_CARD_TEXT = 16
"""Card text longer than this (``" 10♥ "`` is 5) is refused without parsing, so a message stays short."""


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f"{where}: a card must be written as text like 'TH', not {shown(value)}")
    if len(value) > _CARD_TEXT:
        raise RecordError(f"{where}: unknown card {shown(value)}: a card is a rank and a suit, like 'TH'")
    try:
        return Card.parse(value)
    except NotationError as error:
        raise RecordError(f"{where}: {error}") from None


def _suit(value: object, where: str) -> Suit:
    try:
        if isinstance(value, str):
            return Suit.parse(value)
    except NotationError:
        pass
    raise RecordError(f"{where}: unknown suit {shown(value)}: expected one of C, D, H, S")


def _rules(data: object, players: int) -> tuple[Rules, Mapping[str, object]]:
    """The record's rules through :meth:`Rules.from_options`; keys it does not know are kept aside.

    A refusal names the key at fault (``rules.scoring: …``) when the engine names an
    option the section gives, else the whole section (``rules: …``).
    """
    section = _object(data, "rules", "the rules")
    check_json(section, "rules", 1)
    options = {key: value for key, value in section.items() if key in OPTION_NAMES}
    extras = {key: value for key, value in section.items() if key not in OPTION_NAMES}
    try:
        rules = Rules.from_options(options, player_count=players)
    except RulesError as error:
        where = "rules" if error.option not in section else f"rules.{error.option}"
        raise RecordError(f"{where}: {error}") from None
    return canonical_rules(rules), MappingProxyType(extras)


def _players(data: object) -> tuple[str, ...]:
    """The names as every entry point reads them (:func:`upriver.names.check_names`): trimmed, NFC."""
    names = _list(data, "players", "players")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RecordError(f"players[{i}]: a name must be text, not {shown(name)}")
    try:
        return check_names(names)
    except PlayerNameError as error:
        raise RecordError(f"players[{error.seat}]: {error}") from None


def _seat_list(value: object, where: str, what: str, n: int) -> list[object]:
    items = _list(value, where, what)
    if len(items) != n:
        raise RecordError(f"{where}: {what} must have one entry per player ({n}), not {len(items)}")
    return items


def _round(data: object, where: str, n: int) -> RoundRecord:
    section = _object(data, where, "a round")
    for key in ("dealer", "bids"):
        if key not in section:
            raise RecordError(f"{where}: missing key {key!r}")
    dealer = _whole(section["dealer"], f"{where}.dealer", "the dealer")
    if not 0 <= dealer < n:
        raise RecordError(f"{where}.dealer: seat {shown(dealer)} does not exist: seats are 0 to {n - 1}")
    bids = tuple(
        None if bid is None else _whole(bid, f"{where}.bids[{i}]", "a bid")
        for i, bid in enumerate(_seat_list(section["bids"], f"{where}.bids", "bids", n))
    )
    tricks = None
    if section.get("tricks") is not None:
        tricks = tuple(
            _whole(count, f"{where}.tricks[{i}]", "a trick count")
            for i, count in enumerate(_seat_list(section["tricks"], f"{where}.tricks", "tricks", n))
        )
    trump = None if section.get("trump") is None else _suit(section["trump"], f"{where}.trump")
    unknown = {k: v for k, v in section.items() if k not in _ROUND_KEYS}
    if unknown:
        check_json(unknown, where, 2)
    extras = MappingProxyType(unknown)
    turned = None if section.get("turned") is None else _card(section["turned"], f"{where}.turned")
    if turned is not None and trump is not None and turned.suit is not trump:
        raise RecordError(f"{where}.trump: the turned card {turned} makes {turned.suit.name.lower()} trump")
    if section.get("hands") is None:
        if section.get("plays"):
            raise RecordError(f"{where}.plays: plays need the hands they were played from")
        return RoundRecord(
            dealer=dealer,
            bids=bids,
            tricks=tricks,
            trump=trump if turned is None else turned.suit,
            extras=extras,
        )
    if "turned" not in section:
        raise RecordError(f"{where}: missing key 'turned' (null for a round with no trump)")
    seen: dict[Card, str] = {}
    hands: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(_seat_list(section["hands"], f"{where}.hands", "hands", n)):
        cards: list[Card] = []
        for i, text in enumerate(_list(hand, f"{where}.hands[{seat}]", "a hand")):
            spot = f"{where}.hands[{seat}][{i}]"
            card = _card(text, spot)
            if card in seen:
                raise RecordError(f"{spot}: {card} is dealt twice (also at {seen[card]})")
            seen[card] = spot
            cards.append(card)
        hands.append(tuple(cards))
    if turned is not None and turned in seen:
        raise RecordError(f"{where}.turned: the turned card {turned} is also dealt at {seen[turned]}")
    plays = section.get("plays")
    return RoundRecord(
        dealer=dealer,
        hands=tuple(hands),
        turned=turned,
        bids=bids,
        plays=tuple(
            _card(text, f"{where}.plays[{i}]")
            for i, text in enumerate(_list([] if plays is None else plays, f"{where}.plays", "plays"))
        ),
        tricks=tricks,
        extras=extras,
    )


def parse_record(data: object) -> Record:
    """A :class:`Record` from decoded JSON; raises :class:`RecordError` if it is not one."""
    document = _object(data, "record", "a record")
    for key in ("format", "players", "rounds"):
        if key not in document:
            raise RecordError(f"record: missing key {key!r}")
    form = document["format"]
    if not isinstance(form, str) or form.strip().lower() != FORMAT:
        raise RecordError(f"format: unknown format {shown(form)}: expected {FORMAT!r}")
    players = _players(document["players"])
    extras = {k: v for k, v in document.items() if k not in _TOP_KEYS}
    check_json(extras, "record", 0)
    rules, rule_extras = _rules(document.get("rules", {}), len(players))
    rounds = tuple(
        _round(item, f"rounds[{i}]", len(players))
        for i, item in enumerate(_list(document["rounds"], "rounds", "rounds"))
    )
    return Record(
        rules=rules,
        players=players,
        rounds=rounds,
        extras=MappingProxyType(extras),
        rule_extras=rule_extras,
    )


def loads(text: str) -> Record:
    """A :class:`Record` from JSON text (docs/record.md §4.1 says which JSON)."""
    return parse_record(decode(text))


def load(path: str | PathLike[str]) -> Record:
    """A :class:`Record` from a UTF-8 JSON file; an unreadable file is a :class:`RecordError` too."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"record: not UTF-8 text: byte {error.start} cannot be decoded") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise RecordError(printable(f"{path}: cannot be read: {reason}")) from None
    return loads(text)
