// The table page: one WebSocket, the server's per-seat state in, bids and cards out.
// The server is the judge: this page only shows what it is sent and offers what is legal.

import { chartLegend, drawChart, drawSheet } from "./sheet.js";

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const TRICK_HOLD_MS = 1200; // how long a finished trick stays on the table

const tableId = location.pathname.split("/").pop();
let token = new URLSearchParams(location.hash.slice(1)).get("token");
let socket = null;
let state = null; // the last state message
let sheet = null; // the last score sheet (the server skips it when unchanged)
let counter = 0;
let waiting = false; // an action was sent and its answer has not come yet
let holdUntil = 0;
let seenTrick = null;
let shownRound = null;

// ------------------------------------------------------------------ cards

function cardWords(text) {
  const rank = text[0];
  return `${RANKS[rank] || rank} of ${SUITS[text[1]][1]}`;
}

function cardFace(text, tag = "div") {
  const el = document.createElement(tag);
  const [symbol, suit] = SUITS[text[1]];
  el.className = `card ${suit} ${text[1] === "H" || text[1] === "D" ? "red" : "black"}`;
  el.dataset.card = text;
  const rank = text[0] === "T" ? "10" : text[0];
  el.innerHTML = `<span class="rank">${rank}</span><span class="pip">${symbol}</span>`;
  if (tag !== "button") el.setAttribute("aria-label", cardWords(text));
  return el;
}

// ------------------------------------------------------------------ socket

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}${query}`);
  socket.onopen = () => setConnection("connected", true);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    setConnection("disconnected — reconnecting…", false);
    if (![4403, 4404, 4429].includes(event.code)) setTimeout(connect, 1000);
  };
}

function setConnection(text, ok) {
  $("connection").textContent = text;
  $("connection").classList.toggle("ok", ok);
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify(message));
}

// A damaged table accepts no moves (the server refuses them): the page offers none.
const damaged = () => Boolean(state && state.lobby.damaged);

function act(type, value) {
  if (waiting || !state || damaged()) return;
  waiting = true;
  counter += 1;
  const id = `${Date.now().toString(36)}-${counter}`;
  send({ type, [type === "bid" ? "bid" : "card"]: value, v: state.v, id });
  render();
}

function receive(message) {
  if (message.type === "error") {
    waiting = false;
    $("error").textContent = message.message;
    $("lobby-error").textContent = message.message;
    if (message.rule === "token" || message.rule === "table") setConnection(message.message, false);
    if (state) render();
    return;
  }
  if (message.type !== "state") return;
  if (state && message.v < state.v) return; // an older picture than the one shown
  if (message.token && message.token !== token) {
    // Joined: the seat's invite no longer opens it; this secret does. Keep it in this page's link
    // (never sent anywhere: the fragment stays in the browser) so a reload or a second tab opens the seat.
    token = message.token;
    history.replaceState(null, "", `#token=${encodeURIComponent(token)}`);
  }
  waiting = false;
  $("error").textContent = "";
  $("lobby-error").textContent = "";
  const game = message.game;
  if (game && game.sheet) sheet = game.sheet;
  if (game) noticeTrick(game);
  state = message;
  document.body.dataset.v = message.v; // the version shown, for people debugging and for tests
  render();
}

// A trick just completed: keep it on the table a moment before the next lead.
function noticeTrick(game) {
  const key = game.last_trick ? JSON.stringify(game.last_trick.plays) : null;
  if (state && state.game && key && key !== seenTrick && game.trick.length === 0) {
    holdUntil = Date.now() + TRICK_HOLD_MS;
    setTimeout(render, TRICK_HOLD_MS + 20);
  }
  seenTrick = key;
}

// ------------------------------------------------------------------ rendering

function name(game, seat) {
  return game.players[seat];
}

function render() {
  const damaged = state.lobby.damaged;
  $("damaged").hidden = !damaged;
  $("damaged-reason").textContent = damaged ? `Why: ${damaged}` : "";
  document.body.classList.toggle("is-damaged", Boolean(damaged));
  const lobbyOpen = !state.lobby.started;
  $("lobby").hidden = !lobbyOpen;
  $("play").hidden = lobbyOpen;
  renderLobby();
  if (!lobbyOpen && state.game) renderGame(state.game);
}

