// The entries kept as conflicts on a sheet: two phones entered or corrected one round differently
// (one of them, often, with no server for a while). Nothing was applied silently and nothing is
// lost: the server keeps each such entry with the round as it is now and as the entry wanted it
// (upriver.keeper.conflicts), every phone on the sheet lists them here, and the table picks one —
// keep the sheet as it is, or use the entry — which is itself one entry, checked by the engine.

import { el } from "./dom.js";
import { has, lang, t } from "./i18n.js";
import { deviceId } from "./keep-api.js";
import { WORDS as W } from "./keep-words.js";

/**
 * One round's bids and tricks in seat order (null: none, or not playing).
 * @typedef {{bids: (number | null)[], tricks: (number | null)[] | null}} RoundValues
 */

/**
 * An entry the sheet kept as a conflict, as the API lists it under `conflicts`: its round, the entry
 * (`action`, `body`), the round as the entry saw it, as it is now and as the entry wanted it, the
 * seats that differ, which device made it and when (seconds), and why it was not applied (`rule`
 * "conflict": the round moved on; another rule: the engine refused it there, `reason` its sentence).
 * @typedef {object} SheetConflict
 * @property {string} id
 * @property {number} round
 * @property {string} action
 * @property {RoundValues} seen
 * @property {RoundValues} now
 * @property {RoundValues} wanted
 * @property {number[]} differs
 * @property {string} device
 * @property {string} by
 * @property {number} at
 * @property {string} reason
 * @property {string} rule
 */

/** @typedef {import("./keep-api.js").SheetView} SheetView */
/** @typedef {(action: string, body?: Record<string, unknown>, say?: (message: string) => void) => Promise<boolean>} Act */

/**
 * A seat's bid and tricks in a round, in words, a line each ("bid 1", "took 0").
 * @param {RoundValues} values @param {number} seat
 */
function cell(values, seat) {
  const bid = values.bids[seat] ?? null;
  const took = values.tricks ? values.tricks[seat] ?? null : null;
  if (bid === null && took === null) return "–";
  return [
    el("span", { class: "line" }, t("keeper.conflictBid", { bid: bid ?? "–" })),
    took === null ? null : el("span", { class: "line" }, t("keeper.conflictTook", { tricks: took })),
  ];
}

/**
 * One conflict: what it was, who made it where and when, each player whose values differ with the
 * two values, and the two picks.
 * @param {SheetView} sheet @param {SheetConflict} conflict @param {Act} act
 */
function conflictCard(sheet, conflict, act) {
  const where = conflict.device && conflict.device === deviceId() ? t("keeper.conflictThisPhone") : t("keeper.conflictOtherPhone");
  const when = new Date(conflict.at * 1000).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  const kind = has(`keeper.entryKind.${conflict.action}`) ? t(`keeper.entryKind.${conflict.action}`, { round: conflict.round }) : conflict.action;
  const said = el("p", { class: "dialog-error", role: "alert" });
  const say = (/** @type {string} */ message) => { said.textContent = message; };
  const pick = (/** @type {"current" | "entry"} */ choice) => act(`conflicts/${conflict.id}`, { pick: choice }, say);
  const rows = conflict.differs.map((seat) => el("tr", {},
    el("th", { scope: "row" }, sheet.players[seat] ?? `#${seat + 1}`),
    el("td", { "data-now": String(seat) }, cell(conflict.now, seat)),
    el("td", { "data-wanted": String(seat) }, cell(conflict.wanted, seat))));
  return el("article", { class: "conflict", "data-conflict": conflict.id },
    el("h3", {}, t("keeper.conflictRound", { round: conflict.round, what: kind })),
    el("p", { class: "muted" }, t("keeper.conflictMade", { where, when, who: conflict.by || where })),
    conflict.rule !== "conflict"
      ? el("p", {}, t("keeper.conflictRefused", { reason: W.refusal({ error: conflict.reason, rule: conflict.rule }, sheet.players) }))
      : null,
    rows.length ? el("table", { class: "conflict-values" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("keeper.conflictPlayer")),
        el("th", { scope: "col" }, t("keeper.conflictNow")),
        el("th", { scope: "col" }, t("keeper.conflictWanted")))),
      el("tbody", {}, ...rows)) : null,
    sheet.read_only ? null : el("div", { class: "row" },
      el("button", { type: "button", onclick: () => pick("current") }, t("keeper.conflictKeep")),
      el("button", { type: "button", class: "primary", onclick: () => pick("entry") }, t("keeper.conflictUse"))),
    said);
}

/**
 * The sheet's conflicts, to settle (null when there is none).
 * @param {SheetView} sheet @param {Act} act
 */
export function conflictPanel(sheet, act) {
  const conflicts = sheet.conflicts || [];
  if (!conflicts.length) return null;
  const title = t("keeper.conflictsTitle", { count: conflicts.length });
  return el("section", { class: "card-box conflicts", id: "conflicts", "aria-label": title },
    el("h2", {}, title),
    el("p", { class: "muted" }, t("keeper.conflictsHint")),
    ...conflicts.map((conflict) => conflictCard(sheet, conflict, act)));
}
