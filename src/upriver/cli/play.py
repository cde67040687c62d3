"""`upriver play`: a game in the terminal, one person against bots.

The engine is the only judge of legality: a typed bid or card is checked with
``Game.check_bid`` / ``Game.check_play`` and a refusal is shown with the rule it
broke. The game is saved as a game record (docs/record.md) on ``save``, ``quit``,
Ctrl-C, end of input and at the end, and ``--resume`` continues from one; who
sits where and which bots play is kept in the record's ``upriver_play`` extra.
``--lang`` (default: from ``$LANGUAGE``/``$LANG``) chooses the language of every word shown;
a refusal is worded from the engine's rule and facts (:func:`upriver.i18n.reason`).
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from upriver import record as records
from upriver.actions import BidAction, Phase, PlayAction
from upriver.bots import BOT_KINDS, Bot, act, make_bot
from upriver.cards import Card
from upriver.cli import tui
from upriver.cli.lang import LangOption, translator
from upriver.cli.options import NO_FLAGS, RuleFlags, with_rule_flags
from upriver.cli.root import app
from upriver.errors import IllegalActionError, RecordError, RulesError, UpriverError
from upriver.game import Game
from upriver.i18n import Translator, reason
from upriver.rules import DEFAULT_PRESET, PRESETS, Bidding

__all__ = ["play"]

EXTRA = "upriver_play"
"""The record's extra key that says who is the person and which bots play."""

BOT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
DEFAULT_SAVE = Path("upriver-game.json")


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Seating:
    """Who is who at the table: the person's seat and the kind of bots in the other seats."""

    human_seat: int
    bots: str
    seed: int

    def to_extras(self) -> dict[str, object]:
        """The record extras that restore this seating on ``--resume``."""
        return {"seed": self.seed, EXTRA: {"human_seat": self.human_seat, "bots": self.bots}}


class _StopError(Exception):
    """The sitting ends early: ``quit`` (``interrupted`` false), or Ctrl-C / end of input. Save and exit."""

    def __init__(self, *, interrupted: bool) -> None:
        super().__init__("interrupted" if interrupted else "quit")
        self.interrupted = interrupted


def _fail(message: str, t: Translator | None = None) -> typer.Exit:
    typer.echo((t or Translator("en"))("cli.error", message=message), err=True)
    return typer.Exit(2)


def refusal_line(error: IllegalActionError, t: Translator) -> str:
    """A refusal in ``t``'s language, with the rule's name, as rich markup: in English the engine's
    own sentence (it names the player), in another language worded from the rule and facts."""
    said = str(error) if t.lang == "en" else reason(t.lang, error.rule, error.facts_json())
    return f"[red]{escape(said)}[/red] [dim]{escape(t('play.rule', rule=error.rule))}[/dim]"


