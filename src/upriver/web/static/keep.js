// The score keeper page: start a sheet, fill it in by tapping, fix mistakes, export, share.
// Every rule and every score comes from the server (the engine); this page only draws and asks.
// The sheet itself is drawn by sheet.js, as on the table page.

import { paperSheet } from "./paper.js";
import { SUITS as SUIT_INFO, chartLegend, drawChart, drawSheet, el, scrollsByKeyboard, suitText } from "./sheet.js";

const SUITS = Object.entries(SUIT_INFO).map(([code, suit]) => ({ code, ...suit }));
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const KNOWN = "upriver.sheets"; // the sheets this browser has opened: id -> {title, players}
const POLL_MS = 4000;
const DEFAULT_PRESET = "classic"; // the start page's too (lobby.js)

/** The words this page adds (for translation). */
const TEXT = {
  printBlank: "Print blank sheet",
  printFilled: "Print the sheet",
  printHint: "On paper: a blank sheet to fill in with a pen, or this one as it stands.",
  paper: "Paper",
};

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
    throw new Error("The server cannot be reached; nothing was saved. Try again.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || `The server refused (${response.status}).`);
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
    fill(app, el("h1", {}, "Sheet not found"), el("p", {}, err.message), el("a", { href: "/keep", class: "button" }, "All sheets"));
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

async function act(action, body = {}) {
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
      showError("The sheet was changed elsewhere; here is the latest. Enter it again if it is still needed.");
    } else {
      showError(err.message);
    }
    return false;
  }
}

// ------------------------------------------------------------------ home

async function home() {
  document.title = "Score keeper · upriver";
  const options = await api("/api/sheets/options");
  const list = el("ul", { class: "sheets", "aria-label": "Your sheets" });
  const entries = Object.entries(known()).sort((a, b) => b[1].at - a[1].at);
  for (const [id, info] of entries) {
    list.append(el("li", {}, el("a", { href: `/keep/${id}` },
      el("strong", {}, info.title || "Untitled sheet"), " ", el("span", { class: "muted" }, info.players.join(", ")))));
  }
  fill(app, 
    el("h1", {}, "Score keeper"),
    el("p", { class: "muted" }, "For a game with real cards: the sheet does the sums and the dealer's rule."),
    entries.length ? el("section", { class: "card-box" }, el("h2", {}, "Carry on"), list) : null,
    newSheetForm(options),
    importForm(),
  );
}

function playerInputs(box, count) {
  const now = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < count; i++) {
    box.append(el("label", {}, `Seat ${i + 1}`, el("input", {
      name: "player", value: now[i] ?? "", required: true, autocomplete: "off",
      "aria-label": `Player ${i + 1}`, placeholder: ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"][i],
    })));
  }
}

