// The score keeper page's words, in one place: each is its catalogue string (keeper.<name> in
// src/upriver/i18n/catalogues, in the page's language: i18n.js), and a sentence that holds a name or
// a number is a function of them. A function returning an array gives the parts of a sentence around
// elements (a name in bold), in the order the language puts them.

import { has, lang, parts, reason, restrictionWhy, sheetHeadline, spokenList, suitName, t } from "./i18n.js";

/**
 * A refusal of the sheet's API, or a flagged round: the server's English sentence (`error` or
 * `message`), the rule broken, the seat it concerns and the facts.
 * @typedef {{error?: string, message?: string, rule?: string, seat?: number | null, facts?: Record<string, any>}} Refusal
 */

export const WORDS = {
  // the server
  unreachable: t("keeper.unreachable"),
  refused: (/** @type {number} */ status) => t("keeper.refused", { status }),
  changedElsewhere: t("keeper.changedElsewhere"),
  notFound: t("keeper.notFound"),
  allSheets: t("keeper.allSheets"),
  // the start
  pageTitle: (/** @type {string} */ title) => t("keeper.pageTitle", { title }),
  keeper: t("keeper.keeper"),
  intro: t("keeper.intro"),
  carryOn: t("keeper.carryOn"),
  yourSheets: t("keeper.yourSheets"),
  untitled: t("keeper.untitled"),
  seat: (/** @type {number} */ n) => t("keeper.seat", { n }),
  player: (/** @type {number} */ n) => t("keeper.player", { n }),
  examples: ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"],
  firstDealer: t("keeper.firstDealer"),
  rulesDecide: t("keeper.rulesDecide"),
  dealForJack: t("keeper.dealForJack"),
  dealsFirst: (/** @type {string} */ who) => t("keeper.dealsFirst", { who }),
  morePlayers: t("keeper.morePlayers"),
  fewerPlayers: t("keeper.fewerPlayers"),
  asPreset: t("keeper.asPreset"),
  newSheet: t("keeper.newSheet"),
  title: t("keeper.title"),
  titleExample: t("keeper.titleExample"),
  seating: t("keeper.seating"),
  rules: t("keeper.rules"),
  ruleOptions: t("keeper.ruleOptions"),
  handSizes: t("keeper.handSizes"),
  handSizesHint: t("keeper.handSizesHint"),
  mostCards: t("keeper.mostCards"),
  bidding: t("keeper.bidding"),
  dealerBid: t("keeper.dealerBid"),
  scoring: t("keeper.scoring"),
  startSheet: t("keeper.startSheet"),
  importRecord: t("keeper.importRecord"),
  importHint: t("keeper.importHint"),
  recordText: t("keeper.recordText"),
  recordFile: t("keeper.recordFile"),
  import: t("keeper.import"),
  chooseFile: t("lobby.choose_file"),
  noFile: t("lobby.no_file"),
  // a sheet
  scoreSheet: t("keeper.scoreSheet"),
  readOnly: t("keeper.readOnly"),
  roundOf: (/** @type {number} */ number, /** @type {number} */ rounds, /** @type {number} */ size) => t("keeper.roundOf", { number, rounds, size }),
  dealsAndBids: (/** @type {HTMLElement} */ dealer, /** @type {HTMLElement} */ bidder) => parts("keeper.dealsAndBids", { dealer, bidder }),
  trumpGroup: t("keeper.trumpGroup"),
  trumpPick: t("keeper.trumpPick"),
  trumpNamed: (/** @type {string} */ code) => t("keeper.trumpNamed", { suit: suitName(code) }),
  trumpShown: t("keeper.trumpShown"),
  thisRound: t("keeper.thisRound"),
  whoDealsFirst: t("keeper.whoDealsFirst"),
  jackProcedure: (/** @type {string} */ who) => t("keeper.jackProcedure", { who }),
  gameOver: t("keeper.gameOver"),
  needsFixing: (/** @type {number} */ number) => t("keeper.needsFixing", { number }),
  editRound: (/** @type {number} */ number) => t("keeper.editRound", { number }),
  undo: t("keeper.undo"),
  bidsSoFar: t("keeper.bidsSoFar"),
  nameBid: (/** @type {string} */ who, /** @type {number | string | null} */ bid) => t("keeper.nameBid", { who, bid }),
  bidTotal: (/** @type {number} */ total, /** @type {number} */ size) => t("keeper.bidTotal", { total, size }),
  whoseBid: (/** @type {string} */ who) => t("keeper.whoseBid", { who }),
  notAllowed: (/** @type {number} */ bid) => t("keeper.notAllowed", { bid }),
  bids: (/** @type {string} */ who, /** @type {number} */ bid) => t("keeper.bids", { who, bid }),
  mayNotBid: (/** @type {string} */ who, /** @type {number[]} */ bids, /** @type {string} */ why) => t("keeper.mayNotBid", { who, bids: spokenList(bids), reason: why }),
  fewer: (/** @type {string} */ label) => t("keeper.fewer", { label }),
  more: (/** @type {string} */ label) => t("keeper.more", { label }),
  bidsHidden: t("keeper.bidsHidden"),
  everyonesBid: t("keeper.everyonesBid"),
  bidOf: (/** @type {string} */ who) => t("keeper.bidOf", { who }),
  enterBids: t("keeper.enterBids"),
  waitingTricks: t("keeper.waitingTricks"),
  tricksTaken: t("keeper.tricksTaken"),
  bidWas: (/** @type {number | null} */ bid) => t("keeper.bidWas", { bid }),
  tricksOf: (/** @type {string} */ who) => t("keeper.tricksOf", { who }),
  trickSum: (/** @type {number} */ sum, /** @type {number} */ size) => t("keeper.trickSum", { sum, size }),
  saveTricks: t("keeper.saveTricks"),
  standings: t("keeper.standings"),
  place: (/** @type {number} */ place, /** @type {string} */ who) => t("keeper.place", { place, who }),
  sheet: t("keeper.sheet"),
  noRound: t("keeper.noRound"),
  sheetHint: t("keeper.sheetHint"),
  chart: t("keeper.chart"),
  chartTitle: t("keeper.chartTitle"),
  exportCsv: t("keeper.exportCsv"),
  exportRecord: t("keeper.exportRecord"),
  exportUnavailable: t("keeper.exportUnavailable"),
  sheetActions: t("keeper.sheetActions"),
  undoLast: t("keeper.undoLast"),
  changeDealer: t("keeper.changeDealer"),
  shareLink: t("keeper.shareLink"),
  shareLabel: t("keeper.shareLabel"),
  copyLink: t("keeper.copyLink"),
  copied: t("keeper.copied"),
  paper: t("keeper.paper"),
  printBlank: t("keeper.printBlank"),
  printFilled: t("keeper.printFilled"),
  printHint: t("keeper.printHint"),
  // fixing
  dealt: (/** @type {number} */ size, /** @type {string} */ who) => t("keeper.dealt", { size, who }),
  bidWord: t("keeper.bidWord"),
  tookWord: t("keeper.tookWord"),
  bidIn: (/** @type {string} */ who, /** @type {number} */ number) => t("keeper.bidIn", { who, number }),
  tricksIn: (/** @type {string} */ who, /** @type {number} */ number) => t("keeper.tricksIn", { who, number }),
  tricksAddUp: (/** @type {number} */ sum, /** @type {number} */ size) => t("keeper.tricksAddUp", { sum, size }),
  tricksDontAddUp: (/** @type {number} */ round, /** @type {number} */ total, /** @type {number} */ size) => reason({ rule: "tricks add up", facts: { round, total, hand_size: size } }),
  editBoth: t("keeper.editBoth"),
  editBids: t("keeper.editBids"),
  saveRound: t("keeper.saveRound"),
  cancel: t("keeper.cancel"),
  changeFirstDealer: t("keeper.changeFirstDealer"),
  whoDealtFirst: t("keeper.whoDealtFirst"),
  dealerHint: t("keeper.dealerHint"),
  // the evening: arrivals, departures, sit-outs, adjustments, the schedule, the statistics
  evening: t("keeper.evening"),
  arrives: t("keeper.arrives"),
  leaves: t("keeper.leaves"),
  sitsOut: t("keeper.sitsOut"),
  adjust: t("keeper.adjust"),
  changeSchedule: t("keeper.changeSchedule"),
  newcomer: t("keeper.newcomer"),
  startsWith: t("keeper.startsWith"),
  start: (/** @type {string} */ how) => t(`keeper.start.${how}`),
  joinHint: (/** @type {number} */ round, /** @type {string} */ last) => t("keeper.joinHint", { round, last }),
  join: t("keeper.join"),
  whoLeaves: t("keeper.whoLeaves"),
  leaveHint: (/** @type {number} */ round) => t("keeper.leaveHint", { round }),
  cardsFrom: (/** @type {number} */ round) => t("keeper.cardsFrom", { round }),
  restNow: (/** @type {string} */ sizes, /** @type {number} */ rounds) => t("keeper.restNow", { sizes, rounds }),
  restArrival: (/** @type {string} */ sizes, /** @type {number} */ rounds) => t("keeper.restArrival", { sizes, rounds }),
  restDeparture: (/** @type {string} */ sizes, /** @type {number} */ rounds) => t("keeper.restDeparture", { sizes, rounds }),
  restSame: (/** @type {string} */ sizes, /** @type {number} */ rounds) => t("keeper.restSame", { sizes, rounds }),
  roundBegun: (/** @type {number} */ round) => t("keeper.roundBegun", { round }),
  tableFull: (/** @type {number} */ most) => t("keeper.tableFull", { most }),
  fewestPlayers: (/** @type {number} */ least) => t("keeper.fewestPlayers", { least }),
  whoSitsOut: t("keeper.whoSitsOut"),
  roundWord: t("keeper.round"),
  points: t("keeper.points"),
  note: t("keeper.note"),
  noteExample: t("keeper.noteExample"),
  save: t("keeper.save"),
  whoFor: t("keeper.whoFor"),
  scheduleHint: (/** @type {number} */ round) => t("keeper.scheduleHint", { round }),
  joined: (/** @type {string} */ name, /** @type {number} */ round, /** @type {number} */ points) => t("keeper.joined", { name, round, points }),
  left: (/** @type {string} */ name, /** @type {number} */ round) => t("keeper.left", { name, round }),
  satOut: (/** @type {string} */ name, /** @type {number} */ round) => t("keeper.satOut", { name, round }),
  adjusted: (/** @type {string} */ name, /** @type {string} */ points, /** @type {number} */ round) => t(round ? "keeper.adjusted" : "keeper.adjustedFirst", { name, points, round }),
  stats: t("keeper.stats"),
  statsPlayer: t("keeper.statsPlayer"),
  statsExact: t("keeper.statsExact"),
  statsOver: t("keeper.statsOver"),
  statsUnder: t("keeper.statsUnder"),
  statsRun: t("keeper.statsRun"),
  sitsOutCell: t("keeper.sitsOutCell"),
  shareGame: t("keeper.shareGame"),
  sharedGame: t("keeper.sharedGame"),
  badLink: t("keeper.badLink"),
  moveUp: (/** @type {string} */ name) => t("keeper.moveUp", { name }),
  earlierNames: t("keeper.earlierNames"),
  // words made from the server's data (its English sentences are kept for English only)
  restriction: (/** @type {import("./i18n.js").Restriction} */ r) => restrictionWhy(r),
  refusal: (/** @type {Refusal} */ data, /** @type {string[]} */ players) => refusal(data, players),
  preset: (/** @type {import("./table-panels.js").Preset} */ p) => `${known(`preset.${p.name}`, p.name)}: ${known(`preset.${p.name}.summary`, p.summary)}`,
  choice: (/** @type {string | number} */ value) => known(`choice.${value}`, String(value)),
  headline: (/** @type {import("./sheet.js").Sheet} */ s) => sheetHeadline(s),
};

