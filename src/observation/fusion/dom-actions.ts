import type { AvailableActionInput } from '../../protocol/action.ts';
import type { PageSnapshot, SnapshotElement, SnapshotForm } from '../snapshot.ts';
import { linkActs, soundsConsequential, touchesPayment } from './action-risk.ts';
import { quote } from '../read/claims.ts';
import { pathOf } from '../read/values.ts';

/**
 * The DOM layer's actions, bound to element refs: dom.click, dom.type and dom.select, plus
 * nav.goto and scrolling the page. Only a visible, enabled control is offered. A control below
 * the fold is `visible` (scrolling reaches it, and the page scroll stays offered); one Steward
 * marks unreachable (`offscreen`: outside the scrollable page, where no scrolling brings it) is,
 * like hidden, covered and zero-size ones, reported as a conflict and offered nothing, not even
 * a scroll to it.
 */

const MAX_DOM_ACTIONS = 400;

const TYPEABLE = new Set(['textbox', 'searchbox', 'spinbutton']);
const SELECTABLE = new Set(['listbox']);
const TOGGLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const READ_ONLY_CLICKS = new Set(['tab', 'treeitem', 'option']);

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

type Kind = 'click' | 'type' | 'select';

function kindOf(e: SnapshotElement): Kind {
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

/** Risk of one control, from what it is, where it posts or leads, and what it says. */
function risk(e: SnapshotElement, kind: Kind, form: SnapshotForm | undefined, base: string) {
  const words = `${e.name} ${e.description ?? ''} ${form?.name ?? ''}`;
  const payment = touchesPayment(words) && (kind === 'click' || e.inputType === 'password' || /card|cvv|cvc|iban/i.test(words));
  let readOnly: boolean;
  let consequential: boolean;
  if (kind !== 'click') {
    // Typing and choosing change only the page's form until something submits it.
    readOnly = e.inputType !== 'password';
    consequential = e.inputType === 'password';
  } else if (leavesSite(e, base)) {
    readOnly = false;
    consequential = linkActs(words);
  } else if (e.role === 'link') {
    readOnly = !linkActs(words);
    consequential = !readOnly;
  } else if (TOGGLES.has(e.role)) {
    readOnly = e.formRef !== undefined; // in a form it only edits the form; alone it may save at once
    consequential = false;
  } else if (READ_ONLY_CLICKS.has(e.role) || e.states.some((s) => s === 'expanded' || s === 'collapsed')) {
    readOnly = true;
    consequential = false;
  } else {
    consequential = soundsConsequential(words);
    readOnly = form?.method === 'get' && !consequential;
  }
  return { read_only: readOnly && !payment, consequential: consequential || payment, payment };
}

function actionFor(e: SnapshotElement, form: SnapshotForm | undefined, base: string): AvailableActionInput {
  const describe = context(e, form, base);
  const kind = kindOf(e);
  const r = risk(e, kind, form, base);
  const common = { via: 'legacy_inference' as const, description: describe, ...r, requires_approval: !r.read_only || r.consequential || r.payment, target_ref: e.ref };
  if (kind === 'type') {
    return {
      ...common,
      action: 'dom.type',
      title: `Type into ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: { ref: refSchema(e.ref), text: { type: 'string', maxLength: 100_000 }, clear: { type: 'boolean' } },
        required: ['ref', 'text'],
        additionalProperties: false,
      },
    };
  }
  if (kind === 'select') {
    return {
      ...common,
      action: 'dom.select',
      title: `Choose in ${quote(label(e))}`.slice(0, 256),
      input_schema: {
        type: 'object',
        properties: { ref: refSchema(e.ref), values: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['ref', 'values'],
        additionalProperties: false,
      },
    };
  }
  return { ...common, action: 'dom.click', title: `Click ${quote(label(e))}`.slice(0, 256), input_schema: clickSchema(e.ref) };
}

/**
 * Order of importance when a page has more controls than an observation can list: controls that
 * act first, then fields, read-only clicks and links. Cheap: no action is built.
 */
function rank(e: SnapshotElement, form: SnapshotForm | undefined, base: string): number {
  if (e.role === 'link') return 4;
  const kind = kindOf(e);
  if (kind !== 'click') return 1;
  return risk(e, kind, form, base).read_only ? 2 : 0;
}

/** The two primitives that need no element: go to a URL, scroll the page. */
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
    .filter((e) => e.visibility === 'visible' && !e.states.includes('disabled'))
    .map((e, i) => {
      const form = e.formRef ? forms.get(e.formRef) : undefined;
      return { e, form, i, rank: rank(e, form, snapshot.url) };
    });
  const kept = (candidates.length > MAX_DOM_ACTIONS ? [...candidates].sort((x, y) => x.rank - y.rank || x.i - y.i).slice(0, MAX_DOM_ACTIONS) : candidates)
    .sort((x, y) => x.i - y.i)
    .map((x) => actionFor(x.e, x.form, snapshot.url));
  return { actions: [...kept, ...GENERIC_DOM_ACTIONS], truncated: candidates.length > MAX_DOM_ACTIONS };
}
