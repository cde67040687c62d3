// The seat's own controls under the felt: leave the table (asked first), "I'm back" once a bot
// plays for this person, give an away person's seat to a bot, claim the rest of the round (asked
// first; the claimer's hand is then shown to all), at a practice table the Hint, and the buttons the
// page adds (the seat's link: move it to another device, the host's new link for an away seat). The server
// decides each one; a refusal comes back as an `error` and is shown as any other.

import { cardName, cardSymbol, number, parts, t } from "/static/i18n.js";
import { presenceOf } from "./table-presence.js";
import { $, all, el } from "./dom.js";

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  leave: () => t("table.seat.leave"),
  leaveAsk: (/** @type {string} */ level) => t("table.seat.leaveAsk", { level }),
  leaveYes: () => t("table.seat.leaveYes"),
  cancel: () => t("table.seat.cancel"),
  back: () => t("table.seat.back"),
  botForYou: () => t("table.seat.botForYou"),
  youLeft: () => t("table.seat.youLeft"),
  yourAuto: (/** @type {number} */ count) => t("table.seat.yourAuto", { count }),
  give: (/** @type {string} */ who) => t("table.seat.give", { who }),
  giveAsk: (/** @type {string} */ who, /** @type {string} */ level) => t("table.seat.giveAsk", { who, level }),
  giveYes: () => t("table.seat.giveYes"),
  claim: () => t("table.claim.button"),
  claimAsk: () => t("table.claim.ask"),
  claimYes: () => t("table.claim.yes"),
  claimShown: (/** @type {string} */ who, /** @type {Node} */ cards) => parts("table.claim.shown", { who, cards }),
  claimLabel: (/** @type {string} */ who, /** @type {string} */ cards) => t("table.claim.shown", { who, cards }),
  hint: () => t("table.hint.button"),
  hintAsking: () => t("table.hint.asking"),
  hintBid: (/** @type {number} */ bid, /** @type {string} */ points) => t("table.hint.bid", { bid, points }),
  hintCard: (/** @type {string} */ card, /** @type {string} */ points) => t("table.hint.card", { card, points }),
  hintPoints: () => t("table.hint.pointsTitle"),
  level: (/** @type {string} */ kind) => t(`level.${kind}`),
};

const nameOf = (/** @type {import("./table-socket.js").TableState} */ state, /** @type {number} */ seat) => (state.game ? state.game.players[seat] : state.lobby.seats[seat].name) || "?";
const levelOf = (/** @type {import("./table-socket.js").TableState} */ state) => WORDS.level((state.options && state.options.level) || "normal");
const started = (/** @type {import("./table-socket.js").TableState} */ state) => Boolean(state.game && state.lobby.started && !state.game.over);

// ------------------------------------------------------------------ asking first

/** @type {((answer: boolean) => void) | null} the open question's answer, once given */
let asking = null;

/**
 * A yes-or-no question in a modal dialog; resolves true on yes. Escape or Cancel is no.
 * @param {string} question
 * @param {string} yes the yes button's words
 * @returns {Promise<boolean>}
 */
export function ask(question, yes) {
  let dialog = /** @type {HTMLDialogElement} */ ($("confirm"));
  if (!dialog) {
    dialog = el("dialog", { id: "confirm", className: "confirm-dialog" });
    const text = el("p", { id: "confirm-text" });
    const row = el("p", { className: "confirm-actions" });
    const no = el("button", { type: "button", id: "confirm-no" });
    const ok = el("button", { type: "button", id: "confirm-yes", className: "primary" });
    row.append(no, ok);
    dialog.append(text, row);
    dialog.setAttribute("aria-labelledby", "confirm-text");
    document.body.append(dialog);
    no.addEventListener("click", () => dialog.close("no"));
    ok.addEventListener("click", () => dialog.close("yes"));
    dialog.addEventListener("close", () => asking && asking(dialog.returnValue === "yes"));
  }
  $("confirm-text").textContent = question;
  $("confirm-no").textContent = WORDS.cancel();
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    asking = (answer) => {
      asking = null;
      resolve(answer);
    };
    dialog.showModal();
    $("confirm-no").focus();
  });
}

// ------------------------------------------------------------------ the buttons

// The seats whose person another may hand to a bot now: the state's `handover` says, per away
// seat, how long until the server allows it (measured as it was sent), counted down here on this
// browser's monotonic clock from the state's arrival. The server's rule is the one rule.
/** @type {WeakMap<object, number>} when each state arrived (performance.now()) */
const arrivals = new WeakMap();

