// The start page: this browser's tables to go back to, a new table from a preset and seat
// choices, or a saved record continued.
//
// This browser's tables are kept in localStorage (table-store.js holds the format): the start page
// records the tables it creates and lists them; the table page records the seats it joins.

import { has, lang, number, reason, shownName, t } from "/static/i18n.js";
import { STORE_KEY, remembered, rememberTable } from "/static/table-store.js";
import { fillTableOptions, installQuickStart, lastSettings, rememberSettings, tableOptions } from "/static/lobby-quick.js";
import { scoringField, scoringRefusal } from "/static/scoring-form.js";
import { $, $input, el, valueOf } from "./dom.js";


/** @type {import("./lobby-quick.js").Options} */
const options = await (await fetch("/api/options")).json();

// The bar's account link (web/accounts): "My tables" when this browser is signed in, else "Sign in".
fetch("/api/account").then((answer) => answer.json()).then((/** @type {{signed_in: boolean}} */ account) => {
  if (!account.signed_in) return;
  $("account-link").dataset.i18n = "account.link_tables";
  $("account-link").textContent = t("account.link_tables");
}).catch(() => {});

/**
 * A table as GET /api/tables/{id} sums it up for the list of this browser's tables (web/app.py).
 * @typedef {Record<string, any>} TableSummary
 */

/** A seat of a table's summary.
 * @typedef {{seat: number, name: string | null, kind: string, joined: boolean}} SummarySeat */

// ------------------------------------------------------------------ words

// Every word comes from the language's catalogue (i18n.js): levels and kinds ("level.expert",
// "level.expert.text"), rule options ("option.bidding") and their choices ("choice.first-jack"),
// presets ("preset.classic", "preset.classic.summary") and paces ("pace.slow").
const LEVELS = ["easy", "normal", "hard", "expert"];
const known = (/** @type {string} */ key, /** @type {string} */ fallback) => (has(key) ? t(key) : fallback);
const botWords = (/** @type {string} */ kind) => known(`level.${kind}`, kind);
const botOption = (/** @type {string} */ kind) => t("lobby.bot_option", { name: botWords(kind), text: known(`level.${kind}.text`, "") });
const optionName = (/** @type {string} */ key) => known(`option.${key}`, key);
const words = (/** @type {unknown} */ value) => known(`choice.${value}`, String(value));
const HUMAN_MOVE_SECONDS = 4; // a person's bid or card, on average

// A refusal from the server in the page's language: from its rule and facts when it has them
// (the engine's, the table's, a name's), else the server's own sentence after a translated lead.
/** @param {{rule?: string, facts?: Record<string, any>, message?: string, error?: string, option?: string, field?: string}} answer */
function refusalWords(answer) {
  const scoringWords = answer.option === "scoring" ? scoringRefusal(answer.facts) : null;
  if (scoringWords) return scoringWords; // a custom scoring's number, said by its field
  if (answer.rule && answer.rule !== "rules" && answer.rule !== "record" && has(`reason.${answer.rule.replace(/[^a-z0-9]+/g, "_")}`)) {
    return reason(answer);
  }
  if (answer.option !== undefined || answer.rule === "rules") {
    const lead = reason({ rule: "rules", facts: { option: answer.option ? optionName(answer.option) : "—" } });
    return lang === "en" ? answer.error : `${lead} ${t("lobby.server_says")} ${answer.error}`;
  }
  if (answer.field === "record" || answer.rule === "record") {
    return lang === "en" ? answer.error : `${reason({ rule: "record" })} ${t("lobby.server_says")} ${answer.error}`;
  }
  if (answer.field) return lang === "en" ? answer.error : `${reason({ rule: "input", facts: { field: answer.field } })} ${t("lobby.server_says")} ${answer.error}`;
  return lang === "en" ? answer.error : `${t("lobby.server_says")} ${answer.error}`;
}

// ------------------------------------------------------------------ the create form

/** @returns {import("./table-panels.js").Preset & {min_players: number, max_players: number}} */
const preset = () => options.presets.find((/** @type {{name: string}} */ p) => p.name === valueOf("preset"));

function fillPresets() {
  for (const p of options.presets) $("preset").append(new Option(known(`preset.${p.name}`, p.name), p.name));
  /** @type {HTMLSelectElement} */ ($("preset")).value = options.default_preset;
}

