// Table talk: the chat beside the felt (a column on a wide screen, a sheet from the bottom on a
// phone, opened from its button with the count of lines not yet read), quick reactions shown on the
// sender's seat for a few seconds, and mute per viewer (kept in this browser only).
//
// Text only: every line is put in with textContent, never as HTML. The server keeps the chat, checks
// its text and limits how fast people write; the page refuses a line over 200 characters in words and
// keeps it in the box (a paste is never cut), says the
// table's notices (someone left, came back, was given to a bot) in its own language from `event` and
// `facts`, and lets screen readers hear each new line politely.

import { t } from "/static/i18n.js";
import { refusalText } from "./table-panels.js";
import { $, el } from "./dom.js";

const LIMIT = 200;
const REACTION_MS = 3000;
const NAME_KEY = "upriver.chatName";

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  title: () => t("table.chat.title"),
  toggle: () => t("table.chat.toggle"),
  unread: (/** @type {number} */ count) => t("table.chat.unread", { count }),
  close: () => t("table.chat.close"),
  placeholder: () => t("table.chat.placeholder"),
  inputLabel: (/** @type {number} */ limit) => t("table.chat.inputLabel", { limit }),
  send: () => t("table.chat.send"),
  nameLabel: () => t("table.chat.nameLabel"),
  readOnly: () => t("table.chat.readOnly"),
  empty: () => t("table.chat.empty"),
  muteHead: () => t("table.chat.muteHead"),
  muteSeat: (/** @type {string} */ who) => t("table.chat.muteSeat", { who }),
  spectators: () => t("table.chat.spectators"),
  watcher: (/** @type {string} */ name) => t("table.chat.watcher", { name }),
  reactions: () => t("table.chat.reactions"),
  reacted: (/** @type {string} */ who, /** @type {string} */ reaction) => t("table.chat.reacted", { who, reaction }),
  counter: (/** @type {number} */ n, /** @type {number} */ limit) => t("table.chat.counter", { n, limit }),
  /** @type {Record<string, (who: string, by: string) => string>} the table's notices, by their event */
  system: {
    left: (/** @type {string} */ who) => t("table.chat.left", { who }),
    back: (/** @type {string} */ who) => t("table.chat.back", { who }),
    handover: (/** @type {string} */ who, /** @type {string} */ by) => t("table.chat.handover", { who, by }),
    "away-bot": (/** @type {string} */ who) => t("table.chat.awayBot", { who }),
    "clock-bot": (/** @type {string} */ who) => t("table.chat.clockBot", { who }),
    reinvited: (/** @type {string} */ who, /** @type {string} */ by) => t("table.chat.reinvited", { who, by }),
  },
  /** @type {Record<string, () => string>} */
  reaction: {
    "well-played": () => t("table.react.wellPlayed"),
    "good-luck": () => t("table.react.goodLuck"),
    oops: () => t("table.react.oops"),
    thanks: () => t("table.react.thanks"),
    "👍": () => t("table.react.thumbsUp"),
    "😂": () => t("table.react.laugh"),
    "😮": () => t("table.react.wow"),
    "🎉": () => t("table.react.party"),
  },
};
const REACTIONS = Object.keys(WORDS.reaction);
const EMOJI = new Set(["👍", "😂", "😮", "🎉"]);

/** @type {import("./table-socket.js").TableState | null} */
let state = null;
let tableId = "";
/** @type {(message: object) => boolean} sends a message on the table's socket; false when it is closed */
let send = () => false;
/**
 * A line of the chat as the server sends it: `n` in order; a person's `text` (a seat's, or a
 * spectator's with `name`), or a table's notice (`kind` "system": its `event` and `facts`).
 * @typedef {{n: number, kind?: string, seat?: number | null, name?: string, text?: string, at?: number, event?: string, facts?: Record<string, any>}} ChatLine
 */

/** @type {ChatLine[]} the chat's lines, oldest first (the server's last 100, then each new one) */
let lines = [];
let unread = 0;
/** @type {{id: string, text: string | null, at: number} | null} the line or reaction last sent, to put a refusal beside it */
let lastSent = null;
/** @type {Map<number, {reaction: string, until: number}>} seat -> the reaction shown on it now, and until when */
const active = new Map();
let counter = 0;

