// The one function every score keeper request goes through: `api(path, body, players)`.
// `body` undefined: a GET; otherwise a POST of `body` as JSON. It answers the JSON the keeper's
// API answers, or throws an Error whose message is the refusal in the page's words (with `status`
// and `rule` as data); `players` are the sheet's names, for a refusal that names a seat.
//
// Where the answer comes from:
// - a server that answers: the server (its engine). Each sheet it sends is also kept on the phone
//   (IndexedDB): its view, and its game record as the server last agreed it.
// - no server (the fetch fails: no network, the server stopped) or a static copy of the keeper
//   (`upriver keep --export-static`): the same engine on the phone (keep-offline.js, a Web Worker
//   running upriver's Python in Pyodide). A sheet started there lives on the phone ("local-…").
// - back online: the entries made on the phone are merged into the server's sheet before anything
//   else (`merge`). The rule: the phone's entries are replayed, in order, on the server's latest
//   sheet. An entry for a round (a bid, the bids, the tricks, a correction) carries the round as the
//   phone saw it (`against`, worked out by the engine on the phone, upriver.keeper.conflicts), and the
//   server applies it only if that round is still so; otherwise it keeps it on the sheet as a
//   conflict, which every phone on the sheet shows until the table picks one (keep-conflicts.js).
//   Any other entry the engine refuses there is kept on the phone with the reason
//   (`offline.conflicts`), never dropped. The page then says what the merge did (`offline.merged`).
//   A sheet started on the phone is backed up whole (imported as a record) and from then on shared
//   like any other.
// - online, an entry for a round carries the round as the page last saw it too (`against`), so a
//   correction made on two phones at once is kept as a conflict, not written over.

import { has, t } from "./i18n.js";
import { WORDS as W } from "./keep-words.js";

const STATIC_SITE = document.querySelector('meta[name="upriver-keeper"]')?.getAttribute("content") === "static";
const LOCAL = "local-"; // the id of a sheet started on the phone
const UNDO_KEPT = 50; // a sheet kept only on the phone keeps its last entries to undo
const DB_NAME = "upriver-keeper";
const ROUND_BOUND = new Set(["bid", "bids", "tricks"]); // entries meant for the round in play
const MADE_AGAINST = new Set([...ROUND_BOUND, "edit"]); // entries for one round: they carry it as seen
const DEVICE = "upriver.device"; // this browser's id, so a conflict says which phone made it

/**
 * A sheet as kept on the phone.
 * @typedef {{path: string, sent: object, action: string, body: object, round: number | null, before: string, against?: Against | null}} Entry
 * @typedef {{path: string, sent: object, round: number | null, error: string, at: number}} Conflict
 * @typedef {{round: number, bids: (number | null)[], tricks: (number | null)[] | null}} Against
 * @typedef {{merged: number, conflicts: number, refused: number}} Merged
 * @typedef {{
 *   key: string,
 *   server: {id: string, share: string, version: number} | null,
 *   recordVersion: number | null,
 *   current: string | null,
 *   log: Entry[],
 *   view: SheetView | null,
 *   conflicts: Conflict[],
 *   open?: import("./keep-conflicts.js").SheetConflict[],
 *   merged?: Merged | null,
 * }} Kept
 * @typedef {Error & {status?: number, rule?: string, unreachable?: boolean}} ApiError
 */

/**
 * The round in play, as the keeper's API sends it: who deals and bids in which order, the bids so far
 * (null: not yet), who is still to bid, the dealer's restriction on the next bid, the trump noted.
 * @typedef {object} Round
 * @property {number} number
 * @property {number} hand_size
 * @property {number} dealer
 * @property {number[]} bidding_order
 * @property {(number | null)[]} bids
 * @property {number[]} to_bid
 * @property {Record<string, number[]>} legal_bids
 * @property {import("./i18n.js").Restriction | null} restriction
 * @property {string | null} trump
 */