function fillPlayers() {
  const chosen = preset();
  const current = Number(valueOf("players")) || 4;
  $("players").replaceChildren();
  for (let n = chosen.min_players; n <= chosen.max_players; n++) $("players").append(new Option(t("n.players", { count: n }), String(n)));
  /** @type {HTMLSelectElement} */ ($("players")).value = String(Math.min(Math.max(current, chosen.min_players), chosen.max_players));
  $("preset-summary").textContent = known(`preset.${chosen.name}.summary`, chosen.summary);
  fillSeats();
  presetWords();
}

/**
 * @param {string} id
 * @param {boolean} withFriend
 */
function botSelect(id, withFriend) {
  const select = el("select", { id, name: id });
  if (withFriend) select.append(new Option(t("lobby.friend"), "human"));
  const levels = el("optgroup", { label: t("lobby.bots") });
  for (const kind of options.bots.filter((bot) => LEVELS.includes(bot))) levels.append(new Option(botOption(kind), kind));
  const advanced = el("optgroup", { label: t("lobby.advanced_bots") });
  for (const kind of options.bots.filter((bot) => !LEVELS.includes(bot))) advanced.append(new Option(botOption(kind), kind));
  select.append(levels, advanced);
  return select;
}

function fillSeats() {
  const n = Number(valueOf("players"));
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 1; seat < n; seat++) {
    const select = botSelect(`seat-${seat}`, true);
    select.value = kept[seat - 1] || (options.bots.includes("easy") ? "easy" : options.bots[0]);
    select.addEventListener("change", estimate);
    box.append(el("label", {}, `${t("lobby.seat", { n: seat + 1 })} `, select));
  }
  estimate();
}

// The scoring is shown outside the folded options, with its worked examples (scoring-form.js).
/** @type {ReturnType<typeof scoringField> | null} */
let scoring = null;

function fillRuleOptions() {
  const box = $("rule-options");
  for (const [key, values] of Object.entries(options.rules)) {
    if (key === "scoring") {
      scoring = scoringField({ id: "rule-scoring", label: optionName(key), choices: values, words, asRules: t("lobby.as_rules_say"), fallback: () => preset().options.scoring });
      scoring.element.querySelector("label").append(el("span", { className: "hint preset-value", id: "preset-scoring" }));
      $("rule-options").closest("details").before(scoring.element);
      // A refusal of the scoring under the form goes once the scoring's numbers are accepted.
      scoring.element.addEventListener("scoring:checked", (event) => {
        const said = $("create-error");
        if (/** @type {CustomEvent} */ (event).detail.ok && said.dataset.option === "scoring") {
          said.textContent = "";
          said.dataset.option = "";
        }
      });
      continue;
    }
    const select = el("select", { id: `rule-${key}` });
    select.append(new Option(t("lobby.as_rules_say"), ""));
    for (const v of values) select.append(new Option(words(v), v));
    box.append(el("label", {}, `${optionName(key)} `, select, el("span", { className: "hint preset-value", id: `preset-${key}` })));
  }
  // The blind one-card round is on or off: a box to tick (left unticked, the round is played as usual).
  const blind = el("input", { type: "checkbox", id: "rule-blind_one_card" });
  box.append(el("label", { className: "check" }, blind, ` ${t("house.blind")}`));
}

// What each option is under the chosen preset, in words, next to its select.
function presetWords() {
  const chosen = preset();
  for (const key of Object.keys(options.rules)) {
    const span = $(`preset-${key}`);
    const value = chosen.options[key];
    if (span) span.textContent = value == null ? "" : ` ${t("lobby.these_rules", { words: words(value) })}`;
  }
  if (scoring) scoring.refresh();
}

function addPace() {
  const select = el("select", { id: "pace", name: "pace" });
  for (const pace of options.paces) select.append(new Option(known(`pace.${pace}`, pace), pace));
  select.value = options.pace;
  select.addEventListener("change", estimate);
  $("seats").after(el("label", {}, `${t("lobby.pace")} `, select));
}

function seats() {
  const n = Number(valueOf("players"));
  const out = ["human"];
  for (let seat = 1; seat < n; seat++) out.push(valueOf(`seat-${seat}`));
  return out;
}