// ------------------------------------------------------------------ mute, per viewer

const muteKey = () => `upriver.mute.${tableId}`;
const seatKey = (/** @type {number | null | undefined} */ seat) => (seat === null || seat === undefined ? "spectators" : String(seat));

function muted() {
  try {
    const list = JSON.parse(localStorage.getItem(muteKey()) || "[]");
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch {
    return new Set();
  }
}

/**
 * @param {string} key a seat's number, or "spectators"
 * @param {boolean} on
 */
function setMuted(key, on) {
  const set = muted();
  if (on) set.add(key);
  else set.delete(key);
  try {
    localStorage.setItem(muteKey(), JSON.stringify([...set]));
  } catch {
    // not kept (a private window): muted for this page only
  }
  mutedNow = set;
  drawLog();
  for (const [seat] of active) if (set.has(seatKey(seat))) hideReaction(seat);
}

/** @type {Set<string>} */
let mutedNow = new Set();

// ------------------------------------------------------------------ building the panel

function build() {
  const panel = el("aside", { id: "chat", className: "chat", hidden: true }); // until the table says who may write
  panel.setAttribute("aria-labelledby", "chat-title");
  const close = el("button", { type: "button", id: "chat-close", className: "chat-close", textContent: "✕" });
  close.setAttribute("aria-label", WORDS.close());
  close.addEventListener("click", () => openChat(false));
  const head = el("div", { className: "chat-head" }, el("h2", { id: "chat-title", textContent: WORDS.title() }), close);
  const log = el("ol", { id: "chat-log", className: "chat-log" });
  log.setAttribute("aria-live", "polite");
  log.setAttribute("aria-relevant", "additions");
  log.tabIndex = 0; // a keyboard scrolls the lines
  log.setAttribute("aria-label", WORDS.title());
  const reactions = el("div", { className: "reactions" });
  reactions.setAttribute("role", "group");
  reactions.setAttribute("aria-label", WORDS.reactions());
  for (const reaction of REACTIONS) {
    const b = el("button", { type: "button", className: `react${EMOJI.has(reaction) ? " emoji" : ""}`, textContent: EMOJI.has(reaction) ? reaction : WORDS.reaction[reaction]() });
    b.dataset.reaction = reaction;
    if (EMOJI.has(reaction)) {
      b.setAttribute("aria-label", WORDS.reaction[reaction]());
      b.title = WORDS.reaction[reaction]();
    }
    b.addEventListener("click", () => {
      const id = `react-${++counter}`;
      lastSent = { id, text: null, at: Date.now() };
      send({ type: "react", reaction, id });
    });
    if (reaction === "👍") reactions.append(el("span", { className: "react-break" }));
    reactions.append(b);
  }
  const name = el("input", { id: "chat-name", maxLength: 24, autocomplete: "nickname" });
  name.setAttribute("aria-label", WORDS.nameLabel());
  name.placeholder = WORDS.nameLabel();
  try {
    name.value = localStorage.getItem(NAME_KEY) || "";
  } catch {
    // no storage: typed each time
  }
  const input = el("input", { id: "chat-input", autocomplete: "off", placeholder: WORDS.placeholder() });
  input.setAttribute("aria-label", WORDS.inputLabel(LIMIT));
  input.setAttribute("aria-describedby", "chat-count");
  const count = el("span", { id: "chat-count", className: "chat-count", textContent: WORDS.counter(0, LIMIT) });
  input.addEventListener("input", () => {
    const length = [...input.value].length; // characters as the server counts them
    count.textContent = WORDS.counter(length, LIMIT);
    count.classList.toggle("full", length >= LIMIT);
  });
  const submit = el("button", { type: "submit", className: "primary", textContent: WORDS.send() });
  const form = el("form", { id: "chat-form", className: "chat-form" }, name, input, count, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > LIMIT) { // refused here in the server's words, the line left to shorten
      $("chat-error").textContent = refusalText({ rule: "chat", facts: { case: "too long", limit: LIMIT } });
      return;
    }
    const id = `chat-${++counter}`;
    /** @type {{type: string, text: string, id: string, name?: string}} */
    const message = { type: "chat", text, id };
    if (state && state.seat === null) {
      message.name = name.value.trim();
      try {
        localStorage.setItem(NAME_KEY, message.name);
      } catch {
        // not kept
      }
    }
    if (!send(message)) return;
    lastSent = { id, text, at: Date.now() };
    $("chat-error").textContent = "";
    input.value = "";
    count.textContent = WORDS.counter(0, LIMIT);
  });
  const readOnly = el("p", { id: "chat-readonly", className: "hint", textContent: WORDS.readOnly() });
  const error = el("p", { id: "chat-error", className: "error", role: "alert" });
  const mute = el("details", { className: "chat-mute" }, el("summary", { textContent: WORDS.muteHead() }), el("ul", { id: "chat-mute-list" }));
  panel.append(head, log, reactions, form, readOnly, error, mute);
  document.body.append(panel);
  const announce = el("p", { id: "chat-announce", className: "visually-hidden" });
  announce.setAttribute("aria-live", "polite");
  document.body.append(announce);
  const toggle = $("chat-toggle");
  if (toggle) toggle.addEventListener("click", () => openChat(!panel.classList.contains("open")));
  // Escape closes the phone's sheet, as the ✕ does, and gives the keyboard back to its button.
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panel.classList.contains("open")) openChat(false);
  });
}

