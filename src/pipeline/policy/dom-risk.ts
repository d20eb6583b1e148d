import type { ApprovalReason, ApprovalReasonCode } from '../../protocol/approval.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import type { DomActionName } from '../../protocol/action-name.ts';
import type { ElementSummary, FormField, FormSummary, InteractivityEvidence } from '../../protocol/element.ts';
import { keyIntent, parseChord } from '../../protocol/key-chord.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';

/**
 * Steward's own judgement of a DOM action, from what the element is and does, never from
 * what the page claims about it — the authority the offers (src/observation/fusion/dom-actions.ts)
 * must agree with. Submitting a form (by a click or an Enter in it), or a control whose accessible
 * name means buy / pay / delete / send / cancel / transfer / order / confirm / remove (and kin),
 * is consequential; a toggle or a slider in a form only edits it; hovering and moving around with
 * keys are read-only; a drag Steward cannot read may save something; a control Steward only
 * inferred, or cannot classify, counts as possibly consequential unless it plainly discloses or
 * selects; choosing a file is the person's alone.
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
  /** The action is never run for an agent, whatever the approval (dom.upload: choosing a file is the person's). */
  refusal?: { code: 'FILE_CHOICE_REQUIRED'; message: string };
}

const RISKY_WORDS =
  /\b(?:buy|purchase|pay|payment|checkout|check out|order|delete|remove|destroy|erase|send|submit|cancel|transfer|confirm|book|reserve|subscribe|unsubscribe|sign|approve|accept|decline|reject|withdraw|refund|donate|publish|post|deactivate|archive)\b/;
/** Words that name moving money by themselves: paying, buying, checking out, donating. */
const PAYMENT_WORDS = /\b(?:buy|purchase|pay|payment|checkout|check out|place order|donate)\b/;
/**
 * Words that move money only sometimes (a paid plan or a newsletter, a tip or a tip-off): payment
 * only with money in sight — an amount on the control, or a card or amount field in its form.
 */
const MAYBE_PAYMENT_WORDS = /\b(?:subscribe|subscription|tip|order|upgrade|renew|book|reserve|top up)\b/;
const PAYMENT_FIELD = /\b(?:card|credit|cvc|cvv|csc|iban|bic|swift|routing|security code|expir\w*|cc)\b/;
/** A field that says how much money: an amount, a price, a donation, a tip. */
const AMOUNT_FIELD = /\b(?:amount|price|donation|tip|total|sum)\b/;
/** An amount of money written out: `$9.99`, `9,99 €`, `EUR 20`, `12 USD`. */
const MONEY = /(?:[$€£¥₹]\s?\d)|(?:\d(?:[\d.,]*\d)?\s?(?:[$€£¥₹]|usd|eur|gbp|chf|jpy)\b)|(?:\b(?:usd|eur|gbp|chf|jpy)\s?\d)/i;
/** Only what a person can see or scroll to: `offscreen` is outside the scrollable page (visibility.ts). */
const ACTIONABLE_VISIBILITY = new Set(['visible']);

/**
 * A control under something the observation names (a sticky header, a banner) is still one a
 * person can reach: the act scrolls it clear and presses it at a point that hits it, or refuses
 * naming the cover. One covered by nothing nameable (clipped away by its container) is not.
 */
const actionable = (e: { visibility: string; covered_by?: unknown }) => ACTIONABLE_VISIBILITY.has(e.visibility) || (e.visibility === 'covered' && e.covered_by !== undefined);

const normalise = (s: string) => s.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();

function riskyName(name: string): boolean {
  return RISKY_WORDS.test(normalise(name));
}

/**
 * Whether pressing `target` moves money: payment is what moves money, not a word (issue 27). A
 * control named pay / buy / checkout does by its name; one named subscribe / order / tip only with
 * an amount on it or a card or amount field in its form; any control that submits a form taking
 * card details or an amount does, whatever it is called.
 */
function movesMoney(target: Pick<ElementSummary, 'name' | 'description'>, form: FormSummary | undefined): boolean {
  const words = normalise(`${target.name} ${target.description ?? ''}`);
  const formTakesMoney = form !== undefined && form.fields.some((x) => moneyField(x));
  if (formTakesMoney) return true;
  if (PAYMENT_WORDS.test(words)) return true;
  return MAYBE_PAYMENT_WORDS.test(words) && MONEY.test(`${target.name} ${target.description ?? ''}`);
}

