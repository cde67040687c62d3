// A sheet's exports (CSV, and the game record): the server's file when it answers, else the same file
// made by the engine on the phone from the phone's copy of the sheet (keep-api.js), downloaded either
// way under the name the server gives it (upriver-sheet-<the read-only id's first 8>.csv or .json; a
// sheet only on the phone by its own id). When neither can make it, the page says so.

import { exportOnPhone, staticSite } from "./keep-api.js";
import { WORDS as W } from "./keep-words.js";

/** @typedef {"csv" | "record"} Kind */

const TYPES = { csv: "text/csv;charset=utf-8", record: "application/json;charset=utf-8" };

/**
 * The server's export, or null when it cannot answer (no network, the server stopped, a sheet it has not).
 * @param {string} url @returns {Promise<Blob | null>}
 */
async function fromServer(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return null;
    return await response.blob();
  } catch {
    return null;
  }
}

/** Hand `blob` to the browser as a download named `name`. @param {Blob} blob @param {string} name */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Export sheet `id` (its edit id, or with `shared` its read-only id `share`) as `kind`; `say` shows why not.
 * @param {{id: string, share: string | null | undefined, shared: boolean, kind: Kind, say: (message: string) => void}} what
 * @returns {Promise<boolean>} whether a file was downloaded
 */
export async function exportSheet({ id, share, shared, kind, say }) {
  const url = `/api/sheets/${shared ? "shared/" : ""}${id}/${kind}`;
  const onServer = staticSite() || id.startsWith("local-") ? null : await fromServer(url);
  const onPhone = onServer ? null : await exportOnPhone(id, kind).catch(() => /** @type {string | null} */ (null));
  const blob = onServer || (onPhone && new Blob([onPhone], { type: TYPES[kind] }));
  if (!blob) {
    say(W.exportUnavailable);
    return false;
  }
  const stem = share ? share.slice(0, 8) : id.slice(0, 14);
  download(blob, `upriver-sheet-${stem}.${kind === "csv" ? "csv" : "json"}`);
  return true;
}