/** @param {boolean} open */
function openChat(open) {
  $("chat").classList.toggle("open", open);
  document.body.classList.toggle("chat-open", open);
  document.body.classList.toggle("chat-closed", !open); // a wide screen folds its column away (style.css)
  const toggle = $("chat-toggle");
  if (toggle) toggle.setAttribute("aria-expanded", String(open));
  if (open) {
    unread = 0;
    drawToggle();
    const log = $("chat-log");
    log.scrollTop = log.scrollHeight;
    ($("chat-input").offsetParent ? $("chat-input") : $("chat-close") || log).focus({ preventScroll: true });
  } else if (toggle) toggle.focus({ preventScroll: true });
}

// Whether the lines can be seen now: the column of a wide screen, or the phone's sheet opened.
const seen = () => {
  const panel = $("chat");
  return Boolean(panel && panel.offsetParent !== null && getComputedStyle(panel).visibility !== "hidden");
};

function drawToggle() {
  const toggle = $("chat-toggle");
  if (!toggle) return;
  const badge = el("span", { className: "unread", textContent: unread ? String(unread) : "" });
  badge.hidden = !unread;
  const icon = el("span", { textContent: "💬 " });
  icon.setAttribute("aria-hidden", "true");
  toggle.replaceChildren(icon, WORDS.toggle(), " ", badge);
  toggle.setAttribute("aria-label", unread ? `${WORDS.toggle()}, ${WORDS.unread(unread)}` : WORDS.toggle());
}

// ------------------------------------------------------------------ the lines

const nameOf = (/** @type {number | null | undefined} */ seat) => {
  if (!state || seat === null || seat === undefined) return "?";
  return (state.game ? state.game.players[seat] : state.lobby.seats[seat] && state.lobby.seats[seat].name) || "?";
};

/** @param {ChatLine} line */
function lineText(line) {
  if (line.kind === "system") {
    const facts = line.facts || {};
    const words = WORDS.system[line.event];
    if (words) return words(nameOf(facts.seat), nameOf(facts.by));
    return String(line.text || "");
  }
  return String(line.text || "");
}

/** @param {number | undefined} at */
function timeOf(at) {
  if (typeof at !== "number") return "";
  return new Date(at * 1000).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
}