/**
 * The evening's changes (upriver.keeper.commands.evening_view): the hand sizes of the rounds, the seats
 * not playing each round, arrivals, departures, sit-outs and adjustments.
 * @typedef {object} Evening
 * @property {number[]} schedule
 * @property {boolean} [edited]
 * @property {number[][]} absent
 * @property {{seat: number, name: string, round: number, start?: string}[]} joins
 * @property {{seat: number, round: number}[]} leaves
 * @property {{seat: number, round: number}[]} sit_outs
 * @property {{seat: number, after: number, points: number, note: string | null}[]} adjustments
 * @property {Preview | null} [changes] what an arrival or a departure would make of the rounds not yet begun
 *   (null while a round is begun, flagged or the game is over): upriver.keeper.changes.Preview
 */

/**
 * The hand sizes from round `from` on as they stand, after an arrival and after a departure; a change
 * the engine would refuse has its sentence instead.
 * @typedef {{sizes?: number[], refused?: string}} PreviewedChange
 * @typedef {{from: number, sizes: number[], arrival: PreviewedChange, departure: PreviewedChange}} Preview
 */

/**
 * A seat's statistics over the rounds it played: how many, exact, over, under, the exact rate (null
 * before any round) and the longest run of exact bids.
 * @typedef {{played: number, exact: number, over: number, under: number, rate: number | null, longest_run: number}} Stats
 */

/**
 * A round the engine flagged (its entries cannot be right), as a refusal is: the sentence, the rule,
 * the seat and the facts.
 * @typedef {{round: number, message: string, rule: string, seat: number | null, facts: Record<string, any>}} Flag
 */

/**
 * What waits on the phone for a sheet (`present`): whether the server answered, whether the sheet lives
 * only on the phone, the entries not yet merged and those that could not be.
 * @typedef {{online: boolean, on_phone: boolean, pending: number, conflicts: Conflict[], merged: Merged | null}} Offline
 */

/**
 * A sheet as the keeper's API answers it (upriver.keeper.commands.sheet_view, with the ids the page
 * uses): the entry state, the score sheet as sheet.js draws it, the evening. A game link's sheet
 * (keep-share.js) has no ids and is `from_link`; one answered here also says what waits on the phone.
 * @typedef {object} SheetView
 * @property {string | null} [id]
 * @property {string | null} [share]
 * @property {number} [version]
 * @property {boolean} read_only
 * @property {boolean} [from_link]
 * @property {string | null} title
 * @property {string[]} players
 * @property {import("./table-panels.js").Rules} rules
 * @property {string} phase "jack", "bidding", "tricks", "flagged" or "over"
 * @property {number | null} jack_from
 * @property {number | null} first_dealer
 * @property {Round} current
 * @property {import("./sheet.js").Sheet} sheet
 * @property {Flag | null} flag
 * @property {boolean} can_undo
 * @property {Evening} evening
 * @property {Stats[]} stats
 * @property {{bids: (number | null)[], tricks: (number | null)[] | null}[]} [entered] each round entered
 * @property {import("./keep-conflicts.js").SheetConflict[]} [conflicts] entries kept for the table to settle
 * @property {Offline} [offline]
 */

/**
 * The choices a new sheet offers (GET /api/sheets/options): the presets, the default one, and each
 * rule option's values.
 * @typedef {{presets: import("./table-panels.js").Preset[], default_preset: string, rules: Record<string, string[]>}} SheetOptions
 */

// ------------------------------------------------------------------ storage on the phone

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

/** @returns {Promise<IDBDatabase>} */
function database() {
  opening ||= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("sheets", { keyPath: "key" });
      request.result.createObjectStore("cache");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opening;
}

/**
 * @param {"sheets" | "cache"} store
 * @param {"readonly" | "readwrite"} mode
 * @param {(store: IDBObjectStore) => IDBRequest} work
 * @returns {Promise<any>}
 */
