// This seat's hand and bid buttons, and the keyboard: every card and every bid is a focusable button
// (one not allowed now says why when pressed), the arrow keys move over all of them, and the focus
// stays in the hand or the bids when a play or a bid redraws them.

import { cardName, reason as refusal, restrictionReason, t } from "/static/i18n.js";
import { cardFace } from "./table-cards.js";
import { blindRound, foreheadOwn } from "./table-house.js";
import { $, all } from "./dom.js";


// Every word the hand and the bids show, in one place, from the page's language catalogue (i18n.js).
// A refusal is worded from its rule and facts (`why`), never from the server's English sentence.
const WORDS = {
  bid: (/** @type {number} */ n) => t("table.hand.bid", { n }),
  bidRefused: (/** @type {number} */ n, /** @type {string} */ reason) => t("table.hand.bidRefused", { n, reason }),
  bidNotAllowed: () => t("table.hand.bidNotAllowed"),
  cardRefused: (/** @type {string} */ label, /** @type {string} */ reason) => t("table.hand.cardRefused", { label, reason }),
  cardReason: (/** @type {string} */ label, /** @type {string} */ reason) => t("table.hand.cardReason", { label, reason }),
};

// Buttons are rebuilt only when they change, so a click is never lost to a redraw under the pointer.
/** @type {Record<"bids" | "hand", string>} */
const drawn = { bids: "", hand: "" };

/**
 * Whether `value` is what `part` was last drawn from; if not, it is now.
 * @param {"bids" | "hand"} part
 * @param {unknown} value
 */
function unchanged(part, value) {
  const key = JSON.stringify(value);
  if (drawn[part] === key) return true;
  drawn[part] = key;
  return false;
}

// Where the keyboard was before a redraw: the group ("hand" or "bids") and the button's place in it.
/** @type {{group: string, at: number, key: string | undefined} | null} */
let focusWas = null;

function rememberFocus() {
  const active = /** @type {HTMLElement} */ (document.activeElement);
  for (const group of ["hand", "bids"]) {
    const buttons = all("button", $(group));
    const at = buttons.indexOf(active);
    if (at >= 0) focusWas = { group, at, key: active.dataset.card ?? active.dataset.bid };
  }
}

// After a redraw took the focused button away, put the focus back on the sensible button: the same
// card if it is still there, else the one now in its place (the next card); after a bid, the hand.
function restoreFocus() {
  if (!focusWas) return;
  const active = document.activeElement;
  if (active && active !== document.body && !$("hand").contains(active) && !$("bids").contains(active)) {
    focusWas = null; // the person has gone elsewhere: leave them there
    return;
  }
  if (active && active !== document.body) return;
  const target = (/** @type {string} */ group) => {
    const buttons = [...$(group).querySelectorAll("button")].filter((b) => b.offsetParent !== null);
    if (!buttons.length) return null;
    if (group !== focusWas.group) return buttons.find((b) => b.classList.contains("playable")) || buttons[0];
    const same = buttons.find((b) => (b.dataset.card ?? b.dataset.bid) === focusWas.key);
    return same || buttons[Math.min(focusWas.at, buttons.length - 1)];
  };
  const other = focusWas.group === "hand" ? "bids" : "hand";
  const next = target(focusWas.group) || target(other);
  if (next) next.focus({ preventScroll: true });
}

// Each group (the bids, the hand) is one Tab stop: the button the keyboard was last on in it, else
// the first that may be played, else the first; the arrow keys move inside the group.
/** @param {string} group */
function rove(group) {
  const buttons = [...$(group).querySelectorAll("button")];
  const at = buttons.find((b) => b === document.activeElement) || buttons.find((b) => b.classList.contains("playable")) || buttons[0];
  for (const b of buttons) b.tabIndex = b === at ? 0 : -1;
  return at;
}

// A mouse and keyboard, not a touch screen: on a phone a ring put on a bid or a card unasked would
// look like a choice made, so the page moves the focus itself only where a keyboard is likely.
export const keyboardLikely = () => matchMedia("(pointer: fine)").matches;

// Where the keyboard goes when nothing has it (the page just opened) or it is on a card: to the bids
// when this seat's bid is awaited, else into the hand; never away from a field or another control.
/** @param {string} group */
function offerFocus(group) {
  const active = document.activeElement;
  if (!keyboardLikely()) return;
  if (active && active !== document.body && !$("hand").contains(active)) return;
  const target = rove(group);
  if (target && target.offsetParent !== null) target.focus({ preventScroll: true });
}

let mayBid = false; // this seat's bid was awaited at the last drawing

/**
 * What the bids and the hand are drawn with: `canAct` (a move may be sent now), `blocked()` (why not,
 * in words, or null), `act(type, value)` and `notice(text)`.
 * @typedef {object} HandContext
 * @property {boolean} canAct
 * @property {() => string | null} blocked
 * @property {(type: string, value: number | string) => void} act
 * @property {(text: string) => void} notice
 */

/**
 * A bid option as the state carries it: the bid, whether it is legal, and why not (a refusal).
 * @typedef {{bid: number, legal: boolean, why?: {rule: string, facts?: Record<string, any>}}} BidOption
 */

