import type { PageSnapshot, SnapshotElement, SnapshotText } from '../../protocol/snapshot.ts';
import { LIVE_ROLES } from '../../protocol/snapshot.ts';
import { cleanText } from '../clean-text.ts';
import { labelledValues } from '../read/page-text.ts';
import { toSnakeCase } from '../read/normalize.ts';
import { parseDate } from '../read/values.ts';
import { isVolatileLabel, isVolatileValue } from '../read/volatile.ts';
import { readLabelled, standaloneState } from './field-labels.ts';

/**
 * What the page shows as its state on every page, with or without an identified resource, for
 * the fingerprint: labelled values (`Quantity: 3`, `Shipping: Express`), short texts that are a
 * value on their own (`3`, `$42.00`, `Shipped`, `July 28, 2026`), short texts that carry a count
 * (`You have 2 items in your basket`, `Espresso beans × 2`), and the settings of controls that
 * act at once (a checkbox, a switch, a selected tab or option, a stepper's number, also when the
 * stepper shows it in a plain text field).
 * Left out: what the page changes on its own (texts it marked volatile, live regions, clocks,
 * relative times, countdowns) and what a person is typing (text fields, a form's unsent fields).
 */

const MAX_VALUES = 600;
const MAX_SHOWN_LENGTH = 40;
/** A text longer than this is prose, not a line that shows a count. */
const MAX_COUNTED_LENGTH = 160;
/**
 * A count among words: `× 2`, `2 items`, `3 tickets`, `Cart (2)`, `Qty 2`. Only what reads as a
 * count of things: a promo's `30 days` or a ticker's `187.23` rotating before the content script
 * has seen it churn twice must not look like a change of state.
 */
const COUNT =
  /(?:^|\s)[x×]\s?\d{1,4}(?![\w.,:])|(?<![\w.,])\d{1,4}\s?(?:items?|articles?|products?|pcs|pieces?|units?|seats?|tickets?|nights?|guests?|adults?|child(?:ren)?|people|persons?|rooms?|bags?|packs?|bottles?|boxes?)\b|\(\d{1,4}\)|\b(?:qty|quantity)\.?:?\s*\d{1,4}\b/i;

/** `14 people are looking at this route`, `3 bought in the last hour`: a count the page keeps rolling to urge, not the page's state. */
const SOCIAL_PROOF = /\b(?:looking at|viewing|watching|online now|in the last|right now)\b/i;

/**
 * Announcement roles whose text is never a value of the page: alerts, logs, marquees, timers.
 * A `status` region counts unless it churns (it is also where an `<output>` shows a quantity).
 */
const ANNOUNCEMENTS = new Set([...LIVE_ROLES].filter((r) => r !== 'status'));

/** Carousel navigation (`Slide 2`, `Go to slide 3 of 5`, `Next slide`): it rotates with the slides. */
export function isCarouselControl(name: string): boolean {
  return /^(?:go to |show )?slide \d+(?: of \d+)?$|^(?:next|previous|prev) slide$/i.test(name.trim());
}

/** Texts the page does not change on its own. */
export function steadyTexts(snapshot: PageSnapshot): SnapshotText[] {
  return snapshot.texts.filter((t) => t.volatile !== true);
}

/**
 * Labelled values by meaning: a label Steward understands counts under its field (so the same
 * status said twice is one value), any other under `label:<name>`. `texts`: the steady ones.
 */
