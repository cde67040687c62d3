"""The client messages, one frozen class per ``type``, read at the door by :func:`parse_client`.

The wire format and what each message does are :mod:`upriver.web.play.protocol`'s. Here each message
type is a pydantic model whose fields are exactly what that type carries (strict JSON types, keys it
does not read are ignored); :data:`ClientMessage` is their union, told apart by ``type``. A message
that lacks a field its type needs, or gives one of the wrong kind, is refused here, with rule
``field`` and a sentence naming the field, before any table sees it: so a handler never meets a
message without the fields it acts on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from upriver.game import Move
from upriver.names import quoted
from upriver.web.hosting.guard import AnyObject, InputError, parse_json

__all__ = [
    "MAX_MESSAGE",
    "MESSAGE_TYPES",
    "Back",
    "Bid",
    "Bot",
    "Chat",
    "Claim",
    "ClientMessage",
    "Confirm",
    "Handover",
    "Hint",
    "Join",
    "Leave",
    "MoveMessage",
    "OwnSeatMessage",
    "Play",
    "ProtocolError",
    "React",
    "Reinvite",
    "Rekey",
    "Revoke",
    "Sync",
    "parse_client",
]

MAX_MESSAGE = 4096
"""Longest client message accepted, in characters: a real one is under 100."""

_PROOF = r"^[0-9a-f]{64}$"


class ProtocolError(Exception):
    """A client message the server cannot use; ``rule`` names why (``json``, ``type``, ``field``,
    ``size``), ``facts`` what a page needs to say it again (``{"field": "card"}`` for ``field``)."""

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        client_id: str | None = None,
        facts: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.client_id = client_id
        self.facts: dict[str, object] = dict(facts or {})


class _Message(BaseModel):
    """What every client message has: its ``type`` (in each class) and the client's optional ``id``."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)

    needs: ClassVar[Mapping[str, str]] = {}
    """The sentence refusing a message of this type that lacks a field, per field (others are said as
    a field of the wrong kind, ``None``)."""

    id: str | None = Field(default=None, min_length=1, max_length=64)


class OwnSeatMessage(_Message):
    """A message that acts for the connection's own seat: a ``seat`` it gives must be that seat."""

    seat: int | None = None


class Join(OwnSeatMessage):
    """Take the seat the connection's invite offers, under ``name``; ``proof``: the page's secret's hash."""

    type: Literal["join"] = "join"
    name: str = Field(max_length=200)
    proof: str | None = Field(default=None, pattern=_PROOF)
    needs = {"name": "a join needs a 'name'"}


class Bid(OwnSeatMessage):
    """Bid ``bid``, chosen against state ``v``; ``id`` unique per seat."""

    type: Literal["bid"] = "bid"
    id: str = Field(min_length=1, max_length=64)
    v: int
    bid: int
    needs = {"id": "a bid needs an 'id' chosen by the client"}

    @property
    def move(self) -> Move:
        """The bid, for :meth:`~upriver.Game.move`."""
        return self.bid


class Play(OwnSeatMessage):
    """Play ``card`` (its text as sent: the engine reads it), chosen against state ``v``."""

    type: Literal["play"] = "play"
    id: str = Field(min_length=1, max_length=64)
    v: int
    card: str = Field(min_length=1, max_length=8)
    needs = {"id": "a play needs an 'id' chosen by the client"}

    @property
    def move(self) -> Move:
        """The card's text, for :meth:`~upriver.Game.move`."""
        return self.card


class Claim(OwnSeatMessage):
    """Claim the rest of the round, against state ``v``."""

    type: Literal["claim"] = "claim"
    id: str = Field(min_length=1, max_length=64)
    v: int
    needs = {"id": "a claim needs an 'id' chosen by the client"}


class Hint(OwnSeatMessage):
    """Ask for the seat's hint for its current decision."""

    type: Literal["hint"] = "hint"
    v: int | None = None


class Confirm(OwnSeatMessage):
    """The joined page saved its new token."""

    type: Literal["confirm"] = "confirm"


class Leave(OwnSeatMessage):
    """The person leaves; a bot of the table's level plays for the seat."""

    type: Literal["leave"] = "leave"


class Back(OwnSeatMessage):
    """The person takes their seat back from its stand-in bot."""

    type: Literal["back"] = "back"


class Rekey(OwnSeatMessage):
    """Sign out the seat's other devices: a new token for this connection."""

    type: Literal["rekey"] = "rekey"


class Sync(_Message):
    """Send me the state again."""

    type: Literal["sync"] = "sync"


class Revoke(_Message):
    """The host: a new invite link for open ``seat``."""

    type: Literal["revoke"] = "revoke"
    seat: int
    needs = {"seat": "a revoke needs the 'seat' whose invite to renew"}


