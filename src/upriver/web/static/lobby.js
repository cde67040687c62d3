// The start page: this browser's tables to go back to, a new table from a preset and seat
// choices, or a saved record continued.
//
// This browser's tables are kept in localStorage under "upriver.tables": a JSON array of
// {table, token, seat, at} (at: ms since 1970), newest first. The start page records the tables it
// creates; a page that joins a seat may record it the same way (rememberTable below is the format).

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const options = await (await fetch("/api/options")).json();

// ------------------------------------------------------------------ words

const LEVELS = {
  easy: "Easy — plays by rule of thumb and answers at once; good for learning.",
  normal: "Normal — thinks a little about the cards it cannot see; a fair game.",
  hard: "Hard — weighs hundreds of possible deals and notices who is out of a suit.",
  expert: "Expert — reads the bids and weighs thousands of deals; plays to win.",
};
const ADVANCED = {
  random: "random — any legal bid or card, at random.",
  basic: "basic — the rule of thumb (the same as Easy).",
  pimc: "pimc — searches sampled deals of the hidden cards (perfect-information Monte Carlo).",
  ipimc: "ipimc — pimc with deals weighted by the bids made.",
};
const botWords = (kind) => (LEVELS[kind] || ADVANCED[kind] || kind).split(" — ")[0];

const OPTION_NAMES = {
  schedule: "Order of hand sizes",
  first_dealer: "First dealer",
  bidding: "Bidding",
  dealer_bid: "The dealer's bid",
  trump_lead: "Leading trump",
  scoring: "Scoring",
};
const OPTION_WORDS = {
  "up-down": "from 1 card up to the most, then back down to 1",
  "down-up": "from the most cards down to 1, then back up",
  "first-jack": "cards are dealt face up; the first Jack deals",
  "left-of-keeper": "the player left of the score keeper deals",
  chosen: "the players choose who deals first",
  sequential: "one at a time, in turn",
  simultaneous: "all together, shown on closed fists",
  free: "the dealer may bid anything",
  hook: "the bids may not add up to the tricks (“screw the dealer”)",
  overbid: "the bids must add up to more than the tricks",
  any: "trump may be led at any time",
  broken: "trump may be led only once it has been played on another suit",
  "ten-plus-bid": "an exact bid scores 10 plus the bid; a missed bid scores nothing",
  "tricks-plus-ten": "1 a trick, plus 10 for an exact bid",
};
const words = (value) => OPTION_WORDS[value] || String(value);
const PACE_WORDS = {
  slow: "Slow — bots take their time, finished tricks stay up longer",
  normal: "Normal",
  fast: "Fast — bots answer at once",
};
const HUMAN_MOVE_SECONDS = 4; // a person's bid or card, on average

// ------------------------------------------------------------------ the create form

const preset = () => options.presets.find((p) => p.name === $("preset").value);

function fillPresets() {
  for (const p of options.presets) $("preset").append(new Option(p.name, p.name));
  $("preset").value = "classic";
}

function fillPlayers() {
  const chosen = preset();
  const current = Number($("players").value) || 4;
  $("players").replaceChildren();
  for (let n = chosen.min_players; n <= chosen.max_players; n++) $("players").append(new Option(`${n} players`, n));
  $("players").value = Math.min(Math.max(current, chosen.min_players), chosen.max_players);
  $("preset-summary").textContent = chosen.summary;
  fillSeats();
  presetWords();
}

function botSelect(id, withFriend) {
  const select = el("select", { id, name: id });
  if (withFriend) select.append(new Option("a friend (invite link)", "human"));
  const levels = el("optgroup", { label: "Bots" });
  for (const kind of options.bots.filter((k) => LEVELS[k])) levels.append(new Option(`bot: ${LEVELS[kind]}`, kind));
  const advanced = el("optgroup", { label: "Advanced bots (by method)" });
  for (const kind of options.bots.filter((k) => !LEVELS[k])) advanced.append(new Option(`bot: ${ADVANCED[kind] || kind}`, kind));
  select.append(levels, advanced);
  return select;
}

function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 1; seat < n; seat++) {
    const select = botSelect(`seat-${seat}`, true);
    select.value = kept[seat - 1] || (options.bots.includes("easy") ? "easy" : options.bots[0]);
    select.addEventListener("change", estimate);
    box.append(el("label", {}, `Seat ${seat + 1} `, select));
  }
  estimate();
}

function fillRuleOptions() {
  const box = $("rule-options");
  for (const [key, values] of Object.entries(options.rules)) {
    const select = el("select", { id: `rule-${key}` });
    select.append(new Option("as the rules above say", ""));
    for (const v of values) select.append(new Option(words(v), v));
    box.append(el("label", {}, `${OPTION_NAMES[key] || key} `, select, el("span", { className: "hint preset-value", id: `preset-${key}` })));
  }
}