// A word chosen at run time (a preset, an option's value), or the server's own when there is none.
/** @param {string} key @param {string} fallback @returns {string} */
function known(key, fallback) {
  return has(key) ? t(key) : fallback;
}

// Refusals whose rule alone says why (no case needed): the catalogue's sentence is the reason.
const WHOLE_RULES = new Set(["tricks add up", "game over", "fix first", "undo", "first jack", "round order"]);

/** The catalogue key of a rule's reason, as i18n.js makes it: "one bid" → "reason.one_bid". @param {unknown} rule */
const reasonKey = (rule) => "reason." + String(rule).toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");

/** Whether the catalogue words this refusal itself, its reason and its facts (the keeper's refusals
 * carry a `case` naming their sentence: upriver.keeper.sheet, changes, commands).
 * @param {Refusal} data */
function worded(data) {
  const facts = data.facts || {};
  if (WHOLE_RULES.has(String(data.rule))) return true;
  return typeof facts.case === "string" && has(`${reasonKey(data.rule)}.${reasonKey(facts.case).slice(7)}`);
}

// A refusal of the sheet's API ({error, rule, seat, facts}) or a flagged round ({message, rule, seat,
// facts}) in the page's language, in the catalogue's words when it has the refusal's own sentence (in
// English too: the server's sentence is for the API's readers); a dealer's bid names the player, as the
// keeper enters it for them.
/** @param {Refusal} data @param {string[]} [players] @returns {string} */
function refusal(data, players = []) {
  const english = data.error || data.message || "";
  const facts = data.facts || {};
  if ((data.rule === "hook" || data.rule === "overbid") && data.seat != null && players[data.seat]) {
    if (lang === "en" && english) return english; // "Bob may not bid 1: with the hook, …; Bob may bid 0 or 2"
    const why = WORDS.restriction({ rule: data.rule, tricks: facts.tricks, others: facts.others });
    return t("keeper.mayNotBid", { who: players[data.seat], bids: String(facts.bid ?? "?"), reason: why });
  }
  if (worded(data)) return reason(data);
  if (lang === "en" || !data.rule) return english;
  return reason(data);
}
