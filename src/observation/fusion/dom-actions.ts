import type { AvailableActionInput } from '../../protocol/action.ts';
import type { PageSnapshot, SnapshotElement, SnapshotForm } from '../../protocol/snapshot.ts';
import { linkActs, soundsConsequential, touchesPayment } from './action-risk.ts';
import { quote } from '../read/claims.ts';
import { pathOf } from '../read/values.ts';

/**
 * The DOM layer's actions, bound to element refs: dom.click, dom.type and dom.select; dom.press on
 * fields, sliders and selects (and on whatever has the focus), dom.hover on controls that react
 * to the pointer or open menus, dom.drag on sliders and draggable items, dom.check on checkboxes,
 * radios and switches, dom.upload on file fields (offered so an agent learns that only the person
 * may choose a file); plus nav.goto and scrolling the page. Risk at offer time says what
 * src/pipeline/policy/dom-risk.ts will say when the action is asked for (for dom.press, the worst
 * key: Enter). Only a visible, enabled control is offered, or a covered one whose cover the observation
 * names (the act scrolls it clear and presses it where it can be reached, or refuses naming the cover). A control below
 * the fold is `visible` (scrolling reaches it, and the page scroll stays offered); one Steward
 * marks unreachable (`offscreen`: outside the scrollable page, where no scrolling brings it) is,
 * like hidden, covered and zero-size ones, reported as a conflict and offered nothing, not even
 * a scroll to it.
 */

const MAX_DOM_ACTIONS = 400;
/** All per-element DOM actions together: the observation lists at most 512 actions (fuse.ts), tools and adapters first. */
const MAX_DOM_TOTAL = 480;

const TYPEABLE = new Set(['textbox', 'searchbox', 'spinbutton']);
const SELECTABLE = new Set(['listbox']);
const TOGGLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const READ_ONLY_CLICKS = new Set(['tab', 'treeitem', 'option']);
/** A day of a date grid (dom-risk.ts DAY_CELL): choosing it is selection. */
const DAY_CELL = /^(?:\D{0,12}\b)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b(?:\D{0,20}(?:\d{4})?)?$|^\d{4}-\d{2}-\d{2}$/;
/** Covered controls are offered only when the observation names what covers them (dom-risk.ts `actionable`). */
const offered = (e: SnapshotElement) => e.visibility === 'visible' || (e.visibility === 'covered' && e.coveredBy !== undefined);
/** Controls a person may reach with the keyboard and press keys in. */
const PRESSABLE = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider', 'listbox']);
/** Roles whose menu or popup may open when the pointer rests on them. */
const HOVER_ROLES = new Set(['menuitem', 'menubar']);

const refSchema = (ref: string) => ({ type: 'string', const: ref });

function clickSchema(ref: string) {
  return { type: 'object', properties: { ref: refSchema(ref) }, required: ['ref'], additionalProperties: false };
}

function label(e: SnapshotElement): string {
  return (e.name || e.description || e.value || e.tag).slice(0, 200);
}

/** Where a link goes: its path on this site, or the full address when it leaves the site (an ad, a partner). */
function destination(href: string, base: string): string {
  try {
    const to = new URL(href, base);
    return to.origin === new URL(base).origin ? to.pathname : to.href.slice(0, 300);
  } catch {
    return href.slice(0, 300);
  }
}

function context(e: SnapshotElement, form: SnapshotForm | undefined, base: string): string {
  const path = form?.action ? pathOf(form.action, base) : undefined;
  const where = path ? ` in a ${form?.method ?? 'get'} form to ${quote(path)}` : e.href ? ` to ${quote(destination(e.href, base))}` : '';
  return `${e.role} ${quote(label(e))}${where}`.slice(0, 16_384);
}

type Kind = 'click' | 'type' | 'select' | 'upload';

