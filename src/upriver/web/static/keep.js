// The score keeper page: start a sheet, fill it in by tapping, fix mistakes, export, share.
// Every rule and every score comes from the server (the engine); this page only draws and asks.
// The sheet itself is drawn by sheet.js, as on the table page.

import { WORDS as W } from "./keep-words.js";
import { houseRuleFields, rotatingTrump } from "./keep-house.js";
import { paperSheet } from "./paper.js";
import { SUITS as SUIT_INFO, chartLegend, drawChart, drawSheet, el, scrollsByKeyboard, suitText } from "./sheet.js";

const SUITS = Object.entries(SUIT_INFO).map(([code, suit]) => ({ code, ...suit }));
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const KNOWN = "upriver.sheets"; // the sheets this browser has opened: id -> {title, players}
const POLL_MS = 4000;

const app = document.getElementById("app");
const errorBox = document.getElementById("error");
let sheet = null; // the latest sheet the server sent
let draft = null; // tricks or simultaneous bids being tapped in, before they are sent
let errorTimer = null;

// ------------------------------------------------------------------ helpers

function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

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

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error(W.unreachable);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(W.refusal(data, sheet ? sheet.players : []) || W.refused(response.status));
    error.status = response.status;
    error.rule = data.rule;
    throw error;
  }
  return data;
}

function known() {
  try { return JSON.parse(localStorage.getItem(KNOWN) || "{}"); } catch { return {}; }
}

function remember(s) {
  if (!s.id) return;
  const all = known();
  all[s.id] = { title: s.title, players: s.players, at: Date.now() };
  localStorage.setItem(KNOWN, JSON.stringify(all));
}

function forget(id) {
  const all = known();
  delete all[id];
  localStorage.setItem(KNOWN, JSON.stringify(all));
}

const name = (seat) => sheet.players[seat];

// ------------------------------------------------------------------ routing

function route() {
  const path = location.pathname.replace(/\/+$/, "");
  const shared = path.match(/^\/keep\/view\/([^/]+)$/);
  if (shared) return loadSheet(`/api/sheets/shared/${shared[1]}`);
  const own = path.match(/^\/keep\/([^/]+)$/);
  if (own) return loadSheet(`/api/sheets/${own[1]}`);
  return home();
}

let pollTimer = null;

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
      if (latest.version !== sheet.version) { sheet = latest; draft = null; render(); }
    } catch { /* offline for a moment: try again later */ }
  }, POLL_MS);
}

// `say`: where a refusal is shown (the page's message at the foot of the screen, or a dialog's own line).
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
      say(W.changedElsewhere);
    } else {
      say(err.message);
    }
    return false;
  }
}

// ------------------------------------------------------------------ home

async function home() {
  document.title = W.pageTitle(W.keeper);
  const options = await api("/api/sheets/options");
  const list = el("ul", { class: "sheets", "aria-label": W.yourSheets });
  const entries = Object.entries(known()).sort((a, b) => b[1].at - a[1].at);
  for (const [id, info] of entries) {
    list.append(el("li", {}, el("a", { href: `/keep/${id}` },
      el("strong", {}, info.title || W.untitled), " ", el("span", { class: "muted" }, info.players.join(", ")))));
  }
  fill(app, 
    el("h1", {}, W.keeper),
    el("p", { class: "muted" }, W.intro),
    entries.length ? el("section", { class: "card-box" }, el("h2", {}, W.carryOn), list) : null,
    newSheetForm(options),
    importForm(),
  );
}

function playerInputs(box, count) {
  const now = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < count; i++) {
    box.append(el("label", {}, W.seat(i + 1), el("input", {
      name: "player", value: now[i] ?? "", required: true, autocomplete: "off",
      "aria-label": W.player(i + 1), placeholder: W.examples[i],
    })));
  }
}

