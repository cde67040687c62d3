"""Rich renderables for the terminal game: cards in colour, the table, the hand, the score sheet.

Everything here draws from a :class:`~upriver.view.SeatView` or from public game
state; nothing decides a rule. Legality comes from the view's ``legal_bids`` and
``legal_cards``, which the engine computed. Each function takes ``t``, a
:class:`~upriver.i18n.Translator`, for the language of its words (English by default).
"""

from __future__ import annotations

from collections.abc import Iterable

from babel.numbers import format_decimal, format_percent
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from upriver.actions import Phase
from upriver.bots.hint import Hint
from upriver.cards import Card, Suit
from upriver.game import Game
from upriver.i18n import Translator, restriction_reason, spoken_list
from upriver.legality import BidRestriction
from upriver.rules import Bidding, Trump
from upriver.sheet import ScoreSheet, SheetCell
from upriver.view import SeatView

__all__ = [
    "ENGLISH",
    "bids_line",
    "card_text",
    "dealer_draw",
    "forbidden_text",
    "hand_panel",
    "headline",
    "hint_line",
    "round_header",
    "score_sheet",
    "sheet_table",
    "standings",
    "suit_text",
    "table_panel",
]


ENGLISH = Translator("en")
"""The default words: English."""


def _style(suit: Suit) -> str:
    return "bold red" if suit.is_red else "bold"


def card_text(card: Card) -> Text:
    """A card as ``Q♥``, red for hearts and diamonds."""
    return Text(card.symbol, style=_style(card.suit))


def suit_text(suit: Suit | None, t: Translator = ENGLISH) -> Text:
    """A suit symbol in its colour and its name (``♥ hearts``), or ``no trump``."""
    if suit is None:
        return Text(t("tui.no_trump"), style="italic")
    return Text(f"{suit.symbol} {t(f'suit.{suit.value}')}", style=_style(suit))


def dealer_draw(game: Game, t: Translator = ENGLISH) -> RenderableType:
    """The first-Jack draw: cards dealt face up one at a time until a Jack shows (the rule said
    above the panel, where a long sentence in any language wraps instead of being cut)."""
    lines: list[Text] = []
    for seat, card in game.dealer_draw:
        line = Text(f"  {game.players[seat]:<10} ") + card_text(card)
        if card is game.dealer_draw[-1][1]:
            line.append(t("tui.first_jack"), style="bold green")
        lines.append(line)
    return Group(Text(t("tui.draw")), Panel(Group(*lines), title=t("tui.choosing_dealer"), expand=False))


def round_header(view: SeatView, t: Translator = ENGLISH) -> RenderableType:
    """Round n/N, hand size, dealer and the turned card with its trump suit."""
    text = Text(t("tui.round", round=view.round_number, rounds=view.rules.rounds), style="bold")
    text.append(f" · {t('n.cards_each', count=view.hand_size)}")
    text.append(f" · {t('tui.dealer', name=view.players[view.dealer])}\n{t('tui.turned')}")
    if view.turned is not None:
        text.append_text(card_text(view.turned))
    else:
        text.append(t("tui.rotating" if view.rules.trump is Trump.ROTATE else "tui.nothing_turned"))
    text.append(f" · {t('tui.trump')}")
    text.append_text(suit_text(view.trump, t))
    return Panel(text, expand=False)


def bids_line(view: SeatView, restriction: BidRestriction | None = None, t: Translator = ENGLISH) -> Text:
    """The bids so far in bidding order (hidden ones as ``?``) and, when given, the dealer's restriction.

    ``restriction`` is the engine's :meth:`~upriver.Game.bid_restriction` for the bid to come.
    """
    text = Text(t("tui.bids"))
    parts = []
    for seat in view.bidding_order:
        bid = view.bids[seat]
        parts.append(f"{view.players[seat]} {'–' if bid is None else bid}")
    text.append(" · ".join(parts))
    if view.phase is Phase.BIDDING and view.rules.bidding is Bidding.SIMULTANEOUS:
        text.append(f"  {t('tui.closed_fists')}", style="dim")
    total = sum(bid for bid in view.bids if bid is not None)
    text.append(f"  {t('tui.total', total=total, size=view.hand_size)}")
    if restriction is not None:
        sentence = t(
            "restriction.dealer_may_not",
            name=view.players[restriction.seat],
            forbidden=forbidden_text(restriction, t),
            why=restriction_reason(t.lang, restriction.to_json()),
        )
        text.append(f"\n{sentence}", style="yellow")
    return text


