import type { ActStep, ActStepReport } from '../../protocol/messages.ts';
import { dom } from '../../observation/dom/native.ts';
import { bringIntoViewAndHitTest, describe, disabledProblem, visibilityProblem, type GuardRefusal, type Reach, type Refusal } from './checks.ts';
import { pressAndRelease } from './pointer.ts';
import { refusalSaid } from './refusal-said.ts';
import { acceptedTypedValue, nextTypedValue, TYPED_INPUT_TYPES } from './typed-value.ts';

/** What a primitive tells the act around it (run.ts): a form it submitted, so its request is reported. */
export interface ActHooks {
  submitted(form: HTMLFormElement): void;
}

/**
 * The DOM primitives click, type, select and scroll on one live element (keys: keyboard.ts;
 * hover and drag: drag.ts; check: toggle.ts). Each checks first (visible, enabled, reachable at
 * some point of its box) and refuses without touching anything when a check fails; a refusal says exactly
 * why. Values are set with the prototype's own setter (page patches on the element or in the
 * main world do not apply) and announced with input/change, as a person's typing would.
 */

export type Report = Omit<ActStepReport, 'op' | 'ref'>;
export const refused = (r: Refusal | Pick<Report, 'code' | 'message' | 'message_said'>): Report => ({
  status: 'refused',
  code: r.code,
  message: r.message.slice(0, 2000),
  ...(r.message_said ? { message_said: r.message_said } : {}),
});

const inputValueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
const textAreaValueSetter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
const inputValueGetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.get!;
const textAreaValueGetter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.get!;
const selectValueGetter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.get!;
const optionSelectedSetter = Object.getOwnPropertyDescriptor(HTMLOptionElement.prototype, 'selected')!.set!;
const optionsGetter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'options')!.get!;
const focusFn = HTMLElement.prototype.focus;

// Tag checks, not instanceof: an element of a same-origin iframe belongs to another realm.
const XHTML = 'http://www.w3.org/1999/xhtml';
export const isHtml = (el: Element): el is HTMLElement => el.namespaceURI === XHTML;
export const is = (el: Element, tag: string) => isHtml(el) && dom.localName(el) === tag;

/** Visible, enabled and reachable at some point of its box: where to press it. */
export function ready(el: Element): Refusal | Reach {
  const problem = visibilityProblem(el) ?? disabledProblem(el);
  if (problem) return problem;
  const hit = bringIntoViewAndHitTest(el);
  return hit.ok ? hit.reach : hit.refusal;
}

export function announce(el: Element, data?: string): void {
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', ...(data !== undefined ? { data } : {}) }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** What a click or key set off: a form submission or a link that will navigate the page (watched on the element's window). */
export function watchActivation(el: Element): { result(): { navigation?: 'form_submitted' | 'link_followed'; form?: HTMLFormElement }; stop(): void } {
  const view = dom.ownerDocument(el)?.defaultView ?? window;
  let submit: Event | undefined;
  let clickEvent: Event | undefined;
  const onSubmit = (e: Event) => (submit = e);
  const onClick = (e: Event) => (clickEvent ??= e);
  view.addEventListener('submit', onSubmit, true);
  view.addEventListener('click', onClick, true);
  return {
    result() {
      // Read after the event finished its dispatch: only then is defaultPrevented final.
      if (submit && !submit.defaultPrevented) return { navigation: 'form_submitted', form: submit.target as HTMLFormElement };
      const target = clickEvent?.target as Element | undefined;
      const link = target && target.nodeType === 1 ? dom.closest(target, 'a[href]') : null;
      return link && clickEvent && !clickEvent.defaultPrevented ? { navigation: 'link_followed' } : {};
    },
    stop() {
      view.removeEventListener('submit', onSubmit, true);
      view.removeEventListener('click', onClick, true);
    },
  };
}

/**
 * `guard` is asked again right before the activation (after the pointer events and focus, whose
 * handlers run page script): if it objects, the element is not activated.
 */
export function click(el: Element, guard?: () => GuardRefusal | undefined, hooks?: ActHooks): Report {
  const early = guard?.();
  if (early) return refused(early);
  const at = ready(el);
  if ('code' in at) return refused(at);
  const watch = watchActivation(el);
  let nav: ReturnType<typeof watch.result>;
  try {
    const late = pressAndRelease(at, guard);
    if (late) return refused(late);
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `clicking ${describe(el)} threw: ${String(error)}`.slice(0, 2000) };
  } finally {
    nav = watch.result();
    watch.stop();
  }
  if (nav.form) hooks?.submitted(nav.form);
  const navigation = nav.navigation;
  return {
    status: 'done',
    message: `clicked ${describe(el)} at (${Math.round(at.x)}, ${Math.round(at.y)})${navigation === 'form_submitted' ? '; its form was submitted' : navigation ? '; the link is being followed' : ''}`,
    ...(navigation ? { navigation } : {}),
  };
}