function kindOf(e: SnapshotElement): Kind {
  if (e.tag === 'input' && e.inputType === 'file') return 'upload';
  // A colour input is drawn as a button that opens the system picker, which no agent can reach: its value is typed (#rrggbb).
  if (e.tag === 'input' && e.inputType === 'color') return 'type';
  if (e.tag === 'select' || SELECTABLE.has(e.role)) return 'select';
  if (TYPEABLE.has(e.role) || (e.role === 'combobox' && e.tag !== 'select')) return 'type';
  return 'click';
}

/**
 * A link that leaves the page's site (another origin, or a `javascript:` / other scheme) is not
 * a read-only look around: where it goes decides, whatever its role (link, tab, toggle…).
 */
function leavesSite(e: SnapshotElement, base: string): boolean {
  if (!e.href) return false;
  try {
    const to = new URL(e.href, base);
    return !(to.protocol === 'http:' || to.protocol === 'https:') || to.origin !== new URL(base).origin;
  } catch {
    return true;
  }
}

function sameSite(action: string | undefined, base: string): boolean {
  if (!action) return false;
  try {
    const to = new URL(action, base);
    return (to.protocol === 'http:' || to.protocol === 'https:') && to.origin === new URL(base).origin;
  } catch {
    return false;
  }
}

type Risk = { read_only: boolean; consequential: boolean; payment: boolean };

const isSlider = (e: SnapshotElement) => e.role === 'slider' || (e.tag === 'input' && e.inputType === 'range');
const disclosure = (e: SnapshotElement) => e.states.some((s) => s === 'expanded' || s === 'collapsed');

/** Risk of one control, from what it is, where it posts or leads, and what it says. */
function risk(e: SnapshotElement, kind: Kind, form: SnapshotForm | undefined, base: string): Risk {
  const words = `${e.name} ${e.description ?? ''} ${form?.name ?? ''}`;
  const payment = touchesPayment(words) && (kind === 'click' || e.inputType === 'password' || /card|cvv|cvc|iban/i.test(words));
  let readOnly: boolean;
  let consequential: boolean;
  if (kind === 'upload') {
    readOnly = false;
    consequential = true;
  } else if (kind !== 'click') {
    // Typing and choosing change only the page's form until something submits it.
    readOnly = e.inputType !== 'password';
    consequential = e.inputType === 'password';
  } else if (leavesSite(e, base)) {
    readOnly = false;
    consequential = linkActs(words);
  } else if (e.role === 'link' && !e.inferred) {
    readOnly = !linkActs(words);
    consequential = !readOnly;
  } else if (TOGGLES.has(e.role)) {
    // In a form it only edits the form; alone it may save at once.
    readOnly = e.formRef !== undefined && !soundsConsequential(words);
    consequential = soundsConsequential(words);
  } else if (READ_ONLY_CLICKS.has(e.role) || disclosure(e) || (e.role === 'gridcell' && DAY_CELL.test(e.name.trim()))) {
    readOnly = !soundsConsequential(words);
    consequential = !readOnly;
  } else if (e.inferred) {
    // Steward inferred it is a control (a listener, a pointer cursor): it cannot tell what it does.
    readOnly = false;
    consequential = true;
  } else {
    consequential = soundsConsequential(words);
    // A search or filter: a GET the markup states, to this site (dom-risk.ts lookupAddress is the authority).
    readOnly = form?.method === 'get' && form.methodDeclared === true && sameSite(form.action, base) && !consequential;
  }
  return { read_only: readOnly && !payment, consequential: consequential || payment, payment };
}

/** A key press on `e`, judged by its worst key (Enter: it may submit the form, or run what the page does with it). */
function pressRisk(e: SnapshotElement, form: SnapshotForm | undefined): Risk {
  if (isSlider(e)) return { read_only: form !== undefined, consequential: false, payment: false };
  if (e.tag === 'select' || e.role === 'listbox') return { read_only: true, consequential: false, payment: false };
  if (form) return { read_only: false, consequential: true, payment: touchesPayment(`${e.name} ${form.name ?? ''}`) };
  if (e.role === 'searchbox' || e.role === 'combobox') return { read_only: true, consequential: false, payment: false };
  return { read_only: false, consequential: true, payment: false };
}

