// The start page's quick ways in and the table's own options.
//
// "Play now": one tap seats this person against three bots at the table the create form under it
// describes (said in words beside it, and kept up to date as the form changes); the form starts
// from the last table made here (kept in localStorage "upriver.lastTable"), or the default preset
// and normal bots the first time. "Watch bots": a short game of bots only, opened as a spectator. The create form's
// table options: the clock for a person's move (off, or a few choices in words), the level of the
// bot that plays for someone who leaves or runs out of time, hints, and whether spectators may chat.

import { has, t } from "/static/i18n.js";
import { $, $input, el, valueOf } from "./dom.js";


const SETTINGS_KEY = "upriver.lastTable";
const LEVELS = ["easy", "normal", "hard", "expert"];
// The clock's choices, in words: seconds a person has for a move (0: no clock).
/** @type {[number, string][]} */
const CLOCKS = [
  [0, "lobby.clock_off"],
  [120, "lobby.clock_relaxed"],
  [60, "lobby.clock_normal"],
  [30, "lobby.clock_quick"],
  [15, "lobby.clock_blitz"],
];
// A game to watch: short, so a newcomer sees it through (9 rounds, up to 5 cards).
const WATCH_SCHEDULE = [1, 2, 3, 4, 5, 4, 3, 2, 1];

/**
 * What the start page reads of the server's /api/options (web/app.py): the bot kinds, the presets and
 * the default one, the rule options' choices, the paces and the rest as the server has them.
 * @typedef {{bots: string[], default_preset: string, [field: string]: any}} Options
 */

/**
 * The settings of a table made from this browser, as kept for the next "Play now" (its create body).
 * @typedef {{preset: string, level: string, [field: string]: any}} Settings
 */

/** @param {string} kind */
const levelWords = (kind) => (has(`level.${kind}`) ? t(`level.${kind}`) : kind);

/**
 * The last table's settings made from this browser, or the first time's: the server's default
 * preset (`options`: /api/options) and the normal level.
 * @param {Options} [options]
 * @returns {Settings}
 */
export function lastSettings(options) {
  const FIRST_TIME = { preset: options?.default_preset, level: "normal" };
  try {
    const kept = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null");
    if (kept && typeof kept === "object" && typeof kept.preset === "string") return { ...FIRST_TIME, ...kept };
  } catch {
    // unreadable: the first time's
  }
  return { ...FIRST_TIME };
}

/**
 * Keep a created table's settings (the create form's body) for the next "Play now".
 * @param {Record<string, any>} body
 */
export function rememberSettings(body) {
  /** @type {string[]} */
  const bots = (body.seats || []).filter((/** @type {string} */ kind) => kind !== "human");
  const level = bots.find((kind) => LEVELS.includes(kind)) || lastSettings().level;
  /** @type {Record<string, unknown>} */
  const kept = {};
  for (const [key, value] of Object.entries(body)) {
    if (["seats", "creator", "record", "name"].includes(key)) continue;
    if (key === "schedule" && (body.seats || []).length !== 4) continue; // hand sizes for four only
    kept[key === "level" ? "standin" : key] = value; // the request's `level` is the stand-in's
  }
  kept.level = level; // the bots' level
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(kept));
    // A name typed in is kept for next time; Play now's stand-in name ("Player") is not.
    if (body.name && body.name !== t("lobby.default_name")) localStorage.setItem("upriver.lastName", body.name);
  } catch {
    // not kept (a private window): the next "Play now" starts from the first time's settings
  }
}

// ------------------------------------------------------------------ the form's table options

/**
 * The table options into the create form (`box`: a fieldset), each with its words.
 * @param {HTMLElement} box
 * @param {Options} options
 */