// What each option is under the chosen preset, in words, next to its select.
function presetWords() {
  const chosen = preset();
  for (const key of Object.keys(options.rules)) {
    const span = $(`preset-${key}`);
    const value = chosen.options[key];
    if (span) span.textContent = value == null ? "" : ` (these rules: ${words(value)})`;
  }
}

function addPace() {
  const select = el("select", { id: "pace", name: "pace" });
  for (const pace of options.paces) select.append(new Option(PACE_WORDS[pace] || pace, pace));
  select.value = options.pace;
  select.addEventListener("change", estimate);
  $("seats").after(el("label", {}, "Pace ", select));
}

function seats() {
  const n = Number($("players").value);
  const out = ["human"];
  for (let seat = 1; seat < n; seat++) out.push($(`seat-${seat}`).value);
  return out;
}

// How long the game takes: every seat bids each round and plays each card it is dealt; a bot's
// move waits the pace, a person's takes a few seconds, and each finished trick stays up a while.
function estimate() {
  const box = $("duration");
  if (!box || !$("pace")) return;
  const n = Number($("players").value);
  const length = (options.lengths[$("preset").value] || {})[n];
  const sizes = $("schedule").value.split(/[ ,]+/).filter(Boolean).map(Number).filter((x) => x > 0);
  const rounds = sizes.length ? sizes.length : length && length.rounds;
  const cards = sizes.length ? sizes.reduce((a, b) => a + b, 0) : length && length.cards;
  if (!rounds) {
    box.textContent = "";
    return;
  }
  const pace = options.pace_seconds[$("pace").value] || { move: 0.8, trick: 1.2 };
  const perMove = seats().map((kind) => (kind === "human" ? HUMAN_MOVE_SECONDS : pace.move));
  const seconds = perMove.reduce((sum, s) => sum + s * (rounds + cards), 0) + cards * pace.trick;
  const minutes = Math.max(1, Math.round(seconds / 60));
  const perBot = pace.move < 1 ? `${pace.move.toFixed(1)} s` : `${Math.round(pace.move * 10) / 10} s`;
  box.textContent =
    `About ${minutes} minute${minutes === 1 ? "" : "s"}: ${rounds} round${rounds === 1 ? "" : "s"} × ${n} seats, ` +
    `${perBot} a bot's move at this pace and about ${HUMAN_MOVE_SECONDS} s a person's.`;
}

// ------------------------------------------------------------------ this browser's tables

const STORE_KEY = "upriver.tables";

function rememberedTables() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.table === "string") : [];
  } catch {
    return [];
  }
}

export function rememberTable(entry) {
  const others = rememberedTables().filter((t) => t.table !== entry.table);
  const list = [{ ...entry, at: Date.now() }, ...others].slice(0, 30);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(list));
  } catch {
    // storage full or refused (a private window): the list is only a convenience
  }
}

function forgetTable(id) {
  localStorage.setItem(STORE_KEY, JSON.stringify(rememberedTables().filter((t) => t.table !== id)));
  renderTables();
}

async function copy(text, input, status) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.focus();
    input.select();
    if (!document.execCommand("copy")) {
      status.textContent = "Select the link and copy it yourself.";
      return;
    }
  }
  status.textContent = "Copied.";
  setTimeout(() => (status.textContent = ""), 2500);
}

function linkRow(label, url, { open = false } = {}) {
  const input = el("input", { type: "text", readOnly: true, value: url, className: "link-text" });
  input.setAttribute("aria-label", label);
  const status = el("span", { className: "copied", role: "status" });
  const button = el("button", { type: "button", textContent: "Copy" });
  button.setAttribute("aria-label", `Copy ${label.toLowerCase()}`);
  button.addEventListener("click", () => copy(url, input, status));
  input.addEventListener("focus", () => input.select());
  const row = el("div", { className: "link-row" }, el("span", { className: "link-label" }, label), input, button, status);
  if (open) row.append(el("a", { href: url, target: "_blank", rel: "noopener", className: "watch", textContent: "Watch" }));
  return row;
}

function statusWords(summary) {
  if (summary.damaged) return "Damaged: it accepts no more moves.";
  if (summary.over) return "Finished.";
  if (summary.started) return `Playing: round ${summary.round}${summary.rounds ? ` of ${summary.rounds}` : ""}.`;
  const open = summary.seats.filter((s) => !s.joined).length;
  return `Waiting for ${open} player${open === 1 ? "" : "s"}.`;
}

