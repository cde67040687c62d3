"""Entries made against a round: two phones on one sheet, one of them offline for a while.

An entry for a round carries the round as the phone saw it; the sheet applies it only if the
round is still so, and otherwise keeps it as a conflict (never applied silently, never in another
round, never dropped) for the table to resolve. Through the HTTP API (SQLite and PostgreSQL) for
the two scenarios a family met, and through the keeper's store with random interleavings of two
phones' edits and restarts of the store (Hypothesis).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from upriver.errors import IllegalActionError
from upriver.keeper import KeptSheet
from upriver.keeper.commands import apply, new_sheet
from upriver.keeper.conflicts import Against, Pick, RoundState, Verdict, against, round_state, wanted
from upriver.keeper.store import ConflictGoneError, SqliteSheetStore, StoredSheet

FIVE = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def made_against(view: dict[str, Any], number: int, **more: Any) -> dict[str, Any]:
    """What a phone that shows ``view`` sends with an entry for round ``number``."""
    entered = view["entered"]
    seen = (
        entered[number - 1]
        if number <= len(entered)
        else {"bids": [None] * len(view["players"]), "tricks": None}
    )
    return {"against": {"round": number, **seen}, **more}


def five_rounds(client: TestClient) -> dict[str, Any]:
    """A sheet of five players with five rounds of three cards scored; round 5's tricks are
    Ann 0, Bob 0, Cid 1, Dee 0, Eve 2."""
    body = {"players": FIVE, "preset": "classic", "schedule": [3] * 8, "dealer": 0}
    sheet = post(client, "/api/sheets", body, 201)
    base = f"/api/sheets/{sheet['id']}"
    for _ in range(4):
        post(client, f"{base}/bids", {"bids": [1, 0, 1, 0, 0]})
        post(client, f"{base}/tricks", {"tricks": [1, 0, 1, 1, 0]})
    post(client, f"{base}/bids", {"bids": [0, 0, 1, 0, 2]})
    return post(client, f"{base}/tricks", {"tricks": [0, 0, 1, 0, 2]})


def test_two_phones_correcting_one_round_differently_keep_both_as_a_conflict_shown_to_both(
    client: TestClient,
) -> None:
    sheet = five_rounds(client)
    base = f"/api/sheets/{sheet['id']}"
    phone_a = client.get(base).json()  # then A goes offline
    # B, online, corrects round 5: Ann 0→1, Cid 1→0.
    b = post(client, f"{base}/rounds/5", {"tricks": [1, 0, 0, 0, 2], **made_against(phone_a, 5, device="B")})
    leader = b["sheet"]["headline"]
    # A comes back with its own correction of round 5, made offline: Dee 0→1, Eve 2→1.
    a_body = {"tricks": [0, 0, 1, 1, 1], **made_against(phone_a, 5, device="A", queued=True)}
    kept = post(client, f"{base}/rounds/5", a_body, 409)
    assert kept["rule"] == "conflict"
    assert kept["error"] == (
        "round 5 was changed on another phone since this entry was made: "
        "it is kept as a conflict for the table to resolve"
    )
    conflict = kept["conflict"]
    assert conflict["round"] == 5
    assert conflict["device"] == "A"
    assert conflict["now"]["tricks"] == [1, 0, 0, 0, 2]  # what B made of it
    assert conflict["wanted"]["tricks"] == [0, 0, 1, 1, 1]  # what A wanted
    assert conflict["differs"] == [0, 2, 3, 4]
    # Neither correction is lost, none applied silently: the sheet is B's, and both phones see the conflict.
    for phone in range(2):
        seen = client.get(base).json()
        assert seen["entered"][4]["tricks"] == [1, 0, 0, 0, 2], phone
        assert seen["sheet"]["headline"] == leader
        assert [c["id"] for c in seen["conflicts"]] == [conflict["id"]]
    # A retry of A's entry (its answer was lost on the way) is not kept twice.
    again = post(client, f"{base}/rounds/5", a_body, 409)
    assert again["conflict"]["id"] == conflict["id"]
    # The table picks A's; a second pick of the same conflict (the other phone) is refused.
    latest = client.get(base).json()
    picked = post(
        client, f"{base}/conflicts/{conflict['id']}", {"pick": "entry", "version": latest["version"]}
    )
    assert picked["entered"][4]["tricks"] == [0, 0, 1, 1, 1]
    assert picked["conflicts"] == []
    gone = post(
        client, f"{base}/conflicts/{conflict['id']}", {"pick": "current", "version": picked["version"]}, 409
    )
    assert gone["rule"] == "resolved"
    # The pick is one entry: undo takes it back to B's.
    assert post(client, f"{base}/undo", {})["entered"][4]["tricks"] == [1, 0, 0, 0, 2]


def test_a_pick_is_a_versioned_write_and_keep_current_leaves_the_sheet_as_it_is(client: TestClient) -> None:
    sheet = five_rounds(client)
    base = f"/api/sheets/{sheet['id']}"
    seen = client.get(base).json()
    post(client, f"{base}/rounds/5", {"tricks": [1, 0, 0, 0, 2], **made_against(seen, 5)})
    kept = post(client, f"{base}/rounds/5", {"tricks": [0, 0, 1, 1, 1], **made_against(seen, 5)}, 409)
    cid = kept["conflict"]["id"]
    latest = client.get(base).json()
    stale = post(
        client, f"{base}/conflicts/{cid}", {"pick": "current", "version": latest["version"] - 1}, 409
    )
    assert stale["rule"] == "stale"
    bad = post(client, f"{base}/conflicts/{cid}", {"pick": "mine", "version": latest["version"]}, 400)
    assert bad["error"] == "'pick' must be one of current, entry, not 'mine'"
    done = post(client, f"{base}/conflicts/{cid}", {"pick": "current", "version": latest["version"]})
    assert done["conflicts"] == []
    assert done["version"] == latest["version"]
    assert done["entered"] == latest["entered"]


def test_bids_made_for_a_round_finished_elsewhere_meanwhile_never_land_on_the_next_round(
    client: TestClient,
) -> None:
    body = {"players": FIVE[:4], "preset": "classic", "schedule": [2] * 12, "dealer": 0}
    sheet = post(client, "/api/sheets", body, 201)
    base = f"/api/sheets/{sheet['id']}"
    for k in range(1, 11):  # ten tries, each the race the family met
        seen = client.get(base).json()  # phone A reads the sheet at round k
        assert seen["current"]["number"] == k
        post(client, f"{base}/bids", {"bids": [1, 1, 1, 0]})  # phone B finishes round k meanwhile
        post(client, f"{base}/tricks", {"tricks": [1, 1, 0, 0]})
        refused = post(client, f"{base}/bids", {"bids": [0, 0, 1, 0], **made_against(seen, k)}, 409)
        assert refused["error"] == (
            f"meant for round {k}, which was finished on another phone since: "
            "it is kept as a conflict for the table to resolve"
        )
        assert refused["facts"]["round"] == k
        after = client.get(base).json()
        assert after["current"]["number"] == k + 1
        assert after["current"]["bids"] == [None] * 4  # nothing landed on round k + 1
        assert after["entered"][k - 1] == {"bids": [1, 1, 1, 0], "tricks": [1, 1, 0, 0]}
        assert len(after["conflicts"]) == k  # every one kept


def test_bids_made_for_the_next_round_never_land_on_a_round_undone_elsewhere_meanwhile(
    client: TestClient,
) -> None:
    body = {"players": FIVE[:4], "preset": "classic", "schedule": [2, 2, 2], "dealer": 0}
    base = f"/api/sheets/{post(client, '/api/sheets', body, 201)['id']}"
    post(client, f"{base}/bids", {"bids": [1, 1, 1, 0]})
    post(client, f"{base}/tricks", {"tricks": [1, 1, 0, 0]})
    seen = client.get(base).json()  # phone A, at round 2
    post(client, f"{base}/undo", {})  # phone B takes round 1 back, tricks and bids
    post(client, f"{base}/undo", {})
    refused = post(client, f"{base}/bids", {"bids": [0, 0, 1, 0], **made_against(seen, 2)}, 409)
    assert refused["error"].startswith("meant for round 2, but round 1 is the one in play now")
    assert client.get(base).json()["entered"] == []


def test_an_entry_made_against_a_round_says_what_is_wrong_with_its_against(client: TestClient) -> None:
    sheet = five_rounds(client)
    base = f"/api/sheets/{sheet['id']}"
    wrong = post(client, f"{base}/bids", {"bids": [0] * 5, "against": {"round": 6, "bids": [None]}}, 400)
    assert wrong["error"] == "'against' bids must be a list of 5 values (a number or null per seat)"
    other = {"tricks": [0, 0, 1, 1, 1], "against": {"round": 4, "bids": [None] * 5, "tricks": None}}
    assert post(client, f"{base}/rounds/5", other, 400)["error"] == (
        "'against' is round 4, but the edit is of round 5"
    )
    assert client.get(base).json()["version"] == sheet["version"]


# ------------------------------------------------------------------ two phones, at random

START = {"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic-hook", "schedule": [2, 3, 2, 3, 2, 3]}


Draw = Callable[[st.SearchStrategy[Any]], Any]


class Phone:
    """A phone on the sheet: online, it writes to the store; offline, to its own copy, logging each
    entry with what it was made against (worked out by the same engine)."""

    def __init__(self, name: str, stored: StoredSheet) -> None:
        self.name = name
        self.view = stored  # what its screen shows (perhaps an older version of the sheet)
        self.offline: KeptSheet | None = None
        self.log: list[tuple[str, dict[str, Any], dict[str, Any]]] = []


def tricks_for(draw: Draw, sheet: KeptSheet, number: int) -> list[int | None]:
    playing, size = sheet.playing(number), sheet.schedule[number - 1]
    counts: list[int | None] = [0 if seat in playing else None for seat in range(len(sheet.players))]
    for _ in range(size):
        seat = draw(st.sampled_from(playing))
        counts[seat] = (counts[seat] or 0) + 1
    return counts


def an_entry(draw: Draw, sheet: KeptSheet) -> tuple[str, dict[str, Any]]:
    """A bid, the bids, the tricks, or a correction of a past round, as a keeper would make it."""
    k, size, seats = sheet.current, sheet.hand_size, len(sheet.players)
    kind = draw(st.sampled_from(["bid", "bids", "tricks", "edit"]))
    if kind == "edit" and sheet.scored:
        number = draw(st.integers(1, sheet.scored))
        if draw(st.booleans()):
            return "edit", {"round": number, "tricks": tricks_for(draw, sheet, number)}
        top = sheet.schedule[number - 1]
        return "edit", {"round": number, "bids": [draw(st.integers(0, top)) for _ in range(seats)]}
    if sheet.phase.value == "tricks" or kind == "tricks":
        return "tricks", {"tricks": tricks_for(draw, sheet, k)}
    if kind == "bid" and sheet.to_bid:
        return "bid", {"seat": sheet.to_bid[0], "bid": draw(st.integers(0, size))}
    return "bids", {"bids": [draw(st.integers(0, size)) for _ in range(seats)]}


def rounds_of(sheet: KeptSheet) -> list[RoundState]:
    return [round_state(sheet, k) for k in range(1, len(sheet.entries.rounds) + 2)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_entry_of_two_phones_ends_applied_or_kept_as_a_conflict_never_lost_never_in_another_round(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path: Path = tmp_path_factory.mktemp("conflicts") / "sheets.sqlite3"
    store = SqliteSheetStore(path)
    created = store.create(new_sheet({**START, "dealer": 0}))
    phones = [Phone("A", created), Phone("B", created)]
    kept: dict[str, tuple[int, RoundState]] = {}  # every conflict the store kept: its round, what it wanted
    resolved: set[str] = set()

    def latest() -> StoredSheet:
        found = store.load(created.id)
        assert found is not None
        return found

    def send(phone: Phone, action: str, body: dict[str, Any], made: dict[str, Any], queued: bool) -> None:
        """One entry to the store, and what must hold of it after."""
        before = latest()
        full = {**body, "against": made, "device": phone.name, "queued": queued}
        try:
            done = store.enter(before, action, full)
        except IllegalActionError:
            assert not queued, "a queued entry is never refused outright: it is kept as a conflict"
            assert rounds_of(latest().sheet) == rounds_of(before.sheet)
            return
        event(f"{'queued' if queued else 'online'} {action}: {done.verdict}")
        after = latest()
        number = made["round"]
        want = wanted(before.sheet, action, body, against_of(made))
        others = [k for k in range(1, len(before.sheet.entries.rounds) + 2) if k != number]
        if done.verdict is Verdict.APPLY:
            assert round_state(after.sheet, number).holds(want)
            for k in others:  # no other round touched
                assert round_state(after.sheet, k) == round_state(before.sheet, k), (k, number)
        elif done.verdict is Verdict.SAME:
            assert after.version == before.version
            assert round_state(after.sheet, number).holds(want)
        else:
            assert done.conflict is not None
            assert after.version == before.version  # not applied, anywhere
            assert rounds_of(after.sheet) == rounds_of(before.sheet)
            assert (done.conflict.round, done.conflict.wanted) == (number, want)
            assert done.conflict.id in {c.id for c in after.conflicts}
            kept[done.conflict.id] = (number, want)

    def merge(phone: Phone) -> None:
        for action, body, made in phone.log:
            send(phone, action, body, made, queued=True)
        phone.log.clear()
        phone.offline = None
        phone.view = latest()

    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        step = data.draw(
            st.sampled_from(["entry", "entry", "entry", "toggle", "read", "restart", "resolve", "undo"])
        )
        phone = phones[data.draw(st.integers(0, 1))]
        if step == "restart":
            store.close()
            store = SqliteSheetStore(path)
            for p in phones:
                if p.offline is None:
                    p.view = latest()
        elif step == "undo" and phone.offline is None:
            with contextlib.suppress(IllegalActionError):  # nothing to undo
                phone.view = store.enter(latest(), "undo", {}).stored
        elif step == "read" and phone.offline is None:
            phone.view = latest()
        elif step == "toggle":
            if phone.offline is None:
                phone.offline = latest().sheet  # its own copy, from now on
            else:
                merge(phone)
        elif step == "resolve":
            now = latest()
            if now.conflicts:
                conflict = data.draw(st.sampled_from(now.conflicts))
                pick = data.draw(st.sampled_from(list(Pick)))
                try:
                    after = store.resolve(now, conflict.id, pick)
                except IllegalActionError:
                    continue  # the engine refuses the entry's values here: the conflict stays open
                resolved.add(conflict.id)
                event(f"resolved: {pick}")
                if pick is Pick.ENTRY:
                    assert round_state(after.sheet, conflict.round).holds(conflict.wanted)
                with pytest.raises(ConflictGoneError):
                    store.resolve(after, conflict.id, pick)
        elif step == "entry":
            sheet = phone.offline if phone.offline is not None else phone.view.sheet
            if sheet.phase.value not in ("bidding", "tricks"):
                continue
            action, body = an_entry(data.draw, sheet)
            made = against(sheet, action, body)
            assert made is not None
            if phone.offline is None:
                send(phone, action, body, made.to_json(), queued=False)
                phone.view = latest()
            else:
                try:
                    apply(phone.offline, action, body)  # the engine on the phone
                except IllegalActionError:
                    continue  # refused on the phone, as the keeper sees at once
                phone.log.append((action, body, made.to_json()))
    for phone in phones:
        if phone.offline is not None:
            merge(phone)
    store.close()
    store = SqliteSheetStore(path)
    try:
        final = latest()
        # Every conflict kept is still there after a restart, unless the table resolved it.
        assert {c.id for c in final.conflicts} == set(kept) - resolved
        for conflict in final.conflicts:
            assert (conflict.round, conflict.wanted) == kept[conflict.id]
    finally:
        store.close()


def against_of(made: dict[str, Any]) -> Against:
    tricks = made["tricks"]
    return Against(made["round"], RoundState(tuple(made["bids"]), None if tricks is None else tuple(tricks)))


def test_two_phones_entering_different_players_bids_in_one_round_both_apply(client: TestClient) -> None:
    body = {"players": FIVE[:4], "preset": "classic", "schedule": [2] * 4, "dealer": 0}
    sheet = post(client, "/api/sheets", body, 201)
    base = f"/api/sheets/{sheet['id']}"
    seen = client.get(base).json()  # both phones read the round with no bid yet: Bob bids first
    post(client, f"{base}/bid", {"seat": 1, "bid": 1, **made_against(seen, 1)})  # phone B: Bob
    post(client, f"{base}/bid", {"seat": 2, "bid": 0, **made_against(seen, 1)})  # phone A: Cid, not a clash
    after = client.get(base).json()
    assert after["current"]["bids"][1:3] == [1, 0]
    assert after["conflicts"] == []
    # A bid for a seat the other phone already entered differently is a conflict, not an overwrite.
    refused = post(client, f"{base}/bid", {"seat": 1, "bid": 2, **made_against(seen, 1)}, 409)
    assert refused["facts"]["round"] == 1
    assert client.get(base).json()["current"]["bids"][1] == 1
