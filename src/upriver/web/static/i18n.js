// The pages' words in English, French, Czech, Italian and Swedish.
//
// One JSON catalogue per language, the same files the terminal game reads
// (src/upriver/i18n/catalogues/{lang}.json, served at /i18n/{lang}.json). A key maps to a
// template with named placeholders ("Seat {n}") or, for words that change with a number, to
// its CLDR plural forms ({"one": "{count} trick", "other": "{count} tricks"}; Czech also has
// "few" and "many"), chosen here by Intl.PluralRules. "{tricks:n.tricks}" in a template is the
// plural entry n.tricks for the number tricks.
//
// Use:
//   import { t, reason, cardName } from "/static/i18n.js";   // the catalogue is loaded on import
//   t("lobby.seat", { n: 2 })                 // "Seat 2", "Place 2", "Místo 2"…
//   t("n.tricks", { count: 3 })               // "3 tricks", "3 plis", "3 štychy"…
//   reason({ rule: "follow suit", facts: { led: "C", held: ["3C"] } })   // an error message or a card's `why`
//   cardName("QH")                            // "Queen of hearts", "Dame de cœur", "Srdcová dáma"…
//   parts("keeper.dealsAndBids", { dealer: nodeA, bidder: nodeB })   // [nodeA, " deals · ", nodeB, " bids first"]
// Static HTML: data-i18n="key" sets an element's text; data-i18n-placeholder, data-i18n-title and
// data-i18n-aria-label set those attributes; an element with data-i18n-switch gets the language menu.
// The language is the one chosen in that menu (kept in localStorage "upriver.lang"), else the
// browser's first language we speak, else English; <html lang> says which.

/**
 * The dealer's bid restriction as the server sends it (the state's bid_restriction, or a refusal's
 * rule and facts).
 * @typedef {object} Restriction
 * @property {string} [rule]
 * @property {string} [reason] the server's sentence, in English
 * @property {number} [tricks]
 * @property {number} [others]
 * @property {number[]} [forbidden]
 */

/** @type {Record<string, string>} each language's code and its name in itself */
export const LANGUAGES = { en: "English", fr: "Français", cs: "Čeština", it: "Italiano", sv: "Svenska" };
const STORE_KEY = "upriver.lang";
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z0-9_.]+))?\}/g;
/** @type {Record<string, string>} */
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_FACTS = new Set(["led", "trump"]);
const CARD_FACTS = new Set(["card", "held", "cards"]);

function chooseLanguage() {
  try {
    const kept = localStorage.getItem(STORE_KEY);
    if (kept && LANGUAGES[kept]) return kept;
  } catch {
    // storage refused (a private window): fall back to the browser's languages
  }
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

/**
 * The catalogue of language `code`: each key's template, or its plural forms.
 * @param {string} code
 * @returns {Promise<Record<string, string | Record<string, string>>>}
 */
async function load(code) {
  const response = await fetch(`/i18n/${code}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${code}: ${response.status}`);
  return response.json();
}

/** The language the page speaks: one of LANGUAGES' keys. */
export const lang = chooseLanguage();
const [catalogue, english] = await Promise.all([load(lang), lang === "en" ? null : load("en")]);
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });

/** @param {string} key */
function entry(key) {
  if (key in catalogue) return catalogue[key];
  if (english && key in english) return english[key];
  return null;
}

/** Whether the catalogue has `key` (for words chosen at run time, such as a rule's reason).
 * @param {string} key */
export function has(key) {
  return entry(key) !== null;
}

/**
 * The string `key` with `params` put in; a plural entry is chosen by `params.count`.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let text = entry(key);
  if (text === null) return key;
  if (typeof text === "object") text = text[plurals.select(Number(params.count))] ?? text.other;
  return text.replace(PLACEHOLDER, (/** @type {string} */ whole, /** @type {string} */ name, /** @type {string | undefined} */ pluralKey) => {
    if (!(name in params)) return whole;
    if (pluralKey) return t(pluralKey, { ...params, count: params[name] });
    return String(params[name]);
  });
}

/** The string `key` as its parts around the placeholders, each placeholder's value as given (a DOM
 * node, say), for a sentence with elements inside it that a language may put in its own order:
 * el("p", {}, ...parts("keeper.dealsAndBids", { dealer: bold(ann), bidder: bold(bob) })).
 * @template T
 * @param {string} key
 * @param {Record<string, T>} [params]
 * @returns {(string | T)[]}
 */
export function parts(key, params = {}) {
  let text = entry(key);
  if (text === null) return [key];
  if (typeof text === "object") text = text[plurals.select(Number(params.count))] ?? text.other;
  const out = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const [whole, name, pluralKey] = match;
    out.push(text.slice(last, match.index));
    if (!(name in params)) out.push(whole);
    else out.push(pluralKey ? t(pluralKey, { ...params, count: params[name] }) : params[name]);
    last = match.index + whole.length;
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "");
}

/** A number as this language writes it: 0.8 → "0,8" in French.
 * @param {number} value */
export function number(value) {
  return numbers.format(value);
}

/** Items as a person lists them: [1, 2, 3] → "1, 2 or 3" ("1, 2 nebo 3").
 * @param {unknown[]} items
 * @param {"or" | "and"} [conjunction] */
export function spokenList(items, conjunction = "or") {
  const words = items.map(String);
  if (words.length <= 1) return words.join("");
  return t(`list.${conjunction}`, { rest: words.slice(0, -1).join(t("list.separator")), last: words.at(-1) });
}

const BOT_LABEL = /^(.*\S)\s*\(\s*([\w-]+)\s*\)\s*$/;

/** A player's name as a page shows it: a bot sits under its name and its kind ("Bob (easy)", the
 * server's label, in the game record too), whose kind is put in this language ("Bob (facile)").
 * A person's name never ends so (the server refuses one that does); any other name is as given.
 * @param {string} name */