export function fillTableOptions(box, options) {
  const settings = lastSettings(options);
  box.append(el("legend", { textContent: t("lobby.table_options") }));
  const clock = el("select", { id: "clock", name: "clock" });
  for (const [seconds, key] of CLOCKS) clock.append(new Option(t(key), String(seconds)));
  clock.value = String(CLOCKS.some(([s]) => s === settings.clock) ? settings.clock : 0);
  const level = el("select", { id: "standin-level", name: "level" });
  for (const kind of options.bots.filter((bot) => LEVELS.includes(bot))) level.append(new Option(levelWords(kind), kind));
  level.value = LEVELS.includes(settings.standin) ? settings.standin : "normal";
  const hints = el("input", { type: "checkbox", id: "hints", name: "hints", checked: Boolean(settings.hints) });
  const chat = el("input", { type: "checkbox", id: "spectator-chat", name: "spectator_chat", checked: Boolean(settings.spectator_chat) });
  box.append(
    el("label", {}, `${t("lobby.clock")} `, clock),
    el("label", {}, `${t("lobby.standin")} `, level),
    el("label", { className: "check" }, hints, ` ${t("lobby.hints")}`),
    el("label", { className: "check" }, chat, ` ${t("lobby.spectator_chat")}`),
  );
}

// The table options as the create request spells them.
export function tableOptions() {
  return {
    clock: Number(valueOf("clock")),
    level: valueOf("standin-level"),
    hints: $input("hints").checked,
    spectator_chat: $input("spectator-chat").checked,
  };
}

// ------------------------------------------------------------------ play now, watch bots

/**
 * Play now's table: the create form's (`table()`: its rules, schedule and options, as shown), with
 * this person against three bots of the last level used.
 * @param {Options} options
 * @param {() => Record<string, unknown>} table
 */
function playNowBody(options, table) {
  const level = playNowLevel(options);
  /** @type {Record<string, unknown>} the table asked for (POST /api/tables) */
  const body = { ...table(), seats: ["human", level, level, level], creator: 0 };
  let name = valueOf("name").trim();
  if (!name) {
    try {
      name = localStorage.getItem("upriver.lastName") || "";
    } catch {
      name = "";
    }
  }
  body.name = name || t("lobby.default_name");
  return body;
}

/** @param {Options} options */
const playNowLevel = (options) => {
  const s = lastSettings(options);
  return options.bots.includes(s.level) ? s.level : "normal";
};

/**
 * The start page's two quick buttons: play now against bots, and watch bots play.
 * @param {object} ctx
 * @param {Options} ctx.options the server's /api/options
 * @param {(body: Record<string, unknown>, errorBox: HTMLElement) => void} ctx.create lobby.js: makes the
 *   table, remembers it and opens it
 * @param {(answer: any) => string} ctx.refusal a refusal in words
 * @param {() => Record<string, unknown>} ctx.table the create form's table (lobby.js), which Play now starts
 * @param {() => string[]} ctx.words that table in words, for four players
 */
export function installQuickStart(ctx) {
  const s = lastSettings(ctx.options);
  try {
    // The name given last time, ready in the form (the others see it; it can be changed).
    if (!valueOf("name")) $input("name").value = localStorage.getItem("upriver.lastName") || "";
  } catch {
    // no storage: the field stays empty
  }
  // What Play now starts, in words, as the form under it says it now.
  const sayWhat = () => {
    $("play-now-hint").textContent = t("lobby.play_now_exact", { level: levelWords(playNowLevel(ctx.options)), what: ctx.words().join(", ") });
  };
  sayWhat();
  for (const kind of ["input", "change"]) $("create").addEventListener(kind, () => setTimeout(sayWhat));
  $("play-now").addEventListener("click", () => {
    const body = playNowBody(ctx.options, ctx.table);
    ctx.create(body, $("quick-error"));
  });
  $("watch-bots").addEventListener("click", async () => {
    $("quick-error").textContent = "";
    const level = ctx.options.bots.includes(s.level) ? s.level : "normal";
    const body = { seats: [level, level, level, level], creator: /** @type {number | null} */ (null), preset: ctx.options.default_preset, schedule: WATCH_SCHEDULE, pace: "normal" };
    const response = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      $("quick-error").textContent = ctx.refusal(answer);
      return;
    }
    location.assign(answer.url);
  });
}
