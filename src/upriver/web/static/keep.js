// The score keeper page: a sheet filled in by tapping, mistakes fixed, the evening followed, export,
// share. Every rule and every score comes from the engine (the server's, or the phone's: keep-api.js);
// this page only draws and asks. The sheet itself is drawn by sheet.js, as on the table page; the start
// page is keep-start.js, the fixes keep-fix.js, the evening keep-evening.js, the game link keep-share.js.

import { el, fill } from "./dom.js";
import { api as request } from "./keep-api.js";
import { WORDS as W } from "./keep-words.js";
import { rotatingTrump } from "./keep-house.js";
import { eveningPanel, markEvening, statistics } from "./keep-evening.js";
import { openDealer, openEdit, stepper } from "./keep-fix.js";
import { conflictPanel } from "./keep-conflicts.js";
import { gameLink, isGameLink, readGameLink } from "./keep-share.js";
import { earlierNames, home, readKeptNames } from "./keep-start.js";
import { exportSheet } from "./keep-export.js";
import { paperSheet } from "./paper.js";
import { SUITS as SUIT_INFO, chartLegend, drawChart, drawSheet, scrollsByKeyboard, suitText } from "./sheet.js";

/** @typedef {import("./keep-api.js").SheetView} SheetView */
/** @typedef {import("./keep-evening.js").Act} Act */
/**
 * What this browser keeps of each sheet it opened, by id (the start page lists them).
 * @typedef {Record<string, {title: string, players: string[], at: number}>} Known
 */

const SUITS = Object.entries(SUIT_INFO).map(([code, suit]) => ({ code, ...suit }));
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const KNOWN = "upriver.sheets"; // the sheets this browser has opened: id -> {title, players}
const POLL_MS = 4000;

const app = document.getElementById("app");
const errorBox = document.getElementById("error");
/** @type {SheetView | null} */
let sheet = null; // the latest sheet the server sent
/** @type {{kind: "bids" | "tricks", values: (number | null)[]} | null} */
let draft = null; // tricks or simultaneous bids being tapped in, before they are sent
/** @type {ReturnType<typeof setTimeout> | null} */
let errorTimer = null;

// ------------------------------------------------------------------ helpers

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { errorBox.hidden = true; }, 9000);
}

function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = "";
}

// Every request goes through keep-api.js: the server when it answers, else the engine on the phone.
/** @param {string} path @param {object} [body] @returns {Promise<any>} */
const api = (path, body) => request(path, body, sheet ? sheet.players : []);

/** @returns {Known} */
function known() {
  try { return JSON.parse(localStorage.getItem(KNOWN) || "{}"); } catch { return {}; }
}

/** @param {SheetView} s */
function remember(s) {
  if (!s.id) return;
  const all = known();
  all[s.id] = { title: s.title, players: s.players, at: Date.now() };
  localStorage.setItem(KNOWN, JSON.stringify(all));
}

/** @param {string} id */
function forget(id) {
  const all = known();
  delete all[id];
  localStorage.setItem(KNOWN, JSON.stringify(all));
}

const name = (/** @type {number} */ seat) => sheet.players[seat];

// ------------------------------------------------------------------ routing

function route() {
  if (isGameLink()) return openGameLink();
  const path = location.pathname.replace(/\/+$/, "");
  const shared = path.match(/^\/keep\/view\/([^/]+)$/);
  if (shared) return loadSheet(`/api/sheets/shared/${shared[1]}`);
  const own = path.match(/^\/keep\/([^/]+)$/);
  if (own) return loadSheet(`/api/sheets/${own[1]}`);
  return home({ app, api, showError, remember, known });
}

// A game link: the whole game in the link itself (keep-share.js), drawn with no request.
async function openGameLink() {
  try {
    sheet = await readGameLink();
  } catch {
    fill(app, el("h1", {}, W.notFound), el("p", {}, W.badLink), el("a", { href: "/keep", class: "button" }, W.allSheets));
    return;
  }
  render();
}

