// The score keeper's evening: who arrives, leaves or sits a round out, bonuses and penalties, the
// schedule of the rounds not yet begun, and the statistics after the game. Only drawing and asking:
// every change is an entry the engine checks (upriver.keeper.commands), sent through `act`, and
// what the sheet shows (who plays which round, every total) is the server's.

import { el, fill } from "./dom.js";
import { WORDS as W } from "./keep-words.js";

/**
 * Send one entry of the sheet; `say` shows a refusal (in a dialog, its own line). True once applied.
 * @typedef {(action: string, body?: Record<string, unknown>, say?: (message: string) => void) => Promise<boolean>} Act
 */

/** @typedef {import("./keep-api.js").SheetView} SheetView */

/** The most and the fewest players of a game (upriver.rules.MAX_PLAYERS, MIN_PLAYERS; docs/rules.md §2.1). */
const MOST_PLAYERS = 8, LEAST_PLAYERS = 3;

/** @param {number} points */
const signed = (points) => (points > 0 ? `+${points}` : `−${-points}`);

/**
 * The first round no entry has been made for: where an arrival, a departure or a new schedule starts.
 * @param {SheetView} sheet
 * @returns {number}
 */
export function nextRound(sheet) {
  const c = sheet.current;
  const scored = sheet.sheet.rows.some((r) => r.number === c.number && r.status === "scored");
  return scored || c.bids.some((/** @type {number | null} */ b) => b !== null) ? c.number + 1 : c.number;
}

/**
 * The seats at the table from round `number` on (joined, not gone; a sit-out still counts).
 * @param {SheetView} sheet
 * @param {number} number
 * @returns {number[]}
 */
function seated(sheet, number) {
  const joined = new Map(sheet.evening.joins.map((j) => [j.seat, j.round]));
  const gone = new Map(sheet.evening.leaves.map((x) => [x.seat, x.round]));
  return sheet.players.map((/** @type {string} */ _, /** @type {number} */ seat) => seat)
    .filter((/** @type {number} */ seat) => (joined.get(seat) ?? 1) <= number && (gone.get(seat) ?? number + 1) > number);
}

/**
 * A dialog with `body` and a save button that runs `save(say)`; it closes once `save` answers true.
 * @param {string} title
 * @param {HTMLElement} body
 * @param {(say: (message: string) => void) => Promise<boolean>} save
 * @param {string} label
 */
function ask(title, body, save, label = W.save) {
  const said = el("p", { class: "dialog-error", role: "alert" });
  const dialog = el("dialog", { "aria-label": title, class: "evening-dialog" });
  const close = () => { dialog.close(); dialog.remove(); };
  fill(dialog, el("h2", {}, title), body, el("div", { class: "row dialog-actions" },
    el("button", { type: "button", class: "primary", onclick: async () => {
      if (await save((message) => { said.textContent = message; })) close();
    } }, label),
    el("button", { type: "button", onclick: close }, W.cancel),
    said));
  document.body.append(dialog);
  dialog.showModal();
}

/**
 * Player buttons, one pressed at a time; `chosen()` is the pressed seat (or null).
 * @param {string[]} players
 * @param {number[]} seats
 * @param {string} label
 */
function seatPicker(players, seats, label) {
  /** @type {number | null} */
  let chosen = seats.length === 1 ? seats[0] : null;
  const group = el("div", { class: "row", role: "group", "aria-label": label });
  const draw = () => fill(group, ...seats.map((seat) => el("button", {
    type: "button", "aria-pressed": String(chosen === seat), "data-seat": String(seat),
    onclick: () => { chosen = seat; draw(); },
  }, players[seat])));
  draw();
  return { group, chosen: () => chosen };
}

/**
 * The arrival of a newcomer: a name (the names of earlier evenings offered) and a starting score.
 * @param {SheetView} sheet
 * @param {Act} act
 * @param {string[]} earlier
 */
