import { computeAccessibleDescription, computeAccessibleName, getRole } from 'dom-accessibility-api';
import type { ElementState } from '../../protocol/element.ts';
import { LISTENER_MARK_ATTRIBUTE, MARK, parseMarks } from '../../protocol/listener-marks.ts';
import { cleanText } from '../clean-text.ts';
import { firstRole, INTERACTIVE_ROLES } from './classify.ts';
import type { Semantics } from './entries.ts';
import type { InferredControl } from './infer-control.ts';
import { inferredName } from './inferred.ts';
import { LIMITS } from './limits.ts';
import { RANGE_ROLES, rangeBounds } from './range-bounds.ts';
import type { LinkTargets } from './link-targets.ts';
import { dom } from './native.ts';
import type { StyleCues } from './style-scan.ts';

/**
 * Role, accessible name, description and attribute states of one interactive element, computed
 * per the accname spec by dom-accessibility-api. Values and `checked` change without mutations,
 * so they are read separately (`liveState`) on every snapshot.
 */

const NAME_OPTIONS = { computedStyleSupportsPseudoElements: true } as const;
/** For trees whose stylesheets generate no ::before/::after content (see style-scan.ts): same names, fewer style reads. */
const NAME_OPTIONS_NO_PSEUDO = { computedStyleSupportsPseudoElements: false } as const;
const FORM_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option']);
/**
 * Input types whose value a person enters by hand, so the snapshot marks them `editable`: the text
 * fields, the date and time pickers and the colour picker (the act side types into the same and
 * into a range: TYPED_INPUT_TYPES in act/typed-value.ts).
 */
const EDITABLE_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'number', 'password', 'date', 'time', 'datetime-local', 'month', 'week', 'color']);

function roleOf(el: Element, localName: string, special: boolean): string {
  let role: string | null = null;
  try {
    role = getRole(el);
  } catch {
    role = null;
  }
  const explicit = special ? dom.attr(el, 'role') : null;
  if (explicit !== null) {
    const known = firstRole(explicit, INTERACTIVE_ROLES);
    if (known) return known;
  }
  if (role && role !== 'generic' && role !== 'none' && role !== 'presentation') return role;
  if (localName === 'summary') return 'button';
  if (localName === 'input') {
    // No ARIA role in html-aam for these; say what an agent can do with them.
    const type = (dom.attr(el, 'type') ?? '').trim().toLowerCase();
    if (type === 'color' || type === 'file') return 'button';
    return 'textbox';
  }
  if (special && dom.has(el, 'contenteditable')) return 'textbox';
  return role ?? 'generic';
}

function ariaOf(el: Element, name: string): string | null {
  const v = dom.attr(el, name);
  return v === null ? null : v.trim().toLowerCase();
}
const none = (): null => null;

/** States that live in attributes (a mutation tells us when they change). */
/** `special`: the element carries an ARIA state attribute (else those reads are skipped). */
function attributeStates(el: Element, localName: string, role: string, inputType: string | undefined, ariaDisabledInTree: boolean, special: boolean): ElementState[] {
  const states: ElementState[] = [];
  const isControl = FORM_CONTROLS.has(localName);
  const aria = special ? ariaOf : none;
  if ((isControl && dom.matches(el, ':disabled')) || (ariaDisabledInTree && dom.closest(el, '[aria-disabled="true"]'))) states.push('disabled');
  const expanded = aria(el, 'aria-expanded');
  if (expanded === 'true') states.push('expanded');
  else if (expanded === 'false') states.push('collapsed');
  else if (localName === 'summary') {
    const details = dom.parentElement(el);
    states.push(details && dom.has(details, 'open') ? 'expanded' : 'collapsed');
  }
  if (aria(el, 'aria-selected') === 'true') states.push('selected');
  const pressed = aria(el, 'aria-pressed');
  if (pressed === 'true') states.push('pressed');
  else if (pressed === 'mixed') states.push('mixed');
  if (!(localName === 'input' && (inputType === 'checkbox' || inputType === 'radio'))) {
    const checked = aria(el, 'aria-checked');
    if (checked === 'true') states.push('checked');
    else if (checked === 'mixed' && !states.includes('mixed')) states.push('mixed');
  }
  if ((isControl && dom.has(el, 'required')) || aria(el, 'aria-required') === 'true') states.push('required');
  const readonly = (isControl && dom.has(el, 'readonly')) || aria(el, 'aria-readonly') === 'true';
  if (readonly) states.push('readonly');
  const invalid = aria(el, 'aria-invalid');
  if (invalid !== null && invalid !== 'false' && invalid !== '') states.push('invalid');
  if (aria(el, 'aria-busy') === 'true') states.push('busy');
  const editableInput = (localName === 'input' && EDITABLE_INPUT_TYPES.has(inputType ?? 'text')) || localName === 'textarea';
  const editingHost = role === 'textbox' && !isControl && dom.isContentEditable(el as HTMLElement);
  if ((editableInput || editingHost) && !readonly && !states.includes('disabled')) {
    states.push('editable');
    if (editableInput && reactsToEdits(el)) states.push('reactive');
  }
  return states;
}