/** @type {ReturnType<typeof setInterval> | null} */
let pollTimer = null;

/** @param {string} url */
async function loadSheet(url) {
  try {
    sheet = await api(url);
  } catch (err) {
    const id = location.pathname.split("/").pop();
    if (err.status === 404) forget(id);
    fill(app, el("h1", {}, W.notFound), el("p", {}, err.message), el("a", { href: "/keep", class: "button" }, W.allSheets));
    return;
  }
  remember(sheet);
  draft = null;
  render();
  clearInterval(pollTimer);
  // Another phone, or the terminal, may write to the same sheet: pick up its entries.
  pollTimer = setInterval(async () => {
    if (document.visibilityState !== "visible" || document.querySelector("dialog[open]")) return;
    try {
      const latest = await api(url);
      // An answer older than the sheet on screen (the poll crossed an entry just made) is dropped.
      const newer = typeof latest.version === "number" && typeof sheet.version === "number"
        ? latest.version > sheet.version : latest.version !== sheet.version;
      // A conflict kept, or settled, on another phone changes no entry: it is seen by its list.
      const ids = (/** @type {SheetView} */ s) => (s.conflicts || []).map((c) => c.id).join();
      if (newer || (latest.version === sheet.version && ids(latest) !== ids(sheet))) { sheet = latest; draft = null; render(); }
    } catch { /* offline for a moment: try again later */ }
  }, POLL_MS);
}

// `say`: where a refusal is shown (the page's message at the foot of the screen, or a dialog's own line).
/** @type {Act} */
async function act(action, body = {}, say = showError) {
  try {
    sheet = await api(`/api/sheets/${sheet.id}/${action}`, { ...body, version: sheet.version });
    draft = null;
    clearError();
    render();
    return true;
  } catch (err) {
    if (err.status === 409) {
      sheet = await api(`/api/sheets/${sheet.id}`);
      draft = null;
      render();
      say(err.rule === "conflict" ? err.message : W.changedElsewhere);
    } else {
      say(err.message);
    }
    return false;
  }
}

// ------------------------------------------------------------------ home

// ------------------------------------------------------------------ the sheet

function render() {
  document.title = W.pageTitle(sheet.title || W.scoreSheet);
  const over = sheet.phase === "over";
  fill(app,
    el("h1", {}, sheet.title || W.scoreSheet, sheet.read_only ? el("span", { class: "muted" }, W.readOnly) : null),
    sheet.from_link ? el("p", { class: "muted" }, W.sharedGame) : null,
    entryPanel(),
    sheet.read_only ? null : conflictPanel(sheet, act),
    standings(),
    over ? statistics(sheet) : null,
    sheetTable(),
    chart(),
    eveningPanel(sheet, act, earlierNames(known())),
    sheet.from_link ? null : sheet.read_only ? exportsOnly() : actions(),
  );
  // Chart.js measures its box, so the chart is drawn once its section is on the page.
  const box = document.getElementById("chart");
  if (box) drawChart(box, sheet.sheet, { colours: COLOURS });
  drawPaper(false);
}

// What the printer gets (print.css shows only this): the sheet as it stands, or blank for a pen.
/** @param {boolean} blank */
function drawPaper(blank) {
  const paper = paperSheet(sheet, { blank });
  const old = document.getElementById("paper");
  if (old) old.replaceWith(paper);
  else document.body.append(paper);
}

/** @param {boolean} blank */
function printPaper(blank) {
  drawPaper(blank);
  window.print();
}

window.addEventListener("afterprint", () => { if (sheet) drawPaper(false); });

function printButtons() {
  return el("div", { class: "row print", role: "group", "aria-label": W.paper },
    el("button", { type: "button", id: "print-blank", onclick: () => printPaper(true) }, W.printBlank),
    el("button", { type: "button", id: "print-filled", onclick: () => printPaper(false) }, W.printFilled),
    el("p", { class: "muted hint" }, W.printHint));
}

