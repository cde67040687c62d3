// The score keeper's start page: the sheets this browser knows, a new sheet (its players in seating
// order, the names of earlier evenings offered again, seats reordered before the start; its rules) and
// the import of a game record. Only asking: the server (the engine) makes the sheet.

import { el, fill } from "./dom.js";
import { WORDS as W } from "./keep-words.js";
import { keptSheets } from "./keep-api.js";
import { houseRuleFields } from "./keep-house.js";

/**
 * What the start page needs from the page around it.
 * @typedef {{
 *   app: HTMLElement,
 *   api: (path: string, body?: unknown) => Promise<any>,
 *   showError: (message: string) => void,
 *   remember: (sheet: import("./keep-api.js").SheetView) => void,
 *   known: () => Record<string, {title: string, players: string[], at: number}>,
 * }} Page
 */

/** @type {Page} */
let page;
/** @type {string[]} the names of the sheets kept on the phone (keep-api.js), read once at the start */
let keptNames = [];

/**
 * The names of earlier evenings, the most recent first, each once: the sheets this browser opened
 * (`known`, as keep.js keeps them), then those kept on the phone.
 * @param {Record<string, {players: string[], at: number}>} known
 * @returns {string[]}
 */
export function earlierNames(known) {
  const sheets = Object.values(known).sort((a, b) => b.at - a.at);
  return [...new Set([...sheets.flatMap((s) => s.players), ...keptNames])];
}

/** Read the names of the sheets kept on the phone; none when its storage cannot be read. */
export async function readKeptNames() {
  try {
    const kept = await keptSheets();
    keptNames = kept.flatMap((k) => (k.view && Array.isArray(k.view.players) ? k.view.players : []));
  } catch { /* no storage on this browser: the names it opened are offered alone */ }
}

/** @param {Page} around */
export async function home(around) {
  page = around;
  const { app, api, known } = page;
  await readKeptNames();
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

/**
 * One name field per seat, in seating order, each with a button that moves it a seat up (seats are
 * reordered before the start: the order is the table's, which the deal and the bidding follow).
 * @param {HTMLElement} box
 * @param {number} count
 * @param {() => void} changed
 */
function playerInputs(box, count, changed) {
  const now = [...box.querySelectorAll("input")].map((i) => /** @type {HTMLInputElement} */ (i).value);
  box.replaceChildren(el("datalist", { id: "known-names" }, ...earlierNames(page.known()).map((n) => el("option", { value: n }))));
  for (let i = 0; i < count; i++) {
    const up = () => {
      const inputs = /** @type {HTMLInputElement[]} */ ([...box.querySelectorAll("input")]);
      const values = inputs.map((input) => input.value);
      [values[i - 1], values[i]] = [values[i], values[i - 1]];
      inputs.forEach((input, k) => { input.value = values[k]; });
      changed();
    };
    const input = el("input", {
      name: "player", value: now[i] ?? "", required: true, autocomplete: "off",
      "aria-label": W.player(i + 1), placeholder: W.examples[i],
    });
    input.setAttribute("list", "known-names"); // `list` is read-only as a property
    box.append(el("label", { class: "seat-row" }, W.seat(i + 1), input, i ? el("button", { type: "button", class: "move-up", "aria-label": W.moveUp(W.seat(i + 1)), onclick: up }, "↑") : null));
  }
}

/** @param {import("./keep-api.js").SheetOptions} options */
function newSheetForm(options) {
  const seats = el("div", { class: "seats" });
  let count = 4;
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
  playerInputs(seats, count, () => refreshDealer());
  refreshDealer();
  seats.addEventListener("input", refreshDealer);
  const more = el("button", { type: "button", onclick: () => { if (count < 8) { count++; playerInputs(seats, count, refreshDealer); refreshDealer(); } } }, W.morePlayers);
  const fewer = el("button", { type: "button", onclick: () => { if (count > 3) { count--; playerInputs(seats, count, refreshDealer); refreshDealer(); } } }, W.fewerPlayers);
  const select = (/** @type {string} */ field, /** @type {string} */ label, /** @type {string[]} */ values) => el("label", {}, label, el("select", { name: field },
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
    /** @type {Record<string, unknown>} */
    const body = {
      title: data.get("title"),
      players: data.getAll("player").map((p) => String(p).trim()),
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
      const made = await page.api("/api/sheets", body);
      page.remember(made);
      location.assign(`/keep/${made.id}`);
    } catch (err) {
      page.showError(err.message);
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
      const made = await page.api("/api/sheets/import", { record: text.value });
      page.remember(made);
      location.assign(`/keep/${made.id}`);
    } catch (err) {
      page.showError(err.message);
    }
  });
  return form;
}

