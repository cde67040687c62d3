// The scoring, chosen in a form (the start page, the score keeper) and shown as a small table of
// worked examples ("bid 2: took 2 → 12, took 1 → −2, took 3 → −2"), with a scoring of the group's
// own given by its numbers. The points are the server's (POST /api/scoring, the engine's scoring
// function), never worked out here; a custom scoring the engine refuses shows the engine's refusal.

import { number, t } from "/static/i18n.js";
import { el } from "./dom.js";

// The numbers of a custom scoring, in the record's order, with tricks-plus-ten's values (the engine's defaults).
/** @type {[string, number | string][]} */
const CUSTOM = [
  ["exact_bonus", 10],
  ["per_trick", 1],
  ["per_trick_when", "always"],
  ["per_bid", 0],
  ["miss_per_trick_off", 0],
];

/**
 * The server's worked examples of a scoring (POST /api/scoring): each bid's points by the tricks taken.
 * @typedef {object} Examples
 * @property {{round: number, bid: number, tricks: number, points: number}[]} [examples]
 * @property {boolean} [by_round] whether the points depend on the round
 * @property {string} [error] the refusal, when the scoring is refused
 * @property {Record<string, any>} [facts] what the refusal is made of: a custom scoring's `field` and `case`
 */

/**
 * A custom scoring's refusal in words, from its facts (the engine's `field` and `case`), in the
 * page's language; null when the facts do not say (then the server's sentence is all there is).
 * @param {Record<string, any> | undefined} facts
 * @returns {string | null}
 */
export function scoringRefusal(facts) {
  if (!facts || typeof facts.case !== "string") return null;
  if (facts.case === "range") return t("house.refusedRange", { field: t(`house.${facts.field}`), most: facts.most });
  if (facts.case === "when") return t("house.refusedWhen", { field: t(`house.${facts.field}`) });
  if (facts.case === "no_exact_pay") return t("house.refusedNoExactPay", { made: number(facts.made), missed: number(facts.missed) });
  return null;
}

/**
 * Ask the server for a scoring's examples: `{examples, by_round}`, or `{error}` when it is refused.
 * @param {string | Record<string, unknown>} scoring a scoring's name, or a custom scoring's numbers
 * @returns {Promise<Examples>}
 */
export async function scoringExamples(scoring) {
  try {
    const response = await fetch("/api/scoring", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scoring }),
    });
    return await response.json();
  } catch {
    return { error: t("house.unreachable") };
  }
}

/** The examples as a table: a row a bid (and round, when the points depend on it), a cell a result.
 * @param {Examples} answer */
export function examplesTable(answer) {
  const rows = new Map();
  for (const e of answer.examples) {
    const key = `${e.round}/${e.bid}`;
    if (!rows.has(key)) {
      const head = answer.by_round ? t("house.roundBid", { round: e.round, bid: e.bid }) : t("house.bid", { bid: e.bid });
      // Roles kept explicit: the rows are laid out as wrapping lines (house.css), still read as a table.
      rows.set(key, el("tr", { role: "row" }, el("th", { scope: "row", role: "rowheader", textContent: head })));
    }
    const cell = el("td", { role: "cell", className: e.points < 0 ? "negative" : e.bid === e.tricks ? "made" : "" });
    cell.textContent = t("house.took", { tricks: e.tricks, points: number(e.points) });
    cell.dataset.points = String(e.points);
    rows.get(key).append(cell);
  }
  return el("table", { className: "scoring-examples", role: "table" }, el("caption", { textContent: t("house.examples") }), el("tbody", {}, ...rows.values()));
}

/**
 * The scoring's controls: a select of the named scorings (`choices`) and "a scoring of your own",
 * the examples of the one chosen, and the custom scoring's numbers when that is chosen.
 * `words(value)` names a scoring; `fallback()` is the scoring in force when the select is left at
 * "as the rules say" (the preset's). Returns `{ element, select, value(), refresh() }`; `value()` is
 * "" (as the rules say), a name, or the custom scoring's object.
 * @param {object} field
 * @param {string} field.id
 * @param {string} field.label
 * @param {string[]} field.choices
 * @param {(value: string) => string} field.words
 * @param {string} field.asRules the words for "as the rules say"
 * @param {() => string | Record<string, unknown>} field.fallback
 */
export function scoringField({ id, label, choices, words, asRules, fallback }) {
  const select = el("select", { id, name: "scoring" });
  select.append(new Option(asRules, ""));
  for (const v of choices) select.append(new Option(words(v), v));
  select.append(new Option(t("house.custom"), "custom"));
  /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
  const inputs = {};
  const fields = CUSTOM.map(([key, start]) => {
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let input;
    if (key === "per_trick_when") {
      input = el("select", { id: `${id}-${key}` });
      input.append(new Option(t("house.whenAlways"), "always"), new Option(t("house.whenExact"), "exact"));
    } else {
      input = el("input", { id: `${id}-${key}`, type: "number", min: "0", max: "1000", step: "1", inputMode: "numeric", required: true });
    }
    input.value = String(start);
    input.dataset.key = key;
    inputs[key] = input;
    return el("label", { className: "custom-field" }, el("span", { textContent: t(`house.${key}`) }), " ", input);
  });
  const refusal = el("p", { id: `${id}-refusal`, className: "error scoring-refusal", role: "alert" });
  const custom = el("fieldset", { className: "custom-scoring", hidden: true }, el("legend", { textContent: t("house.customTitle") }), ...fields, refusal);
  const shown = el("div", { className: "scoring-shown", ariaLive: "polite" });
  const element = el("div", { className: "scoring-field" }, el("label", {}, `${label} `, select), custom, shown);

  function value() {
    if (select.value !== "custom") return select.value;
    /** @type {Record<string, string | number>} */
    const out = {};
    for (const [key] of CUSTOM) {
      const raw = inputs[key].value.trim();
      out[key] = key === "per_trick_when" ? raw : raw === "" || Number.isNaN(Number(raw)) ? raw : Number(raw);
    }
    return out;
  }

  let asked = 0;
  async function refresh() {
    custom.hidden = select.value !== "custom";
    const chosen = value() || fallback();
    const mine = ++asked;
    if (!chosen) {
      shown.replaceChildren();
      return;
    }
    const answer = await scoringExamples(chosen);
    if (mine !== asked) return; // a later choice's answer is the one to show
    // A refusal is said in words by the field at fault (marked invalid); every field is cleared of
    // its refusal as soon as the numbers are accepted.
    const field = answer.facts && typeof answer.facts.field === "string" ? answer.facts.field : null;
    for (const [key, input] of Object.entries(inputs)) {
      const bad = !answer.examples && key === field && select.value === "custom";
      input.setAttribute("aria-invalid", String(bad));
      if (bad) input.setAttribute("aria-describedby", refusal.id);
      else input.removeAttribute("aria-describedby");
    }
    const worded = scoringRefusal(answer.facts);
    refusal.textContent = answer.examples ? "" : worded || t("house.refused", { sentence: answer.error });
    element.dispatchEvent(new CustomEvent("scoring:checked", { detail: { ok: Boolean(answer.examples) } }));
    shown.replaceChildren(answer.examples ? examplesTable(answer) : el("p", { className: "hint", textContent: t("house.noExamples") }));
  }
  let timer = 0;
  select.addEventListener("change", refresh);
  custom.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
  return { element, select, value, refresh };
}
