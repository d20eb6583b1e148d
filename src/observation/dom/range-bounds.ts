import type { RangeBounds } from '../../protocol/element.ts';
import type { AttrReader } from './classify.ts';

/**
 * A slider's, spinbutton's or progress bar's bounds, from its attributes (pure): `min` / `max` /
 * `step` of `<input type=range|number>`, `aria-valuemin` / `aria-valuemax` of the ARIA range roles.
 * Read with the rest of an element's semantics, so an attribute change renews them.
 */

/** ARIA roles whose value lies between bounds. */
export const RANGE_ROLES: ReadonlySet<string> = new Set(['slider', 'spinbutton', 'scrollbar', 'progressbar', 'meter']);

/** HTML's defaults for a range input's bounds; a number input has none. */
const RANGE_INPUT_DEFAULTS = { min: 0, max: 100 } as const;

/** A valid floating-point number per HTML (no junk, no `Infinity`), else undefined. */
function parseBound(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export function rangeBounds(attr: AttrReader, localName: string, role: string, inputType: string | undefined): RangeBounds | undefined {
  let min: number | undefined;
  let max: number | undefined;
  let step: number | undefined;
  if (localName === 'input' && (inputType === 'range' || inputType === 'number')) {
    const defaults = inputType === 'range' ? RANGE_INPUT_DEFAULTS : undefined;
    min = parseBound(attr('min')) ?? defaults?.min;
    max = parseBound(attr('max')) ?? defaults?.max;
    // `step="any"` (or junk, or ≤ 0) leaves no step to report.
    const s = parseBound(attr('step'));
    if (s !== undefined && s > 0) step = s;
  } else if (RANGE_ROLES.has(role)) {
    min = parseBound(attr('aria-valuemin'));
    max = parseBound(attr('aria-valuemax'));
  } else return undefined;
  if (min === undefined && max === undefined && step === undefined) return undefined;
  const out: RangeBounds = {};
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  if (step !== undefined) out.step = step;
  return out;
}
