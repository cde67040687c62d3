"""The score keeper on a phone with a slow network and then none: what it costs to load and to use.

In Chromium on a phone's viewport (390x844) against ``upriver serve`` (its own port and database):

- ``first_load_bytes``: the bytes transferred the first time the keeper is opened, until it is
  kept on the phone (the page, its scripts and words, then the service worker's copy of Pyodide
  and upriver's core), over a network throttled to DevTools' "Fast 3G" (562.5 ms latency,
  180 kB/s down, 84 kB/s up). The page's own requests are throttled by CDP
  (``Network.emulateNetworkConditions``), which does not reach the service worker's; those go
  through a route that holds each response for the same latency and the same 180 kB/s link,
  shared in order of arrival, and counts its bytes.
- ``first_interactive_s``: from the address typed to the start page's form ready to fill (its
  rules loaded); ``first_offline_ready_s``: until the service worker holds everything.
- the engine on the phone (Pyodide in a worker) starts once in that page, the long way, and keeps a
  snapshot of its memory (``snapshot_mb``, in Cache Storage);
- then the server is stopped (the process ends): ``offline_interactive_s`` from opening a sheet's
  address to the sheet drawn and ready for a tap (from the phone's copy), ``offline_engine_s``
  until the engine on the phone has started (from its snapshot), with its steps
  (``offline_engine_steps_ms``: ms since the worker started);
- ``entry_ms_median`` / ``entry_ms_max``: from a tapped bid to the page drawn again after the engine
  on the phone validated and scored it (median and worst of ``--entries`` bids);
- the reference, in the same run: ``offline_engine_no_snapshot_s``, the same offline start with the
  snapshot dropped first (Python started and the core imported, as every start did before
  snapshots), and its steps.

    .venv/bin/python bench/keeper_offline.py [--entries 12]    # prints JSON

Budgets: first load at most 15 MB and interactive within 8 s on "Fast 3G"; offline start within
3 s; an entry within 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Route, ViewportSize, async_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
"""DevTools' "Fast 3G": 1.6 Mbit/s down and 750 kbit/s up at 90 %, 562.5 ms round trip."""
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
PHONE: ViewportSize = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    command = [sys.executable, "-m", "upriver", "serve", "--no-warm", "--port", str(port), "--db", str(db)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"http://127.0.0.1:{port}/keep", timeout=1)
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        yield child
    finally:
        child.terminate()
        child.wait(timeout=20)


class Link:
    """One slow link for the service worker's requests: each response waits its turn for the
    bandwidth, then the latency; the bytes are counted."""

    def __init__(self, latency_s: float, bytes_per_s: float) -> None:
        self.latency_s = latency_s
        self.bytes_per_s = bytes_per_s
        self.free_at = 0.0
        self.bytes = 0

    async def handle(self, route: Route) -> None:
        if route.request.service_worker is None:
            await route.continue_()  # the page's own requests: throttled by CDP
            return
        try:
            response = await route.fetch()
            body = await response.body()
        except Exception:
            await route.abort("connectionrefused")
            return
        # What crossed the wire: the body as sent (compressed, when it was), and the headers.
        sent = int(response.headers.get("content-length", len(body)))
        size = sent + sum(len(k) + len(v) + 4 for k, v in response.headers.items())
        self.bytes += size
        loop = asyncio.get_running_loop()
        start = max(loop.time(), self.free_at)
        self.free_at = start + size / self.bytes_per_s
        await asyncio.sleep(self.free_at - loop.time() + self.latency_s)
        await route.fulfill(response=response, body=body)


ENTRY_TIMER = """async (label) => {
    const button = [...document.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === label
        || b.textContent.trim() === label);
    if (!button) throw new Error(`no button ${label}`);
    const app = document.getElementById("app");
    const start = performance.now();
    const drawn = new Promise((resolve) => {
        const watch = new MutationObserver(() => {
            watch.disconnect();
            requestAnimationFrame(() => resolve());
        });
        watch.observe(app, { childList: true, subtree: true, characterData: true });
    });
    button.click();
    await drawn;
    return performance.now() - start;
}"""

SNAPSHOT_KEPT = """async () => {
    const cache = await caches.open("upriver-engine-snapshot");
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
        const [key] = await cache.keys();
        if (key) return (await (await cache.match(key)).arrayBuffer()).byteLength;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return 0;
}"""
"""The bytes of the engine's snapshot once it is kept on the phone (keep-offline.js); 0 if none is
within two minutes."""
TIMINGS = "() => document.documentElement.dataset.engineTimings"
"""When each step of the engine's start was done (pwa.js keeps the worker's ``timings`` there)."""


