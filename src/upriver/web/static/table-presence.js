// Who is here: each seat label's presence mark (online, away and for how long, a bot plays for the
// person, left), an icon and a word, never colour alone; and how many are watching. The state's
// `presence` (one entry a seat) and `watching` say it; a person-seat's mark is drawn with the label
// (so the felt measures it), and the away time is counted on here between states.

import { t } from "/static/i18n.js";
import { $, all, el } from "./dom.js";


// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  online: () => t("table.presence.online"),
  away: () => t("table.presence.away"),
  awayFor: (/** @type {number} */ count) => t("table.presence.awayFor", { count }),
  bot: () => t("table.presence.bot"),
  left: () => t("table.presence.left"),
  onlineTitle: () => t("table.presence.onlineTitle"),
  awayTitle: () => t("table.presence.awayTitle"),
  botTitle: () => t("table.presence.botTitle"),
  leftTitle: () => t("table.presence.leftTitle"),
  spoken: (/** @type {string} */ words) => t("table.presence.spoken", { word: words }),
  watching: (/** @type {number} */ count) => t("table.presence.watching", { count }),
  watchingTitle: () => t("table.presence.watchingTitle"),
};

/**
 * A person-seat's presence as the state carries it (web/play/protocol.py): here ("online"), "away" (since
 * `away_since`, in s since 1970), given to a "bot", or "left"; `auto`: its automatic moves in a row.
 * @typedef {{status: string, away_since: number | null, auto: number}} Presence
 */

/** @type {Record<string, string>} */
const ICONS = { online: "●", away: "◌", bot: "🤖", left: "🚪" };

/**
 * A person-seat's presence, or null (a bot's seat, or a server that does not say).
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 * @returns {Presence | null}
 */
export function presenceOf(state, seat) {
  const list = state && Array.isArray(state.presence) ? state.presence : null;
  const entry = list && list[seat];
  if (!entry || !entry.status) return null;
  const kinds = (state.game && state.game.kinds) || state.lobby.seats.map((/** @type {{kind: string}} */ s) => s.kind);
  if (kinds[seat] && kinds[seat] !== "human") return null; // a bot of the table's own: its name says so
  return entry;
}

// Whole minutes a seat has been away (0 in its first minute), by this browser's clock.
/** @param {Presence} entry */
export function awayMinutes(entry) {
  if (!entry || typeof entry.away_since !== "number") return 0;
  return Math.max(0, Math.floor((Date.now() / 1000 - entry.away_since) / 60));
}

/** @param {Presence} entry */
export function awaySeconds(entry) {
  if (!entry || typeof entry.away_since !== "number") return 0;
  return Math.max(0, Date.now() / 1000 - entry.away_since);
}

/** @param {Presence} entry */
function word(entry) {
  if (entry.status === "away") {
    const minutes = awayMinutes(entry);
    return minutes ? WORDS.awayFor(minutes) : WORDS.away();
  }
  return entry.status === "online" ? WORDS.online() : entry.status === "bot" ? WORDS.bot() : WORDS.left();
}

/** @type {Record<string, "onlineTitle" | "awayTitle" | "botTitle" | "leftTitle">} */
const TITLES = { online: "onlineTitle", away: "awayTitle", bot: "botTitle", left: "leftTitle" };

/**
 * The mark for a seat label, and the words it adds to the label's spoken name ("", if none).
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 */
export function presenceMark(state, seat) {
  const entry = presenceOf(state, seat);
  if (!entry || !ICONS[entry.status]) return null;
  if (seat === state.seat && entry.status === "online") return null; // the page itself says this seat is here
  const mark = document.createElement("div");
  mark.className = `presence ${entry.status}`;
  mark.dataset.status = entry.status;
  mark.title = WORDS[TITLES[entry.status]]();
  const icon = document.createElement("span");
  icon.className = "presence-icon";
  icon.setAttribute("aria-hidden", "true");
  icon.textContent = ICONS[entry.status];
  const text = document.createElement("span");
  text.className = "presence-word";
  text.textContent = word(entry);
  mark.append(icon, text);
  return { node: mark, words: WORDS.spoken(word(entry)) };
}

// The away time goes on between states: each label's word is set again (a minute at a time).
/** @param {import("./table-socket.js").TableState} state */
export function refreshPresence(state) {
  for (const mark of document.querySelectorAll("#seats .seat .presence.away")) {
    const seat = Number(/** @type {HTMLElement} */ (mark.closest(".seat")).dataset.seat);
    const entry = presenceOf(state, seat);
    const text = mark.querySelector(".presence-word");
    if (entry && text && text.textContent !== word(entry)) text.textContent = word(entry);
  }
}

// How many watch the table, for everyone: hidden while nobody does.
/** @param {import("./table-socket.js").TableState} state */
export function renderWatching(state) {
  const box = $("watching");
  if (!box) return;
  const count = typeof state.watching === "number" ? state.watching : 0;
  box.hidden = count <= 0;
  box.title = WORDS.watchingTitle();
  const text = WORDS.watching(count);
  if (box.dataset.count !== String(count)) {
    box.dataset.count = String(count);
    const eye = el("span", { textContent: "👁 " });
    eye.setAttribute("aria-hidden", "true");
    box.replaceChildren(eye, text);
  }
}

// The waiting room's list of seats: each person's presence after their name, as on the felt (drawn
// by style.css from the item's data, so the item's own text stays the seat and the name).
/** @param {import("./table-socket.js").TableState} state */
export function markLobbySeats(state) {
  for (const item of all("#lobby-seats li[data-seat]")) {
    const seat = Number(item.dataset.seat);
    const entry = presenceOf(state, seat);
    const shown = entry && ICONS[entry.status] && state.lobby.seats[seat].joined && !(seat === state.seat && entry.status === "online");
    if (!shown) {
      for (const key of ["presence", "presenceIcon", "presenceWord"]) delete item.dataset[key];
      continue;
    }
    item.dataset.presence = entry.status;
    item.dataset.presenceIcon = ICONS[entry.status];
    item.dataset.presenceWord = word(entry);
  }
}
