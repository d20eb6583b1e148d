import { dom } from '../../observation/dom/native.ts';
import type { Chord } from '../../protocol/key-chord.ts';
import { describe, disabledProblem, visibilityProblem, type GuardRefusal } from './checks.ts';
import { announce, is, isHtml, refused, watchActivation, type ActHooks, type Report } from './perform.ts';
import { refusalSaid } from './refusal-said.ts';

/**
 * dom.press: keydown, keypress (for a character), keyup on the focused element, as a keyboard
 * sends them — with the default actions a browser would take for a real key, since synthetic
 * events have none, each only when the page did not prevent the key:
 * - Enter in a text field: implicit submission (HTML §4.10.21.2): the form's default button is
 *   clicked, or the form submitted when it has no submit button and one field only;
 * - Enter or Space on a button, a link or an element with a button-like role: a click, unless the
 *   page's own key handler already acted (it clicked, or changed the page) — no double activation;
 * - Tab / Shift+Tab: the focus moves in sequential (tabindex) order;
 * - arrows, Home, End, PageUp, PageDown: step a range input, move a native select's choice, move
 *   within a radio group;
 * - Escape: the open modal dialog gets its cancel event and closes (an open popover hides);
 * - characters, Backspace and Delete edit a text field at its caret, with beforeinput and input.
 * Every prototype method is taken at load, so a page that patches or clobbers them changes nothing.
 */

type Guard = () => GuardRefusal | undefined;

const focusFn = HTMLElement.prototype.focus;
const inputProto = HTMLInputElement.prototype;
const get = <T>(proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get! as (this: Element) => T;
const set = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.set! as (this: Element, v: unknown) => void;
const inputValue = { get: get<string>(inputProto, 'value'), set: set(inputProto, 'value') };
const textAreaValue = { get: get<string>(HTMLTextAreaElement.prototype, 'value'), set: set(HTMLTextAreaElement.prototype, 'value') };
const inputForm = get<HTMLFormElement | null>(inputProto, 'form');
const inputType = get<string>(inputProto, 'type');
const formElements = get<HTMLFormControlsCollection>(HTMLFormElement.prototype, 'elements');
const requestSubmitFn = HTMLFormElement.prototype.requestSubmit;
const stepUpFn = inputProto.stepUp;
const stepDownFn = inputProto.stepDown;
const selectIndex = { get: get<number>(HTMLSelectElement.prototype, 'selectedIndex'), set: set(HTMLSelectElement.prototype, 'selectedIndex') };
const selectOptions = get<HTMLOptionsCollection>(HTMLSelectElement.prototype, 'options');
const selectValue = get<string>(HTMLSelectElement.prototype, 'value');
const dialogClose = HTMLDialogElement.prototype.close;
const clickFn = HTMLElement.prototype.click;
const setRangeTextFn = inputProto.setRangeText as (this: Element, text: string, start: number, end: number, mode: SelectionMode) => void;
const textAreaSetRangeText = HTMLTextAreaElement.prototype.setRangeText as (this: Element, text: string, start: number, end: number, mode: SelectionMode) => void;
const hidePopoverFn = (HTMLElement.prototype as { hidePopover?: (this: Element) => void }).hidePopover;

/** Input types a person types text into (implicit submission applies to these). */
const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);
/** Input types that support the selection API (setRangeText). */
const SELECTION_TYPES = new Set(['text', 'search', 'url', 'tel', 'password']);
const SUBMIT_BUTTON = 'button:not([type]),button[type="submit" i],input[type="submit" i],input[type="image" i]';
/** Roles whose element a person activates with Enter (and Space, but for links). */
const ACTIVATED_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'checkbox', 'switch', 'radio', 'gridcell']);
const FOCUSABLE = 'a[href],area[href],button,input,select,textarea,summary,iframe,[tabindex],[contenteditable]';

function inputKind(el: Element): string {
  return is(el, 'input') ? String(inputType.call(el)).toLowerCase() : '';
}

