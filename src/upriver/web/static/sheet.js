// The score sheet, drawn alike on the table page and the score keeper's page.
// It draws one shape: upriver.sheet.ScoreSheet.to_json() (players, rounds, rows of cells, totals,
// headline); every number in it comes from the server (the engine). Each page styles it with its
// own colours; sheet.css (loaded from here) holds the layout both share.

/** @type {Record<string, {symbol: string, name: string, red: boolean}>} */
export const SUITS = {
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
  H: { symbol: "♥", name: "hearts", red: true },
  S: { symbol: "♠", name: "spades", red: false },
};

// Chart.js (vendor/chart.js, MIT) is a classic UMD script: imported for its effect, it sets globalThis.Chart.
import "./vendor/chart.js/chart.umd.min.js";
import { sheetHeadline, suitName, t } from "/static/i18n.js";
import { el } from "./dom.js";

const Chart = globalThis.Chart;

/**
 * A cell of the sheet: a seat's bid and tricks in a round, its points, its running total, and whether
 * it made its bid (null where not yet known).
 * @typedef {{bid: number | null, tricks: number | null, score: number | null, total: number | null, made: boolean | null}} SheetCell
 */

/**
 * A round's row: its number, cards, dealer, trump (a suit's letter, or null), how far it is, a note
 * when it is flagged, and a cell per seat.
 * @typedef {{number: number, hand_size: number, dealer: number, trump: string | null, status: string, note: string | null, cells: SheetCell[]}} SheetRow
 */

/**
 * The sheet as the server sends it (upriver.sheet.ScoreSheet.to_json).
 * @typedef {object} Sheet
 * @property {string[]} players
 * @property {number} rounds
 * @property {SheetRow[]} rows
 * @property {number[]} totals
 * @property {number[]} [leaders]
 * @property {[number, number, number][]} [standings] place, seat and total, the leader first
 * @property {boolean} [complete]
 * @property {string} [headline]
 */

/** Every word this module shows, in one place, from the page's language catalogue (i18n.js). */
const TEXT = {
  get round() { return t("scores.round"); },
  get sheet() { return t("scores.sheet"); },
  get trump() { return t("scores.trump"); },
  get fix() { return t("scores.fix"); },
  get noTrump() { return t("scores.noTrump"); },
  get total() { return t("scores.total"); },
  get start() { return t("scores.start"); },
  get legend() { return t("scores.legend"); },
  get noTotals() { return t("scores.noTotals"); },
  chartSummary: (/** @type {number} */ rounds, /** @type {string} */ totals) => t("scores.chartSummary", { rounds, totals }),
  afterRound: (/** @type {string} */ number) => t("scores.afterRound", { number }),
  tied: (/** @type {string} */ names, /** @type {number} */ total) => t("scores.tied", { names, total }),
  cards: (/** @type {number} */ n) => t("n.cards", { count: n }),
  cell: (/** @type {string} */ player, /** @type {string} */ bid, /** @type {string} */ tricks, /** @type {boolean | null} */ made, /** @type {number | null} */ total) => t("scores.cell", { player, bid, tricks }) +
    (made === null ? "" : made ? t("scores.madeIt") : t("scores.missed")) + (total === null ? "" : t("scores.inAll", { total })),
  edit: (/** @type {number} */ number) => t("scores.edit", { number }),
  headline: (/** @type {Sheet} */ sheet) => sheetHeadline(sheet),
};

(function loadStyle() {
  const href = new URL("sheet.css", import.meta.url).href;
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l instanceof HTMLLinkElement && l.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
})();

const shown = (/** @type {number | null} */ value) => (value === null ? "·" : String(value));

/**
 * A box the sheet scrolls sideways in: the keyboard can focus it and scroll it with the arrow keys,
 * and while the sheet is wider than the box (class "scrolls") the round column keeps its place.
 * @param {HTMLElement} frame
 */
export function scrollsByKeyboard(frame) {
  frame.tabIndex = 0;
  frame.setAttribute("role", "region");
  frame.setAttribute("aria-label", TEXT.sheet);
  if (!frame.dataset.watched) {
    frame.dataset.watched = "1";
    // Where the sheet goes on past the box's edge a fade says so (sheet.css), and the fixed columns
    // cast a shadow once the rest has scrolled under them.
    const edges = () => {
      const scrolls = frame.scrollWidth > frame.clientWidth + 1;
      frame.classList.toggle("scrolls", scrolls);
      frame.classList.toggle("more-left", scrolls && frame.scrollLeft > 1);
      frame.classList.toggle("more-right", scrolls && frame.scrollLeft + frame.clientWidth < frame.scrollWidth - 1);
      const round = /** @type {HTMLElement | null} */ (frame.querySelector("thead th.rd"));
      if (round) frame.style.setProperty("--rd-w", `${round.offsetWidth}px`);
    };
    frame.addEventListener("scroll", edges, { passive: true });
    const watch = new ResizeObserver(edges);
    watch.observe(frame);
    const table = frame.querySelector("table");
    if (table) watch.observe(table); // a sheet grows wider inside an unchanged box
  }
  return frame;
}

