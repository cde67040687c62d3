"""What the server gives the keeper to work with no server: the core zip, the service worker's list.

The zip holds the import closure of the keeper's browser entry point (upriver's own modules and
the data they read), and none of the server's libraries; every address the service worker keeps
is served; Pyodide is sent compressed to a browser that takes it. The browser side is
``tests/test_keeper_offline_browser.py``.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from upriver.web.app import create_app
from upriver.web.keeper.offline import ENGINE, core_zip, service_worker, shell


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("offline") / "s.sqlite3", bot_delay=0)) as served:
        yield served


def test_the_core_zip_holds_the_keepers_modules_and_no_server_or_numeric_library() -> None:
    names = zipfile.ZipFile(io.BytesIO(core_zip())).namelist()
    assert "upriver/keeper/browser.py" in names
    assert "upriver/keeper/commands.py" in names
    assert "confusable_homoglyphs/confusables.json" in names  # read lazily, when a name is checked
    tops = {name.split("/")[0] for name in names}
    assert tops.isdisjoint({"fastapi", "starlette", "pydantic", "numpy", "numba", "rich", "uvicorn"})
    assert not [name for name in names if name.startswith("upriver/web/") or name.startswith("upriver/cli/")]


def test_every_address_the_service_worker_keeps_is_served(client: TestClient) -> None:
    for url in shell():
        response = client.get(url, headers={"Accept-Encoding": "identity"})
        assert response.status_code == 200, url


def test_the_service_worker_is_served_from_the_root_with_its_build(client: TestClient) -> None:
    response = client.get("/keep-sw.js")
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.text == service_worker()
    assert response.text.startswith("self.UPRIVER_KEEPER_BUILD = {")
    assert '"/keep-core.zip"' in response.text.splitlines()[0]


@pytest.mark.slow  # compressing the WebAssembly once takes seconds
def test_pyodide_is_sent_compressed_to_a_browser_that_takes_it(client: TestClient) -> None:
    wasm = Path(__file__).parent.parent / "src/upriver/web/static/vendor/pyodide/pyodide.asm.wasm"
    response = client.get(f"{ENGINE}pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert int(response.headers["content-length"]) < wasm.stat().st_size / 2
    assert response.content == wasm.read_bytes()  # the client undoes the encoding
    raw = client.get(f"{ENGINE}pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert client.get(f"{ENGINE}other.js").status_code == 404
