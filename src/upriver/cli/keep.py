"""`upriver keep`: the score sheet of a game played with real cards, in the terminal.

The keeper types the bids as they are called and the tricks after each hand; the
sheet (:mod:`upriver.keeper`) checks them with the engine, scores them and says who
deals and who bids first. Every entry is saved at once to the web app's SQLite file,
so ``--resume ID`` (or the page ``/keep/ID`` of ``upriver serve``) carries on.
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
from upriver.cli.options import (
    BiddingOption,
    DealerBidOption,
    MaxCardsOption,
    ScheduleOption,
    ScoringOption,
    TrumpLeadOption,
    build_rules,
)
from upriver.cli.root import app
from upriver.errors import IllegalActionError, NotationError, RecordError, RulesError
from upriver.keeper import JACK_FROM, KeptSheet, split_names
from upriver.keeper.store import KeeperStore, StoredSheet, UnreadableSheetError
from upriver.names import PlayerNameError
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Bidding

__all__ = ["keep"]

HELP = """At a prompt, type what it asks for, or a command:
  trump S       note this round's trump suit (C D H S, or none)
  edit N        change round N's bids or tricks; everything after is re-scored
  dealer NAME   change who dealt the first round
  undo          take back the last entry
  sheet         show the score sheet
  export csv FILE | export record FILE
  help          this text
  quit          leave (everything is already saved)"""


class _QuitError(Exception):
    """The keeper leaves: ``quit`` or end of input. Everything is saved already."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(2)


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

    def __init__(self, stored: StoredSheet, store: KeeperStore, console: Console) -> None:
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

    def _apply(self, label: str, change: Callable[[], None]) -> bool:
        """Run ``change`` on the sheet and save it; show the engine's refusal instead."""
        try:
            change()
        except IllegalActionError as error:
            self.console.print(f"[red]{escape(str(error))}[/red] [dim](rule: {error.rule})[/dim]")
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
        cards = f"{sheet.hand_size} card{'' if sheet.hand_size == 1 else 's'}"
        out.rule(f"Round {sheet.current} of {sheet.rules.rounds}: {cards}")
        noted = "not noted (type trump S)" if trump is None else f"{trump.symbol} {trump.name.lower()}"
        out.print(
            f"{names[sheet.dealer]} deals; {names[sheet.bidding_order[0]]} bids first ({order}). "
            f"Trump: {noted}",
            highlight=False,
        )

    def show_bids(self) -> None:
        sheet = self.sheet
        said = ", ".join(f"{sheet.players[s]} {sheet.bids[s]}" for s in sheet.bidding_order)
        total = sum(b or 0 for b in sheet.bids)
        self.console.print(f"Bids: {said}: {total} bid for {sheet.hand_size}.", highlight=False)

    def show_sheet(self) -> None:
        sheet = self.sheet.score_sheet
        self.console.print(sheet.table(dealers=True))
        self.console.print(sheet.headline, markup=False)

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
        names = sheet.players
        if sheet.phase == "jack":
            self.console.print(
                f"Deal cards face up, one at a time, starting with {names[JACK_FROM]} and going clockwise, "
                "until a Jack shows. The player dealt the first Jack deals the first round."
            )
            return "Who got the first Jack?"
        if sheet.phase == "flagged" and sheet.flag is not None:
            self.console.print(
                f"[bold red]Round {sheet.flag.round} needs fixing:[/bold red] {escape(sheet.flag.message)}"
            )
            return f"Type edit {sheet.flag.round}, or undo:"
        if sheet.phase == "over":
            self.console.print(f"[bold]Game over.[/bold] {escape(sheet.headline)}.")
            return "edit N, undo, export, or quit:"
        if sheet.phase == "tricks":
            return f"Tricks taken ({' '.join(names)}), adding up to {sheet.hand_size}:"
        if sheet.rules.bidding is Bidding.SIMULTANEOUS:
            return f"Bids shown together ({' '.join(names)}), each 0–{sheet.hand_size}:"
        seat = sheet.to_bid[0]
        restriction = sheet.bid_restriction()
        if restriction is not None:
            struck = " ".join(f"[strike]{b}[/strike]" for b in restriction.forbidden)
            self.console.print(f"  {escape(names[seat])} may not bid {struck}: {escape(restriction.reason)}")
        return f"{names[seat]} bids (0–{sheet.hand_size}):"

    def _entry(self, line: str) -> None:
        sheet = self.sheet
        if sheet.phase == "jack":
            jack = seat_of(sheet.players, line)
            if jack is None:
                self.console.print(f"[red]Type one of {', '.join(sheet.players)} (or a seat number).[/red]")
                return
            if self._apply("first jack", lambda: sheet.first_jack(jack)):
                self.console.print(f"{sheet.players[jack]} got the first Jack and deals the first round.")
            return
        if sheet.phase in ("flagged", "over"):
            self.console.print("[red]Type a command (help lists them).[/red]")
            return
        values = _numbers(line)
        if values is None:
            self.console.print("[red]Type whole numbers, or a command (help lists them).[/red]")
            return
        if sheet.phase == "tricks":
            self._apply("tricks", lambda: sheet.enter_tricks(values))
        elif sheet.rules.bidding is Bidding.SIMULTANEOUS or len(values) > 1:
            self._apply("bids", lambda: sheet.enter_bids(values))
        else:
            seat = sheet.to_bid[0]
            if self._apply("bid", lambda: sheet.enter_bid(seat, values[0])):
                self.console.print(f"{sheet.players[seat]} bids {values[0]}.")

    def _command(self, line: str) -> bool:
        """Handle a command; ``False`` if the line is not one."""
        word, _, rest = line.partition(" ")
        command, rest = word.lower(), rest.strip()
        sheet = self.sheet
        if command in ("quit", "exit", "q"):
            raise _QuitError
        if command in ("help", "?"):
            self.console.print(HELP, highlight=False, markup=False)
        elif command == "sheet":
            self.show_sheet()
        elif command == "undo":
            if self._apply("undo", sheet.undo):
                self.console.print("Undone.")
                self.show_sheet()
        elif command == "trump":
            self._trump(rest)
        elif command == "dealer":
            seat = seat_of(sheet.players, rest)
            if seat is None:
                self.console.print(f"[red]dealer NAME, with NAME one of {', '.join(sheet.players)}.[/red]")
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
                self.console.print(f"[red]{escape(str(error))}, or none[/red]")
                return
        sheet = self.sheet
        if self._apply("trump", lambda: sheet.note_trump(suit)):
            self.console.print(
                "Trump: " + ("none noted" if suit is None else f"{suit.symbol} {suit.name.lower()}")
            )

    def _edit(self, text: str) -> None:
        sheet = self.sheet
        rows = sheet.entries.rounds
        if not text.isdigit() or not 1 <= int(text) <= len(rows):
            self.console.print(
                f"[red]edit N, with N a round from 1 to {len(rows)}.[/red]"
                if rows
                else "[red]No round to edit yet.[/red]"
            )
            return
        number = int(text)
        entered = rows[number - 1]
        names = " ".join(sheet.players)

        def ask(what: str, now: tuple[int | None, ...] | None) -> list[int] | None:
            shown = "–" if now is None else " ".join("·" if v is None else str(v) for v in now)
            while True:
                answer = self._read(f"Round {number} {what} ({names}) [now {shown}; Enter keeps]:")
                if not answer:
                    return None
                values = _numbers(answer)
                if values is not None:
                    return values
                self.console.print("[red]Type whole numbers in seat order, or press Enter.[/red]")

        bids = ask("bids", entered.bids)
        tricks = ask("tricks", entered.tricks) if entered.tricks is not None else None
        if bids is None and tricks is None:
            self.console.print("Nothing changed.")
            return
        if self._apply(f"edit {number}", lambda: sheet.edit_round(number, bids=bids, tricks=tricks)):
            self.console.print(f"Round {number} changed; the sheet is re-scored.")
            self.show_sheet()

    def _export(self, text: str) -> None:
        kind, _, target = text.partition(" ")
        if kind not in ("csv", "record") or not target.strip():
            self.console.print("[red]export csv FILE, or export record FILE[/red]")
            return
        body = self.sheet.to_csv() if kind == "csv" else records.dumps(self.sheet.to_record())
        try:
            Path(target.strip()).write_text(body, encoding="utf-8")
        except OSError as error:
            self.console.print(f"[red]Could not write {escape(target)}: {escape(str(error))}[/red]")
            return
        self.console.print(f"Exported the {kind} to {target.strip()}")


