// The table page: one WebSocket, the server's per-seat state in, bids and cards out.
// The server is the judge: this page only shows what it is sent and offers what is legal.
// The felt, the hand, the results around them and the socket are modules of their own; this one keeps
// the state and decides when each part is drawn.

import { shownName, suitName, t } from "/static/i18n.js";
import { SUITS } from "./table-cards.js";
import { renderFelt } from "./table-felt.js";
import { installKeys, renderBids, renderHand } from "./table-hand.js";
import { renderLobby } from "./table-lobby.js";
import { presetLine, refusalText, ruleItems } from "./table-panels.js";
import { rematchNews, wireRematch } from "./table-rematch.js";
import { installResults, renderBidTotal, renderLastTrick, renderSheet, renderSummary } from "./table-results.js";
import { openSocket } from "./table-socket.js";
import { holds, rememberTable } from "./table-store.js";
import { forgetJoin, joinMessage, recoverJoin } from "./table-join.js";
import { chatRefused, installChat, placeBubbles, renderChat, takeChat, takeReaction } from "./table-chat.js";
import { markAutomaticCards, takeClock } from "./table-clock.js";
import { decorateSeat } from "./table-marks.js";
import { markLobbySeats, presenceOf, refreshPresence, renderWatching } from "./table-presence.js";
import { applyHint, renderClaim, renderSeatTools, takeHint } from "./table-seatctl.js";
import { hideDeadLink, showDeadLink } from "./table-deadlink.js";
import { installSeatLinks, noticeReinvite, reinviteRefused, renderTakeSeat, seatLinkTools, seatTokenChanged } from "./table-seatlink.js";
import { $, el } from "./dom.js";

const TRICK_HOLD_MS = 1200; // how long a finished trick stays up when the server does not say

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  connected: () => t("table.connected"),
  disconnected: () => t("table.disconnected"),
  reconnecting: () => t("table.reconnecting"),
  lostRetrying: () => t("table.lostRetrying"),
  lost: () => t("table.lost"),
  noSeat: () => t("table.noSeat"),
  retryIn: (/** @type {number} */ s) => t("table.retryIn", { s }),
  offline: () => t("table.offline"),
  damaged: () => t("table.damaged"),
  damagedWhy: (/** @type {string} */ why) => t("table.damagedWhy", { why }),
  statusLost: () => t("table.statusLost"),
  over: () => t("table.over"),
  takes: (/** @type {string} */ who) => t("table.takes", { who }),
  yourBid: () => t("table.yourBid"),
  yourCard: () => t("table.yourCard"),
  waitingFor: (/** @type {string} */ who, /** @type {boolean} */ bidding) => (bidding ? t("table.waitingForBid", { who }) : t("table.waitingForPlay", { who })),
  gameOver: (/** @type {number} */ rounds) => t("table.gameOver", { rounds }),
  roundLine: (/** @type {number} */ round, /** @type {number} */ rounds, /** @type {number} */ size) => t("table.roundLine", { round, rounds, size }),
  roundLineShort: (/** @type {number} */ round, /** @type {number} */ rounds, /** @type {number} */ size) => t("table.roundLineShort", { round, rounds, size }),
  connectedShort: () => t("table.connectedShort"),
  offlineShort: () => t("table.offlineShort"),
  trump: () => t("table.trump"),
  noTrump: () => t("table.noTrump"),
};


const tableId = location.pathname.split("/").pop();
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token");
// A rematch's link carries the name to sit under: the seat is taken with it once, as the page opens.
let joinAs = fragment.get("name");
/**
 * The state's game part (web/play/states.py): the round, the hand, the bids, the trick, the totals.
 * @typedef {Record<string, any>} Game
 */

/** @type {import("./table-socket.js").TableState | null} the last state message */
let state = null;
/** @type {import("./sheet.js").Sheet | null} the last score sheet (the server skips it when unchanged) */
let sheet = null;
let counter = 0;
let waiting = false; // an action was sent and its answer has not come yet
let connected = false;
let holdUntil = 0;
/** @type {string | null} the last finished trick seen, as its plays' JSON */
let seenTrick = null;
/** @type {import("./table-panels.js").Preset[] | null} the server's presets (/api/options), to name the rules in play */
let presets = null;
let opened = 0; // connections opened so far (a join is confirmed once on each)
let confirmedOn = -1;
/** @type {string | null} the invite this page sent a join with, until the join is confirmed */
let joinedWith = null;
/** @type {string | null} why the server closed this page's connection for good, in words */
let closedBecause = null;
/** @type {{round: number, size: number, trump: string | null, dealer: number} | null} the round of the trick being played, kept while it is held */
let heldRound = null;

