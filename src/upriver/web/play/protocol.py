"""The WebSocket protocol: what clients may send, and the per-seat state the server sends back.

Client → server (one JSON object per message; one class each in :mod:`upriver.web.play.messages`,
which reads them at the door and refuses a missing or malformed field, rule ``field``). A message
acts for the seat of the connection's token only: a ``seat`` given in a ``join``, ``bid``,
``play``, ``claim``, ``hint``, ``confirm``, ``leave``, ``back`` or ``rekey`` must be that seat, or
it is refused with rule ``seat`` and changes nothing (``revoke``, ``bot``, ``handover`` and
``reinvite`` name the seat they act on; ``sync``, ``chat`` and ``react`` read none).

- ``{"type": "join", "name": "Bea", "proof": "<64 hex digits>"}`` — take the seat of the connection's
  token (an invite), before the game starts (or, a seat the host re-invited, at any time, under its
  name). ``proof`` is the SHA-256 of a secret the page made and keeps: only that page can recover
  the join if its answer is lost (``POST /api/tables/{id}/recover``; :mod:`upriver.web.seats.keys`).
  The seat's new token goes to this connection alone, in a ``seat`` message; every other
  connection opened on the invite is closed (4403, an ``error`` with rule ``token`` and the
  reason ``taken``).
- ``{"type": "bid", "bid": 2, "v": 17, "id": "c-5"}`` — bid; ``v`` is the state version the
  choice was made against, ``id`` a client-chosen id unique per seat.
- ``{"type": "play", "card": "QH", "v": 18, "id": "c-6"}`` — play a card (its text, read by the engine).
- ``{"type": "sync"}`` — send me the state again.
- ``{"type": "revoke", "seat": 2}`` — the table's creator only: a new invite link for that open
  seat; the old link opens nothing any more.
- ``{"type": "bot", "seat": 2, "kind": "basic"}`` — the table's creator only, before the game
  starts: an open seat is given to a bot of that kind; its invite opens nothing any more.
- ``{"type": "confirm"}`` — the joined page saved its new token (``joined_pending`` until then): its
  join can no longer be recovered with the page's secret. Confirming twice is harmless.
- ``{"type": "rekey"}`` — sign out my other devices: this connection is sent the seat's new token
  (a ``seat`` message); every other connection of the seat is closed (reason ``moved``).
- ``{"type": "reinvite", "seat": 2}`` — the host only, while that seat's person has no connection:
  the seat gets a new invite (the host's lobby lists it), its old token opens nothing at once
  (reason ``reinvited``), and whoever opens the new invite takes the seat back with a ``join``.
- ``{"type": "leave"}`` — the person leaves: a bot of the table's ``level`` plays for the seat at
  once (presence ``left``); their link still opens the seat.
- ``{"type": "back"}`` — "I'm back": the person takes their seat back from its stand-in bot.
- ``{"type": "handover", "seat": 2}`` — hand another person's seat to a bot: only while that person
  has no connection and has been away 60 s, or (at a table without a clock) it has been their turn
  120 s while they are away (the state's ``handover`` says when); refused with rule ``handover``,
  a sentence and facts saying why (``case``: ``wait`` with ``seconds``, ``here``, ``bot``, …).
- ``{"type": "chat", "text": "well played"}`` — a line in the table's chat, text only, at most 200
  characters (a spectator also gives its ``name``, and writes only at a table whose
  ``spectator_chat`` option is on); ``{"type": "react", "reaction": "oops"}`` — a reaction shown on
  the seat, one of ``well-played``, ``good-luck``, ``oops``, ``thanks``, 👍, 😂, 😮, 🎉. Both are
  rate-limited; a refusal has rule ``chat`` and its ``case`` in the facts (:mod:`upriver.web.social.chat`).
- ``{"type": "claim", "v": 18, "id": "c-7"}`` — claim the rest of the round: allowed when the
  seat's ``can_claim`` is true (the engine's :meth:`~upriver.Game.can_claim`, judged from the seat's
  own view: its cards take every remaining trick wherever the cards it cannot see lie). The round is
  played out at once as ordinary plays; refused with rule ``claim`` and its ``case`` otherwise
  (:mod:`upriver.web.play.claims`).
- ``{"type": "hint"}`` — at a table whose ``hints`` option is on, the seat's hint for its current
  decision, answered by a ``hint`` message; refused with rule ``hint`` at other tables, for a
  spectator and when the seat has nothing to decide (:mod:`upriver.web.play.hints`).

Server → client, each with ``v``, the table's state version (the number of events it has accepted):

- ``{"type": "state", "v": …, "table": …, "role": "player" | "spectator", "seat": …, "pace": …,
  "trick_pause_ms": …, "thinking": …, "lobby": {…}, "game": {…} | null}`` — the whole picture for
  this seat. ``pace`` is the table's (``slow`` | ``normal`` | ``fast``), ``trick_pause_ms`` how
  long a finished trick stays up before the next bot moves, ``thinking`` the seat whose bot is
  choosing its move now, or ``null`` (a state is sent when it changes, at the same ``v``). The
  game part is built only from ``game.view(seat)``
  (a spectator's from ``game.view(None)``: no hand, no hidden bid). In a blind one-card round a
  seat's ``hand`` is empty and ``foreheads`` holds, seat by seat, the card on each other seat's
  forehead (``null`` for its own); it is empty in every other round and for a spectator.
  A seat that bids last
  under the hook or overbid rule gets ``bid_restriction``: the rule, the bids it forbids and
  allows, the totals, and the reason in words. Each card of ``hand`` has ``legal`` and, when it
  cannot be played, ``reason`` (English) and ``why`` (its rule, seat and facts, as in an error
  message); so has each bid of ``bid_options`` the dealer's rule forbids. A damaged table's
  ``lobby`` says so in ``damaged``. ``game.can_claim`` says whether the seat may claim the rest of
  the round now (always false for a spectator), and the state's ``claim`` is the last claim,
  ``{"seat", "round", "cards"}`` (the cards the claimer held), shown to everyone until the next
  round's first bid, else ``null``.
  The trick on the table (``trick``) and the last one (``last_trick``: ``plays`` and ``winner``)
  are (seat, card) pairs in the order played, as the engine's ``Trick.plays``.
  A player's state carries ``joined_pending`` (the page sends ``confirm`` once it saved its token)
  and ``invited`` (the seat waits for its person to take it with a ``join``); never a token.
  Every state also carries ``options`` (the table's ``clock``, ``level``, ``hints``,
  ``spectator_chat``), ``automatic`` (the server's moves for people in the current round and the one before:
  ``{"seat", "v", "round", "kind", "by"}`` and the move, ``bid`` or ``card``; ``by``: ``clock``,
  or ``standin`` for a stand-in bot's) and ``clock``: ``null``
  at a table without one, else ``{"seconds": 30, "left_ms": {"<seat>": ms}}``, the time left of
  each person whose turn it is, computed as the message is sent (:mod:`upriver.web.play.clock`), and
  ``handover``: ``{"<seat>": ms}``, for each away person-seat another may hand to a bot, the time
  until the server allows it (0: now), computed as the message is sent.
  Every state carries ``presence``, one per seat: ``{"status": "online" | "away" | "bot" | "left",
  "away_since": <unix seconds> | null, "auto": <automatic moves in a row>}`` (a person in two tabs is
  online once; a bot's seat is ``bot``), and ``watching``, how many spectators are connected
  (:mod:`upriver.web.seats.presence`; a change sends a new state at the same ``v``, within a second or two
  across server processes).
- ``{"type": "seat", "v": …, "seat": 2, "token": …}`` — the seat's new secret, sent only to the
  connection whose ``join`` or ``rekey`` made it: the page keeps it, and opens the seat with it.
- ``{"type": "chat", "v": …, "lines": [{"n", "at", "seat", "name", "kind": "text" | "system",
  "text", "event", "facts"}, …], "full": true | false}`` — the table's chat: the last 100 lines
  when a connection opens (``full``, only if there are any), then each new line. ``text`` is a
  person's words as they typed them (show it as text, never as markup); a ``system`` line is the
  table's notice of ``event`` (``left``, ``back``, ``handover``, ``away-bot``, ``clock-bot``) with
  its ``facts`` (``seat``, ``by``), for the page to word. ``n`` counts the table's lines.
- ``{"type": "reaction", "v": …, "seat": 2, "reaction": "oops", "at": …}`` — a seat's reaction, to
  show on that seat for a few seconds (not kept).
- ``{"type": "hint", "v": …, "choice": 3 | "QH", "options": [{"move": 3 | "QH", "points": 10.2}, …]}``
  — the answer to ``hint``: the expert's choice and every legal choice's expected points this
  round, judged from the seat's own view (the review's evaluation, :mod:`upriver.review`), at the
  state version ``v`` it was asked at.
- ``{"type": "error", "v": …, "id": …, "rule": …, "seat": …, "facts": {…}, "message": …}`` — a
  refused message; nothing changed. ``rule``, ``seat`` and ``facts`` are what the sentence is
  made of (:class:`~upriver.errors.IllegalActionError`; for follow suit ``{"led": "C", "held":
  ["2C", "QC"]}``), so a page can word the refusal its own way.

An action is refused as ``stale`` when its ``v`` is older than the version at which the seat's
choices last changed (so a click on an outdated screen never lands), and as ``duplicate`` when
its ``id`` was already used by that seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from upriver.actions import Phase, Trick
from upriver.cards import DECK, Rank, Suit
from upriver.deal import rules_json
from upriver.errors import IllegalActionError, RefusalError
from upriver.game import Game
from upriver.legality import BidRestriction
from upriver.names import PlayerNameError
from upriver.sheet import ScoreSheet
from upriver.view import SeatView, TableView
from upriver.web.hosting import refusals

__all__ = [
    "error_message",
    "refusal_json",
    "restriction_json",
    "rules_json",
    "seat_message",
    "seat_part",
    "sheet_part",
    "table_part",
]

_RANK_WORDS = {
    Rank.JACK: "Jack",
    Rank.QUEEN: "Queen",
    Rank.KING: "King",
    Rank.ACE: "Ace",
}


def seat_message(version: int, seat: int, token: str) -> str:
    """The ``seat`` message: the seat's new secret ``token``, for the one connection that made it."""
    return json.dumps({"type": "seat", "v": version, "seat": seat, "token": token})