function isTextField(el: Element): boolean {
  return (is(el, 'input') && TEXT_TYPES.has(inputKind(el))) || is(el, 'textarea') || (isHtml(el) && dom.isContentEditable(el));
}

/** The element that has the focus, through open shadow roots. */
function focusedIn(doc: Document): Element {
  let el = dom.doc.activeElement(doc) ?? dom.doc.body(doc) ?? dom.doc.documentElement(doc)!;
  for (let depth = 0; depth < 16; depth++) {
    const inner = dom.shadowRoot(el)?.activeElement;
    if (!inner) break;
    el = inner;
  }
  return el;
}

function keyEvent(type: string, c: Chord, view: Window): KeyboardEvent {
  const charCode = type === 'keypress' && c.text ? c.text.charCodeAt(0) : 0;
  return new KeyboardEvent(type, {
    key: c.key,
    code: c.code,
    keyCode: type === 'keypress' ? charCode : c.keyCode,
    which: type === 'keypress' ? charCode : c.keyCode,
    charCode,
    ctrlKey: c.ctrlKey,
    shiftKey: c.shiftKey,
    altKey: c.altKey,
    metaKey: c.metaKey,
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
  } as KeyboardEventInit);
}

/**
 * Whether the page's own handler acted on the key while it was dispatched: it clicked something,
 * changed the page, or started a navigation. Then no default click is added on top.
 */
function dispatchWatched(target: Element, event: Event): { prevented: boolean; acted: boolean } {
  const doc = dom.ownerDocument(target)!;
  const view = doc.defaultView ?? window;
  let clicked = false;
  const onClick = () => (clicked = true);
  const observer = new MutationObserver(() => undefined);
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  view.addEventListener('click', onClick, true);
  let prevented: boolean;
  try {
    prevented = !target.dispatchEvent(event);
  } finally {
    view.removeEventListener('click', onClick, true);
  }
  const mutated = observer.takeRecords().length > 0;
  observer.disconnect();
  return { prevented, acted: clicked || mutated };
}

/** Elements in sequential focus order (tabindex > 0 ascending, then 0 and natively focusable, in tree order). */
function tabOrder(doc: Document): Element[] {
  const positive: Array<[number, Element]> = [];
  const rest: Element[] = [];
  const radioSeen = new Set<string>();
  for (const el of dom.queryAll(doc, FOCUSABLE)) {
    const attr = dom.attr(el, 'tabindex');
    const index = attr === null ? 0 : Number.parseInt(attr, 10);
    if (Number.isNaN(index) ? false : index < 0) continue;
    if (dom.localName(el) === 'summary' && dom.localName(dom.parentElement(el) ?? el) !== 'details') continue;
    if (dom.localName(el) === 'input' && inputKind(el) === 'hidden') continue;
    if (disabledProblem(el) || visibilityProblem(el) || dom.closest(el, '[inert]')) continue;
    if (dom.attr(el, 'contenteditable')?.toLowerCase() === 'false' && attr === null) continue;
    // A radio group is one stop: its checked radio (or its first).
    if (inputKind(el) === 'radio') {
      const name = dom.attr(el, 'name');
      if (name) {
        const group = `${name}\u0000${String(inputForm.call(el) ? 'form' : 'doc')}`;
        const checked = dom.queryAll(doc, `input[type="radio" i][name="${CSS.escape(name)}"]:checked`)[0];
        if (checked && checked !== el) continue;
        if (!checked && radioSeen.has(group)) continue;
        radioSeen.add(group);
      }
    }
    if (index > 0) positive.push([index, el]);
    else rest.push(el);
  }
  positive.sort((a, b) => a[0] - b[0]);
  return [...positive.map(([, el]) => el), ...rest];
}

function moveFocus(from: Element, backwards: boolean): Element | undefined {
  const doc = dom.ownerDocument(from)!;
  const order = tabOrder(doc);
  if (order.length === 0) return undefined;
  const at = order.indexOf(from);
  const next = at < 0 ? (backwards ? order[order.length - 1] : order[0]) : order[at + (backwards ? -1 : 1)];
  if (!next || !isHtml(next)) return undefined;
  focusFn.call(next);
  return next;
}

