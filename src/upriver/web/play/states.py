"""A table's state messages: each seat's built and encoded at most once per version.

Every accepted event changes the version, and every connection then needs the newest state of
its seat. Building one (the seat's view, its hand with the engine's reasons, the lobby) and
encoding it is most of the server's work per move, so :class:`SeatStates` keeps, per version,
one encoded message per seat (and one for the spectators), shared by every connection of that
seat: a second tab or fifty spectators cost one build. The part every seat sees alike is built
once per version from the first view asked for. The score sheet changes once a round, so it is
encoded at most once per version and seat, and sent to a connection only once a round.

Encoding is orjson's: the same JSON text as the standard library's compact form, several times
faster.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

import orjson

from upriver.game import Game
from upriver.view import TableView
from upriver.web.play import protocol
from upriver.web.play.bots import Pace
from upriver.web.play.claim_notice import ClaimNotice, claim_json
from upriver.web.play.settings import TableSettings
from upriver.web.seats.presence import Presence, presence_json

__all__ = ["SeatStates", "StateTable", "encode"]


def encode(data: object) -> str:
    """``data`` as compact JSON text (as ``json.dumps(data, separators=(",", ":"))``, faster)."""
    return orjson.dumps(data).decode()


class StateTable(Protocol):
    """What a state message is built from (:class:`upriver.web.play.tables.Table`)."""

    id: str
    kinds: list[str]
    version: int
    game: Game | None
    thinking: int | None
    pace: Pace
    claim: ClaimNotice | None
    settings: TableSettings
    """The table's own settings; the state's ``options`` are all of them but the pace."""

    @property
    def host(self) -> int | None:
        """The seat with the host's rights, whose lobby differs from everyone else's."""

    def lobby(self, seat: int | None, base_url: str) -> dict[str, object]:
        """Who sits where, as ``seat`` may see it."""

    def joined_pending(self, seat: int) -> bool:
        """Whether the seat's join waits for its page's ``confirm``."""

    def invited(self, seat: int) -> bool:
        """Whether the seat waits for its person to take it with a ``join``."""

    def automatic_json(self, seat: int | None) -> list[dict[str, object]]:
        """The automatic moves of the current round and the one before, as ``seat`` may know them."""

    presence: Presence


@dataclasses.dataclass(slots=True)
class _Built:
    """One seat's encoded state at one version: the text up to the game's end, and its sheet."""

    body: str
    closing: str
    rounds: int
    view: TableView | None
    sheet: str = ""

    def sheet_text(self) -> str:
        """The score sheet's part of the message, encoded the first time a connection needs it."""
        if not self.sheet and self.view is not None:
            self.sheet = ',"sheet":' + encode(protocol.sheet_part(self.view))
        return self.sheet


class SeatStates:
    """The encoded state messages of one table's seats at its current version (see the module)."""

    def __init__(self) -> None:
        self._key: tuple[int, int] = (-1, -1)
        self._built: dict[int | None, _Built] = {}
        self._shared = ""
        self._lobby = ""
        self.epoch = 0
        """Bumped when the state changes without a new event (a bot starts thinking, damage, a seat's
        presence or the number watching: :mod:`upriver.web.seats.presence`)."""

    def invalidate(self) -> None:
        """Forget every built state: the next message of each seat is built afresh."""
        self.epoch += 1

    def message(self, table: StateTable, seat: int | None, sheet_sent: int, base_url: str) -> tuple[str, int]:
        """The newest state message of ``seat`` (``None``: a spectator) and the round count of its
        sheet; the sheet is included only when it differs from ``sheet_sent``, the connection's."""
        key = (table.version, self.epoch)
        if key != self._key:
            self._key = key
            self._built.clear()
            self._shared = ""
            self._lobby = encode(table.lobby(None, base_url))
        built = self._built.get(seat)
        if built is None:
            built = self._built[seat] = self._build(table, seat, base_url)
        if built.view is None or built.rounds == sheet_sent:
            return built.body + built.closing, sheet_sent
        return f"{built.body}{built.sheet_text()}{built.closing}", built.rounds

    def _build(self, table: StateTable, seat: int | None, base_url: str) -> _Built:
        game = table.game
        view: TableView | None = None
        if game is not None:
            # A seat still offered (re-invited mid-game) shows no hand until its person takes it.
            view = game.view(None) if seat is None or table.invited(seat) else game.view(seat)
        hosting = seat is not None and seat == table.host
        lobby = encode(table.lobby(seat, base_url)) if hosting else self._lobby
        head = encode(
            {
                "type": "state",
                "v": table.version,
                "table": table.id,
                "role": "spectator" if seat is None else "player",
                "seat": seat,
                **(
                    {}
                    if seat is None
                    else {"joined_pending": table.joined_pending(seat), "invited": table.invited(seat)}
                ),
                "pace": table.pace.name,
                "trick_pause_ms": round(table.pace.trick_pause * 1000),
                "thinking": table.thinking,
                "options": table.settings.options(),
                "automatic": table.automatic_json(seat),
                "presence": presence_json(table),
                "watching": table.presence.watching(),
                "claim": claim_json(table.claim, game),
            }
        )[:-1]
        if game is None or view is None:
            return _Built(f'{head},"lobby":{lobby},"game":null}}', "", -1, None)
        if not self._shared:
            # Every view holds the same public part, so the first seat's view serves them all.
            self._shared = encode(protocol.table_part(game, view, kinds=table.kinds))[1:-1]
        own = encode(protocol.seat_part(game, view))[1:-1]
        # Within a round the sheet changes only in the round's bids and trick counts, which every
        # state carries anyway: a connection gets the sheet once a round, not with every move.
        return _Built(f'{head},"lobby":{lobby},"game":{{{self._shared},{own}', "}}", len(view.history), view)