/** Dragging `e`: a slider's value is like typing (in a form); anything else may save an order or drop something. */
function dragRisk(e: SnapshotElement, form: SnapshotForm | undefined): Risk {
  if (isSlider(e)) return { read_only: form !== undefined && !soundsConsequential(e.name), consequential: soundsConsequential(e.name), payment: false };
  return { read_only: false, consequential: true, payment: false };
}

function hoverable(e: SnapshotElement): boolean {
  return (
    HOVER_ROLES.has(e.role) ||
    e.inferred?.evidence.some((x) => x === 'hover_listener' || x === 'hover_style') === true ||
    (e.controls !== undefined && e.role !== 'textbox') ||
    (disclosure(e) && e.role !== 'combobox')
  );
}

function draggable(e: SnapshotElement): boolean {
  return isSlider(e) || e.inferred?.evidence.some((x) => x === 'draggable' || x === 'drag_listener' || x === 'cursor_grab') === true;
}

/** A place things are dropped on (only drop listeners or a drop-zone class): named by ref as a drag's `to`, nothing to do on it alone. */
const dropTargetOnly = (e: SnapshotElement) => e.inferred !== undefined && e.inferred.evidence.every((x) => x === 'drop_listener' || x === 'drop_class' || x === 'grip_inside');

const offer = (r: Risk) => ({ ...r, requires_approval: !r.read_only || r.consequential || r.payment });

function actionsFor(e: SnapshotElement, form: SnapshotForm | undefined, base: string): AvailableActionInput[] {
  if (dropTargetOnly(e)) return [];
  const describe = context(e, form, base);
  const kind = kindOf(e);
  const r = risk(e, kind, form, base);
  const common = { via: 'legacy_inference' as const, description: describe, target_ref: e.ref };
  const out: AvailableActionInput[] = [];
  const refOnly = { type: 'object', properties: { ref: refSchema(e.ref) }, required: ['ref'], additionalProperties: false };
  if (kind === 'type') {
    out.push({
      ...common,
      ...offer(r),
      action: 'dom.type',
      title: `Type into ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: { ref: refSchema(e.ref), text: { type: 'string', maxLength: 100_000 }, clear: { type: 'boolean' } },
        required: ['ref', 'text'],
        additionalProperties: false,
      },
    });
  } else if (kind === 'select') {
    out.push({
      ...common,
      ...offer(r),
      action: 'dom.select',
      title: `Choose in ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: { ref: refSchema(e.ref), values: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['ref', 'values'],
        additionalProperties: false,
      },
    });
  } else if (kind === 'upload') {
    out.push({
      ...common,
      ...offer(r),
      description: `${describe} — only the person may choose a file: Steward refuses this for any agent and asks them to pick it on the page`.slice(0, 16_384),
      action: 'dom.upload',
      title: `Choose a file for ${quote(label(e))} (the person only)`.slice(0, 256),
      input_schema: refOnly,
    });
    return out;
  } else {
    out.push({ ...common, ...offer(r), action: 'dom.click', title: `Click ${quote(label(e))}`.slice(0, 256), input_schema: clickSchema(e.ref) });
  }
  if (TOGGLES.has(e.role)) {
    out.push({
      ...common,
      ...offer(r),
      action: 'dom.check',
      title: `Set ${quote(label(e))} checked or unchecked`.slice(0, 256),
      input_schema: { type: 'object', properties: { ref: refSchema(e.ref), checked: { type: 'boolean' } }, required: ['ref', 'checked'], additionalProperties: false },
    });
  }
  if (PRESSABLE.has(e.role) || isSlider(e) || e.tag === 'select') {
    out.push({
      ...common,
      ...offer(pressRisk(e, form)),
      action: 'dom.press',
      title: `Press a key in ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: { ref: refSchema(e.ref), key: { type: 'string', maxLength: 64 }, repeat: { type: 'integer', minimum: 1, maximum: 50 } },
        required: ['ref', 'key'],
        additionalProperties: false,
      },
    });
  }
  if (hoverable(e))
    out.push({ ...common, ...offer({ read_only: true, consequential: false, payment: false }), action: 'dom.hover', title: `Hover over ${quote(label(e))}`.slice(0, 256), input_schema: refOnly });
  if (draggable(e)) {
    out.push({
      ...common,
      ...offer(dragRisk(e, form)),
      action: 'dom.drag',
      title: `Drag ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: {
          ref: refSchema(e.ref),
          to: { type: 'string', description: 'ref of the element to drop it on' },
          at: { enum: ['before', 'after', 'center'], description: 'with to: release on its upper part (above it in a list), lower part, or centre (default)' },
          offset: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false },
        },
        required: ['ref'],
        additionalProperties: false,
      },
    });
  }
  return out;
}

