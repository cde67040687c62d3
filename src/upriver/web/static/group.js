// The group page (/g/{id}): the group's league as its members see it — the standings of a season,
// the chart of its points, the last games, head to head, the next game night, the members and, for
// an admin, invite links.
//
// Everything comes from the members-only API (web/groups/routes.py, docs/groups.md): a signed-out
// visitor or a non-member is told why and shown nothing of the group. An invite link is
// /g/{id}#invite=SECRET: the secret stays in the fragment (never sent to a server, so in no log),
// is kept in this tab's sessionStorage while its person signs in on /account (which comes back
// here), and is posted to join. A request that changes something carries the session's CSRF token
// (X-Upriver-CSRF), which GET /api/account gives.

// Chart.js (vendor/chart.js, MIT) is a classic UMD script: imported for its effect, it sets globalThis.Chart.
import "./vendor/chart.js/chart.umd.min.js";
import { lang, number, shownName, t } from "/static/i18n.js";
import { swatch } from "/static/sheet.js";
import { $, $input, el, fill } from "./dom.js";

const Chart = globalThis.Chart;

/** @typedef {{id: string, name: string, role: string, joined: number, left: number | null}} MemberInfo */
/** @typedef {{id: string, name: string, start: number, end: number}} SeasonInfo */
/** @typedef {{id: string, created: number, expires: number, revoked: number | null}} InviteInfo */
/**
 * The answer of GET /api/groups/{id}.
 * @typedef {object} Group
 * @property {string} id
 * @property {string} name
 * @property {{id: string, name: string, role: string}} me
 * @property {MemberInfo[]} members
 * @property {SeasonInfo[]} seasons
 * @property {{date: string | null, link: string | null}} next
 * @property {InviteInfo[]} [invites]
 */
/**
 * One member's line of the standings.
 * @typedef {{member: string, name: string, games: number, firsts: number, points: number,
 *   average_place: number, rounds: number, exact: number, exact_rate: number, average_round: number,
 *   best_game: {points: number, game: string}, longest_streak: number,
 *   rating: {mu: number, sigma: number, ordinal: number}}} Row
 */
/**
 * The answer of GET /api/groups/{id}/standings.
 * @typedef {{season: {id: string | null, name: string}, standings: Row[],
 *   games: {id: string, played: number, kind: string}[], running: Record<string, number[]>}} Standings
 */
/** @typedef {{name: string, kind: string, member: string | null, total: number, place: number}} GamePlayer */
/** @typedef {{id: string, kind: string, played: number, rounds: number, players: GamePlayer[], record: string, review: string | null}} GameInfo */
/** @typedef {{ok: boolean, status: number, data: Record<string, any>}} Answer */

const GROUP = decodeURIComponent(location.pathname.split("/")[2] || "");
const API = `/api/groups/${encodeURIComponent(GROUP)}`;
const INVITE_KEY = "upriver.invite";
const COLOURS = ["#ffd54f", "#4fc3f7", "#ef9a9a", "#a5d6a7", "#ce93d8", "#ffab91", "#80cbc4", "#e6ee9c"];

let csrf = "";
/** @type {Group | null} */
let group = null;

/**
 * One request to the API, with the session's CSRF token.
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

const RULES = ["signed out", "csrf", "member", "admin", "group", "season"];

/** A refusal in the page's language: from its rule or reason, else the server's own sentence.
 * @param {Record<string, any>} data */
function refusalWords(data) {
  if (data.rule === "invite" && ["expired", "revoked", "unknown"].includes(data.reason)) return t(`group.refused.invite_${data.reason}`);
  if (typeof data.rule === "string" && RULES.includes(data.rule)) return t(`group.refused.${data.rule.replace(" ", "_")}`);
  if (data.field === "date" || data.field === "link" || data.field === "days" || data.field === "name") return t(`group.refused.${data.field}`);
  return lang === "en" ? String(data.error) : t("group.server_says", { error: String(data.error) });
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

/** A number with `digits` decimals, as this language writes it (a column's figures line up).
 * @param {number} value
 * @param {number} digits */
const fixed = (value, digits) => new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);

/** A share as a whole percentage ("67 %" in French).
 * @param {number} value */
const percent = (value) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(value);

/** A rating: its mean ± its uncertainty, one decimal each ("27.1 ± 7.9").
 * @param {{mu: number, sigma: number}} rating */
const ratingText = (rating) => `${fixed(rating.mu, 1)} ± ${fixed(rating.sigma, 1)}`;

