// The score keeper's engine on the phone: a Web Worker that runs upriver's own Python rules in
// Pyodide, so the page stays responsive while Python starts. It loads Pyodide (vendor/pyodide),
// unpacks upriver's core modules (/keep-core.zip, zipped by the server from the installed package)
// and answers each message {id, call, args} by calling upriver.keeper.browser.<call>(...args):
// every argument and answer is JSON text, so nothing but strings crosses the worker's edge.
//
// Starting Python and importing the core costs seconds on a phone, every start. So the first start
// keeps a memory snapshot of the engine just started (Pyodide's memory once the core is imported
// and warm) in Cache Storage, and each later start restores it instead: the WebAssembly is
// instantiated and its memory set back, with no Python to start and nothing to import. The
// snapshot is kept under a key made of Pyodide's version and a hash of the core zip and of this
// file, so a new core or a new start makes a new snapshot; one that cannot be restored is dropped
// and the engine starts the long way (and keeps a new one).

import { loadPyodide, version } from "./vendor/pyodide/pyodide.mjs";

const CORE = "/home/pyodide/upriver-core";
const ENTRY = "upriver.keeper.browser";
const CALLS = new Set(["open_sheet", "act", "start", "import_record", "export", "options"]);
const INDEX = new URL("../keep-engine/", import.meta.url).href;
/** Its own cache, apart from the service worker's (which drops every other "upriver-keeper-" cache). */
const SNAPSHOTS = "upriver-engine-snapshot";

/** When each step of the start was done (ms since the worker started), for whoever measures it. */
/** @type {Record<string, number>} */
const timings = {};
const mark = (/** @type {string} */ what) => { timings[what] = Math.round(performance.now()); };

/** @param {string} path */
async function bytes(path) {
  const response = await fetch(new URL(path, import.meta.url));
  if (!response.ok) throw new Error(`the keeper's ${path} could not be loaded (${response.status})`);
  return response.arrayBuffer();
}

/** The address the snapshot of this engine is kept under: Pyodide's version, and a hash of the
 * core zip and of this file. @param {ArrayBuffer} core @param {ArrayBuffer} source */
async function snapshotKey(core, source) {
  const both = new Uint8Array(core.byteLength + source.byteLength);
  both.set(new Uint8Array(core), 0);
  both.set(new Uint8Array(source), core.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", both));
  const hex = [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${INDEX}memory-snapshot?pyodide=${version}&build=${hex}`;
}

/** The snapshot kept (one at most) and its key, or null (none kept, or it cannot be read). */
async function keptSnapshot() {
  try {
    const cache = await caches.open(SNAPSHOTS);
    const [request] = await cache.keys();
    const kept = request && await cache.match(request);
    return kept ? { key: request.url, snapshot: new Uint8Array(await kept.arrayBuffer()) } : null;
  } catch {
    return null;
  }
}

/** Keep `snapshot` under `key`, in place of any other. @param {string} key @param {Uint8Array} snapshot */
async function keepSnapshot(key, snapshot) {
  const cache = await caches.open(SNAPSHOTS);
  for (const old of await cache.keys()) await cache.delete(old);
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(key, new Response(/** @type {Uint8Array<ArrayBuffer>} */ (snapshot), { headers }));
}

/** The engine from a kept snapshot: Pyodide's memory set back, the core already imported and warm.
 * @param {(settings: any) => Promise<any>} create @param {Uint8Array} snapshot */
async function restored(create, snapshot) {
  const pyodide = await loadPyodide({
    indexURL: INDEX,
    _loadSnapshot: snapshot,
    // Pyodide's WebAssembly defines its own memory (and so ignores the size asked of it): grown
    // here to the snapshot's, before the snapshot is copied into it.
    createPyodideModule: async (settings) => {
      const module = await create(settings);
      mark("instantiated");
      module.growMemory(snapshot.byteLength);
      return module;
    },
  });
  delete (/** @type {any} */ (pyodide))._api.config._loadSnapshot; // its memory is Pyodide's now
  // The snapshot's random generator would otherwise give every start the same numbers.
  pyodide.runPython("import random\nrandom.seed()");
  mark("restored");
  // Every module of the core zip is imported in the snapshot (the zip is the import closure of
  // the entry, the data files it reads once included), so its files are not unpacked again.
  return pyodide.pyimport(ENTRY);
}

/** The engine started the long way: Python, the core unpacked and imported; and its snapshot kept.
 * @param {(settings: any) => Promise<any>} create @param {ArrayBuffer} core @param {string | null} key */
async function started(create, core, key) {
  const pyodide = await loadPyodide({ indexURL: INDEX, createPyodideModule: create, _makeSnapshot: key !== null });
  mark("pyodide");
  pyodide.unpackArchive(core, "zip", { extractDir: CORE });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(CORE)})\nimport ${ENTRY}`);
  mark("imported");
  pyodide.runPython(`${ENTRY}.warm()`);
  mark("warm");
  if (key !== null) {
    // Made now, before any sheet is opened in it, so a restored engine holds none; kept meanwhile.
    const snapshot = pyodide.makeMemorySnapshot();
    mark("snapshot");
    keepSnapshot(key, snapshot).catch(() => { /* the next start then takes the long way again */ });
  }
  return pyodide.pyimport(ENTRY);
}

async function boot() {
  mark("start");
  // All at once: Pyodide's script, the core, this file (for the key) and the kept snapshot.
  const snapshots = Boolean(self.caches && crypto.subtle);
  const [script, core, source, kept] = await Promise.all([
    import(`${INDEX}pyodide.asm.mjs`),
    bytes("../keep-core.zip"),
    snapshots ? bytes(import.meta.url) : null,
    snapshots ? keptSnapshot() : null,
  ]);
  const create = script.default;
  const key = source ? await snapshotKey(core, source) : null;
  mark("read");
  let browser = null;
  if (kept && kept.key === key) {
    try {
      browser = await restored(create, kept.snapshot);
    } catch {
      await caches.delete(SNAPSHOTS); // made by another Pyodide, or damaged: the long way, kept anew
    }
  }
  browser ??= await started(create, core, key);
  browser.warm(); // at once, after a restore too: the engine answers before it is called ready
  mark("ready");
  return browser;
}

const engine = boot();
engine.then(() => postMessage({ ready: true, timings }), (err) => postMessage({ ready: false, error: String(err) }));

addEventListener("message", async (event) => {
  const { id, call, args } = event.data;
  try {
    if (!CALLS.has(call)) throw new Error(`no such call: ${call}`);
    const browser = await engine;
    postMessage({ id, result: browser[call](...args) });
  } catch (err) {
    postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
});
