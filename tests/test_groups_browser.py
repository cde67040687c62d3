"""The group page in Chromium: four members' season — six web tables for the group (some with a guest
and bots) and two keeper evenings attached to it — and the page's standings are those worked out
here by hand from what was played (the engine's rounds, the keeper's sheets), the chart's totals and
the last games (guests and bots marked) with them. The page speaks five languages with no English
left and no key shown, axe-core finds no serious violation on a desktop or a phone (screenshots in
/tmp/shots, the standings scrolling inside their box on the phone), a non-member and a signed-out
visitor see no standings, and an invite link brings a new person through signing up and back to join.

The season is played through the HTTP and WebSocket API of an app on a test client (signed in with
a software authenticator, :mod:`tests.webclient`), then the same database is served live; a browser
is signed in to a member's session by its cookie (the passkey ceremony in a browser is
``tests/test_accounts_browser.py``'s), but for the newcomer, who signs up with a virtual one.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browsing import (
    BLOCKING,
    TIMEOUT_MS,
    VIEWPORTS,
    LiveServer,
    described,
    violations,
    with_authenticator,
)
from tests.conftest import manager_of
from tests.pagetext import LOCALES, assert_no_english, everything_shown
from tests.webclient import ORIGIN, Person, group_with
from upriver.actions import Phase
from upriver.web.accounts.sessions import COOKIE
from upriver.web.app import create_app

SHOTS = Path("/tmp/shots")
"""Where the group page's screenshots go, to be looked at."""
OPTIONS = {"preset": "classic", "max_cards": 2}
"""Short games: one and two cards a hand."""


@dataclass
class Played:
    """One game of the season as the test saw it: who sat in each seat (a member's name, or None
    for a guest or a bot) and each seat's rounds as (bid, tricks, score)."""

    kind: str
    seats: list[str | None]
    rounds: list[list[tuple[int, int, int]]] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        return [sum(row[seat][2] for row in self.rounds) for seat in range(len(self.seats))]


@dataclass
class Season:
    """The group, its members (by name) and what they played, on the database the live server serves."""

    db: Path
    group: str
    people: dict[str, Person]
    cookies: dict[str, str]
    games: list[Played]
    invite: str


# ------------------------------------------------------------------ playing the season through the API


def web_game(people: dict[str, Person], group: str, seats: list[str]) -> Played:
    """A web table made for the group by the first seat's member and played to its end: a seat is
    a member's name (who joins and keeps the seat in their account), ``"guest:Name"`` (a person
    without an account) or a bot's kind. Every person plays their first legal move."""
    creator = people[seats[0]]
    kinds = ["human" if s in people or s.startswith("guest:") else s for s in seats]
    made = creator.post(f"/api/groups/{group}/tables", {"seats": kinds, "options": OPTIONS})
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]
    client = creator.client
    table = manager_of(client).tables[table_id]
    invites = list(table.tokens)
    sockets: dict[int, Any] = {}
    with contextlib.ExitStack() as stack:
        sockets[0] = stack.enter_context(
            client.websocket_connect(f"/ws/{table_id}?token={made.json()['token']}")
        )
        for seat, who in enumerate(seats[1:], start=1):
            if kinds[seat] != "human":
                continue
            ws = stack.enter_context(client.websocket_connect(f"/ws/{table_id}?token={invites[seat]}"))
            ws.send_json({"type": "join", "name": who.removeprefix("guest:")})
            token = seat_token(ws)
            if who in people:
                kept = people[who].post("/api/account/seats", {"table": table_id, "token": token})
                assert kept.status_code == 201, kept.text
            sockets[seat] = ws
        ids = itertools.count()
        while table.game is None or not table.game.is_over:
            game = table.game
            steady = game is not None and table.committing is None and not table.waiting
            if steady and game is not None and game.awaiting and game.awaiting[0] in sockets:
                seat, v = game.awaiting[0], table.version
                if game.phase is Phase.BIDDING:
                    move = {"type": "bid", "bid": game.legal_bids(seat)[0]}
                else:
                    move = {"type": "play", "card": str(game.legal_cards(seat)[0])}
                sockets[seat].send_json({**move, "v": v, "id": f"m{next(ids)}"})
                while True:  # until this seat sees its move taken
                    message = sockets[seat].receive_json()
                    assert message["type"] != "error", message
                    if message["type"] == "state" and message["v"] > v:
                        break
            else:
                sockets[0].receive_json()  # a bot's move, a deal: the next message
        game = table.game
        assert game is not None
    names = [s if s in people else None for s in seats]
    rounds = [
        [(r.bids[seat], r.tricks_won[seat], r.scores[seat]) for seat in range(len(seats))]
        for r in game.results
    ]
    return Played("web", names, rounds)