// ------------------------------------------------------------------ the socket

const socket = openSocket({ tableId, token: () => token, onMessage: receive, onStatus: setConnection });
// The seat's own tools: the seatctl's, and the seat's link (move it; the host's new link for a seat).
const seatTools = { send: socket.send, extra: seatLinkTools };

/**
 * @param {boolean} ok
 * @param {boolean} final
 * @param {number} delay
 */
function setConnection(ok, final, delay) {
  const was = connected;
  if (ok) opened += 1;
  connected = ok;
  const retrying = !ok && !final;
  showConnection(ok ? WORDS.connected() : final ? WORDS.disconnected() : WORDS.reconnecting(), ok);
  $("offline").hidden = ok || (!retrying && state === null);
  $("offline").querySelector(".offline-title").textContent = final ? WORDS.lost() : WORDS.lostRetrying();
  if (!ok) $("offline-detail").textContent = final ? closedBecause || WORDS.noSeat() : WORDS.retryIn(Math.max(1, Math.round(delay / 1000)));
  document.body.classList.toggle("is-offline", !ok);
  if (!ok) waiting = false; // no answer comes on a closed socket; the state on reconnecting says what landed
  if (was !== ok && state) render();
}

// The connection's state in the header: its words (read by screen readers everywhere, shown where
// there is room), a short word for a phone's header (style.css) and a coloured dot.
/**
 * @param {string} words
 * @param {boolean} ok
 */
function showConnection(words, ok) {
  const box = $("connection");
  box.replaceChildren(el("span", { className: "conn-word", textContent: words }));
  box.dataset.short = ok ? WORDS.connectedShort() : WORDS.offlineShort();
  box.classList.toggle("ok", ok);
  box.classList.toggle("off", !ok);
}

// A damaged table accepts no moves (the server refuses them): the page offers none.
const damaged = () => Boolean(state && state.lobby.damaged);
// A bot plays for this person (they left, or their clock ran out twice): no move until "I'm back".
const standingIn = () => Boolean(state && state.seat !== null && ["bot", "left"].includes(presenceOf(state, state.seat)?.status));
const canAct = () => connected && !waiting && !damaged() && !standingIn();
// Why no move can be sent now, in words, or null.
const blocked = () => (!connected ? WORDS.offline() : damaged() ? WORDS.damaged() : standingIn() ? t("table.seat.pressBack") : null);

/**
 * @param {string} type
 * @param {number | string} value
 */
function act(type, value) {
  if (!connected) return notice(WORDS.offline());
  if (waiting || !state || damaged()) return;
  waiting = true;
  counter += 1;
  const id = `${Date.now().toString(36)}-${counter}`;
  socket.send({ type, [type === "bid" ? "bid" : "card"]: value, v: state.v, id });
  render();
}

