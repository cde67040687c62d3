// Card faces and card names in words, for the felt, the hand and the last trick.

export const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };

export function cardWords(text) {
  const rank = text[0];
  return `${RANKS[rank] || rank} of ${SUITS[text[1]][1]}`;
}

export function cardFace(text, tag = "div") {
  const el = document.createElement(tag);
  const [symbol, suit] = SUITS[text[1]];
  el.className = `card ${suit} ${text[1] === "H" || text[1] === "D" ? "red" : "black"}`;
  el.dataset.card = text;
  const rank = text[0] === "T" ? "10" : text[0];
  el.innerHTML = `<span class="rank">${rank}</span><span class="pip">${symbol}</span>`;
  if (tag !== "button") el.setAttribute("aria-label", cardWords(text));
  return el;
}
