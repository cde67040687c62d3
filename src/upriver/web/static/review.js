// The review panel at the table: after each round, and after the game, the player's own decisions
// one at a time, as the expert judged them from what the player saw then (GET /api/tables/{id}/review).
// It follows the game through app.js's "upriver:state" event and draws only what the server sends.

// ------------------------------------------------------------------ words (every string shown)

import { cardName, lang, reason, shownName, t } from "/static/i18n.js";
import { showTrump } from "/static/table-house.js";

// From the page's language catalogue (i18n.js): review.* keys; a sentence about "you" or a named
// seat is two keys (review.handYou, review.handOther).
const TEXT = {
  reviewRound: (n) => t("review.round", { n }),
  get reviewGame() { return t("review.game"); },
  get reviewButton() { return t("review.button"); },
  title: (who, round) => (round ? t("review.titleRound", { round, who }) : t("review.titleGame", { who })),
  get close() { return t("review.close"); },
  running: (done, total) => (total ? t("review.running", { done, total }) : t("review.runningStart")),
  get failed() { return t("review.failed"); },
  get retry() { return t("review.retry"); },
  outcome: (bid, took, points) => t("review.outcome", { bid, took, points }),
  luck: (value) => t("review.luck", { value }),
  get luckTitle() { return t("review.luckTitle"); },
  lost: (bidding, play) => t("review.lost", { bidding, play }),
  get lostTitle() { return t("review.lostTitle"); },
  gameLine: (score, luck, bidding, play, name) =>
    name ? t("review.gameLineOther", { score, luck, bidding, play, name }) : t("review.gameLineYou", { score, luck, bidding, play }),
  get mistakesTitle() { return t("review.mistakesTitle"); },
  get noMistakes() { return t("review.noMistakes"); },
  mistake: (round, what, cost) => t("review.mistake", { round, what, cost }),
  get rounds() { return t("review.rounds"); },
  roundChip: (n) => `${n}`,
  roundChipTitle: (n, flags) => (flags ? t("review.chipTitleFlagged", { n, flags }) : t("review.chipTitle", { n })),
  step: (i, n) => t("review.step", { i, n }),
  get prev() { return t("review.prev"); },
  get next() { return t("review.next"); },
  get stepBid() { return t("review.stepBid"); },
  stepCard: (trick) => t("review.stepCard", { trick }),
  get seatLabel() { return t("review.seatLabel"); },
  get trump() { return t("table.trumpCaption"); },
  get noTrump() { return t("review.noTrump"); },
  youLead: (trick, name) => (name ? t("review.otherLeads", { trick, name }) : t("review.youLead", { trick })),
  onTable: (trick) => t("review.onTable", { trick }),
  get player() { return t("table.colPlayer"); },
  get bid() { return t("table.colBid"); },
  get tricks() { return t("review.tricks"); },
  hand: (name) => (name ? t("review.handOther", { name }) : t("review.handYou")),
  get you() { return t("table.lobby.you"); },
  chosenBid: (bid, name) => (name ? t("review.chosenBidOther", { bid, name }) : t("review.chosenBidYou", { bid })),
  chosenCard: (card, name) => (name ? t("review.chosenCardOther", { card, name }) : t("review.chosenCardYou", { card })),
  get forced() { return t("review.forced"); },
  get verdictGood() { return t("review.verdictGood"); },
  verdictClose: (cost) => t("review.verdictClose", { cost }),
  verdictBad: (cost) => t("review.verdictBad", { cost }),
  expertBid: (bid) => t("review.expertBid", { bid }),
  expertCard: (card) => t("review.expertCard", { card }),
  value: (points, make) => t("review.value", { points, make }),
  safest: (choice, make) => t("review.safest", { choice, make }),
  get choices() { return t("review.choices"); },
  choiceBid: (bid) => t("review.choiceBid", { bid }),
  footnote: (deals) => t("review.footnote", { deals: deals.toLocaleString(lang) }),
  get nothingYet() { return t("review.nothingYet"); },
  get dotBid() { return t("review.dotBid"); }, // a bid's step: its word's first letter
};