/** @param {import("./table-socket.js").ServerMessage} message */
function receive(message) {
  if (message.type === "error") {
    if (chatRefused(message)) return; // said under the chat's input, with the line given back
    waiting = false;
    const words = refusalText(message);
    $("error").textContent = words;
    $("error").dataset.rule = String(message.rule || ""); // a hand-over's goes once it no longer holds
    $("lobby-error").textContent = words;
    if (message.rule === "reinvite") reinviteRefused();
    if (message.rule === "token" || message.rule === "table") {
      closedBecause = words;
      showConnection(words, false);
      // A taken invite may be this page's own join, answered while the page was away: recover it
      // first; only a link that opens nothing for good replaces the page with why, and where to go.
      const taken = message.rule === "token" && message.facts.reason === "taken" && token;
      if (taken) recover(token).then((back) => back || showDeadLink(message, tableId));
      else showDeadLink(message, tableId);
    }
    if (state) render();
    return;
  }
  if (message.type === "seat") return takeSeat(message);
  if (message.type === "rematch") return rematchNews(state, /** @type {import("./table-rematch.js").Rematch} */ (message));
  if (message.type === "chat") return takeChat(message);
  if (message.type === "reaction") return takeReaction(/** @type {{seat: number | null, reaction: string}} */ (message));
  if (message.type === "hint") return takeHint(state, /** @type {import("./table-seatctl.js").Hint} */ (message));
  if (message.type !== "state") return;
  if (state && message.v < state.v) return; // an older picture than the one shown
  // A seat held by this page goes on this browser's list of tables (the start page's), once per token.
  if (token && message.seat !== null && !holds(tableId, token)) {
    rememberTable({ table: tableId, token, seat: message.seat });
  }
  // Only a connection holding the seat's own token sees its seat: this page kept that token (in its
  // link), so the join is whole: say so, and its secret is no longer needed.
  if (message.joined_pending && confirmedOn !== opened) {
    if (socket.send({ type: "confirm" })) confirmedOn = opened; // once a connection: a new one asks again
  }
  const seated = message.seat !== null && message.lobby.seats[message.seat]?.joined && !message.invited;
  if (seated && !message.joined_pending && joinedWith) {
    forgetJoin(joinedWith);
    joinedWith = null;
  }
  takeClock(message);
  waiting = false;
  $("error").textContent = "";
  $("lobby-error").textContent = "";
  const game = message.game;
  // A bot's label names its level in the page's language ("Bob (facile)"), wherever the page shows it.
  if (game) game.players = game.players.map(shownName);
  if (game && game.sheet) sheet = { ...game.sheet, players: game.sheet.players.map(shownName) };
  const hold = game ? noticeTrick(game, message.trick_pause_ms) : null;
  state = message;
  document.body.dataset.v = message.v; // the version shown, for people debugging and for tests
  render();
  if (hold !== null) {
    // The pause counts from when the finished trick is on screen, after the drawing (a chart may take a while).
    holdUntil = performance.now() + hold;
    setTimeout(render, hold + 20);
  }
  const mine = message.seat !== null ? message.lobby.seats[message.seat] : null;
  if (joinAs && mine && !mine.joined && connected) join(joinAs);
  joinAs = null;
  // For the review panel (review.js) and anything else on the page that follows the game: each state
  // the server sent this seat, once drawn. Only what this seat may see, as the page itself.
  document.dispatchEvent(new CustomEvent("upriver:state", { detail: { state, tableId, token, seat: state.seat } }));
}

/**
 * Take this page's seat under `name`, with the proof of a secret this browser keeps (table-join.js).
 * @param {string} name
 */
async function join(name) {
  const invite = token || "";
  const message = await joinMessage(tableId, invite, name);
  if (socket.send(message)) joinedWith = invite;
}

/**
 * The seat's new secret, sent to this connection alone after its join (or "sign out my other
 * devices"): keep it in this page's link (the fragment never leaves the browser), so a reload or a
 * second tab opens the seat, and on this browser's list of tables.
 * @param {import("./table-socket.js").ServerMessage} message
 */
function takeSeat(message) {
  token = String(message.token);
  history.replaceState(null, "", `#token=${encodeURIComponent(token)}`);
  // A recovered join does not name its seat: the next state does, and the table is remembered then.
  if (typeof message.seat === "number") rememberTable({ table: tableId, token, seat: message.seat });
  seatTokenChanged();
}

/**
 * This page's join with `invite` may have been answered while the page was away: ask for its token
 * with the secret this browser kept, and open the seat with it.
 * @param {string} invite
 * @returns {Promise<boolean>} whether the seat is open again
 */
async function recover(invite) {
  const recovered = await recoverJoin(tableId, invite);
  if (!recovered) return false;
  joinedWith = invite;
  closedBecause = null;
  hideDeadLink();
  takeSeat({ type: "seat", token: recovered, seat: null });
  socket.reconnect();
  return true;
}

// A trick just completed: keep it on the table for the server's pause (the table's pace: no bot
// leads before it is over), then gather it. The game's last trick stays: nothing follows it.
// Returns how long to hold it, if this state completed a trick (else null).
/**
 * @param {Game} game
 * @param {number | undefined} pause
 */
function noticeTrick(game, pause) {
  const key = game.last_trick ? JSON.stringify(game.last_trick.plays) : null;
  const hold = typeof pause === "number" ? pause : TRICK_HOLD_MS;
  // (The next trick's first card may come before the page's pause is over, or in the same state, as
  // the server's pause began when the trick was committed: that card waits until the trick is gathered.)
  const fresh = Boolean(state && state.game && key && key !== seenTrick);
  seenTrick = key;
  if (!fresh) return null;
  holdUntil = Infinity; // until it is drawn; then for the pause (the monotonic clock: a wall clock may jump)
  return hold;
}