def seat_token(ws: Any) -> str:
    """The seat's own token, which the server sends the connection that joined."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "seat":
            return str(message["token"])


def keeper_evening(
    person: Person, group: str, players: list[str], members: dict[str, str], seed: int
) -> Played:
    """An evening at a real table on the keeper, every round scored (bids and tricks drawn by
    ``seed``), then attached to the group: each player a member (``members``: ids by name) or a guest."""
    draw = random.Random(seed)
    made = person.post("/api/sheets", {"players": players, **OPTIONS, "dealer": 0})
    assert made.status_code in (200, 201), made.text
    sheet = made.json()["id"]
    while not (view := person.get(f"/api/sheets/{sheet}").json())["sheet"]["complete"]:
        current = view["current"]
        hand, order = current["hand_size"], current["bidding_order"]
        bids = [draw.randint(0, hand) for _ in players]
        if sum(bids) == hand:  # the dealer, bidding last, may not make the bids add up to the hand
            dealer = order[-1]
            bids[dealer] += 1 if bids[dealer] == 0 else -1
        bid = person.post(f"/api/sheets/{sheet}/bids", {"bids": bids})
        assert bid.status_code == 200, (current, bid.text)
        tricks = [0] * len(players)
        for _ in range(hand):
            tricks[draw.randrange(len(players))] += 1
        assert person.post(f"/api/sheets/{sheet}/tricks", {"tricks": tricks}).status_code == 200
    rows = person.get(f"/api/sheets/{sheet}").json()["sheet"]["rows"]
    rounds = [
        [(c["bid"], c["tricks"], c["score"]) for c in row["cells"]]
        for row in rows
        if row["status"] == "scored"
    ]
    seats = [{"kind": "member", "member": members[p]} if p in members else {"kind": "guest"} for p in players]
    attached = person.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
    assert attached.status_code == 201, attached.text
    return Played("keeper", [p if p in members else None for p in players], rounds)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Season:
    db = tmp_path_factory.mktemp("groups") / "upriver.sqlite3"
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    with TestClient(create_app(db, bot_delay=0.0), base_url=ORIGIN) as client:
        people = {name: Person(client, name) for name in names}
        ann, bob, cid, dee = (people[n] for n in names[:4])
        group = group_with(ann, bob, cid, dee, name="Thursday club")
        members = {name: people[name].id for name in names[:4]}
        games = [
            web_game(people, group, ["Ann", "Bob", "Cid", "Dee"]),
            web_game(people, group, ["Bob", "Ann", "guest:Gus", "basic"]),
            web_game(people, group, ["Cid", "Dee", "basic", "basic"]),
            keeper_evening(ann, group, ["Ann", "Bob", "Cid", "Dee", "Gus"], members, seed=1),
            web_game(people, group, ["Dee", "Ann", "Bob", "guest:Gus"]),
            web_game(people, group, ["Ann", "Cid", "basic", "basic"]),
            web_game(people, group, ["Bob", "Cid", "Dee", "basic"]),
            keeper_evening(bob, group, ["Ann", "Bob", "Dee", "Hal"], members, seed=2),
        ]
        assert ann.get(f"/api/groups/{group}/standings").status_code == 200  # the web games' records kept
        spring = {"name": "Spring 2024", "start": "2024-03-01", "end": "2024-05-31"}
        assert ann.post(f"/api/groups/{group}/seasons", spring).status_code == 201
        invite = ann.post(f"/api/groups/{group}/invites", {"days": 7}).json()["invite"]
        cookies = {name: p.cookies[COOKIE] for name, p in people.items()}
    return Season(db, group, people, cookies, games, invite)


@pytest.fixture(scope="module")
def site(season: Season) -> Iterator[str]:
    server = LiveServer(season.db, bot_delay=0.0)
    yield f"http://localhost:{server.port}"  # WebAuthn refuses an IP address as the site's id
    server.stop()


# ------------------------------------------------------------------ the standings by hand


def half_up(value: Decimal | float, digits: int) -> str:
    """``value`` with ``digits`` decimals, rounded half away from zero as the page does."""
    return f"{Decimal(str(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):f}"


def places(totals: list[int]) -> list[int]:
    """Each seat's place: one more than the seats with a higher total (ties share it: 1, 1, 3)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def by_hand(games: list[Played], ids: dict[str, str]) -> list[list[str]]:
    """The standings table's rows as the page should show them in English, worked out from the games."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    rows: dict[str, dict[str, Any]] = {}
    for game in games:
        totals, place = game.totals, places(game.totals)
        sitting = [(seat, name) for seat, name in enumerate(game.seats) if name is not None]
        for seat, name in sitting:
            row = rows.setdefault(name, {
                "games": 0, "firsts": 0, "points": 0, "places": 0, "rounds": 0, "exact": 0, "scores": 0,
                "best": None, "run": 0, "longest": 0,
            })  # fmt: skip
            row["games"] += 1
            row["firsts"] += totals[seat] == max(totals)
            row["points"] += totals[seat]
            row["places"] += place[seat]
            row["best"] = totals[seat] if row["best"] is None else max(row["best"], totals[seat])
            for bid, tricks, score in (r[seat] for r in game.rounds):
                row["rounds"] += 1
                row["scores"] += score
                row["run"] = row["run"] + 1 if bid == tricks else 0
                row["exact"] += bid == tricks
                row["longest"] = max(row["longest"], row["run"])
        if len(sitting) >= 2:
            teams = [[ratings.setdefault(name, model.rating())] for _, name in sitting]
            rated = model.rate(teams, scores=[float(totals[seat]) for seat, _ in sitting])
            for (_, name), team in zip(sitting, rated, strict=True):
                ratings[name] = team[0]

    def order(name: str) -> tuple[float, int, float, str]:
        row = rows[name]
        return (-round(ratings[name].ordinal(), 4), -row["firsts"], row["places"] / row["games"], ids[name])

    shown = []
    for rank, name in enumerate(sorted(rows, key=order), start=1):
        row, rating = rows[name], ratings[name]
        shown.append([
            str(rank), name, str(row["games"]), str(row["firsts"]), str(row["points"]),
            half_up(Decimal(row["places"]) / row["games"], 2),
            half_up(Decimal(100 * row["exact"]) / row["rounds"], 0) + "%",
            half_up(Decimal(row["scores"]) / row["rounds"], 1),
            str(row["best"]), str(row["longest"]),
            f"{half_up(round(rating.mu, 4), 1)} ± {half_up(round(rating.sigma, 4), 1)}",
        ])  # fmt: skip
    return shown


# ------------------------------------------------------------------ the browser


def signed_in(browser: Browser, site: str, season: Season, name: str | None, kind: str = "desktop",
              lang: str = "en") -> tuple[BrowserContext, Page]:  # fmt: skip
    """A browser context on ``kind``'s screen in ``lang``, signed in to ``name``'s session (or no one's)."""
    context = browser.new_context(**VIEWPORTS[kind], locale=LOCALES[lang], bypass_csp=True)  # axe is injected
    context.set_default_timeout(TIMEOUT_MS)
    if name is not None:
        context.add_cookies([{"name": COOKIE, "value": season.cookies[name], "url": site}])
    return context, context.new_page()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"group-{name}.png"), full_page=True)


