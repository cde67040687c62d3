"""Names that imitate a bot or a person at the table: invisible characters and letters that look alike."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import manager_of
from tests.webclient import Client, create
from upriver.bots import BOT_KINDS
from upriver.names import PlayerNameError, check_names, name_keys
from upriver.web.seats.holders import seat_name

BOT_LOOKALIKES = [
    "Cid (ba\u200bsic)",  # a zero width space inside the label
    "Cid (basic)\u200b",  # … and after it
    "Cid (basic\u2060)",  # a word joiner
    "Cid (basic)\ufe0f",  # a variation selector
    "Cid (ba\u00adsic)",  # a soft hyphen
    "Cid (basic\u034f)",  # a combining grapheme joiner
    "Eve \uff08basic\uff09",  # fullwidth brackets
    "Eve \u207dbasic\u207e",  # superscript brackets
]
PERSON_LOOKALIKES = [
    ("Host", "H\u200bost"),  # a zero width space
    ("Host", "\u0397ost"),  # a Greek capital Eta
    ("Ann", "\u0410nn"),  # a Cyrillic capital A
    ("Bea", "B\u0435a"),  # a Cyrillic small ie
    ("Ann", "Ann\u2060"),  # a word joiner
    ("Ann", "\uff21\uff2e\uff2e"),  # fullwidth capitals
    ("Oscar", "0scar"),  # a digit zero
    ("Ian", "lan"),  # a small L for the capital I
]


@pytest.mark.parametrize("name", BOT_LOOKALIKES)
def test_a_name_that_imitates_a_bots_label_with_invisible_or_lookalike_characters_is_refused(
    name: str,
) -> None:
    with pytest.raises(PlayerNameError) as refused:
        seat_name(name, 1, ["Ann", None, None], list(BOT_KINDS))
    assert refused.value.reason == "bot label"


@pytest.mark.parametrize(("taken", "name"), PERSON_LOOKALIKES)
def test_a_name_that_imitates_another_seats_name_is_refused_as_taken(taken: str, name: str) -> None:
    with pytest.raises(PlayerNameError) as refused:
        seat_name(name, 1, [taken, None, None], list(BOT_KINDS))
    assert refused.value.reason == "taken"
    assert refused.value.seat == 1
    with pytest.raises(PlayerNameError):
        check_names([taken, name, "Zed"])  # a record's or a sheet's players too


def test_names_that_only_look_a_little_alike_still_sit_together() -> None:
    assert check_names(["Ann", "Anna", "Bob", "Bo", "Eve", "Eva", "Dee", "Dec", "Ian", "Jan"])
    assert seat_name("Åsa", 1, ["Asa", None], list(BOT_KINDS)) == "Åsa"


_INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\u034f", "\ufe0f", "\ufeff"])


@given(
    name=st.text(alphabet=st.characters(categories=["Lu", "Ll"]), min_size=1, max_size=12),
    invisible=_INVISIBLE,
    where=st.integers(min_value=0, max_value=12),
)
def test_an_invisible_character_anywhere_in_a_name_does_not_make_it_another(
    name: str, invisible: str, where: int
) -> None:
    at = min(where, len(name))
    other = name[:at] + invisible + name[at:]
    assert set(name_keys(name)) & set(name_keys(other))
    assert set(name_keys(name)) & set(name_keys(name.upper())) or name.upper() == name


def test_a_lookalike_of_the_hosts_name_cannot_join_and_a_fullwidth_label_cannot_create(
    client: TestClient, stack: Any
) -> None:
    refused = client.post(
        "/api/tables", json={"name": "Eve \uff08basic\uff09", "seats": ["human", "basic", "basic"]}
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "name"
    body = create(client, ["human", "human", "basic"], schedule=[1], name="Host")
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    guest.state()
    guest.send(type="join", name="H\u200bost")
    assert guest.error()["rule"] == "name"
    summary = client.get(f"/api/tables/{table.id}").json()
    assert summary["seats"][1] == {"seat": 1, "name": None, "kind": "human", "joined": False}
