// The end of the game: a rematch (the same seats, bots, rules and pace on a new deal) or a new game.
// The first person to press Rematch makes it (POST /api/tables/{id}/rematch); everyone at the table
// is then told, each with the link to their own seat, and one who was away finds theirs here later.

import { t } from "/static/i18n.js";
import { refusalText } from "./table-panels.js";
import { rememberTable } from "./table-store.js";
import { $ } from "./dom.js";


// Every word the rematch shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  rematch: () => t("table.rematch.rematch"),
  starting: () => t("table.rematch.starting"),
  started: (/** @type {string} */ who) => t("table.rematch.started", { who }),
  youStarted: () => t("table.rematch.youStarted"),
  join: () => t("table.rematch.join"),
  go: () => t("table.rematch.go"),
  watch: () => t("table.rematch.watch"),
  failed: (/** @type {string} */ why) => t("table.rematch.failed", { why }),
};

/**
 * What the server says of a table's rematch: the new table, this seat's link to it, and who made it.
 * @typedef {{table: string, url: string, by: string, by_seat: number | null}} Rematch
 */

/** @type {Rematch | null} what the server said about this table's rematch */
let news = null;

// Where this seat's link leads, with the name to sit under (the next page takes the seat with it).
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {Rematch} found
 */
function linkFor(state, found) {
  const url = new URL(found.url, location.origin);
  const mine = state.seat;
  if (mine !== null && found.by_seat !== mine && url.hash && state.game) {
    url.hash += `&name=${encodeURIComponent(state.game.players[mine])}`;
  }
  return url.href;
}

/** @param {string} url */
function tokenOf(url) {
  return new URLSearchParams(new URL(url, location.origin).hash.slice(1)).get("token");
}

/** @param {import("./table-socket.js").TableState} state */
function show(state) {
  const box = $("rematch-news");
  const button = $("rematch");
  button.hidden = state.seat === null || Boolean(news);
  if (!news) {
    box.hidden = true;
    return;
  }
  const link = document.createElement("a");
  link.className = "button primary";
  link.id = "rematch-link";
  link.href = linkFor(state, news);
  const mine = state.seat !== null && news.by_seat === state.seat;
  link.textContent = state.seat === null ? WORDS.watch() : mine ? WORDS.go() : WORDS.join();
  link.addEventListener("click", () => {
    const token = tokenOf(news.url);
    if (token) rememberTable({ table: news.table, token, seat: state.seat });
  });
  box.replaceChildren(mine ? WORDS.youStarted() : WORDS.started(news.by), " ", link);
  box.hidden = false;
}

// The server's `rematch` message (a seat's own link), or the answer to asking for it.
/**
 * @param {import("./table-socket.js").TableState | null} state
 * @param {Rematch | null} found
 */
export function rematchNews(state, found) {
  if (!found || !found.table) return;
  news = found;
  if (state) show(state);
}

const ASK_EVERY_MS = 8000;
/** @type {ReturnType<typeof setInterval> | 0} */
let asking = 0;

// Drawn with the final standings: ask whether a rematch was already made, and again now and then
// until one is (another server process may make it, whose clients alone it tells), then offer one.
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {{tableId: string, token: string}} table
 */
export function renderRematch(state, { tableId, token }) {
  if (!asking) {
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    const ask = () =>
      fetch(`/api/tables/${tableId}/rematch${query}`)
        .then((answer) => (answer.ok ? answer.json() : null))
        .then((found) => rematchNews(state, found))
        .catch(() => {});
    ask();
    asking = setInterval(() => (news ? clearInterval(asking) : ask()), ASK_EVERY_MS);
  }
  show(state);
}

/**
 * The Rematch button: ask the server for a rematch, and go to it (or be told another seat was first).
 * @param {() => import("./table-socket.js").TableState} getState
 * @param {{tableId: string, token: () => string, notice: (text: string) => void}} table
 */
export function wireRematch(getState, { tableId, token, notice }) {
  $("rematch").textContent = WORDS.rematch();
  $("rematch").addEventListener("click", async () => {
    const state = getState();
    const button = /** @type {HTMLButtonElement} */ ($("rematch"));
    button.disabled = true;
    button.textContent = WORDS.starting();
    try {
      const answer = await fetch(`/api/tables/${tableId}/rematch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: token() }),
      });
      const body = await answer.json();
      if (!answer.ok) throw new Error(refusalText(body));
      const secret = tokenOf(body.url);
      if (secret) rememberTable({ table: body.table, token: secret, seat: state.seat });
      if (body.by_seat === state.seat) return location.assign(body.url);
      rematchNews(state, body); // someone else was first: here is this seat's link to it
    } catch (error) {
      notice(WORDS.failed(error.message));
    } finally {
      button.disabled = false;
      button.textContent = WORDS.rematch();
    }
  });
}
