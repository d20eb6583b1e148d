/**
 * Rendering arbitrary JSON values (action input, facts) as plain text. Pure. Nothing is ever cut:
 * a person approving an input must be able to read all of it (long values scroll instead), and an
 * input's nested fields each get their own row (inputRows) so none hides behind a padded one.
 */
import { t } from '../../base/i18n.ts';
import { roleWord } from './role-words.ts';

/** Values longer than this (or on several lines) are shown in a scrolling box. */
const LONG_VALUE = 400;

export function showValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return t('tools_unreadable_value');
  }
}

export function isLongValue(text: string): boolean {
  return text.length > LONG_VALUE || text.includes('\n');
}

/**
 * One row per leaf of an input, named by its path (`payload.items[2].amount`): nested objects and
 * arrays are opened all the way down, so every field a person approves is named in its own row.
 */
export function inputRows(input: Record<string, unknown>): Array<{ key: string; path: string; value: unknown }> {
  const rows: Array<{ key: string; path: string; value: unknown }> = [];
  const walk = (key: string, path: string, value: unknown) => {
    if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => walk(key, `${path}[${i}]`, v));
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(key, `${path}.${k}`, v);
    } else rows.push({ key, path, value });
  };
  for (const [k, v] of Object.entries(input)) walk(k, k, v);
  return rows;
}

/** The part of an observation that can tell what is on the page now. */
export interface CurrentSource {
  facts?: ReadonlyArray<{ name: string; value: unknown }> | undefined;
  elements?: ReadonlyArray<{ ref: string; role: string; name: string; value?: string | undefined }> | undefined;
}

/**
 * What the page shows now for an action's input keys: a fact with exactly the key's name
 * (`quantity` ↔ fact `quantity`), and for DOM actions bound to an element (`ref`), that
 * element and its current value beside the text or option that would be entered. Only exact
 * matches: a guessed "current value" in front of a person deciding would be worse than none.
 */
export function currentValues(input: Record<string, unknown>, observed: CurrentSource | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!observed) return out;
  const byName = new Map((observed.facts ?? []).map((f) => [f.name, f.value] as const));
  for (const key of Object.keys(input)) if (byName.has(key)) out.set(key, byName.get(key));
  const ref = input.ref;
  const element = typeof ref === 'string' ? observed.elements?.find((e) => e.ref === ref) : undefined;
  if (element) {
    // The role in Steward's words for it, the element's name as the page has it.
    out.set('ref', `${roleWord(element.role)} “${element.name}”`);
    for (const key of ['text', 'values']) if (key in input && element.value !== undefined) out.set(key, element.value);
  }
  return out;
}
