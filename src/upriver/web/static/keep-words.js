// The score keeper page's words, in one place: each is its catalogue string (keeper.<name> in
// src/upriver/i18n/catalogues, in the page's language: i18n.js), and a sentence that holds a name or
// a number is a function of them. A function returning an array gives the parts of a sentence around
// elements (a name in bold), in the order the language puts them.

import { has, lang, parts, reason, restrictionWhy, sheetHeadline, spokenList, suitName, t } from "./i18n.js";


export const WORDS = {
  // the server
  unreachable: t("keeper.unreachable"),
  refused: (status) => t("keeper.refused", { status }),
  changedElsewhere: t("keeper.changedElsewhere"),
  notFound: t("keeper.notFound"),
  allSheets: t("keeper.allSheets"),
  // the start
  pageTitle: (title) => t("keeper.pageTitle", { title }),
  keeper: t("keeper.keeper"),
  intro: t("keeper.intro"),
  carryOn: t("keeper.carryOn"),
  yourSheets: t("keeper.yourSheets"),
  untitled: t("keeper.untitled"),
  seat: (n) => t("keeper.seat", { n }),
  player: (n) => t("keeper.player", { n }),
  examples: ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"],
  firstDealer: t("keeper.firstDealer"),
  rulesDecide: t("keeper.rulesDecide"),
  dealForJack: t("keeper.dealForJack"),
  dealsFirst: (who) => t("keeper.dealsFirst", { who }),
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
  roundOf: (number, rounds, size) => t("keeper.roundOf", { number, rounds, size }),
  dealsAndBids: (dealer, bidder) => parts("keeper.dealsAndBids", { dealer, bidder }),
  trumpGroup: t("keeper.trumpGroup"),
  trumpPick: t("keeper.trumpPick"),
  trumpNamed: (code) => t("keeper.trumpNamed", { suit: suitName(code) }),
  trumpShown: t("keeper.trumpShown"),
  thisRound: t("keeper.thisRound"),
  whoDealsFirst: t("keeper.whoDealsFirst"),
  jackProcedure: (who) => t("keeper.jackProcedure", { who }),
  gameOver: t("keeper.gameOver"),
  needsFixing: (number) => t("keeper.needsFixing", { number }),
  editRound: (number) => t("keeper.editRound", { number }),
  undo: t("keeper.undo"),
  bidsSoFar: t("keeper.bidsSoFar"),
  nameBid: (who, bid) => t("keeper.nameBid", { who, bid }),
  bidTotal: (total, size) => t("keeper.bidTotal", { total, size }),
  whoseBid: (who) => t("keeper.whoseBid", { who }),
  notAllowed: (bid) => t("keeper.notAllowed", { bid }),
  bids: (who, bid) => t("keeper.bids", { who, bid }),
  mayNotBid: (who, bids, reason) => t("keeper.mayNotBid", { who, bids: spokenList(bids), reason }),
  fewer: (label) => t("keeper.fewer", { label }),
  more: (label) => t("keeper.more", { label }),
  bidsHidden: t("keeper.bidsHidden"),
  everyonesBid: t("keeper.everyonesBid"),
  bidOf: (who) => t("keeper.bidOf", { who }),
  enterBids: t("keeper.enterBids"),
  waitingTricks: t("keeper.waitingTricks"),
  tricksTaken: t("keeper.tricksTaken"),
  bidWas: (bid) => t("keeper.bidWas", { bid }),
  tricksOf: (who) => t("keeper.tricksOf", { who }),
  trickSum: (sum, size) => t("keeper.trickSum", { sum, size }),
  saveTricks: t("keeper.saveTricks"),
  standings: t("keeper.standings"),
  place: (place, who) => t("keeper.place", { place, who }),
  sheet: t("keeper.sheet"),
  noRound: t("keeper.noRound"),
  sheetHint: t("keeper.sheetHint"),
  chart: t("keeper.chart"),
  chartTitle: t("keeper.chartTitle"),
  exportCsv: t("keeper.exportCsv"),
  exportRecord: t("keeper.exportRecord"),
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
  dealt: (size, who) => t("keeper.dealt", { size, who }),
  bidWord: t("keeper.bidWord"),
  tookWord: t("keeper.tookWord"),
  bidIn: (who, number) => t("keeper.bidIn", { who, number }),
  tricksIn: (who, number) => t("keeper.tricksIn", { who, number }),
  tricksAddUp: (sum, size) => t("keeper.tricksAddUp", { sum, size }),
  tricksDontAddUp: (round, total, size) => reason({ rule: "tricks add up", facts: { round, total, hand_size: size } }),
  editBoth: t("keeper.editBoth"),
  editBids: t("keeper.editBids"),
  saveRound: t("keeper.saveRound"),
  cancel: t("keeper.cancel"),
  changeFirstDealer: t("keeper.changeFirstDealer"),
  whoDealtFirst: t("keeper.whoDealtFirst"),
  dealerHint: t("keeper.dealerHint"),
  // words made from the server's data (its English sentences are kept for English only)
  restriction: (r) => restrictionWhy(r),
  refusal: (data, players) => refusal(data, players),
  preset: (p) => `${known(`preset.${p.name}`, p.name)}: ${known(`preset.${p.name}.summary`, p.summary)}`,
  choice: (value) => known(`choice.${value}`, String(value)),
  headline: (s) => sheetHeadline(s),
};

// A word chosen at run time (a preset, an option's value), or the server's own when there is none.
function known(key, fallback) {
  return has(key) ? t(key) : fallback;
}

// A refusal of the sheet's API ({error, rule, seat, facts}) or a flagged round ({message, rule, seat,
// facts}) in the page's language: a dealer's bid names the player, as the keeper enters it for them.
function refusal(data, players = []) {
  const english = data.error || data.message || "";
  if (data.rule === "tricks add up") return reason(data); // a sentence in every language, "1 trick was played"
  if (lang === "en" || !data.rule) return english;
  const facts = data.facts || {};
  if ((data.rule === "hook" || data.rule === "overbid") && data.seat != null && players[data.seat]) {
    const why = WORDS.restriction({ rule: data.rule, tricks: facts.tricks, others: facts.others });
    return t("keeper.mayNotBid", { who: players[data.seat], bids: String(facts.bid ?? "?"), reason: why });
  }
  return reason(data);
}