const SUITS = { C: ["♣", "clubs", "black"], D: ["♦", "diamonds", "red"], H: ["♥", "hearts", "red"], S: ["♠", "spades", "black"] };
const POLL_MS = 600;

// ------------------------------------------------------------------ state

let ctx = null; // {tableId, token, seat} of this page
let game = null; // the last state's game part
let finished = 0; // rounds finished so far
let view = null; // what the panel shows: {round|null, seat, data, roundIndex, step}
let pollTimer = 0;
let asked = null; // the request being polled
let opener = null; // the button that opened the panel: the keyboard goes back to it on closing

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};
// One decimal, as the page's language writes it ("1.5", "1,5").
const decimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const fixed = (value) => decimal.format(Math.round(value * 10) / 10 + 0); // + 0: no "-0.0"
const percentage = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
const percent = (value) => percentage.format(value);

const cardWords = cardName;

function cardSymbol(text) {
  return `${text[0] === "T" ? "10" : text[0]}${SUITS[text[1]][0]}`;
}

function cardFace(text) {
  const [symbol, suit, colour] = SUITS[text[1]];
  const face = el("div", `card ${suit} ${colour}`);
  face.dataset.card = text;
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", cardWords(text));
  face.append(el("span", "rank", text[0] === "T" ? "10" : text[0]), el("span", "pip", symbol));
  return face;
}

// The reviewed seat in words: null (the sentence says "you") for this page's own seat, else its name.
const other = () => (view && view.data && view.data.seat !== ctx.seat ? view.data.review.players[view.data.seat] : null);
// A table name without its bot label ("Bob (basic)" → "Bob"), where room is short.
const short = (name) => name.replace(/ \([^)]*\)$/, "");

const choiceText = (choice) => (typeof choice === "number" ? TEXT.choiceBid(choice) : cardSymbol(choice));

// ------------------------------------------------------------------ following the game

