"""The parameters of ``python_upriver``: read, checked, and written back in a form OpenSpiel's game
strings keep.

OpenSpiel writes a game as ``python_upriver(name=value,...)`` and reads it back by splitting at
commas and taking a value of digits for a number, so every value this module writes back has no
comma, and no text value looks like a number: rule options as JSON with ``;`` between items,
hand sizes as ``[1 2 3]``, a deck as ``AS KS QS``.

>>> config = config_of({"players": 3, "preset": "", "hand_sizes": "2", "rules": "dealer_bid=hook"})
>>> config.rules.hand_sizes, config.rules.dealer_bid.value, config.max_bid
((2,), 'hook', 2)
>>> written = canonical_params(config)
>>> written["hand_sizes"], config_of(written) == config
('', True)
>>> config_of({"players": 3, "preset": "", "deck": "AS KS"})
Traceback (most recent call last):
...
upriver.spiel.params.SpielParameterError: python_upriver parameter 'deck': 3 players × 17 cards
+ 1 turn-up needs 52 cards; the deck has 2
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Mapping, Sequence

from upriver.cards import DECK, Card, cards_in, mask_of
from upriver.errors import NotationError, RulesError, UpriverError
from upriver.rules import DEFAULT_PRESET, Rules, Trump
from upriver.scoring import round_score

__all__ = [
    "DEFAULTS",
    "GAME_NAME",
    "SpielConfig",
    "SpielParameterError",
    "Utility",
    "canonical_params",
    "config_of",
    "params_of",
    "utility_range",
]

FULL_DECK = mask_of(DECK)
GAME_NAME = "python_upriver"
DEFAULTS: dict[str, object] = {
    "players": 4,
    "preset": DEFAULT_PRESET,
    "rules": "",
    "hand_sizes": "",
    "deck": "",
    "dealer": -1,
    "first_round": 1,
    "utility": "scores",
}
"""Every parameter and its default."""


class SpielParameterError(UpriverError, ValueError):
    """A ``python_upriver`` parameter that cannot be played; ``parameter`` names it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"python_upriver parameter {parameter!r}: {message}")
        self.parameter = parameter


class Utility(enum.Enum):
    """What the returns pay each seat at the end of the game."""

    SCORES = "scores"
    """Its final total (general-sum)."""
    DIFFERENCES = "differences"
    """Its final total less the mean of all totals (zero-sum)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SpielConfig:
    """A ``python_upriver`` game's parameters, read and checked (:func:`config_of`)."""

    rules: Rules
    deck: int
    """The cards dealt from, as a bit set over card indices."""
    dealer: int | None
    first_round: int
    utility: Utility

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.player_count

    @property
    def max_bid(self) -> int:
        """The largest hand size, so the largest bid and the last bid action."""
        return max(self.rules.hand_sizes)

    def __deepcopy__(self, memo: object) -> SpielConfig:
        return self  # immutable, shared by every state of a game