// How long the game takes: every seat bids each round and plays each card it is dealt; a bot's
// move waits the pace, a person's takes a few seconds, and each finished trick stays up a while.
function estimate() {
  const box = $("duration");
  if (!box || !$("pace")) return;
  const n = Number(valueOf("players"));
  const length = (options.lengths[valueOf("preset")] || {})[n];
  const sizes = valueOf("schedule").split(/[ ,]+/).filter(Boolean).map(Number).filter((x) => x > 0);
  const rounds = sizes.length ? sizes.length : length && length.rounds;
  const cards = sizes.length ? sizes.reduce((a, b) => a + b, 0) : length && length.cards;
  if (!rounds) {
    box.textContent = "";
    return;
  }
  const pace = options.pace_seconds[valueOf("pace")] || { move: 0.8, trick: 1.2 };
  const perMove = seats().map((kind) => (kind === "human" ? HUMAN_MOVE_SECONDS : pace.move));
  const seconds = perMove.reduce((sum, s) => sum + s * (rounds + cards), 0) + cards * pace.trick;
  const minutes = Math.max(1, Math.round(seconds / 60));
  box.textContent = t("lobby.estimate", {
    minutes,
    rounds,
    seats: n,
    bot: number(Math.round(pace.move * 10) / 10),
    person: number(HUMAN_MOVE_SECONDS),
  });
}

// ------------------------------------------------------------------ this browser's tables

/** @param {string} id */
function forgetTable(id) {
  localStorage.setItem(STORE_KEY, JSON.stringify(remembered().filter((entry) => entry.table !== id)));
  renderTables();
}

/**
 * @param {string} text
 * @param {HTMLInputElement} input
 * @param {HTMLElement} status
 */
async function copy(text, input, status) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.focus();
    input.select();
    if (!document.execCommand("copy")) {
      status.textContent = t("lobby.copy_yourself");
      return;
    }
  }
  status.textContent = t("lobby.copied");
  setTimeout(() => (status.textContent = ""), 2500);
}

/**
 * @param {string} label
 * @param {string} url
 * @param {{open?: boolean}} [how]
 */
function linkRow(label, url, { open = false } = {}) {
  const input = el("input", { type: "text", readOnly: true, value: url, className: "link-text" });
  input.setAttribute("aria-label", label);
  const status = el("span", { className: "copied", role: "status" });
  const button = el("button", { type: "button", textContent: t("lobby.copy") });
  button.setAttribute("aria-label", t("lobby.copy_label", { label }));
  button.addEventListener("click", () => copy(url, input, status));
  input.addEventListener("focus", () => input.select());
  const row = el("div", { className: "link-row" }, el("span", { className: "link-label" }, label), input, button, status);
  if (open) row.append(el("a", { href: url, target: "_blank", rel: "noopener", className: "watch", textContent: t("lobby.watch") }));
  return row;
}

/** @param {TableSummary} summary */
function statusWords(summary) {
  if (summary.damaged) return t("lobby.status_damaged");
  if (summary.over) return t("lobby.status_over");
  if (summary.started) {
    return summary.rounds ? t("lobby.status_round", { round: summary.round, rounds: summary.rounds }) : t("lobby.status_started", { round: summary.round });
  }
  const open = summary.seats.filter((/** @type {SummarySeat} */ s) => !s.joined).length;
  return t("lobby.status_waiting", { count: open });
}

/**
 * @param {import("./table-store.js").HeldTable} entry
 * @param {TableSummary} summary
 * @param {HTMLElement} item
 */