function roundHead() {
  const c = sheet.current;
  const rounds = sheet.evening.schedule.length;
  return el("div", { class: "round-head", id: "round-head" },
    el("div", { class: "big" }, W.roundOf(c.number, rounds, c.hand_size)),
    el("div", {}, ...W.dealsAndBids(el("strong", {}, name(c.dealer)), el("strong", {}, name(c.bidding_order[0])))),
  );
}

function trumpPicker() {
  const c = sheet.current;
  const pick = (/** @type {string | null} */ code) => act("trump", { suit: code });
  return el("div", { class: "row suits", role: "group", "aria-label": W.trumpGroup },
    el("span", { class: "muted" }, W.trumpPick),
    ...SUITS.map((s) => el("button", {
      type: "button", class: s.red ? "red" : "", "aria-label": W.trumpNamed(s.code), "aria-pressed": String(c.trump === s.code),
      onclick: () => pick(c.trump === s.code ? null : s.code),
    }, s.symbol)),
  );
}

function entryPanel() {
  const box = el("section", { class: "card-box", id: "entry", "aria-label": W.thisRound });
  if (sheet.phase === "jack") {
    box.append(
      el("h2", {}, W.whoDealsFirst),
      el("p", {}, W.jackProcedure(name(sheet.jack_from))),
      el("div", { class: "row" }, ...(sheet.read_only ? [] : sheet.players.map((p, seat) =>
        el("button", { type: "button", class: "primary", onclick: () => act("jack", { seat }) }, p)))),
    );
    return box;
  }
  if (sheet.phase === "over") {
    box.append(el("h2", {}, W.gameOver), el("p", { class: "headline" }, W.headline(sheet.sheet)));
    return box;
  }
  if (sheet.phase === "flagged") {
    box.classList.add("flagbox");
    box.append(
      el("h2", {}, W.needsFixing(sheet.flag.round)),
      el("p", {}, W.refusal(sheet.flag, sheet.players)),
      sheet.read_only ? null : el("div", { class: "row" },
        el("button", { type: "button", class: "primary", onclick: () => openEdit(sheet, sheet.flag.round, act) }, W.editRound(sheet.flag.round)),
        el("button", { type: "button", onclick: () => act("undo") }, W.undo)),
    );
    return box;
  }
  box.append(roundHead());
  const rotating = rotatingTrump(sheet); // trump rotates: the round's suit is known, not asked
  if (rotating) box.append(rotating);
  else if (!sheet.read_only) box.append(trumpPicker());
  else if (sheet.current.trump) box.append(el("div", {}, W.trumpShown, suitText(sheet.current.trump)));
  if (sheet.phase === "bidding") box.append(sheet.rules.bidding === "simultaneous" ? allBids() : nextBid());
  if (sheet.phase === "tricks") box.append(trickEntry());
  return box;
}

function bidsSoFar() {
  const c = sheet.current;
  const total = c.bids.reduce((a, b) => a + (b ?? 0), 0);
  return el("div", { class: "bids-so-far", "aria-label": W.bidsSoFar },
    ...c.bidding_order.map((seat) => el("span", { class: c.to_bid.includes(seat) ? "next" : "" },
      W.nameBid(name(seat), c.bids[seat] ?? "–"))),
    el("span", { class: "muted" }, W.bidTotal(total, c.hand_size)));
}

function nextBid() {
  const c = sheet.current;
  const seat = c.to_bid[0];
  const part = el("div", {}, bidsSoFar());
  if (sheet.read_only) return part;
  const forbidden = c.restriction ? c.restriction.forbidden : [];
  part.append(el("h2", { id: "bid-label" }, W.whoseBid(name(seat))));
  const pad = el("div", { class: "pad", role: "group", "aria-labelledby": "bid-label" });
  for (let b = 0; b <= c.hand_size; b++) {
    const struck = forbidden.includes(b);
    // A struck-out bid can still be tapped: the reason under the pad, already on screen, is said
    // again (an alert for screen readers, a flash for the eyes), not a second copy of it elsewhere.
    pad.append(el("button", {
      type: "button", class: struck ? "forbidden" : "",
      "aria-label": struck ? W.notAllowed(b) : W.bids(name(seat), b),
      onclick: () => (struck ? sayAgain(document.getElementById("forbidden-reason")) : act("bid", { seat, bid: b })),
    }, String(b)));
  }
  part.append(pad);
  if (c.restriction) {
    part.append(el("p", { class: "reason", id: "forbidden-reason" },
      W.mayNotBid(name(seat), forbidden, W.restriction(c.restriction))));
  }
  return part;
}

