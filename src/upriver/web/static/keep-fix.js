// The score keeper's fixes: a round already entered edited (its bids, its tricks), and the first
// dealer changed. Every change is re-checked by the engine, which re-scores everything after it.

import { el, fill } from "./dom.js";
import { againstFor } from "./keep-api.js";
import { WORDS as W } from "./keep-words.js";

/**
 * Send one entry of the sheet; `say` shows a refusal. True once applied.
 * @typedef {(action: string, body?: Record<string, unknown>, say?: (message: string) => void) => Promise<boolean>} Act
 */

/** @typedef {import("./keep-api.js").SheetView} SheetView */

/**
 * A number to tap up and down, from 0 to `max` (`null`: none yet).
 * @param {string} label
 * @param {number | null} value
 * @param {number} max
 * @param {(value: number) => void} onchange
 */
export function stepper(label, value, max, onchange) {
  const out = el("output", { "aria-live": "polite", "aria-label": label }, value === null ? "–" : String(value));
  return el("span", { class: "stepper" },
    el("button", { type: "button", "aria-label": W.fewer(label), disabled: value === null || value <= 0,
      onclick: () => onchange(Math.max(0, (value ?? 0) - 1)) }, "−"),
    out,
    el("button", { type: "button", "aria-label": W.more(label), disabled: value !== null && value >= max,
      onclick: () => onchange(Math.min(max, (value ?? -1) + 1)) }, "+"));
}

/**
 * The dialog that edits round `number`: a stepper per bid and per count, for each seat that played it.
 * @param {SheetView} sheet
 * @param {number} number
 * @param {Act} act
 */
export function openEdit(sheet, number, act) {
  const row = sheet.sheet.rows.find((r) => r.number === number);
  if (!row) return;
  const name = (/** @type {number} */ seat) => sheet.players[seat];
  const absent = sheet.evening ? sheet.evening.absent[number - 1] || [] : [];
  const playing = sheet.players.map((/** @type {string} */ _, /** @type {number} */ s) => s).filter((/** @type {number} */ s) => !absent.includes(s));
  const tricksKnown = playing.every((/** @type {number} */ s) => row.cells[s].tricks !== null);
  const values = {
    bids: row.cells.map((c) => c.bid),
    tricks: tricksKnown ? row.cells.map((c, /** @type {number} */ s) => (absent.includes(s) ? null : c.tricks)) : null,
  };
  const dialog = el("dialog", { "aria-label": W.editRound(number) });
  // The round as this dialog opened on it: a correction made meanwhile on another phone is not written over.
  const against = againstFor(sheet, "edit", { round: number });
  const draw = () => {
    const body = el("div", {});
    body.append(el("p", { class: "muted" }, W.dealt(row.hand_size, name(row.dealer))));
    sheet.players.forEach((/** @type {string} */ p, /** @type {number} */ seat) => {
      if (absent.includes(seat)) return;
      body.append(el("div", { class: "stepper-row" }, el("strong", {}, p), el("span", {},
        el("span", { class: "row" }, el("span", { class: "muted" }, W.bidWord),
          stepper(W.bidIn(p, number), values.bids[seat], row.hand_size, (v) => { values.bids[seat] = v; redraw(); })),
        values.tricks ? el("span", { class: "row" }, el("span", { class: "muted" }, W.tookWord),
          stepper(W.tricksIn(p, number), values.tricks[seat], row.hand_size, (v) => { values.tricks[seat] = v; redraw(); })) : null)));
    });
    const sum = values.tricks ? values.tricks.reduce((/** @type {number} */ a, /** @type {number | null} */ b) => a + (b ?? 0), 0) : row.hand_size;
    const adds = sum === row.hand_size;
    if (values.tricks) {
      body.append(el("p", { class: `sum ${adds ? "good" : "bad"}`, id: "edit-sum" }, W.tricksAddUp(sum, row.hand_size)));
    }
    // A refusal is said in the dialog, under its buttons, and goes with it: never left at the foot of
    // the page over the chart once the dialog is closed.
    const said = el("p", { class: "dialog-error", role: "alert" }, saidBefore);
    const say = (/** @type {string} */ message) => { saidBefore = message; said.textContent = message; };
    const close = () => { dialog.close(); dialog.remove(); };
    fill(dialog,
      el("h2", {}, W.editRound(number)),
      el("p", { class: "muted" }, values.tricks ? W.editBoth : W.editBids),
      body,
      el("div", { class: "row dialog-actions" },
        el("button", { type: "button", class: "primary", "aria-disabled": String(!adds), onclick: async () => {
          if (!adds) return say(W.tricksDontAddUp(number, sum, row.hand_size));
          if (await act(`rounds/${number}`, { bids: values.bids, tricks: values.tricks, against }, say)) close();
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

/**
 * The dialog that changes who dealt the first round.
 * @param {SheetView} sheet
 * @param {Act} act
 */
export function openDealer(sheet, act) {
  const dialog = el("dialog", { "aria-label": W.changeFirstDealer });
  dialog.append(
    el("h2", {}, W.whoDealtFirst),
    el("p", { class: "muted" }, W.dealerHint),
    el("div", { class: "row" }, ...sheet.players.map((/** @type {string} */ p, /** @type {number} */ seat) => el("button", {
      type: "button", "aria-pressed": String(sheet.first_dealer === seat),
      onclick: async () => { if (await act("dealer", { seat })) { dialog.close(); dialog.remove(); } },
    }, p))),
    el("div", { class: "row" }, el("button", { type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, W.cancel)));
  document.body.append(dialog);
  dialog.showModal();
}