/** @param {ChatLine} line */
function lineItem(line) {
  const li = el("li", { className: `chat-line ${line.kind === "system" ? "system" : "text"}` });
  li.dataset.n = String(line.n);
  if (line.seat !== null && line.seat !== undefined) li.dataset.seat = String(line.seat);
  const time = el("time", { className: "chat-time", textContent: timeOf(line.at) });
  if (line.kind === "system") {
    li.append(time, " ", el("span", { className: "chat-text", textContent: lineText(line) }));
    return li;
  }
  const who = line.seat === null || line.seat === undefined ? WORDS.watcher(String(line.name || "?")) : String(line.name || nameOf(line.seat));
  if (state && line.seat === state.seat && line.seat !== null) li.classList.add("mine");
  li.append(time, " ", el("strong", { className: "chat-name", textContent: who }), " ", el("span", { className: "chat-text", textContent: lineText(line) }));
  return li;
}

const visible = (/** @type {ChatLine} */ line) => line.kind === "system" || !mutedNow.has(seatKey(line.seat));

function drawLog() {
  const log = $("chat-log");
  if (!log) return;
  const shown = lines.filter(visible);
  log.setAttribute("aria-live", "off"); // a whole log drawn again is not read out again
  log.replaceChildren(...(shown.length ? shown.map(lineItem) : [el("li", { className: "chat-empty", textContent: WORDS.empty() })]));
  log.scrollTop = log.scrollHeight;
  requestAnimationFrame(() => log.setAttribute("aria-live", "polite"));
}

// A `chat` message: the last lines on connecting (`full`), then each new one.
/** @param {{lines?: ChatLine[], full?: boolean}} message */
export function takeChat(message) {
  const fresh = Array.isArray(message.lines) ? message.lines : [];
  if (message.full) {
    lines = fresh.slice(-100);
    drawLog();
    return;
  }
  const known = new Set(lines.map((l) => l.n));
  const log = $("chat-log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  for (const line of fresh) {
    if (known.has(line.n)) continue;
    lines.push(line);
    if (!visible(line)) continue;
    log.querySelector(".chat-empty")?.remove();
    log.append(lineItem(line));
    const own = state && line.seat === state.seat && line.kind !== "system" && line.seat !== null;
    if (!seen() && !own) unread += 1;
  }
  lines = lines.slice(-200);
  while (log.children.length > 200) log.firstElementChild.remove();
  if (atEnd) log.scrollTop = log.scrollHeight;
  drawToggle();
}

// ------------------------------------------------------------------ reactions on the seats

/** @param {number} seat */
function hideReaction(seat) {
  active.delete(seat);
  document.querySelector(`#seats .seat[data-seat="${seat}"] .reaction`)?.remove();
}

// A `reaction` message: shown on the sender's seat for a few seconds, unless muted.
/** @param {{seat?: number | null, reaction: string}} message */
export function takeReaction(message) {
  const seat = message.seat;
  const words = WORDS.reaction[message.reaction];
  if (seat === null || seat === undefined || !words || mutedNow.has(seatKey(seat))) return;
  active.set(seat, { reaction: message.reaction, until: performance.now() + REACTION_MS });
  const label = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  if (label) {
    label.querySelector(".reaction")?.remove();
    label.append(reactionBubble(seat));
    placeBubbles();
  }
  const announce = $("chat-announce");
  if (announce) announce.textContent = WORDS.reacted(nameOf(seat), words());
  setTimeout(() => {
    const now = active.get(seat);
    if (now && now.until <= performance.now() + 50) hideReaction(seat);
  }, REACTION_MS + 20);
}

// The reaction a seat shows now, as a bubble above its label (drawn with each label), or null.
/** @param {number} seat */
export function reactionBubble(seat) {
  const now = active.get(seat);
  if (!now || now.until < performance.now()) return null;
  const bubble = el("div", { className: `reaction${EMOJI.has(now.reaction) ? " emoji" : ""}`, textContent: EMOJI.has(now.reaction) ? now.reaction : WORDS.reaction[now.reaction]() });
  bubble.dataset.reaction = now.reaction;
  // Drawn again with its label (each state redraws the felt): it pops up only when it first comes.
  if (performance.now() - (now.until - REACTION_MS) > 250) bubble.classList.add("settled");
  bubble.setAttribute("aria-hidden", "true"); // said once, politely, when it came (#chat-announce)
  return bubble;
}