// ------------------------------------------------------------------ rendering

function render() {
  const why = state.lobby.damaged;
  $("damaged").hidden = !why;
  $("damaged-reason").textContent = why ? WORDS.damagedWhy(why) : "";
  document.body.classList.toggle("is-damaged", Boolean(why));
  const lobbyOpen = !state.lobby.started;
  $("lobby").hidden = !lobbyOpen;
  $("play").hidden = lobbyOpen;
  $("rules-button").hidden = lobbyOpen; // before the game the page itself says the rules
  if (lobbyOpen) renderLobby(state, { tableId, presets, send: socket.send, redraw: () => state && render() });
  if (!lobbyOpen && state.game) renderGame(state.game);
  renderNight();
}

// Who is here, the seat's own controls, a claim shown to all, the chat's writers, the hint's marks.
function renderNight() {
  renderWatching(state);
  if (!state.lobby.started) markLobbySeats(state);
  renderSeatTools(state, seatTools);
  renderTakeSeat(state);
  noticeReinvite(state);
  renderClaim(state);
  renderChat(state);
  applyHint(state);
  markAutomaticCards(state);
  placeBubbles();
}

// The round's line in the header, the part that gives way (an ellipsis) where the header is short,
// so the trump's symbol after it always shows.
// A phone shows its short form ("Round 2/3 · 11 cards"), so the line is not cut.
const linesOf = (/** @type {number} */ round, /** @type {number} */ rounds, /** @type {number} */ size) => [
  el("span", { className: "round-line long-line", textContent: WORDS.roundLine(round, rounds, size) }),
  el("span", { className: "round-line short-line", textContent: WORDS.roundLineShort(round, rounds, size) }),
];

