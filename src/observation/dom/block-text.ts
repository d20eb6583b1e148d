import { cleanText } from '../clean-text.ts';
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
const BREAKS = new Set([
  'br',
  'hr',
  'p',
  'div',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'ul',
  'ol',
  'table',
  'blockquote',
  'pre',
  'address',
  'figcaption',
]);

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

/** Nodes at this depth below a block or deeper add nothing to its text (as in `collect`). */
const MAX_DEPTH = 64;

/**
 * The same text as `blockText`, gathered while the walk passes the block's nodes (it visits them
 * anyway) instead of by a second descent per block: `enter` / `leave` for each element inside the
 * block, `text` for each text node, in tree order; `depth` is the node's depth below the block
 * (0: a child of it). Both readings `blockText` may need run side by side: without the labels and
 * buttons of controls, and — used only when that one is empty because of them — with them.
 */
export class BlockTextCollector {
  private plain = '';
  private withControls = '';
  private leftPlain = 0;
  private leftWithControls = 0;
  private skippedControl = false;
  /** Open elements whose subtree each reading leaves out. */
  private outPlain = 0;
  private outWithControls = 0;
  /** The block has no element children: its text is its textContent, unbounded (as in `blockText`). */
  private simple = true;
  block!: Element;
  maxLength = 0;

  constructor(block?: Element, maxLength = 0) {
    if (block) this.reset(block, maxLength);
  }

  /** Starts on another block (one collector serves a whole walk: blocks do not nest). */
  reset(block: Element, maxLength: number): this {
    this.block = block;
    this.maxLength = maxLength;
    this.plain = this.withControls = '';
    this.leftPlain = this.leftWithControls = maxLength * 4;
    this.skippedControl = false;
    this.outPlain = this.outWithControls = 0;
    this.simple = block.firstElementChild === null;
    return this;
  }

  /** An element inside the block; returns what `leave` needs back for it. */
  enter(localName: string, depth: number): number {
    if (this.simple || depth >= MAX_DEPTH) return 0;
    let out = 0;
    if (this.outPlain === 0 && this.leftPlain > 0) {
      if (CONTROL_TEXT.has(localName)) {
        if (!NEVER_TEXT.has(localName)) this.skippedControl = true;
        this.outPlain++;
        out |= 1;
      } else if (BREAKS.has(localName)) this.plain += ' ';
    }
    if (this.outWithControls === 0 && this.leftWithControls > 0) {
      if (NEVER_TEXT.has(localName)) {
        this.outWithControls++;
        out |= 2;
      } else if (BREAKS.has(localName)) this.withControls += ' ';
    }
    return out;
  }

  leave(token: number): void {
    if (token & 1) this.outPlain--;
    if (token & 2) this.outWithControls--;
  }

  text(data: string, depth: number): void {
    if (this.simple) {
      this.plain += data;
      return;
    }
    if (depth >= MAX_DEPTH) return;
    if (this.outPlain === 0 && this.leftPlain > 0) {
      this.plain += data;
      this.leftPlain -= data.length;
    }
    if (this.outWithControls === 0 && this.leftWithControls > 0) {
      this.withControls += data;
      this.leftWithControls -= data.length;
    }
  }

  result(): string {
    const text = cleanText(this.plain, this.maxLength);
    return this.simple || text || !this.skippedControl ? text : cleanText(this.withControls, this.maxLength);
  }
}