def no_serious_violation(page: Page, where: str) -> None:
    blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, f"axe-core on the group page ({where}):\n{described(blocking)}"


def standings_shown(page: Page) -> list[list[str]]:
    expect(page.locator("#standings tbody tr").first).to_be_visible()
    rows: list[list[str]] = page.locator("#standings tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent.trim()))"
    )
    return rows


def test_the_standings_are_the_seasons_games_worked_out_by_hand_with_the_chart_and_the_last_games(
    browser: Browser, site: str, season: Season
) -> None:
    ids = {name: person.id for name, person in season.people.items()}
    expected = by_hand(season.games, ids)
    assert len(expected) == 4
    context, page = signed_in(browser, site, season, "Ann")
    try:
        page.goto(f"{site}/g/{season.group}")
        expect(page.locator("#title")).to_have_text("Thursday club")
        assert standings_shown(page) == expected
        expect(page.locator("#standings tbody tr.me th")).to_have_text("Ann")
        # The chart's words: each member's points after the season's eight games, as in the standings.
        summary = page.locator("#chart canvas").get_attribute("aria-label") or ""
        assert summary.startswith("Points after each of the season's 8 games: ")
        for row in expected:
            assert f"{row[1]} {row[4]}" in summary
        games = page.locator("#games > li")
        expect(games).to_have_count(8)
        kinds = games.locator(".kind").all_inner_texts()
        assert (kinds.count("Keeper evening"), kinds.count("Web table")) == (2, 6)
        guests = sum(1 for g in season.games for s in g.seats if s is None)
        marked = page.locator("#games .guest-seat .tag, #games .bot-seat .tag").all_inner_texts()
        assert (len(marked), set(marked)) == (guests, {"guest", "bot"})
        expect(games.locator("a", has_text="Review")).to_have_count(6)
        expect(games.locator("a", has_text="Record (JSON)")).to_have_count(8)
        expect(page.locator("#csv")).to_have_attribute("href", f"/api/groups/{season.group}/standings.csv")
        expect(page.locator("#versus")).to_contain_text("Together in")
        shot(page, "desktop")
        no_serious_violation(page, "desktop, an admin")

        # Another season has none of these games; back to this year, the same standings.
        page.select_option("#season", label="Spring 2024 (Mar 1, 2024 – May 31, 2024)")
        expect(page.locator("#standings-empty")).to_be_visible()
        expect(page.locator("#standings tbody tr")).to_have_count(0)
        page.select_option("#season", "")
        assert standings_shown(page) == expected

        # An admin sets the next game night.
        page.click("#next-edit summary")
        page.fill("#next-date", "2030-01-03")
        page.fill("#next-link", "/t/thursday")
        page.click("#next-form button[type=submit]")
        expect(page.locator("#next strong")).to_have_text("Thursday, January 3, 2030")
        expect(page.locator("#next a")).to_have_attribute("href", "/t/thursday")

        # An admin makes an invite link: shown once, the secret in its fragment.
        page.click("#invite-form button[type=submit]")
        expect(page.locator("#invite-made")).to_be_visible()
        link = page.locator("#invite-link").input_value()
        assert link.startswith(f"{site}/g/{season.group}#invite=")
        expect(page.locator("#invites li")).to_have_count(
            5
        )  # four made through the API, each open for a week
        page.reload()
        expect(page.locator("#invite-made")).to_be_hidden()
    finally:
        context.close()

    context, phone = signed_in(browser, site, season, "Bob", kind="phone")
    try:
        phone.goto(f"{site}/g/{season.group}")
        assert standings_shown(phone) == expected
        expect(phone.locator("#invites-box")).to_be_hidden()  # Bob is no admin
        widths = phone.evaluate(
            "() => { const box = document.getElementById('standings-box');"
            " return [document.documentElement.scrollWidth, innerWidth, box.scrollWidth, box.clientWidth]; }"
        )
        page_width, screen, table_width, box_width = widths
        # (A phone's layout viewport widens to what overflows: the screen's own width is the measure.)
        assert page_width <= VIEWPORTS["phone"]["viewport"]["width"] == screen, (
            "the page does not scroll sideways"
        )
        assert table_width > box_width, "the standings scroll inside their own box"
        shot(phone, "phone")
        no_serious_violation(phone, "phone, a member")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "cs", "it", "sv"])