function stylesheet() {
  if (document.querySelector('link[href="/static/review.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/review.css";
  document.head.append(link);
}

function launcherButton(id, label, round) {
  let button = $(id);
  if (!button) {
    button = el("button", "review-open");
    button.id = id;
    button.type = "button";
    // The click also reaches the round summary, which closes on any tap: the review takes its place.
    button.addEventListener("click", () => {
      const which = button.dataset.round ? Number(button.dataset.round) : null;
      opener = button;
      openReview(which, ctx.seat);
    });
  }
  button.textContent = label;
  button.dataset.round = round === null ? "" : String(round);
  return button;
}

function follow(detail) {
  ctx = { tableId: detail.tableId, token: detail.token, seat: detail.seat };
  const state = detail.state;
  game = state.game;
  const section = $("review");
  if (!section) return;
  const player = state.role === "player" && ctx.token && game;
  finished = game && game.last_round ? game.last_round.number : 0;
  if (!player || finished === 0) {
    section.hidden = true;
    return;
  }
  stylesheet();
  // A bar under the table, and a button in the round's summary and in the final standings.
  let bar = $("review-bar");
  if (!bar) {
    bar = el("div", "review-bar");
    bar.id = "review-bar";
    section.append(bar);
  }
  const buttons = [launcherButton("review-round-button", TEXT.reviewRound(finished), finished)];
  if (game.over) buttons.push(launcherButton("review-game-button", TEXT.reviewGame, null));
  bar.replaceChildren(...buttons);
  const summary = $("summary");
  if (summary && !$("review-summary-button")) {
    const inSummary = launcherButton("review-summary-button", TEXT.reviewButton, finished);
    inSummary.classList.add("primary");
    summary.append(inSummary);
  }
  if ($("review-summary-button")) $("review-summary-button").dataset.round = String(finished);
  const actions = document.querySelector("#final .final-actions");
  if (game.over && actions && !$("review-final-button")) {
    actions.prepend(launcherButton("review-final-button", TEXT.reviewGame, null));
  }
  section.hidden = false;
  prefetch(finished);
}

// Each round is reviewed as soon as it ends (the server keeps it), so a review asked for later,
// the whole game's included, is mostly ready. The answer is not needed now.
let prefetched = 0;
function prefetch(round) {
  if (round <= prefetched) return;
  prefetched = round;
  const query = new URLSearchParams({ token: ctx.token, round: String(round) });
  fetch(`/api/tables/${ctx.tableId}/review?${query}`).catch(() => {});
}

document.addEventListener("upriver:state", (event) => follow(event.detail));

// ------------------------------------------------------------------ asking the server

function openReview(round, seat) {
  view = { round, seat, data: null, roundIndex: 0, step: 0 };
  asked = { round, seat };
  showPanel();
  poll();
}

async function poll() {
  clearTimeout(pollTimer);
  const request = asked;
  const query = new URLSearchParams({ token: ctx.token, seat: String(request.seat) });
  if (request.round !== null) query.set("round", String(request.round));
  let answer;
  let status;
  try {
    const response = await fetch(`/api/tables/${ctx.tableId}/review?${query}`);
    status = response.status;
    answer = await response.json();
  } catch (error) {
    answer = { error: String(error) };
  }
  if (request !== asked || !view) return; // another review was asked for meanwhile
  if (status === 202) {
    drawRunning(answer.done, answer.total);
    pollTimer = setTimeout(poll, POLL_MS);
    return;
  }
  if (status !== 200) {
    drawFailure(answer.rule ? reason(answer) : answer.error || TEXT.failed);
    return;
  }
  answer.review.players = answer.review.players.map(shownName); // a bot's level in the page's words
  view.data = answer;
  // Open where there is most to learn: the biggest mistake (the game), or the round's first flag.
  const seatReview = answer.review.seats[0];
  const rounds = seatReview.rounds;
  const worst = request.round === null ? seatReview.mistakes[0] : undefined;
  view.roundIndex = worst ? rounds.findIndex((r) => r.round === worst.round) : rounds.length - 1;
  view.step = worst ? worst.step : firstFlagged(rounds[view.roundIndex]);
  draw();
}

function firstFlagged(round) {
  const i = round.decisions.findIndex((d) => d.flagged);
  return i < 0 ? 0 : i;
}

// ------------------------------------------------------------------ the panel

function panel() {
  let box = $("review-panel");
  if (!box) {
    box = el("div", "review-panel");
    box.id = "review-panel";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-labelledby", "review-title");
    box.tabIndex = -1;
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") closePanel();
      if (event.key === "ArrowRight") move(1);
      if (event.key === "ArrowLeft") move(-1);
    });
    $("review").append(box);
  }
  return box;
}

function showPanel() {
  const box = panel();
  box.hidden = false;
  document.body.classList.add("reviewing"); // not "review-open": the launch buttons' class
  drawRunning(0, 0);
  box.focus();
}

function closePanel() {
  clearTimeout(pollTimer);
  asked = null;
  view = null;
  const box = $("review-panel");
  if (box) box.hidden = true;
  document.body.classList.remove("reviewing");
  // The keyboard goes back where it was: the button that opened the review, or, when that one has
  // gone with its panel (the round's summary closes on the tap), the same review's button under the table.
  const back = [opener, $(opener && opener.dataset.round ? "review-round-button" : "review-game-button"), $("review-round-button")];
  const target = back.find((b) => b && b.isConnected && b.offsetParent !== null);
  opener = null;
  if (target) target.focus();
}

function header(title) {
  const top = el("div", "review-head");
  const h = el("h2", "", title);
  h.id = "review-title";
  const close = el("button", "review-close", "✕");
  close.type = "button";
  close.setAttribute("aria-label", TEXT.close);
  close.addEventListener("click", closePanel);
  top.append(h, close);
  return top;
}