def _list(store: KeeperStore, console: Console) -> None:
    sheets = store.sheets()
    if not sheets:
        console.print('No sheets yet. Start one with: upriver keep --players "Ann,Bob,Cid,Dee"')
        return
    table = Table(box=None, header_style="bold underline")
    for column in ("id", "title", "players", "rounds", "standing"):
        table.add_column(column)
    for s in sheets:
        standing = s.headline if s.problem is None else f"[red]cannot be opened: {escape(s.problem)}[/red]"
        table.add_row(s.id, escape(s.title), escape(", ".join(s.players)), f"{s.round}/{s.rounds}", standing)
    console.print(table)


@app.command()
def keep(
    players: Annotated[
        str | None,
        typer.Option(
            help=f'Players in seating order, clockwise: "Ann,Bob,Cid,Dee" ({MIN_PLAYERS} to {MAX_PLAYERS}).',
        ),
    ] = None,
    preset_name: Annotated[
        str, typer.Option("--preset", help=f"Rule set: {', '.join(PRESETS)}.")
    ] = "countdown",
    schedule: ScheduleOption = None,
    max_cards: MaxCardsOption = None,
    bidding: BiddingOption = None,
    dealer_bid: DealerBidOption = None,
    trump_lead: TrumpLeadOption = None,
    scoring: ScoringOption = None,
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
) -> None:
    """Keep the score of a game played with real cards: bids, tricks, totals, the dealer's rule."""
    from upriver.cli.serve import default_db

    console = Console(highlight=False, soft_wrap=True)
    store = KeeperStore(db if db is not None else default_db())
    try:
        if list_sheets:
            _list(store, console)
            return
        if resume is not None:
            try:
                stored = store.load(resume)
            except UnreadableSheetError as error:
                raise _fail(str(error)) from None
            if stored is None:
                raise _fail(f"no sheet {resume!r} in {store.path}; see upriver keep --list")
            console.print(f"Resuming sheet {stored.id}: {', '.join(stored.sheet.players)}.")
        else:
            if import_file is not None:
                try:
                    sheet = KeptSheet.from_record(records.load(import_file))
                except RecordError as error:
                    raise _fail(f"{import_file}: not a game record: {error}") from None
                except records.RecordRuleError as error:
                    raise _fail(f"{import_file}: rule broken: {error}") from None
            else:
                sheet = _new_sheet(
                    console,
                    players,
                    preset_name,
                    dict(
                        schedule=schedule,
                        max_cards=max_cards,
                        bidding=bidding,
                        dealer_bid=dealer_bid,
                        trump_lead=trump_lead,
                        scoring=scoring,
                    ),
                    dealer,
                    first_jack,
                    title,
                )
            stored = store.create(sheet)
            console.print(f"New sheet {stored.id}, saved in {store.path} as you go.")
        keeper = Keeper(stored, store, console)
        if keeper.sheet.entries.rounds:
            keeper.show_sheet()
        try:
            keeper.run()
        except _QuitError:
            console.print()
        console.print(
            f"Sheet {keeper.stored.id} is saved. Carry on with: upriver keep --resume {keeper.stored.id} "
            f"(or /keep/{keeper.stored.id} in upriver serve)."
        )
    finally:
        store.close()


def _new_sheet(
    console: Console,
    players: str | None,
    preset_name: str,
    options: dict[str, object],
    dealer: str | None,
    first_jack: bool,
    title: str,
) -> KeptSheet:
    if players is None:
        try:
            players = console.input("Players in seating order, clockwise (e.g. Ann,Bob,Cid,Dee): ")
        except (EOFError, KeyboardInterrupt):
            raise typer.Exit(1) from None
    names = split_names(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _fail(f"a sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if dealer is not None and first_jack:
        raise _fail("give --dealer or --first-jack, not both")
    try:
        rules = build_rules(preset_name, len(names), **options)  # type: ignore[arg-type]
    except RulesError as error:
        raise _fail(str(error)) from None
    seat = None
    if dealer is not None:
        seat = seat_of(names, dealer)
        if seat is None:
            raise _fail(f"--dealer {dealer!r} is none of {', '.join(names)}")
    try:
        return KeptSheet.start(
            names, rules, dealer=seat, first_jack=True if first_jack else None, title=title
        )
    except (PlayerNameError, RulesError, ValueError) as error:  # a name, the count, the dealer
        raise _fail(str(error)) from None
