import { dom } from './native.ts';

/**
 * Chromium recomputes `element.labels` by scanning the whole document the first time it is read
 * after any DOM mutation, and dom-accessibility-api reads it for every labelable control: on a
 * 16k-element page that is ~150 ms of O(n²) work. We index the labels of a tree once, lazily
 * (`label.control` is a cheap id lookup), keep the index until a mutation touches labels, and —
 * only for the duration of one synchronous capture — answer `labels` from it. The override lives
 * on this world's prototypes (in the content script, the isolated world's own, invisible to the
 * page). It is installed once per realm and, outside a capture, calls the original getter:
 * redefining a prototype's property deoptimizes every compiled function that reads properties
 * of those elements, so doing it around each capture made the capture itself run unoptimized.
 */

const LABELABLE = ['HTMLButtonElement', 'HTMLInputElement', 'HTMLMeterElement', 'HTMLOutputElement', 'HTMLProgressElement', 'HTMLSelectElement', 'HTMLTextAreaElement'] as const;

const controlOf = (() => {
  const d = Object.getOwnPropertyDescriptor(HTMLLabelElement.prototype, 'control');
  return (label: Element): Element | null => (d?.get ? (d.get.call(label) as Element | null) : null);
})();

/** What answers `labels` during the capture under way (nothing between captures). */
let active: ((el: Element) => Element[]) | undefined;
/** Prototypes that carry the override (per realm: a frame that navigates gets new ones behind the same window). */
const patched = new WeakSet<object>();

function patchRealm(win: Window): void {
  for (const name of LABELABLE) {
    const proto = (win as unknown as Record<string, { prototype: object } | undefined>)[name]?.prototype;
    if (!proto || patched.has(proto)) continue;
    patched.add(proto);
    const original = Object.getOwnPropertyDescriptor(proto, 'labels');
    const originalGet = original?.get;
    if (!original?.configurable || !originalGet) continue;
    Object.defineProperty(proto, 'labels', {
      configurable: true,
      enumerable: original.enumerable ?? false,
      get(this: Element) {
        return active ? active(this) : originalGet.call(this);
      },
    });
  }
}

export class LabelIndex {
  private readonly byControl = new Map<Element, Element[]>();
  private readonly indexed = new Set<Node>();
  private readonly answer = (el: Element): Element[] => this.labelsOf(el);

  /** Indexes every label of a tree (document or shadow root) once. */
  addTree(root: Document | ShadowRoot): void {
    if (this.indexed.has(root)) return;
    this.indexed.add(root);
    for (const label of dom.queryAll(root, 'label')) {
      const control = controlOf(label);
      if (!control) continue;
      const list = this.byControl.get(control);
      if (list) list.push(label);
      else this.byControl.set(control, [label]);
    }
  }

  labelsOf(el: Element): Element[] {
    const root = dom.rootNode(el);
    if (!this.indexed.has(root) && (dom.isDocument(root) || dom.nodeType(root) === 11)) this.addTree(root as Document | ShadowRoot);
    return this.byControl.get(el) ?? [];
  }

  /** Labels changed somewhere: index again on next use. */
  clear(): void {
    this.byControl.clear();
    this.indexed.clear();
  }

  /** Runs `fn` with `labels` answered from this index in the realms of the given windows. */
  run<T>(windows: Iterable<Window>, fn: () => T): T {
    for (const win of windows) patchRealm(win);
    const outer = active;
    active = this.answer;
    try {
      return fn();
    } finally {
      active = outer;
    }
  }
}
