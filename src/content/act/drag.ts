import { dom } from '../../observation/dom/native.ts';
import { describe, disabledProblem, visibilityProblem } from './checks.ts';
import { clickAfterRelease, fire, focusFrom, moveTo, path, topAt, type At } from './pointer.ts';
import { dropPoint } from './drop-point.ts';
import { ready, refused, type Report } from './perform.ts';
import { refusalSaid } from './refusal-said.ts';
import type { DropAt } from '../../protocol/action.ts';

/**
 * dom.hover and dom.drag with the events a mouse makes. A hover moves the pointer onto the
 * element's reachable point (leaving whatever it was over). A drag presses at the source, moves
 * in steps — each on the element under the pointer then, hit-tested as a browser does — and
 * releases at the target (its centre, or its upper or lower part: drop-point.ts) or at start + offset; a browser's click on the nearest
 * common ancestor of press and release follows. A `draggable` source instead gets the HTML5
 * drag-and-drop sequence with one DataTransfer: dragstart, drag / dragenter / dragover /
 * dragleave along the way, drop only where the last dragover was cancelled (that is how a page
 * says "you may drop here"), dragend; no mouseup and no click, as in a browser.
 */

const STEPS = 10;
const inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.get! as (this: Element) => string;
const draggableOf = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'draggable')!.get! as (this: Element) => boolean;

export function hover(el: Element): Report {
  const at = ready(el);
  if ('code' in at) return refused(at);
  try {
    moveTo(at.target, at, 0);
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `hovering over ${describe(el)} threw: ${String(error)}`.slice(0, 2000) };
  }
  return { status: 'done', message: `moved the pointer onto ${describe(el)} at (${Math.round(at.x)}, ${Math.round(at.y)})` };
}

/** The element a person would grab for an HTML5 drag: the source or its draggable ancestor. */
function html5Source(el: Element): Element | undefined {
  for (let n: Element | null = el; n; n = dom.parentElement(n)) {
    if (n.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
    // Links and images are draggable by default, but only an explicit draggable="true" means the page wants drag-and-drop.
    if (dom.attr(n, 'draggable') === 'true' && draggableOf.call(n)) return n;
  }
  return undefined;
}

function dragEvent(type: string, at: At, data: DataTransfer, view: Window): DragEvent {
  const cancelable = type !== 'dragleave' && type !== 'dragend';
  return new DragEvent(type, {
    bubbles: true,
    cancelable,
    composed: true,
    clientX: at.x,
    clientY: at.y,
    screenX: at.x,
    screenY: at.y,
    buttons: type === 'dragend' || type === 'drop' ? 0 : 1,
    dataTransfer: data,
    view,
  });
}

export function drag(el: Element, to: Element | undefined, offset: At | undefined, at?: DropAt): Report {
  const from = ready(el);
  if ('code' in from) return refused(from);
  const doc = dom.ownerDocument(el)!;
  const view = doc.defaultView ?? window;
  const root = dom.rootNode(el) as Document | ShadowRoot;
  let end: At;
  if (to) {
    const problem = visibilityProblem(to) ?? disabledProblem(to);
    // Said as the target's own refusal: the sentence names the drop target, hidden or disabled.
    if (problem) return refused({ code: problem.code, message: `drop target: ${problem.message}`, message_said: problem.message_said });
    end = dropPoint(dom.rect(to), at);
  } else end = { x: from.x + offset!.x, y: from.y + offset!.y };
  if (!(end.x >= 0 && end.y >= 0 && end.x < view.innerWidth && end.y < view.innerHeight)) {
    return refused({
      code: 'OUTSIDE_VIEWPORT',
      message: `the drop point (${Math.round(end.x)}, ${Math.round(end.y)}) is outside the viewport with ${describe(el)} in view; drag in shorter moves`,
      message_said: refusalSaid('drop_offscreen', el),
    });
  }
  const before = dom.localName(el) === 'input' ? inputValue.call(el) : undefined;
  const source = html5Source(from.target);
  try {
    const landed = source ? dragAndDrop(source, from, end, root, view) : pointerDrag(from, end, root);
    const value = dom.localName(el) === 'input' ? inputValue.call(el) : undefined;
    return {
      status: 'done',
      message:
        `dragged ${describe(el)} from (${Math.round(from.x)}, ${Math.round(from.y)}) to (${Math.round(end.x)}, ${Math.round(end.y)}) onto ${landed}${value !== undefined && value !== before ? `; its value is now ${JSON.stringify(value)}` : ''}`.slice(
          0,
          2000,
        ),
      ...(value !== undefined ? { value: value.slice(0, 4096) } : {}),
    };
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `dragging ${describe(el)} threw: ${String(error)}`.slice(0, 2000) };
  }
}

function pointerDrag(from: { x: number; y: number; target: Element }, end: At, root: Document | ShadowRoot): string {
  moveTo(from.target, from, 0);
  const down = fire(from.target, 'down', from, 1);
  if (!down.mouseCancelled) focusFrom(from.target);
  let over = from.target;
  for (const at of path(from, end, STEPS)) over = moveTo(topAt(root, at) ?? over, at, 1);
  fire(over, 'up', end, 0);
  clickAfterRelease(from.target, over, end);
  return describe(over);
}

function dragAndDrop(source: Element, from: { x: number; y: number; target: Element }, end: At, root: Document | ShadowRoot, view: Window): string {
  moveTo(from.target, from, 0);
  const down = fire(from.target, 'down', from, 1);
  if (down.mouseCancelled) return `${describe(source)} (the page cancelled the press, so no drag started)`;
  const data = new DataTransfer();
  if (!source.dispatchEvent(dragEvent('dragstart', from, data, view))) return `${describe(source)} (the page refused to start the drag: dragstart was cancelled)`;
  // Once a drag starts the browser cancels the pointer: no more pointer or mouse events reach the page.
  source.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true, composed: true, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
  let current: Element | null = null;
  let dropAllowed = false;
  for (const at of path(from, end, STEPS)) {
    source.dispatchEvent(dragEvent('drag', at, data, view));
    const under = topAt(root, at);
    if (under !== current) {
      if (under) under.dispatchEvent(dragEvent('dragenter', at, data, view));
      if (current) current.dispatchEvent(dragEvent('dragleave', at, data, view));
      current = under;
    }
    // The page allows a drop by cancelling dragover; otherwise the browser refuses it.
    dropAllowed = current ? !current.dispatchEvent(dragEvent('dragover', at, data, view)) : false;
  }
  const dropped = current !== null && dropAllowed;
  if (current && dropped) current.dispatchEvent(dragEvent('drop', end, data, view));
  else if (current) current.dispatchEvent(dragEvent('dragleave', end, data, view));
  source.dispatchEvent(dragEvent('dragend', end, data, view));
  return current ? `${describe(current)}${dropped ? ' (dropped)' : ' (the page did not accept a drop there: no dragover was cancelled)'}` : 'nothing';
}