function moneyField(x: FormField): boolean {
  const label = normalise(`${x.name} ${x.label ?? ''}`);
  return PAYMENT_FIELD.test(label) || (AMOUNT_FIELD.test(label) && x.type !== 'checkbox' && x.type !== 'radio');
}

/** A reason with its detail: the English the journal and logs keep, and the same as a phrase for the card. */
const because = (code: ApprovalReasonCode, detail: string, said: Phrase): ApprovalReason => ({ code, detail, detail_said: said });

/** Accessible names that give consent or answer "are you sure?": only the person may (issue 27, self-approval). */
const CONSENT_NAME =
  /^(?:yes|ok|okay|sure|confirm|approve|accept|agree|allow|authori[sz]e|proceed|continue anyway|do it|go ahead)\b|\bi (?:agree|accept|consent|confirm|understand|acknowledge|authori[sz]e)\b|\bi(?: a|')?m sure\b|\bi am sure\b/;
/** A toggle that gives consent: "I agree to the terms", "I authorise the charge", "I have read and accept…". */
const CONSENT_TOGGLE = /\b(?:agree|consent|accept|authori[sz]e|confirm|acknowledge|understand)\b/;
/** Buttons of a dialog that only close it, answering nothing. */
const DISMISS_NAME = /^(?:no|no thanks|cancel|close|dismiss|not now|later|maybe later|never mind|back|go back|keep it|stay|x|×|✕)$/;

/**
 * Why pressing `target` answers the page's own confirmation or consent step (a "Yes, I'm sure", an
 * "I agree" box, a button of an open alertdialog): that check is the person's, never the agent's.
 */
function confirmationReason(target: Pick<ElementSummary, 'name' | 'role' | 'dialog'>): ApprovalReason | undefined {
  const name = normalise(target.name).replace(/[.!?…]+$/, '');
  const named = clip(target.name);
  if (TOGGLE_ROLES.has(target.role)) {
    if (CONSENT_TOGGLE.test(name)) return because('confirmation', `ticking “${named}” gives the person’s consent`, phrase('reason_consent_toggle', { name: named }));
    return undefined;
  }
  if (target.dialog && !DISMISS_NAME.test(name)) {
    const which = target.dialog.name ? ` “${clip(target.dialog.name)}”` : '';
    const said = phrase('reason_answers_dialog', { name: named || target.role, role: target.dialog.role, dialog: target.dialog.name ? clip(target.dialog.name) : undefined });
    return because('confirmation', `“${named || target.role}” answers the page’s ${target.dialog.role}${which}, which asks the person`, said);
  }
  if (CONSENT_NAME.test(name))
    return because('confirmation', `“${named}” answers the page’s request for confirmation or consent, which is the person’s to give`, phrase('reason_consent_button', { name: named }));
  return undefined;
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
  if (!actionable(target)) {
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
  if (action === 'dom.press') return classifyPress(input, observed);
  if (ref === undefined) return { ...readOnly, read_only: false, problem: { path: 'input.ref', message: 'is required' } };

  if (action === 'dom.type' || action === 'dom.select') return classifyFill(action, ref, observed);
  if (action === 'dom.upload') {
    const found = findTarget(observed, ref, 'chooses a file for');
    const named = found.target ? ` “${clip(found.target.name || 'file')}”` : '';
    return {
      read_only: false,
      consequential: true,
      payment: false,
      reasons: [because('risky_control', 'uploads a file', phrase('reason_uploads_file'))],
      target: found.target,
      refusal: {
        code: 'FILE_CHOICE_REQUIRED',
        message: `Refused: only the person may choose a file to upload. Steward never picks one for an agent; ask the person to choose it in the file field${named} on the page themselves. Nothing was changed.`,
      },
    };
  }
  if (action === 'dom.hover') return { ...readOnly, ...findTarget(observed, ref, 'hovers over') };
  if (action === 'dom.drag') return classifyDrag(input, ref, observed);
  // dom.click, and dom.check (a click on the toggle when its state differs)
  const found = findTarget(observed, ref, action === 'dom.check' ? 'ticks' : 'clicks');
  if (!found.target) return { read_only: false, consequential: true, payment: false, reasons: [{ code: 'unknown_risk' }], ...found };
  const t = found.target;
  if (action === 'dom.check' && !TOGGLE_ROLES.has(t.role) && !t.states.includes('pressed') && !t.states.includes('checked')) {
    found.problem ??= { path: 'input.ref', message: `element ${ref} is a ${t.role}, not a checkbox, radio button or switch; use dom.click` };
  }
  return { ...classifyActivation(found.target, observed), ...found };
}

/** Typing into or choosing in a field. */
function classifyFill(action: 'dom.type' | 'dom.select', ref: string, observed: ObservedState): DomClassification {
  // Filling a field changes only the page's form until something submits it (and submitting
  // is judged on its own): read-only, unless the field is a password or takes payment details.
  const found = findTarget(observed, ref, action === 'dom.type' ? 'types into' : 'selects in');
  const field = fieldOf(observed, ref);
  if (field && !ACTIONABLE_VISIBILITY.has(field.visibility)) {
    found.problem = { path: 'input.ref', message: `field ${ref} is ${field.visibility}; Steward never fills hidden fields` };
  }
  const reasons = secretFieldReasons(field, found.target);
  return { read_only: reasons.length === 0, consequential: reasons.length > 0, payment: reasons.some((r) => r.code === 'payment'), reasons, ...found };
}

function secretFieldReasons(field: FormField | undefined, target: ElementSummary | undefined): ApprovalReason[] {
  const label = normalise(`${field?.name ?? ''} ${field?.label ?? ''} ${target?.name ?? ''}`);
  const reasons: ApprovalReason[] = [];
  if (field?.type === 'password' || /\bpassword\b/.test(label)) reasons.push(because('risky_control', 'types into a password field', phrase('reason_password_field')));
  if (PAYMENT_FIELD.test(label)) reasons.push(because('payment', 'fills a payment field', phrase('reason_payment_field')));
  return reasons;
}

/** Roles a person toggles: in a form that only edits the form; alone it may save at once. */
const TOGGLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
/** Roles whose activation only shows or selects something: links, tabs, tree items, options. */
const SELECTION_ROLES = new Set(['link', 'tab', 'treeitem', 'option']);
/** Fields a person types in. */
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox']);
/** A day of a date grid: "15", "December 15", "Mon 15 December 2026", "2026-12-15". */
const DAY_CELL = /^(?:\D{0,12}\b)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b(?:\D{0,20}(?:\d{4})?)?$|^\d{4}-\d{2}-\d{2}$/;

function formOfControl(observed: ObservedState, ref: string): FormSummary | undefined {
  return (observed.forms ?? []).find((f) => f.submit_ref === ref || f.fields.some((x) => x.ref === ref));
}

const EVIDENCE_WORDS: Record<InteractivityEvidence, string> = {
  click_listener: 'click listener',
  key_listener: 'key listener',
  hover_listener: 'hover listener',
  drag_listener: 'drag listener',
  drop_listener: 'drop listener',
  drop_class: 'drop-zone class',
  grip_inside: 'a drag grip inside',
  inline_handler: 'inline handler',
  cursor_pointer: 'pointer cursor',
  cursor_grab: 'grab cursor',
  hover_style: 'hover style that shows what it holds',
  tabindex: 'tabindex',
  contenteditable: 'editable content',
  draggable: 'draggable attribute',
  class_name: 'class name',
};

/** What an inferred control's approval card says, in words. */
function inferredReason(target: ElementSummary): ApprovalReason {
  const codes = [...new Set(target.inferred?.evidence ?? [])];
  const evidence = codes.map((e) => EVIDENCE_WORDS[e]);
  const from = evidence.length > 1 ? `${evidence.slice(0, -1).join(', ')} and ${evidence[evidence.length - 1]}` : (evidence[0] ?? 'behaviour');
  return because(
    'inferred_control',
    `Steward inferred this is a ${target.role}${target.name ? ` (“${clip(target.name)}”)` : ''} from its ${from}; it cannot tell what it does`,
    phrase('reason_inferred', { role: target.role, name: target.name ? clip(target.name) : undefined, evidence: codes.join(',') }),
  );
}

/** Whether activating it plainly only discloses or selects (expand/collapse, a tab, an option, a tree item, a day of a date grid). */
function disclosesOrSelects(target: ElementSummary): boolean {
  if (target.states.includes('expanded') || target.states.includes('collapsed')) return true;
  if (SELECTION_ROLES.has(target.role) && target.role !== 'link') return true;
  return target.role === 'gridcell' && DAY_CELL.test(target.name.trim());
}

/**
 * A click on `target` (or what Enter / Space on it does): submitting a form or a risky name is
 * consequential; a toggle in a form only edits it; links are judged by where they go; disclosure
 * and selection are read-only; a control Steward inferred (the markup does not say it is one) or
 * cannot classify is possibly consequential.
 */
function classifyActivation(target: ElementSummary, observed: ObservedState): Omit<DomClassification, 'target' | 'problem'> {
  const ref = target.ref;
  const reasons: ApprovalReason[] = [];
  const form = (observed.forms ?? []).find((f) => f.submit_ref === ref || f.fields.some((x) => x.ref === ref && (x.type === 'submit' || x.type === 'image')));
  const named = clip(target.name);
  const payment = movesMoney(target, form);
  const risky = riskyName(target.name);
  const consent = confirmationReason(target);
  const lookup = form && !risky && !consent && !payment ? lookupAddress(form, observed) : undefined;
  if (lookup) return { read_only: true, consequential: false, payment: false, reasons: [], leads_to: lookup };
  if (form) reasons.push(because('form_submission', `submits the form${form.name ? ` “${clip(form.name)}”` : ''}`, phrase('reason_submits_form', { form: form.name ? clip(form.name) : undefined })));
  if (risky) reasons.push(because('risky_control', `the control is named “${named}”`, phrase('reason_risky_name', { name: named })));
  if (consent) reasons.push(consent);
  if (payment) reasons.push(because('payment', `the control “${named}” moves money`, phrase('reason_moves_money', { name: named })));
  if (reasons.length > 0) return { read_only: false, consequential: true, payment, reasons };
  const readOnly = { read_only: true, consequential: false, payment: false, reasons: [] };
  if (TOGGLE_ROLES.has(target.role)) {
    if (formOfControl(observed, ref)) return readOnly;
    return {
      read_only: false,
      consequential: false,
      payment: false,
      reasons: [because('not_read_only', `a ${target.role} outside a form may save its new state at once`, phrase('reason_saves_state', { role: target.role }))],
    };
  }
  const disclosure = target.states.includes('expanded') || target.states.includes('collapsed');
  if (target.href !== undefined) {
    // Judged by where it goes, whatever its role: only an http(s) address can be checked against
    // the token's origins; `javascript:` and other schemes run or open something unknown.
    const to = httpUrl(target.href);
    if (!to)
      return {
        read_only: false,
        consequential: true,
        payment: false,
        reasons: [because('unknown_risk', `the ${target.role} “${named}” leads to a non-web address`, phrase('reason_non_web_link', { role: target.role, name: named }))],
      };
    if (SELECTION_ROLES.has(target.role) || disclosure) return { ...readOnly, leads_to: to };
  }
  if (disclosesOrSelects(target) || (target.role === 'link' && !target.inferred)) return readOnly;
  if (target.inferred) return { read_only: false, consequential: true, payment: false, reasons: [inferredReason(target)] };
  return { read_only: false, consequential: true, payment: false, reasons: [unknownControl(target, named)] };
}

/** Steward cannot tell what the control does: named by its role and name, or an unnamed SVG shape as a person sees it (“the large red circle”). */
function unknownControl(target: ElementSummary, named: string): ApprovalReason {
  const s = target.shape;
  if (named || !s) return because('unknown_risk', `Steward cannot tell what the ${target.role} “${named}” does`, phrase('reason_unknown_control', { role: target.role, name: named }));
  const shape = [s.size, s.fill ?? s.stroke, s.kind].filter(Boolean).join(' ');
  return because('unknown_risk', `Steward cannot tell what the ${shape} (an SVG shape the page reacts to) does`, phrase('reason_unknown_shape', { shape }));
}

/** The element a key press goes to: its ref, or the one the observation saw focused. */
function pressTarget(input: Record<string, unknown>, observed: ObservedState): ElementSummary | undefined {
  if (typeof input.ref === 'string') return observed.elements?.find((e) => e.ref === input.ref);
  return observed.elements?.find((e) => e.states.includes('focused'));
}

/** Whether a press is an Enter that may submit the form its target is in (form-binding.ts binds that form's values). */
export function pressSubmitsForm(input: Record<string, unknown>, observed: ObservedState): FormSummary | undefined {
  const chord = typeof input.key === 'string' ? parseChord(input.key) : undefined;
  if (!chord?.ok || keyIntent(chord.chord) !== 'submit') return undefined;
  const target = pressTarget(input, observed);
  return target ? formOfControl(observed, target.ref) : undefined;
}

/**
 * A key press without a ref lands on whatever has the focus when it runs, which the page can move
 * after the person approved: one that needs approval must name its element.
 */
function classifyPress(input: Record<string, unknown>, observed: ObservedState): DomClassification {
  const c = judgePress(input, observed);
  if (input.ref !== undefined || c.problem || (c.read_only && !c.consequential)) return c;
  return { ...c, problem: { path: 'input.ref', message: 'a key that may submit, activate or change something needs the ref of the element to press it on (the focus can move before it runs)' } };
}

function judgePress(input: Record<string, unknown>, observed: ObservedState): DomClassification {
  const readOnly: DomClassification = { read_only: true, consequential: false, payment: false, reasons: [] };
  const parsed = typeof input.key === 'string' ? parseChord(input.key) : undefined;
  if (!parsed?.ok) return { ...readOnly, read_only: false, problem: { path: 'input.key', message: parsed?.message ?? 'is required' } };
  const chord = parsed.chord;
  const ref = typeof input.ref === 'string' ? input.ref : undefined;
  const found = ref !== undefined ? findTarget(observed, ref, 'presses keys on') : {};
  if (found.problem) return { ...readOnly, read_only: false, ...found };
  const target = pressTarget(input, observed);
  const on = target ? { target } : {};
  const intent = keyIntent(chord);
  const key = chord.key === ' ' ? 'Space' : chord.key;
  const unknown = (detail: string, said: Phrase): DomClassification => ({ read_only: false, consequential: true, payment: false, reasons: [because('unknown_risk', detail, said)], ...on });
  // Keys on a slider only set its value (Enter and Space do nothing there).
  const sliderKey = target?.role === 'slider' && (intent === 'submit' || intent === 'activate');
  if (intent === 'navigate' || sliderKey) {
    if (!target || chord.key === 'Tab' || chord.key === 'Escape') return { ...readOnly, ...on };
    // Moving a slider or choosing in a radio group is like typing / ticking: in a form it only edits the form.
    if (target.role === 'slider' || target.role === 'radio') {
      if (formOfControl(observed, target.ref)) return { ...readOnly, ...on };
      return {
        read_only: false,
        consequential: false,
        payment: false,
        reasons: [because('not_read_only', `a ${target.role} outside a form may save its new value at once`, phrase('reason_saves_value', { role: target.role }))],
        ...on,
      };
    }
    return { ...readOnly, ...on };
  }
  if (!target) return unknown(`Steward cannot tell which element has the focus, so it cannot tell what ${key} does there`, phrase('reason_unknown_focus', { key }));
  const field = TEXT_ROLES.has(target.role) || target.states.includes('editable');
  if (intent === 'submit') {
    if (field) {
      const form = formOfControl(observed, target.ref);
      const ff = fieldOf(observed, target.ref);
      const lookup = form && !riskyName(form.name ?? '') && !form.fields.some(moneyField) ? lookupAddress(form, observed) : undefined;
      if (lookup) return { read_only: true, consequential: false, payment: false, reasons: [], leads_to: lookup, ...on };
      if (form) {
        const payment = form.fields.some(moneyField);
        const field = clip(target.name || ff?.name || 'a field');
        const reasons: ApprovalReason[] = [
          because(
            'form_submission',
            `${key} in “${field}” submits the form${form.name ? ` “${clip(form.name)}”` : ''}`,
            phrase('reason_key_submits', { key, field, form: form.name ? clip(form.name) : undefined }),
          ),
        ];
        if (payment) reasons.push(because('payment', 'the form takes payment details', phrase('reason_form_payment')));
        return { read_only: false, consequential: true, payment, reasons, ...on };
      }
      if ((target.role === 'searchbox' || target.role === 'combobox') && !chord.ctrlKey && !chord.metaKey) return { ...readOnly, ...on };
      return unknown(
        `${key} in the field “${clip(target.name)}” runs whatever the page does with it (search, send…); Steward cannot tell which`,
        phrase('reason_key_in_field', { key, field: clip(target.name) }),
      );
    }
    return { ...classifyActivation(target, observed), ...on };
  }
  if (intent === 'activate') {
    if (field) return { ...readOnly, ...on };
    if (TOGGLE_ROLES.has(target.role) || target.role === 'button' || target.inferred || target.role === 'generic') return { ...classifyActivation(target, observed), ...on };
    return { ...readOnly, ...on };
  }
  if (intent === 'text' && field) {
    const reasons = secretFieldReasons(fieldOf(observed, target.ref), target);
    return { read_only: reasons.length === 0, consequential: reasons.length > 0, payment: reasons.some((r) => r.code === 'payment'), reasons, ...on };
  }
  // A character, Delete or a chord outside a text field is a page shortcut (an e-mail app archives or deletes with one).
  const modifier = chord.ctrlKey || chord.metaKey || chord.altKey;
  return unknown(
    `${key}${modifier ? ' with a modifier' : ''} outside a text field is a page shortcut; Steward cannot tell what it does`,
    phrase(modifier ? 'reason_page_shortcut_modifier' : 'reason_page_shortcut', { key }),
  );
}

function classifyDrag(input: Record<string, unknown>, ref: string, observed: ObservedState): DomClassification {
  const found = findTarget(observed, ref, 'drags');
  if (found.problem || !found.target) return { read_only: false, consequential: true, payment: false, reasons: [{ code: 'unknown_risk' }], ...found };
  const source = found.target;
  const toRef = typeof input.to === 'string' ? input.to : undefined;
  const drop = toRef !== undefined ? findTarget(observed, toRef, 'drops on') : {};
  if (drop.problem) return { read_only: false, consequential: true, payment: false, reasons: [{ code: 'unknown_risk' }], target: source, problem: { ...drop.problem, path: 'input.to' } };
  const named = [source, drop.target].filter((t): t is ElementSummary => t !== undefined).find((t) => riskyName(t.name));
  if (named)
    return {
      read_only: false,
      consequential: true,
      payment: false,
      reasons: [because('risky_control', `drags onto or from “${clip(named.name)}”`, phrase('reason_drags_risky', { name: clip(named.name) }))],
      target: source,
    };
  if (source.role === 'slider') {
    // Setting a value by dragging a slider's handle is like typing it.
    if (formOfControl(observed, source.ref)) return { read_only: true, consequential: false, payment: false, reasons: [], target: source };
    return {
      read_only: false,
      consequential: false,
      payment: false,
      reasons: [because('not_read_only', 'a slider outside a form may save its new value at once', phrase('reason_saves_value', { role: 'slider' }))],
      target: source,
    };
  }
  const onto = drop.target ? clip(drop.target.name || drop.target.role) : undefined;
  const where = onto !== undefined ? ` onto “${onto}”` : '';
  const dragged = clip(source.name || source.role);
  return {
    read_only: false,
    consequential: true,
    payment: false,
    reasons: [because('unknown_risk', `Steward cannot tell what dragging “${dragged}”${where} does (a sortable list may save the new order)`, phrase('reason_drag_unknown', { name: dragged, onto }))],
    target: source,
  };
}

/**
 * Where a search or filter form leads, when submitting it is only a look: a GET its markup states
 * (`method="get"`: a form without a method is most often one a script submits, a save or a send)
 * to the page's own site (the values become the address's query, like following a link the page
 * shows), with no password or payment field. Null for anything else — a POST, another site (data leaving), a
 * form Steward cannot place. What was typed into it was judged when typed (copied page text is
 * held while tainted, quiet-sinks.ts), and the gateway checks the address against the token.
 */
function lookupAddress(form: FormSummary, observed: ObservedState): string | undefined {
  if (form.method !== 'get' || form.method_declared !== true || form.action === undefined) return undefined;
  if (form.fields.some((f) => f.type === 'password' || moneyField(f))) return undefined;
  const to = httpUrl(form.action);
  const from = httpUrl(observed.url);
  if (!to || !from || new URL(to).origin !== new URL(from).origin) return undefined;
  return to;
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
