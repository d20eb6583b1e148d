import { EVENT_MARKS, formatMarks, isEmptyFunction, LISTENER_MARK_ATTRIBUTE, MARK } from '../../protocol/listener-marks.ts';
import { LISTENER_MARKS_FLUSH } from '../../protocol/page-channel-names.ts';

/**
 * Which elements the page's scripts made live (issue 26): `addEventListener` and the `on…`
 * handler properties are wrapped at document_start, before any page script runs, as content
 * blockers and test tools do. (React gives no element a listener of its own: it listens at its
 * root, which says nothing about one element, but sets an empty `onclick` on each element with an
 * onClick prop — noted as a `stub`, see MARK.) A registration for a click, key, hover, drag or drop event on an
 * element is noted in a WeakMap (a map lookup and an OR: pages register thousands); html, body,
 * head, the document and the window are delegation roots that say nothing about one element.
 *
 * The isolated world reads the marks as an attribute (LISTENER_MARK_ATTRIBUTE): right before it
 * observes it dispatches LISTENER_MARKS_FLUSH on the document, and this world writes the
 * attribute on every connected element whose marks are new or grew since the last flush
 * (detached ones wait until they are connected), except inside an editor (the person's document,
 * which the page may save as HTML). The attribute reaches the walker's one
 * attribute query, closed shadow roots included, and its change makes the incremental walk
 * look at the element again. Removing a listener keeps its mark: at worst a control that no
 * longer does anything is offered, with the approval an inferred control always needs.
 *
 * Nothing here may throw into the page or change what its calls do: the original is called
 * with the same `this`, arguments and return value, and a failure to record is ignored.
 */

/** Elements marked and not yet written; the oldest are dropped beyond this (a page that registers without end). */
const MAX_PENDING = 20_000;
const SKIPPED = new Set(['html', 'body', 'head']);
/** Arguments of a getter call (one array for all: Reflect.apply does not keep or change it). */
const NO_ARGS: [] = [];

export function installListenerMarks(win: Window & typeof globalThis = window): void {
  const doc = win.document;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const ET = win.EventTarget.prototype;
  const originalAdd = ET.addEventListener;
  const nodeTypeOf = getDescriptor(win.Node.prototype, 'nodeType')!.get!;
  const connectedOf = getDescriptor(win.Node.prototype, 'isConnected')!.get!;
  const localNameOf = getDescriptor(win.Element.prototype, 'localName')!.get!;
  const editableOf = getDescriptor(win.HTMLElement.prototype, 'isContentEditable')?.get;
  const setAttribute = win.Element.prototype.setAttribute;
  const getAttribute = win.Element.prototype.getAttribute;
  const marks = new WeakMap<Element, number>();
  const pending = new Set<Element>();
  const toSource = Function.prototype.toString;
  // An empty handler (React's onclick stub) says less than a real one (MARK.stub); a short source is cheap to read.
  const emptyHandler = (fn: unknown): boolean => {
    try {
      return (fn as { length: number }).length === 0 && isEmptyFunction(apply(toSource, fn, NO_ARGS) as string);
    } catch {
      return false;
    }
  };

  const note = (target: unknown, bit: number): void => {
    if (target === win || target === doc || target === null || typeof target !== 'object') return;
    try {
      if (apply(nodeTypeOf, target, NO_ARGS) !== 1 || SKIPPED.has(apply(localNameOf, target, NO_ARGS) as string)) return;
      const el = target as Element;
      const old = marks.get(el) ?? 0;
      const next = old | bit;
      if (next === old) return;
      marks.set(el, next);
      pending.add(el);
      if (pending.size > MAX_PENDING) pending.delete(pending.values().next().value!);
    } catch {
      // Not a node (an XMLHttpRequest, a MediaQueryList…), or a page that broke a builtin: nothing to note.
    }
  };

  const addEventListener = function (this: unknown, type: unknown, listener: unknown): unknown {
    // The very arguments, however many (no copy: a page registers thousands of listeners).
    // eslint-disable-next-line prefer-rest-params
    const result = apply(originalAdd, this, arguments);
    // Only a string type is looked up: any other value would run page code when converted.
    if (typeof type === 'string' && listener != null) {
      const bit = EVENT_MARKS.get(type);
      if (bit !== undefined) note(this, bit);
    }
    return result;
  };
  disguise(addEventListener, originalAdd, 'addEventListener');
  defineProperty(ET, 'addEventListener', { ...getDescriptor(ET, 'addEventListener'), value: addEventListener });

  // `el.onclick = fn`: the handler properties of HTML and SVG elements.
  for (const proto of [win.HTMLElement.prototype, win.SVGElement.prototype]) {
    for (const [type, bit] of EVENT_MARKS) {
      const key = `on${type}`;
      const d = getDescriptor(proto, key);
      const set = d?.set;
      if (!d || !set || !d.configurable) continue;
      const setter = function (this: unknown, value: unknown): void {
        apply(set, this, [value]);
        if (typeof value === 'function') note(this, emptyHandler(value) ? MARK.stub : bit);
      };
      disguise(setter, set, `set ${key}`);
      defineProperty(proto, key, { ...d, set: setter });
    }
  }

  const flush = (): void => {
    for (const el of pending) {
      try {
        if (!apply(connectedOf, el, NO_ARGS)) continue;
        pending.delete(el);
        // Never inside an editor: its content is the person's document (saved as HTML), and Steward takes no control there.
        if (editableOf && el instanceof win.HTMLElement && apply(editableOf, el, NO_ARGS)) continue;
        const words = formatMarks(marks.get(el) ?? 0);
        if (apply(getAttribute, el, [LISTENER_MARK_ATTRIBUTE]) !== words) apply(setAttribute, el, [LISTENER_MARK_ATTRIBUTE, words]);
      } catch {
        pending.delete(el);
      }
    }
  };
  apply(originalAdd, doc, [
    LISTENER_MARKS_FLUSH,
    () => {
      try {
        flush();
      } catch {
        // The page broke a builtin the flush needs: the isolated world sees fewer marks.
      }
    },
  ]);
}

/** The wrapper reads like the original: its name, its length, and `toString()` of a native function. */
export function disguise(wrapper: (...args: never[]) => unknown, original: (...args: never[]) => unknown, name: string): void {
  const source = Function.prototype.toString.call(original);
  Object.defineProperty(wrapper, 'name', { value: name, configurable: true });
  Object.defineProperty(wrapper, 'length', { value: original.length, configurable: true });
  Object.defineProperty(wrapper, 'toString', { value: () => source, configurable: true, writable: true });
}