async function stored(store, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const request = work(db.transaction(store, mode).objectStore(store));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {string} key @returns {Promise<Kept | undefined>} */
const load = (key) => stored("sheets", "readonly", (s) => s.get(key));
/** @param {Kept} kept */
const save = (kept) => stored("sheets", "readwrite", (s) => s.put(kept));
/** @param {string} key @param {any} value */
const remember = (key, value) => stored("cache", "readwrite", (s) => s.put(value, key));
/** @param {string} key */
const recall = (key) => stored("cache", "readonly", (s) => s.get(key));

/** Every sheet kept on this phone. @returns {Promise<Kept[]>} */
export const keptSheets = () => stored("sheets", "readonly", (s) => s.getAll());

// ------------------------------------------------------------------ the engine on the phone

/** @type {Worker | null} */
let worker = null;
let calls = 0;
/** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
const waiting = new Map();
/** The sheets the worker holds in memory (it rebuilds one from its record and log once). */
const opened = new Set();

/** Start the engine in the background, so the first entry made with no server is quick. */
export function warmEngine() {
  if (worker) return;
  worker = new Worker(new URL("./keep-offline.js", import.meta.url), { type: "module" });
  worker.addEventListener("message", (event) => {
    const { id, result, error } = event.data;
    if (event.data.ready !== undefined) {
      dispatchEvent(new CustomEvent("upriver-engine", { detail: { ready: event.data.ready, error, timings: event.data.timings } }));
      return;
    }
    const pending = waiting.get(id);
    waiting.delete(id);
    if (!pending) return;
    if (error) pending.reject(new Error(error));
    else pending.resolve(result);
  });
}

/**
 * upriver.keeper.browser.<name>(...args) in the worker: its JSON answer, parsed.
 * @param {string} name
 * @param {string[]} args
 * @returns {Promise<any>}
 */
function engine(name, ...args) {
  warmEngine();
  const id = ++calls;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    /** @type {Worker} */ (worker).postMessage({ id, call: name, args });
  }).then((text) => (name === "export" ? text : JSON.parse(/** @type {string} */ (text))));
}

/**
 * The refusal the page shows, from the API's or the engine's JSON.
 * @param {import("./keep-words.js").Refusal} data @param {number} status @param {string[]} players @returns {ApiError}
 */
function refused(data, status, players) {
  const error = /** @type {ApiError} */ (new Error(W.refusal(data, players) || W.refused(status)));
  error.status = status;
  error.rule = data.rule;
  return error;
}

/** @param {string} message @returns {ApiError} */
function unreachable(message = W.unreachable) {
  const error = /** @type {ApiError} */ (new Error(message));
  error.unreachable = true;
  return error;
}

// ------------------------------------------------------------------ the server

/**
 * The server's answer, as keep.js always had it; a network failure is an `unreachable` error.
 * @param {string} path @param {object} [body] @param {string[]} [players]
 */
async function server(path, body, players = []) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw unreachable();
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refused(data, response.status, players);
  return data;
}

/** The sheet's game record on the server, kept on the phone so the engine can carry on from it. @param {Kept} kept */
async function fetchRecord(kept) {
  if (!kept.server || kept.recordVersion === kept.server.version) return;
  const version = kept.server.version;
  const response = await fetch(`/api/sheets/${kept.server.id}/record`);
  if (!response.ok) return;
  const text = await response.text();
  const latest = (await load(kept.key)) || kept;
  if (latest.log.length || !latest.server || latest.server.version !== version) return; // moved on since
  latest.current = text;
  latest.recordVersion = version;
  opened.delete(kept.key);
  await save(latest);
}

// ------------------------------------------------------------------ requests

/**
 * What a path asks for.
 * @param {string} path @param {object | undefined} body
 * @returns {{kind: string, id?: string, share?: string, action?: string, body?: any, sub?: string} | null}
 */