/** HTML implicit submission from a text field: the default button's click, or the form's own submission. */
function implicitSubmission(field: Element, guard: Guard | undefined): GuardRefusal | 'none' | 'submitted' {
  const form = inputForm.call(field);
  if (!form) return 'none';
  const controls = [...formElements.call(form)];
  const button = controls.find((c) => dom.matches(c, SUBMIT_BUTTON));
  if (button) {
    if (dom.matches(button, ':disabled')) return 'none';
    const late = guard?.();
    if (late) return late;
    clickFn.call(button as HTMLElement);
    return 'submitted';
  }
  const blocking = controls.filter((c) => is(c, 'input') && TEXT_TYPES.has(inputKind(c)));
  if (blocking.length > 1) return 'none';
  const late = guard?.();
  if (late) return late;
  requestSubmitFn.call(form);
  return 'submitted';
}

function stepRange(el: Element, key: string, c: Chord): boolean {
  const before = inputValue.get.call(el);
  const input = el as HTMLInputElement;
  const min = Number(input.min || 0);
  const max = Number(input.max || 100);
  const step = input.step === 'any' ? 1 : Number(input.step || 1) || 1;
  const page = Math.max(step, Math.round((max - min) / 10 / step) * step);
  switch (key) {
    case 'ArrowUp':
    case 'ArrowRight':
      stepUpFn.call(input, c.shiftKey ? 10 : 1);
      break;
    case 'ArrowDown':
    case 'ArrowLeft':
      stepDownFn.call(input, c.shiftKey ? 10 : 1);
      break;
    case 'PageUp':
      stepUpFn.call(input, page / step);
      break;
    case 'PageDown':
      stepDownFn.call(input, page / step);
      break;
    case 'Home':
      inputValue.set.call(el, String(min));
      break;
    case 'End':
      inputValue.set.call(el, String(max));
      break;
    default:
      return false;
  }
  return inputValue.get.call(el) !== before;
}

function stepSelect(el: Element, key: string): boolean {
  if (dom.has(el, 'multiple')) return false;
  const options = [...selectOptions.call(el)];
  const at = selectIndex.get.call(el);
  const enabled = options.map((o, i) => [o, i] as const).filter(([o]) => !o.disabled && !dom.closest(o, 'optgroup[disabled]'));
  let next: number | undefined;
  if (key === 'ArrowDown' || key === 'ArrowRight') next = enabled.find(([, i]) => i > at)?.[1];
  else if (key === 'ArrowUp' || key === 'ArrowLeft') next = enabled.findLast(([, i]) => i < at)?.[1];
  else if (key === 'Home' || key === 'PageUp') next = enabled[0]?.[1];
  else if (key === 'End' || key === 'PageDown') next = enabled[enabled.length - 1]?.[1];
  if (next === undefined || next === at) return false;
  selectIndex.set.call(el, next);
  return true;
}

function stepRadio(el: Element, key: string): Element | undefined {
  const name = dom.attr(el, 'name');
  if (!name) return undefined;
  const form = inputForm.call(el);
  const group = [...dom.queryAll(dom.ownerDocument(el)!, `input[type="radio" i][name="${CSS.escape(name)}"]`)].filter((r) => inputForm.call(r) === form && !dom.matches(r, ':disabled'));
  const at = group.indexOf(el);
  if (at < 0 || group.length < 2) return undefined;
  const forward = key === 'ArrowDown' || key === 'ArrowRight';
  const next = group[(at + (forward ? 1 : -1) + group.length) % group.length]!;
  focusFn.call(next as HTMLElement);
  clickFn.call(next as HTMLElement);
  return next;
}

