"""The score keeper with no server, in a real browser (Debian's Chromium through Playwright).

The keeper is loaded once from ``upriver serve``; then the server process is stopped (really
stopped, not a network emulated away) and a sheet is kept through its rounds by tapping, every
entry checked by the engine running in the page's worker (Pyodide), the hook's refusal too; the
page is reloaded from the service worker's copy; the server is started again and the entries
made on the phone merge into its sheet, which is then shared. The engine on the phone and the
server's give the same sheet and the same refusals for the same random entries (Hypothesis).
``upriver keep --export-static`` writes a keeper that works from a plain static server.
Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

import upriver.cli.keep
from tests.live import SHOTS, free_port
from tests.offline import TIMEOUT_MS, api, phone, process, serve
from tests.waiting import in_page, wait_until
from upriver.cli import app as cli_app
from upriver.web.app import create_app

pytestmark = pytest.mark.slow
assert upriver.cli.keep  # registers `keep` on the app

NAMES = ("Ann", "Bob", "Cid", "Dee")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"keep-offline-{name}.png"), full_page=True)


def tap(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def bids(page: Page, entries: list[tuple[str, int]]) -> None:
    for who, value in entries:
        tap(page, f"{who} bids {value}")


def tricks(page: Page, counts: dict[str, int]) -> None:
    for who, count in counts.items():
        for _ in range(count):
            tap(page, f"{who} tricks: more")
    tap(page, "Save the tricks")


def expect_totals(page: Page, totals: tuple[int, ...]) -> None:
    for who, total in zip(NAMES, totals, strict=True):
        expect(page.locator(f"[data-total={who}]")).to_have_text(str(total))


def kept_on_phone(page: Page, sheet: str) -> dict[str, Any]:
    """The sheet as the phone keeps it (IndexedDB), through keep-api.js."""
    found: dict[str, Any] = page.evaluate(
        """async (key) => {
            const { keptSheets } = await import("/static/keep-api.js");
            return (await keptSheets()).find((kept) => kept.key === key) || null;
        }""",
        sheet,
    )
    return found


def start_sheet(page: Page, schedule: str) -> None:
    expect(page.get_by_role("heading", name="New sheet")).to_be_visible()
    for seat, who in enumerate(NAMES, start=1):
        page.get_by_label(f"Player {seat}").fill(who)
    page.locator("select[name=preset]").select_option("classic-hook")
    page.locator("summary").first.click()
    page.locator("input[name=schedule]").fill(schedule)
    page.locator("select[name=dealer]").select_option("0")
    tap(page, "Start the sheet")
    expect(page.locator("#round-head")).to_contain_text("Ann deals · Bob bids first")


def test_a_sheet_is_kept_with_the_server_stopped_reloaded_offline_and_merged_back_and_shared_when_it_returns(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "upriver.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    page = phone(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serve(db, port):
        page.goto(f"{url}/keep")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        start_sheet(page, "1,2,1,2")
        sheet = page.url.rsplit("/", 1)[1]
        # Round 1 with the server: Bob 1, Cid 0, Dee 0; the hook strikes out Ann's 0.
        bids(page, [("Bob", 1), ("Cid", 0), ("Dee", 0), ("Ann", 1)])
        tricks(page, {"Bob": 1})
        expect_totals(page, (0, 11, 10, 10))
        page.wait_for_function(
            """async (key) => {
                const { keptSheets } = await import("/static/keep-api.js");
                const kept = (await keptSheets()).find((k) => k.key === key);
                return Boolean(kept && kept.current && kept.recordVersion === kept.server.version);
            }""",
            arg=sheet,
        )
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/keep", timeout=2)  # the server is gone, not only the network emulated

    # Round 2 (2 cards) with no server: every entry is the engine's on the phone.
    bids(page, [("Cid", 1), ("Dee", 0), ("Ann", 0)])
    struck = page.get_by_role("button", name="1, not allowed")
    expect(struck).to_have_class("forbidden")
    struck.click()
    expect(page.get_by_role("alert")).to_contain_text("Bob may not bid 1: with the hook")
    expect(page.locator(".offline-strip")).to_contain_text("No server right now")
    shot(page, "1-phone-no-server")
    bids(page, [("Bob", 2)])
    tricks(page, {"Bob": 1, "Cid": 1})
    expect_totals(page, (10, 11, 21, 20))
    expect(page.locator(".offline-strip")).to_contain_text("waiting to be added to the server's sheet: 5")

    # A reload with no server: the page, its scripts and the sheet come from the phone.
    page.reload()
    expect_totals(page, (10, 11, 21, 20))
    expect(page.locator("#round-head")).to_contain_text("Round 3 of 4")
    bids(page, [("Dee", 0), ("Ann", 0), ("Bob", 0), ("Cid", 0)])
    tricks(page, {"Ann": 1})
    tap(page, "↶ Undo last entry")
    tricks(page, {"Dee": 1})
    expect_totals(page, (20, 21, 31, 20))
    assert len(kept_on_phone(page, sheet)["log"]) == 10
    href = page.get_by_role("link", name="Export record").get_attribute("href")
    # The exported record, from the phone's copy (the service worker reads it from IndexedDB).
    exported = json.loads(page.evaluate("(url) => fetch(url).then((r) => r.text())", href))
    assert [r["tricks"] for r in exported["rounds"]][:3] == [[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    assert not errors, errors

    # The server comes back: the phone's entries merge into its sheet, which can be shared again.
    with serve(db, port):
        page.reload()
        strip = page.locator(".offline-strip")
        expect(strip).to_contain_text("Back online: 10 entries made on this phone added to the sheet")
        expect(strip).not_to_contain_text("No server right now")
        expect_totals(page, (20, 21, 31, 20))
        stored = httpx.get(f"{url}/api/sheets/{sheet}").json()
        assert stored["sheet"]["totals"] == [20, 21, 31, 20]
        assert stored["current"]["number"] == 4
        assert kept_on_phone(page, sheet)["log"] == []
        share = page.locator("#share-link").input_value()
        reader = phone(browser)
        reader.goto(share)
        for who, total in zip(NAMES, (20, 21, 31, 20), strict=True):
            expect(reader.locator(f"[data-total={who}]")).to_have_text(str(total))
        shot(page, "2-merged")
        reader.context.close()
    page.context.close()


def test_an_entry_made_offline_for_a_round_entered_elsewhere_meanwhile_is_kept_on_the_sheet_as_a_conflict(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "upriver.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    with serve(db, port):
        page = phone(browser)
        page.goto(f"{url}/keep")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        sheet = api(page, "/api/sheets", {**START, "players": list(NAMES)})["id"]
        page.wait_for_function(
            """async (key) => {
                const { keptSheets } = await import("/static/keep-api.js");
                const kept = (await keptSheets()).find((k) => k.key === key);
                return Boolean(kept && kept.current);
            }""",
            arg=sheet,
        )
        page.context.set_offline(True)  # this phone only: the server goes on for another phone
        assert api(page, f"/api/sheets/{sheet}/bid", {"seat": 1, "bid": 1})["offline"]["pending"] == 1
        assert api(page, f"/api/sheets/{sheet}/trump", {"suit": "H"})["offline"]["pending"] == 2
        other = httpx.post(f"{url}/api/sheets/{sheet}/bids", json={"bids": [0, 0, 0, 0]})
        assert other.status_code == 200, other.text
        assert (
            httpx.post(f"{url}/api/sheets/{sheet}/tricks", json={"tricks": [1, 0, 0, 0]}).status_code == 200
        )
        page.context.set_offline(False)

        merged = api(page, f"/api/sheets/{sheet}")
        assert merged["offline"]["pending"] == 0
        assert merged["offline"]["merged"] == {"merged": 1, "conflicts": 1, "refused": 0}
        assert merged["offline"]["conflicts"] == []  # nothing left on the phone alone
        (conflict,) = merged["conflicts"]  # kept on the sheet, for every phone
        assert (conflict["round"], conflict["action"], conflict["body"]) == (1, "bid", {"seat": 1, "bid": 1})
        assert conflict["reason"] == "meant for round 1, which was finished on another phone since"
        assert merged["current"]["number"] == 2
        assert merged["current"]["bids"] == [None, None, None, None]  # Bob's bid went to no other round
        assert merged["sheet"]["rows"][0]["trump"] == "H"  # the trump noted for round 1 did apply
        assert httpx.get(f"{url}/api/sheets/{sheet}").json()["version"] == merged["version"]
        page.goto(f"{url}/keep/{sheet}")
        card = page.locator(f"[data-conflict='{conflict['id']}']")
        expect(card).to_contain_text("Round 1: a bid")
        expect(card.locator("[data-now='1']")).to_have_text("bid 0took 0")
        expect(card.locator("[data-wanted='1']")).to_have_text("bid 1")
        shot(page, "4-kept-as-a-conflict")
        card.get_by_role("button", name="Keep the sheet").click()
        expect(page.locator("#conflicts")).to_have_count(0)
        assert httpx.get(f"{url}/api/sheets/{sheet}").json()["conflicts"] == []
        page.context.close()


# ------------------------------------------------------------------ the same engine on both sides

ENTRY = st.one_of(
    st.builds(lambda seat, bid: ("bid", {"seat": seat, "bid": bid}), st.integers(0, 3), st.integers(0, 3)),
    st.builds(lambda b: ("bids", {"bids": b}), st.lists(st.integers(0, 3), min_size=4, max_size=4)),
    st.builds(lambda t: ("tricks", {"tricks": t}), st.lists(st.integers(0, 3), min_size=4, max_size=4)),
    st.builds(lambda s: ("trump", {"suit": s}), st.sampled_from(["C", "D", "H", "S", None])),
    st.builds(
        lambda k, t: ("edit", {"round": k, "tricks": t}),
        st.integers(1, 3),
        st.lists(st.integers(0, 3), min_size=4, max_size=4),
    ),
    st.just(("undo", {})),
    st.builds(lambda seat: ("dealer", {"seat": seat}), st.integers(0, 4)),
)
START = {"players": list(NAMES), "preset": "classic-hook", "schedule": [1, 2, 3], "dealer": 0}


@pytest.fixture(scope="module")
def engine_page(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """A page of a live server whose worker runs the keeper's engine (``keep-offline.js``)."""
    db, port = tmp_path_factory.mktemp("engine") / "upriver.sqlite3", free_port()
    with serve(db, port):
        page = phone(browser)
        page.goto(f"http://127.0.0.1:{port}/keep")
        page.evaluate(
            """() => {
                const worker = new Worker("/static/keep-offline.js", { type: "module" });
                let calls = 0;
                window.engineCall = (call, args) => new Promise((resolve, reject) => {
                    const id = ++calls;
                    const answer = (event) => {
                        if (event.data.id !== id) return;
                        worker.removeEventListener("message", answer);
                        if (event.data.error) reject(new Error(event.data.error));
                        else resolve(JSON.parse(event.data.result));
                    };
                    worker.addEventListener("message", answer);
                    worker.postMessage({ id, call, args });
                });
            }"""
        )
        yield page
        page.context.close()


