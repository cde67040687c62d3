// The score keeper's paper sheet: what the printer gets (print.css shows it and nothing else).
// Blank, for a game kept with a pen as source 000 starts one: a row per round of the schedule (its
// number and cards dealt), a bid and a score cell per player under their name. Or filled in from the
// sheet the server sent. Only drawing: every number comes from the server (the engine).

import { t } from "./i18n.js";
import { el } from "./dom.js";

/** @typedef {import("./keep-api.js").SheetView} SheetView */
/** @typedef {import("./keep-api.js").Evening} Evening */
/** @typedef {import("./sheet.js").SheetRow} SheetRow */
/** @typedef {import("./sheet.js").SheetCell} SheetCell */

/** Every word this module shows, in one place: the page's language catalogue (paper.*, i18n.js). */
const TEXT = {
  title: t("paper.title"),
  round: t("paper.round"),
  cards: t("paper.cards"),
  dealer: t("paper.dealer"),
  trump: t("paper.trump"),
  bid: t("paper.bid"),
  score: t("paper.score"),
  total: t("paper.total"),
  blankNote: t("paper.blankNote"),
  filledNote: t("paper.filledNote"),
  rounds: (/** @type {number} */ rounds, /** @type {number} */ fewest, /** @type {number} */ most) => t("paper.rounds", { rounds, fewest, most }),
  date: t("paper.date"),
  noTrump: t("house.noTrumpShort"),
  sitsOut: t("keeper.sitsOutCell"),
  evening: t("keeper.evening"),
  joined: (/** @type {string} */ name, /** @type {number} */ round, /** @type {number} */ points) => t("keeper.joined", { name, round, points }),
  left: (/** @type {string} */ name, /** @type {number} */ round) => t("keeper.left", { name, round }),
  satOut: (/** @type {string} */ name, /** @type {number} */ round) => t("keeper.satOut", { name, round }),
  adjusted: (/** @type {string} */ name, /** @type {string} */ points, /** @type {number} */ round) => t(round ? "keeper.adjusted" : "keeper.adjustedFirst", { name, points, round }),
};

/** @type {Record<string, string>} */
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/**
 * The printable sheet of a keeper's sheet (the JSON of GET /api/sheets/{id}) as a <section id=paper>:
 * `blank` leaves every cell but the players, rounds and cards empty, for a pen.
 * @param {SheetView} kept
 * @param {{blank: boolean}} how
 * @returns {HTMLElement}
 */
export function paperSheet(kept, { blank }) {
  const players = kept.players;
  /** @type {Evening} */
  const evening = kept.evening || { schedule: kept.rules.hand_sizes, absent: [], joins: [], leaves: [], sit_outs: [], adjustments: [] };
  const sizes = evening.schedule;
  const scored = kept.sheet.rows.some((row) => row.status === "scored");
  const rows = new Map(kept.sheet.rows.map((row) => [row.number, row]));
  const head1 = el("tr", {},
    el("th", { rowspan: "2", scope: "col", class: "rd" }, TEXT.round),
    el("th", { rowspan: "2", scope: "col", class: "cards" }, TEXT.cards),
    el("th", { rowspan: "2", scope: "col", class: "dealer" }, TEXT.dealer),
    el("th", { rowspan: "2", scope: "col", class: "trump" }, TEXT.trump),
    ...players.map((p) => el("th", { colspan: "2", scope: "colgroup", class: "player" }, p)));
  const head2 = el("tr", {}, ...players.flatMap(() => [
    el("th", { scope: "col", class: "bid" }, TEXT.bid), el("th", { scope: "col", class: "score" }, TEXT.score)]));
  const body = el("tbody", {});
  sizes.forEach((cards, index) => {
    const number = index + 1;
    const row = blank ? null : rows.get(number);
    const absent = blank ? [] : evening.absent[index] || [];
    body.append(el("tr", { "data-round": String(number) },
      el("th", { scope: "row", class: "rd" }, String(number)),
      el("td", { class: "cards" }, String(cards)),
      el("td", { class: "dealer" }, row ? players[row.dealer] : ""),
      el("td", { class: "trump" }, trumpOf(kept.rules, index, row)),
      ...players.flatMap((_, seat) => (absent.includes(seat) ? absentCells(row, seat) : cellsOf(row ? row.cells[seat] : null)))));
  });
  const totals = el("tr", { class: "totals" },
    el("th", { scope: "row", colspan: "4" }, TEXT.total),
    ...players.map((_, seat) => el("td", { colspan: "2" }, blank || !scored ? "" : String(kept.sheet.totals[seat]).replace("-", "−"))));
  const wide = players.length > 5;
  const paper = el("section", { id: "paper", class: wide ? "wide" : "", "data-mode": blank ? "blank" : "filled", "aria-hidden": "true" },
    el("h1", {}, kept.title || TEXT.title),
    el("p", { class: "rules" }, TEXT.rounds(sizes.length, Math.min(...sizes), Math.max(...sizes)),
      el("span", { class: "date" }, TEXT.date)),
    el("table", { class: "paper" }, el("thead", {}, head1, head2), body, el("tfoot", {}, totals)),
    blank ? null : changes(kept, evening),
    el("p", { class: "note" }, blank ? TEXT.blankNote : TEXT.filledNote));
  paper.style.setProperty("--rows", String(sizes.length)); // print.css fits the rows to one page
  return paper;
}

