// The score keeper's house rules: the new sheet form's scoring (with its worked examples and a
// scoring of the group's own, scoring-form.js), leading trump, trump that rotates and the blind
// one-card round; and, on a sheet whose trump rotates, the round's trump shown instead of asked.
// Every value is the server's: the round's trump comes from the sheet's rules (`rules.trumps`).

import { suitName, t } from "/static/i18n.js";
import { scoringField } from "/static/scoring-form.js";
import { el } from "./dom.js";
import { suitText } from "./sheet.js";

/**
 * The form's house-rule fields. `choice(value)` names a choice, `asPreset` is the "as the rules
 * say" choice, `presetOf()` the preset chosen now (its scoring is shown until another is chosen).
 * Returns `{ elements, refresh(), values() }`: `values()` the options to send, spelled as in the
 * record (only those chosen).
 * @param {import("./keep-api.js").SheetOptions} options
 * @param {{choice: (value: string) => string, asPreset: string, presetOf: () => import("./table-panels.js").Preset | undefined}} how
 * @returns {{elements: HTMLElement[], refresh: () => void, values: () => Record<string, unknown>}}
 */
export function houseRuleFields(options, { choice, asPreset, presetOf }) {
  const select = (/** @type {string} */ field) =>
    el("label", {}, t(`option.${field}`), el("select", { name: field },
      el("option", { value: "" }, asPreset), ...options.rules[field].map((v) => el("option", { value: v }, choice(v)))));
  const scoring = scoringField({
    id: "keep-scoring", label: t("keeper.scoring"), choices: options.rules.scoring, words: choice, asRules: asPreset,
    fallback: () => (presetOf() || {}).options?.scoring,
  });
  const lead = select("trump_lead");
  const trump = select("trump");
  const blind = el("input", { type: "checkbox", name: "blind_one_card", id: "keep-blind" });
  const elements = [scoring.element, lead, trump, el("label", { class: "check" }, blind, " ", t("house.blind"))];
  return {
    elements,
    refresh: scoring.refresh,
    values() {
      /** @type {Record<string, unknown>} */
      const out = {};
      const chosen = scoring.value();
      if (chosen) out.scoring = chosen;
      for (const [key, box] of /** @type {[string, HTMLElement][]} */ ([["trump_lead", lead], ["trump", trump]])) {
        const value = box.querySelector("select").value;
        if (value) out[key] = value;
      }
      if (blind.checked) out.blind_one_card = true;
      return out;
    },
  };
}

/**
 * The round's trump when it rotates (the sheet's rules list every round's), else null: nothing to ask.
 * @param {import("./keep-api.js").SheetView} sheet
 * @returns {HTMLElement | null}
 */
export function rotatingTrump(sheet) {
  const trumps = sheet.rules.trumps;
  if (!Array.isArray(trumps)) return null;
  const suit = trumps[sheet.current.number - 1];
  return el("div", { class: "row round-trump", id: "round-trump" },
    suit ? [suitText(suit), " ", t("house.trumpSuit", { suit: suitName(suit) })] : t("house.noTrumpThisRound"));
}
