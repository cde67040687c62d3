// The review panel at the table: after each round, and after the game, the player's own decisions
// one at a time, as the expert judged them from what the player saw then (GET /api/tables/{id}/review).
// It follows the game through app.js's "upriver:state" event and draws only what the server sends.
// The panel's words are in review-words.js, the position in review-position.js, the verdict in
// review-verdict.js, the answer's types in review-data.js.

import { reason, shownName } from "./i18n.js";
import { $, el } from "./dom.js";
import { TEXT, fixed } from "./review-words.js";
import { position } from "./review-position.js";
import { verdict } from "./review-verdict.js";

/** @typedef {import("./review-data.js").ReviewAnswer} ReviewAnswer */
/** @typedef {import("./review-data.js").RoundReview} RoundReview */
/** @typedef {import("./review-data.js").SeatReview} SeatReview */

/**
 * What the panel shows: a round's review (`round`) or the game's (null), of `seat`; once the answer
 * is here, `data`, and the decision on screen: `step` of the round at `roundIndex`.
 * @typedef {object} View
 * @property {number | null} round
 * @property {number} seat
 * @property {ReviewAnswer | null} data
 * @property {number} roundIndex
 * @property {number} step
 */

const POLL_MS = 600;

// ------------------------------------------------------------------ state

/** @type {{tableId: string, token: string, seat: number} | null} this page's table, token and seat */
let ctx = null;
/** @type {any} the last state's game part, as the server sent it */
let game = null;
let finished = 0; // rounds finished so far
/** @type {View | null} */
let view = null;
let pollTimer = 0;
/** @type {{round: number | null, seat: number} | null} the request being polled */
let asked = null;
/** @type {HTMLElement | null} the button that opened the panel: the keyboard goes back to it on closing */
let opener = null;

/** The reviewed seat in words: null (the sentence says "you") for this page's own seat, else its name. */
const other = () => (view && view.data && view.data.seat !== ctx.seat ? view.data.review.players[view.data.seat] : null);

// ------------------------------------------------------------------ following the game