def _options(text: str) -> dict[str, object]:
    """Rule options from a JSON object (``;`` may stand for its commas) or ``key=value`` pairs
    (``key:value`` too) between commas or semicolons; a value is read as JSON if it can be."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            try:
                value = json.loads(text.replace(";", ","))
            except json.JSONDecodeError as error:
                raise SpielParameterError("rules", f"not a JSON object ({error.msg})") from None
        if not isinstance(value, dict):
            raise SpielParameterError("rules", "a JSON object of rule options is wanted")
        return value
    options: dict[str, object] = {}
    for part in re.split(r"[,;](?![^\[]*\])", text):  # commas inside [..] belong to a list
        match = re.fullmatch(r"\s*([A-Za-z_]+)\s*[=:](.*)", part, re.DOTALL)
        if match is None:
            raise SpielParameterError("rules", f"{part.strip()!r} is not key=value, e.g. dealer_bid=hook")
        key, raw = match.groups()
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw.strip()
    return options


def _sizes(text: str) -> list[int]:
    sizes: list[int] = []
    for part in re.split(r"[,;\s]+", text.strip().strip("[]").strip()):
        if not part.isdigit() or int(part) < 1:
            raise SpielParameterError("hand_sizes", f"{part!r} is not a hand size: write e.g. '1,2,3'")
        sizes.append(int(part))
    return sizes


def _deck(text: str) -> int:
    if not text.strip():
        return FULL_DECK
    mask = 0
    for part in re.split(r"[,;\s]+", text.strip()):
        try:
            card = Card.parse(part)
        except NotationError:
            raise SpielParameterError("deck", f"{part!r} is not a card: write e.g. 'AS,KS,QH'") from None
        if mask & card.mask:
            raise SpielParameterError("deck", f"{card} is listed twice")
        mask |= card.mask
    return mask


def _whole(params: Mapping[str, object], name: str) -> int:
    value = params.get(name, DEFAULTS[name])
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpielParameterError(name, f"a whole number is wanted, not {value!r}")
    return value


def _text(params: Mapping[str, object], name: str) -> str:
    value = params.get(name, DEFAULTS[name])
    if isinstance(value, int) and not isinstance(value, bool) and name == "hand_sizes":
        return str(value)  # a game string reads one hand size back as a number
    if not isinstance(value, str):
        raise SpielParameterError(name, f"text is wanted, not {value!r}")
    return value


def config_of(params: Mapping[str, object]) -> SpielConfig:
    """The game these parameters describe (missing ones take :data:`DEFAULTS`).

    :raises SpielParameterError: naming the parameter that cannot be played and why.
    """
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise SpielParameterError(unknown[0], f"unknown; the parameters are {', '.join(DEFAULTS)}")
    players = _whole(params, "players")
    options = _options(_text(params, "rules"))
    preset = _text(params, "preset").strip()
    if preset and "preset" not in options:
        options["preset"] = preset
    sizes = _text(params, "hand_sizes")
    if sizes.strip():
        options["schedule"], options["max_cards"] = _sizes(sizes), None
    try:
        rules = Rules.from_options(options, player_count=players)
    except RulesError as error:
        raise SpielParameterError("rules" if error.option else "players", str(error)) from None
    deck = _deck(_text(params, "deck"))
    most = max(rules.hand_sizes)
    turn_up = rules.trump is Trump.TURN_UP and deck != FULL_DECK
    if players * most + turn_up > deck.bit_count():
        raise SpielParameterError(
            "deck",
            f"{players} players × {most} cards{' + 1 turn-up' if turn_up else ''} needs "
            f"{players * most + turn_up} cards; the deck has {deck.bit_count()}",
        )
    dealer = _whole(params, "dealer")
    if not -1 <= dealer < players:
        raise SpielParameterError("dealer", f"a seat 0 to {players - 1}, or -1 to draw it, not {dealer}")
    first = _whole(params, "first_round")
    if first < 1:
        raise SpielParameterError("first_round", f"a round's number (1 or more), not {first}")
    try:
        utility = Utility(_text(params, "utility").strip().lower())
    except ValueError:
        raise SpielParameterError("utility", "'scores' or 'differences'") from None
    return SpielConfig(rules, deck, None if dealer < 0 else dealer, first, utility)


def params_of(
    rules: Rules,
    *,
    hand_sizes: Sequence[int] | None = None,
    first_round: int = 1,
    dealer: int | None = None,
) -> dict[str, object]:
    """The parameters of a ``python_upriver`` game under ``rules``: its whole schedule, or the rounds
    of ``hand_sizes`` counted from round ``first_round`` (what the arena's OpenSpiel seats play)."""
    params: dict[str, object] = {
        "players": rules.player_count,
        "preset": "",
        "rules": json.dumps(rules.options(), separators=(";", ":")),
        "first_round": first_round,
        "dealer": -1 if dealer is None else dealer,
    }
    if hand_sizes is not None:
        params["hand_sizes"] = "[" + " ".join(map(str, hand_sizes)) + "]"
    return params


def utility_range(config: SpielConfig) -> tuple[float, float]:
    """The least and the most a seat's return can be: every round's worst or best score summed, or
    under ``differences`` every round's widest spread between two seats, times (n - 1) / n."""
    rules, low, high, spread = config.rules, 0.0, 0.0, 0.0
    for number, size in enumerate(rules.hand_sizes, start=config.first_round):
        scores = [round_score(rules.scoring, b, t, number) for b in range(size + 1) for t in range(size + 1)]
        low, high, spread = low + min(scores), high + max(scores), spread + max(scores) - min(scores)
    if config.utility is Utility.DIFFERENCES:
        n = config.players
        return -spread * (n - 1) / n, spread * (n - 1) / n
    return low, high


def canonical_params(config: SpielConfig) -> dict[str, object]:
    """``config``'s parameters in full, written so that an OpenSpiel game string keeps them: the
    rules as every option of :meth:`Rules.options` in JSON with ``;`` for its commas."""
    return {
        "players": config.players,
        "preset": "",
        "rules": json.dumps(config.rules.options(), separators=(";", ":")),
        "hand_sizes": "",
        "deck": "" if config.deck == FULL_DECK else " ".join(map(str, cards_in(config.deck))),
        "dealer": -1 if config.dealer is None else config.dealer,
        "first_round": config.first_round,
        "utility": config.utility.value,
    }
