import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileColumnChecks, fastSafeParse } from '../../../src/protocol/fast-check.ts';
import { ObserveReplyData, PageSnapshotSchema, SnapshotElementPatch, SnapshotElementSchema } from '../../../src/protocol/messages.ts';
import { PackedRowsError, packObserveReply, unpackObserveReply, unpackRows } from '../../../src/protocol/packed-rows.ts';
import { decodeObserveReply } from '../../../src/background/observation/decode-reply.ts';

/**
 * Whether fastSafeParse answered `value` by its compiled check alone: then its data is the value
 * itself, where zod's parse of an object or array is always a new one.
 */
function fastCheck(schema: z.ZodType): (value: unknown) => boolean {
  const parse = fastSafeParse(schema);
  return (value) => {
    const r = parse(value);
    return r.success && r.data === value;
  };
}

/** Elements of every kind the schema knows, many alike (as on a real page: repeats and shared starts). */
function elements(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    ref: `e${i + 1}`,
    role: ['button', 'link', 'combobox', 'checkbox', 'slider', 'img'][i % 6],
    name: i % 7 === 3 ? '😀'.repeat(40) : `Select USR-${String(i).padStart(5, '0')}`,
    states: i % 2 ? ['required', 'focused'] : [],
    visibility: ['visible', 'covered', 'offscreen'][i % 3],
    tag: i % 6 === 1 ? 'a' : 'button',
    scope: i % 11 === 5 ? 'shadow-closed' : 'document',
    ...(i % 6 === 1 ? { href: `http://lab.test/grid/users/USR-${i}` } : {}),
    ...(i % 6 === 2 ? { value: 'Admin', options: ['Viewer', 'Admin'], formRef: 'e90', description: 'Role' } : {}),
    ...(i % 4 === 0 ? { box: { x: -3.5, y: 20 + i * 38, w: 100, h: 0 } } : {}),
    ...(i % 9 === 6 ? { framePath: [0, 2], inputType: 'range', range: { min: 0, max: 10, step: 0.5 } } : {}),
    ...(i % 9 === 7 ? { inferred: { confidence: 0.7, evidence: ['click_listener', 'cursor_pointer'] }, coveredBy: { role: 'banner', name: 'Cookies', ref: 'e50' } } : {}),
    ...(i % 9 === 8 ? { shape: { kind: 'circle', fill: 'red', size: 'large' }, passive: true } : {}),
    ...(i % 3 === 0 ? { controls: 'e70', container: { ref: 'e80', row: 1 + Math.floor(i / 3) } } : {}),
    order: i * 2,
  }));
}

function snapshot(n: number): unknown {
  return {
    url: 'http://lab.test/grid',
    title: 'Grid',
    capturedAt: '2026-08-03T11:40:00.000Z',
    elements: elements(n),
    forms: [],
    texts: Array.from({ length: n }, (_, i) => ({ text: `Row ${i}`, role: 'cell', order: 1000 + i, ...(i % 2 ? { container: { ref: 'e80', row: i } } : { level: 2, landmark: 'breadcrumb' }) })),
    structuredData: [],
    canvases: [],
    stats: { nodes: 400, interactive: n, hidden: 0, iframesSkipped: 0, shadowRoots: 0 },
    blindSpots: [],
    documentToken: 'b7c1e8a2-1111-4222-8333-944455556666',
  };
}

function deltaWithPatches(n: number): unknown {
  const { elements: _e, texts, ...rest } = snapshot(n) as Record<string, unknown>;
  return {
    kind: 'delta',
    seq: 2,
    baseSeq: 1,
    delta: {
      ...rest,
      changed: elements(n),
      texts,
      patches: Array.from({ length: n }, (_, i) => ({
        ref: `e${i + 1}`,
        ...(i % 2 ? { name: `Renamed ${i}`, value: null } : { box: i % 4 ? { x: i, y: 2, w: 3, h: 4 } : null, states: ['checked'] }),
      })),
    },
  };
}

/** The packed reply as it arrives: JSON text, parsed. */
const packedWire = (reply: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(packObserveReply(reply as ObserveReplyData)));

let seed = 7;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};

const ODD: unknown[] = [null, -1, 1.5, Number.MAX_VALUE, '', 'not a ref!', 'x'.repeat(1025), '😀'.repeat(65), true, [], ['required', 'nope'], {}, { x: 1 }, [[[[1]]]], 'e1'];

