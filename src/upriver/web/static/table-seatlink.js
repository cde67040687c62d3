// A seat's link, moved on purpose: the seat's person moves it to another device (its QR code and the
// link itself, each shown only on request, marked private, with "Sign out my other devices"); the
// host gives an away person's seat a new link (never while that person is connected) and sees it in
// a dialog; and a page opened on such a new link offers the seat to take back, under its name.
// The server decides each one (`rekey`, `reinvite`, `join`); a refusal comes back as an `error`.

import { t } from "/static/i18n.js";
import { ask } from "./table-seatctl.js";
import { presenceOf } from "./table-presence.js";
import { $, el } from "./dom.js";

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  move: () => t("table.move.button"),
  intro: () => t("table.move.intro"),
  privateNote: () => t("table.move.private"),
  show: () => t("table.move.show"),
  hide: () => t("table.move.hide"),
  qrAlt: () => t("table.move.qrAlt"),
  qrFailed: () => t("table.move.qrFailed"),
  linkLabel: () => t("table.move.linkLabel"),
  signOutTitle: () => t("table.move.signOutTitle"),
  signOutText: () => t("table.move.signOutText"),
  signedOut: () => t("table.move.signedOut"),
  copy: () => t("lobby.copy"),
  copied: () => t("lobby.copied"),
  copyYourself: () => t("lobby.copy_yourself"),
  close: () => t("table.close"),
  reinvite: (/** @type {string} */ name) => t("table.reinvite.button", { name }),
  reinviteAsk: (/** @type {string} */ name) => t("table.reinvite.ask", { name }),
  reinviteYes: () => t("table.reinvite.yes"),
  reinviteAgain: (/** @type {string} */ name) => t("table.reinvite.again", { name }),
  reinviteTitle: (/** @type {string} */ name) => t("table.reinvite.title", { name }),
  reinviteText: (/** @type {string} */ name) => t("table.reinvite.text", { name }),
  reinviteLink: (/** @type {string} */ name) => t("table.reinvite.linkLabel", { name }),
  takeTitle: (/** @type {string} */ name) => t("table.takeSeat.title", { name }),
  takeText: (/** @type {string} */ name) => t("table.takeSeat.text", { name }),
};

/**
 * What the page lends this module: its table, the token it holds now, its socket's `send`, and its
 * `join(name)` (table-join.js's safe join).
 * @typedef {{tableId: string, token: () => string | null, send: (message: object) => boolean, join: (name: string) => void}} SeatLinkPage
 */

/** @type {SeatLinkPage | null} */
let page = null;

/** @param {SeatLinkPage} given */
export function installSeatLinks(given) {
  page = given;
  $("take-seat-button").addEventListener("click", () => {
    const name = $("take-seat").dataset.name;
    if (page && name) page.join(name);
  });
}

const nameOf = (/** @type {import("./table-socket.js").TableState} */ state, /** @type {number} */ seat) =>
  (state.game ? state.game.players[seat] : state.lobby.seats[seat].name) || "?";
const playing = (/** @type {import("./table-socket.js").TableState} */ state) => Boolean(state.game && state.lobby.started && !state.game.over);
// This page holds its seat (joined, not an invite waiting to be taken).
const seated = (/** @type {import("./table-socket.js").TableState} */ state) =>
  state.seat !== null && Boolean(state.lobby.seats[state.seat]?.joined) && !state.invited;
/** @returns {{seat: number, url: string}[]} the host's invites (the host's state alone carries them) */
const invitesOf = (/** @type {import("./table-socket.js").TableState} */ state) => (Array.isArray(state.lobby.invites) ? state.lobby.invites : []);
const isHost = (/** @type {import("./table-socket.js").TableState} */ state) => Array.isArray(state.lobby.invites) && seated(state);
const absolute = (/** @type {string} */ url) => (url.startsWith("/") ? location.origin + url : url);

// ------------------------------------------------------------------ the buttons in the seat's tools

/**
 * The seats whose person the host may give a new link now: away (connected nowhere), a person's,
 * not the host's own, and not already waiting on a new link.
 * @param {import("./table-socket.js").TableState} state
 * @returns {number[]}
 */
export function reinvitable(state) {
  if (!isHost(state) || !playing(state)) return [];
  const waiting = new Set(invitesOf(state).map((invite) => invite.seat));
  return state.game.players
    .map((/** @type {string} */ _, /** @type {number} */ seat) => seat)
    .filter((/** @type {number} */ seat) => seat !== state.seat && !waiting.has(seat) && presenceOf(state, seat)?.status === "away");
}

/**
 * The seat links' buttons among the seat's tools, and a key that changes when they do.
 * @param {import("./table-socket.js").TableState} state
 * @returns {{key: string, items: HTMLElement[]}}
 */
