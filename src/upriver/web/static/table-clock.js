// The turn clock and the automatic moves. A table with a clock sends, in each state, the time left
// of every person-seat whose turn it is (`clock.left_ms`, measured when the state was sent): the
// page counts it down on its own monotonic clock from the moment the state arrived, and starts again
// from each new state. A move the server made for a person (the clock ran out, or a stand-in bot)
// is in `automatic`; the page puts a small robot mark on that bid or card, with its words.

import { t } from "/static/i18n.js";
import { $, all, el } from "./dom.js";

const URGENT_MS = 10_000;

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  title: () => t("table.clock.title"),
  spoken: (/** @type {number} */ count) => t("table.clock.spoken", { count }),
  hurry: (/** @type {number} */ count) => t("table.clock.hurry", { count }),
  automatic: () => t("table.clock.automatic"),
  autoBid: () => t("table.clock.autoBid"),
  standinPlay: () => t("table.clock.standinPlay"),
  standinBid: () => t("table.clock.standinBid"),
};

/** @type {{left_ms?: Record<string, number>} | null} the last state's `clock` */
let clock = null;
let arrived = 0; // performance.now() when it came
/** @type {number | null} */
let mySeat = null;
/** @type {number | null} the version at which this seat was told it has 10 s left */
let warned = null;
/** @type {number | null} */
let version = null;

// Take a state's clock (every state: a state without one stops the countdown).
/** @param {import("./table-socket.js").TableState} state */
export function takeClock(state) {
  clock = state.clock && typeof state.clock === "object" ? state.clock : null;
  arrived = performance.now();
  mySeat = state.seat;
  version = state.v;
  trackPlays(state);
}

// Milliseconds left for `seat` now, or null when its clock is not running.
/** @param {number} seat */
export function leftMs(seat) {
  if (!clock || !clock.left_ms) return null;
  const left = clock.left_ms[String(seat)];
  if (typeof left !== "number") return null;
  return Math.max(0, left - (performance.now() - arrived));
}

/** @param {number} ms */
const shown = (ms) => {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

// The clock for a seat label (null when the seat's clock is not running) and its spoken words.
/** @param {number} seat */
export function clockMark(seat) {
  const ms = leftMs(seat);
  if (ms === null) return null;
  const node = document.createElement("div");
  node.className = "clock";
  node.dataset.seat = String(seat);
  node.title = WORDS.title();
  const icon = el("span", { className: "clock-icon", textContent: "⏱" });
  icon.setAttribute("aria-hidden", "true");
  const time = el("span", { className: "clock-time", textContent: shown(ms) });
  node.append(icon, time);
  node.classList.toggle("urgent", ms <= URGENT_MS);
  return { node, words: WORDS.spoken(Math.ceil(ms / 1000)) };
}

// Each running clock on the felt, a few times a second; this seat is told once when 10 s are left.
function tick() {
  for (const node of all("#seats .clock")) {
    const ms = leftMs(Number(node.dataset.seat));
    if (ms === null) continue;
    const time = node.querySelector(".clock-time");
    const text = shown(ms);
    if (time.textContent !== text) time.textContent = text;
    node.classList.toggle("urgent", ms <= URGENT_MS);
  }
  const mine = mySeat === null ? null : leftMs(mySeat);
  const say = $("clock-announce");
  if (mine !== null && mine <= URGENT_MS && mine > 0 && warned !== version && say) {
    warned = version;
    say.textContent = WORDS.hurry(Math.ceil(mine / 1000));
  }
}
setInterval(tick, 200);

// ------------------------------------------------------------------ automatic moves

// When each card of the round was first seen played (a state's version), to find an automatic play
// when the server does not name its card: the seat's first card seen at or after the move's version.
/** @type {Map<string, number>} "round:seat:card" -> version */
const firstSeen = new Map();
/** @type {number | null} */
let trackedRound = null;

/** @param {import("./table-socket.js").TableState} state */
function trackPlays(state) {
  const game = state.game;
  if (!game) return;
  if (trackedRound !== game.round) {
    firstSeen.clear();
    trackedRound = game.round;
  }
  const plays = [...game.trick, ...(game.last_trick && game.tricks_done ? game.last_trick.plays : [])];
  for (const [seat, card] of plays) {
    const key = `${game.round}:${seat}:${card}`;
    if (!firstSeen.has(key)) firstSeen.set(key, state.v);
  }
}

/**
 * The moves the server made for seats automatically (the clock ran out, or a stand-in played).
 * @param {import("./table-socket.js").TableState} state
 * @returns {{kind: string, seat: number, round: number, v: number, by?: string, card?: string}[]}
 */
function automaticOf(state) {
  return Array.isArray(state.automatic) ? state.automatic : [];
}

// The cards of this round played automatically ("QH" strings), each with who played it: "clock" (the
// person's time ran out) or "standin" (a bot stands in for them).
/** @param {import("./table-socket.js").TableState} state */
export function automaticCards(state) {
  const game = state.game;
  /** @type {Map<string, string>} */
  const cards = new Map();
  if (!game) return cards;
  for (const entry of automaticOf(state)) {
    if (entry.kind !== "play" || entry.round !== game.round) continue;
    const by = entry.by || "clock";
    if (typeof entry.card === "string") {
      cards.set(entry.card, by);
      continue;
    }
    /** @type {[number, string] | null} */
    let best = null;
    for (const [key, seenAt] of firstSeen) {
      const [, seat, card] = key.split(":");
      if (Number(seat) !== entry.seat || seenAt < entry.v) continue;
      if (!best || seenAt < best[0]) best = [seenAt, card];
    }
    if (best) cards.set(best[1], by);
  }
  return cards;
}

// Who made this seat's bid in the round shown, if the server did: "clock" or "standin"; else null.
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 */
export function automaticBid(state, seat) {
  const game = state.game;
  const entry = game && automaticOf(state).find((e) => e.kind === "bid" && e.seat === seat && e.round === game.round);
  return entry ? entry.by || "clock" : null;
}

/** @param {string} words */
function robot(words) {
  const mark = document.createElement("span");
  mark.className = "auto-mark";
  mark.textContent = "🤖";
  mark.title = words;
  mark.setAttribute("role", "img");
  mark.setAttribute("aria-label", words);
  return mark;
}

// A seat label's bid made automatically: the robot after the bid, and its words.
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 * @param {HTMLElement} label
 */
export function markAutomaticBid(state, seat, label) {
  const by = automaticBid(state, seat);
  if (!by) return "";
  const words = by === "standin" ? WORDS.standinBid() : WORDS.autoBid();
  const bid = label.querySelector(".nums span");
  if (bid) bid.append(" ", robot(words));
  return `, ${words}`;
}

// The cards on the felt and in the last trick that were played automatically get the robot mark.
/** @param {import("./table-socket.js").TableState} state */
export function markAutomaticCards(state) {
  const cards = automaticCards(state);
  for (const face of all("#trick .card, #last-trick .card")) {
    const by = cards.get(face.dataset.card || "");
    const auto = Boolean(by);
    const words = by === "standin" ? WORDS.standinPlay() : WORDS.automatic();
    face.classList.toggle("automatic", auto);
    const mark = face.querySelector(".auto-mark");
    if (mark && (!auto || mark.getAttribute("aria-label") !== words)) mark.remove();
    if (auto && !face.querySelector(".auto-mark")) face.append(robot(words));
    const label = face.getAttribute("aria-label");
    const said = `, ${words}`;
    if (auto && label && !label.endsWith(said)) face.setAttribute("aria-label", label + said);
  }
}