/**
 * Whether the page listens to this field's edits (input, change), on it or on its form (issue 27,
 * quiet sinks): typing there runs the page's code at once (autosave, a live preview), with no
 * submit for a person to see. From the main world's listener marks; read for text fields only.
 */
function reactsToEdits(el: Element): boolean {
  if (parseMarks(dom.attr(el, LISTENER_MARK_ATTRIBUTE)) & MARK.edit) return true;
  const form = dom.closest(el, 'form');
  return form !== null && (parseMarks(dom.attr(form, LISTENER_MARK_ATTRIBUTE)) & MARK.edit) !== 0;
}

function liveKind(localName: string, role: string, inputType: string | undefined): Semantics['live'] {
  if (localName === 'input') {
    if (inputType === 'checkbox' || inputType === 'radio') return 'check';
    if (inputType === 'button' || inputType === 'submit' || inputType === 'reset' || inputType === 'image' || inputType === 'file') return undefined;
    return 'value';
  }
  if (localName === 'textarea') return 'value';
  if (localName === 'select') return 'select';
  if (RANGE_ROLES.has(role)) return 'range';
  if (role === 'textbox') return 'editable';
  // A custom combobox (a div, as UI kits build them) shows its chosen option as its own text.
  if (role === 'combobox') return 'editable';
  return undefined;
}

function selectOptions(el: HTMLSelectElement): string[] {
  const out: string[] = [];
  const options = el.options;
  const n = Math.min(options.length, LIMITS.maxOptions);
  for (let i = 0; i < n; i++) {
    const o = options[i]!;
    out.push(cleanText(o.label || dom.text(o), LIMITS.maxOptionLength));
  }
  return out;
}

/** Passwords, card numbers and one-time codes: their values never leave the page. */
function isSecretField(el: Element, inputType: string | undefined): boolean {
  if (inputType === 'password') return true;
  const autocomplete = (dom.attr(el, 'autocomplete') ?? '').toLowerCase();
  return /\b(cc-number|cc-csc|cc-exp|one-time-code|current-password|new-password)\b/.test(autocomplete);
}

const HIDDEN_NAME_OPTIONS = { ...NAME_OPTIONS, hidden: true } as const;

/**
 * The two trivial cases of accname, answered without dom-accessibility-api's style reads, with
 * exactly the result it gives (its own answer is used for everything else):
 * - 2B/2C: without aria-labelledby, a non-blank aria-label is the name of the node being named
 *   (the root of a computation is never an embedded control);
 * - 2F/2G: a link or button with no naming attributes, no <label>, and a single text child is
 *   named by that text, when no stylesheet can add ::before/::after content to it.
 * Together they cover most controls of a typical admin table.
 */
