"""Replaying a record through the engine, which alone judges whether each move was legal."""

from __future__ import annotations

import re

from upriver.actions import Phase
from upriver.errors import IllegalActionError
from upriver.game import Game
from upriver.record.decoding import clipped
from upriver.record.model import Record, RecordRuleError, RoundRecord
from upriver.rules import Bidding

__all__ = ["replay"]

_LONG_NUMBER = re.compile(r"\d{21,}")


def _bounded(text: str) -> str:
    """``text`` with each number of more than 20 digits shortened, and cut to
    :data:`~upriver.record.decoding.MAX_MESSAGE` (the engine's sentence may hold a written number)."""
    return clipped(_LONG_NUMBER.sub(lambda found: f"{found[0][:8]}… ({len(found[0])} digits)", text))


def _breach(game: Game, number: int, seat: int | None, text: str, rule: str) -> RecordRuleError:
    player = None if seat is None else game.players[seat]
    where = f"round {number}" if player is None else f"round {number}, {player}"
    return RecordRuleError(
        _bounded(f"{where}: {text}"), round_number=number, rule=rule, seat=seat, player=player
    )


def _refused(game: Game, number: int, error: IllegalActionError, seat: int | None) -> RecordRuleError:
    """The engine's refusal, reworded to name the round first and the player once."""
    seat = error.seat if error.seat is not None else seat
    text = str(error).removeprefix(f"round {number}: ")
    if seat is not None:
        text = text.removeprefix(f"{game.players[seat]} ")
    return _breach(game, number, seat, text, error.rule)


def _first_missing_bid(game: Game) -> int:
    return next(seat for seat in game.bidding_order if game.bids[seat] is None)


def _start(game: Game, entry: RoundRecord, number: int) -> None:
    """Check the round may begin here, with this dealer, and deal it."""
    if game.is_over:
        raise _breach(
            game, number, entry.dealer, f"the schedule has only {game.rules.rounds} rounds", "schedule"
        )
    if game.phase is not Phase.DEALING:
        waiting = "trick counts" if game.phase is Phase.TRICKS else f"{game.phase.value} to finish"
        seat = None if game.phase is Phase.TRICKS else game.to_act
        raise _breach(
            game,
            number - 1,
            seat,
            f"the round still waits for {waiting}, yet round {number} follows",
            "round order",
        )
    if entry.dealer != game.dealer:
        raise _breach(
            game,
            number,
            entry.dealer,
            f"the deal passes to the left, so {game.players[game.dealer]} deals round {number}, "
            f"not {game.players[entry.dealer]}",
            "dealer",
        )
    try:
        if entry.hands is None:
            game.deal_at_table(entry.trump)
        else:
            game.deal(entry.hands, entry.turned)
    except IllegalActionError as error:
        raise _refused(game, number, error, entry.dealer) from None


def _bid(game: Game, entry: RoundRecord, number: int) -> None:
    in_turn = game.rules.bidding is Bidding.SEQUENTIAL
    missing: int | None = None
    for seat in game.bidding_order:
        bid = entry.bids[seat]
        if bid is None:
            missing = seat if missing is None else missing
            continue
        if in_turn and missing is not None:
            raise _breach(
                game, number, seat, f"bids after {game.players[missing]}, whose bid is missing", "turn order"
            )
        try:
            game.bid(bid, seat=seat)
        except IllegalActionError as error:
            raise _refused(game, number, error, seat) from None


def _play(game: Game, entry: RoundRecord, number: int) -> None:
    plays = entry.plays or ()
    played = game.results[number - 1].plays if len(game.results) >= number else None
    if plays and played is not None:
        # A blind one-card round played itself once the bids were in: the record repeats those cards.
        if tuple(plays) != played:
            shown = " ".join(map(str, played))
            raise _breach(
                game,
                number,
                None,
                f"the round is blind, so each card is played for its holder from the dealer's left, "
                f"{shown}, not {' '.join(map(str, plays))}",
                "blind",
            )
        return
    for i, card in enumerate(plays):
        if game.phase is Phase.BIDDING:
            missing = _first_missing_bid(game)
            raise _breach(
                game,
                number,
                missing,
                f"cards are played before {game.players[missing]} has bid",
                "bids first",
            )
        if game.phase is not Phase.PLAYING:
            raise _breach(
                game,
                number,
                None,
                f"{len(plays) - i} more cards are played after the last trick",
                "hand size",
            )
        try:
            game.play(card)
        except IllegalActionError as error:
            raise _refused(game, number, error, game.to_act) from None


def _tricks(game: Game, entry: RoundRecord, number: int, tricks: tuple[int, ...]) -> None:
    counts = ", ".join(f"{name} {count}" for name, count in zip(game.players, tricks, strict=True))
    if game.phase is Phase.BIDDING:
        missing = _first_missing_bid(game)
        raise _breach(
            game, number, missing, f"tricks are given before {game.players[missing]} has bid", "bids first"
        )
    if entry.hands is not None:
        if len(game.results) < number:
            raise _breach(
                game, number, None, f"tricks ({counts}) are given for an unfinished round", "tricks"
            )
        played = game.results[number - 1].tricks_won
        if played != tricks:
            took = ", ".join(f"{name} {count}" for name, count in zip(game.players, played, strict=True))
            raise _breach(game, number, None, f"the tricks say {counts}, but the plays give {took}", "tricks")
        return
    try:
        game.record_tricks(tricks)
    except IllegalActionError as error:
        if error.rule != "tricks add up":
            raise _refused(game, number, error, None) from None
        raise _breach(
            game,
            number,
            None,
            f"the tricks add up to {sum(tricks)} ({counts}), but {game.hand_size} were played",
            error.rule,
        ) from None


def replay(record: Record, *, seed: int | None = None) -> Game:
    """Play ``record`` through a new :class:`Game` and return it, ready to continue.

    Every deal, bid, card and trick count goes through the game's public API, so a
    move the engine refuses becomes a :class:`RecordRuleError` naming the round, the
    player and the rule. ``seed`` (default: the record's ``seed`` extra, if a whole
    number) seeds the game's generator for the deals still to come. A game played
    with cards deals its next rounds itself (``auto_deal``; a record that stops
    between rounds leaves it waiting for one :meth:`Game.deal`); after a
    score-keeping round it waits for :meth:`Game.deal_at_table`.
    """
    extra_seed = record.extras.get("seed")
    if seed is None and isinstance(extra_seed, int) and not isinstance(extra_seed, bool):
        seed = extra_seed
    first = record.rounds[0].dealer if record.rounds else None
    game = Game(record.rules, record.players, seed=seed, dealer=first, auto_deal=False)
    for number, entry in enumerate(record.rounds, start=1):
        _start(game, entry, number)
        _bid(game, entry, number)
        _play(game, entry, number)
        if entry.tricks is not None:
            _tricks(game, entry, number, entry.tricks)
    if not record.rounds or record.rounds[-1].has_cards:
        game.auto_deal = True
    return game