function openJoin(sheet, act, earlier) {
  const from = nextRound(sheet);
  const offered = earlier.filter((n) => !sheet.players.includes(n));
  const name = el("input", { name: "newcomer", autocomplete: "off", required: true });
  name.setAttribute("list", "earlier-names"); // `list` is read-only as a property
  const starts = ["zero", "lowest", "average"].map((how) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "start", value: how, checked: how === "zero" }), W.start(how)));
  const body = el("div", {},
    el("label", {}, W.newcomer, name),
    el("datalist", { id: "earlier-names", "aria-label": W.earlierNames }, ...offered.map((n) => el("option", { value: n }))),
    el("fieldset", {}, el("legend", {}, W.startsWith), ...starts),
    el("p", { class: "muted" }, W.joinHint(from, sheet.players[sheet.players.length - 1])),
    scheduleChange(sheet, "arrival"));
  ask(W.arrives, body, (say) => {
    const start = /** @type {HTMLInputElement | null} */ (body.querySelector("input[name=start]:checked"));
    return act("join", { name: name.value.trim(), start: start ? start.value : "zero" }, say);
  }, W.join);
}

/**
 * The cards of each round from the next one on, as they stand and after the change, as the engine
 * previews them (upriver.keeper.changes.preview): what an arrival or a departure does to the schedule,
 * said before it is made.
 * @param {SheetView} sheet
 * @param {"arrival" | "departure"} kind
 * @returns {HTMLElement | null}
 */
function scheduleChange(sheet, kind) {
  const preview = sheet.evening.changes;
  const after = preview ? preview[kind].sizes : undefined;
  if (!preview || !after) return null;
  const now = preview.sizes;
  const list = (/** @type {number[]} */ sizes) => sizes.join(" ");
  const same = after.length === now.length && after.every((size, i) => size === now[i]);
  return el("div", { class: "schedule-change", id: "schedule-change", role: "note" },
    el("p", {}, el("strong", {}, W.cardsFrom(preview.from))),
    same ? el("p", { class: "same" }, W.restSame(list(now), now.length)) : [
      el("p", { class: "was" }, W.restNow(list(now), now.length)),
      el("p", { class: "will" }, (kind === "arrival" ? W.restArrival : W.restDeparture)(list(after), after.length)),
    ]);
}

/** @param {SheetView} sheet @param {Act} act */
function openLeave(sheet, act) {
  const from = nextRound(sheet);
  const pick = seatPicker(sheet.players, seated(sheet, from), W.whoLeaves);
  ask(W.leaves, el("div", {}, el("p", {}, W.whoLeaves), pick.group, el("p", { class: "muted" }, W.leaveHint(from)),
    scheduleChange(sheet, "departure")),
    (say) => act("leave", { seat: pick.chosen() }, say));
}

/** @param {SheetView} sheet @param {Act} act */
function openSitOut(sheet, act) {
  const from = nextRound(sheet);
  const last = sheet.evening.schedule.length;
  const pick = seatPicker(sheet.players, seated(sheet, from), W.whoSitsOut);
  const round = el("select", { name: "round" }, ...Array.from({ length: Math.max(0, last - from + 1) }, (_, k) =>
    el("option", { value: String(from + k) }, String(from + k))));
  ask(W.sitsOut, el("div", {}, el("p", {}, W.whoSitsOut), pick.group, el("label", {}, W.roundWord, round)),
    (say) => act("sit-out", { seat: pick.chosen(), round: Number(round.value) }, say));
}

/** @param {SheetView} sheet @param {Act} act */
function openAdjust(sheet, act) {
  const pick = seatPicker(sheet.players, sheet.players.map((/** @type {string} */ _, /** @type {number} */ s) => s), W.whoFor);
  const points = el("input", { name: "points", type: "number", inputmode: "numeric", step: "1" });
  const note = el("input", { name: "note", maxlength: "80", placeholder: W.noteExample, autocomplete: "off" });
  ask(W.adjust, el("div", {}, el("p", {}, W.whoFor), pick.group,
    el("label", {}, W.points, points), el("label", {}, W.note, note)),
  (say) => act("adjust", { seat: pick.chosen(), points: points.value === "" ? null : Number(points.value), note: note.value }, say));
}

