/**
 * DOM accessors taken from the prototypes once, at load, and always called with `.call`.
 *
 * Why (checked in Chromium, see test/e2e/observation-hard-pages.spec.ts):
 * - the isolated world has its own JS builtins and its own DOM wrappers and prototypes, so a page
 *   that overwrites `Element.prototype.getAttribute` or `Array.prototype.map` in the main world
 *   changes nothing here;
 * - what a page CAN still do from markup alone is DOM clobbering: `<form>` exposes its named
 *   controls as properties that override even built-ins, in every world (HTMLFormElement is
 *   [LegacyOverrideBuiltIns]): `<input name="action">` makes `form.action` an input and
 *   `<input name="getAttribute">` makes `form.getAttribute` one, in the content script too.
 *   (`<img name="createTreeWalker">` shadows `document.createTreeWalker` in the main world only.)
 * Reading through the prototypes is immune to both, and also protects plain-page use (tests,
 * benchmarks), where the page's own prototypes are the ones we read.
 */

/** The getter function itself (called as `get.call(target)` at one call site per getter, see `dom`). */
function getterOf<T>(proto: object, name: string): (this: object) => T {
  let p: object | null = proto;
  while (p) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d?.get) return d.get as (this: object) => T;
    p = Object.getPrototypeOf(p) as object | null;
  }
  throw new TypeError(`No getter ${name}`);
}

function methodOf<F>(proto: object, name: string): F {
  const fn = (proto as Record<string, unknown>)[name];
  if (typeof fn !== 'function') throw new TypeError(`No method ${name}`);
  return fn as F;
}

const E = Element.prototype;
const N = Node.prototype;
const D = Document.prototype;

const getAttributeFn = methodOf<(this: Element, name: string) => string | null>(E, 'getAttribute');
const hasAttributeFn = methodOf<(this: Element, name: string) => boolean>(E, 'hasAttribute');
const closestFn = methodOf<(this: Element, selector: string) => Element | null>(E, 'closest');
const matchesFn = methodOf<(this: Element, selector: string) => boolean>(E, 'matches');
const elementQueryAllFn = methodOf<(this: Element, selector: string) => NodeListOf<Element>>(E, 'querySelectorAll');
const rectFn = methodOf<(this: Element) => DOMRect>(E, 'getBoundingClientRect');
const checkVisibilityFn = (E as { checkVisibility?: unknown }).checkVisibility as ((this: Element, options?: Record<string, boolean>) => boolean) | undefined;
const containsFn = methodOf<(this: Node, other: Node | null) => boolean>(N, 'contains');
const rootNodeFn = methodOf<(this: Node) => Node>(N, 'getRootNode');
const comparePositionFn = methodOf<(this: Node, other: Node) => number>(N, 'compareDocumentPosition');
const createTreeWalkerFn = methodOf<(this: Document, root: Node, whatToShow?: number) => TreeWalker>(D, 'createTreeWalker');
const docElementFromPointFn = methodOf<(this: Document, x: number, y: number) => Element | null>(D, 'elementFromPoint');
const docQueryAllFn = methodOf<(this: Document, selector: string) => NodeListOf<Element>>(D, 'querySelectorAll');
const docQueryFn = methodOf<(this: Document, selector: string) => Element | null>(D, 'querySelector');
const fragmentQueryFn = methodOf<(this: DocumentFragment, selector: string) => Element | null>(DocumentFragment.prototype, 'querySelector');
const elementQueryFn = methodOf<(this: Element, selector: string) => Element | null>(E, 'querySelector');
const fragmentQueryAllFn = methodOf<(this: DocumentFragment, selector: string) => NodeListOf<Element>>(DocumentFragment.prototype, 'querySelectorAll');

const localNameOf = getterOf<string>(E, 'localName');
const shadowRootOf = getterOf<ShadowRoot | null>(E, 'shadowRoot');
const assignedSlotOf = getterOf<HTMLSlotElement | null>(E, 'assignedSlot');
const hostOf = getterOf<Element>(ShadowRoot.prototype, 'host');
/** Labelable form controls and their `labels` getter: clicking a control's label clicks the control. */
const LABELS_OF: ReadonlyArray<[abstract new () => Element, (this: object) => NodeListOf<HTMLLabelElement> | null]> = [HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement, HTMLButtonElement].map(
  (c) => [c, getterOf<NodeListOf<HTMLLabelElement> | null>(c.prototype, 'labels')],
);
const parentElementOf = getterOf<Element | null>(N, 'parentElement');
const parentNodeOf = getterOf<Node | null>(N, 'parentNode');
const firstChildOf = getterOf<Node | null>(N, 'firstChild');
const nextSiblingOf = getterOf<Node | null>(N, 'nextSibling');
const nodeTypeOf = getterOf<number>(N, 'nodeType');
const textContentOf = getterOf<string | null>(N, 'textContent');
const childElementCountOf = getterOf<number>(E, 'childElementCount');
const firstElementChildOf = getterOf<Element | null>(E, 'firstElementChild');
const nextElementSiblingOf = getterOf<Element | null>(E, 'nextElementSibling');
const isConnectedOf = getterOf<boolean>(N, 'isConnected');
const ownerDocumentOf = getterOf<Document | null>(N, 'ownerDocument');
const namespaceOf = getterOf<string | null>(E, 'namespaceURI');
const documentElementOf = getterOf<Element | null>(D, 'documentElement');
const bodyOf = getterOf<HTMLElement | null>(D, 'body');
const titleOf = getterOf<string>(D, 'title');
const urlOf = getterOf<string>(D, 'URL');
const baseUriOf = getterOf<string>(N, 'baseURI');
const defaultViewOf = getterOf<Window | null>(D, 'defaultView');
const scrollingElementOf = getterOf<Element | null>(D, 'scrollingElement');
const docActiveElementOf = getterOf<Element | null>(D, 'activeElement');
const contentDocumentOf = getterOf<Document | null>(HTMLIFrameElement.prototype, 'contentDocument');
const isContentEditableOf = getterOf<boolean>(HTMLElement.prototype, 'isContentEditable');