def test_the_page_speaks_each_language_with_no_key_and_no_english_left(
    browser: Browser, site: str, season: Season, lang: str
) -> None:
    context, page = signed_in(browser, site, season, "Ann", lang=lang)
    try:
        page.goto(f"{site}/g/{season.group}")
        standings_shown(page)
        expect(page.locator("#games > li")).to_have_count(8)
        page.locator("#leave").click()  # the confirmation's words too
        shown = everything_shown(page)
        assert "group." not in shown, f"a catalogue key is shown on the {lang} page"
        assert_no_english(page, lang, "group page")
    finally:
        context.close()


def test_a_non_member_and_a_signed_out_visitor_see_no_standings(
    browser: Browser, site: str, season: Season
) -> None:
    context, page = signed_in(browser, site, season, "Eve")
    try:
        page.goto(f"{site}/g/{season.group}")
        expect(page.locator("#outsider")).to_be_visible()
        expect(page.locator("#group")).to_be_hidden()
        expect(page.locator("#standings tbody tr")).to_have_count(0)
        assert "Ann" not in everything_shown(page)
        no_serious_violation(page, "a non-member")
    finally:
        context.close()
    context, page = signed_in(browser, site, season, None)
    try:
        page.goto(f"{site}/g/{season.group}")
        expect(page.locator("#signed-out")).to_be_visible()
        expect(page.locator("#signin-link")).to_have_attribute("href", f"/account?back=%2Fg%2F{season.group}")
        expect(page.locator("#standings tbody tr")).to_have_count(0)
    finally:
        context.close()


def test_an_invite_link_brings_a_newcomer_through_signing_up_back_to_join(
    browser: Browser, site: str, season: Season
) -> None:
    context, page, _cdp, _authenticator = with_authenticator(browser, "phone")
    try:
        page.goto(f"{site}/g/{season.group}#invite={season.invite}")
        expect(page.locator("#signed-out-text")).to_contain_text("You have an invite to join this group.")
        assert "#invite" not in page.url, "the secret leaves the address bar"
        page.click("#signin-link")
        page.fill("#register-name", "Fay")
        page.click("#register")
        expect(page.locator("#codes")).to_be_visible()  # the recovery codes first, then back
        page.click("#codes-done")
        expect(page.locator("#join")).to_be_visible()
        page.click("#join")
        expect(page.locator("#status")).to_have_text("Welcome to Thursday club.")
        expect(page.locator("#members")).to_contain_text("Fay (you)")
        assert len(standings_shown(page)) == 4
        page.goto(f"{site}/account")
        expect(page.locator("#group-list a", has_text="Thursday club")).to_have_attribute(
            "href", f"/g/{season.group}"
        )
    finally:
        context.close()