function parse(path, body) {
  const rest = path.replace(/^\/api\/sheets\/?/, "");
  if (rest === path) return null;
  const parts = rest.split("/").filter(Boolean);
  if (body === undefined) {
    if (parts[0] === "options" && parts.length === 1) return { kind: "options" };
    if (parts[0] === "shared" && parts.length === 2) return { kind: "shared", share: parts[1] };
    if (parts.length === 1) return { kind: "read", id: parts[0] };
    return null;
  }
  const { version: _version, ...sent } = /** @type {any} */ (body);
  if (parts.length === 0) return { kind: "create", body: sent };
  if (parts[0] === "import" && parts.length === 1) return { kind: "import", body: sent };
  if (parts.length === 3 && parts[1] === "conflicts") {
    return { kind: "act", id: parts[0], action: "resolve", body: sent, sub: `conflicts/${parts[2]}` };
  }
  if (parts.length === 3 && parts[1] === "rounds") {
    return { kind: "act", id: parts[0], action: "edit", body: { ...sent, round: Number(parts[2]) }, sub: `rounds/${parts[2]}` };
  }
  if (parts.length === 2) return { kind: "act", id: parts[0], action: parts[1], body: sent, sub: parts[1] };
  return null;
}

/**
 * The view the page draws, with the ids it uses and what is waiting on the phone.
 * @param {SheetView} view @param {Kept} kept @param {boolean} online
 * @returns {SheetView}
 */
function present(view, kept, online) {
  const merged = kept.merged || null;
  const shown = {
    ...view,
    id: kept.key,
    share: kept.server ? kept.server.share : null,
    version: (kept.server ? kept.server.version : 0) + kept.log.length,
    read_only: false,
    // The server's conflicts: with no server, those it last listed (the engine on the phone keeps none).
    conflicts: view.conflicts || kept.open || [],
    offline: { online, on_phone: !kept.server, pending: kept.log.length, conflicts: kept.conflicts, merged },
  };
  if (merged) { kept.merged = null; save(kept).catch(() => { /* said once is enough */ }); }
  dispatchEvent(new CustomEvent("upriver-sheet", { detail: shown.offline }));
  return shown;
}

/** @param {string} key @returns {Kept} */
const fresh = (key) => ({ key, server: null, recordVersion: null, current: null, log: [], view: null, conflicts: [] });

/** Rebuild the sheet in the worker from its record and the entries made on the phone. @param {Kept} kept */
async function ensureOpen(kept) {
  if (opened.has(kept.key)) return;
  const start = kept.log.length ? kept.log[0].before : kept.current;
  if (!start) throw unreachable(t("keeper.offlineNotKept"));
  const log = kept.log.map(({ action, body }) => ({ action, body }));
  const answer = await engine("open_sheet", kept.key, start, JSON.stringify(log));
  if (answer.error) throw unreachable(answer.error);
  opened.add(kept.key);
}

/** @param {Kept} kept @param {any} answer */
async function started(kept, answer) {
  kept.current = answer.record;
  kept.view = answer.view;
  opened.add(kept.key);
  await save(kept);
  return present(kept.view, kept, false);
}

/**
 * The request answered by the engine on the phone.
 * @param {NonNullable<ReturnType<typeof parse>>} route @param {Kept | undefined} kept @param {string[]} players
 */
async function onPhone(route, kept, players) {
  if (route.kind === "options") return (await recall("options")) || engine("options");
  if (route.kind === "shared") {
    const view = await recall(`shared:${route.share}`);
    if (view) return view;
    throw unreachable();
  }
  if (route.kind === "create" || route.kind === "import") {
    const made = fresh(`${LOCAL}${crypto.randomUUID().slice(0, 13)}`);
    const answer = route.kind === "create"
      ? await engine("start", made.key, JSON.stringify(route.body))
      : await engine("import_record", made.key, String(route.body.record ?? ""));
    if (answer.error) throw refused(answer, 400, players);
    return started(made, answer);
  }
  if (!kept || !kept.view) throw unreachable(kept || route.kind !== "read" ? W.unreachable : t("keeper.offlineNotKept"));
  if (route.kind === "read") {
    ensureOpen(kept).catch(() => { /* drawn from the kept view; an entry will say why it cannot be made */ });
    return present(kept.view, kept, false);
  }
  if (route.action === "resolve") throw unreachable(t("keeper.conflictNeedsServer"));
  await ensureOpen(kept);
  if (route.action === "trump" && route.body.round == null && kept.view.current) {
    // Pinned to the round it was noted for, so a merge cannot give it to a later round.
    route.body = { ...route.body, round: kept.view.current.number };
  }
  const answer = await engine("act", kept.key, route.action, JSON.stringify(route.body));
  if (answer.error) throw refused(answer, 400, players);
  if (route.action === "undo" && kept.log.length) kept.log.pop();
  else {
    const before = /** @type {string} */ (kept.current);
    const round = kept.view.current ? kept.view.current.number : null;
    // The entry as the engine on the phone made it (a bid's seat pinned) and the round it was made against.
    if (answer.entry) route.body = answer.entry.body;
    const against = answer.entry ? answer.entry.against : null;
    kept.log.push({ path: route.sub, sent: stripRound(route), action: route.action, body: route.body, round, before, against });
    if (!kept.server && kept.log.length > UNDO_KEPT) kept.log = kept.log.slice(-UNDO_KEPT);
  }
  kept.current = answer.record;
  kept.view = answer.view;
  await save(kept);
  return present(kept.view, kept, false);
}

