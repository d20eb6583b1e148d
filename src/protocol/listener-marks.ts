/**
 * What the main world tells the isolated world about the page's own listeners (issue 26), through
 * one attribute on each element: `data-steward-on="click hover"`. Kept free of imports, like
 * page-channel-names.ts: the main-world scripts carry it on every allowed page.
 *
 * The page can write or strip the attribute itself. Forging it only adds a control Steward treats
 * as possibly consequential; stripping it only makes Steward less helpful. A value that does not
 * parse (too long, no known word) counts as no marks at all.
 */

/** The attribute the main world writes on elements with listeners (see src/content/main/listener-marks.ts). */
export const LISTENER_MARK_ATTRIBUTE = 'data-steward-on';

/**
 * Kinds of listener, as bits; `drop` is a drop target's (dragover, dragenter, drop), `drag` a drag
 * source's; `stub` an `on…` handler property set to an empty function: React sets `onclick` to
 * one on every element it gives an onClick prop (a Safari workaround), which the page also does
 * for elements that do nothing when clicked (a status chip) — so it only backs other evidence.
 * `edit`: the page listens to a field's edits (input, change): it says nothing about being a
 * control (the field is one already), only that typing there runs the page's code.
 */
export const MARK = { click: 1, key: 2, hover: 4, drag: 8, drop: 16, stub: 32, edit: 64 } as const;
type MarkKind = keyof typeof MARK;
const KINDS = Object.keys(MARK) as MarkKind[];

/** The events whose listeners say an element does something when a person uses it, by kind. */
const EVENTS: Readonly<Record<Exclude<MarkKind, 'stub'>, readonly string[]>> = {
  click: ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick', 'auxclick'],
  key: ['keydown', 'keyup', 'keypress'],
  hover: ['mouseenter', 'mouseover', 'pointerenter', 'pointerover'],
  drag: ['dragstart', 'drag', 'dragend'],
  drop: ['dragover', 'dragenter', 'drop'],
  // A field the page answers on every edit (autosave, a live preview): typing there is not only typing (issue 27, quiet sinks).
  edit: ['input', 'beforeinput', 'change'],
};

/** Event type → its kind's bit. A map, so no page-chosen type name can reach an object's prototype. */
export const EVENT_MARKS: ReadonlyMap<string, number> = new Map((Object.keys(EVENTS) as Array<keyof typeof EVENTS>).flatMap((k) => EVENTS[k].map((type) => [type, MARK[k]] as const)));

/** Whether a handler does nothing at all (`function () {}`, `() => {}`): see MARK.stub. */
export function isEmptyFunction(source: string): boolean {
  return /^(?:(?:async\s+)?function\s*[\w$]*\s*\(\s*\)\s*\{\s*\}|\(\s*\)\s*=>\s*\{\s*\})$/.test(source);
}

/** `click hover` for the bits of click and hover. */
export function formatMarks(bits: number): string {
  let out = '';
  for (const k of KINDS) if (bits & MARK[k]) out += out ? ` ${k}` : k;
  return out;
}

const MAX_MARK_VALUE = 40;
const WORD_BITS: ReadonlyMap<string, number> = new Map(KINDS.map((k) => [k, MARK[k]]));

/** The bits of an attribute value; 0 for anything that is not a short list of known words. */
export function parseMarks(value: string | null): number {
  if (value === null || value.length > MAX_MARK_VALUE) return 0;
  let bits = 0;
  for (const word of value.split(' ')) bits |= WORD_BITS.get(word) ?? 0;
  return bits;
}

/**
 * Inline handler attributes (`<div onclick="…">`), which the parser sets without any script:
 * the walker reads them (the main world cannot see them being set), by kind.
 */
export const INLINE_HANDLER_MARKS: ReadonlyMap<string, number> = new Map(
  ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick', 'keydown', 'keyup', 'keypress', 'mouseenter', 'mouseover', 'dragstart', 'drop', 'dragover'].map((type) => [
    `on${type}`,
    EVENT_MARKS.get(type)!,
  ]),
);
