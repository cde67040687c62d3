// The table page: one WebSocket, the server's per-seat state in, bids and cards out.
// The server is the judge: this page only shows what it is sent and offers what is legal.

import { chartLegend, drawChart, drawSheet } from "./sheet.js";
import { plural, presetLine, ruleItems, standingsParts, summaryRows } from "./table-panels.js";

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const TRICK_HOLD_MS = 1200; // how long a finished trick stays up when the server does not say

const tableId = location.pathname.split("/").pop();
let token = new URLSearchParams(location.hash.slice(1)).get("token");
let socket = null;
let state = null; // the last state message
let sheet = null; // the last score sheet (the server skips it when unchanged)
let counter = 0;
let waiting = false; // an action was sent and its answer has not come yet
let holdUntil = 0;
let seenTrick = null;
let heldTurned; // the turn-up shown with the trick being played, kept while that trick is held
let heldRound = null; // the round (number, size, trump) of the trick being played, kept likewise

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

// The socket reconnects after a loss, waiting longer each time (0.5 s doubling up to 10 s), and the
// server's fresh state on reconnecting redraws the page. Closed for good: no seat, no table, full.
const FINAL_CLOSES = [4403, 4404, 4429];
let connected = false;
let attempts = 0;
let retryTimer = 0;

function connect() {
  clearTimeout(retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${tableId}${query}`);
  socket = ws;
  ws.onopen = () => {
    attempts = 0;
    setConnection("connected", true);
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (socket !== ws) return;
    const final = FINAL_CLOSES.includes(event.code);
    const delay = Math.min(10000, 500 * 2 ** attempts) * (0.8 + 0.4 * Math.random());
    attempts += 1;
    setConnection(final ? "disconnected" : "disconnected — reconnecting…", false, !final);
    $("offline-detail").textContent = final
      ? "This link opens no seat at this table any more."
      : `Trying again in ${Math.max(1, Math.round(delay / 1000))} s. Moves are off until the table is back; nothing already played is lost.`;
    if (!final) retryTimer = setTimeout(connect, delay);
  };
}

// Back online (the browser says so): try at once rather than at the end of the wait.
window.addEventListener("online", () => {
  if (!connected) connect();
});

function setConnection(text, ok, retrying = false) {
  const was = connected;
  connected = ok;
  $("connection").textContent = text;
  $("connection").classList.toggle("ok", ok);
  $("offline").hidden = ok || (!retrying && state === null);
  $("offline").querySelector(".offline-title").textContent = retrying || ok
    ? "Connection lost — reconnecting…"
    : "Connection lost";
  document.body.classList.toggle("is-offline", !ok);
  if (!ok) waiting = false; // no answer comes on a closed socket; the state on reconnecting says what landed
  if (was !== ok && state) render();
}


function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify(message));
}

// A damaged table accepts no moves (the server refuses them): the page offers none.
const damaged = () => Boolean(state && state.lobby.damaged);

const OFFLINE = "Not connected: nothing was sent. The page is reconnecting; try again when it is back.";

function act(type, value) {
  if (!connected) return notice(OFFLINE);
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
    if (message.rule === "token" || message.rule === "table") {
      $("connection").textContent = message.message;
      $("connection").classList.remove("ok");
    }
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
  if (game) noticeTrick(game, message.trick_pause_ms);
  state = message;
  document.body.dataset.v = message.v; // the version shown, for people debugging and for tests
  render();
}

// A trick just completed: keep it on the table for the server's pause (the table's pace: no bot
// leads before it is over), then gather it. The game's last trick stays: nothing follows it.
function noticeTrick(game, pause) {
  const key = game.last_trick ? JSON.stringify(game.last_trick.plays) : null;
  const hold = typeof pause === "number" ? pause : TRICK_HOLD_MS;
  if (state && state.game && key && key !== seenTrick && game.trick.length === 0) {
    holdUntil = Date.now() + hold;
    setTimeout(render, hold + 20);
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
  const holding = Boolean((game.over || Date.now() < holdUntil) && game.trick.length === 0 && game.last_trick);
  // A held trick is shown under its own round and trump, even when the next round is already dealt.
  const current = { round: game.round, size: game.hand_size, trump: game.trump };
  const shown = holding && heldRound ? heldRound : current;
  if (!holding) heldRound = current;
  const trumpName = shown.trump ? SUITS[shown.trump][1] : "none";
  const info = $("round-info");
  info.dataset.trump = shown.trump || "";
  info.dataset.round = shown.round;
  info.textContent = game.over
    ? `Game over after ${game.rounds} rounds`
    : `Round ${shown.round} of ${game.rounds} · ${plural(shown.size, "card")} · trump ${trumpName}`;
  // Mid-game only a player's link may export (finished rounds only); anyone may once it is over.
  $("export").hidden = !token && !game.over;
  $("export").href = `/api/tables/${tableId}/record${token ? `?token=${encodeURIComponent(token)}` : ""}`;

  renderFelt(game, holding);
  renderStatus(game, holding);
  renderBidTotal(game);
  renderRules(game);
  renderBids(game);
  renderHand(game);
  renderLastTrick(game);
  renderSummary(game, holding);
  renderSheet(game);
}

// ------------------------------------------------------------------ the felt

// Cards each seat still holds: the hand size less the cards it has played this round.
function cardsLeft(game, seat) {
  if (game.over || game.phase === "over") return 0;
  const inTrick = game.trick.some(([s]) => s === seat) ? 1 : 0;
  return Math.max(0, game.hand_size - game.tricks_done - inTrick);
}

// The seat a bot is choosing for, if the server says so (the state may carry it).
function thinkingSeat(game) {
  const value = game.thinking ?? state.thinking;
  return typeof value === "number" ? value : null;
}

function seatLabel(game, seat, mySeat, leader) {
  const div = document.createElement("div");
  div.className = "seat";
  div.dataset.seat = seat;
  if (game.awaiting.includes(seat) && !game.over) div.classList.add("to-act");
  if (seat === mySeat) div.classList.add("me");
  const top = document.createElement("div");
  top.className = "who";
  top.textContent = name(game, seat) + (seat === mySeat ? " (you)" : "");
  div.append(top);
  const bid = game.bids[seat];
  // Under closed fists the bids stay hidden until all are in: a seat that has bid shows ✓, not its bid.
  const hasBid = bid === null && game.phase === "bidding" && hiddenBids(game) && !game.awaiting.includes(seat);
  const bidText = bid === null ? (hasBid ? "✓" : "–") : bid;
  const nums = document.createElement("div");
  nums.className = "nums";
  // Each figure stays on one line; a narrow label wraps between them.
  for (const [k, part] of [`bid ${bidText}`, `took ${game.tricks_won[seat]}`, `${game.totals[seat]} pts`].entries()) {
    if (k) nums.append(" · ");
    const span = document.createElement("span");
    span.textContent = part;
    if (k === 0 && hasBid) span.className = "has-bid";
    nums.append(span);
  }
  div.append(nums);
  const left = cardsLeft(game, seat);
  let words = `${name(game, seat)}: ${hasBid ? "has bid (hidden)" : `bid ${bidText}`}, took ${game.tricks_won[seat]}, ${game.totals[seat]} points`;
  // The marks row: dealer, leader, and an opponent's hand face down (a few backs and the count).
  const marks = document.createElement("div");
  marks.className = "marks";
  if (seat === game.dealer) marks.append(badge("dealer", "D", "dealer"));
  if (seat === leader) marks.append(badge("leader", "led", "led this trick"));
  if (seat !== mySeat) {
    const backs = document.createElement("span");
    backs.className = "backs";
    backs.dataset.count = left;
    for (let i = 0; i < Math.min(left, 5); i++) {
      const back = document.createElement("span");
      back.className = "back";
      backs.append(back);
    }
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${left}`;
    backs.append(count);
    backs.title = `${left} card${left === 1 ? "" : "s"} in hand`;
    marks.append(backs);
    words += `, ${left} card${left === 1 ? "" : "s"} left`;
  }
  if (seat === game.dealer) words += ", dealer";
  if (marks.childElementCount) div.append(marks);
  if (seat === leader) words += ", led this trick";
  if (seat === thinkingSeat(game) && !game.over) {
    const thinking = document.createElement("div");
    thinking.className = "thinking";
    thinking.textContent = "…thinking";
    div.append(thinking);
    words += ", thinking";
  }
  div.setAttribute("aria-label", words);
  return div;
}

