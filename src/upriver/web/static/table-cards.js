// Card faces, and their names in words (the page's language: i18n.js), for the felt, the hand and
// the last trick.

import { cardName } from "/static/i18n.js";

// Each suit's symbol and its CSS class (the class is a name for the style sheet, not a word shown).
/** @type {Record<string, [string, string]>} */
export const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };

/**
 * A card's face ("QH"): a `tag` element (a button in the hand) with its rank and suit, named in words.
 * @param {string} text
 * @param {string} [tag]
 * @returns {HTMLElement}
 */
export function cardFace(text, tag = "div") {
  const el = document.createElement(tag);
  const [symbol, suit] = SUITS[text[1]];
  el.className = `card ${suit} ${text[1] === "H" || text[1] === "D" ? "red" : "black"}`;
  el.dataset.card = text;
  const rank = text[0] === "T" ? "10" : text[0];
  el.innerHTML = `<span class="rank">${rank}</span><span class="pip">${symbol}</span>`;
  if (tag !== "button") el.setAttribute("aria-label", cardName(text));
  return el;
}