export function shownName(name) {
  const match = BOT_LABEL.exec(String(name ?? ""));
  if (!match || !has(`level.${match[2].toLowerCase()}`)) return name;
  return `${match[1]} (${t(`level.${match[2].toLowerCase()}`).toLocaleLowerCase(lang)})`;
}

/** A card's text as its symbol: "QH" → "Q♥", "TC" → "10♣".
 * @param {unknown} text */
export function cardSymbol(text) {
  const s = String(text);
  if (s.length === 2 && SUITS[s[1]] && "23456789TJQKA".includes(s[0])) return (s[0] === "T" ? "10" : s[0]) + SUITS[s[1]];
  return s.slice(0, 24);
}

/** A card in words for screen readers: "QH" → "Queen of hearts".
 * @param {string} text */
export function cardName(text) {
  return t(`card.${text}`);
}

/** A suit's name: "H" → "hearts", "cœur", "srdce"… */
/** @param {string} letter */
export function suitName(letter) {
  return t(`suit.${letter}`);
}

/** @param {unknown} rule */
function reasonKey(rule) {
  return "reason." + String(rule).toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

/** @param {Record<string, any>} facts */
function factParams(facts) {
  /** @type {Record<string, unknown>} */
  const params = {};
  for (const [name, value] of Object.entries(facts || {})) {
    const items = Array.isArray(value) ? value : null;
    if (SUIT_FACTS.has(name) && SUITS[value]) params[name] = suitName(value);
    else if (CARD_FACTS.has(name)) params[name] = (items || [value]).map(cardSymbol).join(" ");
    else if (items) params[name] = spokenList(items);
    else params[name] = value ?? "";
  }
  return params;
}

/** A refusal ({rule, facts}: a WebSocket error, an HTTP error reply's rule and facts, a card's
 * `why`) worded for the person refused. The fact `case` picks a variant (reason.name.too_long), and so
 * does a dead link's `reason` (reason.token.taken).
 * @param {{rule?: string, facts?: Record<string, any>} | null} refusal */
export function reason(refusal) {
  const facts = (refusal && refusal.facts) || {};
  let key = reasonKey(refusal && refusal.rule);
  // A dead link's refusal names why in `reason` (taken, revoked, moved…), as a refusal's `case` does.
  const variant = typeof facts.case === "string" ? facts.case : refusal?.rule === "token" ? facts.reason : null;
  if (typeof variant === "string" && has(`${key}.${reasonKey(variant).slice(7)}`)) {
    key = `${key}.${reasonKey(variant).slice(7)}`;
  }
  if (!has(key)) return t("reason.unknown", { rule: refusal && refusal.rule });
  const params = factParams(facts);
  const text = t(key, params);
  return text.replace(PLACEHOLDER, "?");
}

/** Why the dealer may not make some bids (a bid_restriction, or a refusal's rule and facts): the
 * server's own `reason` in English when it came with one, else the catalogue's words.
 * @param {Restriction} restriction */
export function restrictionWhy(restriction) {
  if (lang === "en" && restriction.reason) return restriction.reason;
  const key = restriction.rule === "overbid" ? "restriction.overbid" : "restriction.hook";
  return t(key, { tricks: restriction.tricks, others: restriction.others });
}

/** Who leads or won, and with how much, from a score sheet's data (ScoreSheet.to_json): the server's
 * own `headline` in English, else the catalogue's words.
 * @param {{headline?: string, leaders?: number[], players: string[], complete?: boolean, totals: number[]}} sheet */
export function sheetHeadline(sheet) {
  if (lang === "en" && sheet.headline) return sheet.headline;
  const seats = sheet.leaders || [];
  if (!seats.length) return t("sheet.none_yet");
  const names = spokenList(seats.map((seat) => sheet.players[seat]), "and");
  return t(sheet.complete ? "sheet.wins" : "sheet.leads", { count: seats.length, names, points: sheet.totals[seats[0]] });
}

/** The dealer's bid restriction (the state's bid_restriction) in a sentence: for the dealer
 * themself when `you`, else naming `name`.
 * @param {Restriction} restriction
 * @param {{you?: boolean, name?: string}} [whose] */
export function restrictionReason(restriction, { you = false, name = "" } = {}) {
  const why = restrictionWhy(restriction);
  const forbidden = spokenList(restriction.forbidden || []);
  return you ? t("restriction.you_may_not", { forbidden, why }) : t("restriction.dealer_may_not", { name, forbidden, why });
}

/** Keep `code` as this browser's language and show the page again in it.
 * @param {string} code */
export function setLanguage(code) {
  if (!LANGUAGES[code]) return;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // not kept (a private window): the choice lasts for this page only
  }
  location.reload();
}

/** The language menu: a labelled select of the languages, each in its own name. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "lang-select";
  select.setAttribute("aria-label", t("lang.label"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, code === lang, code === lang);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  const label = document.createElement("label");
  label.className = "lang-switch";
  label.append(select);
  return label;
}

/** Put the catalogue's words into `root`'s static HTML (data-i18n…) and the language menu into each
 * data-i18n-switch element. Done for the document on import; call it again for HTML added later.
 * @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n);
  for (const attribute of ["placeholder", "title", "aria-label"]) {
    for (const node of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      node.setAttribute(attribute, t(node.getAttribute(`data-i18n-${attribute}`)));
    }
  }
  for (const slot of root.querySelectorAll("[data-i18n-switch]")) {
    if (!slot.querySelector(".lang-select")) slot.append(languageSwitch());
  }
}

document.documentElement.lang = lang;
translatePage(document);
document.documentElement.classList.add("i18n-ready");