def in_browser(page: Page, entries: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each entry's answer from the engine in the page: the sheet's view, or the refusal."""
    answers: list[dict[str, Any]] = page.evaluate(
        """async ([start, entries]) => {
            const made = await window.engineCall("start", ["p", JSON.stringify(start)]);
            const answers = [made.view];
            for (const [action, body] of entries) {
                const answer = await window.engineCall("act", ["p", action, JSON.stringify(body)]);
                answers.push(answer.view || answer);
            }
            return answers;
        }""",
        [START, entries],
    )
    return answers


def on_server(client: TestClient, entries: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each entry's answer from the server's API: the sheet's view (less its storage ids), or the refusal."""
    made = client.post("/api/sheets", json=START).json()
    sheet = made["id"]
    answers = [made]
    for action, body in entries:
        if action == "edit":
            rest = {k: v for k, v in body.items() if k != "round"}
            response = client.post(f"/api/sheets/{sheet}/rounds/{body['round']}", json=rest)
        else:
            response = client.post(f"/api/sheets/{sheet}/{action}", json=body)
        answers.append(response.json())
    return answers


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        return {"error": answer["error"], "rule": answer.get("rule")}
    return {k: v for k, v in answer.items() if k not in ("id", "share", "version", "read_only", "conflicts")}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(entries=st.lists(ENTRY, max_size=14))
def test_the_engine_on_the_phone_and_the_servers_give_the_same_sheet_and_refusals_for_the_same_entries(
    engine_page: Page, tmp_path_factory: pytest.TempPathFactory, entries: list[tuple[str, dict[str, Any]]]
) -> None:
    with TestClient(create_app(tmp_path_factory.mktemp("server") / "s.sqlite3", bot_delay=0)) as client:
        server = [comparable(a) for a in on_server(client, entries)]
    phone_side = [comparable(a) for a in in_browser(engine_page, entries)]
    assert phone_side == server


# ------------------------------------------------------------------ the engine's kept snapshot

ENGINE_RUN = """async ([start, entries]) => {
    const worker = new Worker("/static/keep-offline.js", { type: "module" });
    let calls = 0;
    const answered = (test) => new Promise((resolve) => {
        const answer = (event) => {
            if (!test(event.data)) return;
            worker.removeEventListener("message", answer);
            resolve(event.data);
        };
        worker.addEventListener("message", answer);
    });
    const call = async (name, args) => {
        const id = ++calls;
        const answer = answered((data) => data.id === id);
        worker.postMessage({ id, call: name, args });
        const { result, error } = await answer;
        return error ? { error } : JSON.parse(result);
    };
    // A call made before the engine is ready waits for it.
    const early = call("start", ["s", JSON.stringify(start)]);
    const { ready, timings, error } = await answered((data) => data.ready !== undefined);
    const answers = [(await early).view];
    for (const [action, body] of entries) {
        answers.push((await call("act", ["s", action, JSON.stringify(body)])).view);
    }
    worker.terminate();
    return { ready, error, steps: Object.keys(timings || {}), answers };
}"""
KEPT = """async () => {
    const cache = await caches.open("upriver-engine-snapshot");
    const keys = await cache.keys();
    const sizes = [];
    for (const key of keys) sizes.push((await (await cache.match(key)).arrayBuffer()).byteLength);
    return { keys: keys.map((key) => key.url), sizes };
}"""
SNAPSHOT_ENTRIES = [
    ("bids", {"bids": [1, 0, 1, 0]}),
    ("tricks", {"tricks": [1, 0, 0, 0]}),
    ("trump", {"suit": "H"}),
]


@pytest.fixture
def bare_page(browser: Browser, tmp_path: Path) -> Iterator[Page]:
    """A page of a live server that starts no engine of its own (its rules' JSON, not the keeper)."""
    db, port = tmp_path / "upriver.sqlite3", free_port()
    with serve(db, port):
        page = phone(browser)
        page.goto(f"http://127.0.0.1:{port}/api/sheets/options")
        yield page
        page.context.close()


def kept_snapshot(page: Page) -> dict[str, list[Any]]:
    """The one snapshot kept (its key and size), once a whole one is."""

    def whole() -> dict[str, list[Any]] | None:
        kept: dict[str, list[Any]] = page.evaluate(KEPT)
        return kept if len(kept["sizes"]) == 1 and kept["sizes"][0] > 1e6 else None

    # each look reads the snapshot whole (megabytes): every tenth of a second, as the page would
    return wait_until(
        whole, "one whole snapshot kept", timeout=TIMEOUT_MS / 1000, pause=in_page(page), every=0.1
    )


def test_the_engine_starts_again_from_the_snapshot_its_first_start_kept_and_answers_the_same(
    bare_page: Page,
) -> None:
    first = bare_page.evaluate(ENGINE_RUN, [START, SNAPSHOT_ENTRIES])
    assert first["ready"], first["error"]
    assert "snapshot" in first["steps"]
    assert "restored" not in first["steps"]
    kept = kept_snapshot(bare_page)
    again = bare_page.evaluate(ENGINE_RUN, [START, SNAPSHOT_ENTRIES])
    assert again["ready"], again["error"]
    assert "restored" in again["steps"]
    assert "pyodide" not in again["steps"]
    assert again["answers"] == first["answers"]
    assert all("error" not in answer for answer in first["answers"])
    assert bare_page.evaluate(KEPT) == kept  # restored, not made again


def test_a_kept_snapshot_that_cannot_be_restored_is_dropped_and_the_engine_starts_the_long_way(
    bare_page: Page,
) -> None:
    first = bare_page.evaluate(ENGINE_RUN, [START, SNAPSHOT_ENTRIES])
    [key] = kept_snapshot(bare_page)["keys"]
    bare_page.evaluate(
        """async (key) => {
            const cache = await caches.open("upriver-engine-snapshot");
            await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
        }""",
        key,
    )
    damaged = bare_page.evaluate(ENGINE_RUN, [START, SNAPSHOT_ENTRIES])
    assert damaged["ready"], damaged["error"]
    assert "restored" not in damaged["steps"]
    assert "snapshot" in damaged["steps"]
    assert damaged["answers"] == first["answers"]
    assert kept_snapshot(bare_page)["keys"] == [key]  # a whole one kept anew under the same key


# ------------------------------------------------------------------ a keeper on any static host


def test_the_exported_keeper_keeps_a_sheet_on_the_phone_from_a_plain_static_server(
    browser: Browser, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    result = CliRunner().invoke(cli_app, ["keep", "--export-static", str(site)])
    assert result.exit_code == 0, result.output
    assert (site / "keep" / "index.html").is_file()
    assert (site / "keep-core.zip").is_file()
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    with process(command, f"http://127.0.0.1:{port}/", cwd=site):
        page = phone(browser)
        page.goto(f"http://127.0.0.1:{port}/keep/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("document.documentElement.dataset.engine === 'ready'")
        start_sheet(page, "1,2")
        assert "/keep/local-" in page.url
        bids(page, [("Bob", 1), ("Cid", 0), ("Dee", 0)])
        page.get_by_role("button", name="0, not allowed").click()
        expect(page.get_by_role("alert")).to_contain_text("Ann may not bid 0: with the hook")
        bids(page, [("Ann", 1)])
        tricks(page, {"Bob": 1})
        expect_totals(page, (0, 11, 10, 10))
        expect(page.locator(".offline-strip")).to_contain_text("kept on this phone")
        page.reload()  # an address the static server lacks: the service worker answers with the page
        expect_totals(page, (0, 11, 10, 10))
        shot(page, "3-static-site")
        page.context.close()


def test_the_exported_keeper_serves_the_same_core_and_service_worker_as_the_server(tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert CliRunner().invoke(cli_app, ["keep", "--export-static", str(site)]).exit_code == 0
    with TestClient(create_app(tmp_path / "s.sqlite3", bot_delay=0)) as client:
        assert client.get("/keep-core.zip").content == (site / "keep-core.zip").read_bytes()
        assert client.get("/keep-sw.js").text == (site / "keep-sw.js").read_text(encoding="utf-8")
        manifest = json.loads(client.get("/keep.webmanifest").text)
    assert manifest["start_url"] == "/keep"
    assert manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