// ------------------------------------------------------------------ the invite this tab holds

/** The invite secret this tab was given for this group (from the link's fragment, or kept while its person signed in). */
function heldInvite() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (fromLink) {
    try {
      sessionStorage.setItem(INVITE_KEY, JSON.stringify({ group: GROUP, invite: fromLink }));
    } catch {
      // storage refused (a private window): the secret is still in this page's address
      return fromLink;
    }
    history.replaceState(null, "", location.pathname); // out of the address bar, the history and a copied link
    return fromLink;
  }
  try {
    const kept = JSON.parse(sessionStorage.getItem(INVITE_KEY) || "null");
    return kept && kept.group === GROUP && typeof kept.invite === "string" ? kept.invite : null;
  } catch {
    return null;
  }
}

function dropInvite() {
  try {
    sessionStorage.removeItem(INVITE_KEY);
  } catch {
    // nothing kept
  }
}

// ------------------------------------------------------------------ what a visitor may see

/** @param {"signed-out" | "outsider" | "join-box" | "group" | null} shown */
function show(shown) {
  for (const id of ["signed-out", "outsider", "join-box", "group"]) $(id).hidden = id !== shown;
}

/** Read who is signed in and the group, and draw what this person may see. */
async function load() {
  const account = await (await fetch("/api/account")).json();
  csrf = account.csrf ?? "";
  const invite = heldInvite();
  if (!account.signed_in) {
    show("signed-out");
    $("signin-link").setAttribute("href", `/account?back=${encodeURIComponent(location.pathname)}`);
    if (invite) $("signed-out-text").textContent = t("group.signed_out_invited");
    return;
  }
  const answer = await api("GET", API);
  if (answer.status === 404) {
    show("outsider");
    $("outsider-title").textContent = t("group.missing_title");
    $("outsider-text").textContent = t("group.missing");
    return;
  }
  if (!answer.ok) {
    show(invite ? "join-box" : "outsider");
    return;
  }
  if (invite) {
    dropInvite();
    say(t("group.already_member"));
  }
  await drawGroup(/** @type {Group} */ (answer.data));
}

async function join() {
  const invite = heldInvite();
  if (!invite) return fail(t("group.refused.invite_unknown"));
  const answer = await api("POST", `${API}/join`, { invite });
  if (!answer.ok) {
    if (answer.data.rule === "invite") dropInvite();
    return fail(refusalWords(answer.data));
  }
  dropInvite();
  await drawGroup(/** @type {Group} */ (answer.data));
  say(t("group.joined", { name: answer.data.name }));
  $("title").focus();
}

// ------------------------------------------------------------------ the group

/** @param {Group} data */
async function drawGroup(data) {
  group = data;
  show("group");
  $("title").textContent = data.name;
  document.title = t("group.page_title_named", { name: data.name });
  const admin = data.me.role === "admin";
  drawNext(data, admin);
  drawMembers(data, admin);
  $("invites-box").hidden = !admin;
  if (admin) drawInvites(data.invites || []);
  drawSeasons(data);
  $("history").setAttribute("href", `${API}/history`);
  await Promise.all([loadStandings(), loadGames()]);
}

/** @param {Group} data
 * @param {boolean} admin */
function drawNext(data, admin) {
  const { date, link } = data.next;
  const when = date ? new Date(`${date}T12:00:00Z`).toLocaleDateString(lang, { weekday: "long", year: "numeric", month: "long", day: "numeric" }) : null;
  fill($("next"),
    when ? el("strong", {}, when) : el("span", { class: "hint" }, t("group.next_none")),
    link ? [" · ", el("a", { href: link }, t("group.next_open"))] : null);
  $("next-edit").hidden = !admin;
  if (admin) {
    $input("next-date").value = date || "";
    $input("next-link").value = link || "";
  }
}

/** @param {SubmitEvent} event */
async function saveNext(event) {
  event.preventDefault();
  const date = $input("next-date").value || null;
  const link = $input("next-link").value.trim() || null;
  const answer = await api("PUT", `${API}/next`, { date, link });
  if (!answer.ok) return fail(refusalWords(answer.data));
  group = /** @type {Group} */ (answer.data);
  drawNext(group, true);
  /** @type {HTMLDetailsElement} */ ($("next-edit")).open = false;
  say(t("group.next_saved"));
}