function badge(kind, text, title) {
  const span = document.createElement("span");
  span.className = `badge ${kind}`;
  span.textContent = text;
  span.title = title;
  return span;
}

// Seats sit at the rim of the felt, this page's seat at the bottom and the next (its left) on the
// left; each played card lies just inside its player's label, on the line toward the centre, so it
// is never under a label, the trump or another card. Positions are in pixels from the measured boxes.
function renderFelt(game, holding) {
  const mySeat = state.seat;
  const n = game.players.length;
  const base = mySeat === null ? 0 : mySeat;
  const shown = holding ? game.last_trick.plays : game.trick;
  const leader = shown.length ? shown[0][0] : game.phase === "playing" ? game.leader : null;
  const felt = $("felt");
  felt.dataset.seats = n;
  const labels = [];
  for (let i = 0; i < n; i++) labels.push(seatLabel(game, (base + i) % n, mySeat, leader));
  $("seats").replaceChildren(...labels);
  // A held trick is shown with the trump it was played under, not the next round's.
  const turned = holding && heldTurned !== undefined ? heldTurned : game.turned;
  if (!holding) heldTurned = game.turned;
  $("turned").replaceChildren(turned ? cardFace(turned) : document.createTextNode("no trump"));
  // A card already on the table keeps its element (and so does not play its arrival again).
  const before = new Map([...$("trick").children].map((el) => [el.dataset.card, el]));
  const cards = shown.map(([seat, card]) => {
    const face = before.get(card) || cardFace(card);
    face.classList.add("played");
    face.classList.toggle("led", seat === leader);
    face.classList.toggle("winner", Boolean(holding && seat === game.last_trick.winner));
    face.dataset.seat = seat;
    face.setAttribute("aria-label", `${name(game, seat)} played ${cardWords(card)}${seat === leader ? " (led)" : ""}`);
    return face;
  });
  for (const [card, el] of before) if (!shown.some(([, c]) => c === card)) el.remove();
  for (const face of cards) if (!face.isConnected) $("trick").append(face);
  layOut(felt, labels, cards, shown.map(([seat]) => (seat - base + n) % n));
}