def error_message(
    version: int,
    rule: str,
    message: str,
    client_id: str | None = None,
    *,
    seat: int | None = None,
    facts: Mapping[str, object] | None = None,
) -> str:
    """An ``error`` message as JSON text: the sentence, and the rule, seat and facts it is made of
    (JSON data, as :meth:`IllegalActionError.facts_json` gives them), so a page can word it again.
    Each is counted under its rule (:mod:`upriver.web.hosting.refusals`, for ``/metrics``)."""
    refusals.count(rule)
    return json.dumps(
        {
            "type": "error",
            "v": version,
            "id": client_id,
            "rule": rule,
            "seat": seat,
            "facts": dict(facts or {}),
            "message": message,
        }
    )


_LABELS = {  # each card in words for screen readers: "Queen of hearts", "10 of clubs"
    card: f"{_RANK_WORDS.get(card.rank, str(card.rank.value))} of {card.suit.name.lower()}" for card in DECK
}


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None else suit.value


def _trick(trick: Trick | None) -> dict[str, object] | None:
    if trick is None:
        return None
    return {"plays": [[seat, str(card)] for seat, card in trick.plays], "winner": trick.winner}


def _bid_options(view: SeatView, restriction: BidRestriction | None) -> list[dict[str, object]]:
    """Every bid from 0 to the hand size, each legal or not; a bid the dealer's rule forbids has
    ``why``, the refusal it would get (rule, seat, facts: :meth:`BidRestriction.refusal`)."""
    if not view.legal_bids:
        return []
    legal = set(view.legal_bids)
    options: list[dict[str, object]] = []
    for bid in range(view.hand_size + 1):
        option: dict[str, object] = {"bid": bid, "legal": bid in legal}
        if restriction is not None and bid in restriction.forbidden:
            option["why"] = refusal_json(restriction.refusal(bid, view.players[view.seat]))
        options.append(option)
    return options