/** @param {SheetView} sheet @param {Act} act */
function openSchedule(sheet, act) {
  const from = nextRound(sheet);
  const sizes = el("input", { name: "sizes", inputmode: "numeric", autocomplete: "off",
    value: sheet.evening.schedule.slice(from - 1).join(", ") });
  ask(W.changeSchedule, el("div", {}, el("label", {}, W.scheduleHint(from), sizes)), (say) => act("schedule", {
    sizes: sizes.value.split(/[\s,]+/).filter(Boolean).map(Number),
  }, say));
}

/**
 * What changed during the evening, in words, in the order it happened on the sheet.
 * @param {SheetView} sheet
 * @returns {HTMLElement | null}
 */
export function eveningNotes(sheet) {
  const ev = sheet.evening;
  const name = (/** @type {number} */ seat) => sheet.players[seat];
  /** @type {[number, string][]} */
  const lines = [
    ...ev.joins.map((j) => /** @type {[number, string]} */ ([j.round - 0.5, W.joined(j.name, j.round, startOf(sheet, j))])),
    ...ev.leaves.map((x) => /** @type {[number, string]} */ ([x.round - 0.5, W.left(name(x.seat), x.round - 1)])),
    ...ev.sit_outs.map((x) => /** @type {[number, string]} */ ([x.round - 0.4, W.satOut(name(x.seat), x.round)])),
    ...ev.adjustments.map((a) => /** @type {[number, string]} */ ([a.after + 0.3,
      `${W.adjusted(name(a.seat), signed(a.points), a.after)}${a.note ? `: ${a.note}` : ""}`])),
  ];
  if (!lines.length) return null;
  lines.sort((a, b) => a[0] - b[0]);
  return el("ul", { class: "evening-notes", id: "evening-notes" }, ...lines.map(([, text]) => el("li", {}, text)));
}

/**
 * A newcomer's starting score as the sheet shows it: their total before their first round's points.
 * @param {SheetView} sheet
 * @param {SheetView["evening"]["joins"][number]} join
 */
function startOf(sheet, join) {
  const row = sheet.sheet.rows.find((r) => r.number === join.round && r.status === "scored");
  if (!row) return sheet.sheet.totals[join.seat];
  const cell = row.cells[join.seat];
  return cell.total - (cell.score ?? 0);
}

/**
 * The evening's section: a button for each change the table can make now, and what changed so far.
 * @param {SheetView} sheet
 * @param {Act} act
 * @param {string[]} earlier the names of earlier evenings, offered for a newcomer
 */
export function eveningPanel(sheet, act, earlier) {
  const notes = eveningNotes(sheet);
  const open = !sheet.read_only && sheet.phase !== "jack";
  const between = open && sheet.phase !== "over" && sheet.phase !== "flagged";
  if (!open && !notes) return null;
  // The engine previews a change of players only between rounds: with none, a bid of this round is in.
  const changes = sheet.evening.changes;
  const begun = between && !changes;
  const full = changes && changes.arrival.refused !== undefined;
  const fewest = changes && changes.departure.refused !== undefined;
  /** Why the buttons beside it wait, said under them. */
  const why = begun ? W.roundBegun(sheet.current.number) : [full ? W.tableFull(MOST_PLAYERS) : "", fewest ? W.fewestPlayers(LEAST_PLAYERS) : ""].filter(Boolean).join(" ");
  const button = (/** @type {string} */ id, /** @type {() => void} */ opens, /** @type {string} */ label, waits = begun) =>
    el("button", { type: "button", id, onclick: opens, disabled: waits, "aria-describedby": waits ? "evening-wait" : null }, label);
  return el("section", { class: "card-box evening", id: "evening", "aria-label": W.evening },
    el("h2", {}, W.evening),
    open ? el("div", { class: "row" },
      between ? button("arrives", () => openJoin(sheet, act, earlier), W.arrives, begun || Boolean(full)) : null,
      between ? button("sits-out", () => openSitOut(sheet, act), W.sitsOut) : null,
      between ? button("leaves", () => openLeave(sheet, act), W.leaves, begun || Boolean(fewest)) : null,
      el("button", { type: "button", id: "adjust", onclick: () => openAdjust(sheet, act) }, W.adjust),
      between ? button("schedule", () => openSchedule(sheet, act), W.changeSchedule) : null)
      : null,
    between && why ? el("p", { class: "muted", id: "evening-wait" }, why) : null,
    notes);
}

