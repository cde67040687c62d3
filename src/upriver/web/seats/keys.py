"""Who holds a seat's secret, when it changes hands, and what a link that opens nothing says.

A person-seat is opened by one secret token at a time (:mod:`upriver.web.seats.holders` derives each from
the table's ``seat_key`` and the version of the event that made it, so a restarted server knows
them all). The token changes at these stored events, each checked and applied on the manager's
one path of events:

- ``join`` (value: the name; client id ``proof:<hex>``): the person who opened the seat's invite
  takes it. The seat's new token goes to *the joining connection only*, in a ``seat`` message;
  every other connection opened on the invite (the host's, a second tab) is told the seat is taken
  and closed, and the invite opens nothing from then on. Before it sent ``join`` the joining page
  made a secret of its own and sent only its SHA-256 (the *proof*); if the answer is lost (a cut
  connection, a killed server) that page, and only that page, gets the token again by showing the
  secret (:meth:`SeatKeys.recover`, ``POST /api/tables/{id}/recover``) until it sends ``confirm`` or
  :data:`JOIN_RECOVERY_SECONDS` have passed since the join was stored.
- ``rekey`` (value ``""``): a person signs their other devices out; the connection that asked gets
  the new token, the others holding the old one are closed (reason ``moved``).
- ``reinvite`` (value: the host's seat): the host gives the seat of a person who is away a new
  invite (never while they are connected): the old token opens nothing at once, and whoever opens
  the new invite takes the seat back under the same name with a ``join``.
- ``revoke`` and ``bot`` (before the start): the host revokes an open seat's invite, or gives the
  seat to a bot.

Every token that stops opening a seat is remembered (as its SHA-256) with why, so the page of a
dead link can say what happened and what to do: :class:`DeadLink`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re

__all__ = [
    "DEAD_REASONS",
    "JOIN_RECOVERY_SECONDS",
    "KEY_KINDS",
    "DeadLink",
    "PendingJoin",
    "SeatKeys",
    "proof_id",
    "proof_of",
]

JOIN_RECOVERY_SECONDS = 600.0
"""How long after a join is stored its page may still get the seat's token back with its secret."""
KEY_KINDS = ("rekey", "reinvite")
"""The stored events of this module (``join``, ``revoke`` and ``bot`` are the lobby's)."""
DEAD_REASONS = ("taken", "revoked", "bot", "moved", "reinvited")
"""Why a token opens nothing: its invite was used by a join, revoked, its seat given to a bot, the
person signed their other devices out, or the host re-invited the seat."""

_PROOF = re.compile(r"[0-9a-f]{64}")
_PROOF_PREFIX = "proof:"


def proof_of(secret: str) -> str:
    """The proof a joining page sends for ``secret``: its SHA-256, in lowercase hexadecimal."""
    return hashlib.sha256(secret.encode()).hexdigest()


def proof_id(proof: str | None) -> str | None:
    """The client id a ``join`` event stores its page's proof under (``None`` without one).

    :raises ValueError: ``proof`` is not 64 lowercase hexadecimal digits (a SHA-256).
    """
    if proof is None:
        return None
    if not _PROOF.fullmatch(proof):
        raise ValueError(
            "a join's proof is the SHA-256 of the page's secret: 64 lowercase hexadecimal digits"
        )
    return _PROOF_PREFIX + proof


def _link_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PendingJoin:
    """A join not confirmed yet: the invite it used, its page's proof, and when it was stored."""

    invite: str
    proof: str | None
    at: float

    def opens_for(self, invite: str, secret: str, now: float) -> bool:
        """Whether ``secret`` proves its holder sent this join with ``invite``, within the window."""
        if self.proof is None or now - self.at > JOIN_RECOVERY_SECONDS:
            return False
        same_invite = hmac.compare_digest(self.invite.encode(), invite.encode())
        return same_invite and hmac.compare_digest(self.proof.encode(), proof_of(secret).encode())


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DeadLink:
    """Why a token opens nothing any more: ``reason`` (one of :data:`DEAD_REASONS`), the ``seat`` it
    opened, and the name sitting there when it stopped (``None`` for an open seat)."""

    reason: str
    seat: int
    name: str | None

    def sentence(self) -> str:
        """What happened and what to do, in English (a page says it again from the facts)."""
        who = self.name or f"seat {self.seat}"
        return {
            "taken": f"this invite was used: {who} took the seat. If that was you, open the seat from "
            "the device you joined on, or from My tables once you sign in; otherwise ask the host",
            "revoked": "the host revoked this invite: ask them for the new one",
            "bot": "the host gave this seat to a bot before the game started",
            "moved": f"{who} signed this device out and plays from another: open the seat there, or "
            "from My tables once you sign in",
            "reinvited": f"the host gave {who}'s seat a new link: ask them for it",
        }[self.reason]

    def facts(self) -> dict[str, object]:
        """The refusal's facts: ``reason``, ``seat`` and ``name``."""
        return {"reason": self.reason, "seat": self.seat, "name": self.name}


class SeatKeys:
    """One table's seat secrets besides the tokens themselves: joins not confirmed yet, the tokens
    that stopped opening a seat and why, each seat's tenure and the seats re-invited. All of it is
    derived from the stored events, so a restarted server knows it as it was."""

    def __init__(self, seats: int) -> None:
        self.pending: dict[int, PendingJoin] = {}
        """Seats whose join is not confirmed yet."""
        self.tenure: list[int] = [0] * seats
        """Per seat, the version of the join that seated its person now (0: nobody holds it): an
        account keeps a seat for as long as its tenure is the one it was bound under."""
        self.reinvited: set[int] = set()
        """Seats whose person the host re-invited, waiting for the new invite to be opened."""
        self._dead: dict[str, DeadLink] = {}

    def retire(self, token: str | None, reason: str, seat: int, name: str | None) -> None:
        """``token`` opens nothing from now on, for ``reason``."""
        if token:
            self._dead[_link_key(token)] = DeadLink(reason=reason, seat=seat, name=name)

    def why_dead(self, token: str | None) -> DeadLink | None:
        """Why ``token`` opens nothing any more, or ``None`` (it never opened a seat here)."""
        if not token or not token.isascii():
            return None
        return self._dead.get(_link_key(token))

    def joined(self, seat: int, version: int, invite: str | None, client_id: str | None, at: float) -> None:
        """A ``join`` of ``seat`` at ``version`` with ``invite`` was applied; its page confirms later."""
        self.tenure[seat] = version
        self.reinvited.discard(seat)
        proof = client_id[len(_PROOF_PREFIX) :] if client_id and client_id.startswith(_PROOF_PREFIX) else None
        if invite:
            self.pending[seat] = PendingJoin(invite=invite, proof=proof, at=at)

    def recover(self, invite: str, secret: str, now: float) -> int | None:
        """The seat whose unconfirmed join was sent with ``invite`` by the page holding ``secret``, or
        ``None`` (no such join, not its secret, or the window passed)."""
        for seat, pending in self.pending.items():
            if pending.opens_for(invite, secret, now):
                return seat
        return None