def restriction_json(restriction: BidRestriction | None) -> dict[str, object] | None:
    """The dealer's bid restriction as data (:meth:`BidRestriction.to_json`), or ``None``."""
    return None if restriction is None else restriction.to_json()


def _hand(game: Game, view: SeatView) -> list[dict[str, object]]:
    """The seat's cards by suit, each legal or with the engine's reason why not: ``reason`` in
    English words, ``why`` its rule, seat and facts (``{"rule": "follow suit", "seat": 2, "facts":
    {"led": "C", "held": ["2C"]}}``) for a page to word in the player's language. A card that
    cannot be played because it is not the seat's turn has rule ``turn order`` and the fact
    ``case``: ``playing`` (another seat is to play) or ``bidding`` (the bids are not all in)."""
    legal = set(view.legal_cards)
    out: list[dict[str, object]] = []
    for card in view.hand:
        reason: str | None = None
        why: dict[str, object] | None = None
        if view.legal_cards and card not in legal:
            try:
                game.check_play(card, view.seat)
            except IllegalActionError as error:
                reason = str(error)
                why = refusal_json(error)
        elif not view.legal_cards:
            playing = view.phase is Phase.PLAYING
            reason = "not your turn" if playing else "wait for the bids"
            why = {
                "rule": "turn order",
                "seat": view.seat,
                "facts": {"case": "playing" if playing else "bidding"},
            }
        out.append(
            {"card": str(card), "label": _LABELS[card], "legal": card in legal, "reason": reason, "why": why}
        )
    return out


