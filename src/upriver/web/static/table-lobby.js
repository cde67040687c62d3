// The table before its game starts: the join page (the rules in words, who is seated, the form to
// take this link's seat) and, for the host, the invite links of the seats still open.

import { has, parts, t } from "/static/i18n.js";
import { presetLine, ruleItems } from "./table-panels.js";
import { $ } from "./dom.js";


// Every word the lobby shows, in one place, from the page's language catalogue (i18n.js).
const WORDS = {
  joinTitle: () => t("table.lobby.joinTitle"),
  waitingTitle: () => t("table.lobby.waitingTitle"),
  seat: (/** @type {number} */ n) => t("table.lobby.seat", { n }),
  open: () => t("table.lobby.open"),
  yours: () => t("table.lobby.yours"),
  yoursHint: () => t("table.lobby.yoursHint"),
  you: () => t("table.lobby.you"),
  bot: (/** @type {string} */ kind) => (LEVELS.includes(kind) ? t("table.lobby.botLevel", { level: t(`level.${kind}`) }) : t("table.lobby.botKind", { kind: has(`level.${kind}`) ? t(`level.${kind}`) : kind })),
  person: () => t("table.lobby.person"),
  spectators: (/** @type {string} */ url) => t("table.lobby.spectators", { url }),
  newLink: () => t("table.lobby.newLink"),
  newLinkTitle: () => t("table.lobby.newLinkTitle"),
  newLinkLabel: (/** @type {number} */ n) => t("table.lobby.newLinkLabel", { n }),
};
const LEVELS = ["easy", "normal", "hard", "expert"];

// A bot sits under its name and its kind ("Bob (basic)"): the list says the kind once, in words.
/**
 * @param {string} name
 * @param {string} kind
 */
function plainName(name, kind) {
  const label = ` (${kind})`;
  return name && name.endsWith(label) ? name.slice(0, -label.length) : name;
}

/** @type {Record<string, any> | null} */
let rules = null; // the table's rules (GET /api/tables/{id}/rules), as the game state carries them
let rulesAsked = false;
let focusedOnce = false;

/**
 * @param {string} tableId
 * @param {() => void} redraw
 */
function askRules(tableId, redraw) {
  if (rulesAsked) return;
  rulesAsked = true;
  fetch(`/api/tables/${tableId}/rules`)
    .then((answer) => (answer.ok ? answer.json() : null))
    .then((found) => {
      rules = found;
      redraw();
    })
    .catch(() => {}); // the rules stay one tap away once the game starts
}

// `ctx`: `tableId`, `send(message)`, `presets` (the server's presets, or null while unknown) and
// `redraw()` (draw the lobby again once the rules arrive).
/**
 * @param {import("./table-socket.js").TableState} state
 * @param {{tableId: string, send: (message: object) => boolean, presets: any[] | null, redraw: () => void}} ctx
 */
export function renderLobby(state, ctx) {
  const lobby = state.lobby;
  const mine = state.seat !== null ? lobby.seats[state.seat] : null;
  const joining = Boolean(mine && !mine.joined);
  $("lobby-title").textContent = joining ? WORDS.joinTitle() : WORDS.waitingTitle();
  $("lobby-seats").replaceChildren(
    ...lobby.seats.map((/** @type {{seat: number, kind: string, name: string, joined: boolean}} */ s) => {
      const li = document.createElement("li");
      li.dataset.seat = String(s.seat);
      li.dataset.kind = s.kind;
      const who = document.createElement("strong");
      const own = s.seat === state.seat;
      who.textContent = s.joined ? plainName(s.name, s.kind) : own ? WORDS.yours() : WORDS.open();
      const what =
        s.kind !== "human" ? WORDS.bot(s.kind) : own ? (s.joined ? WORDS.you() : WORDS.yoursHint()) : s.joined ? WORDS.person() : "";
      li.append(...parts("table.lobby.seatIs", { seat: WORDS.seat(s.seat + 1), who, what: what ? ` — ${what}` : "" }));
      if (s.seat === state.seat) li.classList.add("me");
      return li;
    }),
  );
  $("join").hidden = !joining;
  if (joining && !focusedOnce) {
    focusedOnce = true; // once: a later update does not take the focus from where the person put it
    $("join-name").focus({ preventScroll: true });
  }
  askRules(ctx.tableId, ctx.redraw);
  $("lobby-rules").hidden = !rules;
  if (rules) {
    $("lobby-preset").textContent = presetLine(rules, ctx.presets);
    $("lobby-rules-list").replaceChildren(...ruleItems(rules, state.options));
  }
  $("invites").hidden = !lobby.invites;
  if (lobby.invites) {
    $("invite-list").replaceChildren(
      ...lobby.invites.map((/** @type {{seat: number, url: string}} */ invite) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = location.origin + invite.url;
        a.textContent = t("table.lobby.seatIs", { seat: WORDS.seat(invite.seat + 1), who: a.href, what: "" });
        a.dataset.seat = String(invite.seat);
        const revoke = document.createElement("button");
        revoke.type = "button";
        revoke.className = "revoke";
        revoke.textContent = WORDS.newLink();
        revoke.title = WORDS.newLinkTitle();
        revoke.setAttribute("aria-label", WORDS.newLinkLabel(invite.seat + 1));
        revoke.addEventListener("click", () => ctx.send({ type: "revoke", seat: invite.seat }));
        li.append(a, " ", revoke);
        return li;
      }),
    );
    $("spectate").textContent = WORDS.spectators(`${location.origin}${lobby.spectate}`);
  }
}
