// The one function every score keeper request goes through: `api(path, body, players)`.
// `body` undefined: a GET; otherwise a POST of `body` as JSON. It answers the JSON the server
// sent, or throws an Error whose message is the refusal in the page's words (with `status` and
// `rule` as data); `players` are the sheet's names, for a refusal that names a seat.

import { WORDS as W } from "./keep-words.js";

/**
 * @param {string} path
 * @param {object} [body]
 * @param {string[]} [players]
 */
export async function api(path, body, players = []) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error(W.unreachable);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = /** @type {Error & {status?: number, rule?: string}} */ (
      new Error(W.refusal(data, players) || W.refused(response.status)));
    error.status = response.status;
    error.rule = data.rule;
    throw error;
  }
  return data;
}