function stylesheet() {
  if (document.querySelector('link[href="/static/review.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/review.css" }));
}

/**
 * The button `id` that opens the review of `round` (null: the game's), made on first use.
 * @param {string} id
 * @param {string} label
 * @param {number | null} round
 */
function launcherButton(id, label, round) {
  let button = /** @type {HTMLButtonElement | null} */ ($(id));
  if (!button) {
    const made = el("button", { className: "review-open", id, type: "button" });
    // The click also reaches the round summary, which closes on any tap: the review takes its place.
    made.addEventListener("click", () => {
      const which = made.dataset.round ? Number(made.dataset.round) : null;
      opener = made;
      openReview(which, ctx.seat);
    });
    button = made;
  }
  button.textContent = label;
  button.dataset.round = round === null ? "" : String(round);
  return button;
}

/**
 * Show the review's buttons once a round is over, for a player (not a spectator).
 * @param {{tableId: string, token: string, seat: number, state: any}} detail app.js's "upriver:state"
 */
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
    bar = el("div", { className: "review-bar", id: "review-bar" });
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
/** @param {number} round */
function prefetch(round) {
  if (round <= prefetched) return;
  prefetched = round;
  const query = new URLSearchParams({ token: ctx.token, round: String(round) });
  fetch(`/api/tables/${ctx.tableId}/review?${query}`).catch(() => {});
}

document.addEventListener("upriver:state", (event) => follow(/** @type {CustomEvent} */ (event).detail));

// ------------------------------------------------------------------ asking the server

/**
 * Open the panel on the review of `round` (null: the game's) of `seat`, and ask the server for it.
 * @param {number | null} round
 * @param {number} seat
 */
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
  /** @type {any} the review, its progress ({done, total}) or a refusal */
  let answer;
  let status = 0;
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
  const ready = /** @type {ReviewAnswer} */ (answer);
  ready.review.players = ready.review.players.map(shownName); // a bot's level in the page's words
  view.data = ready;
  // Open where there is most to learn: the biggest mistake (the game), or the round's first flag.
  const seatReview = ready.review.seats[0];
  const rounds = seatReview.rounds;
  const worst = request.round === null ? seatReview.mistakes[0] : undefined;
  view.roundIndex = worst ? rounds.findIndex((r) => r.round === worst.round) : rounds.length - 1;
  view.step = worst ? worst.step : firstFlagged(rounds[view.roundIndex]);
  draw();
}

/** @param {RoundReview} round */
function firstFlagged(round) {
  const i = round.decisions.findIndex((d) => d.flagged);
  return i < 0 ? 0 : i;
}

// ------------------------------------------------------------------ the panel

function panel() {
  let box = $("review-panel");
  if (!box) {
    box = el("div", { className: "review-panel", id: "review-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "review-title", tabIndex: -1 });
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

/** @param {string} title */
function header(title) {
  const close = el("button", { className: "review-close", type: "button", "aria-label": TEXT.close, onclick: closePanel }, "✕");
  return el("div", { className: "review-head" }, el("h2", { id: "review-title" }, title), close);
}

/** @param {number} seat */
function playerName(seat) {
  return game && game.players ? game.players[seat] : `#${seat + 1}`;
}

/**
 * The panel while the server reviews: `done` decisions of `total` (0 of 0: not counted yet).
 * @param {number} done
 * @param {number} total
 */
function drawRunning(done, total) {
  panel().replaceChildren(
    header(TEXT.title(playerName(view ? view.seat : 0), view ? view.round : null)),
    el("p", { className: "review-running" }, TEXT.running(done, total)),
    el("progress", { className: "review-progress", max: total || 1, value: done }),
  );
}

/** @param {string} message */
function drawFailure(message) {
  const again = el("button", { className: "primary", type: "button", onclick: () => openReview(view.round, view.seat) }, TEXT.retry);
  panel().replaceChildren(header(TEXT.title(playerName(view.seat), view.round)), el("p", { className: "error" }, message), again);
}

/**
 * Go `delta` decisions on (1) or back (-1), across rounds in the game's review.
 * @param {number} delta
 */
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

/**
 * Go to decision `step` of the round at `roundIndex`, and draw it.
 * @param {number} roundIndex
 * @param {number} step
 */
function show(roundIndex, step) {
  view.roundIndex = roundIndex;
  view.step = step;
  draw();
}

function draw() {
  const data = view.data;
  const seatReview = data.review.seats[0];
  const rounds = seatReview.rounds;
  const round = rounds[view.roundIndex];
  const decision = round.decisions[view.step];
  /** @type {HTMLElement[]} */
  const parts = [header(TEXT.title(seatReview.player, view.round))];
  if (data.others) parts.push(seatPicker());
  if (view.round === null) parts.push(gameSummary(seatReview), roundStrip(rounds));
  // The verdict first, then the position it is about: what to learn, then why.
  const seats = { names: data.review.players, reviewed: data.seat, own: ctx.seat, who: other() };
  parts.push(roundLine(round), steps(round), verdict(decision, seats.who), position(decision, seats));
  parts.push(el("p", { className: "hint review-foot" }, TEXT.footnote(data.review.deals)));
  panel().replaceChildren(...parts);
}

function seatPicker() {
  const options = view.data.review.players.map((name, seat) => el("option", { value: String(seat), selected: seat === view.seat }, name));
  const select = el("select", {}, options);
  select.addEventListener("change", () => openReview(view.round, Number(select.value)));
  return el("label", { className: "review-seat" }, TEXT.seatLabel + " ", select);
}

/** @param {SeatReview} seatReview */
function gameSummary(seatReview) {
  const box = el("div", { className: "review-game" },
    el("p", { className: "review-game-line" }, TEXT.gameLine(seatReview.score, fixed(seatReview.luck), fixed(seatReview.bidding), fixed(seatReview.play), other())),
    el("h3", {}, TEXT.mistakesTitle));
  if (!seatReview.mistakes.length) {
    box.append(el("p", { className: "hint" }, TEXT.noMistakes));
    return box;
  }
  const items = seatReview.mistakes.map((mistake) => {
    const index = seatReview.rounds.findIndex((r) => r.round === mistake.round);
    const decision = seatReview.rounds[index].decisions[mistake.step];
    const what = decision.kind === "bid" ? TEXT.stepBid : TEXT.stepCard(decision.position.trick_number);
    const link = el("button", { className: "review-link", type: "button", onclick: () => show(index, mistake.step) },
      TEXT.mistake(mistake.round, what, fixed(mistake.cost)));
    return el("li", {}, link);
  });
  box.append(el("ol", { className: "review-mistakes" }, items));
  return box;
}

/** @param {RoundReview[]} rounds */
function roundStrip(rounds) {
  const chips = rounds.map((round, index) => {
    const title = TEXT.roundChipTitle(round.round, round.flagged);
    const current = index === view.roundIndex;
    const chip = el("button", { className: "review-chip", type: "button", title, "aria-label": title, "aria-current": current ? "true" : null,
      onclick: () => show(index, firstFlagged(round)) }, TEXT.roundChip(round.round));
    chip.classList.toggle("flagged", round.flagged > 0);
    chip.classList.toggle("current", current);
    return chip;
  });
  return el("div", { className: "review-rounds", role: "group", "aria-label": TEXT.rounds },
    el("span", { className: "review-rounds-label" }, TEXT.rounds), chips);
}

/** @param {RoundReview} round */
function roundLine(round) {
  return el("p", { className: "review-round-line" },
    el("span", { className: "review-outcome" }, TEXT.outcome(round.bid, round.tricks, round.score)),
    el("span", { className: "review-luck", title: TEXT.luckTitle }, TEXT.luck(round.luck === null ? "–" : fixed(round.luck))),
    el("span", { className: "review-lost", title: TEXT.lostTitle }, TEXT.lost(fixed(round.bidding), fixed(round.play))));
}

/** @param {RoundReview} round */
function steps(round) {
  const rounds = view.data.review.seats[0].rounds;
  const back = el("button", { className: "review-prev", type: "button", onclick: () => move(-1),
    disabled: view.step === 0 && view.roundIndex === 0 }, TEXT.prev);
  const forward = el("button", { className: "review-next primary", type: "button", onclick: () => move(1),
    disabled: view.step === round.decisions.length - 1 && view.roundIndex === rounds.length - 1 }, TEXT.next);
  const dots = round.decisions.map((d, i) => {
    const dot = el("button", { className: "review-dot", type: "button", "aria-label": d.kind === "bid" ? TEXT.stepBid : TEXT.stepCard(d.position.trick_number),
      "aria-current": i === view.step ? "step" : null, onclick: () => show(view.roundIndex, i) },
    d.kind === "bid" ? TEXT.dotBid : String(d.position.trick_number));
    dot.classList.toggle("flagged", d.flagged);
    dot.classList.toggle("forced", d.forced);
    dot.classList.toggle("current", i === view.step);
    return dot;
  });
  const count = el("span", { className: "review-count" }, TEXT.step(view.step + 1, round.decisions.length));
  return el("div", { className: "review-steps" }, back, el("div", { className: "review-dots" }, dots), count, forward);
}
