"""Claims at a web table: the ``claim`` message and stored event, through the manager's one path.

A player sends ``{"type": "claim", "v": …, "id": …}``; the engine decides whether the claim holds
(:meth:`upriver.Game.check_claim`: judged from the claimer's own view, its cards take every remaining
trick whatever anyone plays and wherever the cards it cannot see lie) and refuses it otherwise with
rule ``claim``, whose facts hold only what the claimer may know.
An accepted claim is stored as the event ``claim`` (seat, value ``""``) and applied by
:meth:`upriver.Game.claim`, which finishes the round at once as ordinary plays: the game record
does not change, and replaying the stored events after a restart makes the same plays. The
claimer's cards are then shown to everyone (:mod:`upriver.web.play.claim_notice`).
"""

from __future__ import annotations

from upriver.web.play.claim_notice import ClaimNotice
from upriver.web.play.messages import Claim
from upriver.web.play.table import Table, TableRefusalError, damaged_refusal
from upriver.web.seats.standins import Accept, own_move_refusal
from upriver.web.store import Event

__all__ = ["CLAIM", "ClaimActions", "apply_claim", "check_claim"]

CLAIM = "claim"
"""The stored event's kind."""


def check_claim(table: Table, event: Event) -> None:
    """Raise unless ``event`` (a ``claim``) may be applied now; changes nothing.

    :raises IllegalActionError: the engine's refusal (rule ``claim``).
    """
    game = table.game
    if game is None:
        raise TableRefusalError(
            "the game has not started: some seats are still open", rule="turn order", seat=event.seat
        )
    game.check_claim(event.seat)


def apply_claim(table: Table, event: Event) -> None:
    """Finish the round by the checked claim and show the claimer's cards. The claim is the person's
    own move, so it ends their automatic moves in a row (:mod:`upriver.web.play.clock`)."""
    game = table.game
    assert game is not None
    claim = game.claim(event.seat)
    table.control.auto[event.seat] = 0
    table.claim = ClaimNotice(claim.seat, claim.round, claim.cards)
    table.gathered = event.version  # the round's last trick stays up before a bot deals on


class ClaimActions:
    """The manager's ``claim`` request (``manager.claims`` of :class:`upriver.web.play.tables.Manager`)."""

    def __init__(self, accept: Accept) -> None:
        """``accept``: the manager's one path of every event."""
        self._accept = accept

    def claim(self, table: Table, seat: int, message: Claim) -> None:
        """Claim the rest of the round for ``seat``, if the guards and the engine accept it.

        :raises TableRefusalError: the message is stale or replayed, the game has not started, or a
            stand-in bot plays for the seat (rule ``back``: they say they are back first).
        :raises IllegalActionError: the claim does not hold (rule ``claim``); nothing changed.
        :raises CommitError: the store failed; nothing changed.
        """

        def event() -> Event:
            if table.damaged is not None:
                raise damaged_refusal(table, seat)
            refusal = own_move_refusal(table, seat, message.id)  # a stand-in plays, or a known id
            if refusal is not None:
                raise refusal
            if message.v > table.version:
                raise TableRefusalError(
                    f"this claim was made against state {message.v}, but the table is at "
                    f"{table.version}: look again",
                    rule="stale",
                    seat=seat,
                )
            return Event(table.version + 1, CLAIM, seat, "", message.id)

        self._accept(table, event)
