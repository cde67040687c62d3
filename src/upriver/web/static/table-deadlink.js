// A link that opens nothing any more says so, in a panel that takes the whole page: what happened (a
// heading for each reason the server gives: taken, revoked, bot, moved, reinvited, unknown; or no
// such table), why, in the page's language (i18n.js `reason()`), and where to go: My tables, this
// table as a spectator, the start page. Never a blank page or a bare "disconnected".

import { reason, t } from "/static/i18n.js";
import { $, all } from "./dom.js";

const REASONS = ["taken", "revoked", "bot", "moved", "reinvited", "unknown"];
// The seat is someone else's now, or waits for a new link: no account holds it for this person.
const WATCH_FIRST = ["revoked", "bot", "reinvited"];

/**
 * Why the server closed this page for good: `table` (no such table) or one of REASONS.
 * @param {import("./table-socket.js").ServerMessage} message an `error` of rule `token` or `table`
 * @returns {string}
 */
export function deadReason(message) {
  if (message.rule === "table") return "table";
  const said = message.facts && message.facts.reason;
  return REASONS.includes(said) ? said : "unknown";
}

/**
 * Replace the page with the panel saying why this link opens nothing, and where to go now.
 * @param {import("./table-socket.js").ServerMessage} message the server's `error` (rule `token` or `table`)
 * @param {string} tableId
 */
export function showDeadLink(message, tableId) {
  const why = deadReason(message);
  const panel = $("dead-link");
  panel.dataset.reason = why;
  $("dead-title").textContent = t(`table.dead.title.${why}`);
  // A token refused with no reason the catalogue words is the "unknown" one (check the whole link).
  const refusal = message.rule === "token" && why === "unknown" ? { rule: "token", facts: { ...message.facts, reason: "unknown" } } : message;
  $("dead-why").textContent = reason(refusal);
  $("dead-check").hidden = why !== "table"; // no table: check the link; a finished one is put away after a week
  $("dead-watch-item").hidden = why === "table";
  /** @type {HTMLAnchorElement} */ ($("dead-watch")).href = `/t/${encodeURIComponent(tableId)}`;
  // The way most likely to help comes first: the seat elsewhere (My tables) when it may still be
  // this person's; else watching the game while the host sends a new link.
  const watchFirst = WATCH_FIRST.includes(why);
  const mine = /** @type {HTMLElement} */ ($("dead-mytables").parentElement);
  const watch = $("dead-watch-item");
  if (watchFirst) mine.before(watch);
  else watch.before(mine);
  $("dead-mytables").classList.toggle("primary", !watchFirst);
  $("dead-watch").classList.toggle("primary", watchFirst);
  for (const dialog of /** @type {HTMLDialogElement[]} */ (all("dialog[open]"))) dialog.close();
  const opening = panel.hidden;
  panel.hidden = false;
  document.body.classList.add("is-dead-link");
  if (opening) $("dead-title").focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

/** The seat opens again (a lost join recovered): the page is the table's once more. */
export function hideDeadLink() {
  $("dead-link").hidden = true;
  document.body.classList.remove("is-dead-link");
}
