// The account page (/account): sign in with a passkey, create an account, sign in with a recovery
// code; signed in, My tables, the passkeys (add, rename, remove), new recovery codes, export, delete.
//
// An account is optional. After a sign-in or a registration, the page asks the server to keep each
// seat this browser holds (table-store.js's list) under the account, so My tables finds them on any
// browser. The API is web/accounts/routes.py; a request that changes something carries the
// session's CSRF token (X-Upriver-CSRF), which GET /api/account gives to this page.

import { lang, t } from "/static/i18n.js";
import { remembered } from "/static/table-store.js";
import { $, $input, el, fill } from "./dom.js";

/** @typedef {{id: string, name: string, created: number, last_used: number | null, transports: string[]}} PasskeyInfo */
/**
 * The answer of GET /api/account, and of a sign-in or a registration (with its extras).
 * @typedef {object} Account
 * @property {boolean} signed_in
 * @property {{id: string, name: string, created: number}} [user]
 * @property {PasskeyInfo[]} [passkeys]
 * @property {number} [recovery_codes_left]
 * @property {string} [csrf]
 * @property {string[]} [recovery_codes]
 * @property {boolean} [recovered]
 */
/**
 * A kept seat as My tables lists it.
 * @typedef {{table: string, seat: number, name: string | null, players: (string | null)[], host: boolean,
 *   started: boolean, over: boolean, round: number, rounds: number | null, damaged: boolean, link: string,
 *   record?: string, review?: string}} SeatEntry
 */
/** @typedef {{playing: SeatEntry[], hosting: SeatEntry[], finished: SeatEntry[], archived: {table: string, seat: number}[]}} MyTables */
/** @typedef {{ok: boolean, status: number, data: Record<string, any>}} Answer */

let csrf = "";

/**
 * One request to the account API, with the session's CSRF token.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { "X-Upriver-CSRF": csrf };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  return { ok: response.ok, status: response.status, data };
}

// ------------------------------------------------------------------ words

const RULES = ["rate", "last passkey", "csrf", "signed out", "passkey", "origin", "token"];

/** A refusal in the page's language: from its rule or field, else the server's own sentence.
 * @param {Record<string, any>} data */
function refusalWords(data) {
  if (typeof data.rule === "string" && RULES.includes(data.rule)) return t(`account.refused.${data.rule.replace(" ", "_")}`);
  if (data.field === "code" || data.field === "name" || data.field === "ceremony") return t(`account.refused.${data.field}`);
  return lang === "en" ? String(data.error) : t("account.server_says", { error: String(data.error) });
}

/** @param {string} text */
function say(text) {
  $("error").textContent = "";
  $("status").textContent = text;
}

/** @param {string} text */
function fail(text) {
  $("status").textContent = "";
  $("error").textContent = text;
}

/** A date as this language writes it.
 * @param {number} seconds since 1970 */
const day = (seconds) => new Date(seconds * 1000).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });

// ------------------------------------------------------------------ passkeys in the browser

/** base64url text → bytes.
 * @param {string} text */
