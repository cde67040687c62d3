"""Helpers for the tests that drive the pages in Debian's Chromium against a live server: the server
in a thread, screenshots, one move by clicking, and the two screens every page is looked at on.

The fixtures that start them (``live``, ``browser``) are in ``tests/conftest.py``."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect
from websockets.sync.client import connect

from tests.conftest import manager_of
from tests.live import SHOTS, free_port
from tests.waiting import wait_until
from upriver.game import Game
from upriver.review import Settings
from upriver.web.app import create_app
from upriver.web.play.tables import Manager, Table
from upriver.web.seats.presence import PING_INTERVAL, PING_TIMEOUT

TIMEOUT_MS = 15_000
"""How long a browser test waits for what it expects to see, in milliseconds."""


def post_entry(server: str, sheet: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    """Make one entry on a kept sheet through the HTTP API, at the sheet's version; the sheet after it."""
    answer = httpx.post(
        f"{server}/api/sheets/{sheet['id']}/{action}", json={**body, "version": sheet["version"]}
    )
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


class LiveServer:
    """The app under uvicorn in a background thread, on a free loopback port (``app``: one already
    made from ``db``, to set it up before it serves)."""

    def __init__(
        self, db: Path, bot_delay: float, port: int | None = None, *, app: FastAPI | None = None
    ) -> None:
        app = create_app(db, bot_delay=bot_delay) if app is None else app
        self.manager: Manager = manager_of(app)
        self.port = free_port() if port is None else port
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            ws_ping_interval=PING_INTERVAL,  # as `upriver serve`
            ws_ping_timeout=PING_TIMEOUT,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_until(lambda: self.server.started, "the server to start", timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        response = httpx.post(f"{self.url}/api/tables", json={"name": "Ann", **body})
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def summary(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        """The table as the start page lists it to ``token``'s seat, or to a spectator."""
        response = httpx.get(
            f"{self.url}/api/tables/{table_id}", params={} if token is None else {"token": token}
        )
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def state(self, table_id: str) -> dict[str, Any]:
        """The first state a spectator of the table is sent over its WebSocket."""
        with connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=10) as ws:
            state: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return state

    def tables_loaded(self) -> float:
        """How many tables the server has loaded, as its ``/metrics`` say (``upriver_tables``)."""
        lines = httpx.get(f"{self.url}/metrics").text.splitlines()
        return sum(float(line.rpartition(" ")[2]) for line in lines if line.startswith("upriver_tables{"))

    def table(self, table_id: str) -> Table:
        return self.manager.tables[table_id]

    def game(self, table_id: str) -> Game:
        game = self.table(table_id).game
        assert game is not None
        return game

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def shot(page: Page, name: str) -> None:
    """Save the whole page as ``artifacts/screenshots/NAME.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def hand_of(page: Page) -> list[str]:
    return [str(card.get_attribute("data-card")) for card in page.locator("#hand button.card").all()]


def moves_by(game: Game, seat: int) -> int:
    return sum(1 for action in game.log if getattr(action, "seat", None) == seat)


def play_one_move(page: Page, live: LiveServer, table_id: str, seat: int = 0) -> bool:
    """Click a legal bid or card if one is offered and wait until the server took it; False at the end."""
    enabled_bid = page.locator("#bids button.playable")
    enabled_card = page.locator("#hand button.card.playable")
    final = page.locator("#final:not([hidden])")
    expect(enabled_bid.or_(enabled_card).or_(final).first).to_be_visible()
    if final.count():
        return False
    table = live.table(table_id)
    before = moves_by(live.game(table_id), seat)
    if enabled_bid.count():
        enabled_bid.first.click()
    else:
        enabled_card.first.click()
    wait_until(lambda: moves_by(live.game(table_id), seat) > before, "the server to receive the move")
    # Wait until the page shows at least the state that holds this move, so the next click is current.
    page.wait_for_function(f"() => Number(document.body.dataset.v) >= {table.version}")
    return True


VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
"""The desktop (1280×800) and phone (390×844) screens every page is looked at on, as Playwright's
context options."""


class ReviewServer(LiveServer):
    """The app under uvicorn on a free port, its reviews on two threads at a small budget."""

    def __init__(self, db: Path) -> None:
        app = create_app(db, bot_delay=0.02)
        self.pool = concurrent.futures.ThreadPoolExecutor(2)
        app.state.reviews.settings = Settings(deals=200)
        app.state.reviews.executor = self.pool
        super().__init__(db, bot_delay=0.02, app=app)

    def stop(self) -> None:
        super().stop()
        self.pool.shutdown()


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
"""The impacts that fail the test; "minor" and "moderate" ones are reported by axe but allowed."""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return found


def described(found: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']}; at "
        + ", ".join(" ".join(map(str, node["target"])) for node in v["nodes"][:6])
        + (f" and {len(v['nodes']) - 6} more" if len(v["nodes"]) > 6 else "")
        for v in found
    )


class Shifted:
    """The server's time: the wall clock moved on by ``offset`` seconds (a test jumps a minute ahead)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def person(browser: Browser, kind: str = "desktop") -> tuple[BrowserContext, Page]:
    """A browser of a person's own on a desktop or a phone (:data:`VIEWPORTS`), and its page."""
    context = browser.new_context(**VIEWPORTS[kind])
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def label(page: Page, seat: int) -> Any:
    """The table page's label of ``seat``."""
    return page.locator(f"#seats .seat[data-seat='{seat}']")


def sit_down(
    browser: Browser, live: LiveServer, body: dict[str, Any], seat: int, name: str, kind: str = "phone"
) -> tuple[BrowserContext, Page]:
    """A friend opens their invite in a browser of their own and takes the seat under ``name``."""
    table = live.table(body["table"])
    context, page = person(browser, kind)
    page.goto(f"{live.url}/t/{table.id}#token={table.tokens[seat]}")
    page.fill("#join-name", name)
    page.click("#join-button")
    wait_until(lambda: table.names[seat] == name, f"{name} never took the seat")
    return context, page


def play_until(page: Page, live: LiveServer, table_id: str, seat: int, done: Any, what: str) -> None:
    """Play ``seat``'s moves from ``page`` until ``done()``."""
    game = live.game(table_id)

    def played_on() -> bool:
        if done():
            return True
        if seat in game.awaiting and not game.is_over:
            play_one_move(page, live, table_id, seat=seat)
        return False

    wait_until(played_on, what, timeout=60)


def with_authenticator(browser: Browser, kind: str) -> tuple[BrowserContext, Page, CDPSession, str]:
    """A browser context on ``kind``'s screen with one virtual platform authenticator (resident keys,
    user verification); its page, the DevTools session and the authenticator's id."""
    context = browser.new_context(**VIEWPORTS[kind], bypass_csp=True)  # axe is injected
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
               "hasUserVerification": True, "isUserVerified": True}  # fmt: skip
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]
    return context, page, cdp, authenticator