/**
 * Order of importance when a page has more controls than an observation can list: controls that
 * act first, then fields, read-only clicks and links. Cheap: no action is built.
 */
function rank(e: SnapshotElement, form: SnapshotForm | undefined, base: string): number {
  if (e.role === 'link' && !e.inferred) return 4;
  const kind = kindOf(e);
  if (kind !== 'click') return 1;
  return risk(e, kind, form, base).read_only ? 2 : 0;
}

/** The primitives that need no element: go to a URL, press a key on the focused element, scroll the page. */
const GENERIC_DOM_ACTIONS: readonly AvailableActionInput[] = [
  {
    action: 'nav.goto',
    via: 'legacy_inference',
    title: 'Go to a URL',
    read_only: true,
    consequential: false,
    requires_approval: false,
    input_schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'], additionalProperties: false },
  },
  {
    action: 'dom.press',
    via: 'legacy_inference',
    title: 'Press a key on whatever has the focus',
    description: 'Keys that only move around (Tab, arrows, Escape); a key that may submit, activate or change something (Enter, Space, a shortcut) needs the ref of the element to press it on',
    read_only: true,
    consequential: false,
    requires_approval: false,
    input_schema: {
      type: 'object',
      properties: { key: { type: 'string', maxLength: 64 }, repeat: { type: 'integer', minimum: 1, maximum: 50 } },
      required: ['key'],
      additionalProperties: false,
    },
  },
  {
    action: 'dom.scroll',
    via: 'legacy_inference',
    title: 'Scroll the page',
    read_only: true,
    consequential: false,
    requires_approval: false,
    input_schema: {
      type: 'object',
      properties: { direction: { enum: ['up', 'down', 'left', 'right'] }, amount: { type: 'number', exclusiveMinimum: 0, maximum: 100 } },
      required: ['direction'],
      additionalProperties: false,
    },
  },
];

export function domActions(snapshot: PageSnapshot, elements: readonly SnapshotElement[]): { actions: AvailableActionInput[]; truncated: boolean } {
  const forms = new Map(snapshot.forms.map((f) => [f.ref, f]));
  const candidates = elements
    .filter((e) => offered(e) && !e.states.includes('disabled') && !e.passive)
    .map((e, i) => {
      const form = e.formRef ? forms.get(e.formRef) : undefined;
      return { e, form, i, rank: rank(e, form, snapshot.url) };
    });
  const perElement = (candidates.length > MAX_DOM_ACTIONS ? [...candidates].sort((x, y) => x.rank - y.rank || x.i - y.i).slice(0, MAX_DOM_ACTIONS) : candidates)
    .sort((x, y) => x.i - y.i)
    .map((x) => actionsFor(x.e, x.form, snapshot.url));
  // Every kept control keeps its first action; the others (press, check, hover, drag) fill what
  // room is left, in page order, so a page full of fields does not push controls out of the list.
  let room = MAX_DOM_TOTAL - perElement.length;
  let dropped = false;
  const kept = perElement.flatMap(([first, ...extras]) => {
    if (!first) return [];
    const take = extras.slice(0, Math.max(0, room));
    room -= take.length;
    if (take.length < extras.length) dropped = true;
    return [first, ...take];
  });
  return { actions: [...kept, ...GENERIC_DOM_ACTIONS], truncated: candidates.length > MAX_DOM_ACTIONS || dropped };
}