// A round's trump: when trump rotates, the rules give every round's (blank sheets too; a round
// without trump says so); otherwise the suit noted, if any.
/** @param {import("./table-panels.js").Rules} rules @param {number} index @param {SheetRow | null} row */
function trumpOf(rules, index, row) {
  if (Array.isArray(rules.trumps)) return rules.trumps[index] ? SUITS[rules.trumps[index]] : TEXT.noTrump;
  return row && row.trump ? SUITS[row.trump] : "";
}

// A round's points with their sign: +12, −4 (a scoring may take points away), 0.
const signed = (/** @type {number} */ points) => (points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0");

// A seat not playing a round: "sits out" with its total kept, or blank before it came and once it left.
/** @param {SheetRow | null} row @param {number} seat */
function absentCells(row, seat) {
  const cell = row ? row.cells[seat] : null;
  const total = cell && cell.total !== null ? el("strong", {}, String(cell.total).replace("-", "−")) : "";
  return [el("td", { class: "bid absent" }, total ? TEXT.sitsOut : ""), el("td", { class: "score" }, total)];
}

// A newcomer's starting score: their total before the points of their first round.
/** @param {SheetView} kept @param {Evening["joins"][number]} join @returns {number} */
function startOf(kept, join) {
  const row = kept.sheet.rows.find((r) => r.number === join.round && r.status === "scored");
  return row ? row.cells[join.seat].total - (row.cells[join.seat].score ?? 0) : kept.sheet.totals[join.seat];
}

// The evening's arrivals, departures, sit-outs and adjustments, under the table.
/** @param {SheetView} kept @param {Evening} evening */
function changes(kept, evening) {
  const name = (/** @type {number} */ seat) => kept.players[seat];
  const lines = [
    ...evening.joins.map((j) => TEXT.joined(j.name, j.round, startOf(kept, j))),
    ...evening.leaves.map((x) => TEXT.left(name(x.seat), x.round - 1)),
    ...evening.sit_outs.map((x) => TEXT.satOut(name(x.seat), x.round)),
    ...evening.adjustments.map((a) => `${TEXT.adjusted(name(a.seat), signed(a.points), a.after)}${a.note ? `: ${a.note}` : ""}`),
  ];
  return lines.length ? el("p", { class: "changes" }, `${TEXT.evening}: ${lines.join(" · ")}`) : null;
}

/** @param {SheetCell | null} cell */
function cellsOf(cell) {
  if (!cell || cell.bid === null) return [el("td", { class: "bid" }), el("td", { class: "score" })];
  const took = cell.tricks === null ? "" : cell.made ? " ✓" : `/${cell.tricks}`;
  return [
    el("td", { class: "bid" }, `${cell.bid}${took}`),
    el("td", { class: "score" },
      cell.score === null ? "" : el("span", { class: "points" }, signed(cell.score)),
      cell.total === null ? "" : el("strong", {}, String(cell.total).replace("-", "−"))),
  ];
}