function trivialName(el: Element, localName: string, special: boolean, pseudo: boolean): string | undefined {
  const label = dom.attr(el, 'aria-label');
  if (label !== null && label.trim() !== '' && !(special && dom.has(el, 'aria-labelledby'))) return label;
  if (special || pseudo || label !== null || (localName !== 'a' && localName !== 'button')) return undefined;
  const child = dom.firstChild(el);
  if (!child || dom.nodeType(child) !== 3 || dom.nextSibling(child) !== null) return undefined;
  if (localName === 'button' && ((el as HTMLButtonElement).labels?.length ?? 0) > 0) return undefined;
  const text = (child as Text).data;
  return text.trim() !== '' ? text : undefined;
}

function accessibleName(el: Element, localName: string, special: boolean, pseudo: boolean): { name: string; failed: boolean } {
  const trivial = trivialName(el, localName, special, pseudo);
  if (trivial !== undefined) return { name: cleanText(trivial, LIMITS.maxNameLength), failed: false };
  try {
    let name = computeAccessibleName(el, pseudo ? NAME_OPTIONS : NAME_OPTIONS_NO_PSEUDO);
    // accname gives a node that is not rendered no name at all; an observer still wants to say
    // WHICH hidden control is there, so it is named as if it were shown.
    if (name === '' && (dom.has(el, 'hidden') || dom.attr(el, 'aria-hidden') === 'true' || !dom.checkVisibility(el, { visibilityProperty: true }))) {
      name = computeAccessibleName(el, HIDDEN_NAME_OPTIONS);
    }
    return { name: cleanText(name, LIMITS.maxNameLength), failed: false };
  } catch {
    // The page broke the computation (a clobbered document, a throwing custom element…): fall back
    // to the plainest sources and say so.
    const fallback = dom.attr(el, 'aria-label') ?? dom.attr(el, 'title') ?? dom.text(el);
    return { name: cleanText(fallback, LIMITS.maxNameLength), failed: true };
  }
}

/** Hints that let most elements skip attribute reads (see STRUCTURAL_ATTRIBUTES_SELECTOR, NAMING_ATTRIBUTES_SELECTOR and rootFlags). */
export interface SemanticHints {
  /** The element has one of the special attributes. */
  special: boolean;
  /** Its tree has some aria-disabled="true". */
  ariaDisabled: boolean;
  /** Stylesheets may generate ::before/::after content. */
  pseudo: boolean;
  /** Link targets for this capture (without: read from each link). */
  links?: LinkTargets;
  /** Steward infers it is a control (issue 26): the role, and how it knows. */
  inferred?: InferredControl;
  /** Its tree's style cues (what an inferred control's name leaves out). */
  cues?: StyleCues;
  /** See Semantics.holder. */
  holder?: boolean;
}

export const CAUTIOUS_HINTS: SemanticHints = { special: true, ariaDisabled: true, pseudo: true };