/**
 * Per away seat, the milliseconds until it may be handed to a bot (0: now).
 * @param {import("./table-socket.js").TableState} state
 * @returns {[number, number][]}
 */
function handoverLeft(state) {
  const left = state && state.handover && typeof state.handover === "object" ? state.handover : {};
  if (!arrivals.has(state)) arrivals.set(state, performance.now());
  const since = performance.now() - (arrivals.get(state) || 0);
  return Object.entries(left).map(([seat, ms]) => [Number(seat), Math.max(0, Number(ms) - since)]);
}

/**
 * @param {import("./table-socket.js").TableState} state
 * @returns {number[]}
 */
export function handoverSeats(state) {
  if (state.seat === null || !started(state)) return [];
  return handoverLeft(state)
    .filter(([seat, ms]) => seat !== state.seat && ms <= 0 && presenceOf(state, seat)?.status === "away")
    .map(([seat]) => seat);
}

let handoverTimer = 0;
/** @type {number[] | null} the seats offered at the last drawing */
let offered = null;

// Draw the tools again when the next away seat may be handed to a bot; a refusal of a hand-over
// shown under the felt goes once what it said no longer holds (the offer changed).
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {number[]} seats the seats offered now
 * @param {() => void} redraw
 */
function followHandover(state, seats, redraw) {
  clearTimeout(handoverTimer);
  const waits = handoverLeft(state).map(([, ms]) => ms).filter((ms) => ms > 0);
  if (waits.length) handoverTimer = setTimeout(redraw, Math.min(...waits) + 50);
  const changed = offered !== null && JSON.stringify(offered) !== JSON.stringify(seats);
  offered = seats;
  const error = $("error");
  if (changed && error && error.dataset.rule === "handover") {
    error.textContent = "";
    delete error.dataset.rule;
  }
}

/**
 * @param {string} text
 * @param {string} className
 * @param {() => void} onClick
 */
function button(text, className, onClick) {
  const b = el("button", { type: "button", className, textContent: text });
  b.addEventListener("click", onClick);
  return b;
}

let drawn = "";
let counter = 0;
const nextId = (/** @type {string} */ kind) => `${kind}-${Date.now().toString(36)}-${++counter}`;

/**
 * The seat's own tools under the felt: claim, hint, give an away seat to a bot, leave, come back.
 * @param {import("./table-socket.js").TableState} state
 * @param {{send: (message: object) => boolean, canSend?: () => boolean, extra?: (state: import("./table-socket.js").TableState) => {key: string, items: HTMLElement[]}}} ctx
 *   `send(message)`, `canSend()` (the socket is open), and `extra(state)`: more of the seat's own
 *   buttons (the seat's link: table-seatlink.js), put before Leave, with a key that changes when they do
 */