// A line already on screen, said again: as an alert, and flashed.
/** @param {HTMLElement | null} line */
function sayAgain(line) {
  if (!line) return;
  clearError();
  line.setAttribute("role", "alert");
  const words = line.textContent;
  line.textContent = ""; // a fresh alert for screen readers
  line.textContent = words;
  line.classList.remove("flash");
  void line.offsetWidth; // restart the flash
  line.classList.add("flash");
}

function allBids() {
  const c = sheet.current;
  const part = el("div", {});
  if (sheet.read_only) { part.append(el("p", {}, W.bidsHidden)); return part; }
  if (!draft || draft.kind !== "bids") draft = { kind: "bids", values: c.bids.map((b) => b) };
  const playing = (/** @type {number} */ seat) => c.bidding_order.includes(seat); // a seat sitting the round out has no bid
  part.append(el("h2", {}, W.everyonesBid));
  c.bidding_order.forEach((seat) => {
    const entered = c.bids[seat] !== null;
    part.append(el("div", { class: "stepper-row" }, el("span", {}, name(seat)),
      entered ? el("strong", {}, String(c.bids[seat])) : stepper(W.bidOf(name(seat)), draft.values[seat], c.hand_size,
        (v) => { draft.values[seat] = v; render(); })));
  });
  const ready = draft.values.every((v, seat) => v !== null || !playing(seat));
  const anyEntered = c.bids.some((b) => b !== null);
  part.append(el("button", {
    type: "button", class: "primary", disabled: !ready,
    onclick: async () => {
      if (!anyEntered) return act("bids", { bids: draft.values });
      for (const seat of c.bidding_order) {
        if (c.bids[seat] === null && !(await act("bid", { seat, bid: draft.values[seat] }))) return;
      }
    },
  }, W.enterBids));
  return part;
}

function trickEntry() {
  const c = sheet.current;
  const part = el("div", {});
  if (sheet.read_only) { part.append(el("p", {}, W.waitingTricks)); return part; }
  // A seat sitting the round out takes no trick: its count stays empty.
  if (!draft || draft.kind !== "tricks") draft = { kind: "tricks", values: c.bids.map((_, seat) => (c.bidding_order.includes(seat) ? 0 : null)) };
  part.append(el("h2", {}, W.tricksTaken));
  c.bidding_order.forEach((seat) => {
    part.append(el("div", { class: "stepper-row" },
      el("span", {}, `${name(seat)} `, el("span", { class: "muted" }, W.bidWas(c.bids[seat]))),
      stepper(W.tricksOf(name(seat)), draft.values[seat], c.hand_size, (v) => { draft.values[seat] = v; render(); })));
  });
  const sum = draft.values.reduce((a, b) => a + (b ?? 0), 0);
  const adds = sum === c.hand_size;
  // Until the tricks add up the button is off (still tappable: a tap says why, in a sentence).
  const why = W.tricksDontAddUp(c.number, sum, c.hand_size);
  part.append(
    el("p", { class: `sum ${adds ? "good" : "bad"}`, id: "trick-sum" }, W.trickSum(sum, c.hand_size)),
    el("button", {
      type: "button", class: "primary", "aria-disabled": String(!adds), "aria-describedby": "trick-sum",
      onclick: () => (adds ? act("tricks", { tricks: draft.values }) : showError(why)),
    }, W.saveTricks),
  );
  return part;
}

