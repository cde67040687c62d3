// The table page's panels, built from the state: the rules in words, a round's summary, the podium.
// Pure builders: app.js owns the state and decides when each panel shows. Their words come from the
// page's language catalogue (i18n.js).

import { has, reason, spokenList, t } from "/static/i18n.js";
import { el } from "./dom.js";

/** @param {string[]} names */
export const listNames = (names) => spokenList(names, "and");

/**
 * A table's rules as the server sends them (GET /api/tables/{id}/rules, the state's game.rules):
 * each option's value, the schedule and its hand sizes.
 * @typedef {Record<string, any>} Rules
 */

/** A preset as /api/options lists it: its name, its summary and its options.
 * @typedef {{name: string, summary: string, options: Record<string, any>}} Preset */

/**
 * @param {string} key
 * @param {string} fallback
 */
const known = (key, fallback) => (has(key) ? t(key) : fallback);

// A refusal from the server (an `error` message, an HTTP error reply) in the page's language, from
// its rule and facts; the server's sentence only when it names no rule the catalogue words.
/** @param {{rule?: string, facts?: Record<string, any>, message?: string, error?: string} | null} answer */
export function refusalText(answer) {
  if (answer && answer.rule && has(`reason.${String(answer.rule).toLowerCase().replace(/[^a-z0-9]+/g, "_")}`)) return reason(answer);
  return (answer && (answer.message || answer.error)) || t("reason.unknown", { rule: (answer && answer.rule) || "?" });
}

// ------------------------------------------------------------------ the rules, in words

// Each option's value in words: rule.<option>.<value> (rule.dealer_bid.hook) in the catalogue.
const CHOICES = ["first_dealer", "bidding", "dealer_bid", "trump_lead", "scoring"];
/** @param {string} k */
const optionName = (k) => known(`option.${k}`, k.replace("_", " "));
/** @param {string} text */
const lowerFirst = (text) => text.charAt(0).toLocaleLowerCase() + text.slice(1);

// The preset nearest these rules and the options the table changed from it (none: that preset).
/**
 * @param {Rules} rules
 * @param {Preset[] | null} presets
 * @returns {[Preset | null, string[]]}
 */
function presetOf(rules, presets) {
  /** @type {[Preset, string[]] | null} */
  let best = null;
  for (const p of presets || []) {
    const changed = CHOICES.filter((k) => p.options[k] !== rules[k]);
    for (const k of ["trump", "blind_one_card"]) if (rules[k] !== undefined) changed.push(k); // no preset uses the house rules
    if (typeof rules.schedule !== "string" || p.options.schedule !== rules.schedule) changed.push("schedule");
    if (!best || changed.length < best[1].length) best = [p, changed];
  }
  return best && best[1].length <= 2 ? best : [null, []];
}

// The sentence naming the rules: a preset, the preset and what the table changed, or its own.
/**
 * @param {Rules} rules
 * @param {Preset[] | null} presets
 */
export function presetLine(rules, presets) {
  if (presets === null) return ""; // not known yet
  const [preset, changed] = presetOf(rules, presets);
  if (!preset) return t("table.panels.ownRules");
  const name = known(`preset.${preset.name}`, preset.name);
  if (changed.length) return t("table.panels.presetChanged", { preset: name, what: spokenList(changed.map((k) => lowerFirst(optionName(k))), "and") });
  const summary = known(`preset.${preset.name}.summary`, preset.summary).replace(/\.$/, "");
  return t("table.panels.preset", { preset: name, summary });
}

// Each rule in play as a list item: the schedule as hand sizes, then each option in words, and the
// pace: the turn clock's seconds a move and what happens when it runs out (or that there is none).
/**
 * @param {Rules} rules
 * @param {{clock?: number} | null} [options] the table's options (the state's `options`)
 */
export function ruleItems(rules, options = null) {
  const sizes = rules.hand_sizes;
  const schedule =
    rules.schedule === "up-down"
      ? t("table.panels.upDown")
      : rules.schedule === "down-up"
        ? t("table.panels.downUp", { n: sizes[0] })
        : t("table.panels.asChosen");
  const items = [
    t("table.panels.schedule", { rounds: sizes.length, schedule, sizes: sizes.join(", ") }),
    ...CHOICES.map((k) => typeof rules[k] === "object" ? customScoringWords(rules[k]) : known(`rule.${k}.${rules[k]}`, t("table.panels.ruleValue", { option: optionName(k), value: known(`choice.${rules[k]}`, rules[k]) }))),
  ];
  const keys = ["schedule", ...CHOICES];
  // The house rules, when the table plays them: trump that rotates, the blind one-card round.
  /** @type {[string, boolean][]} */
  const house = [["trump", rules.trump === "rotate"], ["blind_one_card", rules.blind_one_card === true]];
  for (const [k, on] of house) {
    if (!on) continue;
    items.push(t(`rule.${k}.${rules[k]}`));
    keys.push(k);
  }
  if (options) {
    const seconds = Number(options.clock) || 0;
    items.push(seconds > 0 ? t("table.panels.clock", { seconds }) : t("table.panels.noClock"));
    keys.push("clock");
  }
  return items.map((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    li.dataset.rule = keys[i];
    return li;
  });
}

