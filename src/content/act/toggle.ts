import { dom } from '../../observation/dom/native.ts';
import { describe, visibilityProblem } from './checks.ts';
import { click, is, refused, type ActHooks, type Report } from './perform.ts';
import { refusalSaid } from './refusal-said.ts';

/**
 * dom.check: sets a checkbox, radio button or switch — native, or ARIA (`role=checkbox`, `switch`,
 * `radio`, `menuitemcheckbox`, `menuitemradio`) — to the state asked for, clicking only when it
 * differs (a person clicks a box that is already ticked only to untick it). The state is read back
 * afterwards (`readToggle`), and a page that did not change it gets a clear failure, not a "done".
 */

const checkedOf = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')!.get! as (this: Element) => boolean;
const typeOf = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'type')!.get! as (this: Element) => string;
const ARIA_TOGGLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);

/** true / false, or undefined when the element is no toggle at all. */
function readToggle(el: Element): boolean | undefined {
  if (is(el, 'input')) {
    const t = typeOf.call(el).toLowerCase();
    if (t === 'checkbox' || t === 'radio') return checkedOf.call(el);
  }
  const role = dom.attr(el, 'role')?.trim().toLowerCase().split(/\s+/)[0];
  if (role && ARIA_TOGGLES.has(role)) return dom.attr(el, 'aria-checked') === 'true' || dom.attr(el, 'aria-pressed') === 'true';
  if (dom.has(el, 'aria-pressed')) return dom.attr(el, 'aria-pressed') === 'true';
  return undefined;
}

function isRadio(el: Element): boolean {
  return (is(el, 'input') && typeOf.call(el).toLowerCase() === 'radio') || /^(?:radio|menuitemradio)$/.test(dom.attr(el, 'role')?.trim().toLowerCase() ?? '');
}

/**
 * The element a person clicks to toggle `el`: itself, or — for a native box the page hid under a
 * drawn one — its visible label.
 */
function clickable(el: Element): Element {
  if (!visibilityProblem(el)) return el;
  const labels = dom.labels(el);
  return labels.find((l) => !visibilityProblem(l)) ?? el;
}

/** Clicks when needed; `settled` is awaited by the caller before readToggle tells what the page did. */
export function check(el: Element, checked: boolean, hooks?: ActHooks): Report & { clicked?: boolean } {
  const now = readToggle(el);
  if (now === undefined) return refused({ code: 'NOT_A_TOGGLE', message: `${describe(el)} is not a checkbox, radio button or switch; use dom.click`, message_said: refusalSaid('not_a_toggle', el) });
  if (now === checked) return { status: 'done', message: `${describe(el)} was already ${checked ? 'checked' : 'unchecked'}; nothing was clicked`, checked: now };
  if (!checked && isRadio(el)) {
    return refused({
      code: 'CANNOT_UNCHECK',
      message: `${describe(el)} is a radio button: it is unchecked by choosing another option of its group, not by clicking it`,
      message_said: refusalSaid('cannot_uncheck', el),
    });
  }
  const r = click(clickable(el), undefined, hooks);
  return r.status === 'done' ? { ...r, clicked: true } : r;
}

/** After the click (and the page's reaction): did the state become what was asked? */
export function checkOutcome(el: Element, checked: boolean, clickReport: Report): Report {
  const after = readToggle(el);
  if (after === checked) return { ...clickReport, message: `${clickReport.message}; it is now ${checked ? 'checked' : 'unchecked'}`.slice(0, 2000), checked: after };
  return {
    status: 'failed',
    code: 'STATE_NOT_CHANGED',
    message: `${clickReport.message}, but the page did not change it: it is still ${after ? 'checked' : 'unchecked'}`.slice(0, 2000),
    ...(after !== undefined ? { checked: after } : {}),
  };
}
