// Building the pages' elements: the one helper every page script uses.

/**
 * What `el` accepts for an element's properties and attributes (see `el`).
 * @typedef {Record<string, unknown>} Props
 */

/**
 * What `el` and `fill` accept as children: nodes, text, numbers, arrays of them; null, undefined and
 * false are left out, so a child can be written `cond ? node : null`.
 * @typedef {ChildItem | ChildItem[] | ChildItem[][]} Child
 */

/** @typedef {Node | string | number | null | undefined | false} ChildItem */

/**
 * A new element `tag` with `props` and `children`.
 *
 * Each prop is, by its name:
 * - `on…` (`onclick`): a listener for that event;
 * - `class`: the class list, `style`: CSS text (set through the CSSOM, which the pages' CSP allows);
 * - a property the element has (`className`, `textContent`, `hidden`, `value`, `checked`, `tabIndex`):
 *   set as that property;
 * - anything else (`aria-label`, `data-round`, `role`, `colspan`, `for`): an attribute, `true` as "".
 *
 * A prop that is null, undefined or false is left out.
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === "class") node.className = String(value);
    else if (key === "style") node.style.cssText = String(value);
    else if (key in node && !key.includes("-")) /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (node))[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...nodes(children));
  return node;
}

/**
 * Replace `node`'s children with `children` (as `el` takes them).
 * @param {Element} node
 * @param {...Child} children
 */
export function fill(node, ...children) {
  node.replaceChildren(...nodes(children));
}

/**
 * The nodes and text of `children`, flattened, without null, undefined and false.
 * @param {Child[]} children
 * @returns {(Node | string)[]}
 */
function nodes(children) {
  /** @type {(Node | string)[]} */
  const out = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) out.push(...nodes(/** @type {Child[]} */ (child)));
    else out.push(child instanceof Node ? child : String(child));
  }
  return out;
}

/**
 * The page's element with `id` (the pages' own markup: it is there).
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => document.getElementById(id);

/**
 * The value of the page's form field `id`: an input, a select or a text area.
 * @param {string} id
 */
export const valueOf = (id) => /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */ ($(id)).value;

/**
 * The page's input `id` (a checkbox's `checked`, a file input's `files`).
 * @param {string} id
 */
export const $input = (id) => /** @type {HTMLInputElement} */ ($(id));

/**
 * The elements under `root` (the document) that match `selector`, as an array. The pages select
 * their own HTML elements, so they are typed as such.
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {HTMLElement[]}
 */
export const all = (selector, root = document) => [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector))];
