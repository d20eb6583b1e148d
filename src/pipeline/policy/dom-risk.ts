import type { ApprovalReason } from '../../protocol/approval.ts';
import type { DomActionName } from '../../protocol/action-name.ts';
import type { ElementSummary, FormField } from '../../protocol/element.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';

/**
 * Steward's own judgement of a DOM action, from what the element is and does, never from
 * what the page claims about it. Submitting a form, or a control whose accessible name means buy
 * / pay / delete / send / cancel / transfer / order / confirm / remove (and kin), is
 * consequential; a control Steward cannot classify counts as risky.
 */
export interface DomClassification {
  read_only: boolean;
  consequential: boolean;
  payment: boolean;
  reasons: ApprovalReason[];
  target?: ElementSummary;
  /** The address a clicked link leads to: the gateway judges it against the token's origins. */
  leads_to?: string;
  /** The action cannot run here at all (unknown or hidden element): an INVALID_INPUT. */
  problem?: { path: string; message: string };
}

const RISKY_WORDS =
  /\b(?:buy|purchase|pay|payment|checkout|check out|order|delete|remove|destroy|erase|send|submit|cancel|transfer|confirm|book|reserve|subscribe|unsubscribe|sign|approve|accept|decline|reject|withdraw|refund|donate|publish|post|deactivate|archive)\b/;
const PAYMENT_WORDS = /\b(?:buy|purchase|pay|payment|checkout|check out|place order|donate|tip|subscribe)\b/;
const PAYMENT_FIELD = /\b(?:card|credit|cvc|cvv|csc|iban|bic|swift|routing|security code|expir\w*|cc)\b/;
/** Roles whose activation only shows something: links, tabs, disclosure widgets. */
const NAVIGATION_ROLES = new Set(['link', 'tab', 'treeitem']);
/** Only what a person can see or scroll to: `offscreen` is outside the scrollable page (visibility.ts). */
const ACTIONABLE_VISIBILITY = new Set(['visible']);

const normalise = (s: string) => s.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();

export function riskyName(name: string): boolean {
  return RISKY_WORDS.test(normalise(name));
}

function paymentName(name: string): boolean {
  return PAYMENT_WORDS.test(normalise(name));
}

function fieldOf(observed: ObservedState, ref: string): FormField | undefined {
  for (const form of observed.forms ?? []) {
    const f = form.fields.find((x) => x.ref === ref);
    if (f) return f;
  }
  return undefined;
}

function findTarget(observed: ObservedState, ref: string, verb: string): { target?: ElementSummary; problem?: DomClassification['problem'] } {
  const target = observed.elements?.find((e) => e.ref === ref);
  if (!target) return { problem: { path: 'input.ref', message: `element ${ref} is not in the current observation; re-observe and use a current ref` } };
  if (!ACTIONABLE_VISIBILITY.has(target.visibility)) {
    return { target, problem: { path: 'input.ref', message: `element ${ref} is ${target.visibility}; Steward never ${verb} an element a person cannot see` } };
  }
  return { target };
}

export function classifyDom(action: DomActionName, input: Record<string, unknown>, observed: ObservedState): DomClassification {
  const readOnly: DomClassification = { read_only: true, consequential: false, payment: false, reasons: [] };
  if (action === 'nav.goto') return readOnly; // the gateway checks the target's origin
  const ref = typeof input.ref === 'string' ? input.ref : undefined;
  if (action === 'dom.scroll') {
    if (ref === undefined) return readOnly;
    const found = findTarget(observed, ref, 'scrolls to');
    return { ...readOnly, ...found };
  }
  if (ref === undefined) return { ...readOnly, read_only: false, problem: { path: 'input.ref', message: 'is required' } };

  if (action === 'dom.type' || action === 'dom.select') {
    // Filling a field changes only the page's form until something submits it (and submitting
    // is judged on its own): read-only, unless the field is a password or takes payment details.
    const found = findTarget(observed, ref, action === 'dom.type' ? 'types into' : 'selects in');
    const field = fieldOf(observed, ref);
    if (field && !ACTIONABLE_VISIBILITY.has(field.visibility)) {
      found.problem = { path: 'input.ref', message: `field ${ref} is ${field.visibility}; Steward never fills hidden fields` };
    }
    const label = normalise(`${field?.name ?? ''} ${field?.label ?? ''} ${found.target?.name ?? ''}`);
    const password = field?.type === 'password' || /\bpassword\b/.test(label);
    const payment = PAYMENT_FIELD.test(label);
    const reasons: ApprovalReason[] = [];
    if (password) reasons.push({ code: 'risky_control', detail: 'types into a password field' });
    if (payment) reasons.push({ code: 'payment', detail: 'fills a payment field' });
    return { read_only: reasons.length === 0, consequential: reasons.length > 0, payment, reasons, ...found };
  }

  // dom.click
  const found = findTarget(observed, ref, 'clicks');
  const target = found.target;
  if (!target) return { read_only: false, consequential: true, payment: false, reasons: [{ code: 'unknown_risk' }], ...found };
  const reasons: ApprovalReason[] = [];
  const form = (observed.forms ?? []).find((f) => f.submit_ref === ref || f.fields.some((x) => x.ref === ref && (x.type === 'submit' || x.type === 'image')));
  const named = clip(target.name);
  const payment = paymentName(target.name) || (form !== undefined && form.fields.some((x) => PAYMENT_FIELD.test(normalise(`${x.name} ${x.label ?? ''}`))));
  if (form) reasons.push({ code: 'form_submission', detail: `submits the form${form.name ? ` “${clip(form.name)}”` : ''}` });
  if (riskyName(target.name)) reasons.push({ code: 'risky_control', detail: `the control is named “${named}”` });
  if (payment) reasons.push({ code: 'payment', detail: `the control “${named}” touches payment` });
  if (reasons.length > 0) return { read_only: false, consequential: true, payment, reasons, ...found };
  const disclosure = target.states.includes('expanded') || target.states.includes('collapsed');
  if (target.href !== undefined) {
    // Judged by where it goes, whatever its role: only an http(s) address can be checked against
    // the token's origins; `javascript:` and other schemes run or open something unknown.
    const to = httpUrl(target.href);
    if (!to) return { read_only: false, consequential: true, payment: false, reasons: [{ code: 'unknown_risk', detail: `the ${target.role} “${named}” leads to a non-web address` }], ...found };
    if (NAVIGATION_ROLES.has(target.role) || disclosure) return { ...readOnly, leads_to: to, ...found };
  }
  if (NAVIGATION_ROLES.has(target.role) || disclosure) return { ...readOnly, ...found };
  return {
    read_only: false,
    consequential: true,
    payment: false,
    reasons: [{ code: 'unknown_risk', detail: `Steward cannot tell what the ${target.role} “${named}” does` }],
    ...found,
  };
}

function httpUrl(href: string): string | undefined {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