/** The open modal dialog on top (the last opened), or an open popover. */
function closeTopmost(doc: Document): string | undefined {
  const modal = [...dom.queryAll(doc, 'dialog[open]')].filter((d) => dom.matches(d, ':modal')).pop();
  if (modal) {
    const cancel = new Event('cancel', { cancelable: true });
    if (modal.dispatchEvent(cancel)) {
      dialogClose.call(modal);
      return `closed the dialog ${describe(modal)}`;
    }
    return `the dialog ${describe(modal)} refused to close (its cancel event was prevented)`;
  }
  const popover = hidePopoverFn ? [...dom.queryAll(doc, '[popover]')].filter((p) => dom.matches(p, ':popover-open')).pop() : undefined;
  if (popover && hidePopoverFn) {
    hidePopoverFn.call(popover);
    return `closed the popover ${describe(popover)}`;
  }
  return undefined;
}

/** Inserts (or, with '' and a direction, deletes) text at the caret of a text field, as typing would. */
function edit(el: Element, text: string, inputType: 'insertText' | 'insertLineBreak' | 'deleteContentBackward' | 'deleteContentForward'): boolean {
  const before = new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType, ...(text ? { data: text } : {}) });
  if (!el.dispatchEvent(before)) return false;
  if (isHtml(el) && dom.isContentEditable(el)) {
    const doc = dom.ownerDocument(el)!;
    if (inputType === 'insertText') doc.execCommand('insertText', false, text);
    else if (inputType === 'insertLineBreak') doc.execCommand('insertLineBreak');
    else doc.execCommand(inputType === 'deleteContentBackward' ? 'delete' : 'forwardDelete');
    return true;
  }
  const area = is(el, 'textarea');
  const value = area ? textAreaValue : inputValue;
  const current = String(value.get.call(el));
  const selectable = area || SELECTION_TYPES.has(inputKind(el));
  const field = el as HTMLInputElement;
  let start = selectable ? (field.selectionStart ?? current.length) : current.length;
  let end = selectable ? (field.selectionEnd ?? current.length) : current.length;
  if (start === end && inputType === 'deleteContentBackward') start = Math.max(0, start - 1);
  if (start === end && inputType === 'deleteContentForward') end = Math.min(current.length, end + 1);
  const insert = inputType === 'insertLineBreak' ? '\n' : text;
  if (selectable) (area ? textAreaSetRangeText : setRangeTextFn).call(el, insert, start, end, 'end');
  else value.set.call(el, current.slice(0, start) + insert + current.slice(end));
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType, ...(text ? { data: text } : {}) }));
  return true;
}

function valueOf(el: Element): string | undefined {
  if (is(el, 'input')) return String(inputValue.get.call(el)).slice(0, 4096);
  if (is(el, 'textarea')) return String(textAreaValue.get.call(el)).slice(0, 4096);
  if (is(el, 'select')) return String(selectValue.call(el)).slice(0, 4096);
  return undefined;
}

/**
 * The element's role, or `button` for one the page made clickable without saying so (an inline
 * click handler, or focusable with a pointer cursor): Enter on it does what a click does, as a
 * person expects — unless the page's own key handler already acted.
 */
function roleOf(el: Element): string | undefined {
  const role = dom.attr(el, 'role')?.trim().toLowerCase().split(/\s+/)[0];
  if (role) return role;
  if (dom.has(el, 'onclick')) return 'button';
  const view = dom.ownerDocument(el)?.defaultView;
  if (dom.has(el, 'tabindex') && view && view.getComputedStyle(el).cursor === 'pointer') return 'button';
  return undefined;
}

/** A native control that Enter / Space activates itself (its activation behaviour is a click). */
function nativeActivation(el: Element, key: string): boolean {
  const name = dom.localName(el);
  if (name === 'button' || name === 'summary') return true;
  if (name === 'a') return key === 'Enter' && dom.has(el, 'href');
  if (name === 'input') {
    const t = inputKind(el);
    if (['button', 'submit', 'reset', 'image', 'color', 'file'].includes(t)) return true;
    return key === ' ' && (t === 'checkbox' || t === 'radio');
  }
  return false;
}

