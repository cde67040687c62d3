// The table page's panels, built from the state: the rules in words, a round's summary, the podium.
// Pure builders: app.js owns the state and decides when each panel shows.

export const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

export function listNames(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// ------------------------------------------------------------------ the rules, in words

const RULE_WORDS = {
  first_dealer: {
    "first-jack": "The first player dealt a Jack deals first",
    "left-of-keeper": "The player left of the score keeper deals first",
    chosen: "The first dealer was chosen at the table",
  },
  bidding: {
    sequential: "Bids are called in turn, starting left of the dealer",
    simultaneous: "Closed fists: everyone bids at once, and the bids are shown together",
  },
  dealer_bid: {
    free: "The dealer may bid anything",
    hook: "Dealer may not make the bids total the tricks (the hook)",
    overbid: "Dealer must make the bids total more than the tricks (overbid)",
  },
  trump_lead: {
    any: "Trump may be led at any time",
    broken: "Trump may not be led until broken",
  },
  scoring: {
    "ten-plus-bid": "Exact bid: 10 + bid; otherwise 0",
    "tricks-plus-ten": "1 point a trick, plus 10 for an exact bid; no penalty",
  },
};
const CHOICES = Object.keys(RULE_WORDS);

// The preset nearest these rules and the options the table changed from it (none: that preset).
function presetOf(rules, presets) {
  let best = null;
  for (const p of presets || []) {
    const changed = CHOICES.filter((k) => p.options[k] !== rules[k]);
    if (typeof rules.schedule !== "string" || p.options.schedule !== rules.schedule) changed.push("schedule");
    if (!best || changed.length < best[1].length) best = [p, changed];
  }
  return best && best[1].length <= 2 ? best : [null, []];
}

// The sentence naming the rules: a preset, the preset and what the table changed, or its own.
export function presetLine(rules, presets) {
  if (presets === null) return ""; // not known yet
  const [preset, changed] = presetOf(rules, presets);
  if (!preset) return "Rules of this table's own choosing.";
  const what = changed.map((k) => k.replace("_", " ")).join(" and ");
  return changed.length ? `The “${preset.name}” preset, with its own ${what}.` : `Preset “${preset.name}”: ${preset.summary}.`;
}

// Each rule in play as a list item: the schedule as hand sizes, then each option in words.
export function ruleItems(rules) {
  const sizes = rules.hand_sizes;
  const schedule =
    rules.schedule === "up-down"
      ? "up from 1 and back down"
      : rules.schedule === "down-up"
        ? `down from ${sizes[0]} and back up`
        : "as chosen";
  const items = [
    `${plural(sizes.length, "round")}, ${schedule}: ${sizes.join(", ")} cards`,
    ...CHOICES.map((k) => RULE_WORDS[k][rules[k]] || `${k.replace("_", " ")}: ${rules[k]}`),
  ];
  return items.map((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    li.dataset.rule = i ? CHOICES[i - 1] : "schedule";
    return li;
  });
}

// ------------------------------------------------------------------ a round's summary

// One row a seat: name, bid, tricks, points (made or missed), running total.
export function summaryRows(game, last) {
  return game.players.map((player, seat) => {
    const tr = document.createElement("tr");
    const exact = last.bids[seat] === last.tricks[seat];
    tr.className = exact ? "made" : "missed";
    tr.dataset.seat = seat;
    const score = last.scores[seat];
    const cells = [player, last.bids[seat], last.tricks[seat], null, game.totals[seat]];
    tr.append(
      ...cells.map((text, k) => {
        const cell = document.createElement(k ? "td" : "th");
        if (!k) cell.scope = "row";
        if (text !== null) cell.textContent = text;
        else {
          // "made ✓ +10": the word may be left out where the summary is narrow; the mark stays.
          const word = Object.assign(document.createElement("span"), { className: "verdict-word", textContent: exact ? "made " : "missed " });
          cell.append(word, `${exact ? "✓" : "✗"} ${score > 0 ? "+" : ""}${score}`);
        }
        return cell;
      }),
    );
    return tr;
  });
}

// ------------------------------------------------------------------ the end

const PLACES = ["1st", "2nd", "3rd"];

// The winners' sentence, the podium's steps (2nd, 1st, 3rd, as a podium stands) and the standings.
// Standings are [place, seat, total] rows, best first; tied seats share a place (and a step).
export function standingsParts(game) {
  const byPlace = new Map();
  for (const [place, seat, total] of game.standings) {
    if (!byPlace.has(place)) byPlace.set(place, { names: [], total });
    byPlace.get(place).names.push(game.players[seat]);
  }
  const first = byPlace.get(1) || { names: [], total: 0 };
  const winners =
    first.names.length > 1
      ? `${listNames(first.names)} share the win with ${plural(first.total, "point")}!`
      : `${first.names[0]} wins with ${plural(first.total, "point")}!`;
  const steps = [2, 1, 3]
    .filter((place) => byPlace.has(place))
    .map((place) => {
      const step = document.createElement("div");
      step.className = `step place-${place}`;
      step.dataset.place = place;
      const names = document.createElement("div");
      names.className = "names";
      names.textContent = listNames(byPlace.get(place).names);
      const points = document.createElement("div");
      points.className = "points";
      points.textContent = plural(byPlace.get(place).total, "point");
      const block = document.createElement("div");
      block.className = "block";
      block.textContent = PLACES[place - 1];
      step.append(names, points, block);
      return step;
    });
  const items = game.standings.map(([place, seat, total]) => {
    const li = document.createElement("li");
    li.textContent = `${place}. ${game.players[seat]} — ${plural(total, "point")}`;
    return li;
  });
  return [winners, steps, items];
}
