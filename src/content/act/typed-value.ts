/**
 * What `type` writes into an input, by its type, and whether the value the input kept is what was
 * meant. Pure (no DOM), so perform.ts stays a thin adapter.
 *
 * Text-like fields take characters (appended unless `clear`). A date or time picker, a colour
 * picker and a range take one whole well-formed value (`2026-12-07`, `#1e90ff`, `70`), which
 * appending cannot give: for them the text always replaces the value.
 */

/** Input types `type` writes into ('' is a missing type attribute: a text field). Checkbox, file, hidden and the like are never typed into. */
export const TYPED_INPUT_TYPES: ReadonlySet<string> = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/** Types whose value is one whole token, never a run of typed characters. */
const WHOLE_VALUE_TYPES: ReadonlySet<string> = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

/** The value to set: `text` alone, or after what is there for a text-like field typed into without `clear`. */
export function nextTypedValue(inputType: string, current: string, text: string, clear: boolean): string {
  return clear || WHOLE_VALUE_TYPES.has(inputType) ? text : `${current}${text}`;
}

/**
 * Whether the input kept what was meant. A colour input keeps `#RRGGBB` in lower case (so
 * `#1E90FF` was accepted as `#1e90ff`); a range keeps its number in its own form (`70.0` as
 * `70`); anything else must be kept exactly.
 */
export function acceptedTypedValue(inputType: string, meant: string, kept: string): boolean {
  if (inputType === 'color') return meant.trim().toLowerCase() === kept.toLowerCase();
  if (inputType === 'range') return meant.trim() !== '' && Number(meant) === Number(kept);
  return meant === kept;
}