/** The body as the server's API takes it (an edit's round is in its path). @param {any} route */
function stripRound(route) {
  if (route.action !== "edit") return route.body;
  const { round: _round, ...rest } = route.body;
  return rest;
}

/**
 * What an entry was, in the page's words, for the list of those that could not be merged.
 * @param {Entry} entry @param {string[]} players
 */
function described(entry, players) {
  const body = /** @type {any} */ (entry.sent);
  if (entry.action === "bid" && body.seat != null) return W.nameBid(players[body.seat] ?? `#${body.seat + 1}`, body.bid);
  const kind = entryKind(entry.action, entry.round);
  const values = body.bids || body.tricks;
  if (Array.isArray(values)) return `${kind}: ${values.map((v, seat) => W.nameBid(players[seat] ?? `#${seat + 1}`, v ?? "–")).join(", ")}`;
  return kind;
}

/** What kind of entry it was, in the page's words. @param {string} action @param {number | null} round */
function entryKind(action, round) {
  const key = `keeper.entryKind.${action}`;
  return has(key) ? t(key, { round: round ?? "?" }) : action;
}

/** This browser's id (made once), so a conflict on the sheet says whether this phone made it. */
export function deviceId() {
  let id = localStorage.getItem(DEVICE);
  if (!id) {
    id = crypto.randomUUID().slice(0, 13);
    localStorage.setItem(DEVICE, id);
  }
  return id;
}

/**
 * What an entry for a round is made against: the round as `view` shows it (null: not for a round).
 * @param {SheetView | null | undefined} view @param {string} action @param {any} body @returns {Against | null}
 */
export function againstFor(view, action, body) {
  if (!view || !view.current || !MADE_AGAINST.has(action)) return null;
  const round = action === "edit" ? Number(body.round) : view.current.number;
  const seen = (view.entered || [])[round - 1];
  return seen ? { round, bids: seen.bids, tricks: seen.tricks } : { round, bids: view.players.map((/** @type {string} */ _) => /** @type {number | null} */ (null)), tricks: null };
}

/**
 * Bring the entries made on the phone to the server (the rule is at the top of this file).
 * @param {Kept} kept @param {string[]} players
 */
