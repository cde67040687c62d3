// The table's one WebSocket: it reconnects after a loss, waiting longer each time (0.5 s doubling up
// to 10 s), and the server's fresh state on reconnecting redraws the page. Closed for good: no seat,
// no table, full, or a host name the server does not answer to.

const FINAL_CLOSES = [4400, 4403, 4404, 4429];

/**
 * A message from the server (web/play/protocol.py): its `type`, and the rest as that type has it.
 * @typedef {Record<string, any>} ServerMessage
 */

/**
 * The table's state as the server sends it to this page (web/play/states.py): what this seat may know.
 * Its shape is the server's; the pages read it as they draw.
 * @typedef {Record<string, any>} TableState
 */

/**
 * `onMessage(message)` gets every message the server sends; `onStatus(ok, final, delayMs)` is told
 * when the socket opens (ok) or closes (final: it will not try again; else it retries after delayMs).
 * @param {object} how
 * @param {string} how.tableId
 * @param {() => string} how.token this page's token now ("" for a spectator)
 * @param {(message: ServerMessage) => void} how.onMessage
 * @param {(ok: boolean, final: boolean, delayMs: number) => void} how.onStatus
 * @returns {{send: (message: object) => boolean, reconnect: () => void}}
 */
export function openSocket({ tableId, token, onMessage, onStatus }) {
  /** @type {WebSocket | null} */
  let socket = null;
  let attempts = 0;
  let retryTimer = 0;
  let open = false;

  function connect() {
    clearTimeout(retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const secret = token();
    const query = secret ? `?token=${encodeURIComponent(secret)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${tableId}${query}`);
    socket = ws;
    ws.onopen = () => {
      attempts = 0;
      open = true;
      onStatus(true, false, 0);
    };
    ws.onmessage = (event) => onMessage(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (socket !== ws) return;
      open = false;
      const final = FINAL_CLOSES.includes(event.code);
      const delay = Math.min(10000, 500 * 2 ** attempts) * (0.8 + 0.4 * Math.random());
      attempts += 1;
      onStatus(false, final, delay);
      if (!final) retryTimer = setTimeout(connect, delay);
    };
  }

  // Back online (the browser says so): try at once rather than at the end of the wait.
  window.addEventListener("online", () => {
    if (!open) connect();
  });

  connect();
  return {
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    // Open again at once, with the token the page holds now (after a final close, too).
    reconnect() {
      attempts = 0;
      const old = socket;
      socket = null;
      if (old) old.close();
      connect();
    },
  };
}