class Session:
    """One sitting of the terminal game: the game, the seating, the bots, the console and the save file."""

    def __init__(
        self,
        game: Game,
        seating: Seating,
        *,
        console: Console,
        save: Path,
        delay: float,
        extras: dict[str, object],
        t: Translator | None = None,
    ) -> None:
        self.t = t or Translator("en")
        self.game = game
        self.seating = seating
        self.console = console
        self.save_path = save
        self.delay = delay
        self.extras = {**extras, **seating.to_extras()}
        self.bots: dict[int, Bot] = {
            seat: make_bot(seating.bots, seed=seating.seed * 100 + seat, name=game.players[seat])
            for seat in range(len(game.players))
            if seat != seating.human_seat
        }

    @property
    def me(self) -> int:
        """The person's seat."""
        return self.seating.human_seat

    def save(self, path: Path | None = None) -> Path:
        """Write the game record so far to ``path`` (default: the save file)."""
        target = path or self.save_path
        records.dump(records.record_of(self.game, extras=self.extras), target)
        return target

    def pause(self) -> None:
        """Let a bot's move be seen before the next one."""
        if self.delay > 0:
            time.sleep(self.delay)

    # ------------------------------------------------------------------ loop

    def run(self, *, fresh: bool) -> None:
        """Play until the game is over, showing every move."""
        game, out = self.game, self.console
        if fresh and game.dealer_draw:
            out.print(tui.dealer_draw(game, self.t))
        announced = -1
        while not game.is_over:
            if game.phase is Phase.DEALING:
                game.auto_deal = True
                game.deal()
            if announced != game.round_number:
                announced = game.round_number
                out.rule()
                out.print(tui.round_header(game.view(self.me), self.t))
            if game.phase is Phase.BIDDING:
                self._bidding_turn()
            else:
                self._playing_turn()
        out.rule()
        out.print(tui.standings(game, self.t))
        out.print(self.t("play.saved", path=self.save()))

    def _bidding_turn(self) -> None:
        game = self.game
        simultaneous = game.rules.bidding is Bidding.SIMULTANEOUS
        seat = self.me if simultaneous and game.bids[self.me] is None else game.awaiting[0]
        restriction = game.bid_restriction(seat)
        results = len(game.results)
        if seat == self.me:
            view = game.view(self.me)
            self.console.print(tui.hand_panel(view, self.t))
            self.console.print(tui.bids_line(view, restriction, self.t))
            self._ask_bid()
        else:
            action = act(game, seat, self.bots[seat])
            assert isinstance(action, BidAction)
            if simultaneous:
                self.console.print(self.t("play.has_bid", name=game.players[seat]))
            else:
                note = (
                    ""
                    if restriction is None
                    else self.t("play.dealer_may_not", forbidden=tui.forbidden_text(restriction, self.t))
                )
                self.console.print(self.t("play.bids", name=game.players[seat], bid=action.bid) + note)
            self.pause()
        if len(game.results) > results:  # a blind round: its one trick played itself after the bids
            trick = game.last_trick
            assert trick is not None
            self.console.print(self.t("play.blind_reveal"))
            for who, card in trick.plays:
                self.console.print(f"{game.players[who]} ", tui.card_text(card), sep="")
            said = (
                self.t("play.you_win_trick")
                if trick.winner == self.me
                else self.t("play.wins_trick", name=game.players[trick.winner])
            )
            self.console.print(
                f"[bold]{escape(said)}[/bold] ", tui.card_text(dict(trick.plays)[trick.winner]), sep=""
            )
            self._round_over()
        elif game.phase is not Phase.BIDDING:
            self.console.print(tui.bids_line(game.view(self.me), t=self.t))

    def _playing_turn(self) -> None:
        game = self.game
        seat = game.to_act
        assert seat is not None
        results = len(game.results)
        leads = not game.trick
        if seat == self.me:
            view = game.view(self.me)
            self.console.print(tui.table_panel(view, self.t))
            self.console.print(tui.hand_panel(view, self.t))
            card = self._ask_card()
            if card is None:
                self._claim()
                return
        else:
            action = act(game, seat, self.bots[seat])
            assert isinstance(action, PlayAction)
            card = action.card
            verb = self.t("play.leads" if leads else "play.plays", name=game.players[seat])
            self.console.print(f"{verb} ", tui.card_text(card), sep="")
            self.pause()
        trick = game.last_trick
        if (seat, card) not in game.trick and trick is not None:
            # The card left the table, so it finished the trick the engine keeps as its last.
            winner = trick.winner
            won_with = dict(trick.plays)[winner]
            said = (
                self.t("play.you_win_trick")
                if winner == self.me
                else self.t("play.wins_trick", name=game.players[winner])
            )
            self.console.print(f"[bold]{escape(said)}[/bold] ", tui.card_text(won_with), sep="")
        if len(game.results) > results:
            self._round_over()

    def _round_over(self) -> None:
        result = self.game.results[-1]
        out = self.console
        out.print(f"[bold]{escape(self.t('play.round_over', number=result.number))}[/bold]")
        for seat, name in enumerate(self.game.players):
            bid, took, score = result.bids[seat], result.tricks_won[seat], result.scores[seat]
            verdict = self.t("play.made" if bid == took else "play.missed")
            line = self.t("play.round_line", name=name, bid=bid, took=took, verdict=verdict, score=score)
            out.print(escape(line))
        out.print(tui.score_sheet(self.game, viewer=self.me, t=self.t))

    # ----------------------------------------------------------------- input

    def _read(self, prompt: str) -> str | None:
        """One line of input; ``None`` when it was a command (save, help) already handled."""
        try:
            line = self.console.input(f"[bold green]{prompt}[/bold green] ").strip()
        except (EOFError, KeyboardInterrupt):
            raise _StopError(interrupted=True) from None
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            raise _StopError(interrupted=False)
        if command in ("help", "h"):
            self.console.print(escape(self.t("play.help")), highlight=False)
            return None
        if command == "?":
            self._hint()
            return None
        if command == "save":
            try:
                where = self.save(Path(rest.strip()) if rest.strip() else None)
            except OSError as error:
                self.console.print(f"[red]{escape(self.t('play.not_saved', error=error))}[/red]")
            else:
                self.console.print(escape(self.t("play.saved", path=where)))
            return None
        return line

    def _hint(self) -> None:
        """Show the expert's suggested move for the person's seat (the search sees only its view)."""
        from upriver.bots.hint import hint  # the search loads the compiled kernel: only when asked

        view = self.game.view(self.me)
        if not view.my_turn:
            self.console.print(self.t("play.nothing_to_decide"))
            return
        self.console.print(tui.hint_line(hint(view, seed=self.seating.seed), view, self.t))

    def _ask_bid(self) -> None:
        game = self.game
        size = game.hand_size
        while True:
            line = self._read(escape(self.t("play.ask_bid", size=size)))
            if line is None:
                continue
            try:
                bid = int(line)
            except ValueError:
                self.console.print(f"[red]{escape(self.t('play.bad_bid', size=size))}[/red]")
                continue
            try:
                game.check_bid(bid, seat=self.me)
            except IllegalActionError as error:
                self.console.print(refusal_line(error, self.t))
                continue
            game.bid(bid, seat=self.me)
            return

    def _claim(self) -> None:
        """Finish the round by the person's claim (checked): their cards shown, then the round's end."""
        left = self.game.hand_size - len(self.game.tricks)
        claim = self.game.claim(self.me)
        self.console.print(
            f"[bold]{escape(self.t('play.you_claim'))}[/bold]",
            *(tui.card_text(card) for card in tui.in_display_order(claim.cards)),
        )
        self.console.print(escape(self.t("play.you_take_all", tricks=left)))
        self._round_over()

    def _ask_card(self) -> Card | None:
        """The card the person plays (made), or ``None`` when they claim the rest of the round instead,
        offered when the engine says the claim holds (:meth:`Game.can_claim`) and two cards or more
        are left."""
        game = self.game
        legal = tui.in_display_order(game.legal_cards(self.me))
        if len(game.hand(self.me)) > 1 and game.can_claim(self.me):
            self.console.print(f"[cyan]{escape(self.t('play.can_claim'))}[/cyan]")
        while True:
            line = self._read(escape(self.t("play.ask_card", count=len(legal))))
            if line is None:
                continue
            if line.lower() == "claim":
                try:
                    game.check_claim(self.me)
                except IllegalActionError as error:
                    self.console.print(refusal_line(error, self.t))
                    continue
                return None
            card: Card | str = line
            if line.isdigit():
                number = int(line)
                if not 1 <= number <= len(legal):
                    self.console.print(f"[red]{escape(self.t('play.bad_number', count=len(legal)))}[/red]")
                    continue
                card = legal[number - 1]
            try:
                game.check_play(card, seat=self.me)
            except IllegalActionError as error:
                self.console.print(refusal_line(error, self.t))
                continue
            return game.play(card, seat=self.me).card