/** Replaces one value inside the packed rows (never the row's shape number or marks: that is packing, refused on its own). */
function mutateRows(wire: Record<string, unknown>): void {
  const holder = (wire.snapshot ?? wire.delta) as Record<string, { $rows: [string[][], unknown[][]] }>;
  const lists = Object.values(holder).filter((v) => v && typeof v === 'object' && '$rows' in v);
  const list = lists[rnd(lists.length)]!;
  const rows = list.$rows[1];
  const row = rows[rnd(rows.length)]!;
  if (row.length <= 2) return;
  row[2 + rnd(row.length - 2)] = structuredClone(ODD[rnd(ODD.length)]);
}

describe('column checks of packed observation lists', () => {
  it('check the columns of a layout only when objects built with it have exactly the keys zod requires and knows', () => {
    const checks = compileColumnChecks(SnapshotElementSchema);
    const base = ['ref', 'role', 'name', 'states', 'visibility', 'tag', 'scope'];
    expect(checks.columns([...base, 'box.x', 'box.y', 'box.w', 'box.h', 'container.ref', 'container.row', 'order'])).toHaveLength(14);
    expect(checks.columns(base.filter((k) => k !== 'name'))).toBeUndefined(); // a required key missing
    expect(checks.columns([...base, 'extra'])).toBeUndefined(); // zod would strip it
    expect(checks.columns([...base, 'box.x', 'box.y'])).toBeUndefined(); // a box without w and h
    expect(checks.columns([...base, 'box.x', 'box.y', 'box.w', 'box.h', 'box.z'])).toBeUndefined();
    expect(checks.columns([...base, 'name.first'])).toBeUndefined(); // a string is no object
    const patches = compileColumnChecks(SnapshotElementPatch);
    expect(patches.columns(['ref', 'box.x', 'box.y', 'box.w', 'box.h'])).toHaveLength(5); // nullable, present: an object
    expect(patches.columns(['ref', 'extra'])).toBeUndefined(); // strict: zod refuses it
    // Every layout of the lists below gets checks (so the replies further down take the vouched path).
    const shapes = (list: unknown) => (list as { $rows: [string[][]] }).$rows[0];
    const full = packedWire({ kind: 'full', seq: 1, snapshot: snapshot(24) }).snapshot as Record<string, unknown>;
    const delta = packedWire(deltaWithPatches(12)).delta as Record<string, unknown>;
    for (const keys of [...shapes(full.elements), ...shapes(delta.changed)]) expect(checks.columns(keys)).toHaveLength(keys.length);
    for (const keys of [...shapes(full.texts), ...shapes(delta.texts)]) expect(compileColumnChecks(PageSnapshotSchema.shape.texts.element).columns(keys)).toHaveLength(keys.length);
    for (const keys of shapes(delta.patches)) expect(patches.columns(keys)).toHaveLength(keys.length);
  });

  it('vouch for a list whose every value passed, once, for the item schema they were compiled from', () => {
    const packed = () => (packedWire({ kind: 'full', seq: 1, snapshot: snapshot(30) }).snapshot as Record<string, unknown>).elements;
    const listCheck = fastCheck(PageSnapshotSchema.shape.elements);
    const list = unpackRows(packed(), 50_000, compileColumnChecks(SnapshotElementSchema)) as Array<Record<string, unknown>>;
    // Vouched: the list's check skips its items (an item broken afterwards goes unseen, once)…
    list[0]!.ref = 'not a ref!';
    expect(listCheck(list)).toBe(true);
    // …and only once: the next check reads every item.
    expect(listCheck(list)).toBe(false);
    // Vouched for against another schema: checked item by item.
    const other = unpackRows(packed(), 50_000, compileColumnChecks(PageSnapshotSchema.shape.texts.element)) as Array<Record<string, unknown>>;
    other[0]!.ref = 'not a ref!';
    expect(listCheck(other)).toBe(false);
  });

  it('leave the service worker with exactly zod’s verdict and data on packed replies, valid or broken (hundreds of random changes)', () => {
    let refused = 0;
    for (let round = 0; round < 400; round++) {
      const wire = packedWire(round % 2 ? { kind: 'full', seq: 1, snapshot: snapshot(24) } : deltaWithPatches(12));
      if (round > 1) mutateRows(wire);
      const text = JSON.stringify(wire);
      const got = decodeObserveReply(text);
      let unpacked: unknown;
      try {
        unpacked = unpackObserveReply(JSON.parse(text));
      } catch (error) {
        // Broken packing (a repeat of the value that became an object): refused before any check.
        expect(error).toBeInstanceOf(PackedRowsError);
        expect(got.ok).toBe(false);
        continue;
      }
      const want = ObserveReplyData.safeParse(unpacked);
      expect(got.ok).toBe(want.success);
      if (want.success && got.ok) expect(got.data).toStrictEqual(want.data);
      if (!want.success) refused++;
    }
    // The changes reach both verdicts.
    expect(refused).toBeGreaterThan(100);
    expect(refused).toBeLessThan(390);
  }, 30_000);
});