/**
 * On the drawn sheet (sheet.js's table): a seat not playing a round says so in its cell, a seat not yet
 * come or gone is left blank, and each adjustment is a note under the round it follows.
 * @param {HTMLElement} table
 * @param {SheetView} sheet
 */
export function markEvening(table, sheet) {
  const ev = sheet.evening;
  const joined = new Map(ev.joins.map((j) => [j.seat, j.round]));
  const gone = new Map(ev.leaves.map((x) => [x.seat, x.round]));
  for (const row of sheet.sheet.rows) {
    for (const seat of ev.absent[row.number - 1] || []) {
      const cell = /** @type {HTMLElement | null} */ (table.querySelector(`td[data-cell="${row.number}-${seat}"]`));
      if (!cell) continue;
      const away = (joined.get(seat) ?? 1) > row.number || (gone.get(seat) ?? row.number + 1) <= row.number;
      cell.classList.add(away ? "away" : "absent");
      const bt = cell.querySelector(".bt");
      if (bt) bt.textContent = away ? "" : W.sitsOutCell;
      cell.setAttribute("aria-label", `${sheet.players[seat]}: ${away ? "–" : W.sitsOutCell}`);
    }
  }
  const columns = sheet.players.length + 2 + (table.querySelector("button.edit") ? 1 : 0);
  for (const a of ev.adjustments) {
    const text = `${W.adjusted(sheet.players[a.seat], signed(a.points), a.after)}${a.note ? `: ${a.note}` : ""}`;
    const line = el("tr", { class: "note adjustment" }, el("td", { class: "adjusted", colspan: String(columns) }, `± ${text}`));
    const after = table.querySelector(`tr[data-round="${a.after}"]`);
    const body = table.querySelector("tbody");
    if (after) after.after(line);
    else if (body && a.after === 0) body.prepend(line);
  }
}

/**
 * Each player's statistics once the game is over: exact bids (and the rate), over, under, the longest
 * run of exact bids.
 * @param {SheetView} sheet
 */
export function statistics(sheet) {
  const percent = (/** @type {number | null} */ rate) => (rate === null ? "–" : `${Math.round(rate * 100)} %`);
  return el("section", { class: "card-box stats", id: "stats", "aria-label": W.stats },
    el("h2", {}, W.stats),
    el("div", { class: "sheet-wrap" }, el("table", { class: "stats-table" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, W.statsPlayer), el("th", { scope: "col" }, W.statsExact),
        el("th", { scope: "col" }, W.statsOver), el("th", { scope: "col" }, W.statsUnder), el("th", { scope: "col" }, W.statsRun))),
      el("tbody", {}, ...sheet.stats.map((s, /** @type {number} */ seat) => el("tr", { "data-seat": String(seat) },
        el("th", { scope: "row" }, sheet.players[seat]),
        el("td", {}, `${s.exact}/${s.played} · ${percent(s.rate)}`),
        el("td", {}, String(s.over)), el("td", {}, String(s.under)), el("td", {}, String(s.longest_run))))))));
}