export function renderSeatTools(state, ctx) {
  const box = $("seat-tools");
  const mine = state.seat === null ? null : presenceOf(state, state.seat);
  const game = state.game;
  const handover = handoverSeats(state);
  followHandover(state, handover, () => renderSeatTools(state, ctx));
  const myStatus = mine ? mine.status : null;
  const offBot = myStatus === "bot" || myStatus === "left";
  const showClaim = Boolean(game && game.can_claim && !game.over && !offBot);
  const showHint = Boolean(game && game.my_turn && !game.over && state.options && state.options.hints);
  const showLeave = state.seat !== null && started(state) && !offBot;
  const auto = mine && !offBot ? mine.auto || 0 : 0;
  const extra = ctx.extra ? ctx.extra(state) : { key: "", items: [] };
  const key = JSON.stringify([myStatus, auto, showClaim, showHint, showLeave, handover, extra.key, state.v, document.documentElement.lang]);
  if (drawn === key) return;
  drawn = key;
  /** @type {HTMLElement[]} */
  const items = [];
  if (offBot && started(state)) {
    const say = el("span", { className: "standin-news", textContent: myStatus === "left" ? WORDS.youLeft() : WORDS.botForYou() });
    items.push(say, button(WORDS.back(), "primary im-back", () => ctx.send({ type: "back" })));
  } else if (auto > 0 && started(state)) {
    items.push(el("span", { className: "standin-news", textContent: WORDS.yourAuto(auto) }));
  }
  if (showClaim) {
    items.push(
      button(WORDS.claim(), "claim", async () => {
        if (await ask(WORDS.claimAsk(), WORDS.claimYes())) ctx.send({ type: "claim", v: state.v, id: nextId("claim") });
      }),
    );
  }
  if (showHint) {
    items.push(
      button(WORDS.hint(), "hint-button", () => {
        hint = { v: state.v, asking: true };
        showHintBox(state);
        ctx.send({ type: "hint" });
      }),
    );
  }
  for (const seat of handover) {
    const who = nameOf(state, seat);
    const give = button(WORDS.give(who), "handover", async () => {
      if (await ask(WORDS.giveAsk(who, levelOf(state)), WORDS.giveYes())) ctx.send({ type: "handover", seat });
    });
    give.dataset.seat = String(seat);
    items.push(give);
  }
  items.push(...extra.items);
  if (showLeave) {
    items.push(
      button(WORDS.leave(), "leave", async () => {
        if (await ask(WORDS.leaveAsk(levelOf(state)), WORDS.leaveYes())) ctx.send({ type: "leave" });
      }),
    );
  }
  const focused = box.contains(document.activeElement) ? document.activeElement.className : null;
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
  if (focused) /** @type {HTMLElement | null} */ (box.querySelector(`button[class="${focused}"]`))?.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ a claim, shown to all

/** @param {string[]} cards */
function cardsNode(cards) {
  const span = document.createElement("span");
  span.className = "claim-cards";
  for (const card of cards) {
    const c = el("span", { className: `claim-card${"HD".includes(card[1]) ? " red" : ""}`, textContent: cardSymbol(card) });
    c.title = cardName(card);
    span.append(c, " ");
  }
  return span;
}

// The claim stays up until the next round's first bid (the server's `claim`), and at least a few
// seconds after it came, so a claim followed at once by a bot's bid is still read.
const CLAIM_SHOWN_MS = 6000;
let claimShownAt = 0;
let claimTimer = 0;

/** @param {import("./table-socket.js").TableState} state */
export function renderClaim(state) {
  const box = $("claim-news");
  const claim = state.claim;
  if (!claim) {
    const left = claimShownAt + CLAIM_SHOWN_MS - performance.now();
    if (box.dataset.key && left > 0) {
      clearTimeout(claimTimer);
      claimTimer = setTimeout(() => renderClaim(state), left + 20);
      return;
    }
    box.hidden = true;
    delete box.dataset.key;
    return;
  }
  box.hidden = false;
  const key = JSON.stringify(claim);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  claimShownAt = performance.now();
  const who = nameOf(state, claim.seat);
  box.replaceChildren(...WORDS.claimShown(who, cardsNode(claim.cards)));
  box.setAttribute("aria-label", WORDS.claimLabel(who, claim.cards.map(cardName).join(", ")));
}

// ------------------------------------------------------------------ the hint

/**
 * A hint: {v, asking} while asked, then the server's `hint` message (the choice, and each legal
 * move's expected points), for the state's version `v`.
 * @typedef {{v: number, asking?: boolean, choice?: number | string, options?: {move: number | string, points: number}[]}} Hint
 */

/** @type {Hint | null} */
let hint = null;

/**
 * @param {import("./table-socket.js").TableState} state
 * @param {Hint} message
 */
export function takeHint(state, message) {
  hint = message;
  showHintBox(state);
  applyHint(state);
}

const signed = (/** @type {number} */ points) => `${points > 0 ? "+" : ""}${number(points)}`;

/** @param {import("./table-socket.js").TableState} state */
function showHintBox(state) {
  const box = $("hint-box");
  if (!hint || !state || hint.v !== state.v) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (hint.asking) {
    box.textContent = WORDS.hintAsking();
    return;
  }
  const best = (hint.options || []).find((o) => String(o.move) === String(hint.choice));
  const points = best ? signed(Math.round(best.points * 10) / 10) : "?";
  box.textContent = typeof hint.choice === "number" ? WORDS.hintBid(hint.choice, points) : WORDS.hintCard(`${cardSymbol(hint.choice)} (${cardName(hint.choice)})`, points);
}

// The hint's choice stands out among the bids or the cards, each legal one with its expected points.
// Drawn again after each redraw; a hint is for one version of the state only.
/** @param {import("./table-socket.js").TableState} state */
export function applyHint(state) {
  if (hint && state && hint.v !== state.v) hint = null;
  showHintBox(state);
  const ready = hint && !hint.asking;
  const points = new Map(ready ? (hint.options || []).map((o) => [String(o.move), o.points]) : []);
  for (const b of all("#bids .bid, #hand .card")) {
    const move = b.dataset.bid ?? b.dataset.card;
    const p = points.get(String(move));
    b.classList.toggle("hinted", Boolean(ready && String(hint.choice) === String(move)));
    if (p === undefined) delete b.dataset.points;
    else {
      b.dataset.points = signed(Math.round(p * 10) / 10);
      b.title = `${WORDS.hintPoints()}: ${b.dataset.points}`;
    }
  }
}