async def measure(entries: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        db, port = Path(folder) / "upriver.sqlite3", free_port()
        url = f"http://127.0.0.1:{port}"
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            with serving(db, port):
                # The page alone, as the phone's user waits for it (the service worker starts after it).
                first = await browser.new_context(
                    viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block"
                )
                first.set_default_timeout(600_000)
                page = await first.new_page()
                cdp = await first.new_cdp_session(page)
                await cdp.send("Network.enable")
                await cdp.send("Network.emulateNetworkConditions", FAST_3G)
                start = time.perf_counter()
                await page.goto(f"{url}/keep")
                await page.get_by_role("button", name="Start the sheet").wait_for()
                await page.locator("select[name=preset] option").first.wait_for(state="attached")
                interactive = time.perf_counter() - start
                await first.close()

                # The whole first load: the page, then the service worker keeping the keeper.
                context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                context.set_default_timeout(600_000)
                link = Link(FAST_3G["latency"] / 1000, FAST_3G["downloadThroughput"])
                await context.route("**/*", link.handle)
                page = await context.new_page()
                cdp = await context.new_cdp_session(page)
                await cdp.send("Network.enable")
                page_bytes = [0]
                cdp.on(
                    "Network.loadingFinished",
                    lambda event: page_bytes.__setitem__(0, page_bytes[0] + event["encodedDataLength"]),
                )
                await cdp.send("Network.emulateNetworkConditions", FAST_3G)
                start = time.perf_counter()
                await page.goto(f"{url}/keep")
                await page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
                offline_ready = time.perf_counter() - start
                first_bytes = page_bytes[0] + link.bytes
                await context.unroute("**/*", link.handle)
                await cdp.send(
                    "Network.emulateNetworkConditions",
                    {**FAST_3G, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
                )
                made = await page.evaluate(
                    """async (players) => {
                        const { api } = await import("/static/keep-api.js");
                        return api("/api/sheets", { players, preset: "classic", dealer: 0 });
                    }""",
                    PLAYERS,
                )
                sheet = made["id"]
                await page.wait_for_function(
                    """async (key) => {
                        const { keptSheets } = await import("/static/keep-api.js");
                        const kept = (await keptSheets()).find((k) => k.key === key);
                        return Boolean(kept && kept.current);
                    }""",
                    arg=sheet,
                )
                # The engine started once on the phone, and its snapshot kept, as after any first visit.
                await page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
                snapshot_bytes = await page.evaluate(SNAPSHOT_KEPT)
            later = await context.new_page()
            start = time.perf_counter()
            await later.goto(f"{url}/keep/{sheet}")
            await later.locator("#round-head").wait_for()
            await later.get_by_role("button", name="Bob bids 0", exact=True).wait_for()
            offline_interactive = time.perf_counter() - start
            await later.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
            offline_engine = time.perf_counter() - start
            steps = json.loads(await later.evaluate(TIMINGS))
            times: list[float] = []
            for number in range(
                20
            ):  # classic: round k has k cards; everyone bids 0, the first bidder takes all
                dealer = number % len(PLAYERS)
                order = [PLAYERS[(dealer + i) % len(PLAYERS)] for i in range(1, len(PLAYERS) + 1)]
                for who in order:
                    times.append(await later.evaluate(ENTRY_TIMER, f"{who} bids 0"))
                for _ in range(number + 1):
                    await later.get_by_role("button", name=f"{order[0]} tricks: more", exact=True).click()
                times.append(await later.evaluate(ENTRY_TIMER, "Save the tricks"))
                if len(times) >= entries:
                    break
            # The reference: the same offline start with no snapshot kept.
            await later.evaluate("() => caches.delete('upriver-engine-snapshot')")
            await later.close()
            bare = await context.new_page()
            start = time.perf_counter()
            await bare.goto(f"{url}/keep/{sheet}")
            await bare.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
            no_snapshot = time.perf_counter() - start
            bare_steps = json.loads(await bare.evaluate(TIMINGS))
            await browser.close()
    return {
        "network": "Fast 3G (562.5 ms, 180 kB/s down)",
        "first_load_bytes": first_bytes,
        "first_load_mb": round(first_bytes / 1e6, 2),
        "first_interactive_s": round(interactive, 2),
        "first_offline_ready_s": round(offline_ready, 2),
        "offline_interactive_s": round(offline_interactive, 2),
        "offline_engine_s": round(offline_engine, 2),
        "offline_engine_steps_ms": steps,
        "snapshot_mb": round(snapshot_bytes / 1e6, 1),
        "offline_engine_no_snapshot_s": round(no_snapshot, 2),
        "offline_engine_no_snapshot_steps_ms": bare_steps,
        "entries": len(times),
        "entry_ms_median": round(statistics.median(times), 1) if times else None,
        "entry_ms_max": round(max(times), 1) if times else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=12, help="bids timed with no server")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.entries)), indent=2))


if __name__ == "__main__":
    main()
