// What the table shows of the results, around the felt: the bids against the tricks, the last trick,
// a round's summary once its last trick is gathered, the final standings and the score sheet.
// app.js owns the state and decides when each is drawn; this module keeps only which overlay the
// person closed.

import { t } from "/static/i18n.js";
import { chartLegend, drawChart, drawSheet } from "./sheet.js";
import { cardFace } from "./table-cards.js";
import { hiddenBids } from "./table-felt.js";
import { keyboardLikely } from "./table-hand.js";
import { standingsParts, summaryRows } from "./table-panels.js";
import { renderRematch } from "./table-rematch.js";
import { $, all } from "./dom.js";

/**
 * The state's game part (web/play/states.py): the round, the hand, the bids, the trick, the totals.
 * @typedef {Record<string, any>} Game
 */

// Every word this module shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  closedFists: (/** @type {number} */ done, /** @type {number} */ n) => t("table.closedFists", { done, n }),
  noBids: (/** @type {number} */ size) => t("table.noBids", { size }),
  tally: (/** @type {number} */ total, /** @type {number} */ size) => t("table.tally", { total, size }),
  verdict: { under: () => t("table.verdictUnder"), over: () => t("table.verdictOver"), even: () => t("table.verdictEven") },
  summaryTitle: (/** @type {number} */ number, /** @type {number} */ size) => t("table.summaryTitle", { number, size }),
  noTrick: () => t("table.noTrick"),
};

// The bids so far against the tricks ("Bids 3 of 4 — under"); under closed fists, how many have bid.
/** @param {Game} game the game as drawn */
export function renderBidTotal(game) {
  const box = $("bid-total");
  const n = game.players.length;
  if (game.over || (game.phase !== "bidding" && game.phase !== "playing")) {
    box.replaceChildren();
    return;
  }
  if (game.phase === "bidding" && hiddenBids(game)) {
    box.replaceChildren(WORDS.closedFists(n - game.awaiting.length, n));
    return;
  }
  /** @type {number[]} */
  const made = game.bids.filter((/** @type {number | null} */ b) => b !== null);
  if (!made.length) {
    box.replaceChildren(WORDS.noBids(game.hand_size));
    return;
  }
  const total = made.reduce((a, b) => a + b, 0);
  const word = total < game.hand_size ? "under" : total > game.hand_size ? "over" : "even";
  const tally = document.createElement("span");
  tally.className = `tally ${word}`;
  tally.textContent = WORDS.verdict[word]();
  box.dataset.total = String(total);
  box.dataset.verdict = word;
  box.replaceChildren(WORDS.tally(total, game.hand_size), tally);
}

/** @param {Game} game the state's game part */
export function renderLastTrick(game) {
  const last = game.last_trick;
  $("last-trick").replaceChildren(
    ...(last
      ? last.plays.map((/** @type {[number, string]} */ [seat, card]) => {
          const wrap = document.createElement("figure");
          wrap.append(cardFace(card));
          const cap = document.createElement("figcaption");
          cap.textContent = game.players[seat] + (seat === last.winner ? " ✓" : "");
          wrap.append(cap);
          return wrap;
        })
      : [document.createTextNode(WORDS.noTrick())]),
  );
}

// A round's summary, over the table once its last trick is gathered, until the player closes it or
// the next round's first card is played. At the end: the winner(s), a podium and the standings.
/** @type {number | null} */
let dismissedRound = null;
let finalDismissed = false;

/**
 * What the final standings need besides the game: the state (for the rematch), the table and this
 * page's token, and until when the last trick is held (performance.now()'s clock).
 * @typedef {{state: import("./table-socket.js").TableState, tableId: string, token: string | null, holdUntil: number}} Final
 */

/**
 * @param {Game} game
 * @param {boolean} holding
 * @param {Final} final
 */