function renderLobby() {
  const lobby = state.lobby;
  $("lobby-seats").replaceChildren(
    ...lobby.seats.map((s) => {
      const li = document.createElement("li");
      const who = s.joined ? s.name : "open seat";
      li.textContent = `Seat ${s.seat + 1}: ${who}${s.kind === "human" ? "" : ` (bot: ${s.kind})`}`;
      if (s.seat === state.seat) li.textContent += " — you";
      return li;
    }),
  );
  const mine = state.seat !== null ? lobby.seats[state.seat] : null;
  $("join").hidden = !mine || mine.joined;
  $("invites").hidden = !lobby.invites;
  if (lobby.invites) {
    $("invite-list").replaceChildren(
      ...lobby.invites.map((invite) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = location.origin + invite.url;
        a.textContent = `Seat ${invite.seat + 1}: ${a.href}`;
        a.dataset.seat = invite.seat;
        const revoke = document.createElement("button");
        revoke.type = "button";
        revoke.className = "revoke";
        revoke.textContent = "New link";
        revoke.title = "Revoke this link and make a new one";
        revoke.setAttribute("aria-label", `Revoke seat ${invite.seat + 1}'s link and make a new one`);
        revoke.addEventListener("click", () => send({ type: "revoke", seat: invite.seat }));
        li.append(a, " ", revoke);
        return li;
      }),
    );
    $("spectate").textContent = `Spectators: ${location.origin}${lobby.spectate}`;
  }
}

function renderGame(game) {
  const mySeat = state.seat;
  const n = game.players.length;
  const trumpName = game.trump ? SUITS[game.trump][1] : "none";
  $("round-info").textContent = game.over
    ? `Game over after ${game.rounds} rounds`
    : `Round ${game.round} of ${game.rounds} · ${game.hand_size} card${game.hand_size > 1 ? "s" : ""} · trump ${trumpName}`;
  // Mid-game only a player's link may export (finished rounds only); anyone may once it is over.
  $("export").hidden = !token && !game.over;
  $("export").href = `/api/tables/${tableId}/record${token ? `?token=${encodeURIComponent(token)}` : ""}`;

  // Seats around the felt; this page's seat at the bottom, the next seat (its left) on the left.
  const base = mySeat === null ? 0 : mySeat;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const seat = (base + i) % n;
    const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
    const div = document.createElement("div");
    div.className = "seat";
    if (game.awaiting.includes(seat) && !game.over) div.classList.add("to-act");
    if (seat === mySeat) div.classList.add("me");
    div.style.left = `${50 + 38 * Math.cos(angle)}%`;
    div.style.top = `${50 + 40 * Math.sin(angle)}%`;
    const bid = game.bids[seat];
    const bidText = bid === null ? "–" : bid;
    const dealer = seat === game.dealer ? ' <span class="dealer" title="dealer">D</span>' : "";
    div.innerHTML = `<div class="who"></div>${dealer}<div class="nums">bid ${bidText} · took ${game.tricks_won[seat]} · ${game.totals[seat]} pts</div>`;
    div.querySelector(".who").textContent = name(game, seat) + (seat === mySeat ? " (you)" : "");
    div.setAttribute("aria-label", `${name(game, seat)}: bid ${bidText}, took ${game.tricks_won[seat]}, ${game.totals[seat]} points`);
    seats.push(div);
  }
  $("seats").replaceChildren(...seats);

  $("turned").replaceChildren(game.turned ? cardFace(game.turned) : document.createTextNode("no trump"));

  // The trick: the one being played, or for a moment the one just finished.
  const holding = Date.now() < holdUntil && game.trick.length === 0 && game.last_trick;
  const shown = holding ? game.last_trick.plays : game.trick;
  $("trick").replaceChildren(
    ...shown.map(([seat, card]) => {
      const i = (seat - base + n) % n;
      const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
      const face = cardFace(card);
      face.classList.add("played");
      if (holding && seat === game.last_trick.winner) face.classList.add("winner");
      face.style.left = `${50 + 28 * Math.cos(angle)}%`;
      face.style.top = `${50 + 26 * Math.sin(angle)}%`;
      face.setAttribute("aria-label", `${name(game, seat)} played ${cardWords(card)}`);
      return face;
    }),
  );

  renderStatus(game, holding);
  renderBids(game);
  renderHand(game);
  renderLastTrick(game);
  renderSummary(game);
  renderSheet(game);
}

function renderStatus(game, holding) {
  let text;
  if (damaged()) text = "This table is damaged: it accepts no moves.";
  else if (game.over) text = "The game is over.";
  else if (holding) text = `${name(game, game.last_trick.winner)} takes the trick.`;
  else if (game.my_turn) text = game.phase === "bidding" ? "Your bid." : "Your turn: play a card.";
  else if (game.awaiting.length) {
    const who = game.awaiting.map((s) => name(game, s)).join(", ");
    text = `Waiting for ${who} to ${game.phase === "bidding" ? "bid" : "play"}.`;
  } else text = "";
  $("status").textContent = text;
}

// Buttons are rebuilt only when they change, so a click is never lost to a redraw under the pointer.
const drawn = { bids: "", hand: "" };

function unchanged(part, value) {
  const key = JSON.stringify(value);
  if (drawn[part] === key) return true;
  drawn[part] = key;
  return false;
}