// Pixel positions: labels at the rim; each card the shortest step from its label toward the centre
// that clears the label, and no nearer the centre than clears the trump.
function layOut(felt, labels, cards, places) {
  const width = felt.clientWidth;
  const height = felt.clientHeight;
  const cx = width / 2;
  const cy = height / 2;
  const rim = felt.clientLeft + 2; // a label may lie over the wooden rim
  const gap = 6; // the space kept between a card and a label or the trump
  const n = labels.length;
  const centres = labels.map((label, i) => {
    const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
    const lw = label.offsetWidth;
    const lh = label.offsetHeight;
    const x = cx + (cx - lw / 2 + rim) * Math.cos(angle);
    const y = cy + (cy - lh / 2 + rim) * Math.sin(angle);
    label.style.left = `${x}px`;
    label.style.top = `${y}px`;
    return { x, y, lw, lh };
  });
  const origin = felt.getBoundingClientRect();
  const box = $("turned-box").getBoundingClientRect();
  const trump = {
    left: box.left - origin.left - felt.clientLeft,
    right: box.right - origin.left - felt.clientLeft,
    top: box.top - origin.top - felt.clientTop,
    bottom: box.bottom - origin.top - felt.clientTop,
  };
  const along = (low, high, from, v, half) => {
    // The least distance d >= 0 from `from` along v (one axis) at which [p - half, p + half] clears [low, high].
    if (v > 1e-6) return Math.max(0, (high + gap + half - from) / v);
    if (v < -1e-6) return Math.max(0, (from - low + gap + half) / -v);
    return from - half >= high + gap || from + half <= low - gap ? 0 : Infinity;
  };
  cards.forEach((face, k) => {
    const at = centres[places[k]];
    const cw = face.offsetWidth;
    const ch = face.offsetHeight;
    const length = Math.hypot(at.x - cx, at.y - cy) || 1;
    const vx = (at.x - cx) / length; // from the centre toward the label
    const vy = (at.y - cy) / length;
    const clearLabel = Math.min(
      Math.abs(vx) > 1e-6 ? (at.lw / 2 + cw / 2 + gap) / Math.abs(vx) : Infinity,
      Math.abs(vy) > 1e-6 ? (at.lh / 2 + ch / 2 + gap) / Math.abs(vy) : Infinity,
    );
    const clearTrump = Math.min(along(trump.left, trump.right, cx, vx, cw / 2), along(trump.top, trump.bottom, cy, vy, ch / 2));
    const d = Math.max(length - clearLabel, clearTrump, 0);
    face.style.left = `${cx + vx * d}px`;
    face.style.top = `${cy + vy * d}px`;
  });
}