/** @param {Group} data */
function drawSeasons(data) {
  const select = /** @type {HTMLSelectElement} */ ($("season"));
  const chosen = select.value;
  const year = String(new Date().getUTCFullYear());
  fill(select,
    el("option", { value: "" }, t("group.season_year", { year })),
    data.seasons.map((season) => el("option", { value: season.id }, `${season.name} (${day(season.start)} – ${day(season.end - 86400)})`)));
  select.value = [...select.options].some((option) => option.value === chosen) ? chosen : "";
}

/** The season chosen in the picker, as the API's query. */
function seasonQuery() {
  const season = /** @type {HTMLSelectElement} */ ($("season")).value;
  return season ? `?season=${encodeURIComponent(season)}` : "";
}

async function loadStandings() {
  const answer = await api("GET", `${API}/standings${seasonQuery()}`);
  if (!answer.ok) return fail(refusalWords(answer.data));
  const data = /** @type {Standings} */ (answer.data);
  $("csv").setAttribute("href", `${API}/standings.csv${seasonQuery()}`);
  drawStandings(data);
  drawChart(data);
  drawVersus(data);
}

/** @param {Standings} data */
function drawStandings(data) {
  const rows = data.standings;
  $("standings-empty").hidden = rows.length > 0;
  $("standings-box").hidden = rows.length === 0;
  const me = group?.me.id;
  fill(/** @type {HTMLElement} */ ($("standings").querySelector("tbody")), rows.map((row, index) =>
    el("tr", { class: row.member === me ? "me" : null, "data-member": row.member },
      el("td", { class: "num rank sticky" }, String(index + 1)),
      el("th", { scope: "row", class: "name sticky" }, row.name),
      el("td", { class: "num" }, String(row.games)),
      el("td", { class: "num" }, String(row.firsts)),
      el("td", { class: "num" }, number(row.points)),
      el("td", { class: "num" }, fixed(row.average_place, 2)),
      el("td", { class: "num", title: t("group.exact_of", { exact: row.exact, rounds: row.rounds }) }, percent(row.exact_rate)),
      el("td", { class: "num" }, fixed(row.average_round, 1)),
      el("td", { class: "num" }, number(row.best_game.points)),
      el("td", { class: "num" }, String(row.longest_streak)),
      el("td", { class: "num rating" }, ratingText(row.rating)))));
}

/** The running points of the season, one line a member (Chart.js), with a key beneath it.
 * @param {Standings} data */
