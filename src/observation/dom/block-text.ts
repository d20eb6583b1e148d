import { cleanText } from './classify.ts';
import { dom } from './native.ts';

/**
 * The text of a block (a cell, a paragraph, a list item…) as a reader sees it, without what is
 * not content there: option lists of selects, scripts and styles — and the labels and buttons of
 * controls inside it (they are reported as controls, with those words as their names), unless
 * they are all the block has (a header cell that is just a sort button is named by it).
 */

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const NEVER_TEXT = new Set(['select', 'option', 'optgroup', 'datalist', 'script', 'style', 'noscript', 'template', 'textarea']);
const CONTROL_TEXT = new Set([...NEVER_TEXT, 'label', 'button']);
/** Elements that start a new line when rendered: their text is not glued to the previous word. */
const BREAKS = new Set(['br', 'hr', 'p', 'div', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'ul', 'ol', 'table', 'blockquote', 'pre', 'address', 'figcaption']);

export function blockText(el: Element, max: number): string {
  if (el.firstElementChild === null) return cleanText(dom.text(el), max);
  const first = { left: max * 4, skippedControl: false };
  const text = cleanText(collect(el, CONTROL_TEXT, first, 0), max);
  // Only a block that had a label or button to leave out can read differently with it.
  return text || !first.skippedControl ? text : cleanText(collect(el, NEVER_TEXT, { left: max * 4, skippedControl: false }, 0), max);
}

/** Depth-first over a (small) block's children, without a TreeWalker per block. */
function collect(parent: Node, skipped: ReadonlySet<string>, limit: { left: number; skippedControl: boolean }, depth: number): string {
  let text = '';
  for (let n = dom.firstChild(parent); n && limit.left > 0 && depth < 64; n = dom.nextSibling(n)) {
    const type = dom.nodeType(n);
    if (type === TEXT_NODE) {
      const data = (n as Text).data;
      text += data;
      limit.left -= data.length;
    } else if (type === ELEMENT_NODE) {
      const name = dom.localName(n as Element);
      if (skipped.has(name)) {
        if (!NEVER_TEXT.has(name)) limit.skippedControl = true;
        continue;
      }
      if (BREAKS.has(name)) text += ' ';
      text += collect(n, skipped, limit, depth + 1);
    }
  }
  return text;
}