function hostTools(entry, summary, item) {
  const tools = el("div", { className: "host-tools" });
  for (const invite of summary.invites || []) {
    const url = new URL(invite.url, location.origin).href;
    const row = linkRow(`Seat ${invite.seat + 1}'s invite`, url);
    const select = botSelect(`bot-${summary.table}-${invite.seat}`, false);
    select.value = options.bots.includes("easy") ? "easy" : options.bots[0];
    select.setAttribute("aria-label", `Bot for seat ${invite.seat + 1}`);
    const give = el("button", { type: "button", textContent: "Give this seat to a bot" });
    give.addEventListener("click", async () => {
      const response = await fetch(`/api/tables/${summary.table}/seats/${invite.seat}/bot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: entry.token, kind: select.value }),
      });
      if (!response.ok) {
        item.querySelector(".error").textContent = (await response.json()).error;
        return;
      }
      renderTables();
    });
    tools.append(el("div", { className: "invite" }, row, el("div", { className: "bot-row" }, select, give)));
  }
  return tools;
}

async function tableItem(entry) {
  const item = el("li", { className: "my-table" });
  item.dataset.table = entry.table;
  const back = el("a", { href: `/t/${entry.table}#token=${encodeURIComponent(entry.token || "")}`, className: "back-link" });
  const forget = el("button", { type: "button", textContent: "Forget", className: "forget" });
  forget.setAttribute("aria-label", "Forget this table in this browser");
  forget.addEventListener("click", () => forgetTable(entry.table));
  const head = el("div", { className: "my-table-head" }, back, forget);
  const status = el("p", { className: "hint table-status" });
  item.append(head, status);
  let response;
  try {
    response = await fetch(`/api/tables/${entry.table}?token=${encodeURIComponent(entry.token || "")}`);
  } catch {
    back.textContent = "A table";
    status.textContent = "The server cannot be reached.";
    return item;
  }
  if (!response.ok) {
    back.textContent = "A table";
    status.textContent =
      response.status === 404 ? "No longer on this server (finished and archived)." : "This link no longer opens your seat.";
    return item;
  }
  const summary = await response.json();
  const names = summary.seats.map((s) => s.name || `seat ${s.seat + 1} (open)`).join(", ");
  back.textContent = summary.over ? `See the result: ${names}` : `Back to the table: ${names}`;
  status.textContent = statusWords(summary);
  if (summary.host && !summary.started) item.append(hostTools(entry, summary, item));
  if (summary.spectate) item.append(linkRow("Spectators' link", new URL(summary.spectate, location.origin).href, { open: true }));
  item.append(el("p", { className: "error", role: "alert" }));
  return item;
}

async function renderTables() {
  const list = rememberedTables();
  $("my-tables").hidden = list.length === 0;
  const items = await Promise.all(list.map(tableItem));
  $("my-table-list").replaceChildren(...items);
}

// ------------------------------------------------------------------ creating

async function create(body, errorBox) {
  errorBox.textContent = "";
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    errorBox.textContent = answer.error;
    // The engine names the rule option at fault: take the person to that field.
    const field = answer.option && ($(`rule-${answer.option}`) || $(answer.option));
    if (field) field.focus();
    else if (answer.field === "name") $("name").focus();
    return;
  }
  rememberTable({ table: answer.table, token: answer.token, seat: answer.seat });
  if (body.seats.slice(1).includes("human")) {
    // Friends are invited: stay here with their links to copy, and the way to the table.
    await renderTables();
    $("created").hidden = false;
    $("created-link").href = answer.url;
    $("my-tables").scrollIntoView({ block: "start" });
    $("created-link").focus();
    return;
  }
  location.assign(answer.url);
}

$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  // Rule options go as the game record spells them; a blank field is sent as "" and the server
  // reads it as "not given" (the one place blanks are translated).
  const body = { name: $("name").value, seats: seats(), creator: 0, preset: $("preset").value, pace: $("pace").value };
  for (const key of Object.keys(options.rules)) body[key] = $(`rule-${key}`).value;
  // Hand sizes typed in ("1,2,1") are the schedule; else the schedule chosen above (or the preset's).
  const sizes = $("schedule").value.trim();
  if (sizes) body.schedule = sizes.split(/[ ,]+/).filter(Boolean).map(Number);
  create(body, $("create-error"));
});

$("import").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("record-file").files[0];
  const record = file ? await file.text() : $("record-text").value;
  if (!record.trim()) {
    $("import-error").textContent = "Choose a record file or paste one.";
    return;
  }
  let players = 0;
  try {
    players = JSON.parse(record).players.length;
  } catch {
    $("import-error").textContent = "That is not a game record (not JSON with players).";
    return;
  }
  const chosen = seats();
  const kinds = Array.from({ length: players }, (_, i) => chosen[i] || options.bots[0]);
  // An empty name keeps the record's name for seat 1.
  create({ name: $("name").value, seats: kinds, creator: 0, record, pace: $("pace").value }, $("import-error"));
});

$("preset").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("schedule").addEventListener("input", estimate);
fillPresets();
fillRuleOptions();
addPace();
fillPlayers();
renderTables();