const DOCUMENT_NODE = 9;

/** Clobber-proof DOM access (see the file comment). */
export const dom = {
  attr: (el: Element, name: string): string | null => getAttributeFn.call(el, name),
  has: (el: Element, name: string): boolean => hasAttributeFn.call(el, name),
  localName: (el: Element): string => localNameOf.call(el),
  closest: (el: Element, selector: string): Element | null => closestFn.call(el, selector),
  matches: (el: Element, selector: string): boolean => matchesFn.call(el, selector),
  rect: (el: Element): DOMRect => rectFn.call(el),
  /** `checkVisibility` where the browser has it, else "not display:none" via the computed style. */
  checkVisibility: (el: Element, options?: Record<string, boolean>): boolean => {
    if (checkVisibilityFn) return checkVisibilityFn.call(el, options);
    const view = ownerDocumentOf.call(el)?.defaultView;
    const style = view?.getComputedStyle(el);
    return !style || (style.display !== 'none' && style.visibility !== 'hidden');
  },
  contains: (node: Node, other: Node): boolean => containsFn.call(node, other),
  rootNode: (node: Node): Node => rootNodeFn.call(node),
  comparePosition: (node: Node, other: Node): number => comparePositionFn.call(node, other),
  shadowRoot: (el: Element): ShadowRoot | null => shadowRootOf.call(el),
  /** The slot an element is rendered in (null when it is in a closed shadow root, or not slotted). */
  assignedSlot: (el: Element): HTMLSlotElement | null => assignedSlotOf.call(el),
  /** The host of a shadow root. */
  host: (root: ShadowRoot): Element => hostOf.call(root),
  labels: (el: Element): Element[] => {
    for (const [kind, labelsOf] of LABELS_OF) if (el instanceof kind) return Array.from(labelsOf.call(el) ?? []);
    return [];
  },
  parentElement: (node: Node): Element | null => parentElementOf.call(node),
  parentNode: (node: Node): Node | null => parentNodeOf.call(node),
  firstChild: (node: Node): Node | null => firstChildOf.call(node),
  nextSibling: (node: Node): Node | null => nextSiblingOf.call(node),
  nodeType: (node: Node): number => nodeTypeOf.call(node),
  text: (node: Node): string => textContentOf.call(node) ?? '',
  childElementCount: (el: Element): number => childElementCountOf.call(el),
  firstElementChild: (el: Element): Element | null => firstElementChildOf.call(el),
  nextElementSibling: (el: Element): Element | null => nextElementSiblingOf.call(el),
  isConnected: (node: Node): boolean => isConnectedOf.call(node),
  ownerDocument: (node: Node): Document | null => ownerDocumentOf.call(node),
  namespace: (el: Element): string | null => namespaceOf.call(el),
  isContentEditable: (el: HTMLElement): boolean => isContentEditableOf.call(el),
  contentDocument: (frame: HTMLIFrameElement): Document | null => {
    try {
      return contentDocumentOf.call(frame);
    } catch {
      return null;
    }
  },
  isDocument: (node: Node): node is Document => nodeTypeOf.call(node) === DOCUMENT_NODE,
  /** `querySelectorAll` on a document, a shadow root or an element. */
  queryAll(root: Node, selector: string): NodeListOf<Element> {
    const type = nodeTypeOf.call(root);
    if (type === DOCUMENT_NODE) return docQueryAllFn.call(root as Document, selector);
    if (type === 11) return fragmentQueryAllFn.call(root as DocumentFragment, selector);
    return elementQueryAllFn.call(root as Element, selector);
  },
  /** `querySelector` on a document, a shadow root or an element. */
  queryOne(root: Node, selector: string): Element | null {
    const type = nodeTypeOf.call(root);
    if (type === DOCUMENT_NODE) return docQueryFn.call(root as Document, selector);
    if (type === 11) return fragmentQueryFn.call(root as DocumentFragment, selector);
    return elementQueryFn.call(root as Element, selector);
  },
  treeWalker: (doc: Document, root: Node, whatToShow: number): TreeWalker => createTreeWalkerFn.call(doc, root, whatToShow),
  elementFromPoint(root: Document | ShadowRoot, x: number, y: number): Element | null {
    if (nodeTypeOf.call(root) === DOCUMENT_NODE) return docElementFromPointFn.call(root as Document, x, y);
    return (root as ShadowRoot).elementFromPoint(x, y);
  },
  doc: {
    documentElement: (d: Document): Element | null => documentElementOf.call(d),
    body: (d: Document): HTMLElement | null => bodyOf.call(d),
    title: (d: Document): string => {
      const t = titleOf.call(d);
      return typeof t === 'string' ? t : '';
    },
    url: (d: Document): string => urlOf.call(d),
    baseUri: (d: Document): string => baseUriOf.call(d),
    view: (d: Document): Window | null => defaultViewOf.call(d),
    scrollingElement: (d: Document): Element | null => scrollingElementOf.call(d),
    activeElement: (d: Document): Element | null => docActiveElementOf.call(d),
  },
};
