import type { ApprovalReason, ApprovalReasonCode, ApprovalRequest, BoundForm } from '../../protocol/approval.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import type { Source } from '../../protocol/resource.ts';
import { t, type MessageKey } from '../../base/i18n.ts';
import { humanize, reasonText } from './labels.ts';
import { said } from './phrases.ts';
import { actingWords } from './resource-words.ts';
import { inputRows, showValue } from './values.ts';

/**
 * An approval card in words (issue 30.1): one sentence saying what, on what, where and for whom;
 * then only the facts that change the decision (the values it will send, money, irreversibility,
 * page text that may have steered it); everything else goes behind "Details". Each reason is said
 * once. Pure: the component only lays this out.
 */
export interface CardWords {
  /** "Cancel order ORD-1023 on shop.localhost, asked by Claude Desktop". */
  headline: string;
  /** What changes the decision, most serious first. */
  facts: CardFact[];
  /** The values it will send, as the person reads them (the page's option labels where known). */
  values: CardValue[];
  /** The remaining reasons, for Details: each once, in words. */
  otherReasons: string[];
}

interface CardFact {
  /** `warn` facts (money, irreversibility, steering, doubt) are drawn as warnings. */
  kind: 'warn' | 'info';
  text: string;
  /** For the facts tests find by name. */
  testid?: 'resource-doubt' | 'sends-to' | 'prior-step';
}

interface CardValue {
  label: string;
  value: string;
  /** The exact value sent, when `value` shows the page's label for it instead. */
  sent?: string;
}

/** Reasons that change the decision, in the order a person should read them; the rest go to Details. */
const FRONT: readonly ApprovalReasonCode[] = ['payment', 'consequential', 'untrusted_input', 'confirmation', 'unknown_risk', 'inferred_control'];

/** Details the pipeline writes that only repeat a reason's words or name who flagged it (said elsewhere). */
const TAINTED = /^page or tool content has already reached this agent/;
const AGENT_SAYS = /^the agent built this input from untrusted page or tool content$/;
const REPEATED_DETAIL = [
  /^the (tool declares consequentialHint|site’s contract marks it consequential|adapter marks it consequential|observation marks it consequential)$/,
  /^the control “.*” moves money$/,
  TAINTED,
  AGENT_SAYS,
];

/** Who said an action has lasting consequences, per path. */
const markedBy = (via: Source) => t(`marked_by_${via}`);

/** Front-of-card words for each reason that changes the decision (reasonText stays the Details wording). */
const FRONT_TEXT: Partial<Record<ApprovalReasonCode, (r: Pick<ApprovalRequest, 'via'>) => string>> = {
  payment: () => t('fact_payment'),
  consequential: (r) => t('fact_consequential', markedBy(r.via)),
};

/** Who says the input may have been steered: Steward (page content reached the agent) or the agent itself. */
function steeredText(group: readonly ApprovalReason[]): string {
  if (group.some((x) => x.detail && TAINTED.test(x.detail))) return t('fact_steered_tainted');
  if (group.some((x) => x.detail && AGENT_SAYS.test(x.detail))) return t('fact_steered_agent_says');
  return t('fact_steered');
}

/** DOM actions as verbs a person uses (dom.click → "Press"). */
const DOM_VERB: Record<string, MessageKey> = {
  'dom.click': 'dom_verb_click',
  'dom.type': 'dom_verb_type',
  'dom.select': 'dom_verb_select',
  'dom.scroll': 'dom_verb_scroll',
  'dom.press': 'dom_verb_press',
  'dom.hover': 'dom_verb_hover',
  'dom.drag': 'dom_verb_drag',
  'dom.check': 'dom_verb_check',
  'dom.upload': 'dom_verb_upload',
};

/** Verbs that read better with a preposition before their object (the action's own name: the site's words, not ours). */
const VERB_PHRASE: Record<string, string> = { pay: 'pay for' };

export interface CardContext {
  /** Option labels of the page's choice controls (select, listbox), from a current observation. */
  optionLabels?: readonly string[];
}

export function cardWords(r: ApprovalRequest, ctx: CardContext = {}): CardWords {
  const on = actingWords(r);
  return {
    headline: headline(r, on.name),
    facts: facts(r, on.doubt),
    values: values(r, ctx.optionLabels ?? []),
    otherReasons: otherReasons(r.reasons),
  };
}

function headline(r: ApprovalRequest, onName: string): string {
  const where = hostOf(r.origin);
  const who = r.agent_name ?? r.agent_id;
  const known = onName !== t('resource_this_page') && onName !== t('acting_unknown');
  return t('card_headline', what(r, known ? onName : undefined), where, who);
}

function what(r: ApprovalRequest, onName: string | undefined): string {
  if (r.action === 'nav.goto') return t('card_open', typeof r.input.url === 'string' ? r.input.url : t('card_another_address'));
  const domVerbKey = DOM_VERB[r.action];
  if (domVerbKey) {
    const domVerb = t(domVerbKey);
    const target = r.target !== undefined ? said(r.target_said, r.target) : t('card_an_element');
    return onName ? t('card_dom_on', domVerb, target, onName) : `${domVerb} ${target}`;
  }
  // A site's or a page's own action: `orders.cancel` → "Cancel", `add_item` → "Add item".
  const verb = r.action.split('.').pop() ?? r.action;
  const phrase = capitalise(VERB_PHRASE[verb] ?? humanize(verb));
  if (!onName) return phrase;
  // "Cancel order" + "order ORD-7002" reads "Cancel order ORD-7002".
  const parts = phrase.split(' ');
  const last = parts.at(-1)!.toLowerCase();
  if (parts.length > 1 && onName.toLowerCase().startsWith(`${last} `)) return `${parts.slice(0, -1).join(' ')} ${onName}`;
  return parts.length > 1 && !VERB_PHRASE[verb] ? t('card_for', phrase, onName) : `${phrase} ${onName}`;
}