// Closed fists: the bids are revealed together, once every seat has bid.
function hiddenBids(game) {
  return game.rules.bidding === "simultaneous";
}


// The bids so far against the tricks ("Bids 3 of 4 — under"); under closed fists, how many have bid.
function renderBidTotal(game) {
  const box = $("bid-total");
  const n = game.players.length;
  if (game.over || (game.phase !== "bidding" && game.phase !== "playing")) {
    box.replaceChildren();
    return;
  }
  if (game.phase === "bidding" && hiddenBids(game)) {
    const done = n - game.awaiting.length;
    box.replaceChildren(`Closed fists: ${done} of ${n} have bid; the bids are shown together.`);
    return;
  }
  const made = game.bids.filter((b) => b !== null);
  if (!made.length) {
    box.replaceChildren(`No bids yet · ${plural(game.hand_size, "trick")} to take`);
    return;
  }
  const total = made.reduce((a, b) => a + b, 0);
  const word = total < game.hand_size ? "under" : total > game.hand_size ? "over" : "even";
  const tally = document.createElement("span");
  tally.className = `tally ${word}`;
  tally.textContent = word;
  box.dataset.total = total;
  box.dataset.verdict = word;
  box.replaceChildren(`Bids ${total} of ${game.hand_size} — `, tally);
}

// ------------------------------------------------------------------ the rules, in words

let presets = null; // the server's presets (/api/options), to name the rules in play

fetch("/api/options")
  .then((answer) => (answer.ok ? answer.json() : null))
  .then((options) => {
    presets = (options && options.presets) || [];
    drawn.rules = "";
    if (state && state.game) renderRules(state.game);
  })
  .catch(() => (presets = []));

function renderRules(game) {
  if (unchanged("rules", [game.rules, presets !== null])) return;
  $("rules-preset").textContent = presetLine(game.rules, presets);
  $("rules-list").replaceChildren(...ruleItems(game.rules));
}

function renderStatus(game, holding) {
  let text;
  if (damaged()) text = "This table is damaged: it accepts no moves.";
  else if (!connected) text = "Connection lost: moves are off until the table is back.";
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
const drawn = { bids: "", hand: "", rules: "" };

function unchanged(part, value) {
  const key = JSON.stringify(value);
  if (drawn[part] === key) return true;
  drawn[part] = key;
  return false;
}

function renderBids(game) {
  const options = game.bid_options;
  if (unchanged("bids", [options, game.bid_restriction, waiting, damaged(), connected])) return;
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
      // A forbidden bid stays focusable and tappable: a tap says why it is not allowed.
      const allowed = o.legal && !waiting && !damaged() && connected;
      b.setAttribute("aria-disabled", String(!allowed));
      b.classList.toggle("playable", allowed);
      b.setAttribute("aria-label", o.legal ? `Bid ${o.bid}` : `Bid ${o.bid}, not allowed: ${reason}`);
      if (!o.legal) b.title = reason;
      b.addEventListener("click", () => {
        if (allowed) act("bid", o.bid);
        else if (!connected) notice(OFFLINE);
        else if (!o.legal) notice(reason || "This bid is not allowed.");
        else if (damaged()) notice("This table is damaged: it accepts no moves.");
      });
      return b;
    }),
  );
}