export function typeText(el: Element, text: string, clear: boolean): Report {
  // Never into hidden fields: a hidden input is the classic place to smuggle data past a person.
  if (is(el, 'input') && dom.attr(el, 'type')?.toLowerCase() === 'hidden')
    return refused({ code: 'HIDDEN_FIELD', message: `${describe(el)} is a hidden field`, message_said: refusalSaid('hidden_field', el) });
  const hidden = visibilityProblem(el);
  if (hidden) return refused({ code: 'HIDDEN_FIELD', message: hidden.message, message_said: hidden.message_said });
  const isInput = is(el, 'input');
  const isTextArea = is(el, 'textarea');
  const editable = isHtml(el) && dom.isContentEditable(el);
  const inputType = isInput ? (dom.attr(el, 'type') ?? '').toLowerCase() : '';
  if (isInput && !TYPED_INPUT_TYPES.has(inputType)) return refused({ code: 'NOT_EDITABLE', message: `${describe(el)} is not a text field`, message_said: refusalSaid('not_editable', el) });
  if (!isInput && !isTextArea && !editable) return refused({ code: 'NOT_EDITABLE', message: `${describe(el)} is not a text field`, message_said: refusalSaid('not_editable', el) });
  if ((isInput || isTextArea) && dom.has(el, 'readonly')) return refused({ code: 'READ_ONLY_FIELD', message: `${describe(el)} is read-only`, message_said: refusalSaid('read_only', el) });
  const at = ready(el);
  if ('code' in at) return refused(at);
  try {
    focusFn.call(el as HTMLElement, { preventScroll: true });
    if (isInput || isTextArea) {
      const get = isInput ? inputValueGetter : textAreaValueGetter;
      const set = isInput ? inputValueSetter : textAreaValueSetter;
      const next = nextTypedValue(inputType, String(get.call(el)), text, clear);
      set.call(el, next);
      announce(el, text);
      const value = String(get.call(el));
      // A number, colour or range field may refuse what was typed; say so rather than claim success.
      if (!acceptedTypedValue(inputType, next, value))
        return { status: 'failed', code: 'VALUE_NOT_ACCEPTED', message: `${describe(el)} did not accept the text (its value is ${JSON.stringify(value.slice(0, 200))})`, value: value.slice(0, 4096) };
      return { status: 'done', message: `typed ${text.length} character(s) into ${describe(el)}`, value: value.slice(0, 4096) };
    }
    const doc = dom.ownerDocument(el)!;
    if (clear) doc.execCommand('selectAll');
    doc.execCommand('insertText', false, text);
    return { status: 'done', message: `typed ${text.length} character(s) into ${describe(el)}`, value: dom.text(el).slice(0, 4096) };
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `typing into ${describe(el)} threw: ${String(error)}`.slice(0, 2000) };
  }
}

export function select(el: Element, values: readonly string[]): Report {
  if (!is(el, 'select')) return refused({ code: 'NOT_SELECTABLE', message: `${describe(el)} is not a native <select>; click its options instead`, message_said: refusalSaid('not_selectable', el) });
  if (values.length > 1 && !dom.has(el, 'multiple')) return refused({ code: 'INVALID_INPUT', message: `${describe(el)} takes one value, ${values.length} were given` });
  const options = [...(optionsGetter.call(el) as HTMLOptionsCollection)];
  const chosen: HTMLOptionElement[] = [];
  for (const v of values) {
    const norm = v.trim().toLowerCase();
    const match = options.find((o) => o.value === v) ?? options.find((o) => dom.text(o).trim() === v.trim()) ?? options.find((o) => dom.text(o).trim().toLowerCase() === norm);
    if (!match) return refused({ code: 'OPTION_NOT_FOUND', message: `${describe(el)} has no option ${JSON.stringify(v.slice(0, 200))}`, message_said: refusalSaid('no_option', el, { option: v }) });
    if (match.disabled)
      return refused({ code: 'DISABLED', message: `option ${JSON.stringify(v.slice(0, 200))} of ${describe(el)} is disabled`, message_said: refusalSaid('option_disabled', el, { option: v }) });
    chosen.push(match);
  }
  const at = ready(el);
  if ('code' in at) return refused(at);
  try {
    focusFn.call(el as HTMLElement, { preventScroll: true });
    for (const o of options) optionSelectedSetter.call(o, chosen.includes(o));
    announce(el);
    const value = String(selectValueGetter.call(el));
    return { status: 'done', message: `selected ${chosen.map((o) => JSON.stringify(dom.text(o).trim().slice(0, 80))).join(', ')} in ${describe(el)}`, value: value.slice(0, 4096) };
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `selecting in ${describe(el)} threw: ${String(error)}`.slice(0, 2000) };
  }
}

export function scroll(el: Element | undefined, step: Extract<ActStep, { op: 'scroll' }>): Report {
  const view = (el ? dom.ownerDocument(el)?.defaultView : window) ?? window;
  if (el && !step.direction) {
    const hidden = visibilityProblem(el);
    if (hidden) return refused(hidden);
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    return { status: 'done', message: `scrolled ${describe(el)} into view (page at ${Math.round(view.scrollX)}, ${Math.round(view.scrollY)})` };
  }
  const amount = step.amount ?? 0.8;
  const dx = step.direction === 'left' ? -1 : step.direction === 'right' ? 1 : 0;
  const dy = step.direction === 'up' ? -1 : step.direction === 'down' ? 1 : 0;
  const target = el ?? view;
  const before = el ? [el.scrollLeft, el.scrollTop] : [view.scrollX, view.scrollY];
  const w = el ? el.clientWidth : view.innerWidth;
  const h = el ? el.clientHeight : view.innerHeight;
  target.scrollBy({ left: dx * amount * w, top: dy * amount * h, behavior: 'instant' });
  const after = el ? [el.scrollLeft, el.scrollTop] : [view.scrollX, view.scrollY];
  const moved = after[0] !== before[0] || after[1] !== before[1];
  return {
    status: 'done',
    message: `scrolled ${el ? describe(el) : 'the page'} ${step.direction} by ${amount} view(s): ${moved ? `now at (${Math.round(after[0]!)}, ${Math.round(after[1]!)})` : 'it did not move (already at the edge)'}`,
  };
}
