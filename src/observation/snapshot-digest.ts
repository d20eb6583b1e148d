import type { PageSnapshot, SnapshotElement, SnapshotText } from '../protocol/snapshot.ts';

/**
 * A fingerprint of a snapshot's elements and texts (pure), sent with the delta that answers a
 * full observation and with every tenth delta: the service worker computes it over the snapshot
 * it rebuilt and, when the two differ, throws its copy away and asks for everything. A decoding
 * mistake then lasts a few observations instead of the page's life. It reads every field the
 * deltas carry, every character of every string: about half a millisecond on each side for a
 * 16k-element page (still not with every delta: a twentieth of an incremental observation's
 * budget). Not a security measure (the page side is Steward's own script) and not collision-proof
 * (32 bits): a check against Steward's own mistakes.
 */

// FNV-1a over 32-bit words: one xor and one multiply per value, no allocation.
const PRIME = 16777619;
const mix = (h: number, n: number): number => Math.imul(h ^ (n | 0), PRIME);
const ABSENT = -7;

function str(h: number, s: string | undefined): number {
  if (s === undefined) return mix(h, ABSENT);
  h = mix(h, s.length);
  for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
  return h;
}

function strings(h: number, list: readonly string[] | undefined): number {
  if (list === undefined) return mix(h, ABSENT);
  h = mix(h, list.length);
  for (let i = 0; i < list.length; i++) h = str(h, list[i]);
  return h;
}

function num(h: number, n: number | undefined): number {
  return n === undefined ? mix(h, ABSENT) : mix(h, n);
}

/** Any finite number: whole ones as they are, others (a step of 0.1, a confidence of 0.7) by their text. */
function real(h: number, n: number | undefined): number {
  if (n === undefined) return mix(h, ABSENT);
  return Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? mix(h, n) : str(h, String(n));
}

function row(h: number, c: { ref: string; row: number } | undefined): number {
  return c ? mix(str(h, c.ref), c.row) : mix(h, ABSENT);
}

function element(h: number, e: SnapshotElement): number {
  h = str(h, e.ref);
  h = str(h, e.role);
  h = str(h, e.name);
  h = str(h, e.description);
  h = str(h, e.value);
  h = strings(h, e.states);
  h = str(h, e.visibility);
  h = str(h, e.tag);
  h = str(h, e.inputType);
  h = str(h, e.href);
  h = str(h, e.formRef);
  h = str(h, e.scope);
  const path = e.framePath;
  h = path ? path.reduce(mix, mix(h, path.length)) : mix(h, ABSENT);
  const b = e.box;
  h = b ? mix(mix(mix(mix(h, b.x), b.y), b.w), b.h) : mix(h, ABSENT);
  h = strings(h, e.options);
  h = row(h, e.container);
  h = widgetFields(h, e);
  return num(h, e.order);
}

/** Issue 26's fields: inferred role, cover, bounds, the popup it controls, shape, passive. */
function widgetFields(h: number, e: SnapshotElement): number {
  const inferred = e.inferred;
  h = inferred ? strings(real(h, inferred.confidence), inferred.evidence) : mix(h, ABSENT);
  const cover = e.coveredBy;
  h = cover ? str(str(str(h, cover.role), cover.name), cover.ref) : mix(h, ABSENT);
  const range = e.range;
  h = range ? real(real(real(h, range.min), range.max), range.step) : mix(h, ABSENT);
  h = str(h, e.controls);
  const shape = e.shape;
  h = shape ? str(str(str(str(h, shape.kind), shape.fill), shape.stroke), shape.size) : mix(h, ABSENT);
  return mix(h, e.passive ? 1 : ABSENT);
}

function text(h: number, t: SnapshotText): number {
  h = str(h, t.text);
  h = str(h, t.ref);
  h = str(h, t.role);
  h = num(h, t.level);
  h = num(h, t.order);
  h = str(h, t.landmark);
  h = mix(h, t.volatile ? 1 : ABSENT);
  return row(h, t.container);
}

export function snapshotDigest(s: Pick<PageSnapshot, 'elements' | 'texts'>): number {
  let h = mix(mix(2166136261, s.elements.length), s.texts.length);
  for (let i = 0; i < s.elements.length; i++) h = element(h, s.elements[i]!);
  for (let i = 0; i < s.texts.length; i++) h = text(h, s.texts[i]!);
  return h >>> 0;
}