def refusal_json(error: Exception) -> dict[str, object]:
    """What a refusal is made of, as JSON data: ``{"rule", "seat", "facts"}``, so a page words it in
    the player's language (``static/i18n.js``'s ``reason``) instead of showing the English sentence.

    Reads the engine's :class:`~upriver.errors.RefusalError` (its JSON facts), a
    :class:`~upriver.web.play.messages.ProtocolError`, the table's refusals (``rule`` and ``seat``, no
    facts) and a
    :class:`~upriver.names.PlayerNameError` (rule ``name``, its reason code as the fact ``case``).
    """
    if isinstance(error, PlayerNameError):
        return {"rule": "name", "seat": error.seat, "facts": {"case": error.reason}}
    if isinstance(error, RefusalError):
        facts: Mapping[str, object] = error.facts_json()
    else:
        facts = getattr(error, "facts", None) or {}
    return {
        "rule": str(getattr(error, "rule", "unknown")),
        "seat": getattr(error, "seat", None),
        "facts": dict(facts),
    }


def table_part(game: Game, view: TableView, *, kinds: Sequence[str]) -> dict[str, object]:
    """What every seat and spectator sees alike, from any ``view`` (the spectator's, to cache it once).

    Bids are not here: under simultaneous bidding each seat sees only its own (:func:`seat_part`).
    """
    last_round = view.history[-1] if view.history else None
    over = view.phase is Phase.OVER
    return {
        "players": list(view.players),
        "kinds": list(kinds),
        "rules": rules_json(view.rules),
        "phase": view.phase.value,
        "round": view.round_number,
        "rounds": view.rules.rounds,
        "hand_size": view.hand_size,
        "dealer": view.dealer,
        "to_act": view.to_act,
        "awaiting": list(game.awaiting),
        "turned": None if view.turned is None else str(view.turned),
        "trump": _suit(view.trump),
        "tricks_won": list(view.tricks_won),
        "trick": [[seat, str(card)] for seat, card in view.trick],
        "leader": view.leader,
        "tricks_done": len(view.tricks),
        "last_trick": _trick(view.last_trick),
        "trump_broken": view.trump_broken,
        "totals": list(view.totals),
        "last_round": None
        if last_round is None
        else {
            "number": last_round.number,
            "hand_size": last_round.hand_size,
            "bids": list(last_round.bids),
            "tricks": list(last_round.tricks_won),
            "scores": list(last_round.scores),
        },
        "over": over,
        "standings": [list(row) for row in game.standings()] if over else [],
    }


def seat_part(game: Game, view: TableView) -> dict[str, object]:
    """What only this seat sees: its hand, its choices, the dealer's restriction, the bids it may see.

    A spectator's :class:`TableView` has no hand and no choices. ``game`` is asked only
    for the engine's reasons about this seat's own moves.
    """
    if not isinstance(view, SeatView):
        return {
            "my_turn": False,
            "hand": [],
            "foreheads": [],
            "bid_options": [],
            "bid_restriction": None,
            "bids": list(view.bids),
            "can_claim": False,
        }
    restriction = game.bid_restriction(view.seat)
    return {
        "my_turn": view.my_turn,
        "hand": _hand(game, view),
        "foreheads": [None if card is None else str(card) for card in view.foreheads],
        "bid_options": _bid_options(view, restriction),
        "bid_restriction": restriction_json(restriction),
        "bids": list(view.bids),
        "can_claim": game.can_claim(view.seat),
    }


def sheet_part(view: TableView) -> dict[str, object]:
    """The score sheet as the viewer of ``view`` may see it (a :class:`TableView`: a spectator).

    It is :meth:`ScoreSheet.from_view` of ``view`` as :meth:`ScoreSheet.to_json`, the shape the
    score keeper sends too; built from the view alone, it shows nothing ``view`` hides.
    """
    return ScoreSheet.from_view(view).to_json()
