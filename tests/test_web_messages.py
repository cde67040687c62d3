"""The door of the WebSocket: every client message is read into exactly one message class, by its
``type``, or refused with a sentence naming what is wrong; never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upriver.web.play import messages
from upriver.web.play.messages import MESSAGE_TYPES, ProtocolError, parse_client

CLASSES = (
    messages.Join,
    messages.Bid,
    messages.Play,
    messages.Sync,
    messages.Revoke,
    messages.Bot,
    messages.Confirm,
    messages.Leave,
    messages.Back,
    messages.Handover,
    messages.Chat,
    messages.React,
    messages.Claim,
    messages.Hint,
    messages.Rekey,
    messages.Reinvite,
)

EXAMPLES: dict[str, dict[str, object]] = {
    "join": {"name": "Bea", "proof": "ab" * 32},
    "bid": {"bid": 2, "v": 17, "id": "c-5"},
    "play": {"card": "QH", "v": 18, "id": "c-6"},
    "sync": {},
    "revoke": {"seat": 2},
    "bot": {"seat": 2, "kind": "basic"},
    "confirm": {},
    "rekey": {},
    "reinvite": {"seat": 2},
    "leave": {},
    "back": {},
    "handover": {"seat": 2},
    "chat": {"text": "well played"},
    "react": {"reaction": "oops"},
    "claim": {"v": 18, "id": "c-7"},
    "hint": {},
}
"""One message of each type, as the page sends it (the protocol's own examples)."""

FIELDS = ("type", "id", "v", "bid", "card", "name", "seat", "kind", "text", "reaction", "proof")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
json_objects = st.dictionaries(
    st.sampled_from(FIELDS) | st.text(max_size=8),
    st.sampled_from([*MESSAGE_TYPES, "dance", "QH", "basic", "oops", "ab" * 32, "c-1"])
    | st.integers(-3, 60)
    | json_values,
    max_size=7,
)


def test_every_message_type_has_one_class_and_the_protocol_examples_are_read_into_it() -> None:
    assert sorted(MESSAGE_TYPES) == sorted(EXAMPLES)
    for kind, fields in EXAMPLES.items():
        message = parse_client(json.dumps({"type": kind, **fields}))
        assert [cls for cls in CLASSES if isinstance(message, cls)] == [type(message)]
        assert message.type == kind
        assert message.model_dump(exclude_defaults=True) == fields


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_a_message_lacking_a_field_its_type_needs_is_refused_naming_that_field(kind: str) -> None:
    for field in EXAMPLES[kind]:
        given_fields = {key: value for key, value in EXAMPLES[kind].items() if key != field}
        text = json.dumps({"type": kind, **given_fields})
        cls = type(parse_client(json.dumps({"type": kind, **EXAMPLES[kind]})))
        if not cls.model_fields[field].is_required():
            assert parse_client(text).type == kind  # an optional field may be left out
            continue
        with pytest.raises(ProtocolError) as refused:
            parse_client(text)
        assert refused.value.rule == "field"
        assert refused.value.facts == {"field": field}
        assert f"'{field}'" in str(refused.value)


def test_a_field_of_the_wrong_kind_is_refused_saying_what_it_must_be() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client(json.dumps({"type": "bid", "bid": "one", "v": 3, "id": "x1"}))
    assert (refused.value.rule, refused.value.facts, refused.value.client_id) == (
        "field",
        {"field": "bid"},
        "x1",
    )
    assert str(refused.value) == "'bid' must be a whole number, not 'one'"


def test_an_unknown_type_is_refused_listing_every_type() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client('{"type": "dance", "id": "d"}')
    assert refused.value.rule == "type"
    assert refused.value.facts == {"types": list(MESSAGE_TYPES)}
    assert refused.value.client_id == "d"


def read(text: str) -> messages.ClientMessage | ProtocolError:
    """The message ``text`` is read into, or the refusal it gets."""
    try:
        return parse_client(text)
    except ProtocolError as error:
        return error


@settings(max_examples=500, deadline=None)
@given(json_objects)
def test_any_json_object_is_read_into_exactly_one_message_class_or_refused_naming_the_field(
    data: dict[str, object],
) -> None:
    message = read(json.dumps(data))
    if isinstance(message, ProtocolError):
        sentence = str(message)
        if message.rule == "type":
            assert data.get("type") not in MESSAGE_TYPES
            assert "message type" in sentence
            return
        assert message.rule == "field"
        field = message.facts["field"]
        assert isinstance(field, str)
        assert f"'{field}'" in sentence
        assert field in data or "needs" in sentence or "not None" in sentence
        return
    assert [cls for cls in CLASSES if isinstance(message, cls)] == [type(message)]
    assert message.type == data["type"]
    # What was read is what was sent: the message read again from its own fields is the same.
    assert parse_client(json.dumps(message.model_dump(exclude_none=True))) == message
