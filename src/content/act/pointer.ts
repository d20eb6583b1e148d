import { dom } from '../../observation/dom/native.ts';
import type { GuardRefusal, Reach } from './checks.ts';
import { emulateHover } from './hover-style.ts';

/**
 * Pointer and mouse events as a browser fires them for a mouse: the pointer* event first, then its
 * mouse* twin, at a client point, on the topmost element there. Synthetic events have no default
 * actions and do not move CSS `:hover`: what a page does from its own listeners is what happens,
 * and the page's `:hover` rules are emulated where the pointer rests (hover-style.ts).
 */

export interface At {
  x: number;
  y: number;
}

const clickFn = HTMLElement.prototype.click;

/** The element under the pointer, as `elementFromPoint` of the element's own tree sees it. */
export function topAt(root: Document | ShadowRoot, at: At): Element | null {
  return dom.elementFromPoint(root, at.x, at.y);
}

function viewOf(el: Element): Window {
  return dom.ownerDocument(el)?.defaultView ?? window;
}

/** One pointer event and its mouse twin (none for pointer-only types). `buttons`: 1 while the primary button is held. */
export function fire(target: Element, type: 'down' | 'move' | 'up' | 'over' | 'out' | 'enter' | 'leave', at: At, buttons: number): { pointerCancelled: boolean; mouseCancelled: boolean } {
  const view = viewOf(target);
  const bubbles = type !== 'enter' && type !== 'leave';
  const base = {
    bubbles,
    cancelable: bubbles,
    composed: bubbles,
    clientX: at.x,
    clientY: at.y,
    screenX: at.x,
    screenY: at.y,
    button: type === 'move' || type === 'over' || type === 'out' || type === 'enter' || type === 'leave' ? -1 : 0,
    buttons,
    view,
  };
  const pointer = new PointerEvent(`pointer${type}`, { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure: buttons ? 0.5 : 0 });
  const pointerCancelled = !target.dispatchEvent(pointer);
  // A cancelled pointerdown suppresses the mouse events that follow it (Pointer Events §11); the rest always have twins.
  const mouse = new MouseEvent(`mouse${type}`, { ...base, button: Math.max(0, base.button), detail: type === 'down' || type === 'up' ? 1 : 0 });
  const mouseCancelled = type === 'down' && pointerCancelled ? true : !target.dispatchEvent(mouse);
  return { pointerCancelled, mouseCancelled };
}

/** Ancestors of `el` (itself first), up to and without `stop`. */
function chain(el: Element, stop: Element | null): Element[] {
  const out: Element[] = [];
  for (let n: Element | null = el; n && n !== stop && out.length < 64; n = dom.parentElement(n)) out.push(n);
  return out;
}

function commonAncestor(a: Element, b: Element): Element | null {
  for (let n: Element | null = a; n; n = dom.parentElement(n)) if (n === b || dom.contains(n, b)) return n;
  return null;
}

/** Which element each document's pointer is over now (what a move leaves next). */
const hovered = new WeakMap<Document, WeakRef<Element>>();

/**
 * Moves the pointer to `to` at `at`: out/leave on the element it leaves (leave on each ancestor it
 * no longer is over), over/enter on the new one (enter from the outermost new ancestor in), then a
 * move. Returns the element now under the pointer.
 */
export function moveTo(to: Element, at: At, buttons: number): Element {
  const doc = dom.ownerDocument(to);
  const before = doc ? hovered.get(doc)?.deref() : undefined;
  if (before !== to) {
    const shared = before && dom.isConnected(before) ? commonAncestor(before, to) : null;
    if (before && dom.isConnected(before)) {
      fire(before, 'out', at, buttons);
      for (const n of chain(before, shared)) fire(n, 'leave', at, buttons);
    }
    fire(to, 'over', at, buttons);
    for (const n of chain(to, shared).reverse()) fire(n, 'enter', at, buttons);
    if (doc) {
      hovered.set(doc, new WeakRef(to));
      emulateHover(doc, to);
    }
  }
  fire(to, 'move', at, buttons);
  return to;
}

/** The pointer moves from `from` to `to` in `steps` moves, each on the element under it then. */
export function* path(from: At, to: At, steps: number): Generator<At> {
  for (let i = 1; i < steps; i++) yield { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
  // The last step lands exactly on the target point, with no rounding on the way.
  yield { x: to.x, y: to.y };
}

/**
 * A press and release at one point, as a mouse does it: down, focus (unless the page prevented
 * the down), up, then the click with the element's activation (follow, submit, toggle). `guard`
 * is asked right before the activation.
 */
export function pressAndRelease(reach: Reach, guard?: () => GuardRefusal | undefined): GuardRefusal | undefined {
  const { target } = reach;
  moveTo(target, reach, 0);
  const down = fire(target, 'down', reach, 1);
  if (!down.mouseCancelled) focusFrom(target);
  fire(target, 'up', reach, 0);
  const late = guard?.();
  if (late) return late;
  if (target.namespaceURI === 'http://www.w3.org/1999/xhtml') clickFn.call(target);
  else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, clientX: reach.x, clientY: reach.y, button: 0, detail: 1, view: viewOf(target) }));
  return undefined;
}

const focusFn = HTMLElement.prototype.focus;
const FOCUSABLE = 'a[href],area[href],button,input,select,textarea,summary,iframe,[tabindex],[contenteditable]:not([contenteditable="false"])';

/** A mouse press focuses the nearest focusable element at or around its target. */
export function focusFrom(target: Element): void {
  const focusable = dom.closest(target, FOCUSABLE);
  if (focusable && focusable.namespaceURI === 'http://www.w3.org/1999/xhtml') focusFn.call(focusable as HTMLElement, { preventScroll: true });
}

/** The click a browser fires after a press and a release on different elements: on their nearest common ancestor. */
export function clickAfterRelease(down: Element, up: Element, at: At): void {
  const target = down === up ? down : commonAncestor(down, up);
  if (!target) return;
  target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, clientX: at.x, clientY: at.y, button: 0, detail: 1, view: viewOf(target) }));
}