export function semanticsOf(el: Element, localName: string, hints: SemanticHints = CAUTIOUS_HINTS): Semantics {
  const special = hints.special;
  const inferred = hints.inferred;
  const role = inferred ? inferred.role : roleOf(el, localName, special);
  const inputType = localName === 'input' ? (dom.attr(el, 'type') ?? 'text').trim().toLowerCase() || 'text' : undefined;
  const accname = accessibleName(el, localName, special, hints.pseudo);
  const failed = accname.failed;
  // accname gives an element without a role no name from its content: an inferred control is named by it all the same.
  const name = inferred && accname.name === '' ? inferredName(el, role, hints.cues) : accname.name;
  const states = attributeStates(el, localName, role, inputType, hints.ariaDisabled, special);
  if (inferred) for (const state of inferred.states) if (!states.includes(state)) states.push(state);
  // Every field present from the start: all Semantics share one object shape, so the reads of
  // every snapshot (liveState, emitElement) stay monomorphic.
  const s: Semantics = {
    role,
    name,
    description: undefined,
    tag: localName,
    inputType: inputType || undefined,
    href: undefined,
    options: undefined,
    states,
    usesIdRefs: special && (dom.has(el, 'aria-labelledby') || dom.has(el, 'aria-describedby')),
    live: undefined,
    failed: failed || undefined,
    secret: isSecretField(el, inputType) || undefined,
    selected: undefined,
    range: undefined,
    shape: undefined,
    passive: undefined,
    controlsIds: undefined,
    inferred,
    holder: hints.holder || undefined,
  };
  if (special && (dom.has(el, 'aria-describedby') || dom.has(el, 'aria-description') || dom.has(el, 'title'))) {
    try {
      const description = cleanText(computeAccessibleDescription(el, NAME_OPTIONS), LIMITS.maxNameLength);
      if (description && description !== name) s.description = description;
    } catch {
      s.failed = true;
    }
  }
  if (localName === 'a' || localName === 'area') {
    const href = hints.links ? hints.links.of(el) : (el as HTMLAnchorElement).href;
    if (typeof href === 'string' && href) s.href = href.slice(0, LIMITS.maxHrefLength);
  }
  if (localName === 'select') s.options = selectOptions(el as HTMLSelectElement);
  const live = liveKind(localName, role, inputType);
  if (live) s.live = live;
  widgetSemantics(s, el, localName, special);
  return s;
}

/** Issue 26's attribute facts: a range's bounds, the popup a control names (aria-controls / aria-owns, resolved per snapshot). */
function widgetSemantics(s: Semantics, el: Element, localName: string, special: boolean): void {
  s.range = rangeBounds((name) => dom.attr(el, name), localName, s.role, s.inputType);
  if (!special) return;
  const ids = dom.attr(el, 'aria-controls') ?? dom.attr(el, 'aria-owns');
  if (ids !== null && ids.trim() !== '') s.controlsIds = ids.trim().slice(0, 512);
}

export interface LiveState {
  value: string | undefined;
  check: 'checked' | 'mixed' | undefined;
}

/** Value and checked/mixed state, read fresh on every snapshot (typing and clicking do not mutate attributes). */
export function liveState(el: Element, s: Semantics): LiveState {
  let value: string | undefined;
  let check: LiveState['check'];
  switch (s.live) {
    case 'check': {
      const input = el as HTMLInputElement;
      if (input.indeterminate) check = 'mixed';
      else if (input.checked) check = 'checked';
      break;
    }
    case 'value':
      // Never a password or card number: Steward may say a field is filled, not what it holds.
      if (!s.secret) value = (el as HTMLInputElement).value;
      break;
    case 'select': {
      const select = el as HTMLSelectElement;
      if (!select.multiple) {
        // selectedOptions builds a live collection per call; the index is a plain read. The
        // options' labels only change with a mutation inside the select, and any such mutation
        // gives it new Semantics: the same index under the same Semantics is the same value.
        const index = select.selectedIndex;
        if (s.selected?.index === index) return { value: s.selected.value, check };
        const option = index >= 0 ? select.options[index] : undefined;
        value = option ? option.label || dom.text(option) : '';
        value = value === '' ? undefined : cleanText(value, LIMITS.maxValueLength);
        s.selected = { index, value: value === '' ? undefined : value };
        return { value: s.selected.value, check };
      }
      const labels: string[] = [];
      const options = select.options;
      for (let i = 0; i < options.length && labels.length < LIMITS.maxOptions; i++) if (options[i]!.selected) labels.push(options[i]!.label || dom.text(options[i]!));
      value = labels.join(', ');
      break;
    }
    case 'range':
      value = dom.attr(el, 'aria-valuetext') ?? dom.attr(el, 'aria-valuenow') ?? (el as HTMLInputElement).value ?? undefined;
      break;
    case 'editable':
      value = dom.text(el);
      break;
    case undefined: // an element with no live value (a link, a button)
      break;
  }
  if (value !== undefined) value = value === '' ? undefined : cleanText(value, LIMITS.maxValueLength);
  return { value: value === '' ? undefined : value, check };
}
