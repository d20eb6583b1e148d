import { dom } from './native.ts';

/**
 * Chromium recomputes `element.labels` by scanning the whole document the first time it is read
 * after any DOM mutation, and dom-accessibility-api reads it for every labelable control: on a
 * 16k-element page that is ~150 ms of O(n²) work. We index the labels of a tree once, lazily
 * (`label.control` is a cheap id lookup), keep the index until a mutation touches labels, and —
 * only for the duration of one synchronous capture — answer `labels` from it. The override lives
 * on this world's prototypes (in the content script, the isolated world's own, invisible to the
 * page) and is removed before returning.
 */

const LABELABLE = [
  'HTMLButtonElement',
  'HTMLInputElement',
  'HTMLMeterElement',
  'HTMLOutputElement',
  'HTMLProgressElement',
  'HTMLSelectElement',
  'HTMLTextAreaElement',
] as const;

const controlOf = (() => {
  const d = Object.getOwnPropertyDescriptor(HTMLLabelElement.prototype, 'control');
  return (label: Element): Element | null => (d?.get ? (d.get.call(label) as Element | null) : null);
})();

export class LabelIndex {
  private readonly byControl = new Map<Element, Element[]>();
  private readonly indexed = new Set<Node>();

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
    const restore: Array<() => void> = [];
    const labelsOf = (el: Element) => this.labelsOf(el);
    try {
      for (const win of new Set(windows)) {
        for (const name of LABELABLE) {
          const proto = (win as unknown as Record<string, { prototype: object } | undefined>)[name]?.prototype;
          if (!proto) continue;
          const original = Object.getOwnPropertyDescriptor(proto, 'labels');
          if (!original?.configurable) continue;
          Object.defineProperty(proto, 'labels', {
            configurable: true,
            enumerable: original.enumerable ?? false,
            get(this: Element) {
              return labelsOf(this);
            },
          });
          restore.push(() => Object.defineProperty(proto, 'labels', original));
        }
      }
      return fn();
    } finally {
      for (const undo of restore) undo();
    }
  }
}