function renderBids(game) {
  const options = game.bid_options;
  if (unchanged("bids", [options, game.bid_restriction, waiting, damaged()])) return;
  $("bidding").hidden = options.length === 0;
  // The engine's restriction on the dealer's bid, as data: its rule, the bids it forbids, and why.
  const restriction = game.bid_restriction;
  const reason = restriction ? restriction.reason[0].toUpperCase() + restriction.reason.slice(1) + "." : "";
  $("bid-reason").textContent = reason;
  $("bids").replaceChildren(
    ...options.map((o) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "bid";
      b.textContent = o.bid;
      b.dataset.bid = o.bid;
      b.disabled = !o.legal || waiting || damaged();
      b.setAttribute("aria-label", o.legal ? `Bid ${o.bid}` : `Bid ${o.bid}, not allowed: ${reason}`);
      if (!o.legal) b.title = reason;
      b.addEventListener("click", () => act("bid", o.bid));
      return b;
    }),
  );
}

function renderHand(game) {
  if (unchanged("hand", [game.hand, game.phase, waiting, damaged()])) return;
  $("hand").replaceChildren(
    ...game.hand.map((entry) => {
      const b = cardFace(entry.card, "button");
      b.type = "button";
      const playable = entry.legal && !waiting && !damaged() && game.phase === "playing";
      b.disabled = !playable;
      b.classList.toggle("legal", entry.legal);
      b.setAttribute("aria-label", entry.legal ? entry.label : `${entry.label} (${entry.reason})`);
      if (!entry.legal && entry.reason) b.title = entry.reason;
      b.addEventListener("click", () => act("play", entry.card));
      return b;
    }),
  );
}

function renderLastTrick(game) {
  const last = game.last_trick;
  $("last-trick").replaceChildren(
    ...(last
      ? [
          ...last.plays.map(([seat, card]) => {
            const wrap = document.createElement("figure");
            wrap.append(cardFace(card));
            const cap = document.createElement("figcaption");
            cap.textContent = name(game, seat) + (seat === last.winner ? " ✓" : "");
            wrap.append(cap);
            return wrap;
          }),
        ]
      : [document.createTextNode("No trick yet.")]),
  );
}

function renderSummary(game) {
  const last = game.last_round;
  const box = $("summary");
  if (game.over) {
    box.hidden = true;
    $("final").hidden = false;
    $("standings").replaceChildren(
      ...game.standings.map(([place, seat, total]) => {
        const li = document.createElement("li");
        li.textContent = `${place}. ${name(game, seat)} — ${total} points`;
        return li;
      }),
    );
    return;
  }
  $("final").hidden = true;
  if (!last || game.tricks_done > 0 || game.trick.length > 0) {
    box.hidden = true;
    return;
  }
  if (shownRound !== last.number) shownRound = last.number;
  box.hidden = false;
  const rows = game.players
    .map((p, seat) => {
      const made = last.bids[seat] === last.tricks[seat] ? "made it" : "missed";
      return `<li>${escapeHtml(p)}: bid ${last.bids[seat]}, took ${last.tricks[seat]} (${made}) → +${last.scores[seat]}</li>`;
    })
    .join("");
  box.innerHTML = `<h2>Round ${last.number} (${last.hand_size} card${last.hand_size > 1 ? "s" : ""})</h2><ul>${rows}</ul>`;
}

function escapeHtml(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

// The sheet is drawn by sheet.js, as on the score keeper's page.
const CHART_COLOURS = ["#ffd54f", "#4fc3f7", "#ef9a9a", "#a5d6a7", "#ce93d8", "#ffab91", "#b0bec5", "#fff59d"];

function renderSheet(game) {
  if (!sheet) return;
  // The sheet comes once a round; the round's live bids and trick counts come with every state.
  const live = {
    ...sheet,
    rows: sheet.rows.map((row) =>
      row.status === "scored" || row.number !== game.round
        ? row
        : { ...row, status: game.phase, cells: row.cells.map((c, seat) => ({ ...c, bid: game.bids[seat], tricks: game.tricks_won[seat] })) },
    ),
  };
  drawSheet($("sheet"), live, { caption: true });
  drawChart($("chart"), live, { colours: CHART_COLOURS });
  $("chart-legend")?.remove();
  $("chart").after(Object.assign(chartLegend(live, { colours: CHART_COLOURS }), { id: "chart-legend" }));
}

// ------------------------------------------------------------------ wiring

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  send({ type: "join", name: $("join-name").value });
});

// Keyboard: digits bid, and the arrow keys move along the hand.
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || !state || !state.game) return;
  if (/^[0-9]$/.test(event.key) && state.game.bid_options.length) {
    const option = state.game.bid_options.find((o) => String(o.bid) === event.key);
    if (option && option.legal) act("bid", option.bid);
  }
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    const buttons = [...$("hand").querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    if (at >= 0) {
      const next = buttons[(at + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
      next.focus();
      event.preventDefault();
    }
  }
});

connect();
