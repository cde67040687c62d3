// Taking a seat safely. Before it sends `join`, the page makes a secret of its own, keeps it in this
// browser (localStorage "upriver.joins", by invite) and sends only its SHA-256, the proof. The seat's
// new token comes back to this connection alone (a `seat` message). If that answer is lost — the
// connection cut, the server restarted — the page shows the secret to
// POST /api/tables/{id}/recover and gets its token again; nobody else holding the invite can. The
// secret is forgotten once the join is confirmed. Without Web Crypto (a page served over plain http
// from another machine's address) no proof can be made: the join works, but cannot be recovered.

const JOINS_KEY = "upriver.joins";
const KEEP_MS = 24 * 3600 * 1000;

/** @typedef {{table: string, secret: string, at: number}} HeldJoin */

/** @returns {Record<string, HeldJoin>} the joins this browser sent and has not seen confirmed, by invite */
function heldJoins() {
  try {
    const joins = JSON.parse(localStorage.getItem(JOINS_KEY) || "{}");
    return joins && typeof joins === "object" ? joins : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, HeldJoin>} joins */
function keepJoins(joins) {
  const now = Date.now();
  const fresh = Object.fromEntries(Object.entries(joins).filter(([, join]) => now - join.at < KEEP_MS));
  try {
    localStorage.setItem(JOINS_KEY, JSON.stringify(fresh));
  } catch {
    // storage refused (a private window): this page alone keeps the secret, in memory
  }
}

/** @type {Record<string, string>} secrets of this page's joins, in case storage refused them */
const inMemory = {};

/** @param {Uint8Array} bytes */
function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The `join` message taking the seat of `invite` under `name`, with the proof of a new secret this
 * browser keeps (no proof where Web Crypto is missing).
 * @param {string} tableId
 * @param {string} invite
 * @param {string} name
 * @returns {Promise<{type: string, name: string, proof?: string}>}
 */
export async function joinMessage(tableId, invite, name) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle || !invite) return { type: "join", name };
  const secret = hex(crypto.getRandomValues(new Uint8Array(32)));
  inMemory[invite] = secret;
  keepJoins({ ...heldJoins(), [invite]: { table: tableId, secret, at: Date.now() } });
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return { type: "join", name, proof: hex(new Uint8Array(digest)) };
}

/**
 * Ask the server for the token of this browser's join sent with `invite`, proving it with the kept
 * secret; null when this browser sent no such join or the server refuses (confirmed, too late).
 * @param {string} tableId
 * @param {string} invite
 * @returns {Promise<string | null>}
 */
export async function recoverJoin(tableId, invite) {
  const secret = inMemory[invite] || heldJoins()[invite]?.secret;
  if (!secret) return null;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/recover`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ invite, secret }),
    });
    if (!response.ok) return null;
    const body = await response.json();
    return typeof body.token === "string" ? body.token : null;
  } catch {
    return null;
  }
}

/** This browser's join with `invite` is confirmed (or over): its secret is no longer needed.
 * @param {string} invite */
export function forgetJoin(invite) {
  delete inMemory[invite];
  const joins = heldJoins();
  if (invite in joins) {
    delete joins[invite];
    keepJoins(joins);
  }
}
