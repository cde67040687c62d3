// The felt: seat labels at the rim (this page's seat at the bottom, the next on its left), the trump
// card in the middle and each played card between its player's label and the centre.

import { cardName, t } from "/static/i18n.js";
import { cardFace } from "./table-cards.js";
import { placeWord } from "./table-panels.js";
import { blindAtTable, foreheadMark, showTrump } from "./table-house.js";
import { $, all, el } from "./dom.js";


// Every word the felt shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  you: () => t("table.felt.you"),
  bid: (/** @type {string} */ text) => t("table.felt.bid", { text }),
  took: (/** @type {number} */ n) => t("table.felt.took", { n }),
  points: (/** @type {number} */ n) => t("table.felt.points", { n }),
  place: (/** @type {number} */ n) => placeWord(n),
  finalLabel: (/** @type {string} */ who, /** @type {number} */ place, /** @type {number} */ points) => t("table.felt.finalLabel", { who, place: placeWord(place), points }),
  dealer: () => t("table.felt.dealer"),
  dealerTitle: () => t("table.felt.dealerTitle"),
  led: () => t("table.felt.led"),
  ledTitle: () => t("table.felt.ledTitle"),
  inHand: (/** @type {number} */ n) => t("table.felt.inHand", { n }),
  thinking: () => t("table.felt.thinking"),
  noTrump: () => t("table.noTrump"),
  label: (/** @type {string} */ who, /** @type {string} */ bid, /** @type {number} */ took, /** @type {number} */ points) => t("table.felt.label", { who, bid, took, points }),
  hiddenBid: () => t("table.felt.hiddenBid"),
  left: (/** @type {number} */ n) => t("table.felt.left", { n }),
  isDealer: () => t("table.felt.isDealer"),
  isLeader: () => t("table.felt.isLeader"),
  isThinking: () => t("table.felt.isThinking"),
  played: (/** @type {string} */ who, /** @type {string} */ card, /** @type {boolean} */ led) => (led ? t("table.felt.playedLed", { who, card: cardName(card) }) : t("table.felt.played", { who, card: cardName(card) })),
};

// Cards each seat still holds: the hand size less the cards it has played this round.
/**
 * @param {Record<string, any>} game the state's game part
 * @param {number} seat
 */
function cardsLeft(game, seat) {
  if (game.over || game.phase === "over") return 0;
  const inTrick = game.trick.some((/** @type {[number, string]} */ [s]) => s === seat) ? 1 : 0;
  return Math.max(0, game.hand_size - game.tricks_done - inTrick);
}

// Closed fists: the bids are revealed together, once every seat has bid.
/** @param {Record<string, any>} game the state's game part */
export function hiddenBids(game) {
  return game.rules.bidding === "simultaneous";
}

/**
 * @param {string} kind
 * @param {string} text
 * @param {string} title
 */
function badge(kind, text, title) {
  const span = document.createElement("span");
  span.className = `badge ${kind}`;
  span.textContent = text;
  span.title = title;
  return span;
}

/**
 * @typedef {object} FeltContext
 * @property {number | null} mySeat this page's seat (null: a spectator)
 * @property {boolean} holding the finished trick is still shown
 * @property {number | null} thinking the seat a bot is thinking for
 * @property {(seat: number, label: HTMLElement) => string} [decorate] marks a label, and says them (table-marks.js)
 */

/**
 * @param {Record<string, any>} game the state's game part
 * @param {number} seat
 * @param {{mySeat: number | null, leader: number | null, thinking: number | null, decorate?: FeltContext["decorate"]}} how
 */