/** Presses one chord once on whatever has the focus. */
function pressOnce(doc: Document, c: Chord, guard: Guard | undefined, hooks: ActHooks | undefined): { said: string[]; navigation?: 'form_submitted' | 'link_followed'; refusal?: GuardRefusal } {
  const view = doc.defaultView ?? window;
  const target = focusedIn(doc);
  const said: string[] = [];
  const watch = watchActivation(target);
  const finish = () => {
    const nav = watch.result();
    watch.stop();
    if (nav.form) hooks?.submitted(nav.form);
    return nav.navigation;
  };
  try {
    const early = guard?.();
    if (early) return { said, refusal: early };
    const down = dispatchWatched(target, keyEvent('keydown', c, view));
    let acted = down.acted;
    let prevented = down.prevented;
    // keypress: for a character, and for Enter (charCode 13), as Chrome sends it.
    const plain = !c.ctrlKey && !c.altKey && !c.metaKey;
    if (!prevented && plain && (c.text !== undefined || c.key === 'Enter')) {
      const press = dispatchWatched(target, keyEvent('keypress', c, view));
      acted ||= press.acted;
      prevented = press.prevented;
      if (!prevented && c.text !== undefined && isTextField(target) && edit(target, c.text, 'insertText')) said.push(`typed ${JSON.stringify(c.text)}`);
    }
    if (prevented) said.push('the page handled the key itself (it prevented the default)');
    else {
      const key = c.key;
      const role = roleOf(target);
      if (key === 'Enter' && isTextField(target) && plain) {
        if (is(target, 'textarea') || (isHtml(target) && dom.isContentEditable(target))) {
          if (edit(target, '', 'insertLineBreak')) said.push('started a new line');
        } else {
          const submitted = implicitSubmission(target, guard);
          if (typeof submitted === 'object') return { said, refusal: submitted };
          if (submitted === 'submitted') said.push('submitted its form (implicit submission)');
        }
      } else if (key === 'Enter' && plain && !isTextField(target)) {
        // A native control's activation always follows an unprevented Enter; a role only acts
        // through the page's script, so a click is added only when that script did nothing itself.
        const native = nativeActivation(target, key);
        if (native || (role && ACTIVATED_ROLES.has(role) && !acted)) {
          const late = guard?.();
          if (late) return { said, refusal: late };
          clickFn.call(target as HTMLElement);
          said.push(native ? `activated ${describe(target)}` : `clicked ${describe(target)} (what Enter does on a ${role})`);
        }
      } else if (key === 'Tab' && !c.ctrlKey && !c.altKey && !c.metaKey) {
        const next = moveFocus(target, c.shiftKey);
        said.push(next ? `moved the focus to ${describe(next)}` : 'the focus had nowhere to go in the page');
      } else if (key === 'Escape') {
        const closed = closeTopmost(doc);
        if (closed) said.push(closed);
      } else if (is(target, 'input') && inputKind(target) === 'range') {
        if (stepRange(target, key, c)) {
          announce(target);
          said.push(`moved ${describe(target)} to ${valueOf(target)}`);
        }
      } else if (is(target, 'select') && !c.altKey) {
        if (stepSelect(target, key)) {
          announce(target);
          said.push(`chose ${JSON.stringify(valueOf(target))} in ${describe(target)}`);
        }
      } else if (is(target, 'input') && inputKind(target) === 'radio' && key.startsWith('Arrow')) {
        const next = stepRadio(target, key);
        if (next) said.push(`chose ${describe(next)} in its group`);
      } else if ((key === 'Backspace' || key === 'Delete') && isTextField(target) && !acted) {
        if (edit(target, '', key === 'Backspace' ? 'deleteContentBackward' : 'deleteContentForward')) said.push(`deleted a character in ${describe(target)}`);
      } else if (key === 'a' && (c.ctrlKey || c.metaKey) && (is(target, 'input') || is(target, 'textarea'))) {
        (target as HTMLInputElement).select();
        said.push(`selected all of ${describe(target)}`);
      }
    }
    const upTarget = focusedIn(doc);
    const up = dispatchWatched(upTarget, keyEvent('keyup', c, view));
    // Space activates on release, as a keyboard does it.
    if (c.key === ' ' && !prevented && !up.prevented && upTarget === target && !isTextField(target) && !c.ctrlKey && !c.altKey && !c.metaKey) {
      const native = nativeActivation(target, ' ');
      const role = roleOf(target);
      if (native || (role && ACTIVATED_ROLES.has(role) && role !== 'link' && !acted && !up.acted)) {
        const late = guard?.();
        if (late) return { said, refusal: late };
        clickFn.call(target as HTMLElement);
        said.push(`activated ${describe(target)}`);
      }
    }
    return { said, ...finishNav(finish) };
  } catch (error) {
    finish();
    throw error;
  }
}