// A bubble goes above its seat, or below it for the seats along the top of the felt (never off it).
export function placeBubbles() {
  const felt = $("felt");
  for (const bubble of document.querySelectorAll("#seats .seat .reaction")) {
    const label = /** @type {HTMLElement} */ (bubble.closest(".seat"));
    bubble.classList.toggle("below", Boolean(felt) && parseFloat(label.style.top) < felt.clientHeight * 0.35);
  }
}

// ------------------------------------------------------------------ each state

function drawMute() {
  const list = $("chat-mute-list");
  /** @type {[string, string][]} */
  const people = [];
  if (state) {
    const count = state.game ? state.game.players.length : state.lobby.seats.length;
    const kinds = (state.game && state.game.kinds) || state.lobby.seats.map((/** @type {{kind: string}} */ s) => s.kind);
    for (let seat = 0; seat < count; seat++) if (seat !== state.seat && kinds[seat] === "human") people.push([String(seat), nameOf(seat)]);
  }
  people.push(["spectators", WORDS.spectators()]);
  const key = JSON.stringify(people);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(
    ...people.map(([k, who]) => {
      const box = el("input", { type: "checkbox", checked: mutedNow.has(k) });
      box.dataset.mute = k;
      box.setAttribute("aria-label", WORDS.muteSeat(who));
      box.addEventListener("change", () => setMuted(k, box.checked));
      return el("li", {}, el("label", {}, box, " ", who));
    }),
  );
}

// Each state: who may write (a spectator only where the table allows), and the mute list's names.
/** @param {import("./table-socket.js").TableState} next */
export function renderChat(next) {
  state = next;
  // A table of bots only has nobody to talk to: no chat there (unless its spectators may write).
  const kinds = (state.game && state.game.kinds) || state.lobby.seats.map((/** @type {{kind: string}} */ s) => s.kind);
  const quiet = !kinds.includes("human") && !(state.options && state.options.spectator_chat);
  $("chat").hidden = quiet;
  if ($("chat-toggle")) $("chat-toggle").hidden = quiet;
  const spectator = state.seat === null;
  const mayWrite = !spectator || Boolean(state.options && state.options.spectator_chat);
  $("chat-form").hidden = !mayWrite;
  $("chat-name").hidden = !spectator;
  /** @type {HTMLInputElement} */ ($("chat-name")).required = spectator;
  $("chat-readonly").hidden = mayWrite;
  /** @type {HTMLElement} */ ($("chat").querySelector(".reactions")).hidden = spectator;
  drawMute();
  // A name in the chat may have changed (a seat joined): the lines name seats by the state.
  if (lines.some((l) => l.kind === "system")) {
    const key = JSON.stringify(state.game ? state.game.players : state.lobby.seats.map((/** @type {{name: string}} */ s) => s.name));
    if ($("chat-log").dataset.names !== key) {
      $("chat-log").dataset.names = key;
      drawLog();
    }
  }
}

// An `error` message the chat caused (a line too long, too fast, or not allowed here): shown under
// the input, with the line given back to be sent again. Returns whether it was the chat's.
/** @param {{id?: string, rule?: string, facts?: Record<string, any>, message?: string}} message */
export function chatRefused(message) {
  const ours = lastSent && (message.id === lastSent.id || (!message.id && Date.now() - lastSent.at < 3000 && /chat|react|rate|flood|text|spectator/.test(String(message.rule))));
  if (!ours) return false;
  $("chat-error").textContent = refusalText(message);
  const input = /** @type {HTMLInputElement} */ ($("chat-input"));
  if (lastSent.text && !input.value) {
    input.value = lastSent.text;
    input.dispatchEvent(new Event("input"));
  }
  lastSent = null;
  return true;
}

// Once, as the page opens: the panel, its words, and how it sends (`ctx.send(message)`).
/** @param {{tableId: string, send: (message: object) => boolean}} ctx */
export function installChat(ctx) {
  tableId = ctx.tableId;
  send = ctx.send;
  mutedNow = muted();
  build();
  drawLog();
  drawToggle();
}
