// The score keeper as an app on the phone: registers the service worker (keep-sw.js, which keeps
// the keeper on the phone), offers to install it where the browser allows, and shows a small strip
// saying where the sheet is kept: on the server, on this phone while there is no server (entries
// checked by the engine on the phone), and what made offline still waits for the server or could
// not be merged (keep-api.js decides; this only shows it).

import { t } from "./i18n.js";
import { dismissConflicts, staticSite, warmEngine } from "./keep-api.js";

const style = Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("pwa.css", import.meta.url).href });
document.head.append(style);

const strip = document.createElement("div");
strip.className = "offline-strip";
strip.setAttribute("role", "status");
strip.hidden = true;
const install = document.createElement("button");
install.type = "button";
install.className = "install";
install.textContent = t("keeper.install");
install.hidden = true;
// A badge: the keeper is kept on this device. On a phone's narrow bar only its tick shows.
const badge = Object.assign(document.createElement("span"), {
  className: "offline-ready", title: t("keeper.offlineReadyHint"), hidden: true,
});
badge.setAttribute("role", "img");
badge.setAttribute("aria-label", t("keeper.offlineReady"));
badge.append("✓", Object.assign(document.createElement("span"), { className: "label", textContent: ` ${t("keeper.offlineReady")}` }));
const bar = document.querySelector("header.bar");
const languages = bar?.querySelector(".lang-bar");
if (languages) languages.before(badge, install);
else bar?.append(badge, install);
document.querySelector("main")?.before(strip);

/** @type {any} */
let prompt = null;
addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  prompt = event;
  install.hidden = false;
});
install.addEventListener("click", async () => {
  if (!prompt) return;
  prompt.prompt();
  await prompt.userChoice;
  prompt = null;
  install.hidden = true;
});
addEventListener("appinstalled", () => { install.hidden = true; });

const MERGED_SHOWN_MS = 60_000;
/** @type {{text: string, at: number} | null} */
let merged = null;

/** @param {{online: boolean, on_phone: boolean, pending: number, conflicts: {error: string}[], merged?: {merged: number, conflicts: number, refused: number} | null}} state */
function show(state) {
  const lines = [];
  // What the merge of the entries made with no server did: said for a minute, whatever is drawn meanwhile.
  if (state.merged) merged = { text: t("keeper.mergedSummary", { merged: state.merged.merged, conflicts: state.merged.conflicts }), at: Date.now() };
  if (merged && Date.now() - merged.at < MERGED_SHOWN_MS) lines.push(merged.text);
  if (!state.online) lines.push(t(staticSite() ? "keeper.offlineOnPhone" : "keeper.offlineNoServer"));
  else if (state.on_phone) lines.push(t("keeper.offlineOnPhone"));
  if (state.pending) lines.push(t("keeper.offlinePending", { count: state.pending }));
  /** @type {HTMLElement[]} */
  const parts = lines.map((line) => Object.assign(document.createElement("p"), { textContent: line }));
  if (state.conflicts.length) {
    const list = document.createElement("ul");
    for (const conflict of state.conflicts) {
      list.append(Object.assign(document.createElement("li"), { textContent: conflict.error }));
    }
    const dismiss = Object.assign(document.createElement("button"), { type: "button", textContent: t("keeper.offlineDismiss") });
    dismiss.addEventListener("click", async () => {
      const id = location.pathname.split("/").pop() || "";
      await dismissConflicts(id);
      show({ ...state, conflicts: [] });
    });
    parts.push(Object.assign(document.createElement("p"), { textContent: t("keeper.offlineConflicts") }), list, dismiss);
  }
  strip.replaceChildren(...parts);
  strip.hidden = parts.length === 0;
  strip.classList.toggle("away", !state.online);
}

addEventListener("upriver-sheet", (event) => show(/** @type {CustomEvent} */ (event).detail));
// Whether the engine on the phone has started, for whoever measures or tests the page.
addEventListener("upriver-engine", (event) => {
  const { ready, timings } = /** @type {CustomEvent} */ (event).detail;
  document.documentElement.dataset.engine = ready ? "ready" : "failed";
  if (timings) document.documentElement.dataset.engineTimings = JSON.stringify(timings);
});

if ("serviceWorker" in navigator) {
  // Registered once the page has loaded, so keeping the keeper on the phone does not slow its first start.
  const register = () => navigator.serviceWorker.register("/keep-sw.js", { scope: "/" }).catch(() => { /* then online only */ });
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
  // Once the keeper is kept on the phone, the engine starts in the background (from that copy), so an
  // entry made with no server is quick.
  navigator.serviceWorker.ready.then(() => {
    badge.hidden = false; // the keeper is kept on this device: it opens with no network
    const sw = navigator.serviceWorker;
    if (sw.controller) warmEngine();
    else sw.addEventListener("controllerchange", () => warmEngine(), { once: true });
  });
}
if (!navigator.onLine || staticSite()) warmEngine();