/** @param {Game} game the state's game part */
function renderGame(game) {
  const holding = Boolean(game.last_trick && ((game.over && !game.trick.length) || performance.now() < holdUntil));
  // A held trick is shown under its own round and trump, even when the next round is already dealt.
  const current = { round: game.round, size: game.hand_size, trump: game.trump, dealer: game.dealer };
  const shown = holding && heldRound ? heldRound : current;
  if (!holding) heldRound = current;
  const info = $("round-info");
  info.dataset.trump = shown.trump || "";
  info.dataset.round = shown.round;
  if (game.over) info.textContent = WORDS.gameOver(game.rounds);
  else if (!shown.trump) info.replaceChildren(...linesOf(shown.round, game.rounds, shown.size), WORDS.noTrump());
  else {
    // The trump's symbol, and its name where there is room (a phone shows the symbol only).
    const [symbol] = SUITS[shown.trump];
    const mark = el("span", { className: `suit-symbol ${shown.trump}`, textContent: symbol });
    const named = el("span", { className: "suit-name", textContent: ` ${suitName(shown.trump)}` });
    const word = el("span", { className: "trump-word", textContent: `${WORDS.trump()} ` });
    info.replaceChildren(...linesOf(shown.round, game.rounds, shown.size), word, mark, named);
  }
  // Mid-game only a player's link may export (finished rounds only); anyone may once it is over.
  const record = `/api/tables/${tableId}/record${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  for (const id of ["export", "export-sheet", "export-final"]) {
    $(id).hidden = !token && !game.over;
    /** @type {HTMLAnchorElement} */ ($(id)).href = record;
  }

  // The held last trick of a round is shown with that round's labels and an empty hand, not beside
  // the next round's (already dealt): "Dee takes the trick" while her label counts it.
  const ended = holding && !game.over && game.tricks_done === 0 && game.last_round ? roundEnd(game, shown) : null;
  const drawn = ended || game;
  const thinking = typeof state.thinking === "number" && !ended ? state.thinking : null;
  renderFelt(drawn, { mySeat: state.seat, holding, thinking, decorate: (seat, label) => decorateSeat(state, seat, label) });
  renderStatus(drawn, holding);
  renderBidTotal(drawn);
  renderRules(game);
  const ctx = { canAct: canAct(), blocked, act, notice };
  renderBids(drawn, ctx);
  renderHand(drawn, ctx);
  yieldChatSheet(drawn);
  renderLastTrick(game);
  renderSummary(game, holding, { state, tableId, token, holdUntil });
  renderSheet(game, sheet);
}

// The game as it stood when the round of `held` (the shown round: number, size, dealer) ended: its
// bids and tricks (the state's last_round), nothing in hand, nobody to act.
/**
 * @param {Game} game
 * @param {{round: number, size: number, trump: string | null, dealer: number}} held
 * @returns {Game}
 */
function roundEnd(game, held) {
  const last = game.last_round;
  return {
    ...game,
    round: last.number,
    hand_size: last.hand_size,
    dealer: held.round === last.number ? held.dealer : null,
    phase: "playing",
    bids: last.bids,
    tricks_won: last.tricks,
    tricks_done: last.hand_size,
    trick: [],
    awaiting: [],
    my_turn: false,
    hand: [],
    foreheads: null, // the next round's blind cards are not this round's
    bid_options: [],
    bid_restriction: null,
  };
}

// A phone's chat sheet covers the bids, the hand and this seat's clock: when this seat's turn comes,
// the sheet folds away (the line being written stays in its input), so nobody times out typing.
let myTurnWas = false;
/** @param {Game} game the game as drawn */
function yieldChatSheet(game) {
  const turn = Boolean(game.my_turn && !game.over && canAct());
  const starts = turn && !myTurnWas;
  myTurnWas = turn;
  const chat = $("chat");
  if (starts && chat && chat.classList.contains("open") && matchMedia("(max-width: 1099px)").matches) {
    $("chat-close")?.click();
  }
}

// ------------------------------------------------------------------ the rules, in words

let rulesDrawn = "";

fetch("/api/options")
  .then((answer) => (answer.ok ? answer.json() : null))
  .then((/** @type {{presets?: import("./table-panels.js").Preset[]} | null} */ options) => {
    presets = (options && options.presets) || [];
    rulesDrawn = "";
    if (state) render();
  })
  .catch(() => {
    presets = [];
  });

/** @param {Game} game the state's game part */
function renderRules(game) {
  const options = state ? state.options : null;
  const key = JSON.stringify([game.rules, options, presets !== null, document.documentElement.lang]);
  if (rulesDrawn === key) return;
  rulesDrawn = key;
  $("rules-preset").textContent = presetLine(game.rules, presets);
  $("rules-list").replaceChildren(...ruleItems(game.rules, options));
}

/**
 * @param {Game} game
 * @param {boolean} holding
 */
function renderStatus(game, holding) {
  let text;
  if (damaged()) text = WORDS.damaged();
  else if (!connected) text = WORDS.statusLost();
  else if (game.over) text = WORDS.over();
  else if (holding) text = WORDS.takes(game.players[game.last_trick.winner]);
  else if (state.invited) text = ""; // the seat is offered to take back (table-seatlink.js): not this page's turn yet
  else if (game.my_turn) text = game.phase === "bidding" ? WORDS.yourBid() : WORDS.yourCard();
  else if (game.awaiting.length) {
    text = WORDS.waitingFor(game.awaiting.map((/** @type {number} */ s) => game.players[s]).join(", "), game.phase === "bidding");
  } else text = "";
  $("status").textContent = text;
}

// The message area over the table: why a tap did nothing, for a few seconds (a tap closes it).
let noticeTimer = 0;
/** @param {string} text */
function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
  // Over the status lines under the felt, rising from their foot: never over a seat across the
  // table or the cards played (it used to sit over the top seat and its card).
  const under = $("bid-total").getBoundingClientRect();
  box.style.top = `${Math.max(0, window.scrollY + under.bottom - box.offsetHeight)}px`;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 5000);
}

// ------------------------------------------------------------------ wiring

$("notice").addEventListener("click", () => ($("notice").hidden = true));
const rulesPanel = /** @type {HTMLDialogElement} */ ($("rules-panel"));
$("rules-button").addEventListener("click", () => rulesPanel.showModal());
$("rules-close").addEventListener("click", () => rulesPanel.close());

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  join(/** @type {HTMLInputElement} */ ($("join-name")).value);
});

installResults();
installKeys(() => state && state.game, { act, canAct });
wireRematch(() => state, { tableId, token: () => token, notice });
installChat({ tableId, send: socket.send });
installSeatLinks({ tableId, token: () => token, send: socket.send, join });
// An away person's minutes go on between states, and a seat may become one to give to a bot.
setInterval(() => {
  if (!state) return;
  refreshPresence(state);
  renderSeatTools(state, seatTools);
}, 5000);

// The felt's layout is in pixels: lay it out again when the window changes size.
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => state && state.game && !$("play").hidden && render());
});
