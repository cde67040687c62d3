"""Rich renderables for the terminal game: cards in colour, the table, the hand, the score sheet.

Everything here draws from a :class:`~upriver.view.SeatView` or from public game
state; nothing decides a rule. Legality comes from the view's ``legal_bids`` and
``legal_cards``, which the engine computed.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from upriver.actions import Phase
from upriver.bots.hint import Hint
from upriver.cards import Card, Suit
from upriver.game import Game
from upriver.legality import BidRestriction, spoken
from upriver.rules import Bidding
from upriver.sheet import ScoreSheet
from upriver.view import SeatView

__all__ = [
    "bids_line",
    "card_text",
    "dealer_draw",
    "forbidden_text",
    "hand_panel",
    "hint_line",
    "round_header",
    "score_sheet",
    "standings",
    "suit_text",
    "table_panel",
]


def _style(suit: Suit) -> str:
    return "bold red" if suit.is_red else "bold"


def card_text(card: Card) -> Text:
    """A card as ``Q♥``, red for hearts and diamonds."""
    return Text(card.symbol, style=_style(card.suit))


def suit_text(suit: Suit | None) -> Text:
    """A suit symbol in its colour, or ``no trump``."""
    if suit is None:
        return Text("no trump", style="italic")
    return Text(f"{suit.symbol} {suit.name.lower()}", style=_style(suit))


def dealer_draw(game: Game) -> RenderableType:
    """The first-Jack draw: cards dealt face up one at a time until a Jack shows."""
    lines = [Text("Cards are dealt face up until a Jack shows; the first player dealt a Jack deals.")]
    for seat, card in game.dealer_draw:
        line = Text(f"  {game.players[seat]:<10} ") + card_text(card)
        if card is game.dealer_draw[-1][1]:
            line.append("  ← first Jack: deals first", style="bold green")
        lines.append(line)
    return Panel(Group(*lines), title="Choosing the dealer", expand=False)


def round_header(view: SeatView) -> RenderableType:
    """Round n/N, hand size, dealer and the turned card with its trump suit."""
    n = view.rules.rounds
    text = Text(f"Round {view.round_number}/{n}", style="bold")
    text.append(f" · {view.hand_size} card{'s' if view.hand_size != 1 else ''} each")
    text.append(f" · dealer: {view.players[view.dealer]}\nTurned up: ")
    text.append_text(card_text(view.turned) if view.turned is not None else Text("nothing (no card left)"))
    text.append(" · trump: ")
    text.append_text(suit_text(view.trump))
    return Panel(text, expand=False)


def bids_line(view: SeatView, restriction: BidRestriction | None = None) -> Text:
    """The bids so far in bidding order (hidden ones as ``?``) and, when given, the dealer's restriction.

    ``restriction`` is the engine's :meth:`~upriver.Game.bid_restriction` for the bid to come.
    """
    text = Text("Bids: ")
    parts = []
    for seat in view.bidding_order:
        bid = view.bids[seat]
        parts.append(f"{view.players[seat]} {'–' if bid is None else bid}")
    text.append(" · ".join(parts))
    if view.phase is Phase.BIDDING and view.rules.bidding is Bidding.SIMULTANEOUS:
        text.append("  (closed fists: bids are shown when everyone has bid)", style="dim")
    total = sum(bid for bid in view.bids if bid is not None)
    text.append(f"  total {total} of {view.hand_size}")
    if restriction is not None:
        text.append(
            f"\nThe dealer, {view.players[restriction.seat]}, may not bid {forbidden_text(restriction)}: "
            f"{restriction.reason}.",
            style="yellow",
        )
    return text


def forbidden_text(restriction: BidRestriction) -> str:
    """The forbidden bids in words (:func:`upriver.legality.spoken`): ``2``, ``0 or 1``, ``0, 1 or 2``."""
    return spoken(restriction.forbidden)


def table_panel(view: SeatView) -> RenderableType:
    """Who bid what, who has won what, and the cards on the table in front of each player."""
    table = Table(title=f"Trick {len(view.tricks) + 1} of {view.hand_size}", title_justify="left")
    table.add_column("Player")
    table.add_column("Bid", justify="right")
    table.add_column("Won", justify="right")
    table.add_column("On the table")
    on_table = dict(view.trick)
    for seat, name in enumerate(view.players):
        marks = []
        if seat == view.dealer:
            marks.append("dealer")
        if seat == view.leader:
            marks.append("leads")
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


def hand_panel(view: SeatView) -> RenderableType:
    """The seat's hand by suit; legal cards are numbered for quick entry, the others dimmed."""
    numbers = {card: i for i, card in enumerate(in_display_order(view.legal_cards), start=1)}
    lines = []
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
            line.append(" trump", style="italic yellow")
        lines.append(line)
    return Panel(Group(*lines), title=f"Your hand ({view.players[view.seat]})", expand=False)


def score_sheet(game: Game, viewer: int | None = None) -> RenderableType:
    """The score sheet so far (bid / tricks / points / running total per player) and who leads."""
    sheet = ScoreSheet.of(game, viewer=viewer)
    return Group(sheet.table(), Text(sheet.headline, style="bold"))


def standings(game: Game) -> RenderableType:
    """Final places; tied players share a place and a win."""
    table = Table(title="Final standings", title_justify="left")
    table.add_column("Place", justify="right")
    table.add_column("Player")
    table.add_column("Points", justify="right")
    for place, seat, total in game.standings():
        table.add_row(str(place), game.players[seat], str(total))
    winners = [game.players[seat] for seat in game.winners]
    if len(winners) == 1:
        line = Text(f"{winners[0]} wins!", style="bold green")
    else:
        line = Text(f"A tie for first place: {' and '.join(winners)} share the win.", style="bold green")
    return Group(table, line)


def hint_line(hint: Hint, view: SeatView) -> Text:
    """The expert's suggestion, with the card's number among the legal cards as the prompt shows them."""
    line = Text("Hint: ", style="bold cyan")
    if isinstance(hint.choice, Card):
        number = in_display_order(view.legal_cards).index(hint.choice) + 1
        line.append(f"[{number}] ")
    line.append(hint.explanation)
    return line
