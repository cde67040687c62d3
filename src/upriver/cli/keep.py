"""`upriver keep`: the score sheet of a game played with real cards, in the terminal.

The keeper types the bids as they are called and the tricks after each hand; the
sheet (:mod:`upriver.keeper`) checks them with the engine, scores them and says who
deals and who bids first. Every entry is saved at once to the web app's SQLite file,
so ``--resume ID`` (or the page ``/keep/ID`` of ``upriver serve``) carries on.
``--lang`` (default: from ``$LANGUAGE``/``$LANG``) chooses the language of its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from upriver import record as records
from upriver.cards import Suit
from upriver.cli import tui
from upriver.cli.keep_evening import evening_command, evening_notes, evening_table, names_of, seat_values
from upriver.cli.lang import LangOption, translator
from upriver.cli.options import NO_FLAGS, RuleFlags, with_rule_flags
from upriver.cli.root import app
from upriver.errors import IllegalActionError, NotationError, RecordError, RulesError, json_facts
from upriver.i18n import Translator, reason, restriction_reason, spoken_list
from upriver.keeper import JACK_FROM, KeptSheet, split_names
from upriver.keeper.store import SqliteSheetStore, StoredSheet, UnreadableSheetError
from upriver.names import PlayerNameError
from upriver.rules import DEFAULT_PRESET, MAX_PLAYERS, MIN_PLAYERS, PRESETS, Bidding

__all__ = ["keep"]


class _QuitError(Exception):
    """The keeper leaves: ``quit`` or end of input. Everything is saved already."""


def _fail(message: str, t: Translator) -> typer.Exit:
    typer.echo(t("cli.error", message=message), err=True)
    return typer.Exit(2)


def refusal_words(error: IllegalActionError, players: tuple[str, ...], t: Translator) -> str:
    """A refusal at the sheet in ``t``'s language: in English the engine's sentence, else worded
    from its rule and facts (a dealer's bid naming the player, as the keeper enters it for them)."""
    if t.lang == "en":
        return str(error)
    facts = json_facts(dict(error.facts))
    assert isinstance(facts, dict)
    if error.rule in ("hook", "overbid") and error.seat is not None:
        why = restriction_reason(t.lang, {"rule": error.rule, **facts})
        return t("keep.may_not_bid", name=players[error.seat], struck=facts.get("bid", "?"), why=why)
    return reason(t.lang, error.rule, facts)


def _numbers(text: str) -> list[int] | None:
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words or not all(re.fullmatch(r"\d+", w) for w in words):
        return None
    return [int(w) for w in words]


def seat_of(players: tuple[str, ...], text: str) -> int | None:
    """A seat from a name (any case, or an unambiguous start) or a number 1–n; ``None`` if none fits."""
    key = text.strip().lower()
    if key.isdigit() and 1 <= int(key) <= len(players):
        return int(key) - 1
    exact = [s for s, name in enumerate(players) if name.lower() == key]
    if exact:
        return exact[0]
    starts = [s for s, name in enumerate(players) if key and name.lower().startswith(key)]
    return starts[0] if len(starts) == 1 else None


class Keeper:
    """One sitting at the sheet: read a line, apply it, save, show what comes next."""

    def __init__(
        self, stored: StoredSheet, store: SqliteSheetStore, console: Console, t: Translator | None = None
    ) -> None:
        self.t = t or Translator("en")
        self.stored = stored
        self.store = store
        self.console = console

    @property
    def sheet(self) -> KeptSheet:
        return self.stored.sheet

    def _read(self, prompt: str) -> str:
        try:
            return self.console.input(f"[bold green]{escape(prompt)}[/bold green] ").strip()
        except (EOFError, KeyboardInterrupt):
            raise _QuitError from None

    def ask(self, prompt: str) -> str:
        """A line typed at ``prompt`` (the evening's questions, :mod:`upriver.cli.keep_evening`)."""
        return self._read(prompt)

    def apply(self, label: str, change: Callable[[], None]) -> bool:
        """:meth:`_apply`, for the evening's commands."""
        return self._apply(label, change)

    def find(self, text: str) -> int | None:
        """The seat ``text`` names, or ``None`` having said which names there are."""
        seat = seat_of(self.sheet.players, text)
        if seat is None:
            said = self.t("keep.type_one_of", names=spoken_list(self.t.lang, self.sheet.players))
            self.console.print(f"[red]{escape(said)}[/red]")
        return seat

    def _apply(self, label: str, change: Callable[[], None]) -> bool:
        """Run ``change`` on the sheet and save it; show the engine's refusal instead."""
        try:
            change()
        except IllegalActionError as error:
            said = refusal_words(error, self.sheet.players, self.t)
            self.console.print(
                f"[red]{escape(said)}[/red] [dim]{escape(self.t('play.rule', rule=error.rule))}[/dim]"
            )
            return False
        self.stored = self.store.save(self.stored, self.sheet, label)
        return True

    def show_round(self) -> None:
        sheet, out = self.sheet, self.console
        if sheet.phase in ("jack", "flagged", "over") or sheet.dealer is None:
            return
        names = sheet.players
        order = " → ".join(names[s] for s in sheet.bidding_order)
        trump = sheet.trump
        t = self.t
        out.rule(
            escape(t("keep.round", round=sheet.current, rounds=len(sheet.schedule), size=sheet.hand_size))
        )
        noted = t("keep.trump_not_noted") if trump is None else tui.suit_text(trump, t).plain
        said = t(
            "keep.deals",
            dealer=names[sheet.dealer],
            first=names[sheet.bidding_order[0]],
            order=order,
            trump=noted,
        )
        out.print(escape(said), highlight=False)

    def show_bids(self) -> None:
        sheet = self.sheet
        said = ", ".join(f"{sheet.players[s]} {sheet.bids[s]}" for s in sheet.bidding_order)
        total = sum(b or 0 for b in sheet.bids)
        line = self.t("keep.bids_so_far", said=said, total=total, size=sheet.hand_size)
        self.console.print(line, highlight=False, markup=False)

    def show_sheet(self) -> None:
        """The sheet as an evening (who sat out, who came and went), its changes, and who leads."""
        self.console.print(evening_table(self.sheet, self.t))
        for line in evening_notes(self.sheet, self.t):
            self.console.print(f"  {escape(line)}", highlight=False)
        self.console.print(tui.headline(self.sheet.score_sheet, self.t), markup=False)

    def run(self) -> None:
        """Ask for entries until the keeper quits or the input ends."""
        shown: tuple[int, str] | None = None
        while True:
            sheet = self.sheet
            where = (sheet.current, sheet.phase)
            if where != shown:
                if (
                    shown is None
                    or where[0] != shown[0]
                    or "jack" in shown
                    or sheet.phase in ("flagged", "over")
                ):
                    if shown is not None and sheet.entries.rounds:
                        self.show_sheet()
                    self.show_round()
                if sheet.phase == "tricks":
                    self.show_bids()
                shown = where
            line = self._read(self._prompt())
            if not line:
                continue
            if not self._command(line):
                self._entry(line)

    def _prompt(self) -> str:
        sheet = self.sheet
        names, t = sheet.players, self.t
        if sheet.phase == "jack":
            self.console.print(escape(t("keep.jack_intro", name=names[JACK_FROM])))
            return t("keep.who_jack")
        if sheet.phase == "flagged" and sheet.flag is not None:
            flag = sheet.flag
            said = flag.message if t.lang == "en" else reason(t.lang, flag.rule, json_facts(dict(flag.facts)))  # type: ignore[arg-type]
            head = escape(t("keep.needs_fixing", round=flag.round))
            self.console.print(f"[bold red]{head}[/bold red] {escape(said)}")
            return t("keep.type_edit", round=flag.round)
        if sheet.phase == "over":
            headline = tui.headline(sheet.score_sheet, t)
            self.console.print(f"[bold]{escape(t('keep.game_over'))}[/bold] {escape(headline)}.")
            return t("keep.over_prompt")
        playing = names_of(sheet, sheet.current)
        if sheet.phase == "tricks":
            return t("keep.tricks_prompt", names=playing, size=sheet.hand_size)
        if sheet.rules.bidding is Bidding.SIMULTANEOUS:
            return t("keep.bids_together", names=playing, size=sheet.hand_size)
        seat = sheet.to_bid[0]
        restriction = sheet.bid_restriction()
        if restriction is not None:
            struck = " ".join(f"[strike]{b}[/strike]" for b in restriction.forbidden)
            why = restriction_reason(t.lang, restriction.to_json())
            line = t("keep.may_not_bid", name=escape(names[seat]), struck=struck, why=escape(why))
            self.console.print(f"  {line}")
        return t("keep.bid_prompt", name=names[seat], size=sheet.hand_size)

    def _entry(self, line: str) -> None:
        sheet = self.sheet
        if sheet.phase == "jack":
            jack = seat_of(sheet.players, line)
            if jack is None:
                said = self.t("keep.type_one_of", names=spoken_list(self.t.lang, sheet.players))
                self.console.print(f"[red]{escape(said)}[/red]")
                return
            if self._apply("first jack", lambda: sheet.first_jack(jack)):
                self.console.print(escape(self.t("keep.got_jack", name=sheet.players[jack])))
            return
        if sheet.phase in ("flagged", "over"):
            self.console.print(f"[red]{escape(self.t('keep.type_command'))}[/red]")
            return
        values = _numbers(line)
        if values is None:
            self.console.print(f"[red]{escape(self.t('keep.type_numbers'))}[/red]")
            return
        spread = seat_values(sheet, sheet.current, values)
        if sheet.phase == "tricks":
            self._apply("tricks", lambda: sheet.enter_tricks(spread))
        elif sheet.rules.bidding is Bidding.SIMULTANEOUS or len(values) > 1:
            self._apply("bids", lambda: sheet.enter_bids(spread))
        else:
            seat = sheet.to_bid[0]
            if self._apply("bid", lambda: sheet.enter_bid(seat, values[0])):
                self.console.print(escape(self.t("keep.bids", name=sheet.players[seat], bid=values[0])))

    def _command(self, line: str) -> bool:
        """Handle a command; ``False`` if the line is not one."""
        word, _, rest = line.partition(" ")
        command, rest = word.lower(), rest.strip()
        sheet = self.sheet
        if command in ("quit", "exit", "q"):
            raise _QuitError
        if command in ("help", "?"):
            self.console.print(self.t("keep.help"), highlight=False, markup=False)
            self.console.print(self.t("keep.help_evening"), highlight=False, markup=False)
        elif evening_command(self, command, rest):
            pass
        elif command == "sheet":
            self.show_sheet()
        elif command == "undo":
            if self._apply("undo", sheet.undo):
                self.console.print(escape(self.t("keep.undone")))
                self.show_sheet()
        elif command == "trump":
            self._trump(rest)
        elif command == "dealer":
            seat = seat_of(sheet.players, rest)
            if seat is None:
                said = self.t("keep.dealer_usage", names=", ".join(sheet.players))
                self.console.print(f"[red]{escape(said)}[/red]")
            else:
                self._apply("first dealer", lambda: sheet.set_first_dealer(seat))
        elif command == "edit":
            self._edit(rest)
        elif command == "export":
            self._export(rest)
        else:
            return False
        return True

    def _trump(self, text: str) -> None:
        suit: Suit | None = None
        if text.lower() not in ("none", "no", "-", "–"):
            try:
                suit = Suit.parse(text)
            except NotationError as error:
                said = f"{error}, or none" if self.t.lang == "en" else self.t("keep.suit_usage")
                self.console.print(f"[red]{escape(said)}[/red]")
                return
        sheet = self.sheet
        if self._apply("trump", lambda: sheet.note_trump(suit)):
            noted = self.t("keep.none_noted") if suit is None else tui.suit_text(suit, self.t).plain
            self.console.print(escape(self.t("keep.trump_noted", trump=noted)))

    def _edit(self, text: str) -> None:
        sheet = self.sheet
        rows = sheet.entries.rounds
        if not text.isdigit() or not 1 <= int(text) <= len(rows):
            said = self.t("keep.edit_usage", count=len(rows)) if rows else self.t("keep.no_round")
            self.console.print(f"[red]{escape(said)}[/red]")
            return
        number = int(text)
        entered = rows[number - 1]
        names = names_of(sheet, number)
        playing = sheet.playing(number)

        def ask(what: str, now: tuple[int | None, ...] | None) -> list[int | None] | None:
            values_now = None if now is None else [now[s] if s < len(now) else None for s in playing]
            shown = "–" if values_now is None else " ".join("·" if v is None else str(v) for v in values_now)
            while True:
                answer = self._read(self.t(f"keep.edit_{what}", number=number, names=names, shown=shown))
                if not answer:
                    return None
                values = _numbers(answer)
                if values is not None:
                    return seat_values(sheet, number, values)
                self.console.print(f"[red]{escape(self.t('keep.seat_order'))}[/red]")

        bids = ask("bids", entered.bids)
        tricks = ask("tricks", entered.tricks) if entered.tricks is not None else None
        if bids is None and tricks is None:
            self.console.print(escape(self.t("keep.nothing_changed")))
            return
        if self._apply(f"edit {number}", lambda: sheet.edit_round(number, bids=bids, tricks=tricks)):
            self.console.print(escape(self.t("keep.round_changed", number=number)))
            self.show_sheet()

    def _export(self, text: str) -> None:
        kind, _, target = text.partition(" ")
        if kind not in ("csv", "record") or not target.strip():
            self.console.print(f"[red]{escape(self.t('keep.export_usage'))}[/red]")
            return
        body = self.sheet.to_csv() if kind == "csv" else records.dumps(self.sheet.to_record())
        try:
            Path(target.strip()).write_text(body, encoding="utf-8")
        except OSError as error:
            said = self.t("keep.not_written", path=target, error=error)
            self.console.print(f"[red]{escape(said)}[/red]")
            return
        done = self.t("keep.exported_csv" if kind == "csv" else "keep.exported_record", path=target.strip())
        self.console.print(escape(done))


def _list(store: SqliteSheetStore, console: Console, t: Translator) -> None:
    sheets = store.sheets()
    if not sheets:
        console.print(escape(t("keep.no_sheets")))
        return
    table = Table(box=None, header_style="bold underline")
    for column in (
        "keep.col_id",
        "keep.col_title",
        "keep.col_players",
        "keep.col_rounds",
        "keep.col_standing",
    ):
        table.add_column(t(column))
    for s in sheets:
        problem = f"[red]{escape(t('keep.cannot_open', problem=s.problem))}[/red]"
        standing = s.headline if s.problem is None else problem
        table.add_row(s.id, escape(s.title), escape(", ".join(s.players)), f"{s.round}/{s.rounds}", standing)
    console.print(table)


@app.command()
@with_rule_flags
def keep(
    players: Annotated[
        str | None,
        typer.Option(
            help=f'Players in seating order, clockwise: "Ann,Bob,Cid,Dee" ({MIN_PLAYERS} to {MAX_PLAYERS}).',
        ),
    ] = None,
    preset_name: Annotated[
        str, typer.Option("--preset", help=f"Rule set: {', '.join(PRESETS)}.")
    ] = DEFAULT_PRESET,
    rule_flags: RuleFlags = NO_FLAGS,
    dealer: Annotated[str | None, typer.Option(help="Who deals first: a name or seat number 1–n.")] = None,
    first_jack: Annotated[
        bool,
        typer.Option("--first-jack", help="Find the first dealer by dealing face up until a Jack shows."),
    ] = False,
    title: Annotated[str, typer.Option(help="A name for the sheet, e.g. the evening's date.")] = "",
    db: Annotated[
        Path | None,
        typer.Option(help="SQLite file of the sheets [default: the web app's, in the user data folder]."),
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="Carry on with the sheet of this id (see --list).")
    ] = None,
    import_file: Annotated[
        Path | None, typer.Option("--import", help="Start from a game record (JSON), e.g. an exported sheet.")
    ] = None,
    list_sheets: Annotated[bool, typer.Option("--list", help="List the stored sheets and leave.")] = False,
    export_static: Annotated[
        Path | None,
        typer.Option(
            "--export-static",
            metavar="DIR",
            help="Write the web keeper as static files for any web host (sheets kept on phones) and leave.",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Keep the score of a game played with real cards: bids, tricks, totals, the dealer's rule."""
    from upriver.cli.serve import default_db

    t = translator(lang)
    console = Console(highlight=False, soft_wrap=True)
    if export_static is not None:
        from upriver.web.keeper.offline import export_static as write_site

        written = write_site(export_static)
        console.print(escape(t("keep.exported_static", files=len(written), path=export_static)))
        return
    store = SqliteSheetStore(db if db is not None else default_db())
    try:
        if list_sheets:
            _list(store, console, t)
            return
        if resume is not None:
            try:
                stored = store.load(resume)
            except UnreadableSheetError as error:
                raise _fail(str(error), t) from None
            if stored is None:
                raise _fail(t("keep.no_sheet", id=repr(resume), path=store.path), t)
            console.print(escape(t("keep.resuming", id=stored.id, players=", ".join(stored.sheet.players))))
        else:
            if import_file is not None:
                try:
                    sheet = KeptSheet.from_record(records.load(import_file))
                except RecordError as error:
                    raise _fail(t("keep.not_record", path=import_file, error=error), t) from None
                except records.RecordRuleError as error:
                    raise _fail(t("keep.rule_broken", path=import_file, error=error), t) from None
            else:
                sheet = _new_sheet(
                    console,
                    players,
                    preset_name,
                    rule_flags,
                    dealer,
                    first_jack,
                    title,
                    t,
                )
            stored = store.create(sheet)
            console.print(escape(t("keep.new_sheet", id=stored.id, path=store.path)))
        keeper = Keeper(stored, store, console, t)
        if keeper.sheet.entries.rounds:
            keeper.show_sheet()
        try:
            keeper.run()
        except _QuitError:
            console.print()
        console.print(escape(t("keep.saved", id=keeper.stored.id)))
    finally:
        store.close()


def _new_sheet(
    console: Console,
    players: str | None,
    preset_name: str,
    rule_flags: RuleFlags,
    dealer: str | None,
    first_jack: bool,
    title: str,
    t: Translator,
) -> KeptSheet:
    if players is None:
        try:
            players = console.input(escape(t("keep.ask_players")))
        except (EOFError, KeyboardInterrupt):
            raise typer.Exit(1) from None
    names = split_names(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _fail(t("keep.player_count", min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(names)), t)
    if dealer is not None and first_jack:
        raise _fail(t("keep.dealer_or_jack"), t)
    try:
        rules = rule_flags.rules(preset_name, len(names))
    except RulesError as error:
        raise _fail(str(error), t) from None
    seat = None
    if dealer is not None:
        seat = seat_of(names, dealer)
        if seat is None:
            raise _fail(t("keep.dealer_none", dealer=repr(dealer), names=", ".join(names)), t)
    try:
        return KeptSheet.start(
            names, rules, dealer=seat, first_jack=True if first_jack else None, title=title
        )
    except (PlayerNameError, RulesError, ValueError) as error:  # a name, the count, the dealer
        raise _fail(str(error), t) from None