function newSheetForm(options) {
  const seats = el("div", { class: "seats" });
  let count = 4;
  playerInputs(seats, count);
  const dealer = el("select", { name: "dealer", "aria-label": W.firstDealer });
  const refreshDealer = () => {
    const names = [...seats.querySelectorAll("input")].map((i, k) => i.value.trim() || W.seat(k + 1));
    const chosen = dealer.value;
    dealer.replaceChildren(
      el("option", { value: "" }, W.rulesDecide),
      el("option", { value: "jack" }, W.dealForJack),
      ...names.map((n, k) => el("option", { value: String(k) }, W.dealsFirst(n))),
    );
    dealer.value = [...dealer.options].some((o) => o.value === chosen) ? chosen : "";
  };
  refreshDealer();
  seats.addEventListener("input", refreshDealer);
  const more = el("button", { type: "button", onclick: () => { if (count < 8) { count++; playerInputs(seats, count); refreshDealer(); } } }, W.morePlayers);
  const fewer = el("button", { type: "button", onclick: () => { if (count > 3) { count--; playerInputs(seats, count); refreshDealer(); } } }, W.fewerPlayers);
  const select = (field, label, values) => el("label", {}, label, el("select", { name: field },
    el("option", { value: "" }, W.asPreset), ...values.map((v) => el("option", { value: v }, W.choice(v)))));
  const presetOf = () => options.presets.find((p) => p.name === (form ? new FormData(form).get("preset") : options.default_preset));
  const house = houseRuleFields(options, { choice: W.choice, asPreset: W.asPreset, presetOf });
  const form = el("form", { class: "card-box", "aria-label": W.newSheet },
    el("h2", {}, W.newSheet),
    el("label", {}, W.title, el("input", { name: "title", placeholder: W.titleExample })),
    el("fieldset", {}, el("legend", {}, W.seating), seats, el("div", { class: "row" }, fewer, more)),
    el("label", {}, W.rules, el("select", { name: "preset" },
      ...options.presets.map((p) => el("option", { value: p.name, selected: p.name === options.default_preset }, W.preset(p))))),
    el("details", {}, el("summary", {}, W.ruleOptions),
      el("label", {}, W.handSizes, el("input", { name: "schedule", placeholder: W.handSizesHint })),
      el("label", {}, W.mostCards, el("input", { name: "max_cards", inputmode: "numeric", placeholder: W.asPreset })),
      select("bidding", W.bidding, options.rules.bidding),
      select("dealer_bid", W.dealerBid, options.rules.dealer_bid),
      ...house.elements.slice(1)),
    house.elements[0],
    el("label", {}, W.firstDealer, dealer),
    el("button", { type: "submit", class: "primary" }, W.startSheet),
  );
  form.querySelector("select[name=preset]").addEventListener("change", house.refresh);
  house.refresh();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = {
      title: data.get("title"),
      players: data.getAll("player").map((p) => p.trim()),
      preset: data.get("preset"),
    };
    const schedule = String(data.get("schedule") || "").trim();
    if (/^[\d,\s]+$/.test(schedule)) body.schedule = schedule.split(/[\s,]+/).filter(Boolean).map(Number);
    else if (schedule) body.schedule = schedule;
    const most = String(data.get("max_cards") || "").trim();
    if (most) body.max_cards = Number(most);
    for (const key of ["bidding", "dealer_bid"]) if (data.get(key)) body[key] = data.get(key);
    Object.assign(body, house.values());
    const who = data.get("dealer");
    if (who === "jack") body.first_jack = true;
    else if (who !== "") body.dealer = Number(who);
    try {
      const made = await api("/api/sheets", body);
      remember(made);
      location.assign(`/keep/${made.id}`);
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

function importForm() {
  const text = el("textarea", { name: "record", rows: 4, style: "width:100%", "aria-label": W.recordText });
  // The browser's own file button speaks the browser's language: a label in the page's words stands in.
  const file = el("input", { type: "file", id: "record-file", class: "file-input", accept: ".json,application/json", "aria-label": W.recordFile });
  const chosen = el("span", { class: "muted" }, W.noFile);
  file.addEventListener("change", async () => {
    if (!file.files[0]) return;
    chosen.textContent = file.files[0].name;
    text.value = await file.files[0].text();
  });
  const form = el("form", { class: "card-box", "aria-label": W.importRecord },
    el("h2", {}, W.importRecord),
    el("p", { class: "muted" }, W.importHint),
    el("div", { class: "file-row" }, file, el("label", { for: "record-file", class: "file-button" }, W.chooseFile), chosen),
    text, el("button", { type: "submit" }, W.import));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/sheets/import", { record: text.value });
      remember(made);
      location.assign(`/keep/${made.id}`);
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

// ------------------------------------------------------------------ the sheet

function render() {
  document.title = W.pageTitle(sheet.title || W.scoreSheet);
  fill(app, 
    el("h1", {}, sheet.title || W.scoreSheet, sheet.read_only ? el("span", { class: "muted" }, W.readOnly) : null),
    entryPanel(),
    standings(),
    sheetTable(),
    chart(),
    sheet.read_only ? exportsOnly() : actions(),
  );
  // Chart.js measures its box, so the chart is drawn once its section is on the page.
  const box = document.getElementById("chart");
  if (box) drawChart(box, sheet.sheet, { colours: COLOURS });
  drawPaper(false);
}

// What the printer gets (print.css shows only this): the sheet as it stands, or blank for a pen.
function drawPaper(blank) {
  const paper = paperSheet(sheet, { blank });
  const old = document.getElementById("paper");
  if (old) old.replaceWith(paper);
  else document.body.append(paper);
}

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
  const rounds = sheet.rules.hand_sizes.length;
  return el("div", { class: "round-head", id: "round-head" },
    el("div", { class: "big" }, W.roundOf(c.number, rounds, c.hand_size)),
    el("div", {}, ...W.dealsAndBids(el("strong", {}, name(c.dealer)), el("strong", {}, name(c.bidding_order[0])))),
  );
}

function trumpPicker() {
  const c = sheet.current;
  const pick = (code) => act("trump", { suit: code });
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
        el("button", { type: "button", class: "primary", onclick: () => openEdit(sheet.flag.round) }, W.editRound(sheet.flag.round)),
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
function sayAgain(line) {
  if (!line) return;
  clearError();
  line.setAttribute("role", "alert");
  line.textContent = line.textContent; // a fresh alert for screen readers
  line.classList.remove("flash");
  void line.offsetWidth; // restart the flash
  line.classList.add("flash");
}

function stepper(label, value, max, onchange) {
  const out = el("output", { "aria-live": "polite", "aria-label": label }, value === null ? "–" : String(value));
  const set = (v) => { onchange(v); };
  return el("span", { class: "stepper" },
    el("button", { type: "button", "aria-label": W.fewer(label), disabled: value === null || value <= 0,
      onclick: () => set(Math.max(0, (value ?? 0) - 1)) }, "−"),
    out,
    el("button", { type: "button", "aria-label": W.more(label), disabled: value !== null && value >= max,
      onclick: () => set(Math.min(max, (value ?? -1) + 1)) }, "+"));
}

function allBids() {
  const c = sheet.current;
  const part = el("div", {});
  if (sheet.read_only) { part.append(el("p", {}, W.bidsHidden)); return part; }
  if (!draft || draft.kind !== "bids") draft = { kind: "bids", values: c.bids.map((b) => b) };
  part.append(el("h2", {}, W.everyonesBid));
  c.bidding_order.forEach((seat) => {
    const entered = c.bids[seat] !== null;
    part.append(el("div", { class: "stepper-row" }, el("span", {}, name(seat)),
      entered ? el("strong", {}, String(c.bids[seat])) : stepper(W.bidOf(name(seat)), draft.values[seat], c.hand_size,
        (v) => { draft.values[seat] = v; render(); })));
  });
  const ready = draft.values.every((v) => v !== null);
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
  if (!draft || draft.kind !== "tricks") draft = { kind: "tricks", values: c.bids.map(() => 0) };
  part.append(el("h2", {}, W.tricksTaken));
  c.bidding_order.forEach((seat) => {
    part.append(el("div", { class: "stepper-row" },
      el("span", {}, `${name(seat)} `, el("span", { class: "muted" }, W.bidWas(c.bids[seat]))),
      stepper(W.tricksOf(name(seat)), draft.values[seat], c.hand_size, (v) => { draft.values[seat] = v; render(); })));
  });
  const sum = draft.values.reduce((a, b) => a + b, 0);
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
  const table = drawSheet(el("table", { id: "sheet" }), scored, { onEdit: sheet.read_only ? null : openEdit, colours: COLOURS });
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

function exportLinks(base) {
  return el("div", { class: "row" },
    el("a", { class: "button", href: `${base}/csv`, download: "" }, W.exportCsv),
    el("a", { class: "button", href: `${base}/record`, download: "" }, W.exportRecord));
}

function exportsOnly() {
  return el("section", { class: "card-box" }, exportLinks(`/api/sheets/shared/${sheet.share}`), printButtons());
}

function actions() {
  const shareUrl = `${location.origin}/keep/view/${sheet.share}`;
  const share = el("input", { readonly: true, value: shareUrl, id: "share-link", "aria-label": W.shareLink });
  return el("section", { class: "card-box", "aria-label": W.sheetActions },
    el("div", { class: "row" },
      el("button", { type: "button", id: "undo", disabled: !sheet.can_undo, onclick: () => act("undo") }, W.undoLast),
      el("button", { type: "button", onclick: () => openDealer() }, W.changeDealer)),
    exportLinks(`/api/sheets/${sheet.id}`),
    printButtons(),
    el("div", { class: "share" },
      el("label", {}, W.shareLabel, share),
      el("button", { type: "button", onclick: async () => {
        share.select();
        try { await navigator.clipboard.writeText(shareUrl); showError(W.copied); } catch { /* selected for copying by hand */ }
      } }, W.copyLink)));
}

// ------------------------------------------------------------------ fixing

function openEdit(number) {
  const row = sheet.sheet.rows.find((r) => r.number === number);
  if (!row) return;
  clearError(); // an earlier message would stay behind the dialog, over the page, after it closes
  const tricksKnown = row.cells.every((c) => c.tricks !== null);
  const values = { bids: row.cells.map((c) => c.bid), tricks: tricksKnown ? row.cells.map((c) => c.tricks) : null };
  const dialog = el("dialog", { "aria-label": W.editRound(number) });
  const draw = () => {
    const body = el("div", {});
    body.append(el("p", { class: "muted" }, W.dealt(row.hand_size, name(row.dealer))));
    sheet.players.forEach((p, seat) => {
      body.append(el("div", { class: "stepper-row" }, el("strong", {}, p), el("span", {},
        el("span", { class: "row" }, el("span", { class: "muted" }, W.bidWord),
          stepper(W.bidIn(p, number), values.bids[seat], row.hand_size, (v) => { values.bids[seat] = v; redraw(); })),
        values.tricks ? el("span", { class: "row" }, el("span", { class: "muted" }, W.tookWord),
          stepper(W.tricksIn(p, number), values.tricks[seat], row.hand_size, (v) => { values.tricks[seat] = v; redraw(); })) : null)));
    });
    const sum = values.tricks ? values.tricks.reduce((a, b) => a + b, 0) : row.hand_size;
    const adds = sum === row.hand_size;
    if (values.tricks) {
      body.append(el("p", { class: `sum ${adds ? "good" : "bad"}`, id: "edit-sum" }, W.tricksAddUp(sum, row.hand_size)));
    }
    // A refusal is said in the dialog, under its buttons, and goes with it: never left at the foot of
    // the page over the chart once the dialog is closed.
    const said = el("p", { class: "dialog-error", role: "alert" }, saidBefore);
    const say = (message) => { saidBefore = message; said.textContent = message; };
    const close = () => { dialog.close(); dialog.remove(); };
    fill(dialog,
      el("h2", {}, W.editRound(number)),
      el("p", { class: "muted" }, values.tricks ? W.editBoth : W.editBids),
      body,
      el("div", { class: "row dialog-actions" },
        el("button", { type: "button", class: "primary", "aria-disabled": String(!adds), onclick: async () => {
          if (!adds) return say(W.tricksDontAddUp(number, sum, row.hand_size));
          if (await act(`rounds/${number}`, { bids: values.bids, tricks: values.tricks }, say)) close();
        } }, W.saveRound),
        el("button", { type: "button", onclick: close }, W.cancel),
        said));
  };
  let saidBefore = "";
  const redraw = () => { saidBefore = ""; draw(); }; // a changed count: the last refusal no longer holds
  draw();
  document.body.append(dialog);
  dialog.showModal();
}

function openDealer() {
  const dialog = el("dialog", { "aria-label": W.changeFirstDealer });
  dialog.append(
    el("h2", {}, W.whoDealtFirst),
    el("p", { class: "muted" }, W.dealerHint),
    el("div", { class: "row" }, ...sheet.players.map((p, seat) => el("button", {
      type: "button", "aria-pressed": String(sheet.first_dealer === seat),
      onclick: async () => { if (await act("dealer", { seat })) { dialog.close(); dialog.remove(); } },
    }, p))),
    el("div", { class: "row" }, el("button", { type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, W.cancel)));
  document.body.append(dialog);
  dialog.showModal();
}

errorBox.addEventListener("click", clearError);
route();