class Bot(_Message):
    """The host, before the game starts: open ``seat`` goes to a bot of ``kind``."""

    type: Literal["bot"] = "bot"
    seat: int
    kind: str = Field(min_length=1, max_length=16)
    needs = {
        "seat": "a bot message needs the 'seat' to give and the bot's 'kind'",
        "kind": "a bot message needs the 'seat' to give and the bot's 'kind'",
    }


class Reinvite(_Message):
    """The host: a new invite for ``seat``, whose person has no connection."""

    type: Literal["reinvite"] = "reinvite"
    seat: int
    needs = {"seat": "a reinvite needs the 'seat' to give a new invite"}


class Handover(_Message):
    """Hand another person's ``seat`` to a bot (they are away)."""

    type: Literal["handover"] = "handover"
    seat: int
    needs = {"seat": "a handover needs the 'seat' to hand to a bot"}


class Chat(_Message):
    """A line of the table's chat (:mod:`upriver.web.social.chat` checks it); a spectator gives its
    ``name``."""

    type: Literal["chat"] = "chat"
    text: str = Field(max_length=MAX_MESSAGE)
    name: str | None = Field(default=None, max_length=200)
    needs = {"text": "a chat message needs its 'text'"}


class React(_Message):
    """A reaction shown on the seat (:data:`upriver.web.social.chat.REACTIONS`)."""

    type: Literal["react"] = "react"
    reaction: str = Field(min_length=1, max_length=16)
    needs = {"reaction": "a react message needs its 'reaction'"}


ClientMessage = Annotated[
    Join
    | Bid
    | Play
    | Sync
    | Revoke
    | Bot
    | Confirm
    | Leave
    | Back
    | Handover
    | Chat
    | React
    | Claim
    | Hint
    | Rekey
    | Reinvite,
    Field(discriminator="type"),
]
"""A well-formed client message: one of the classes above, by its ``type``."""

MoveMessage = Bid | Play
"""A message that makes a move: a bid or a card."""

_READER: Final = TypeAdapter[ClientMessage](ClientMessage)
_CLASSES: Final = {
    cls.model_fields["type"].default: cls
    for cls in (
        Join,
        Bid,
        Play,
        Sync,
        Revoke,
        Bot,
        Confirm,
        Leave,
        Back,
        Handover,
        Chat,
        React,
        Claim,
        Hint,
        Rekey,
        Reinvite,
    )
}
MESSAGE_TYPES: Final = tuple(_CLASSES)
"""Every client message ``type``, in the order an unknown type's refusal lists them."""

_WHAT = {
    "id": "a string of 1 to 64 characters",
    "v": "a whole number",
    "bid": "a whole number",
    "seat": "a whole number",
    "card": "a card like 'QH'",
    "name": "a name of 1 to 24 characters",
    "kind": "a bot kind like 'basic'",
    "text": "a line of text",
    "reaction": "a reaction like 'well-played'",
    "proof": "the SHA-256 of the page's secret, 64 lowercase hexadecimal digits",
}


def _refusal(
    data: Mapping[str, object], kind: str, first: ErrorDetails, client_id: str | None
) -> ProtocolError:
    """The refusal of a message of type ``kind`` for pydantic's ``first`` error (rule ``field``)."""
    field = str(first["loc"][1]) if len(first["loc"]) > 1 else "message"
    if first["type"] == "missing":
        sentence = _CLASSES[kind].needs.get(field, f"'{field}' must be {_WHAT[field]}, not None")
    else:
        sentence = f"'{field}' must be {_WHAT.get(field, 'as documented')}, not {quoted(data.get(field))}"
    return ProtocolError(sentence, rule="field", client_id=client_id, facts={"field": field})


def parse_client(text: str | bytes) -> ClientMessage:
    """Read one client message, or raise :class:`ProtocolError` saying what is wrong with it.

    The JSON is read by pydantic-core (:func:`upriver.web.hosting.guard.parse_json`): nesting too deep,
    a lone surrogate or a huge number is refused as ``json``, before any field is looked at.
    """
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            f"message longer than {MAX_MESSAGE} characters", rule="size", facts={"limit": MAX_MESSAGE}
        )
    try:
        data = parse_json(AnyObject, text).data()
    except InputError as error:
        raise ProtocolError(f"{error}; a message is a JSON object with a 'type'", rule="json") from None
    raw_id = data.get("id")
    client_id = raw_id if isinstance(raw_id, str) and 0 < len(raw_id) <= 64 else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _CLASSES:
        raise ProtocolError(
            f"unknown message type {quoted(kind)}: expected one of {', '.join(MESSAGE_TYPES)}",
            rule="type",
            client_id=client_id,
            facts={"types": list(MESSAGE_TYPES)},
        )
    try:
        return _READER.validate_python(data)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        raise _refusal(data, kind, first, client_id) from None
