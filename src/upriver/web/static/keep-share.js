// A link that holds a whole kept game: the sheet as the server drew it (every round, every total, the
// evening's changes), compressed into the link's fragment. The fragment never reaches a server, and
// the page draws it with no request at all: a game can be shown from a message, offline, forever.

const PREFIX = "#game=";

/**
 * Bytes through a (de)compression stream.
 * @param {Uint8Array} bytes
 * @param {CompressionStream | DecompressionStream} stream
 * @returns {Promise<Uint8Array>}
 */
async function through(bytes, stream) {
  const piped = new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** @param {Uint8Array} bytes */
function base64url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
function unbase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/**
 * The link to `sheet` (the keeper's JSON of a sheet) on this page's server, holding all of it but its
 * ids: whoever has the link sees the game, never its edit link or its server copy.
 * @param {import("./keep-api.js").SheetView} sheet
 * @returns {Promise<string>}
 */
export async function gameLink(sheet) {
  const game = /** @type {Record<string, unknown>} */ ({ ...sheet });
  for (const key of ["id", "share", "version", "can_undo"]) delete game[key];
  const bytes = new TextEncoder().encode(JSON.stringify({ ...game, read_only: true }));
  return `${location.origin}/keep/${PREFIX}${base64url(await through(bytes, new CompressionStream("deflate-raw")))}`;
}

/** Whether the page was opened from a game link. */
export const isGameLink = () => location.hash.startsWith(PREFIX);

/**
 * The sheet a game link holds, read-only.
 * @returns {Promise<import("./keep-api.js").SheetView>}
 * @throws {Error} when the fragment is not a game this page wrote
 */
export async function readGameLink() {
  const bytes = await through(unbase64url(location.hash.slice(PREFIX.length)), new DecompressionStream("deflate-raw"));
  const game = JSON.parse(new TextDecoder().decode(bytes));
  if (!game || !Array.isArray(game.players) || !game.sheet || !Array.isArray(game.sheet.rows)) throw new Error("not a game");
  return { ...game, id: null, share: null, read_only: true, can_undo: false, from_link: true };
}
