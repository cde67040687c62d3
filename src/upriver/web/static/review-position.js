// The position a reviewed decision was made in, as the seat saw it then: the trump, the trick on the
// table, the bids and tricks so far, and the hand, with the card chosen, the expert's card and the
// cards that could not be played marked.

import { cardFace as tableCard } from "./table-cards.js";
import { showTrump } from "./table-house.js";
import { el } from "./dom.js";
import { TEXT, short } from "./review-words.js";

/** @typedef {import("./review-data.js").Decision} Decision */

/**
 * A card face as the felt draws it, an image for screen readers.
 * @param {string} text
 */
export function cardFace(text) {
  const face = tableCard(text);
  face.setAttribute("role", "img");
  return face;
}

/**
 * The position of `decision`.
 * @param {Decision} decision
 * @param {object} seats
 * @param {string[]} seats.names the players, by seat
 * @param {number} seats.reviewed the seat whose decision it is
 * @param {number} seats.own this page's seat ("you" in the bids)
 * @param {string | null} seats.who the reviewed seat in words: null ("you") for this page's own seat
 */
export function position(decision, { names, reviewed, own, who }) {
  const pos = decision.position;
  const bidding = decision.kind === "bid";
  const trump = el("div", { className: "review-trump" }, el("span", { className: "caption" }, pos.turned || pos.trump ? TEXT.trump : TEXT.noTrump));
  if (pos.turned) trump.append(cardFace(pos.turned));
  else if (pos.trump) showTrump(trump.appendChild(el("div")), null, pos.trump); // trump rotates: its suit
  const table = el("div", { className: "review-felt" }, trump);
  if (!bidding) {
    const cards = pos.trick.map(([seat, card]) =>
      el("figure", {}, cardFace(card), el("figcaption", { title: names[seat] }, short(names[seat]))),
    );
    table.append(
      el("div", { className: "review-trick" },
        el("span", { className: "caption" }, pos.trick.length ? TEXT.onTable(pos.trick_number) : TEXT.youLead(pos.trick_number, who)),
        el("div", { className: "review-trick-cards" }, cards)),
    );
  }
  // Bids and tricks so far, in bidding order from the dealer's left, as the player saw them.
  const grid = el("table", { className: "review-bids" },
    el("tr", {}, el("th", {}, TEXT.player), el("th", {}, TEXT.bid), el("th", {}, TEXT.tricks)));
  const n = names.length;
  for (let i = 1; i <= n; i += 1) {
    const seat = (pos.dealer + i) % n;
    const bid = pos.bids[seat];
    grid.append(el("tr", { className: seat === reviewed ? "me" : "" },
      el("td", {}, seat === own ? `${names[seat]} (${TEXT.you})` : names[seat]),
      el("td", {}, bid === null ? "–" : String(bid)),
      el("td", {}, bidding ? "–" : String(pos.tricks_won[seat]))));
  }
  const hand = el("div", { className: "review-hand", "aria-label": TEXT.hand(who) });
  for (const card of pos.hand) {
    const face = cardFace(card);
    if (!bidding) {
      if (card === decision.chosen) face.classList.add("chosen", decision.flagged ? "bad" : "ok");
      if (card === decision.best && card !== decision.chosen) face.classList.add("best");
      if (!pos.legal.includes(card)) face.classList.add("illegal");
    }
    hand.append(face);
  }
  return el("div", { className: `review-position ${bidding ? "bid-step" : "card-step"}` },
    table, grid, el("h3", { className: "review-hand-title" }, TEXT.hand(who)), hand);
}
