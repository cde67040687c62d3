"""A sheet's exports with no server, in a real browser (Debian's Chromium through Playwright).

*Export CSV* and *Export record* download the server's file when it answers; with the server process
stopped (really stopped, not a network emulated away) they download the same file, under the same
name, made by the engine on the phone from the phone's copy of the sheet — entries made with no
server included, as the server gives them once it is back. The read-only link's exports do the same
on a phone that keeps the sheet; a phone that keeps no copy says that neither can make the file.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

import upriver.cli.check
from tests.live import free_port
from tests.offline import api, phone, serve
from upriver.cli import app as cli_app

pytestmark = pytest.mark.slow
assert upriver.cli.check  # registers `check` on the app

START = {"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic-hook", "schedule": [1, 2, 3]}
ENTRIES = (
    ("bids", {"bids": [1, 1, 0, 0]}),
    ("tricks", {"tricks": [0, 1, 0, 0]}),
    ("adjust", {"seat": 2, "points": -5, "note": "renege"}),
    ("bid", {"seat": 2, "bid": 1}),
)
LABELS = {"csv": "Export CSV", "record": "Export record"}


@contextlib.contextmanager
def serving(db: Path, port: int) -> Iterator[str]:
    """``upriver serve`` on ``db`` at ``port`` (a process of its own, stopped at the end); its address."""
    url = f"http://127.0.0.1:{port}"
    with serve(db, port):
        yield url
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/keep", timeout=2)  # gone, not only the network emulated away


def kept_in_step(page: Page, sheet: str) -> None:
    """Wait until the phone keeps the server's latest record of ``sheet``."""
    page.wait_for_function(
        """async (key) => {
            const { keptSheets } = await import("/static/keep-api.js");
            const kept = (await keptSheets()).find((k) => k.key === key);
            return Boolean(kept && kept.current && kept.server && kept.recordVersion === kept.server.version);
        }""",
        arg=sheet,
    )


def server_files(url: str, path: str) -> dict[str, tuple[str, str]]:
    """The server's exports of ``path`` (``{id}`` or ``shared/{share}``): each kind's file name and text."""
    files = {}
    for kind in LABELS:
        answer = httpx.get(f"{url}/api/sheets/{path}/{kind}")
        assert answer.status_code == 200, answer.text
        name = re.search(r'filename="([^"]+)"', answer.headers["content-disposition"])
        assert name is not None
        files[kind] = (name.group(1), answer.text)
    return files


def downloaded(page: Page, kind: str) -> tuple[str, str]:
    """Press the export button of ``kind``: the downloaded file's name and text."""
    with page.expect_download() as started:
        page.get_by_role("link", name=LABELS[kind]).click()
    download = started.value
    return download.suggested_filename, Path(download.path()).read_text(encoding="utf-8")


def checked(record: str, tmp_path: Path) -> dict[str, Any]:
    """``upriver check --json`` of a record's text (which must pass)."""
    path = tmp_path / "exported.json"
    path.write_text(record, encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["check", "--json", str(path)])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.output)
    return summary


def test_exports_with_the_server_stopped_are_the_servers_files_made_by_the_engine_on_the_phone(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "upriver.sqlite3", free_port()
    page = phone(browser)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serving(db, port) as url:
        page.goto(f"{url}/keep")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        made = api(page, "/api/sheets", {**START, "dealer": 0})
        sheet, share = made["id"], made["share"]
        for action, body in ENTRIES:
            assert "refused" not in api(page, f"/api/sheets/{sheet}/{action}", body)
        kept_in_step(page, sheet)
        page.goto(f"{url}/keep/{sheet}")
        expect(page.locator("[data-total=Cid]")).to_have_text("5")
        online = server_files(url, sheet)
        assert online == server_files(url, f"shared/{share}")  # one file, whichever link asks
        reader = page.context.new_page()  # the read-only link, opened once with the server
        reader.goto(f"{url}/keep/view/{share}")
        expect(reader.locator("[data-total=Cid]")).to_have_text("5")

    # No server: each button downloads the server's very file, made on the phone.
    for kind in LABELS:
        assert downloaded(page, kind) == online[kind], kind
        assert downloaded(reader, kind) == online[kind], kind
    assert checked(online["record"][1], tmp_path)["totals"] == [0, 11, 5, 10]

    # An entry made with no server is in the files, as the server gives them once it is back.
    assert api(page, f"/api/sheets/{sheet}/bid", {"seat": 3, "bid": 0})["offline"]["pending"] == 1
    offline = {kind: downloaded(page, kind) for kind in LABELS}
    assert offline["record"][0] == online["record"][0]
    bids = [r.get("bids") for r in json.loads(offline["record"][1])["upriver_keep"]["evening"]["rounds"]]
    assert bids[-1] == [None, None, 1, 0], bids
    assert checked(offline["record"][1], tmp_path)["totals"] == [0, 11, 5, 10]
    with serving(db, port) as url:
        assert api(page, f"/api/sheets/{sheet}")["offline"]["pending"] == 0  # merged
        assert server_files(url, sheet) == offline
    assert not errors, errors
    page.context.close()


def test_a_phone_with_no_copy_of_the_sheet_and_no_server_says_that_neither_can_export_it(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "upriver.sqlite3", free_port()
    with serving(db, port) as url:
        made = httpx.post(f"{url}/api/sheets", json={**START, "dealer": 0}).json()
        reader = phone(browser)  # a phone that only ever read the sheet's read-only link
        reader.goto(f"{url}/keep/view/{made['share']}")
        expect(reader.get_by_role("link", name=LABELS["csv"])).to_be_visible()
        reader.context.set_offline(True)
        reader.get_by_role("link", name=LABELS["csv"]).click()
        expect(reader.get_by_role("alert")).to_have_text(
            "No server right now, and this phone keeps no copy of this sheet: "
            "export it once the server is back."
        )
        reader.context.close()
