import type { PageSnapshot, SnapshotElement, SnapshotText } from '../snapshot.ts';
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
 * value on their own (`3`, `$42.00`, `Shipped`, `July 28, 2026`), and the settings of controls
 * that act at once (a checkbox, a switch, a selected tab or option, a stepper's number).
 * Left out: what the page changes on its own (texts it marked volatile, live regions, clocks,
 * relative times, countdowns) and what a person is typing (text fields, a form's unsent fields).
 */

const MAX_VALUES = 600;
const MAX_SHOWN_LENGTH = 40;

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
 * status said twice is one value), any other under `label:<name>`.
 */
export function labelledFields(snapshot: PageSnapshot): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const ordinary = steadyTexts(snapshot).filter((t) => t.role === undefined || !ANNOUNCEMENTS.has(t.role));
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

/** The values the page shows on their own, in page order (a multiset: `2, 2` differs from `2`). */
export function shownValues(snapshot: PageSnapshot): string[] {
  const out: string[] = [];
  for (const t of steadyTexts(snapshot)) {
    if (out.length >= MAX_VALUES) break;
    if (t.role === 'heading' || (t.role !== undefined && ANNOUNCEMENTS.has(t.role))) continue;
    const v = shownValue(t.text);
    if (v !== undefined) out.push(v);
  }
  return out;
}

const CHOICE_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem']);
const NUMBER_ROLES = new Set(['spinbutton', 'slider']);

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
    else if (NUMBER_ROLES.has(e.role) || e.inputType === 'number' || e.inputType === 'range' || e.states.includes('readonly')) {
      if (e.formRef && submitted.has(e.formRef)) continue;
      out.push(`${e.role}:${name}=${cleanText(e.value ?? '', 64)}`);
    }
  }
  return out;
}