function hostTools(entry, summary, item) {
  const tools = el("div", { className: "host-tools" });
  for (const invite of summary.invites || []) {
    const url = new URL(invite.url, location.origin).href;
    const row = linkRow(t("lobby.invite_of", { n: invite.seat + 1 }), url);
    const select = botSelect(`bot-${summary.table}-${invite.seat}`, false);
    select.value = options.bots.includes("easy") ? "easy" : options.bots[0];
    select.setAttribute("aria-label", t("lobby.bot_for", { n: invite.seat + 1 }));
    const give = el("button", { type: "button", textContent: t("lobby.give_to_bot") });
    give.addEventListener("click", async () => {
      const response = await fetch(`/api/tables/${summary.table}/seats/${invite.seat}/bot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: entry.token, kind: select.value }),
      });
      if (!response.ok) {
        item.querySelector(".error").textContent = refusalWords(await response.json());
        return;
      }
      renderTables();
    });
    tools.append(el("div", { className: "invite" }, row, el("div", { className: "bot-row" }, select, give)));
  }
  return tools;
}

// A seat as the list names it: a bot's label ("Cid (easy)", the server's name for it) with its
// level in the page's words, an open seat as such.
/** @param {SummarySeat} s */
function seatWords(s) {
  if (!s.name) return t("lobby.open_seat", { n: s.seat + 1 });
  return shownName(s.name);
}

/** @param {import("./table-store.js").HeldTable} entry */
async function tableItem(entry) {
  const item = el("li", { className: "my-table" });
  item.dataset.table = entry.table;
  const back = el("a", { href: `/t/${entry.table}#token=${encodeURIComponent(entry.token || "")}`, className: "back-link" });
  const forget = el("button", { type: "button", textContent: t("lobby.forget"), className: "forget" });
  forget.setAttribute("aria-label", t("lobby.forget_label"));
  forget.addEventListener("click", () => forgetTable(entry.table));
  const head = el("div", { className: "my-table-head" }, back, forget);
  const status = el("p", { className: "hint table-status" });
  item.append(head, status);
  let response;
  try {
    response = await fetch(`/api/tables/${entry.table}?token=${encodeURIComponent(entry.token || "")}`);
  } catch {
    back.textContent = t("lobby.a_table");
    status.textContent = t("lobby.unreachable");
    return item;
  }
  if (!response.ok) {
    back.textContent = t("lobby.a_table");
    status.textContent = response.status === 404 ? t("lobby.archived") : t("lobby.link_dead");
    return item;
  }
  const summary = await response.json();
  const names = summary.seats.map(seatWords).join(t("list.separator"));
  back.textContent = t(summary.over ? "lobby.see_result" : "lobby.back_to", { names });
  status.textContent = statusWords(summary);
  if (summary.host && !summary.started) item.append(hostTools(entry, summary, item));
  if (summary.spectate) item.append(linkRow(t("lobby.spectators_link"), new URL(summary.spectate, location.origin).href, { open: true }));
  item.append(el("p", { className: "error", role: "alert" }));
  return item;
}

async function renderTables() {
  const list = remembered();
  $("my-tables").hidden = list.length === 0;
  const items = await Promise.all(list.map(tableItem));
  $("my-table-list").replaceChildren(...items);
}

// ------------------------------------------------------------------ creating

/**
 * @param {Record<string, any>} body the table asked for (POST /api/tables)
 * @param {HTMLElement} errorBox
 */
async function create(body, errorBox) {
  errorBox.textContent = "";
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    errorBox.textContent = refusalWords(answer);
    errorBox.dataset.option = answer.option || "";
    // The engine names the rule option at fault: take the person to that field.
    const field = answer.option && ($(`rule-${answer.option}`) || $(answer.option));
    if (field) field.focus();
    else if (answer.field === "name") $("name").focus();
    return;
  }
  rememberTable({ table: answer.table, token: answer.token, seat: answer.seat });
  if (!body.record) rememberSettings(body); // for the next "Play now"
  if (body.seats.slice(1).includes("human")) {
    // Friends are invited: stay here with their links to copy, and the way to the table.
    await renderTables();
    $("created").hidden = false;
    /** @type {HTMLAnchorElement} */ ($("created-link")).href = answer.url;
    $("my-tables").scrollIntoView({ block: "start" });
    $("created-link").focus();
    return;
  }
  location.assign(answer.url);
}

// The table the create form describes, as the create request spells it, without its seats and
// name: what "Create" and "Play now" both start. Rule options go as the game record spells them; a
// blank field is sent as "" and the server reads it as "not given" (the one place blanks are translated).
function formTable() {
  /** @type {Record<string, unknown>} */
  const body = { preset: valueOf("preset"), pace: valueOf("pace"), ...tableOptions() };
  for (const key of Object.keys(options.rules)) body[key] = key === "scoring" ? scoring.value() : valueOf(`rule-${key}`);
  if ($input("rule-blind_one_card").checked) body.blind_one_card = true;
  // Hand sizes typed in ("1,2,1") are the schedule; else the schedule chosen above (or the preset's).
  const sizes = valueOf("schedule").trim();
  if (sizes) body.schedule = sizes.split(/[ ,]+/).filter(Boolean).map(Number);
  return body;
}

// The form's table in words, for four players (Play now's): the preset, the rounds (the hand sizes
// typed, or how many the preset deals), each rule changed, the blind round, hints and the clock.
function formWords() {
  const table = formTable();
  const parts = [known(`preset.${table.preset}`, String(table.preset))];
  const sizes = /** @type {number[] | undefined} */ (table.schedule);
  const length = (options.lengths[valueOf("preset")] || {})[4];
  if (sizes) parts.push(t("lobby.play_now_sizes", { sizes: sizes.join(", ") }));
  else if (length) parts.push(t("n.rounds", { count: length.rounds }));
  for (const key of Object.keys(options.rules)) {
    const value = table[key];
    if (Array.isArray(value)) continue; // hand sizes typed in: said above
    if (key === "scoring" && value && typeof value === "object") parts.push(t("house.custom"));
    else if (value) parts.push(`${optionName(key)}: ${words(value)}`);
  }
  if (table.blind_one_card) parts.push(t("house.blind"));
  if (table.hints) parts.push(t("lobby.play_now_hints"));
  const clock = /** @type {HTMLSelectElement} */ ($("clock"));
  if (table.clock) parts.push(`${t("lobby.clock")}: ${clock.selectedOptions[0].text}`);
  return parts;
}

// The form starts from the last table's settings made here (Play now starts what it shows).
function fillFromLast() {
  const last = lastSettings(options);
  if (options.presets.some((/** @type {{name: string}} */ p) => p.name === last.preset)) {
    /** @type {HTMLSelectElement} */ ($("preset")).value = last.preset;
  }
  for (const key of Object.keys(options.rules)) {
    const value = last[key];
    if (key === "scoring") {
      if (typeof value === "string" && scoring && [...scoring.select.options].some((o) => o.value === value)) scoring.select.value = value;
      continue;
    }
    const select = /** @type {HTMLSelectElement | null} */ ($(`rule-${key}`));
    if (select && typeof value === "string" && [...select.options].some((o) => o.value === value)) select.value = value;
  }
  if (Array.isArray(last.schedule)) $input("schedule").value = last.schedule.join(", ");
  $input("rule-blind_one_card").checked = last.blind_one_card === true;
}

$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  /** @type {Record<string, unknown>} the table asked for (POST /api/tables) */
  const body = { name: valueOf("name"), seats: seats(), creator: 0, ...formTable() };
  create(body, $("create-error"));
});

// Who sits where in a saved game continued: you at seat 1; a bot keeps its level, which its name in
// the record carries ("Bob (hard)"), so the server keeps the name too; a seat a person played gets
// the choice made above for that seat (an invitation or a bot).
/** @param {string[]} players */
function recordSeats(players) {
  const chosen = seats();
  return players.map((name, seat) => {
    if (seat === 0) return "human";
    const label = /\(\s*([\w-]+)\s*\)\s*$/.exec(name);
    const kind = label && label[1].toLowerCase();
    return kind && options.bots.includes(kind) ? kind : chosen[seat] || options.bots[0];
  });
}

$("import").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $input("record-file").files[0];
  const record = file ? await file.text() : valueOf("record-text");
  if (!record.trim()) {
    $("import-error").textContent = t("lobby.choose_record");
    return;
  }
  let players = [];
  try {
    players = JSON.parse(record).players.map(String);
  } catch {
    $("import-error").textContent = t("lobby.not_record");
    return;
  }
  // An empty name keeps the record's name for seat 1.
  create({ name: valueOf("name"), seats: recordSeats(players), creator: 0, record, pace: valueOf("pace") }, $("import-error"));
});

$("record-file").addEventListener("change", () => {
  const file = $input("record-file").files[0];
  $("record-file-name").textContent = file ? file.name : t("lobby.no_file");
});
$("preset").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("schedule").addEventListener("input", estimate);
fillPresets();
fillRuleOptions();
addPace();
fillTableOptions($("table-options"), options);
fillFromLast();
installQuickStart({ options, create, refusal: refusalWords, table: formTable, words: formWords });
fillPlayers();
renderTables();
