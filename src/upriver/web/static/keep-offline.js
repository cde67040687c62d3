// The score keeper's engine on the phone: a Web Worker that runs upriver's own Python rules in
// Pyodide, so the page stays responsive while Python starts. It loads Pyodide (vendor/pyodide),
// unpacks upriver's core modules (/keep-core.zip, zipped by the server from the installed package)
// and answers each message {id, call, args} by calling upriver.keeper.browser.<call>(...args):
// every argument and answer is JSON text, so nothing but strings crosses the worker's edge.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const CORE = "/home/pyodide/upriver-core";
const CALLS = new Set(["open_sheet", "act", "start", "import_record", "export", "options"]);

/** When each step of the start was done (ms since the worker started), for whoever measures it. */
/** @type {Record<string, number>} */
const timings = {};
const mark = (/** @type {string} */ what) => { timings[what] = Math.round(performance.now()); };

async function boot() {
  mark("start");
  // Its own files come from /keep-engine/, where the server sends them compressed.
  const pyodide = await loadPyodide({ indexURL: new URL("../keep-engine/", import.meta.url).href });
  mark("pyodide");
  const response = await fetch(new URL("../keep-core.zip", import.meta.url));
  if (!response.ok) throw new Error(`the keeper's core could not be loaded (${response.status})`);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: CORE });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(CORE)})`);
  const browser = pyodide.pyimport("upriver.keeper.browser");
  mark("imported");
  browser.warm();
  mark("warm");
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
