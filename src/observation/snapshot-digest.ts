import type { PageSnapshot, SnapshotElement, SnapshotText } from './snapshot.ts';

/**
 * A cheap fingerprint of a snapshot's elements and texts (pure), sent with the delta that answers
 * a full observation and with every tenth delta: the service worker computes it over the snapshot
 * it rebuilt and, when the two differ, throws its copy away and asks for everything. A decoding
 * mistake then lasts a few observations instead of the page's life. (Not with every delta: about
 * 1–2 ms on each side for a 16k-element page is a fifth of an incremental observation's budget.) Not a security measure (the page
 * side is Steward's own script): it reads positions, orders, sizes and the lengths and ends of
 * strings.
 */

// FNV-1a over 32-bit words: one xor and one multiply per value, no allocation.
const PRIME = 16777619;
const mix = (h: number, n: number): number => Math.imul(h ^ (n | 0), PRIME);

/** A string's length and its first and last characters (not every character: this runs on every observation). */
function str(h: number, s: string | undefined): number {
  if (s === undefined) return mix(h, -7);
  const n = s.length;
  return n === 0 ? mix(h, -11) : mix(mix(mix(h, n), s.charCodeAt(0)), s.charCodeAt(n - 1));
}

function element(h: number, e: SnapshotElement): number {
  h = str(h, e.ref);
  h = str(h, e.name);
  h = mix(mix(h, e.role.length), e.role.charCodeAt(0));
  h = mix(h, e.value === undefined ? -1 : e.value.length);
  h = mix(h, e.visibility.charCodeAt(0));
  h = mix(h, e.order ?? -1);
  h = mix(h, e.states.length);
  const b = e.box;
  h = b ? mix(mix(mix(mix(h, b.x), b.y), b.w), b.h) : mix(h, -3);
  const c = e.container;
  return c ? mix(mix(h, c.ref.length), c.row) : h;
}

function text(h: number, t: SnapshotText): number {
  h = str(h, t.text);
  h = mix(h, t.order ?? -1);
  const c = t.container;
  return c ? mix(h, c.row) : h;
}

export function snapshotDigest(s: Pick<PageSnapshot, 'elements' | 'texts'>): number {
  let h = mix(mix(2166136261, s.elements.length), s.texts.length);
  for (let i = 0; i < s.elements.length; i++) h = element(h, s.elements[i]!);
  for (let i = 0; i < s.texts.length; i++) h = text(h, s.texts[i]!);
  return h >>> 0;
}
