// What a seat label carries besides its figures: the person's presence, the clock of the seat whose
// turn it is, the robot mark on a bid made automatically, and a reaction for a few seconds. Called by
// the felt for each label before it is measured and laid out (table-felt.js `decorate`).

import { clockMark, markAutomaticBid } from "./table-clock.js";
import { reactionBubble } from "./table-chat.js";
import { presenceMark } from "./table-presence.js";

/**
 * Adds the marks to `label` (seat `seat`) and returns the words they add to its spoken name.
 * @param {import("./table-socket.js").TableState} state
 * @param {number} seat
 * @param {HTMLElement} label
 * @returns {string}
 */
export function decorateSeat(state, seat, label) {
  let words = markAutomaticBid(state, seat, label);
  const row = document.createElement("div");
  row.className = "seat-status";
  for (const mark of [presenceMark(state, seat), clockMark(seat)]) {
    if (!mark) continue;
    row.append(mark.node);
    words += mark.words;
  }
  if (row.childElementCount) label.append(row);
  const bubble = reactionBubble(seat);
  if (bubble) label.append(bubble);
  return words;
}