function seatLabel(game, seat, { mySeat, leader, thinking, decorate }) {
  const name = game.players[seat];
  const div = document.createElement("div");
  div.className = "seat";
  div.dataset.seat = String(seat);
  if (game.awaiting.includes(seat) && !game.over) div.classList.add("to-act");
  if (seat === mySeat) div.classList.add("me");
  const top = document.createElement("div");
  top.className = "who";
  top.textContent = name + (seat === mySeat ? WORDS.you() : "");
  div.append(top);
  const bid = game.bids[seat];
  // Under closed fists the bids stay hidden until all are in: a seat that has bid shows ✓, not its bid.
  const hasBid = bid === null && game.phase === "bidding" && hiddenBids(game) && !game.awaiting.includes(seat);
  const bidText = bid === null ? (hasBid ? "✓" : "–") : bid;
  const nums = document.createElement("div");
  nums.className = "nums";
  // Each figure stays on one line; a narrow label wraps between them.
  // Once the game is over a label says where the seat finished, not a bid of a round to come.
  const over = game.over || game.phase === "over";
  const place = over && game.standings ? (game.standings.find((/** @type {[number, number, number]} */ [, s]) => s === seat) || [null])[0] : null;
  const parts = place
    ? [WORDS.place(place), WORDS.points(game.totals[seat])]
    : [WORDS.bid(bidText), WORDS.took(game.tricks_won[seat]), WORDS.points(game.totals[seat])];
  for (const [k, part] of parts.entries()) {
    if (k) nums.append(" · ");
    const span = document.createElement("span");
    span.textContent = part;
    if (k === 0 && hasBid) span.className = "has-bid";
    nums.append(span);
  }
  div.append(nums);
  const left = cardsLeft(game, seat);
  let words = place
    ? WORDS.finalLabel(name, place, game.totals[seat])
    : WORDS.label(name, hasBid ? WORDS.hiddenBid() : WORDS.bid(bidText), game.tricks_won[seat], game.totals[seat]);
  // The marks row: dealer, leader, and an opponent's hand face down (a few backs and the count);
  // once the game is over no hand is left, and the row goes.
  const marks = document.createElement("div");
  marks.className = "marks";
  if (seat === game.dealer && !over) marks.append(badge("dealer", WORDS.dealer(), WORDS.dealerTitle()));
  if (seat === leader && !over) marks.append(badge("leader", WORDS.led(), WORDS.ledTitle()));
  const forehead = over ? null : foreheadMark(game, seat); // a blind round: the card on their forehead
  if (forehead) {
    marks.append(forehead.element);
    words += forehead.words;
  } else if (seat !== mySeat && !over) {
    const backs = document.createElement("span");
    backs.className = "backs";
    backs.dataset.count = String(left);
    for (let i = 0; i < Math.min(left, 5); i++) {
      const back = document.createElement("span");
      back.className = "back";
      backs.append(back);
    }
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${left}`;
    backs.append(count);
    backs.title = WORDS.inHand(left);
    marks.append(backs);
    words += WORDS.left(left);
  }
  if (seat === game.dealer && !over) words += WORDS.isDealer();
  if (marks.childElementCount) div.append(marks);
  if (seat === leader && !over) words += WORDS.isLeader();
  if (seat === thinking && !over) {
    const mark = document.createElement("div");
    mark.className = "thinking";
    mark.textContent = WORDS.thinking();
    div.append(mark);
    words += WORDS.isThinking();
  }
  if (decorate) words += decorate(seat, div); // presence, clock, reactions (table-marks.js)
  div.setAttribute("aria-label", words);
  return div;
}

/** @type {[string | null, string | null, boolean] | undefined} the turn-up shown with the trick being played, kept while that trick is held */
let heldTurned;

// Seats sit at the rim of the felt; each played card lies just inside its player's label, on the
// line toward the centre, so it is never under a label, the trump or another card. Positions are in
// pixels from the measured boxes. `holding`: the finished trick is still shown (with its own trump).
/**
 * @param {Record<string, any>} game the state's game part
 * @param {FeltContext} how
 */
export function renderFelt(game, { mySeat, holding, thinking, decorate }) {
  const n = game.players.length;
  const base = mySeat === null ? 0 : mySeat;
  const shown = holding ? game.last_trick.plays : game.trick;
  const leader = shown.length ? shown[0][0] : game.phase === "playing" ? game.leader : null;
  const felt = $("felt");
  felt.dataset.seats = String(n);
  /** @type {HTMLElement[]} */
  const labels = [];
  for (let i = 0; i < n; i++) labels.push(seatLabel(game, (base + i) % n, { mySeat, leader, thinking, decorate }));
  $("seats").replaceChildren(...labels);
  // A held trick is shown with the trump it was played under, not the next round's.
  /** @type {[string | null, string | null, boolean]} */
  const now = [game.turned, game.trump, blindAtTable(game)];
  const [turned, trump, blind] = holding && heldTurned !== undefined ? heldTurned : now;
  if (!holding) heldTurned = now;
  showTrump($("turned"), turned, trump, blind); // the card turned up, or (trump that rotates) the suit, or no trump
  // A card already on the table keeps its element (and so does not play its arrival again).
  const before = new Map(all(":scope > *", $("trick")).map((face) => [face.dataset.card, face]));
  /** @type {HTMLElement[]} */
  const cards = shown.map((/** @type {[number, string]} */ [seat, card]) => {
    const face = before.get(card) || cardFace(card);
    face.classList.add("played");
    face.classList.toggle("led", seat === leader);
    // The led card's mark, a word between its rank and its suit: never over the suit to follow.
    const mark = face.querySelector(".led-mark");
    if (seat === leader && !mark) {
      face.append(el("span", { className: "led-mark", textContent: WORDS.led() }));
    } else if (seat !== leader && mark) mark.remove();
    face.classList.toggle("winner", Boolean(holding && seat === game.last_trick.winner));
    face.dataset.seat = String(seat);
    face.setAttribute("aria-label", WORDS.played(game.players[seat], card, seat === leader));
    return face;
  });
  const gone = [...before].filter(([card]) => !shown.some((/** @type {[number, string]} */ [, c]) => c === card)).map(([, face]) => face);
  for (const face of cards) if (!face.isConnected) $("trick").append(face);
  layOut(felt, labels, cards, shown.map((/** @type {[number, string]} */ [seat]) => (seat - base + n) % n));
  gather(gone, game, labels);
}

const GATHER_MS = 350;

// A finished trick leaves the felt toward its winner's seat: its cards move to a layer of their own
// (so the trick holds only the cards in play) and slide to the winner's label (laid out) as they fade.
/**
 * @param {HTMLElement[]} cards
 * @param {Record<string, any>} game the state's game part
 * @param {HTMLElement[]} labels
 */
function gather(cards, game, labels) {
  if (!cards.length) return;
  const last = game.last_trick;
  const winner = last && cards.every((face) => last.plays.some((/** @type {[number, string]} */ [, c]) => c === face.dataset.card)) ? last.winner : null;
  const label = labels.find((node) => Number(node.dataset.seat) === winner);
  if (!label || matchMedia("(prefers-reduced-motion: reduce)").matches) {
    for (const face of cards) face.remove();
    return;
  }
  const layer = $("gathered");
  for (const face of cards) {
    face.classList.add("gathering");
    layer.append(face);
    const from = { left: face.style.left, top: face.style.top, opacity: 1, transform: "translate(-50%, -50%)" };
    const to = { left: label.style.left, top: label.style.top, opacity: 0, transform: "translate(-50%, -50%) scale(0.6)" };
    face.animate([from, to], { duration: GATHER_MS, easing: "ease-in", fill: "forwards" });
  }
  setTimeout(() => cards.forEach((face) => face.remove()), GATHER_MS + 50);
}

// Pixel positions: labels at the rim; each card the shortest step from its label toward the centre
// that clears the label, and no nearer the centre than clears the trump.
/**
 * @param {HTMLElement} felt
 * @param {HTMLElement[]} labels
 * @param {HTMLElement[]} cards
 * @param {number[]} places each card's label, by its index in `labels`
 */
function layOut(felt, labels, cards, places) {
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  const cx = width / 2;
  const cy = height / 2;
  const rim = felt.clientLeft + 2; // a label may lie over the wooden rim
  const gap = 6; // the space kept between a card and a label or the trump
  const n = labels.length;
  const centres = labels.map((label, i) => {
    const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
    const lw = label.offsetWidth;
    const lh = label.offsetHeight;
    const x = cx + (cx - lw / 2 + rim) * Math.cos(angle);
    const y = cy + (cy - lh / 2 + rim) * Math.sin(angle);
    label.style.left = `${x}px`;
    label.style.top = `${y}px`;
    return { x, y, lw, lh };
  });
  const origin = felt.getBoundingClientRect();
  const box = $("turned-box").getBoundingClientRect();
  const trump = {
    left: box.left - origin.left - felt.clientLeft,
    right: box.right - origin.left - felt.clientLeft,
    top: box.top - origin.top - felt.clientTop,
    bottom: box.bottom - origin.top - felt.clientTop,
  };
  const along = (/** @type {number} */ low, /** @type {number} */ high, /** @type {number} */ from, /** @type {number} */ v, /** @type {number} */ half) => {
    // The least distance d >= 0 from `from` along v (one axis) at which [p - half, p + half] clears [low, high].
    if (v > 1e-6) return Math.max(0, (high + gap + half - from) / v);
    if (v < -1e-6) return Math.max(0, (from - low + gap + half) / -v);
    return from - half >= high + gap || from + half <= low - gap ? 0 : Infinity;
  };
  cards.forEach((face, k) => {
    const at = centres[places[k]];
    const cw = face.offsetWidth;
    const ch = face.offsetHeight;
    const length = Math.hypot(at.x - cx, at.y - cy) || 1;
    const vx = (at.x - cx) / length; // from the centre toward the label
    const vy = (at.y - cy) / length;
    const clearLabel = Math.min(
      Math.abs(vx) > 1e-6 ? (at.lw / 2 + cw / 2 + gap) / Math.abs(vx) : Infinity,
      Math.abs(vy) > 1e-6 ? (at.lh / 2 + ch / 2 + gap) / Math.abs(vy) : Infinity,
    );
    const clearTrump = Math.min(along(trump.left, trump.right, cx, vx, cw / 2), along(trump.top, trump.bottom, cy, vy, ch / 2));
    const d = Math.max(length - clearLabel, clearTrump, 0);
    face.style.left = `${cx + vx * d}px`;
    face.style.top = `${cy + vy * d}px`;
  });
}