function drawChart(data) {
  const box = $("chart");
  Chart.getChart(box.querySelector("canvas") || "")?.destroy();
  const members = data.standings;
  if (!data.games.length || !members.length) {
    fill(box, el("p", { class: "hint" }, t("group.chart_empty")));
    fill($("legend"));
    return;
  }
  const summary = t("group.chart_summary", {
    games: data.games.length,
    totals: members.map((row) => `${row.name} ${(data.running[row.member] || [0]).at(-1)}`).join(", "),
  });
  const canvas = el("canvas", { role: "img", "aria-label": summary }, summary);
  fill(box, canvas);
  const ink = getComputedStyle(box).color;
  const grid = ink.replace(/^rgb\((.*)\)$/, "rgba($1, 0.18)");
  const phone = box.clientWidth < 500;
  const font = { size: phone ? 11 : 13, family: getComputedStyle(box).fontFamily };
  const labels = data.games.map((game, index) => `${index + 1}`);
  new Chart(canvas, {
    type: "line",
    data: {
      labels,
      datasets: members.map((row, index) => ({
        label: row.name,
        data: data.running[row.member] || [],
        borderColor: COLOURS[index % COLOURS.length],
        backgroundColor: COLOURS[index % COLOURS.length],
        borderWidth: 2.5,
        pointRadius: 3,
        tension: 0,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      color: ink,
      font,
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { title: { display: true, text: t("group.chart_x"), color: ink, font }, ticks: { color: ink, font }, grid: { color: grid } },
        y: { beginAtZero: true, title: { display: !phone, text: t("group.chart_y"), color: ink, font }, ticks: { color: ink, font, precision: 0 }, grid: { color: grid } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          itemSort: (a, b) => b.parsed.y - a.parsed.y,
          callbacks: {
            title: (items) => {
              const game = data.games[items[0].dataIndex];
              return t("group.chart_game", { n: items[0].dataIndex + 1, date: day(game.played) });
            },
            label: (item) => ` ${item.dataset.label}: ${item.parsed.y}`,
          },
        },
      },
    },
  });
  fill($("legend"), members.map((row, index) =>
    el("li", {}, swatchOf(index), el("span", {}, row.name), " ", el("strong", {}, String((data.running[row.member] || [0]).at(-1))))));
}

/** A small line in a member's colour, for the chart's key (the chart's lines are solid, with round points).
 * @param {number} index */
const swatchOf = (index) => swatch(0, [COLOURS[index % COLOURS.length]]);

// ------------------------------------------------------------------ head to head

/** @param {Standings} data */
function drawVersus(data) {
  const a = /** @type {HTMLSelectElement} */ ($("versus-a"));
  const b = /** @type {HTMLSelectElement} */ ($("versus-b"));
  const [keptA, keptB] = [a.value, b.value];
  const options = () => data.standings.map((row) => el("option", { value: row.member }, row.name));
  fill(a, options());
  fill(b, options());
  const ids = data.standings.map((row) => row.member);
  a.value = ids.includes(keptA) ? keptA : ids[0] || "";
  b.value = ids.includes(keptB) && keptB !== a.value ? keptB : ids.find((id) => id !== a.value) || "";
  a.disabled = b.disabled = ids.length < 2;
  if (ids.length < 2) {
    $("versus").textContent = t("group.versus_few");
    return;
  }
  void loadVersus();
}

async function loadVersus() {
  const a = /** @type {HTMLSelectElement} */ ($("versus-a"));
  const b = /** @type {HTMLSelectElement} */ ($("versus-b"));
  if (!a.value || !b.value) return;
  if (a.value === b.value) {
    $("versus").textContent = t("group.versus_same");
    return;
  }
  const season = /** @type {HTMLSelectElement} */ ($("season")).value;
  const query = new URLSearchParams({ a: a.value, b: b.value, ...(season ? { season } : {}) });
  const answer = await api("GET", `${API}/head-to-head?${query}`);
  if (!answer.ok) return fail(refusalWords(answer.data));
  const nameA = a.selectedOptions[0]?.textContent ?? "";
  const nameB = b.selectedOptions[0]?.textContent ?? "";
  const v = answer.data;
  $("versus").textContent = v.games
    ? t("group.versus_result", { a: nameA, b: nameB, games: v.games, a_ahead: v.a_ahead, b_ahead: v.b_ahead, level: v.level, a_points: v.a_points, b_points: v.b_points })
    : t("group.versus_none", { a: nameA, b: nameB });
}

// ------------------------------------------------------------------ the last games

async function loadGames() {
  const answer = await api("GET", `${API}/games?last=20`);
  if (!answer.ok) return fail(refusalWords(answer.data));
  const games = /** @type {GameInfo[]} */ (answer.data.games);
  $("games-empty").hidden = games.length > 0;
  fill($("games"), games.map(gameItem));
}

/** @param {GamePlayer} player */
function playerItem(player) {
  const tag = player.kind === "guest" ? t("group.guest") : player.kind === "bot" ? t("group.bot") : null;
  return el("li", { class: `player ${player.kind}-seat` },
    el("span", { class: "place" }, t("group.place", { place: player.place })), " ",
    el("span", { class: "player-name" }, player.kind === "bot" ? shownName(player.name) : player.name),
    tag ? el("span", { class: "tag" }, tag) : null, " ",
    el("span", { class: "total" }, number(player.total)));
}

/** @param {GameInfo} game */
function gameItem(game) {
  const players = [...game.players].sort((p, q) => p.place - q.place);
  return el("li", { class: "game", "data-game": game.id },
    el("div", { class: "game-head" },
      el("strong", {}, day(game.played)),
      el("span", { class: `kind ${game.kind}` }, game.kind === "web" ? t("group.kind_web") : t("group.kind_keeper")),
      el("span", { class: "hint" }, t("group.rounds", { count: game.rounds })),
      el("span", { class: "links" },
        game.review ? el("a", { href: game.review }, t("group.review")) : null,
        el("a", { href: game.record, download: `upriver-${game.id}.json` }, t("group.record")))),
    el("ol", { class: "players", "aria-label": t("group.players") }, players.map(playerItem)));
}

// ------------------------------------------------------------------ members

/** @param {Group} data
 * @param {boolean} admin */
function drawMembers(data, admin) {
  const present = data.members.filter((m) => m.left === null);
  const gone = data.members.filter((m) => m.left !== null);
  fill($("members"),
    present.map((m) => el("li", { class: "member" },
      el("span", { class: "member-name" }, m.id === data.me.id ? t("group.you", { name: m.name }) : m.name),
      m.role === "admin" ? el("span", { class: "tag" }, t("group.admin")) : null,
      el("span", { class: "hint" }, t("group.joined_on", { date: day(m.joined) })),
      admin && m.id !== data.me.id
        ? el("button", { type: "button", onclick: () => removeMember(m), "aria-label": t("group.remove_named", { name: m.name }) }, t("group.remove"))
        : null)),
    gone.map((m) => el("li", { class: "member left" },
      el("span", { class: "member-name" }, m.name),
      el("span", { class: "hint" }, t("group.left_on", { date: day(/** @type {number} */ (m.left)) })))));
}

/** @param {MemberInfo} member */
async function removeMember(member) {
  const answer = await api("DELETE", `${API}/members/${encodeURIComponent(member.id)}`);
  if (!answer.ok) return fail(refusalWords(answer.data));
  await drawGroup(/** @type {Group} */ (answer.data));
  say(t("group.removed", { name: member.name }));
}

/** @param {boolean} open */
function confirmingLeave(open) {
  $("leave-confirm").hidden = !open;
  $("leave").setAttribute("aria-expanded", String(open));
  (open ? $("leave-no") : $("leave")).focus();
}

async function leave() {
  const former = $input("leave-former").checked;
  const answer = await api("POST", `${API}/leave`, { former });
  if (!answer.ok) return fail(refusalWords(answer.data));
  group = null;
  $("leave-confirm").hidden = true;
  show("outsider");
  $("outsider-title").textContent = t("group.left_title");
  $("outsider-text").textContent = former ? t("group.left_former") : t("group.left");
  $("title").focus();
}

// ------------------------------------------------------------------ invites (admins)

/** The invite links still open (a revoked or expired one opens nothing: it is not listed).
 * @param {InviteInfo[]} invites */
function drawInvites(invites) {
  const now = Date.now() / 1000;
  fill($("invites"), invites.filter((invite) => invite.revoked === null && invite.expires > now).map((invite) => {
    const open = invite.revoked === null && invite.expires > now;
    const state = invite.revoked !== null ? t("group.invite_revoked") : open ? t("group.invite_open", { date: day(invite.expires) }) : t("group.invite_expired");
    return el("li", { class: "member" },
      el("span", {}, t("group.invite_made_on", { date: day(invite.created) })),
      el("span", { class: "hint" }, state),
      open ? el("button", { type: "button", onclick: () => revoke(invite), "aria-label": t("group.revoke_named", { date: day(invite.created) }) }, t("group.revoke")) : null);
  }));
}

/** @param {SubmitEvent} event */
async function makeInvite(event) {
  event.preventDefault();
  const days = Number($input("invite-days").value);
  const answer = await api("POST", `${API}/invites`, { days });
  if (!answer.ok) return fail(refusalWords(answer.data));
  $input("invite-link").value = `${location.origin}/g/${encodeURIComponent(GROUP)}#invite=${encodeURIComponent(answer.data.invite)}`;
  $("invite-made").hidden = false;
  $("invite-made-text").focus();
  say(t("group.invite_ready"));
  const fresh = await api("GET", API);
  if (fresh.ok) drawInvites(/** @type {Group} */ (fresh.data).invites || []);
}

async function copyInvite() {
  const input = $input("invite-link");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    say(t("group.copied"));
  } catch {
    say(t("group.copy_by_hand"));
  }
}

/** @param {InviteInfo} invite */
async function revoke(invite) {
  const answer = await api("DELETE", `${API}/invites/${encodeURIComponent(invite.id)}`);
  if (!answer.ok) return fail(refusalWords(answer.data));
  drawInvites(/** @type {Group} */ (answer.data).invites || []);
  say(t("group.revoked"));
}

// ------------------------------------------------------------------ start

$("join").addEventListener("click", join);
$("next-form").addEventListener("submit", saveNext);
$("season").addEventListener("change", () => void loadStandings());
$("versus-a").addEventListener("change", () => void loadVersus());
$("versus-b").addEventListener("change", () => void loadVersus());
$("leave").addEventListener("click", () => confirmingLeave(true));
$("leave-no").addEventListener("click", () => confirmingLeave(false));
$("leave-yes").addEventListener("click", leave);
$("invite-form").addEventListener("submit", makeInvite);
$("invite-copy").addEventListener("click", copyInvite);
await load();