function playerName(seat) {
  return game && game.players ? game.players[seat] : `#${seat + 1}`;
}

function drawRunning(done, total) {
  const box = panel();
  const bar = el("progress", "review-progress");
  bar.max = total || 1;
  bar.value = done;
  box.replaceChildren(
    header(TEXT.title(playerName(view ? view.seat : 0), view ? view.round : null)),
    el("p", "review-running", TEXT.running(done, total)),
    bar,
  );
}

function drawFailure(message) {
  const box = panel();
  const again = el("button", "primary", TEXT.retry);
  again.type = "button";
  again.addEventListener("click", () => openReview(view.round, view.seat));
  box.replaceChildren(header(TEXT.title(playerName(view.seat), view.round)), el("p", "error", message), again);
}

function move(delta) {
  if (!view || !view.data) return;
  const rounds = view.data.review.seats[0].rounds;
  const round = rounds[view.roundIndex];
  const next = view.step + delta;
  if (next >= 0 && next < round.decisions.length) {
    view.step = next;
  } else if (next < 0 && view.roundIndex > 0) {
    view.roundIndex -= 1;
    view.step = rounds[view.roundIndex].decisions.length - 1;
  } else if (next >= round.decisions.length && view.roundIndex < rounds.length - 1) {
    view.roundIndex += 1;
    view.step = 0;
  } else {
    return;
  }
  draw();
}

function draw() {
  const box = panel();
  const seatReview = view.data.review.seats[0];
  const rounds = seatReview.rounds;
  const round = rounds[view.roundIndex];
  const decision = round.decisions[view.step];
  const parts = [header(TEXT.title(seatReview.player, view.round))];
  if (view.data.others) parts.push(seatPicker());
  if (view.round === null) parts.push(gameSummary(seatReview), roundStrip(rounds));
  // The verdict first, then the position it is about: what to learn, then why.
  parts.push(roundLine(round), steps(round), verdict(decision), position(decision, round));
  parts.push(el("p", "hint review-foot", TEXT.footnote(view.data.review.deals)));
  box.replaceChildren(...parts);
}

function seatPicker() {
  const label = el("label", "review-seat", TEXT.seatLabel + " ");
  const select = el("select");
  view.data.review.players.forEach((name, seat) => {
    const option = el("option", "", name);
    option.value = String(seat);
    option.selected = seat === view.seat;
    select.append(option);
  });
  select.addEventListener("change", () => openReview(view.round, Number(select.value)));
  label.append(select);
  return label;
}

function gameSummary(seatReview) {
  const box = el("div", "review-game");
  box.append(
    el("p", "review-game-line", TEXT.gameLine(seatReview.score, fixed(seatReview.luck), fixed(seatReview.bidding), fixed(seatReview.play), other())),
  );
  box.append(el("h3", "", TEXT.mistakesTitle));
  if (!seatReview.mistakes.length) {
    box.append(el("p", "hint", TEXT.noMistakes));
    return box;
  }
  const list = el("ol", "review-mistakes");
  for (const mistake of seatReview.mistakes) {
    const index = seatReview.rounds.findIndex((r) => r.round === mistake.round);
    const decision = seatReview.rounds[index].decisions[mistake.step];
    const what = decision.kind === "bid" ? TEXT.stepBid : TEXT.stepCard(decision.position.trick_number);
    const link = el("button", "review-link", TEXT.mistake(mistake.round, what, fixed(mistake.cost)));
    link.type = "button";
    link.addEventListener("click", () => {
      view.roundIndex = index;
      view.step = mistake.step;
      draw();
    });
    const item = el("li");
    item.append(link);
    list.append(item);
  }
  box.append(list);
  return box;
}