export function seatLinkTools(state) {
  const away = reinvitable(state);
  // Mid-game, the seats re-invited and not taken yet: their link again, for the host to send.
  const waiting = isHost(state) && playing(state) ? invitesOf(state).map((invite) => invite.seat) : [];
  const canMove = seated(state) && Boolean(page && page.token());
  const key = JSON.stringify([canMove, away, waiting, away.map((seat) => nameOf(state, seat))]);
  /** @type {HTMLElement[]} */
  const items = [];
  for (const seat of away) {
    const name = nameOf(state, seat);
    const b = button(WORDS.reinvite(name), "reinvite", async () => {
      if (!(await ask(WORDS.reinviteAsk(name), WORDS.reinviteYes()))) return;
      asked = seat;
      page?.send({ type: "reinvite", seat });
    });
    b.dataset.seat = String(seat);
    items.push(b);
  }
  for (const seat of waiting) {
    const b = button(WORDS.reinviteAgain(nameOf(state, seat)), "reinvite-again", () => showReinvite(state, seat));
    b.dataset.seat = String(seat);
    items.push(b);
  }
  if (canMove) items.push(button(WORDS.move(), "move-seat", () => openMove()));
  return { key, items };
}

/**
 * @param {string} text
 * @param {string} className
 * @param {() => void} onClick
 */
function button(text, className, onClick) {
  return el("button", { type: "button", className, textContent: text, onclick: onClick });
}

// A dialog's ✕ at its top corner, as the round's summary has: a tall dialog on a phone closes
// without scrolling to its foot.
/** @param {HTMLDialogElement} dialog */
function closeCross(dialog) {
  return el("button", { type: "button", className: "overlay-close", "aria-label": WORDS.close(), textContent: "✕", onclick: () => dialog.close() });
}

// ------------------------------------------------------------------ copying a link

/**
 * @param {HTMLInputElement} input the link's field
 * @param {HTMLElement} status where "Copied." is said
 */
async function copy(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.focus();
    input.select();
    if (!document.execCommand("copy")) {
      status.textContent = WORDS.copyYourself();
      return;
    }
  }
  status.textContent = WORDS.copied();
  setTimeout(() => (status.textContent = ""), 2500);
}

/**
 * A labelled read-only field holding `url`, with its Copy button and the status saying it was copied.
 * @param {string} id
 * @param {string} label
 */
function linkRow(id, label) {
  const input = el("input", { id, className: "link-text", readOnly: true, autocomplete: "off" });
  const status = el("span", { className: "copied", role: "status" });
  const copyButton = el("button", { type: "button", className: "copy", textContent: WORDS.copy(), onclick: () => copy(input, status) });
  input.addEventListener("focus", () => input.select());
  const row = el("div", { className: "link-row" }, el("label", { for: id, className: "link-label", textContent: label }), input, copyButton, status);
  return { row, input, status };
}

// ------------------------------------------------------------------ move to another device

/** @type {{dialog: HTMLDialogElement, show: HTMLButtonElement, box: HTMLElement, qr: HTMLImageElement, qrFailed: HTMLElement, input: HTMLInputElement, done: HTMLElement} | null} */
let move = null;
let rekeying = false;

function moveDialog() {
  if (move) return move;
  const dialog = el("dialog", { id: "move-dialog", className: "seatlink-dialog", "aria-labelledby": "move-title" });
  const show = el("button", { type: "button", id: "move-show", "aria-expanded": "false", "aria-controls": "move-link-box", textContent: WORDS.show() });
  const qr = el("img", { id: "move-qr", className: "seat-qr", alt: WORDS.qrAlt(), width: 180, height: 180 });
  const qrFailed = el("p", { id: "move-qr-failed", className: "hint", textContent: WORDS.qrFailed(), hidden: true });
  const link = linkRow("move-link", WORDS.linkLabel());
  const box = el("div", { id: "move-link-box", className: "link-box", hidden: true }, qr, qrFailed, link.row);
  const signOut = el("button", { type: "button", id: "move-signout", textContent: WORDS.signOutTitle() });
  const done = el("p", { id: "move-signed-out", className: "done-note", role: "status" });
  const close = el("button", { type: "button", id: "move-close", className: "primary", textContent: WORDS.close(), onclick: () => dialog.close() });
  dialog.append(
    closeCross(dialog),
    el("h2", { id: "move-title", textContent: WORDS.move() }),
    el("p", { textContent: WORDS.intro() }),
    el("p", { className: "private-note", textContent: WORDS.privateNote() }),
    el("p", {}, show),
    box,
    el("h3", { textContent: WORDS.signOutTitle() }),
    el("p", { className: "hint", textContent: WORDS.signOutText() }),
    el("p", {}, signOut),
    done,
    el("p", { className: "confirm-actions" }, close),
  );
  show.addEventListener("click", () => (box.hidden ? revealLink() : hideLink()));
  signOut.addEventListener("click", () => {
    if (!page) return;
    done.textContent = "";
    rekeying = page.send({ type: "rekey" });
  });
  // Closed, the link is hidden again: it shows only when asked for, each time.
  dialog.addEventListener("close", () => {
    hideLink();
    done.textContent = "";
  });
  document.body.append(dialog);
  move = { dialog, show, box, qr, qrFailed, input: link.input, done };
  return move;
}

