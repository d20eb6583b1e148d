import { cleanText } from './classify.ts';
import { dom } from './native.ts';

/**
 * The text of a block (a cell, a paragraph, a list item…) as a reader sees it, without what is
 * not content there: option lists of selects, scripts and styles — and the labels and buttons of
 * controls inside it (they are reported as controls, with those words as their names), unless
 * they are all the block has (a header cell that is just a sort button is named by it).
 */

const SHOW_ELEMENT_AND_TEXT = 0x1 | 0x4;
const TEXT_NODE = 3;
const NEVER_TEXT = new Set(['select', 'option', 'optgroup', 'datalist', 'script', 'style', 'noscript', 'template', 'textarea']);
const CONTROL_TEXT = new Set([...NEVER_TEXT, 'label', 'button']);
/** Elements that start a new line when rendered: their text is not glued to the previous word. */
const BREAKS = new Set(['br', 'hr', 'p', 'div', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'ul', 'ol', 'table', 'blockquote', 'pre', 'address', 'figcaption']);

export function blockText(el: Element, max: number): string {
  if (el.firstElementChild === null) return cleanText(dom.text(el), max);
  return collect(el, max, CONTROL_TEXT) || collect(el, max, NEVER_TEXT);
}

function collect(el: Element, max: number, skipped: ReadonlySet<string>): string {
  const doc = dom.ownerDocument(el);
  if (!doc) return '';
  const walker = dom.treeWalker(doc, el, SHOW_ELEMENT_AND_TEXT);
  let text = '';
  let node: Node | null = walker.nextNode();
  while (node && text.length < max * 4) {
    if (dom.nodeType(node) === TEXT_NODE) text += (node as Text).data;
    else {
      const name = dom.localName(node as Element);
      if (skipped.has(name)) {
        // Skip the subtree: its next sibling, or the next sibling of the nearest ancestor that has one.
        let next: Node | null = walker.nextSibling();
        while (!next && walker.parentNode()) next = walker.nextSibling();
        node = next;
        continue;
      }
      if (BREAKS.has(name)) text += ' ';
    }
    node = walker.nextNode();
  }
  return cleanText(text, max);
}
