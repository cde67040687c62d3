// The verdict on a reviewed decision: what was chosen, how the expert judged it and what it cost,
// the expert's choice if it was another, and every choice weighed, as bars.

import { cardSymbol } from "./i18n.js";
import { el } from "./dom.js";
import { TEXT, choiceText, fixed, percent } from "./review-words.js";

/** @typedef {import("./review-data.js").Decision} Decision */

/**
 * The verdict on `decision`; `who` is the reviewed seat in words, null ("you") for this page's own.
 * @param {Decision} decision
 * @param {string | null} who
 */
export function verdict(decision, who) {
  const box = el("div", { className: `review-verdict${decision.flagged ? " flagged" : ""}` });
  const chosen = decision.kind === "bid" ? TEXT.chosenBid(decision.chosen, who) : TEXT.chosenCard(cardSymbol(decision.chosen), who);
  box.append(el("p", { className: "review-chosen" }, chosen));
  if (decision.forced && !decision.candidates.length) {
    box.append(el("p", { className: "hint" }, TEXT.forced));
    return box;
  }
  const same = decision.chosen === decision.best;
  const line = decision.flagged
    ? TEXT.verdictBad(fixed(decision.cost))
    : same || decision.forced
      ? TEXT.verdictGood
      : TEXT.verdictClose(fixed(decision.cost));
  box.append(el("p", { className: "review-judgement" }, decision.forced ? TEXT.forced : line));
  box.append(el("p", { className: "review-value" }, TEXT.value(fixed(decision.expected), percent(decision.make))));
  if (!same) {
    const expert = decision.kind === "bid" ? TEXT.expertBid(decision.best) : TEXT.expertCard(cardSymbol(decision.best));
    const best = decision.candidates.find((c) => c.choice === decision.best);
    box.append(el("p", { className: "review-expert" }, `${expert}: ${TEXT.value(fixed(decision.best_expected), percent(best.make))}`));
  }
  if (decision.best_make !== decision.best) {
    box.append(el("p", { className: "hint" }, TEXT.safest(choiceText(decision.best_make), percent(decision.best_make_chance))));
  }
  if (decision.candidates.length > 1) box.append(choiceBars(decision));
  return box;
}

/**
 * Every choice the expert weighed, best first: a bar for the points each is worth.
 * @param {Decision} decision
 */
function choiceBars(decision) {
  const sorted = [...decision.candidates].sort((a, b) => b.expected - a.expected);
  const top = Math.max(...sorted.map((c) => c.expected), 1);
  const items = sorted.map((c) => {
    const bar = el("span", { className: "bar" });
    bar.style.width = `${Math.max(2, (100 * Math.max(0, c.expected)) / top)}%`;
    const item = el("li", {}, el("span", { className: "label" }, choiceText(c.choice)), bar, el("span", { className: "num" }, `${fixed(c.expected)} · ${percent(c.make)}`));
    item.classList.toggle("chosen", c.choice === decision.chosen);
    item.classList.toggle("best", c.choice === decision.best);
    return item;
  });
  return el("details", { className: "review-choices" }, el("summary", {}, TEXT.choices), el("ul", {}, items));
}