def forbidden_text(restriction: BidRestriction, t: Translator = ENGLISH) -> str:
    """The forbidden bids in words (:func:`upriver.i18n.spoken_list`): ``2``, ``0 or 1``, ``0, 1 or 2``."""
    return spoken_list(t.lang, restriction.forbidden)


def table_panel(view: SeatView, t: Translator = ENGLISH) -> RenderableType:
    """Who bid what, who has won what, and the cards on the table in front of each player."""
    table = Table(
        title=t("tui.trick_of", number=len(view.tricks) + 1, count=view.hand_size), title_justify="left"
    )
    table.add_column(t("tui.player"))
    table.add_column(t("tui.bid"), justify="right")
    table.add_column(t("tui.won"), justify="right")
    table.add_column(t("tui.on_table"))
    on_table = dict(view.trick)
    for seat, name in enumerate(view.players):
        marks = []
        if seat == view.dealer:
            marks.append(t("tui.mark_dealer"))
        if seat == view.leader:
            marks.append(t("tui.mark_leads"))
        label = Text(name, style="bold cyan" if seat == view.seat else "")
        if marks:
            label.append(f" ({', '.join(marks)})", style="dim")
        bid = view.bids[seat]
        card = on_table.get(seat)
        table.add_row(
            label,
            "–" if bid is None else str(bid),
            str(view.tricks_won[seat]),
            card_text(card) if card is not None else Text("…" if seat == view.to_act else ""),
        )
    return table


def in_display_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards as the hand panel shows them: by suit, highest rank first; legal cards are numbered so."""
    return tuple(sorted(cards, key=lambda card: (card.suit.index, -card.rank)))


def hand_panel(view: SeatView, t: Translator = ENGLISH) -> RenderableType:
    """The seat's hand by suit; legal cards are numbered for quick entry, the others dimmed.

    In a blind round the seat holds its card to its forehead: the panel shows the others' cards.
    """
    numbers = {card: i for i, card in enumerate(in_display_order(view.legal_cards), start=1)}
    lines: list[Text] = []
    if view.foreheads:
        lines.append(Text(t("tui.blind"), style="italic"))
        for seat in view.bidding_order:
            card = view.foreheads[seat]
            if card is not None:
                lines.append(Text(f"{view.players[seat]} ").append_text(card_text(card)))
    for suit in Suit:
        cards = [card for card in view.hand if card.suit is suit]
        if not cards:
            continue
        line = Text(f"{suit.symbol} ", style=_style(suit))
        for card in in_display_order(cards):
            number = numbers.get(card)
            if number is None and view.legal_cards:
                line.append(f"{card.symbol} ", style="dim")
                continue
            if number is not None:
                line.append(f"[{number}]", style="green")
            line.append_text(card_text(card))
            line.append(" ")
        if suit is view.trump:
            line.append(f" {t('tui.trump_mark')}", style="italic yellow")
        lines.append(line)
    return Panel(Group(*lines), title=t("tui.your_hand", name=view.players[view.seat]), expand=False)


_NAME_WIDTH = 12
"""A player's column is 12 characters wide, so five players fit in 80 columns."""