function standings() {
  const scored = sheet.sheet;
  const box = el("section", { class: "card-box", "aria-label": W.standings }, el("p", { class: "headline", id: "headline" }, W.headline(scored)));
  const list = el("ol", { class: "standings" });
  for (const [place, seat, total] of scored.standings) {
    list.append(el("li", { class: scored.leaders.includes(seat) ? "lead" : "" },
      el("span", {}, W.place(place, name(seat))), el("span", { "data-total": name(seat) }, String(total))));
  }
  box.append(list);
  return box;
}

function sheetTable() {
  const scored = sheet.sheet;
  const edit = (/** @type {number} */ number) => { clearError(); openEdit(sheet, number, act); }; // an earlier message would stay behind the dialog
  const table = drawSheet(el("table", { id: "sheet" }), scored, { onEdit: sheet.read_only ? null : edit, colours: COLOURS });
  markEvening(table, sheet);
  return el("section", { class: "card-box", "aria-label": W.scoreSheet },
    el("h2", {}, W.sheet),
    scored.rows.length ? scrollsByKeyboard(el("div", { class: "sheet-wrap" }, table)) : el("p", { class: "muted" }, W.noRound),
    el("p", { class: "muted" }, W.sheetHint));
}

function chart() {
  const scored = sheet.sheet;
  if (!scored.rows.some((row) => row.status === "scored")) return null;
  const box = el("div", { id: "chart" });
  const section = el("section", { class: "card-box chart", "aria-label": W.chart },
    el("h2", {}, W.chartTitle), box, chartLegend(scored, { colours: COLOURS }));
  return section;
}

// The exports: links to the server's files, each made by the engine on the phone instead when the
// server cannot answer (keep-export.js).
/** @param {boolean} shared */
function exportLinks(shared) {
  const id = shared ? sheet.share : sheet.id;
  const base = `/api/sheets/${shared ? "shared/" : ""}${id}`;
  const link = (/** @type {"csv" | "record"} */ kind, /** @type {string} */ label) => el("a", {
    class: "button", href: `${base}/${kind}`, download: "",
    onclick: (/** @type {MouseEvent} */ event) => {
      event.preventDefault();
      exportSheet({ id, share: sheet.share, shared, kind, say: showError });
    },
  }, label);
  return el("div", { class: "row" }, link("csv", W.exportCsv), link("record", W.exportRecord));
}

function exportsOnly() {
  return el("section", { class: "card-box" }, exportLinks(true), printButtons(), gameLinkButton());
}

// The link that holds the whole game (keep-share.js): copied, and shown for copying by hand.
function gameLinkButton() {
  const out = el("input", { readonly: true, id: "game-link", "aria-label": W.shareGame, hidden: true });
  return el("div", { class: "share" },
    el("button", { type: "button", id: "copy-game-link", onclick: async () => {
      out.value = await gameLink(sheet);
      out.hidden = false;
      out.select();
      try { await navigator.clipboard.writeText(out.value); showError(W.copied); } catch { /* selected for copying by hand */ }
    } }, W.shareGame), out);
}

function actions() {
  const shareUrl = `${location.origin}/keep/view/${sheet.share}`;
  const share = el("input", { readonly: true, value: shareUrl, id: "share-link", "aria-label": W.shareLink });
  return el("section", { class: "card-box", "aria-label": W.sheetActions },
    el("div", { class: "row" },
      el("button", { type: "button", id: "undo", disabled: !sheet.can_undo, onclick: () => act("undo") }, W.undoLast),
      el("button", { type: "button", onclick: () => openDealer(sheet, act) }, W.changeDealer)),
    exportLinks(false),
    printButtons(),
    // A sheet kept only on the phone has no read-only link until a server has it.
    sheet.share ? el("div", { class: "share" },
      el("label", {}, W.shareLabel, share),
      el("button", { type: "button", onclick: async () => {
        share.select();
        try { await navigator.clipboard.writeText(shareUrl); showError(W.copied); } catch { /* selected for copying by hand */ }
      } }, W.copyLink)) : null,
    gameLinkButton());
}

errorBox.addEventListener("click", clearError);
readKeptNames(); // for a newcomer's name: those of earlier evenings
route();