function bytes(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** bytes → base64url text.
 * @param {ArrayBuffer} buffer */
function text64(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {{id: string}[] | undefined} list */
const descriptors = (list) => (list || []).map((item) => ({ ...item, type: /** @type {const} */ ("public-key"), id: bytes(item.id) }));

/** A credential as JSON for the server (what PublicKeyCredential.toJSON gives where it exists).
 * @param {PublicKeyCredential} credential */
function credentialJSON(credential) {
  const answer = credential.response;
  /** @type {Record<string, unknown>} */
  const response = { clientDataJSON: text64(answer.clientDataJSON) };
  if (answer instanceof AuthenticatorAttestationResponse) {
    response.attestationObject = text64(answer.attestationObject);
    response.transports = typeof answer.getTransports === "function" ? answer.getTransports() : [];
  } else if (answer instanceof AuthenticatorAssertionResponse) {
    response.authenticatorData = text64(answer.authenticatorData);
    response.signature = text64(answer.signature);
    if (answer.userHandle) response.userHandle = text64(answer.userHandle);
  }
  return { id: credential.id, rawId: text64(credential.rawId), type: credential.type, response, clientExtensionResults: {} };
}

/** Make a passkey with the server's creation options; its answer as JSON, or null (cancelled).
 * @param {Record<string, any>} options */
async function createPasskey(options) {
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    user: { ...options.user, id: bytes(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const made = await navigator.credentials.create({ publicKey: /** @type {PublicKeyCredentialCreationOptions} */ (/** @type {unknown} */ (publicKey)) });
  return made ? credentialJSON(/** @type {PublicKeyCredential} */ (made)) : null;
}

/** Sign in with a passkey the browser offers; its answer as JSON, or null (cancelled).
 * @param {Record<string, any>} options */
async function getPasskey(options) {
  const publicKey = { ...options, challenge: bytes(options.challenge), allowCredentials: descriptors(options.allowCredentials) };
  const got = await navigator.credentials.get({ publicKey: /** @type {PublicKeyCredentialRequestOptions} */ (/** @type {unknown} */ (publicKey)) });
  return got ? credentialJSON(/** @type {PublicKeyCredential} */ (got)) : null;
}

/**
 * A whole ceremony: options from `start`, the browser's passkey, the answer sent to `finish`.
 * @param {string} start
 * @param {Record<string, unknown>} body
 * @param {string} finish
 * @param {"create" | "get"} kind
 * @param {Record<string, unknown>} [extra]
 * @returns {Promise<Answer | null>} the server's answer, or null when it failed (the page says why)
 */
async function ceremony(start, body, finish, kind, extra = {}) {
  const asked = await api("POST", start, body);
  if (!asked.ok) {
    fail(refusalWords(asked.data));
    return null;
  }
  /** @type {Record<string, unknown> | null} */
  let credential;
  try {
    credential = kind === "create" ? await createPasskey(asked.data.options) : await getPasskey(asked.data.options);
  } catch (error) {
    fail(error instanceof DOMException && error.name === "InvalidStateError" ? t("account.refused.passkey") : t("account.cancelled"));
    return null;
  }
  if (!credential) {
    fail(t("account.cancelled"));
    return null;
  }
  const answer = await api("POST", finish, { ceremony: asked.data.ceremony, credential, ...extra });
  if (!answer.ok) fail(refusalWords(answer.data));
  return answer.ok ? answer : null;
}

// ------------------------------------------------------------------ signed out

/** The seats this browser holds, kept under the account now signed in (those that open nothing are left). */
async function keepSeats() {
  for (const held of remembered()) {
    if (held.seat === null || !held.token) continue;
    await api("POST", "/api/account/seats", { table: held.table, token: held.token });
  }
}

/** The group page this visit came from to sign in (/account?back=/g/{id}), to go back to; else null. */
function backTo() {
  const back = new URLSearchParams(location.search).get("back");
  return back && /^\/g\/[A-Za-z0-9_-]{1,64}$/.test(back) ? back : null;
}

/** After a sign-in or a registration: the new session's token, the seats kept, the page drawn (or,
 * come from a group's page, that page again; a registration's recovery codes are shown first).
 * @param {Record<string, any>} data
 * @param {string} message */
async function signedIn(data, message) {
  csrf = data.csrf;
  await keepSeats();
  const back = backTo();
  if (back && !data.recovery_codes) return location.assign(back);
  await load();
  say(message);
  if (data.recovery_codes) showCodes(data.recovery_codes);
  else if (data.recovered) {
    $("suggest").hidden = false;
    $("suggest-title").focus();
  } else $("title").focus();
}

async function signIn() {
  const answer = await ceremony("/api/account/signin/options", {}, "/api/account/signin", "get");
  if (answer) await signedIn(answer.data, t("account.welcome", { name: answer.data.user.name }));
}

/** @param {SubmitEvent} event */
async function register(event) {
  event.preventDefault();
  const name = $input("register-name").value;
  const answer = await ceremony("/api/account/register/options", { name }, "/api/account/register", "create");
  if (answer) await signedIn(answer.data, t("account.created", { name: answer.data.user.name }));
}

/** @param {SubmitEvent} event */
async function recover(event) {
  event.preventDefault();
  const answer = await api("POST", "/api/account/recover", { code: $input("recover-code").value });
  if (!answer.ok) return fail(refusalWords(answer.data));
  $input("recover-code").value = "";
  await signedIn(answer.data, t("account.welcome", { name: answer.data.user.name }));
}

// ------------------------------------------------------------------ signed in

/** Show recovery codes once, with the note to save them.
 * @param {string[]} codes */
function showCodes(codes) {
  fill($("code-list"), codes.map((code) => el("li", {}, el("code", {}, code))));
  $("codes").hidden = false;
  $("codes-title").focus();
}

/** @param {PasskeyInfo} key
 * @param {boolean} only */
function passkeyItem(key, only) {
  const used = key.last_used === null ? t("account.never_used") : t("account.last_used", { date: day(key.last_used) });
  const item = el("li", { class: "passkey" });
  const show = () =>
    fill(
      item,
      el("span", { class: "passkey-name" }, key.name),
      el("span", { class: "hint" }, t("account.added", { date: day(key.created) }), " · ", used),
      el("span", { class: "passkey-actions" },
        el("button", { type: "button", onclick: rename, "aria-label": t("account.rename_named", { name: key.name }) }, t("account.rename")),
        el("button", { type: "button", onclick: remove, "aria-label": t("account.remove_named", { name: key.name }), title: only ? t("account.refused.last_passkey") : null }, t("account.remove"))),
    );
  function rename() {
    const input = el("input", { value: key.name, maxLength: 40, required: true, autocomplete: "off" });
    const form = el("form", { class: "rename", onsubmit: save },
      el("label", {}, el("span", {}, t("account.new_name")), " ", input),
      el("button", { type: "submit" }, t("account.save")),
      el("button", { type: "button", onclick: show }, t("account.cancel")));
    fill(item, form);
    input.focus();
    /** @param {SubmitEvent} event */
    async function save(event) {
      event.preventDefault();
      const answer = await api("PATCH", `/api/account/passkeys/${encodeURIComponent(key.id)}`, { name: input.value });
      if (!answer.ok) return fail(refusalWords(answer.data));
      drawAccount(/** @type {Account} */ (answer.data));
      say(t("account.renamed"));
    }
  }
  async function remove() {
    const answer = await api("DELETE", `/api/account/passkeys/${encodeURIComponent(key.id)}`);
    if (!answer.ok) return fail(refusalWords(answer.data));
    drawAccount(/** @type {Account} */ (answer.data));
    say(t("account.removed", { name: key.name }));
    $("add-passkey").focus();
  }
  show();
  return item;
}

/** @param {Account} account */
function drawAccount(account) {
  const keys = account.passkeys || [];
  $("hello").textContent = t("account.signed_in_as", { name: account.user?.name ?? "" });
  fill($("passkey-list"), keys.map((key) => passkeyItem(key, keys.length === 1)));
  $("codes-left").textContent = t("account.codes_left", { count: account.recovery_codes_left ?? 0 });
}

/** One kept seat in My tables.
 * @param {SeatEntry} entry */
function tableItem(entry) {
  const players = entry.players.map((name, seat) => (seat === entry.seat ? t("account.you", { name: name ?? "" }) : name ?? "…")).join(", ");
  const state = entry.over ? t("account.over") : entry.started ? t("account.round", { round: entry.round, rounds: entry.rounds ?? "?" }) : t("account.not_started");
  return el("li", { class: "my-table" },
    el("a", { href: entry.link, class: "back-link" }, entry.over ? t("account.open_review") : t("account.open_seat")),
    el("span", { class: "hint" }, ` · ${state}`),
    el("div", {}, players),
    entry.record ? el("a", { href: entry.record, download: `upriver-${entry.table}.json` }, t("account.record")) : null);
}

/** @param {MyTables} tables */
function drawTables(tables) {
  /** @type {[string, SeatEntry[]][]} */
  const groups = [["account.playing", tables.playing], ["account.hosting", tables.hosting], ["account.finished", tables.finished]];
  const shown = groups.filter(([, list]) => list.length);
  fill($("tables"),
    shown.length ? null : el("p", { class: "hint" }, t("account.tables_empty")),
    shown.map(([key, list]) => [el("h3", {}, t(key)), el("ul", { class: "table-list" }, list.map(tableItem))]),
    tables.archived.length ? el("p", { class: "hint" }, t("account.archived", { count: tables.archived.length })) : null);
}

/** My groups: a link to each group's page.
 * @param {{id: string, name: string}[]} groups */
function drawGroups(groups) {
  fill($("group-list"), groups.length
    ? groups.map((g) => el("li", { class: "my-table" }, el("a", { href: `/g/${encodeURIComponent(g.id)}`, class: "back-link" }, g.name)))
    : el("li", { class: "hint" }, t("group.none_yet")));
}

/** @param {SubmitEvent} event */
async function createGroup(event) {
  event.preventDefault();
  const answer = await api("POST", "/api/groups", { name: $input("group-name").value });
  if (!answer.ok) return fail(answer.data.field === "name" ? t("group.refused.name") : refusalWords(answer.data));
  location.assign(`/g/${encodeURIComponent(answer.data.id)}`);
}

/** Read the account and draw the page as it is now. */
async function load() {
  const account = /** @type {Account} */ (await (await fetch("/api/account")).json());
  csrf = account.csrf ?? "";
  $("signed-out").hidden = account.signed_in;
  $("signed-in").hidden = !account.signed_in;
  $("codes").hidden = true;
  $("suggest").hidden = true;
  if (!account.signed_in) return;
  drawAccount(account);
  const tables = await api("GET", "/api/account/tables");
  if (tables.ok) drawTables(/** @type {MyTables} */ (tables.data));
  const groups = await api("GET", "/api/groups");
  if (groups.ok) drawGroups(groups.data.groups);
}

async function signOut() {
  const answer = await api("POST", "/api/account/signout", {});
  if (!answer.ok) return fail(refusalWords(answer.data));
  await load();
  say(t("account.signed_out"));
  $("title").focus();
}

async function addPasskey() {
  const answer = await ceremony("/api/account/passkeys/options", {}, "/api/account/passkeys", "create");
  if (!answer) return;
  drawAccount(/** @type {Account} */ (answer.data));
  $("suggest").hidden = true;
  say(t("account.passkey_added"));
}

async function newCodes() {
  const answer = await api("POST", "/api/account/recovery-codes", {});
  if (!answer.ok) return fail(refusalWords(answer.data));
  showCodes(answer.data.recovery_codes);
  $("codes-left").textContent = t("account.codes_left", { count: answer.data.recovery_codes.length });
}

/** @param {boolean} open */
function confirming(open) {
  $("delete-confirm").hidden = !open;
  $("delete").setAttribute("aria-expanded", String(open));
  (open ? $("delete-no") : $("delete")).focus();
}

async function deleteAccount() {
  const answer = await api("DELETE", "/api/account");
  if (!answer.ok) return fail(refusalWords(answer.data));
  $("delete-confirm").hidden = true;
  await load();
  say(t("account.deleted"));
  $("title").focus();
}

// ------------------------------------------------------------------ start

$("signin").addEventListener("click", signIn);
$("register-form").addEventListener("submit", register);
$("recover-form").addEventListener("submit", recover);
$("signout").addEventListener("click", signOut);
$("add-passkey").addEventListener("click", addPasskey);
$("new-codes").addEventListener("click", newCodes);
$("group-form").addEventListener("submit", createGroup);
$("codes-done").addEventListener("click", () => {
  const back = backTo();
  if (back) return location.assign(back);
  $("codes").hidden = true;
  fill($("code-list"));
  $("title").focus();
});
$("delete").addEventListener("click", () => confirming(true));
$("delete-no").addEventListener("click", () => confirming(false));
$("delete-yes").addEventListener("click", deleteAccount);
if (!window.PublicKeyCredential || !window.isSecureContext) {
  $("no-passkeys").hidden = false;
  for (const id of ["signin", "register", "add-passkey"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = true;
}
await load();