def sheet_table(sheet: ScoreSheet, t: Translator = ENGLISH, *, dealers: bool = False) -> Table:
    """The score sheet as a table in ``t``'s language that fits 80 columns for up to five players.

    ``dealers`` adds a column naming each round's dealer (the score keeper's); a flagged
    round's note follows it on a line of its own.
    """
    table = Table(
        box=None,
        header_style="bold underline",
        padding=(0, 1, 0, 0),
        caption=t("sheet.caption"),
        caption_justify="left",
    )
    table.add_column(t("sheet.round"), justify="right")
    table.add_column(t("sheet.cards"), justify="right")
    if dealers:
        table.add_column(t("sheet.deals"))
    table.add_column(t("sheet.trump"), justify="center")
    for name in sheet.players:
        short = name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "…"
        # The keeper's sheet gives each column what it needs, so a note fits in one line.
        table.add_column(short, justify="right", width=None if dealers else _NAME_WIDTH, no_wrap=True)
    lead = 3 if dealers else 2
    for row in sheet.rows:
        dealer = [sheet.players[row.dealer][:8]] if dealers else []
        cells = (_sheet_cell(cell) for cell in row.cells)
        table.add_row(str(row.number), str(row.hand_size), *dealer, _sheet_trump(row.trump), *cells)
        if row.note is not None:
            table.add_row(*[""] * lead, "", Text(f"⚠ {row.note}", style="bold red"))
    return table


def _sheet_trump(suit: Suit | None) -> Text:
    if suit is None:
        return Text("–")
    return Text(suit.symbol, style="red" if suit.is_red else "")


def _sheet_cell(cell: SheetCell) -> Text:
    def shown(value: int | None, width: int, align: str = ">") -> str:
        return format("·" if value is None else str(value), f"{align}{width}")

    text = Text(f"{shown(cell.bid, 2)}/{shown(cell.tricks, 2, '<')} ")
    made = cell.made
    style = "" if made is None else ("green" if made else "dim")
    text.append(format("" if cell.score is None else str(cell.score), ">2"), style=style)
    text.append(format("" if cell.total is None else str(cell.total), ">4"), style="bold")
    return text


def headline(sheet: ScoreSheet, t: Translator = ENGLISH) -> str:
    """:attr:`ScoreSheet.headline` in ``t``'s language: who leads, or who won, and with how much."""
    seats = sheet.leaders
    if not seats:
        return t("sheet.none_yet")
    names = spoken_list(t.lang, [sheet.players[seat] for seat in seats], conjunction="and")
    key = "sheet.wins" if sheet.complete else "sheet.leads"
    return t(key, count=len(seats), names=names, points=sheet.totals[seats[0]])


def score_sheet(game: Game, viewer: int | None = None, t: Translator = ENGLISH) -> RenderableType:
    """The score sheet so far (bid / tricks / points / running total per player) and who leads."""
    sheet = ScoreSheet.of(game, viewer=viewer)
    return Group(sheet_table(sheet, t), Text(headline(sheet, t), style="bold"))


def standings(game: Game, t: Translator = ENGLISH) -> RenderableType:
    """Final places; tied players share a place and a win."""
    table = Table(title=t("tui.final"), title_justify="left")
    table.add_column(t("tui.place"), justify="right")
    table.add_column(t("tui.player"))
    table.add_column(t("tui.points"), justify="right")
    for place, seat, total in game.standings():
        table.add_row(str(place), game.players[seat], str(total))
    winners = [game.players[seat] for seat in game.winners]
    if len(winners) == 1:
        line = Text(t("tui.wins", name=winners[0]), style="bold green")
    else:
        line = Text(t("tui.tie", names=spoken_list(t.lang, winners, conjunction="and")), style="bold green")
    return Group(table, line)


def hint_line(hint: Hint, view: SeatView, t: Translator = ENGLISH) -> Text:
    """The expert's suggestion, with the card's number among the legal cards as the prompt shows them,
    worded from the hint's data (its choice and estimate) in ``t``'s language."""
    line = Text(t("hint.label"), style="bold cyan")
    if isinstance(hint.choice, Card):
        number = in_display_order(view.legal_cards).index(hint.choice) + 1
        line.append(f"[{number}] ")
        chance = format_percent(hint.estimate, locale=t.lang)
        line.append(t("hint.card", card=hint.choice.symbol, chance=chance, bid=view.bids[view.seat]))
    else:
        tricks = format_decimal(hint.estimate, format="0.0", locale=t.lang)
        line.append(t("hint.bid", bid=hint.choice, tricks=tricks))
    return line