function openMove() {
  const m = moveDialog();
  hideLink();
  m.dialog.showModal();
  m.show.focus();
}

function hideLink() {
  if (!move) return;
  move.box.hidden = true;
  move.input.value = "";
  move.qr.removeAttribute("src");
  move.show.textContent = WORDS.show();
  move.show.setAttribute("aria-expanded", "false");
}

// The seat's link, written out and as a QR code (drawn by the server: POST, the token in the body).
async function revealLink() {
  const m = moveDialog();
  const token = page && page.token();
  if (!page || !token) return;
  m.input.value = `${location.origin}/t/${encodeURIComponent(page.tableId)}#token=${encodeURIComponent(token)}`;
  m.box.hidden = false;
  m.show.textContent = WORDS.hide();
  m.show.setAttribute("aria-expanded", "true");
  m.qrFailed.hidden = true;
  m.qr.hidden = false;
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}/qr`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (!answer.ok) throw new Error(String(answer.status));
    const svg = await answer.text();
    if (m.box.hidden || page.token() !== token) return; // hidden again, or the seat's link changed meanwhile
    m.qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  } catch {
    m.qr.hidden = true;
    m.qrFailed.hidden = false;
  }
}

/** The seat's token changed (a `seat` message): an open move dialog shows the new link, and says
 * the other devices are signed out when this page asked. */
export function seatTokenChanged() {
  if (!move || !move.dialog.open) return;
  if (!move.box.hidden) revealLink();
  if (rekeying) move.done.textContent = WORDS.signedOut();
  rekeying = false;
}

// ------------------------------------------------------------------ the host's new link for a seat

/** @type {number | null} the seat the host just asked a new link for, until its link comes */
let asked = null;

/** @type {{dialog: HTMLDialogElement, title: HTMLElement, text: HTMLElement, label: HTMLElement, input: HTMLInputElement, status: HTMLElement} | null} */
let reinvited = null;

function reinviteDialog() {
  if (reinvited) return reinvited;
  const dialog = el("dialog", { id: "reinvite-dialog", className: "seatlink-dialog", "aria-labelledby": "reinvite-title" });
  const title = el("h2", { id: "reinvite-title" });
  const text = el("p", { id: "reinvite-text" });
  const link = linkRow("reinvite-link", "");
  const close = el("button", { type: "button", id: "reinvite-close", className: "primary", textContent: WORDS.close(), onclick: () => dialog.close() });
  dialog.append(closeCross(dialog), title, text, link.row, el("p", { className: "confirm-actions" }, close));
  document.body.append(dialog);
  const label = /** @type {HTMLElement} */ (link.row.querySelector("label"));
  reinvited = { dialog, title, text, label, input: link.input, status: link.status };
  return reinvited;
}

/**
 * The new link of `seat` (from the host's `lobby.invites`) in a dialog, with its Copy button.
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 */
function showReinvite(state, seat) {
  const invite = invitesOf(state).find((i) => i.seat === seat);
  if (!invite) return;
  const name = nameOf(state, seat);
  const d = reinviteDialog();
  d.title.textContent = WORDS.reinviteTitle(name);
  d.text.textContent = WORDS.reinviteText(name);
  d.label.textContent = WORDS.reinviteLink(name);
  d.input.value = absolute(invite.url);
  d.status.textContent = "";
  d.dialog.dataset.seat = String(seat);
  if (!d.dialog.open) d.dialog.showModal();
  d.input.focus();
}

/**
 * Each state: the seat the host asked a new link for has it now: show it. A re-invited seat taken
 * back closes its dialog.
 * @param {import("./table-socket.js").TableState} state
 */
export function noticeReinvite(state) {
  if (asked !== null && invitesOf(state).some((invite) => invite.seat === asked)) {
    const seat = asked;
    asked = null;
    showReinvite(state, seat);
  }
}

/** A refusal came (the `reinvite` one, say): no new link is on its way. */
export function reinviteRefused() {
  asked = null;
}

// ------------------------------------------------------------------ taking a re-invited seat back

/**
 * A page opened on a re-invited seat's link while the game is on offers that seat, under its name,
 * in place of the playing controls.
 * @param {import("./table-socket.js").TableState} state
 */
export function renderTakeSeat(state) {
  const offer = state.seat !== null && Boolean(state.invited) && playing(state);
  const box = $("take-seat");
  document.body.classList.toggle("is-invited", offer);
  box.hidden = !offer;
  if (!offer) return;
  const name = nameOf(state, state.seat);
  if (box.dataset.name === name && box.dataset.lang === document.documentElement.lang) return;
  box.dataset.name = name;
  box.dataset.lang = document.documentElement.lang;
  $("take-seat-title").textContent = WORDS.takeTitle(name);
  $("take-seat-text").textContent = WORDS.takeText(name);
}
