// The review panel's words (every string it shows) and how it writes numbers, cards and names.

import { cardSymbol, lang, t } from "./i18n.js";

// From the page's language catalogue (i18n.js): review.* keys; a sentence about "you" or a named
// seat is two keys (review.handYou, review.handOther).
export const TEXT = {
  reviewRound: (/** @type {number} */ n) => t("review.round", { n }),
  get reviewGame() { return t("review.game"); },
  get reviewButton() { return t("review.button"); },
  title: (/** @type {string} */ who, /** @type {number | null} */ round) => (round ? t("review.titleRound", { round, who }) : t("review.titleGame", { who })),
  get close() { return t("review.close"); },
  running: (/** @type {number} */ done, /** @type {number} */ total) => (total ? t("review.running", { done, total }) : t("review.runningStart")),
  get failed() { return t("review.failed"); },
  get retry() { return t("review.retry"); },
  outcome: (/** @type {number} */ bid, /** @type {number} */ took, /** @type {number} */ points) => t("review.outcome", { bid, took, points }),
  luck: (/** @type {string} */ value) => t("review.luck", { value }),
  get luckTitle() { return t("review.luckTitle"); },
  lost: (/** @type {string} */ bidding, /** @type {string} */ play) => t("review.lost", { bidding, play }),
  get lostTitle() { return t("review.lostTitle"); },
  gameLine: (/** @type {number} */ score, /** @type {string} */ luck, /** @type {string} */ bidding, /** @type {string} */ play, /** @type {string | null} */ name) =>
    name ? t("review.gameLineOther", { score, luck, bidding, play, name }) : t("review.gameLineYou", { score, luck, bidding, play }),
  get mistakesTitle() { return t("review.mistakesTitle"); },
  get noMistakes() { return t("review.noMistakes"); },
  mistake: (/** @type {number} */ round, /** @type {string} */ what, /** @type {string} */ cost) => t("review.mistake", { round, what, cost }),
  get rounds() { return t("review.rounds"); },
  roundChip: (/** @type {number} */ n) => `${n}`,
  roundChipTitle: (/** @type {number} */ n, /** @type {number} */ flags) => (flags ? t("review.chipTitleFlagged", { n, flags }) : t("review.chipTitle", { n })),
  step: (/** @type {number} */ i, /** @type {number} */ n) => t("review.step", { i, n }),
  get prev() { return t("review.prev"); },
  get next() { return t("review.next"); },
  get stepBid() { return t("review.stepBid"); },
  stepCard: (/** @type {number} */ trick) => t("review.stepCard", { trick }),
  get seatLabel() { return t("review.seatLabel"); },
  get trump() { return t("table.trumpCaption"); },
  get noTrump() { return t("review.noTrump"); },
  youLead: (/** @type {number} */ trick, /** @type {string | null} */ name) => (name ? t("review.otherLeads", { trick, name }) : t("review.youLead", { trick })),
  onTable: (/** @type {number} */ trick) => t("review.onTable", { trick }),
  get player() { return t("table.colPlayer"); },
  get bid() { return t("table.colBid"); },
  get tricks() { return t("review.tricks"); },
  hand: (/** @type {string | null} */ name) => (name ? t("review.handOther", { name }) : t("review.handYou")),
  get you() { return t("table.lobby.you"); },
  chosenBid: (/** @type {import('./review-data.js').Choice} */ bid, /** @type {string | null} */ name) => (name ? t("review.chosenBidOther", { bid, name }) : t("review.chosenBidYou", { bid })),
  chosenCard: (/** @type {string} */ card, /** @type {string | null} */ name) => (name ? t("review.chosenCardOther", { card, name }) : t("review.chosenCardYou", { card })),
  get forced() { return t("review.forced"); },
  get verdictGood() { return t("review.verdictGood"); },
  verdictClose: (/** @type {string} */ cost) => t("review.verdictClose", { cost }),
  verdictBad: (/** @type {string} */ cost) => t("review.verdictBad", { cost }),
  expertBid: (/** @type {import('./review-data.js').Choice} */ bid) => t("review.expertBid", { bid }),
  expertCard: (/** @type {string} */ card) => t("review.expertCard", { card }),
  value: (/** @type {string} */ points, /** @type {string} */ make) => t("review.value", { points, make }),
  safest: (/** @type {string} */ choice, /** @type {string} */ make) => t("review.safest", { choice, make }),
  get choices() { return t("review.choices"); },
  choiceBid: (/** @type {number} */ bid) => t("review.choiceBid", { bid }),
  footnote: (/** @type {number} */ deals) => t("review.footnote", { deals: deals.toLocaleString(lang) }),
  get nothingYet() { return t("review.nothingYet"); },
  get dotBid() { return t("review.dotBid"); }, // a bid's step: its word's first letter
};

// One decimal, as the page's language writes it ("1.5", "1,5").
const decimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** @param {number} value */
export const fixed = (value) => decimal.format(Math.round(value * 10) / 10 + 0); // + 0: no "-0.0"
const percentage = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
/** @param {number} value */
export const percent = (value) => percentage.format(value);

/** A table name without its bot label ("Bob (basic)" → "Bob"), where room is short.
 * @param {string} name */
export const short = (name) => name.replace(/ \([^)]*\)$/, "");

/** A choice in few characters: a bid in words, a card as its symbol ("Q♥").
 * @param {import("./review-data.js").Choice} choice */
export const choiceText = (choice) => (typeof choice === "number" ? TEXT.choiceBid(choice) : cardSymbol(choice));