def _load(path: Path) -> tuple[Game, Seating, dict[str, object]]:
    """The game, seating and extras of a saved record; raises :class:`UpriverError` or ``OSError``."""
    saved = records.load(path)
    extras = dict(saved.extras)
    info = extras.get(EXTRA)
    seed = extras.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = secrets.randbelow(2**31)
    human, bots = 0, "basic"
    if isinstance(info, dict):
        seat = info.get("human_seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(saved.players):
            human = seat
        kind = info.get("bots")
        if isinstance(kind, str) and kind in BOT_KINDS:
            bots = kind
    game = records.replay(saved, seed=seed)
    return game, Seating(human_seat=human, bots=bots, seed=seed), extras


def _names(players: int, seat: int, name: str) -> list[str]:
    others = iter(bot for bot in BOT_NAMES if bot.lower() != name.lower())
    return [name if s == seat else next(others) for s in range(players)]


@app.command()
@with_rule_flags
def play(
    preset_name: Annotated[
        str, typer.Option("--preset", help=f"Rule set: {', '.join(PRESETS)}.", show_default=True)
    ] = DEFAULT_PRESET,
    rule_flags: RuleFlags = NO_FLAGS,
    players: Annotated[int, typer.Option(help="Players at the table, you included.")] = 4,
    seat: Annotated[int, typer.Option(help="Your seat, 1 to the number of players.")] = 1,
    name: Annotated[
        str | None, typer.Option(help="Your name at the table (default: 'You', in the game's language).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help=f"Kind of bots in the other seats: {', '.join(BOT_KINDS)}.")
    ] = "basic",
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deals and the bots (random if not given).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Where to save the game (default: upriver-game.json, or the resumed file)."),
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue a game saved by upriver play.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each bot move.")] = 0.4,
    lang: LangOption = None,
) -> None:
    """Play Up and Down the River in the terminal against bots."""
    t = translator(lang)
    console = Console(highlight=False, soft_wrap=True)
    if resume is not None:
        try:
            game, seating, extras = _load(resume)
        except (UpriverError, OSError) as error:
            raise _fail(t("play.cannot_resume", path=resume, error=error), t) from None
        save_path = save or resume
        console.print(
            escape(t("play.resuming", path=resume, round=game.round_number, rounds=game.rules.rounds))
        )
    else:
        kind = bots.strip().lower()
        if kind not in BOT_KINDS:
            raise _fail(t("play.unknown_bot", kind=repr(bots), kinds=", ".join(BOT_KINDS)), t)
        try:
            rules = rule_flags.rules(preset_name, players)
        except RulesError as error:
            raise _fail(str(error), t) from None
        if not 1 <= seat <= players:
            raise _fail(t("play.seat_range", players=players, seat=seat), t)
        if seed is None:
            seed = secrets.randbelow(2**31)
        seating = Seating(human_seat=seat - 1, bots=kind, seed=seed)
        game = Game(rules, _names(players, seat - 1, t("play.you") if name is None else name), seed=seed)
        extras = {}
        save_path = save or DEFAULT_SAVE
        rules_words = t(f"preset.{preset_name}") if t.has(f"preset.{preset_name}") else preset_name
        console.print(escape(t("play.new_game", seed=seed, preset=rules_words, players=players, bots=kind)))
    session = Session(game, seating, console=console, save=save_path, delay=delay, extras=extras, t=t)
    try:
        try:
            session.run(fresh=resume is None)
        except KeyboardInterrupt:
            # Ctrl-C while a bot's move is on show: every move is applied whole, so the game is consistent.
            raise _StopError(interrupted=True) from None
    except _StopError as stop:
        console.print()
        try:
            where = session.save()
        except OSError as error:
            console.print(f"[red]{escape(t('play.not_saved', error=error))}[/red]")
            raise typer.Exit(1) from None
        console.print(escape(t("play.saved_continue", path=where)))
        raise typer.Exit(130 if stop.interrupted else 0) from None
    except RecordError as error:  # pragma: no cover - a save that cannot be written as a record
        raise _fail(str(error), t) from None