function finishNav(finish: () => 'form_submitted' | 'link_followed' | undefined): { navigation?: 'form_submitted' | 'link_followed' } {
  const navigation = finish();
  return navigation ? { navigation } : {};
}

/**
 * Presses `c` `repeat` times on `el` (focused first, after the same checks as a click) or on
 * whatever has the focus. `expectFocused`: the element the press was judged by; refused if the
 * focus is elsewhere. `guard` is asked right before any submission or activation.
 */
export function press(doc: Document, el: Element | undefined, c: Chord, repeat: number, opts: { expectFocused?: Element; guard?: Guard; hooks?: ActHooks } = {}): Report {
  if (el) {
    const problem = visibilityProblem(el) ?? disabledProblem(el);
    if (problem) return refused(problem);
    if (!isHtml(el)) return refused({ code: 'NOT_FOCUSABLE', message: `${describe(el)} cannot take the focus`, message_said: refusalSaid('not_focusable', el) });
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    focusFn.call(el, { preventScroll: true });
    if (focusedIn(doc) !== el)
      return refused({
        code: 'NOT_FOCUSABLE',
        message: `${describe(el)} did not take the focus (it is not focusable, or the page moved the focus away); nothing was pressed`,
        message_said: refusalSaid('not_focusable', el),
      });
  } else if (opts.expectFocused && focusedIn(doc) !== opts.expectFocused) {
    return refused({
      code: 'FOCUS_MOVED',
      message: `the focus moved from ${describe(opts.expectFocused)} to ${describe(focusedIn(doc))} since the page was observed; nothing was pressed`,
      message_said: refusalSaid('focus_moved', opts.expectFocused),
    });
  }
  const what = `${c.ctrlKey ? 'Control+' : ''}${c.altKey ? 'Alt+' : ''}${c.metaKey ? 'Meta+' : ''}${c.shiftKey ? 'Shift+' : ''}${c.key === ' ' ? 'Space' : c.key}`;
  const said: string[] = [];
  let navigation: 'form_submitted' | 'link_followed' | undefined;
  try {
    for (let i = 0; i < repeat && !navigation; i++) {
      const once = pressOnce(doc, c, opts.guard, opts.hooks);
      if (once.refusal)
        return i === 0 && said.length === 0 ? refused(once.refusal) : { status: 'failed', code: once.refusal.code, message: `${once.refusal.message} (after ${i} press(es))`.slice(0, 2000) };
      said.push(...once.said);
      navigation = once.navigation;
    }
  } catch (error) {
    return { status: 'failed', code: 'EXECUTION_FAILED', message: `pressing ${what} threw: ${String(error)}`.slice(0, 2000) };
  }
  const focused = focusedIn(doc);
  const value = valueOf(focused);
  const unique = [...new Set(said)];
  return {
    status: 'done',
    message: `pressed ${what}${repeat > 1 ? ` ×${repeat}` : ''} on ${describe(el ?? focused)}${unique.length ? `: ${unique.join('; ')}` : ''}`.slice(0, 2000),
    ...(value !== undefined && !(is(focused, 'input') && inputKind(focused) === 'password') ? { value } : {}),
    ...(navigation ? { navigation } : {}),
  };
}