// A custom scoring in words, from its numbers (the record's object).
/** @param {Record<string, number | string>} s */
export function customScoringWords(s) {
  const miss = s.per_trick_when === "always" ? "house.customMissAlways" : "house.customMissExact";
  return t("house.customRule", {
    bonus: s.exact_bonus,
    perBid: s.per_bid,
    perTrick: s.per_trick,
    miss: t(miss, { perTrick: s.per_trick, off: s.miss_per_trick_off }),
  });
}

// ------------------------------------------------------------------ a round's summary

// One row a seat: name, bid, tricks, points (made or missed), running total.
/**
 * @param {Record<string, any>} game the state's game part
 * @param {Record<string, any>} last the round just finished (game.last_round)
 */
export function summaryRows(game, last) {
  return game.players.map((/** @type {string} */ player, /** @type {number} */ seat) => {
    const tr = document.createElement("tr");
    const exact = last.bids[seat] === last.tricks[seat];
    tr.className = exact ? "made" : "missed";
    tr.dataset.seat = String(seat);
    const score = last.scores[seat];
    const cells = [player, last.bids[seat], last.tricks[seat], null, game.totals[seat]];
    tr.append(
      ...cells.map((text, k) => {
        const cell = document.createElement(k ? "td" : "th");
        if (!k) cell.scope = "row";
        if (text !== null) cell.textContent = String(text);
        else {
          // "made ✓ +10": the word may be left out where the summary is narrow; the mark stays.
          const word = el("span", { className: "verdict-word", textContent: `${exact ? t("table.panels.made") : t("table.panels.missed")} ` });
          cell.append(word, `${exact ? "✓" : "✗"} ${score > 0 ? "+" : score < 0 ? "−" : ""}${Math.abs(score)}`);
        }
        return cell;
      }),
    );
    return tr;
  });
}

// ------------------------------------------------------------------ the end

// A place in words: table.felt.place1…3, else table.felt.placeN.
/** @param {number} n */
export const placeWord = (n) => (n >= 1 && n <= 3 ? t(`table.felt.place${n}`) : t("table.felt.placeN", { n }));

// The winners' sentence, the podium's steps (2nd, 1st, 3rd, as a podium stands) and the standings.
// Standings are [place, seat, total] rows, best first; tied seats share a place (and a step).
/** @param {Record<string, any>} game the state's game part */
export function standingsParts(game) {
  /** @type {Map<number, {names: string[], total: number}>} */
  const byPlace = new Map();
  for (const [place, seat, total] of game.standings) {
    if (!byPlace.has(place)) byPlace.set(place, { names: [], total });
    byPlace.get(place).names.push(game.players[seat]);
  }
  const first = byPlace.get(1) || { names: [], total: 0 };
  const winners =
    first.names.length > 1
      ? t("table.panels.shareWin", { names: listNames(first.names), points: first.total })
      : t("table.panels.wins", { name: first.names[0], points: first.total });
  const steps = [2, 1, 3]
    .filter((place) => byPlace.has(place))
    .map((place) => {
      const step = document.createElement("div");
      step.className = `step place-${place}`;
      step.dataset.place = String(place);
      const names = document.createElement("div");
      names.className = "names";
      names.textContent = listNames(byPlace.get(place).names);
      const points = document.createElement("div");
      points.className = "points";
      points.textContent = t("n.points", { count: byPlace.get(place).total });
      const block = document.createElement("div");
      block.className = "block";
      block.textContent = placeWord(place);
      step.append(names, points, block);
      return step;
    });
  const items = game.standings.map((/** @type {[number, number, number]} */ [place, seat, total]) => {
    const li = document.createElement("li");
    li.textContent = t("table.panels.standing", { place, name: game.players[seat], points: total });
    return li;
  });
  return [winners, steps, items];
}
