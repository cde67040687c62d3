// The score keeper's service worker: it keeps the keeper's page, scripts, words, Pyodide and
// upriver's core in a cache on the phone, so the keeper starts with no network at all.
// The server (or `upriver keep --export-static`) prepends the build: its version (a hash of every
// file cached) and the list of files, so a new build installs as a new cache and drops the old.
// The sheets' API is never cached here: keep-api.js decides what happens when the server is away;
// only a sheet's exported record is answered from the phone's copy when the server cannot be.

/** @type {{version: string, shell: string[]}} */
const BUILD = /** @type {any} */ (self).UPRIVER_KEEPER_BUILD || { version: "dev", shell: [] };
const CACHE = `upriver-keeper-${BUILD.version}`;
const PAGE = "/keep"; // every keeper address (/keep, /keep/<sheet>, /keep/view/<share>) is this page

self.addEventListener("install", (/** @type {any} */ event) => {
  const worker = /** @type {any} */ (self);
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(BUILD.shell)).then(() => worker.skipWaiting()));
});

self.addEventListener("activate", (/** @type {any} */ event) => {
  const worker = /** @type {any} */ (self);
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("upriver-keeper-") && name !== CACHE) await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

/** The kept page, as a response of its own (a static host may have answered /keep with a redirect to
 * /keep/, and a redirected response may not answer a navigation). */
async function keptPage() {
  const cached = await caches.match(PAGE);
  if (!cached) return null;
  return new Response(await cached.blob(), { status: 200, headers: cached.headers });
}

/** @param {Request} request */
async function page(request) {
  try {
    const response = await fetch(request);
    if (response.ok) return response;
    return (await keptPage()) || response;
  } catch {
    const kept = await keptPage();
    if (kept) return kept;
    throw new Error("the score keeper is not on this phone yet");
  }
}

/** @param {Request} request */
async function file(request) {
  const cached = await caches.match(request, { ignoreSearch: true });
  return cached || fetch(request);
}

/** The record of a sheet as the phone keeps it (keep-api.js's IndexedDB), or null. @param {string} key */
function keptRecord(key) {
  return new Promise((resolve) => {
    const opening = indexedDB.open("upriver-keeper");
    opening.onerror = () => resolve(null);
    opening.onsuccess = () => {
      const db = opening.result;
      if (!db.objectStoreNames.contains("sheets")) { resolve(null); return; }
      const reading = db.transaction("sheets").objectStore("sheets").get(key);
      reading.onsuccess = () => resolve(reading.result ? reading.result.current : null);
      reading.onerror = () => resolve(null);
    };
  });
}

/** A sheet's exported record: the server's, else (no server, or a sheet only on the phone) the phone's.
 * @param {Request} request @param {string} key */
async function record(request, key) {
  /** @type {Response | null} */
  let response = null;
  try {
    response = await fetch(request);
    if (response.ok) return response;
  } catch { /* no server: the phone's copy */ }
  const text = await keptRecord(key);
  if (text === null) return response || Response.error();
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Disposition": `attachment; filename="upriver-sheet-${key.slice(0, 14)}.json"`,
  };
  return new Response(text, { headers });
}

self.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = event.request;
  const url = new URL(request.url);
  const exported = url.pathname.match(/^\/api\/sheets\/([^/]+)\/record$/);
  if (request.method === "GET" && url.origin === location.origin && exported) {
    event.respondWith(record(request, exported[1]));
    return;
  }
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate" && (url.pathname === PAGE || url.pathname.startsWith(`${PAGE}/`))) {
    event.respondWith(page(request));
  } else if (BUILD.shell.includes(url.pathname)) {
    event.respondWith(file(request));
  }
});