export function labelledFields(texts: readonly SnapshotText[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const ordinary = texts.filter((t) => t.role === undefined || !ANNOUNCEMENTS.has(t.role));
  let n = 0;
  for (const l of labelledValues(ordinary)) {
    if (n >= MAX_VALUES) break;
    // `held for 04:59` is a time split at its colon, not a label and a value.
    if (/\d$/.test(l.label) && /^\d/.test(l.value)) continue;
    if (isVolatileLabel(l.label) || isVolatileValue(l.value)) continue;
    const reading = readLabelled(l.label, l.value);
    // A label Steward has no field for counts when its value reads like one (`Size: M`,
    // `Seats: 2`), not like a sentence (`New this week: mugs in four glazes`, a promo line).
    if (!reading && !/\d/.test(l.value) && l.value.split(/\s+/).length > 3) continue;
    const key = reading ? reading.field : `label:${toSnakeCase(l.label) ?? '_'}`;
    (out[key] ??= []).push(reading ? String(reading.value) : cleanText(l.value, 200));
    n++;
  }
  return out;
}

/** A short text that is a value by itself: a number, an amount, a count, a date, a state. */
function shownValue(text: string): string | undefined {
  const t = cleanText(text);
  if (t.length === 0 || t.length > MAX_SHOWN_LENGTH || isVolatileValue(t)) return undefined;
  if (/^(?:[x×]\s?)?[-+−]?\s?[$€£¥]?\s?\d[\d,.\s]*(?:%|[A-Z]{3}|[x×]|\s?(?:items?|pcs|units?|qty|pieces?|seats?|tickets?|nights?|guests?))?$/i.test(t)) return t;
  if (/^(?:qty|quantity)\.?\s*\d{1,7}$/i.test(t)) return t;
  const state = standaloneState(t);
  if (state) return `state:${state}`;
  const date = parseDate(t);
  return date && t.length <= 24 ? `date:${date}` : undefined;
}

/**
 * A short line that shows a count among words (`You have 2 items in your basket`, `Espresso
 * beans × 2`): the page's own − / + buttons change it in place, and nothing labels it.
 */
function countedLine(text: string): string | undefined {
  const t = cleanText(text);
  if (t.length > MAX_COUNTED_LENGTH || !COUNT.test(t) || isVolatileValue(t) || SOCIAL_PROOF.test(t)) return undefined;
  return `line:${t}`;
}

/** The values the page shows on their own, in page order (a multiset: `2, 2` differs from `2`). `texts`: the steady ones. */
export function shownValues(texts: readonly SnapshotText[]): string[] {
  const out: string[] = [];
  for (const t of texts) {
    if (out.length >= MAX_VALUES) break;
    if (t.role === 'heading' || (t.role !== undefined && ANNOUNCEMENTS.has(t.role))) continue;
    const v = shownValue(t.text) ?? countedLine(t.text);
    if (v !== undefined) out.push(v);
  }
  return out;
}

const CHOICE_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem']);
const NUMBER_ROLES = new Set(['spinbutton', 'slider']);
/** A text field holding only a small whole number: a stepper's count (`[−] 2 [+]`), whatever sets it. */
const STEPPER_COUNT = /^\d{1,3}$/;

/**
 * The settings of controls: checked, selected and pressed states, selects' values, and numbers
 * in steppers and sliders. A number field of a form that is sent with a button is a draft until
 * sent (a person typing a new quantity has not changed the order); a choice counts at once.
 */
export function controlValues(snapshot: PageSnapshot, elements: readonly SnapshotElement[]): string[] {
  const submitted = new Set(snapshot.forms.filter((f) => f.submitRef !== undefined).map((f) => f.ref));
  const out: string[] = [];
  for (const e of elements) {
    if (out.length >= MAX_VALUES) break;
    if (e.visibility === 'hidden' || e.visibility === 'zero_size' || isCarouselControl(e.name)) continue;
    const name = cleanText(e.name, 120);
    const on = (s: 'checked' | 'selected' | 'pressed' | 'mixed') => e.states.includes(s);
    if (CHOICE_ROLES.has(e.role)) out.push(`${e.role}:${name}=${on('mixed') ? 'mixed' : on('checked') || on('selected') ? 'on' : 'off'}`);
    else if (e.role === 'button' && on('pressed')) out.push(`button:${name}=pressed`);
    else if (e.tag === 'select' || (e.role === 'combobox' && !e.states.includes('editable') && e.tag !== 'input')) out.push(`${e.role}:${name}=${cleanText(e.value ?? '', 200)}`);
    // A read-only field is nobody's draft: it shows a value the page set (a stepper's quantity).
    else if (NUMBER_ROLES.has(e.role) || e.inputType === 'number' || e.inputType === 'range' || e.states.includes('readonly') || isStepperCount(e)) {
      if (e.formRef && submitted.has(e.formRef)) continue;
      out.push(`${e.role}:${name}=${cleanText(e.value ?? '', 64)}`);
    }
  }
  return out;
}

/**
 * A plain text field whose value is a small whole number: steppers often show their count in
 * one and set it from their own − / + buttons. Counted like a number field (so a form sent with a
 * button still keeps it a draft); a search box never is.
 */
function isStepperCount(e: SnapshotElement): boolean {
  return e.role === 'textbox' && e.tag === 'input' && (e.inputType === undefined || e.inputType === 'text') && STEPPER_COUNT.test((e.value ?? '').trim());
}