/** The colour `node` is seen on: its and its ancestors' backgrounds, see-through ones blended in.
 * @param {Element} node */
function backgroundBehind(node) {
  /** @type {number[][]} */
  const layers = [];
  for (let at = node; at instanceof Element; at = at.parentElement) {
    const [r, g, b, a = 1] = (getComputedStyle(at).backgroundColor.match(/[\d.]+/g) || []).map(Number);
    if (a > 0 && r !== undefined) layers.push([r, g, b, a]);
    if (a === 1 && r !== undefined) break;
  }
  if (!layers.length || layers.at(-1)[3] !== 1) return "Canvas";
  const [r, g, b] = layers.reverse().reduce((under, [r2, g2, b2, a]) =>
    [under[0] * (1 - a) + r2 * a, under[1] * (1 - a) + g2 * a, under[2] * (1 - a) + b2 * a]);
  return `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
}

/** The trump suit as its symbol, named for screen readers; a dash for none or not noted.
 * @param {string | null} code */
export function suitText(code) {
  const suit = SUITS[code];
  if (!suit) return el("span", { class: "no-trump", title: TEXT.noTrump }, "–");
  return el("span", { class: suit.red ? "red" : "", title: suitName(code), "aria-label": suitName(code) }, suit.symbol);
}

/**
 * Fill `table` with `sheet`: a row per round (its number, cards and dealer; its trump; each
 * player's bid/tricks +score over the running total), and under a flagged round its note.
 * `onEdit(number)`, when given, adds a column of edit buttons. `caption` puts the headline on top.
 * `colours`, when given, puts each player's line from the chart (drawChart) over their name.
 * The round column stays in view when the sheet scrolls sideways (a phone), on the page's background.
 * @param {HTMLTableElement} table
 * @param {Sheet} sheet
 * @param {{onEdit?: ((number: number) => void) | null, caption?: boolean, colours?: string[] | null}} [how]
 */
export function drawSheet(table, sheet, { onEdit = null, caption = false, colours = null } = {}) {
  table.classList.add("sheet");
  if (table.isConnected) table.style.setProperty("--sheet-bg", backgroundBehind(table)); // else the page's CSS says
  const frame = table.parentElement;
  if (frame && frame.matches(".sheet-wrap, .sheet-scroll")) scrollsByKeyboard(frame);
  const head = el("tr", {},
    el("th", { class: "rd", scope: "col" }, TEXT.round),
    el("th", { class: "trump", scope: "col", "aria-label": TEXT.trump }, TEXT.trump[0]),
    ...sheet.players.map((p, seat) => el("th", { scope: "col", class: "player" },
      colours ? swatch(seat, colours) : null, p)),
    // On a narrow screen the column's head is the pencil of its buttons, its word kept for screen readers.
    onEdit ? el("th", { scope: "col", class: "fix" }, el("span", { class: "muted fix-word" }, TEXT.fix),
      el("span", { class: "fix-mark", "aria-hidden": "true" }, "✎")) : null);
  const body = el("tbody", {});
  for (const row of sheet.rows) {
    const tr = el("tr", { class: row.status, "data-round": row.number, "data-status": row.status },
      el("th", { class: "rd", scope: "row" }, String(row.number),
        el("span", { class: "bt" }, `${TEXT.cards(row.hand_size)} · ${sheet.players[row.dealer]}`)),
      el("td", { class: "trump" }, suitText(row.trump)));
    row.cells.forEach((cell, seat) => {
      const mark = cell.made === null ? "" : cell.made ? "made" : "missed";
      const score = cell.score === null ? "" : ` ${cell.score < 0 ? "−" : "+"}${Math.abs(cell.score)}`; // a scoring may take points away
      tr.append(el("td", {
        class: mark, "data-cell": `${row.number}-${seat}`,
        "aria-label": TEXT.cell(sheet.players[seat], shown(cell.bid), shown(cell.tricks), cell.made, cell.total),
      },
      el("span", { class: "bt" }, `${shown(cell.bid)}/${shown(cell.tricks)}`, score ? el("span", { class: "pts" }, score) : null),
      el("span", { class: "tot" }, cell.total === null ? "" : String(cell.total))));
    });
    if (onEdit) {
      tr.append(el("td", {}, el("button", {
        type: "button", class: "edit", "aria-label": TEXT.edit(row.number), onclick: () => onEdit(row.number),
      }, "✎")));
    }
    body.append(tr);
    if (row.note) {
      body.append(el("tr", { class: `note ${row.status}` },
        el("td", { class: "flag", colspan: String(sheet.players.length + 2 + (onEdit ? 1 : 0)) }, `⚠ ${row.note}`)));
    }
  }
  table.replaceChildren(
    ...(caption ? [el("caption", {}, TEXT.headline(sheet))] : []),
    el("thead", {}, head),
    body);
  return table;
}

// ------------------------------------------------------------------ the chart of the totals

// Each seat's line differs in colour, marker and dash, so lines stay told apart, also printed in
// black and white; equal totals are drawn side by side (TIE_GAP_PX apart), never one over the other.
const TIE_GAP_PX = 3.5;
/** @type {import("chart.js").PointStyle[]} */
const POINT_STYLES = ["circle", "rect", "triangle", "rectRot", "star", "crossRot", "rectRounded", "cross"];
const DASHES = [[], [7, 4], [2, 3], [10, 3, 2, 3], [4, 4], [12, 5], [1, 4], [6, 2, 2, 2]];

/**
 * @param {number} seat
 * @param {string[]} colours
 */
function lineStyle(seat, colours) {
  return {
    colour: colours[seat % colours.length],
    pointStyle: POINT_STYLES[seat % POINT_STYLES.length],
    dash: DASHES[seat % DASHES.length],
    radius: 4,
    width: 2.5,
  };
}

// A Chart.js plugin: where several players share a total, their points (and so their lines) move
// apart by a few pixels around the true value, in seat order; the tooltip still says the exact totals.
/** @type {import("chart.js").Plugin<"line">} */
const sideBySide = {
  id: "upriverTies",
  afterDatasetsUpdate(chart) {
    const metas = chart.getSortedVisibleDatasetMetas();
    const count = Math.max(0, ...metas.map((meta) => meta.data.length));
    for (let index = 1; index < count; index++) { // at the start (0) all are level, and unmarked
      /** @type {Map<unknown, import("chart.js").PointElement[]>} */
      const groups = new Map();
      for (const meta of metas) {
        const value = chart.data.datasets[meta.index].data[index];
        if (meta.data[index]) groups.set(value, [...(groups.get(value) || []), /** @type {import("chart.js").PointElement} */ (meta.data[index])]);
      }
      for (const points of groups.values()) {
        points.forEach((point, k) => { point.y += (k - (points.length - 1) / 2) * TIE_GAP_PX; });
      }
    }
  },
};

/** The chart's points: the x labels (the start, then each scored round's number) and each seat's totals.
 * @param {Sheet} sheet */
export function chartSeries(sheet) {
  const scored = sheet.rows.filter((row) => row.status === "scored");
  return {
    labels: [TEXT.start, ...scored.map((row) => String(row.number))],
    totals: sheet.players.map((_, seat) => [0, ...scored.map((row) => row.cells[seat].total)]),
  };
}

/** Who shares each total at point `index`: [[total, [names…]], …] for totals held by two or more.
 * @param {ReturnType<typeof chartSeries>} series
 * @param {string[]} players
 * @param {number} index */
function tiesAt(series, players, index) {
  /** @type {Map<number, string[]>} */
  const byTotal = new Map();
  series.totals.forEach((line, seat) => {
    const total = line[index];
    if (total !== null) byTotal.set(total, [...(byTotal.get(total) || []), players[seat]]); // null: not at the table
  });
  return [...byTotal].filter(([, names]) => names.length > 1);
}

/** A small picture of seat's line (its colour, dash and marker), for the legend and the sheet's head.
 * @param {number} seat
 * @param {string[]} colours */
export function swatch(seat, colours) {
  const style = lineStyle(seat, colours);
  const ratio = window.devicePixelRatio || 1;
  const [w, h] = [30, 16];
  const canvas = el("canvas", { class: "swatch", width: String(w * ratio), height: String(h * ratio), "aria-hidden": "true" });
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext("2d");
  if (!ctx) return canvas;
  ctx.scale(ratio, ratio);
  ctx.strokeStyle = style.colour;
  ctx.fillStyle = style.colour;
  ctx.lineWidth = Math.min(style.width, 3);
  ctx.setLineDash(style.dash);
  ctx.beginPath();
  ctx.moveTo(1, h / 2);
  ctx.lineTo(w - 1, h / 2);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.lineWidth = 1.5;
  Chart.helpers.drawPoint(ctx, { pointStyle: style.pointStyle, radius: 5, borderWidth: 1.5, rotation: 0 }, w / 2, h / 2);
  return canvas;
}

/** @param {HTMLElement | SVGElement} target */
function chartBox(target) {
  // The table page gives an <svg> (its first chart's element): a canvas cannot live in one, so a
  // <div> with the same id and label takes its place, once.
  if (!(target instanceof SVGElement)) return target;
  const box = el("div", { id: target.id || null, class: target.getAttribute("class") });
  target.replaceWith(box);
  return box;
}

/**
 * Draw the running totals into `target` (a <div>; an <svg> is swapped for one): a line per player
 * over the rounds scored so far (Chart.js), each in `colours[seat]` with its own marker and dash;
 * the tooltip lists every player at a round, best first, and who is tied. Before any round is
 * scored it says so instead. Drawing the same totals again changes nothing. Returns the element.
 * @param {HTMLElement | SVGElement} target
 * @param {Sheet} sheet
 * @param {{colours: string[]}} how
 */
export function drawChart(target, sheet, { colours }) {
  const box = chartBox(target);
  box.classList.add("sheet-chart");
  const series = chartSeries(sheet);
  const key = JSON.stringify([sheet.players, series.totals, colours]);
  if (box.dataset.key === key) return box;
  box.dataset.key = key;
  Chart.getChart(box.querySelector("canvas"))?.destroy();
  if (series.labels.length < 2) {
    box.replaceChildren(el("p", { class: "sheet-chart-note" }, TEXT.noTotals));
    return box;
  }
  const summary = TEXT.chartSummary(series.labels.length - 1,
    sheet.players.map((p, seat) => `${p} ${sheet.totals[seat]}`).join(", "));
  const canvas = el("canvas", { role: "img", "aria-label": summary }, summary);
  box.replaceChildren(canvas);
  const ink = getComputedStyle(box).color;
  const grid = ink.replace(/^rgb\((.*)\)$/, "rgba($1, 0.18)"); // the canvas wants a plain colour
  const phone = box.clientWidth < 500;
  const font = { size: phone ? 11 : 13, family: getComputedStyle(box).fontFamily };
  new Chart(canvas, {
    type: "line",
    plugins: [sideBySide],
    data: {
      labels: series.labels,
      datasets: sheet.players.map((player, seat) => {
        const style = lineStyle(seat, colours);
        return {
          label: player, data: series.totals[seat],
          borderColor: style.colour, backgroundColor: style.colour,
          borderDash: style.dash, borderWidth: style.width,
          pointStyle: style.pointStyle, pointRadius: (/** @type {import("chart.js").ScriptableContext<"line">} */ point) => (point.dataIndex === 0 ? 0 : style.radius), pointHoverRadius: style.radius + 2,
          pointBorderWidth: 1.5, tension: 0, clip: false,
        };
      }),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      color: ink,
      font,
      interaction: { mode: "index", intersect: false },
      layout: { padding: { top: 8, right: 8 } },
      scales: {
        x: { title: { display: true, text: TEXT.round, color: ink, font }, ticks: { color: ink, font }, grid: { color: grid } },
        y: {
          beginAtZero: true, title: { display: !phone, text: TEXT.total, color: ink, font },
          ticks: { color: ink, font, precision: 0 }, grid: { color: grid },
        },
      },
      plugins: {
        legend: { display: false }, // chartLegend draws it in the page, in the page's font, full names wrapping
        tooltip: {
          usePointStyle: true,
          padding: 8,
          titleFont: { size: 14, weight: "bold" },
          bodyFont: { size: 14 },
          footerFont: { size: 13, weight: "bold" },
          itemSort: (a, b) => b.parsed.y - a.parsed.y,
          callbacks: {
            title: (items) => (items[0].dataIndex === 0 ? TEXT.start : TEXT.afterRound(items[0].label)),
            label: (item) => ` ${item.dataset.label}: ${item.parsed.y}`,
            footer: (items) => tiesAt(series, sheet.players, items[0].dataIndex)
              .map(([total, names]) => TEXT.tied(names.join(", "), total)),
          },
        },
      },
    },
  });
  return box;
}

/** The chart's key: each player's full name and total (the sheet's, so a player who left keeps theirs)
 * beside a picture of their line (hidden until a round is scored).
 * @param {Sheet} sheet
 * @param {{colours: string[]}} how */
export function chartLegend(sheet, { colours }) {
  const series = chartSeries(sheet);
  // Before the first round is scored there is no line to name.
  return el("ul", { class: "sheet-legend", "aria-label": TEXT.legend, hidden: series.labels.length < 2 },
    ...sheet.players.map((p, seat) => el("li", {},
      swatch(seat, colours), el("span", {}, p), " ",
      el("strong", {}, String(sheet.totals[seat])))));
}
