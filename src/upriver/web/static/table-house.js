// The house rules on the felt: the trump of a round when no card is turned (trump that rotates: the
// round's suit, or no trump at all), and the blind one-card round, where a seat sees the card on
// every other player's forehead (face up on their seat) and its own only as a back ("on your
// forehead"). Everything comes from the state as the server sent it for this seat: `turned`,
// `trump` and `foreheads` (the others' cards, never this seat's own); nothing is worked out here.

import { cardName, suitName, t } from "/static/i18n.js";
import { SUITS, cardFace } from "./table-cards.js";
import { el } from "./dom.js";

const WORDS = {
  noTrump: () => t("house.noTrumpRound"),
  trumpSuit: (/** @type {string} */ suit) => t("house.trumpSuit", { suit: suitName(suit) }),
  forehead: () => t("house.forehead"),
  foreheadTitle: () => t("house.foreheadTitle"),
  onForehead: (/** @type {string} */ card) => t("house.onForehead", { card: cardName(card) }),
};

/** Whether this seat's page is in a blind round: the others' cards are shown, its own is not.
 * @param {Record<string, any>} game the state's game part */
export function blindRound(game) {
  return Array.isArray(game.foreheads) && game.foreheads.some((/** @type {string | null} */ card) => card !== null);
}

/** Whether the round on the table is played blind (for everyone, a spectator too): the rules say
 * so and each holds one card.
 * @param {Record<string, any>} game the state's game part */
export function blindAtTable(game) {
  return Boolean(game.rules && game.rules.blind_one_card === true && game.hand_size === 1 && !game.over);
}

/**
 * Fill the felt's trump box: the card turned up, else (trump that rotates) the round's suit as a
 * big symbol with its name, else the words for a round without trump; under it, in a blind round,
 * words that say so (a spectator sees only backs, so the felt tells why nobody looks at a card).
 * @param {HTMLElement} box
 * @param {string | null} turned the card turned up
 * @param {string | null} trump the trump suit's letter, when no card is turned
 * @param {boolean} [blind]
 */
export function showTrump(box, turned, trump, blind = false) {
  const key = `${turned ? `card:${turned}` : trump ? `suit:${trump}` : "none"}${blind ? ":blind" : ""}`;
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  const note = blind ? el("div", { className: "blind-note", textContent: t("house.blindNote") }) : null;
  if (turned) {
    box.replaceChildren(cardFace(turned));
    if (note) box.append(note);
    return;
  }
  if (trump) {
    const [symbol, suit] = SUITS[trump];
    const tile = document.createElement("div");
    tile.className = `trump-suit ${suit} ${trump === "H" || trump === "D" ? "red" : "black"}`;
    tile.dataset.suit = trump;
    tile.setAttribute("role", "img");
    tile.setAttribute("aria-label", WORDS.trumpSuit(trump));
    const pip = el("span", { className: "pip", textContent: symbol });
    const name = el("span", { className: "suit-word", textContent: suitName(trump) });
    tile.append(pip, name);
    box.replaceChildren(tile);
    if (note) box.append(note);
    return;
  }
  const none = el("div", { className: "trump-none", textContent: WORDS.noTrump() });
  box.replaceChildren(none);
  if (note) box.append(note);
}

/** The card on another seat's forehead, face up and small, for its label; with the words for it.
 * @param {Record<string, any>} game the state's game part
 * @param {number} seat */
export function foreheadMark(game, seat) {
  const card = Array.isArray(game.foreheads) ? game.foreheads[seat] : null;
  if (!card) return null;
  const face = cardFace(card);
  face.classList.add("forehead");
  face.title = WORDS.onForehead(card);
  return { element: face, words: `, ${WORDS.onForehead(card)}` };
}

/** This seat's own card in a blind round: a back, "on your forehead", which it may not see. */
export function foreheadOwn() {
  const back = document.createElement("div");
  back.className = "card own-forehead";
  back.setAttribute("role", "img");
  back.setAttribute("aria-label", WORDS.foreheadTitle());
  back.title = WORDS.foreheadTitle();
  const words = el("span", { className: "forehead-words", textContent: WORDS.forehead() });
  back.append(words);
  return back;
}