function newSheetForm(options) {
  const seats = el("div", { class: "seats" });
  let count = 4;
  playerInputs(seats, count);
  const dealer = el("select", { name: "dealer", "aria-label": "First dealer" });
  const refreshDealer = () => {
    const names = [...seats.querySelectorAll("input")].map((i, k) => i.value.trim() || `Seat ${k + 1}`);
    const chosen = dealer.value;
    dealer.replaceChildren(
      el("option", { value: "" }, "The rules decide (first Jack, or left of the keeper)"),
      el("option", { value: "jack" }, "Deal for the first Jack"),
      ...names.map((n, k) => el("option", { value: String(k) }, `${n} deals first`)),
    );
    dealer.value = [...dealer.options].some((o) => o.value === chosen) ? chosen : "";
  };
  refreshDealer();
  seats.addEventListener("input", refreshDealer);
  const more = el("button", { type: "button", onclick: () => { if (count < 8) { count++; playerInputs(seats, count); refreshDealer(); } } }, "+ player");
  const fewer = el("button", { type: "button", onclick: () => { if (count > 3) { count--; playerInputs(seats, count); refreshDealer(); } } }, "− player");
  const select = (field, label, values) => el("label", {}, label, el("select", { name: field },
    el("option", { value: "" }, "as the preset says"), ...values.map((v) => el("option", { value: v }, v))));
  const form = el("form", { class: "card-box", "aria-label": "New sheet" },
    el("h2", {}, "New sheet"),
    el("label", {}, "Title (optional)", el("input", { name: "title", placeholder: "Friday at Ann's" })),
    el("fieldset", {}, el("legend", {}, "Players in seating order, clockwise"), seats, el("div", { class: "row" }, fewer, more)),
    el("label", {}, "Rules", el("select", { name: "preset" },
      ...options.presets.map((p) => el("option", { value: p.name, selected: p.name === DEFAULT_PRESET }, `${p.name}: ${p.summary}`)))),
    el("details", {}, el("summary", {}, "Rule options"),
      el("label", {}, "Hand sizes", el("input", { name: "schedule", placeholder: "as the preset says; or up-down, down-up, or 1,2,3,2,1" })),
      el("label", {}, "Most cards in a hand", el("input", { name: "max_cards", inputmode: "numeric", placeholder: "as the preset says" })),
      select("bidding", "Bidding", options.rules.bidding),
      select("dealer_bid", "The dealer's bid", options.rules.dealer_bid),
      select("scoring", "Scoring", options.rules.scoring)),
    el("label", {}, "First dealer", dealer),
    el("button", { type: "submit", class: "primary" }, "Start the sheet"),
  );
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
    for (const key of ["bidding", "dealer_bid", "scoring"]) if (data.get(key)) body[key] = data.get(key);
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
  const text = el("textarea", { name: "record", rows: 4, style: "width:100%", "aria-label": "Game record (JSON)" });
  const file = el("input", { type: "file", accept: ".json,application/json", "aria-label": "Record file" });
  file.addEventListener("change", async () => { if (file.files[0]) text.value = await file.files[0].text(); });
  const form = el("form", { class: "card-box", "aria-label": "Import a record" },
    el("h2", {}, "Import a record"),
    el("p", { class: "muted" }, "A game record (upriver check's format), e.g. a sheet exported before."),
    file, text, el("button", { type: "submit" }, "Import"));
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
  document.title = `${sheet.title || "Score sheet"} · upriver`;
  fill(app, 
    el("h1", {}, sheet.title || "Score sheet", sheet.read_only ? el("span", { class: "muted" }, " (read-only)") : null),
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
  return el("div", { class: "row print", role: "group", "aria-label": TEXT.paper },
    el("button", { type: "button", id: "print-blank", onclick: () => printPaper(true) }, TEXT.printBlank),
    el("button", { type: "button", id: "print-filled", onclick: () => printPaper(false) }, TEXT.printFilled),
    el("p", { class: "muted hint" }, TEXT.printHint));
}

function roundHead() {
  const c = sheet.current;
  const rounds = sheet.rules.hand_sizes.length;
  const cards = `${c.hand_size} card${c.hand_size === 1 ? "" : "s"}`;
  return el("div", { class: "round-head", id: "round-head" },
    el("div", { class: "big" }, `Round ${c.number} of ${rounds} · ${cards}`),
    el("div", {}, el("strong", {}, name(c.dealer)), " deals · ", el("strong", {}, name(c.bidding_order[0])), " bids first"),
  );
}

function trumpPicker() {
  const c = sheet.current;
  const pick = (code) => act("trump", { suit: code });
  return el("div", { class: "row suits", role: "group", "aria-label": "Trump suit (optional)" },
    el("span", { class: "muted" }, "Trump:"),
    ...SUITS.map((s) => el("button", {
      type: "button", class: s.red ? "red" : "", "aria-label": `Trump ${s.name}`, "aria-pressed": String(c.trump === s.code),
      onclick: () => pick(c.trump === s.code ? null : s.code),
    }, s.symbol)),
  );
}

function entryPanel() {
  const box = el("section", { class: "card-box", id: "entry", "aria-label": "This round" });
  if (sheet.phase === "jack") {
    box.append(
      el("h2", {}, "Who deals first?"),
      el("p", {}, `Deal cards face up, one at a time, starting with ${name(sheet.jack_from)} and going clockwise, until a Jack shows. Who got the first Jack?`),
      el("div", { class: "row" }, ...(sheet.read_only ? [] : sheet.players.map((p, seat) =>
        el("button", { type: "button", class: "primary", onclick: () => act("jack", { seat }) }, p)))),
    );
    return box;
  }
  if (sheet.phase === "over") {
    box.append(el("h2", {}, "Game over"), el("p", { class: "headline" }, sheet.sheet.headline));
    return box;
  }
  if (sheet.phase === "flagged") {
    box.classList.add("flagbox");
    box.append(
      el("h2", {}, `Round ${sheet.flag.round} needs fixing`),
      el("p", {}, sheet.flag.message),
      sheet.read_only ? null : el("div", { class: "row" },
        el("button", { type: "button", class: "primary", onclick: () => openEdit(sheet.flag.round) }, `Edit round ${sheet.flag.round}`),
        el("button", { type: "button", onclick: () => act("undo") }, "Undo")),
    );
    return box;
  }
  box.append(roundHead());
  if (!sheet.read_only) box.append(trumpPicker());
  else if (sheet.current.trump) box.append(el("div", {}, "Trump: ", suitText(sheet.current.trump)));
  if (sheet.phase === "bidding") box.append(sheet.rules.bidding === "simultaneous" ? allBids() : nextBid());
  if (sheet.phase === "tricks") box.append(trickEntry());
  return box;
}

function bidsSoFar() {
  const c = sheet.current;
  const total = c.bids.reduce((a, b) => a + (b ?? 0), 0);
  return el("div", { class: "bids-so-far", "aria-label": "Bids so far" },
    ...c.bidding_order.map((seat) => el("span", { class: c.to_bid.includes(seat) ? "next" : "" },
      `${name(seat)}: ${c.bids[seat] ?? "–"}`)),
    el("span", { class: "muted" }, `total ${total} of ${c.hand_size}`));
}

function nextBid() {
  const c = sheet.current;
  const seat = c.to_bid[0];
  const part = el("div", {}, bidsSoFar());
  if (sheet.read_only) return part;
  const forbidden = c.restriction ? c.restriction.forbidden : [];
  part.append(el("h2", { id: "bid-label" }, `${name(seat)}'s bid`));
  const pad = el("div", { class: "pad", role: "group", "aria-labelledby": "bid-label" });
  for (let b = 0; b <= c.hand_size; b++) {
    const struck = forbidden.includes(b);
    // A struck-out bid can still be tapped: the server then refuses it and says why.
    pad.append(el("button", {
      type: "button", class: struck ? "forbidden" : "",
      "aria-label": struck ? `${b}, not allowed` : `${name(seat)} bids ${b}`,
      onclick: () => act("bid", { seat, bid: b }),
    }, String(b)));
  }
  part.append(pad);
  if (c.restriction) {
    part.append(el("p", { class: "reason", id: "forbidden-reason" },
      `${name(seat)} may not bid ${forbidden.join(" or ")}: ${c.restriction.reason}`));
  }
  return part;
}

function stepper(label, value, max, onchange) {
  const out = el("output", { "aria-live": "polite", "aria-label": label }, value === null ? "–" : String(value));
  const set = (v) => { onchange(v); };
  return el("span", { class: "stepper" },
    el("button", { type: "button", "aria-label": `${label}: fewer`, disabled: value === null || value <= 0,
      onclick: () => set(Math.max(0, (value ?? 0) - 1)) }, "−"),
    out,
    el("button", { type: "button", "aria-label": `${label}: more`, disabled: value !== null && value >= max,
      onclick: () => set(Math.min(max, (value ?? -1) + 1)) }, "+"));
}

function allBids() {
  const c = sheet.current;
  const part = el("div", {});
  if (sheet.read_only) { part.append(el("p", {}, "Bids are shown together once everyone has bid.")); return part; }
  if (!draft || draft.kind !== "bids") draft = { kind: "bids", values: c.bids.map((b) => b) };
  part.append(el("h2", {}, "Everyone's bid, shown together"));
  c.bidding_order.forEach((seat) => {
    const entered = c.bids[seat] !== null;
    part.append(el("div", { class: "stepper-row" }, el("span", {}, name(seat)),
      entered ? el("strong", {}, String(c.bids[seat])) : stepper(`${name(seat)} bid`, draft.values[seat], c.hand_size,
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
  }, "Enter the bids"));
  return part;
}

function trickEntry() {
  const c = sheet.current;
  const part = el("div", {});
  if (sheet.read_only) { part.append(el("p", {}, "Waiting for the tricks taken.")); return part; }
  if (!draft || draft.kind !== "tricks") draft = { kind: "tricks", values: c.bids.map(() => 0) };
  part.append(el("h2", {}, "Tricks taken"));
  c.bidding_order.forEach((seat) => {
    part.append(el("div", { class: "stepper-row" },
      el("span", {}, `${name(seat)} `, el("span", { class: "muted" }, `bid ${c.bids[seat]}`)),
      stepper(`${name(seat)} tricks`, draft.values[seat], c.hand_size, (v) => { draft.values[seat] = v; render(); })));
  });
  const sum = draft.values.reduce((a, b) => a + b, 0);
  part.append(
    el("p", { class: `sum ${sum === c.hand_size ? "good" : "bad"}`, id: "trick-sum" }, `${sum} of ${c.hand_size} tricks`),
    el("button", { type: "button", class: "primary", onclick: () => act("tricks", { tricks: draft.values }) }, "Save the tricks"),
  );
  return part;
}

function standings() {
  const scored = sheet.sheet;
  const box = el("section", { class: "card-box", "aria-label": "Standings" }, el("p", { class: "headline", id: "headline" }, scored.headline));
  const list = el("ol", { class: "standings" });
  for (const [place, seat, total] of scored.standings) {
    list.append(el("li", { class: scored.leaders.includes(seat) ? "lead" : "" },
      el("span", {}, `${place}. ${name(seat)}`), el("span", { "data-total": name(seat) }, String(total))));
  }
  box.append(list);
  return box;
}

function sheetTable() {
  const scored = sheet.sheet;
  const table = drawSheet(el("table", { id: "sheet" }), scored, { onEdit: sheet.read_only ? null : openEdit, colours: COLOURS });
  return el("section", { class: "card-box", "aria-label": "Score sheet" },
    el("h2", {}, "Sheet"),
    scored.rows.length ? scrollsByKeyboard(el("div", { class: "sheet-wrap" }, table)) : el("p", { class: "muted" }, "No round entered yet."),
    el("p", { class: "muted" }, "Each player: bid/tricks +score, then the running total. Round: its cards and dealer."));
}

function chart() {
  const scored = sheet.sheet;
  if (!scored.rows.some((row) => row.status === "scored")) return null;
  const box = el("div", { id: "chart" });
  const section = el("section", { class: "card-box chart", "aria-label": "Chart of the totals" },
    el("h2", {}, "Totals over the rounds"), box, chartLegend(scored, { colours: COLOURS }));
  return section;
}

function exportLinks(base) {
  return el("div", { class: "row" },
    el("a", { class: "button", href: `${base}/csv`, download: "" }, "Export CSV"),
    el("a", { class: "button", href: `${base}/record`, download: "" }, "Export record"));
}

function exportsOnly() {
  return el("section", { class: "card-box" }, exportLinks(`/api/sheets/shared/${sheet.share}`), printButtons());
}

function actions() {
  const shareUrl = `${location.origin}/keep/view/${sheet.share}`;
  const share = el("input", { readonly: true, value: shareUrl, id: "share-link", "aria-label": "Read-only link" });
  return el("section", { class: "card-box", "aria-label": "Sheet actions" },
    el("div", { class: "row" },
      el("button", { type: "button", id: "undo", disabled: !sheet.can_undo, onclick: () => act("undo") }, "↶ Undo last entry"),
      el("button", { type: "button", onclick: () => openDealer() }, "Change first dealer")),
    exportLinks(`/api/sheets/${sheet.id}`),
    printButtons(),
    el("div", { class: "share" },
      el("label", {}, "Read-only link to share", share),
      el("button", { type: "button", onclick: async () => {
        share.select();
        try { await navigator.clipboard.writeText(shareUrl); showError("Link copied."); } catch { /* selected for copying by hand */ }
      } }, "Copy link")));
}

// ------------------------------------------------------------------ fixing

function openEdit(number) {
  const row = sheet.sheet.rows.find((r) => r.number === number);
  if (!row) return;
  const tricksKnown = row.cells.every((c) => c.tricks !== null);
  const values = { bids: row.cells.map((c) => c.bid), tricks: tricksKnown ? row.cells.map((c) => c.tricks) : null };
  const dialog = el("dialog", { "aria-label": `Edit round ${number}` });
  const draw = () => {
    const body = el("div", {});
    body.append(el("p", { class: "muted" }, `${row.hand_size} card${row.hand_size === 1 ? "" : "s"}; ${name(row.dealer)} dealt.`));
    sheet.players.forEach((p, seat) => {
      body.append(el("div", { class: "stepper-row" }, el("strong", {}, p), el("span", {},
        el("span", { class: "row" }, el("span", { class: "muted" }, "bid"),
          stepper(`${p} bid in round ${number}`, values.bids[seat], row.hand_size, (v) => { values.bids[seat] = v; draw(); })),
        values.tricks ? el("span", { class: "row" }, el("span", { class: "muted" }, "took"),
          stepper(`${p} tricks in round ${number}`, values.tricks[seat], row.hand_size, (v) => { values.tricks[seat] = v; draw(); })) : null)));
    });
    if (values.tricks) {
      const sum = values.tricks.reduce((a, b) => a + b, 0);
      body.append(el("p", { class: `sum ${sum === row.hand_size ? "good" : "bad"}` }, `tricks: ${sum} of ${row.hand_size}`));
    }
    fill(dialog, 
      el("h2", {}, `Edit round ${number}`),
      el("p", { class: "muted" }, values.tricks ? "Each player's bid and the tricks they took." : "Each player's bid."),
      body,
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", onclick: async () => {
          const ok = await act(`rounds/${number}`, { bids: values.bids, tricks: values.tricks });
          if (ok) { dialog.close(); dialog.remove(); }
        } }, "Save the round"),
        el("button", { type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, "Cancel")));
  };
  draw();
  document.body.append(dialog);
  dialog.showModal();
}

function openDealer() {
  const dialog = el("dialog", { "aria-label": "Change the first dealer" });
  dialog.append(
    el("h2", {}, "Who dealt the first round?"),
    el("p", { class: "muted" }, "Every round's dealer follows; rounds the change makes illegal are flagged for fixing."),
    el("div", { class: "row" }, ...sheet.players.map((p, seat) => el("button", {
      type: "button", "aria-pressed": String(sheet.first_dealer === seat),
      onclick: async () => { if (await act("dealer", { seat })) { dialog.close(); dialog.remove(); } },
    }, p))),
    el("div", { class: "row" }, el("button", { type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, "Cancel")));
  document.body.append(dialog);
  dialog.showModal();
}

errorBox.addEventListener("click", clearError);
route();