function roundStrip(rounds) {
  const strip = el("div", "review-rounds");
  strip.setAttribute("role", "group");
  strip.setAttribute("aria-label", TEXT.rounds);
  strip.append(el("span", "review-rounds-label", TEXT.rounds));
  rounds.forEach((round, index) => {
    const chip = el("button", "review-chip", TEXT.roundChip(round.round));
    chip.type = "button";
    chip.title = TEXT.roundChipTitle(round.round, round.flagged);
    chip.setAttribute("aria-label", chip.title);
    chip.classList.toggle("flagged", round.flagged > 0);
    chip.classList.toggle("current", index === view.roundIndex);
    if (index === view.roundIndex) chip.setAttribute("aria-current", "true");
    chip.addEventListener("click", () => {
      view.roundIndex = index;
      view.step = firstFlagged(round);
      draw();
    });
    strip.append(chip);
  });
  return strip;
}

function roundLine(round) {
  const line = el("p", "review-round-line");
  const outcome = el("span", "review-outcome", TEXT.outcome(round.bid, round.tricks, round.score));
  const luck = el("span", "review-luck", TEXT.luck(round.luck === null ? "–" : fixed(round.luck)));
  luck.title = TEXT.luckTitle;
  const lost = el("span", "review-lost", TEXT.lost(fixed(round.bidding), fixed(round.play)));
  lost.title = TEXT.lostTitle;
  line.append(outcome, luck, lost);
  return line;
}

function steps(round) {
  const nav = el("div", "review-steps");
  const back = el("button", "review-prev", TEXT.prev);
  back.type = "button";
  back.addEventListener("click", () => move(-1));
  const forward = el("button", "review-next primary", TEXT.next);
  forward.type = "button";
  forward.addEventListener("click", () => move(1));
  const rounds = view.data.review.seats[0].rounds;
  back.disabled = view.step === 0 && view.roundIndex === 0;
  forward.disabled = view.step === round.decisions.length - 1 && view.roundIndex === rounds.length - 1;
  const dots = el("div", "review-dots");
  round.decisions.forEach((d, i) => {
    const dot = el("button", "review-dot", d.kind === "bid" ? TEXT.dotBid : String(d.position.trick_number));
    dot.type = "button";
    dot.classList.toggle("flagged", d.flagged);
    dot.classList.toggle("forced", d.forced);
    dot.classList.toggle("current", i === view.step);
    dot.setAttribute("aria-label", d.kind === "bid" ? TEXT.stepBid : TEXT.stepCard(d.position.trick_number));
    if (i === view.step) dot.setAttribute("aria-current", "step");
    dot.addEventListener("click", () => {
      view.step = i;
      draw();
    });
    dots.append(dot);
  });
  const count = el("span", "review-count", TEXT.step(view.step + 1, round.decisions.length));
  nav.append(back, dots, count, forward);
  return nav;
}

