/** Rendering arbitrary JSON values (action input, facts) as short plain text. Pure. */

const MAX = 400;

export function showValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '—';
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return clip(JSON.stringify(value));
  } catch {
    return '(unreadable value)';
  }
}

function clip(s: string): string {
  return s.length > MAX ? `${s.slice(0, MAX)}… (${s.length} characters)` : s;
}

/** The part of an observation that can tell what is on the page now. */
export interface CurrentSource {
  facts?: ReadonlyArray<{ name: string; value: unknown }> | undefined;
  elements?: ReadonlyArray<{ ref: string; role: string; name: string; value?: string | undefined }> | undefined;
}

/**
 * What the page shows now for an action's input keys: a fact with exactly the key's name
 * (`quantity` ↔ fact `quantity`), and for legacy actions bound to an element (`ref`), that
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
    out.set('ref', `${element.role} “${element.name}”`);
    for (const key of ['text', 'values']) if (key in input && element.value !== undefined) out.set(key, element.value);
  }
  return out;
}