export function renderSummary(game, holding, final) {
  const box = $("summary");
  // The overlays open just under the header, however many lines it takes.
  document.documentElement.style.setProperty("--bar-h", `${/** @type {HTMLElement} */ (document.querySelector(".bar")).offsetHeight}px`);
  if (game.over) {
    box.hidden = true;
    renderFinal(game, final);
    return;
  }
  $("final").hidden = true;
  const last = game.last_round;
  const open = Boolean(last) && !holding && game.tricks_done === 0 && game.trick.length === 0 && dismissedRound !== last.number;
  box.hidden = !open;
  // While this seat must bid, the summary leaves the foot of a narrow screen for a place in the page
  // under the hand (style.css): it never covers the hand or the bids then. Docked until it closes.
  if (!open) box.classList.remove("docked");
  else if (game.my_turn && game.phase === "bidding") box.classList.add("docked");
  if (!open || box.dataset.round === String(last.number)) return;
  box.dataset.round = last.number;
  $("summary-title").textContent = WORDS.summaryTitle(last.number, last.hand_size);
  $("summary-rows").replaceChildren(...summaryRows(game, last));
}

/**
 * @param {Game} game the state's game part
 * @param {Final} final
 */
function renderFinal(game, { state, tableId, token, holdUntil }) {
  const box = $("final");
  const opening = box.hidden;
  box.hidden = finalDismissed || performance.now() < holdUntil; // the last trick is seen gathered first
  const key = JSON.stringify(game.standings);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    const [winners, steps, items] = standingsParts(game);
    $("winners").textContent = winners;
    $("podium").replaceChildren(...steps);
    $("standings").replaceChildren(...items);
  }
  renderRematch(state, { tableId, token });
  if (opening && !box.hidden) focusFinal(box);
}

// The standings just opened: the keyboard goes to their first choice (Rematch, else the first
// action shown), unless the person had put it elsewhere than the page or the cards.
/** @param {HTMLElement} box */
function focusFinal(box) {
  const active = document.activeElement;
  if (!keyboardLikely()) return; // a touch screen: no ring on Rematch unasked
  if (active && active !== document.body && !$("hand").contains(active) && !$("bids").contains(active)) return;
  const shown = (/** @type {HTMLElement} */ node) => node && !node.hidden && node.offsetParent !== null;
  const target = [$("rematch"), ...all(".final-actions button, .final-actions a", box)].find(shown);
  if (target) target.focus({ preventScroll: true });
}

// The sheet is drawn by sheet.js, as on the score keeper's page.
const CHART_COLOURS = ["#ffd54f", "#4fc3f7", "#ef9a9a", "#a5d6a7", "#ce93d8", "#ffab91", "#b0bec5", "#fff59d"];

/**
 * @param {Game} game the state's game part
 * @param {import("./sheet.js").Sheet | null} sheet the last score sheet (the server skips it when unchanged)
 */
export function renderSheet(game, sheet) {
  if (!sheet) return;
  // The sheet comes once a round; the round's live bids and trick counts come with every state.
  const live = {
    ...sheet,
    rows: sheet.rows.map((row) =>
      row.status === "scored" || row.number !== game.round
        ? row
        : { ...row, status: game.phase, cells: row.cells.map((c, /** @type {number} */ seat) => ({ ...c, bid: game.bids[seat], tricks: game.tricks_won[seat] })) },
    ),
  };
  drawSheet(/** @type {HTMLTableElement} */ ($("sheet")), live, { caption: true, colours: CHART_COLOURS });
  drawChart($("chart"), live, { colours: CHART_COLOURS });
  $("chart-legend")?.remove();
  $("chart").after(Object.assign(chartLegend(live, { colours: CHART_COLOURS }), { id: "chart-legend" }));
}

// The round's summary closes with its ✕ or a tap anywhere on it; the standings with their ✕.
export function installResults() {
  $("summary").addEventListener("click", () => {
    dismissedRound = Number($("summary").dataset.round);
    $("summary").hidden = true;
  });
  $("final-close").addEventListener("click", () => {
    finalDismissed = true;
    $("final").hidden = true;
  });
}