function position(decision) {
  const pos = decision.position;
  const seat = view.data.seat;
  const names = view.data.review.players;
  const box = el("div", `review-position ${decision.kind === "bid" ? "bid-step" : "card-step"}`);
  const table = el("div", "review-felt");
  const trump = el("div", "review-trump");
  trump.append(el("span", "caption", pos.turned || pos.trump ? TEXT.trump : TEXT.noTrump));
  if (pos.turned) trump.append(cardFace(pos.turned));
  else if (pos.trump) showTrump(trump.appendChild(document.createElement("div")), null, pos.trump); // trump rotates: its suit
  const trick = el("div", "review-trick");
  if (decision.kind !== "bid") {
    trick.append(el("span", "caption", pos.trick.length ? TEXT.onTable(pos.trick_number) : TEXT.youLead(pos.trick_number, other())));
    const cards = el("div", "review-trick-cards");
    for (const [who, card] of pos.trick) {
      const figure = el("figure");
      const caption = el("figcaption", "", short(names[who]));
      caption.title = names[who];
      figure.append(cardFace(card), caption);
      cards.append(figure);
    }
    trick.append(cards);
  }
  table.append(trump);
  if (decision.kind !== "bid") table.append(trick);
  // Bids and tricks so far, in bidding order from the dealer's left, as the player saw them.
  const grid = el("table", "review-bids");
  const head = el("tr");
  head.append(el("th", "", TEXT.player), el("th", "", TEXT.bid), el("th", "", TEXT.tricks));
  grid.append(head);
  const n = names.length;
  for (let i = 1; i <= n; i += 1) {
    const who = (pos.dealer + i) % n;
    const row = el("tr", who === seat ? "me" : "");
    const bid = pos.bids[who];
    row.append(
      el("td", "", who === ctx.seat ? `${names[who]} (${TEXT.you})` : names[who]),
      el("td", "", bid === null ? "–" : String(bid)),
      el("td", "", decision.kind === "bid" ? "–" : String(pos.tricks_won[who])),
    );
    grid.append(row);
  }
  const hand = el("div", "review-hand");
  hand.setAttribute("aria-label", TEXT.hand(other()));
  for (const card of pos.hand) {
    const face = cardFace(card);
    if (decision.kind === "card") {
      if (card === decision.chosen) face.classList.add("chosen", decision.flagged ? "bad" : "ok");
      if (card === decision.best && card !== decision.chosen) face.classList.add("best");
      if (!pos.legal.includes(card)) face.classList.add("illegal");
    }
    hand.append(face);
  }
  box.append(table, grid, el("h3", "review-hand-title", TEXT.hand(other())), hand);
  return box;
}

function verdict(decision) {
  const box = el("div", `review-verdict${decision.flagged ? " flagged" : ""}`);
  const chosen =
    decision.kind === "bid" ? TEXT.chosenBid(decision.chosen, other()) : TEXT.chosenCard(cardSymbol(decision.chosen), other());
  box.append(el("p", "review-chosen", chosen));
  if (decision.forced && !decision.candidates.length) {
    box.append(el("p", "hint", TEXT.forced));
    return box;
  }
  const same = decision.chosen === decision.best;
  const line = decision.flagged
    ? TEXT.verdictBad(fixed(decision.cost))
    : same || decision.forced
      ? TEXT.verdictGood
      : TEXT.verdictClose(fixed(decision.cost));
  box.append(el("p", "review-judgement", decision.forced ? TEXT.forced : line));
  box.append(el("p", "review-value", TEXT.value(fixed(decision.expected), percent(decision.make))));
  if (!same) {
    const expert = decision.kind === "bid" ? TEXT.expertBid(decision.best) : TEXT.expertCard(cardSymbol(decision.best));
    box.append(el("p", "review-expert", `${expert}: ${TEXT.value(fixed(decision.best_expected), percent(decision.candidates.find((c) => c.choice === decision.best).make))}`));
  }
  if (decision.best_make !== decision.best) {
    box.append(el("p", "hint", TEXT.safest(choiceText(decision.best_make), percent(decision.best_make_chance))));
  }
  if (decision.candidates.length > 1) box.append(choiceBars(decision));
  return box;
}

function choiceBars(decision) {
  const wrap = el("details", "review-choices");
  wrap.append(el("summary", "", TEXT.choices));
  const list = el("ul");
  const sorted = [...decision.candidates].sort((a, b) => b.expected - a.expected);
  const top = Math.max(...sorted.map((c) => c.expected), 1);
  for (const c of sorted) {
    const item = el("li");
    item.classList.toggle("chosen", c.choice === decision.chosen);
    item.classList.toggle("best", c.choice === decision.best);
    const bar = el("span", "bar");
    bar.style.width = `${Math.max(2, (100 * Math.max(0, c.expected)) / top)}%`;
    item.append(el("span", "label", choiceText(c.choice)), bar, el("span", "num", `${fixed(c.expected)} · ${percent(c.make)}`));
    list.append(item);
  }
  wrap.append(list);
  return wrap;
}
