// The score sheet, drawn alike on the table page and the score keeper's page.
// It draws one shape: upriver.sheet.ScoreSheet.to_json() (players, rounds, rows of cells, totals,
// headline); every number in it comes from the server (the engine). Each page styles it with its
// own colours; sheet.css (loaded from here) holds the layout both share.

export const SUITS = {
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
  H: { symbol: "♥", name: "hearts", red: true },
  S: { symbol: "♠", name: "spades", red: false },
};

const SVG = "http://www.w3.org/2000/svg";

(function loadStyle() {
  const href = new URL("sheet.css", import.meta.url).href;
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
})();

/**
 * A new element: `attrs` (on… listeners, class, style through the CSSOM, the rest as attributes;
 * null, undefined and false left out) and `children` (nodes or text). The keeper's page uses it too.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value; // the CSP allows the CSSOM, not style attributes
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;
const shown = (value) => (value === null ? "·" : String(value));

/** The trump suit as its symbol, named for screen readers; a dash for none or not noted. */
export function suitText(code) {
  const suit = SUITS[code];
  if (!suit) return el("span", { class: "no-trump", title: "no trump noted" }, "–");
  return el("span", { class: suit.red ? "red" : "", title: suit.name, "aria-label": suit.name }, suit.symbol);
}

/**
 * Fill `table` with `sheet`: a row per round (its number, cards and dealer; its trump; each
 * player's bid/tricks +score over the running total), and under a flagged round its note.
 * `onEdit(number)`, when given, adds a column of edit buttons. `caption` puts the headline on top.
 */
export function drawSheet(table, sheet, { onEdit = null, caption = false } = {}) {
  table.classList.add("sheet");
  const head = el("tr", {},
    el("th", { class: "rd", scope: "col" }, "Round"),
    el("th", { class: "trump", scope: "col", "aria-label": "Trump" }, "T"),
    ...sheet.players.map((p) => el("th", { scope: "col" }, p)),
    onEdit ? el("th", { scope: "col" }, el("span", { class: "muted" }, "Fix")) : null);
  const body = el("tbody", {});
  for (const row of sheet.rows) {
    const tr = el("tr", { class: row.status, "data-round": row.number, "data-status": row.status },
      el("th", { class: "rd", scope: "row" }, String(row.number),
        el("span", { class: "bt" }, `${cards(row.hand_size)} · ${sheet.players[row.dealer]}`)),
      el("td", { class: "trump" }, suitText(row.trump)));
    row.cells.forEach((cell, seat) => {
      const mark = cell.made === null ? "" : cell.made ? "made" : "missed";
      const score = cell.score === null ? "" : ` +${cell.score}`;
      const words = cell.made === null ? "" : cell.made ? ", made it" : ", missed";
      tr.append(el("td", {
        class: mark, "data-cell": `${row.number}-${seat}`,
        "aria-label": `${sheet.players[seat]}: bid ${shown(cell.bid)}, took ${shown(cell.tricks)}${words}` +
          (cell.total === null ? "" : `, ${cell.total} in all`),
      },
      el("span", { class: "bt" }, `${shown(cell.bid)}/${shown(cell.tricks)}${score}`),
      el("span", { class: "tot" }, cell.total === null ? "" : String(cell.total))));
    });
    if (onEdit) {
      tr.append(el("td", {}, el("button", {
        type: "button", class: "edit", "aria-label": `Edit round ${row.number}`, onclick: () => onEdit(row.number),
      }, "✎")));
    }
    body.append(tr);
    if (row.note) {
      body.append(el("tr", { class: `note ${row.status}` },
        el("td", { class: "flag", colspan: String(sheet.players.length + 2 + (onEdit ? 1 : 0)) }, `⚠ ${row.note}`)));
    }
  }
  table.replaceChildren(
    ...(caption ? [el("caption", {}, sheet.headline)] : []),
    el("thead", {}, head),
    body);
  return table;
}

/** Running totals per seat after each scored round, round 0 first (all zero). */
export function runningTotals(sheet) {
  const series = [sheet.players.map(() => 0)];
  for (const row of sheet.rows) {
    if (row.status === "scored") series.push(row.cells.map((c) => c.total));
  }
  return series;
}

/**
 * Draw the running totals into `target` (an <svg>): a line per player across the game's rounds,
 * each in `colours[seat]`. Before any round is scored it says so instead.
 */
export function drawChart(target, sheet, { colours }) {
  const series = runningTotals(sheet);
  const W = 320, H = 150, P = 24;
  target.setAttribute("viewBox", `0 0 ${W} ${H}`);
  target.setAttribute("role", "img");
  target.classList.add("sheet-chart");
  if (series.length < 2) {
    target.setAttribute("aria-label", "Totals appear after the first round.");
    target.replaceChildren(svg("text", { x: "10", y: "20", class: "chart-note" }, "Totals appear after the first round."));
    return target;
  }
  target.setAttribute("aria-label",
    `Totals after each round: ${sheet.players.map((p, s) => `${p} ${sheet.totals[s]}`).join(", ")}`);
  const top = Math.max(10, ...series.flat());
  const x = (i) => P + (i / Math.max(1, sheet.rounds)) * (W - 1.5 * P);
  const y = (v) => H - P - (v / top) * (H - 1.5 * P);
  const parts = [
    svg("path", { d: `M${P} ${P / 2} V${H - P} H${W - P / 2}`, class: "axis" }),
    ...[[0, "0"], [top, String(top)]].map(([v, label]) => svg("text", { x: "2", y: String(y(v) + 4), class: "chart-note" }, label)),
  ];
  sheet.players.forEach((p, seat) => {
    const line = svg("polyline", {
      points: series.map((point, i) => `${x(i)},${y(point[seat])}`).join(" "),
      fill: "none", stroke: colours[seat % colours.length], "stroke-width": "2.5",
    });
    line.append(svg("title", {}, p));
    parts.push(line);
  });
  target.replaceChildren(...parts);
  return target;
}

/** The chart's key: each player's name beside their line's colour. */
export function chartLegend(sheet, { colours }) {
  return el("div", { class: "sheet-legend" },
    ...sheet.players.map((p, seat) => el("span", { style: `--c:${colours[seat % colours.length]}` }, p)));
}