function renderHand(game) {
  if (unchanged("hand", [game.hand, game.phase, waiting, damaged(), connected])) return;
  $("hand").replaceChildren(
    ...game.hand.map((entry) => {
      const b = cardFace(entry.card, "button");
      b.type = "button";
      const playable = entry.legal && !waiting && !damaged() && connected && game.phase === "playing";
      // A card that may not be played stays focusable and tappable: a tap says why.
      b.setAttribute("aria-disabled", String(!playable));
      b.classList.toggle("playable", playable);
      b.classList.toggle("legal", entry.legal);
      b.setAttribute("aria-label", entry.legal ? entry.label : `${entry.label} (${entry.reason})`);
      if (!entry.legal && entry.reason) b.title = entry.reason;
      b.addEventListener("click", () => {
        if (playable) act("play", entry.card);
        else if (!connected) notice(OFFLINE);
        else if (damaged()) notice("This table is damaged: it accepts no moves.");
        else if (!entry.legal && entry.reason) notice(`${entry.label}: ${sentence(entry.reason)}`);
      });
      return b;
    }),
  );
}

// A reason as a sentence a person reads: a capital first and a full stop.
function sentence(text) {
  const words = text.trim();
  return words[0].toUpperCase() + words.slice(1) + (/[.!?]$/.test(words) ? "" : ".");
}

// The message area over the table: why a tap did nothing, for a few seconds (a tap closes it).
let noticeTimer = 0;
function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 5000);
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

// A round's summary, over the table once its last trick is gathered, until the player closes it or
// the next round's first card is played. At the end: the winner(s), a podium and the standings.
let dismissedRound = null;
let finalDismissed = false;

function renderSummary(game, holding) {
  const box = $("summary");
  // The overlays open just under the header, however many lines it takes (a phone wraps it).
  document.documentElement.style.setProperty("--bar-h", `${document.querySelector(".bar").offsetHeight}px`);
  if (game.over) {
    box.hidden = true;
    renderFinal(game);
    return;
  }
  $("final").hidden = true;
  const last = game.last_round;
  const open = Boolean(last) && !holding && game.tricks_done === 0 && game.trick.length === 0 && dismissedRound !== last.number;
  box.hidden = !open;
  if (!open || box.dataset.round === String(last.number)) return;
  box.dataset.round = last.number;
  $("summary-title").textContent = `Round ${last.number} · ${plural(last.hand_size, "card")}`;
  $("summary-rows").replaceChildren(...summaryRows(game, last));
}

function renderFinal(game) {
  const box = $("final");
  box.hidden = finalDismissed || Date.now() < holdUntil; // the last trick is seen gathered first
  const key = JSON.stringify(game.standings);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const [winners, steps, items] = standingsParts(game);
  $("winners").textContent = winners;
  $("podium").replaceChildren(...steps);
  $("standings").replaceChildren(...items);
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

$("notice").addEventListener("click", () => ($("notice").hidden = true));
$("rules-button").addEventListener("click", () => $("rules-panel").showModal());
$("rules-close").addEventListener("click", () => $("rules-panel").close());
$("summary-close").addEventListener("click", () => {
  dismissedRound = Number($("summary").dataset.round);
  $("summary").hidden = true;
});
$("final-close").addEventListener("click", () => {
  finalDismissed = true;
  $("final").hidden = true;
});

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

// The felt's layout is in pixels: lay it out again when the window changes size.
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => state && state.game && !$("play").hidden && render());
});

connect();
