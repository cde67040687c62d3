// This browser's tables, kept in localStorage under "upriver.tables" for the start page to list:
// a JSON array of {table, token, seat, at} (at: ms since 1970), newest first, at most 30 — the format
// the start page (lobby.js) and the table page share through this module.

export const STORE_KEY = "upriver.tables";

/**
 * A table this browser holds a seat at (or watches: seat null).
 * @typedef {{table: string, token: string, seat: number | null, at?: number}} HeldTable
 */

/** The tables this browser remembers (an unreadable list is an empty one).
 * @returns {HeldTable[]} */
export function remembered() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.table === "string") : [];
  } catch {
    return [];
  }
}

/** Record (or bring to the front) a table this browser holds a seat at.
 * @param {HeldTable} entry */
export function rememberTable(entry) {
  const others = remembered().filter((t) => t.table !== entry.table);
  const list = [{ ...entry, at: Date.now() }, ...others].slice(0, 30);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(list));
  } catch {
    // storage full or refused (a private window): the list is only a convenience
  }
}

/** Whether this browser already holds this table under this token (so a redraw does not reorder the list).
 * @param {string} table
 * @param {string} token */
export function holds(table, token) {
  return remembered().some((t) => t.table === table && t.token === token);
}