function facts(r: ApprovalRequest, doubt: string | undefined): CardFact[] {
  const out: CardFact[] = [];
  if (doubt) out.push({ kind: 'warn', text: doubt, testid: 'resource-doubt' });
  if (r.sends_to) out.push({ kind: 'warn', text: t('fact_sends_to', r.sends_to, r.origin), testid: 'sends-to' });
  for (const code of FRONT) {
    const group = r.reasons.filter((x) => x.code === code);
    if (group.length === 0) continue;
    const text = code === 'untrusted_input' ? steeredText(group) : (FRONT_TEXT[code]?.(r) ?? reasonText(code));
    out.push({ kind: 'warn', text: withDetails(text, group) });
  }
  // Other reasons with a detail of their own (an address it goes to, text it types) are decision facts too.
  for (const x of r.reasons) {
    if (FRONT.includes(x.code) || !x.detail || repeated(x.detail)) continue;
    out.push({ kind: 'warn', text: `${capitalise(said(x.detail_said, x.detail))}.` });
  }
  if (r.prior_step) {
    out.push({
      kind: 'info',
      text: t('fact_prior_step', r.prior_step.action, said(r.prior_step.target_said, r.prior_step.target)),
      testid: 'prior-step',
    });
  }
  return out;
}

function withDetails(text: string, group: readonly ApprovalReason[]): string {
  // Said in the person's language; `repeated` reads the pipeline's English, which every detail carries.
  const details = group.filter((x) => x.detail !== undefined && !repeated(x.detail)).map((x) => said(x.detail_said, x.detail!));
  return details.length === 0 ? text : `${text.replace(/\.$/, '')} (${details.join('; ')}).`;
}

function repeated(detail: string): boolean {
  return REPEATED_DETAIL.some((re) => re.test(detail));
}

/** The remaining reasons, each once: those whose detail made it a front fact are not repeated. */
function otherReasons(reasons: readonly ApprovalReason[]): string[] {
  const shown = new Set<ApprovalReasonCode>();
  for (const x of reasons) if (!FRONT.includes(x.code) && !(x.detail && !repeated(x.detail)) && !shown.has(x.code)) shown.add(x.code);
  return [...shown].map(reasonText);
}

/** Why Steward refused a decision (the panel channel's error codes), in the person's words. */
const DECIDE_ERRORS = ['APPROVAL_NOT_FOUND', 'APPROVAL_ALREADY_DECIDED', 'APPROVAL_EXPIRED', 'APPROVAL_STALE', 'WINDOW_NOT_ALLOWED'] as const;

/** A refused decision in words; the worker's own message for a code the panel does not know. */
export function decideErrorText(error: { code?: unknown; message: string }): string {
  const code = DECIDE_ERRORS.find((c) => c === error.code);
  return code ? t(`card_error_${code}`) : error.message;
}

/** Keys that address an element, not a value a person chooses (the headline names the element). */
const ADDRESS_KEYS = new Set(['ref', 'to']);

function values(r: ApprovalRequest, optionLabels: readonly string[]): CardValue[] {
  const out: CardValue[] = [];
  for (const row of inputRows(r.input)) {
    if (ADDRESS_KEYS.has(row.path) || (r.action === 'nav.goto' && row.path === 'url')) continue;
    const sent = showValue(row.value);
    const label = typeof row.value === 'string' ? optionLabel(row.value, optionLabels) : undefined;
    out.push({ label: capitalise(humanize(row.path)), value: label ?? sent, ...(label !== undefined ? { sent } : {}) });
  }
  if (r.form) out.push(...formValues(r.form));
  return out;
}

const BUTTON_TYPES = new Set(['submit', 'button', 'reset', 'image']);

/** A form's values as a click would submit them; buttons and empty fields say nothing to decide on. */
function formValues(form: BoundForm): CardValue[] {
  const out: CardValue[] = [];
  for (const f of form.fields) {
    if (BUTTON_TYPES.has(f.type)) continue;
    const label = f.label || f.name || f.ref;
    if (f.check) out.push({ label, value: f.check === 'checked' ? t('value_checked') : t('value_partly_checked') });
    else if (f.value !== undefined && f.value !== '') out.push({ label, value: f.value });
    else if (f.type === 'password') out.push({ label, value: t('value_secret') });
  }
  return out;
}

/** The labels of the options the page's form fields offer (a select's), from a current observation. */
export function optionLabelsOf(observed: Pick<ObservedState, 'forms'>): string[] {
  return (observed.forms ?? []).flatMap((f) => f.fields.flatMap((x) => x.options ?? []));
}

/**
 * The page's own label for an option value, when one of its choice controls shows a label that
 * reads as the same words (`ordered_by_mistake` ↔ "Ordered by mistake"). Only such a match: a
 * label that says something else could be a page's lie about what will be sent.
 */
function optionLabel(value: string, labels: readonly string[]): string | undefined {
  const key = words(value);
  if (key === '' || key === value.toLowerCase()) return undefined;
  return labels.find((l) => words(l) === key);
}

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