/**
 * @param {Record<string, any>} game the state's game part
 * @param {HandContext} ctx
 */
export function renderBids(game, ctx) {
  /** @type {BidOption[]} */
  const options = game.bid_options;
  const bidding = ctx.canAct && options.some((o) => o.legal);
  const starts = bidding && !mayBid;
  mayBid = bidding;
  if (unchanged("bids", [options, game.bid_restriction, ctx.canAct])) return;
  rememberFocus();
  $("bidding").hidden = options.length === 0;
  // The engine's restriction on the dealer's bid, as data: its rule, the bids it forbids, and why.
  const restriction = game.bid_restriction;
  const reason = restriction ? restrictionReason(restriction, { you: true }) : "";
  $("bid-reason").textContent = reason;
  $("bids").replaceChildren(
    ...options.map((o) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "bid";
      b.textContent = String(o.bid);
      b.dataset.bid = String(o.bid);
      // A forbidden bid stays focusable and tappable: a tap says why it is not allowed.
      const allowed = o.legal && ctx.canAct;
      b.setAttribute("aria-disabled", String(!allowed));
      b.classList.toggle("playable", allowed);
      b.classList.toggle("legal", o.legal);
      const why = o.why ? refusal(o.why) : reason;
      b.setAttribute("aria-label", o.legal ? WORDS.bid(o.bid) : WORDS.bidRefused(o.bid, why));
      if (!o.legal) b.title = why;
      b.addEventListener("click", () => {
        if (allowed) return ctx.act("bid", o.bid);
        const off = ctx.blocked();
        if (off) ctx.notice(off);
        else if (!o.legal) ctx.notice(why || WORDS.bidNotAllowed());
      });
      return b;
    }),
  );
  restoreFocus();
  rove("bids");
  if (starts) offerFocus("bids");
}

/**
 * @param {Record<string, any>} game the state's game part
 * @param {HandContext} ctx
 */
export function renderHand(game, ctx) {
  const first = drawn.hand === "";
  if (unchanged("hand", [game.hand, game.phase, ctx.canAct, game.foreheads])) return;
  rememberFocus();
  // How many cards: style.css overlaps them by as much as the hand's column needs.
  $("hand").style.setProperty("--n", String(Math.max(1, game.hand.length)));
  // A blind one-card round: this seat's card is on its forehead, a back it may not see or choose.
  if (!game.hand.length && blindRound(game)) {
    $("hand").replaceChildren(foreheadOwn());
    return;
  }
  $("hand").replaceChildren(
    ...game.hand.map((/** @type {{card: string, legal: boolean, why?: {rule: string, facts?: Record<string, any>}}} */ entry) => {
      const b = /** @type {HTMLButtonElement} */ (cardFace(entry.card, "button"));
      b.type = "button";
      const playable = entry.legal && ctx.canAct && game.phase === "playing";
      // A card that may not be played stays focusable and tappable: a tap says why.
      b.setAttribute("aria-disabled", String(!playable));
      b.classList.toggle("playable", playable);
      b.classList.toggle("legal", entry.legal);
      // The name starts with what the face shows ("A♣"), so voice control finds the card by it (WCAG 2.5.3).
      const label = cardName(entry.card);
      const name = `${b.textContent}, ${label}`;
      const why = entry.why ? refusal(entry.why) : "";
      b.setAttribute("aria-label", entry.legal || !why ? name : WORDS.cardRefused(name, why));
      if (!entry.legal && why) b.title = why;
      b.addEventListener("click", () => {
        if (playable) return ctx.act("play", entry.card);
        const off = ctx.blocked();
        if (off) ctx.notice(off);
        else if (!entry.legal && why) ctx.notice(WORDS.cardReason(label, why));
      });
      return b;
    }),
  );
  restoreFocus();
  rove("hand");
  if (first && game.hand.length) offerFocus("hand");
}

// Keyboard: digits bid; the arrow keys (and Home/End) move over every card of the hand and every
// bid, the ones not allowed too (Enter or Space on one says why).
/**
 * @param {() => Record<string, any> | null} getGame the game part of the state now
 * @param {{act: HandContext["act"], canAct: () => boolean}} ctx
 */
export function installKeys(getGame, ctx) {
  for (const group of ["hand", "bids"]) $(group).addEventListener("focusin", () => rove(group));
  document.addEventListener("keydown", (event) => {
    const game = getGame();
    if (event.target instanceof HTMLInputElement || !game) return;
    if (/^[0-9]$/.test(event.key) && game.bid_options.length && !event.ctrlKey && !event.metaKey) {
      const option = game.bid_options.find((/** @type {BidOption} */ o) => String(o.bid) === event.key);
      if (option && option.legal && ctx.canAct()) ctx.act("bid", option.bid);
      return;
    }
    /** @type {Record<string, number | "first" | "last">} */
    const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
    const step = steps[event.key];
    if (step === undefined) return;
    for (const group of ["hand", "bids"]) {
      const buttons = all("button", $(group));
      const at = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (at < 0) continue;
      const n = buttons.length;
      const to = step === "first" ? 0 : step === "last" ? n - 1 : (at + Number(step) + n) % n;
      buttons[to].focus();
      event.preventDefault();
      return;
    }
  });
}