async function merge(kept, players) {
  if (!kept.server) {
    const made = await server("/api/sheets/import", { record: kept.current }, players);
    kept.server = { id: made.id, share: made.share, version: made.version };
    kept.log = [];
    kept.view = made;
    kept.recordVersion = made.version;
    await save(kept);
    return;
  }
  const id = kept.server.id;
  let latest = await server(`/api/sheets/${id}`, undefined, players);
  const moved = latest.version !== kept.server.version;
  const merged = kept.merged || { merged: 0, conflicts: 0, refused: 0 };
  while (kept.log.length) {
    const entry = kept.log[0];
    // An entry kept before entries carried their round: the old rule, the round in play or nothing.
    const elsewhere = !entry.against && moved && ROUND_BOUND.has(entry.action) && entry.round !== latest.current.number;
    const sent = entry.against ? { ...entry.sent, against: entry.against, device: deviceId(), queued: true } : entry.sent;
    try {
      if (elsewhere) throw refused({ error: t("keeper.offlineEnteredElsewhere", { round: entry.round }) }, 409, players);
      latest = await server(`/api/sheets/${id}/${entry.path}`, sent, players);
      merged.merged += 1;
    } catch (err) {
      const error = /** @type {ApiError} */ (err);
      if (error.unreachable) throw error;
      if (error.rule === "conflict") {
        merged.conflicts += 1; // kept on the sheet, for every phone to see and the table to settle
      } else {
        merged.refused += 1;
        const what = described(entry, players.length ? players : (kept.view && kept.view.players) || []);
        kept.conflicts.push({ path: entry.path, sent: entry.sent, round: entry.round, error: `${what} — ${error.message}`, at: Date.now() });
      }
    }
    kept.log.shift();
    kept.merged = merged;
    if (latest.version) kept.server.version = latest.version;
    await save(kept);
  }
  latest = await server(`/api/sheets/${id}`, undefined, players); // with the conflicts kept meanwhile
  kept.server.version = latest.version;
  kept.open = latest.conflicts || [];
  kept.view = latest;
  opened.delete(kept.key);
  await save(kept);
  await fetchRecord(kept);
}

/**
 * Keep on the phone what the server answered. @param {Kept} kept @param {SheetView} data
 */
async function keepAnswer(kept, data) {
  kept.server = { id: data.id, share: data.share, version: data.version };
  kept.view = data;
  kept.open = data.conflicts || [];
  opened.delete(kept.key);
  await save(kept);
  fetchRecord(kept).catch(() => { /* the next answer tries again */ });
}

/**
 * @param {string} path
 * @param {object} [body]
 * @param {string[]} [players]
 */
export async function api(path, body, players = []) {
  const route = parse(path, body);
  if (!route) return server(path, body, players);
  const kept = route.id ? await load(route.id) : undefined;
  // A static copy has no server, but its host may hold the rule catalogue (written by the export).
  if (STATIC_SITE && route.kind !== "options") return onPhone(route, kept, players);
  try {
    const merging = Boolean(kept && (kept.log.length || !kept.server));
    if (kept && merging) await merge(kept, players);
    const target = kept && kept.server && route.id ? path.replace(route.id, kept.server.id) : path;
    // After a merge the page's version is the phone's, not the server's: the entry follows the merged ones.
    let sent = merging && body ? { ...body, version: undefined } : body;
    // An entry for a round says what it was made against: the round as the page last had it.
    const made = route.kind === "act" && sent && !(/** @type {any} */ (sent).against)
      ? againstFor(kept && kept.view, /** @type {string} */ (route.action), route.body) : null;
    if (made) sent = { ...sent, against: made, device: deviceId() };
    const data = await server(target, sent, players);
    if (route.kind === "options") await remember("options", data);
    if (route.kind === "shared") await remember(`shared:${route.share}`, data);
    if (!data.id || data.read_only) return data;
    const mine = kept || fresh(data.id);
    await keepAnswer(mine, data);
    return present(data, mine, true);
  } catch (err) {
    if (!(/** @type {ApiError} */ (err)).unreachable) throw err;
    return onPhone(route, kept || undefined, players);
  }
}

/** Forget the entries that could not be merged into a sheet (the keeper has seen them). @param {string} key */
export async function dismissConflicts(key) {
  const kept = await load(key);
  if (!kept) return;
  kept.conflicts = [];
  await save(kept);
}

/**
 * A sheet exported by the engine on the phone, from the phone's copy (its record and the entries made
 * since): `kind` "csv" or "record"; `id` is the sheet's id or its read-only id. Null when the phone
 * keeps no copy of it.
 * @param {string} id @param {"csv" | "record"} kind @returns {Promise<string | null>}
 */
export async function exportOnPhone(id, kind) {
  const kept = (await load(id)) || (await keptSheets()).find((k) => k.server && k.server.share === id);
  if (!kept || !(kept.current || kept.log.length)) return null;
  await ensureOpen(kept);
  return /** @type {string} */ (await engine("export", kept.key, kind));
}

/** Whether this copy of the keeper has no server at all (a static site). */
export const staticSite = () => STATIC_SITE;
