import { describe, expect, it } from 'vitest';
import { packObserveReply, packRows, unpackObserveReply, unpackRows, PackedRowsError } from '../../../src/protocol/packed-rows.ts';
import { ObserveReplyData } from '../../../src/protocol/messages.ts';
import { createObservationService } from '../../../src/background/observation/service.ts';
import { fakeFrames } from '../background/core/fake-frames.ts';
import type { PageSnapshot, SnapshotElement } from '../../../src/protocol/snapshot.ts';

/** What the other side sees: the list through JSON text, packed or not. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
/** Deep equality with key order (toEqual ignores order). */
const exactly = (value: unknown): string => JSON.stringify(value);

function gridElements(rows: number): SnapshotElement[] {
  const out: SnapshotElement[] = [];
  for (let i = 0; i < rows; i++) {
    const container = { ref: 'e9000', row: i + 1 };
    out.push({
      ref: `e${i * 3}`,
      role: 'checkbox',
      name: `Select USR-${i}`,
      states: [],
      visibility: 'visible',
      tag: 'input',
      inputType: 'checkbox',
      scope: 'document',
      box: { x: 243, y: 414 + 76 * i, w: 13, h: 13 },
      container,
      order: i * 5,
    });
    out.push({
      ref: `e${i * 3 + 1}`,
      role: 'combobox',
      name: `Role of USR-${i}`,
      value: ['Viewer', 'Editor', 'Admin'][i % 3],
      states: i % 4 === 0 ? ['required'] : [],
      visibility: i % 7 === 0 ? 'offscreen' : 'visible',
      tag: 'select',
      scope: 'document',
      box: { x: 947, y: 404 + 76 * i, w: 93, h: 36 },
      options: ['Viewer', 'Editor', 'Admin'],
      container,
      order: i * 5 + 1,
    });
    out.push({
      ref: `e${i * 3 + 2}`,
      role: 'button',
      name: 'Edit',
      description: i % 5 === 0 ? undefined : 'Opens the editor',
      states: [],
      visibility: 'visible',
      tag: 'button',
      scope: 'document',
      container,
      order: i * 5 + 2,
    });
  }
  return out;
}

describe('packed rows', () => {
  it('give back exactly what the plain list would have given, key order included, at a fraction of the text', () => {
    const list = gridElements(200);
    const packed = packRows(list);
    expect(Array.isArray(packed)).toBe(false);
    expect(exactly(unpackRows(wire(packed), 50_000))).toBe(exactly(wire(list)));
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(list).length * 0.4);
  });

  it('keep odd but valid values: nulls (patches), empty and undefined-only objects, nested lists of objects, lists past the repeat limit, mixed shapes', () => {
    const long = Array.from({ length: 80 }, (_, i) => `o${i}`);
    const list: object[] = [
      { ref: 'e1', box: null, value: null, states: [] },
      { ref: 'e2', box: null, value: null, states: [] },
      { ref: 'e3', box: {}, inferred: { role: 'button', evidence: [{ kind: 'listener', on: 'click' }] }, options: long },
      { ref: 'e4', box: { x: undefined }, inferred: { role: 'button', evidence: [{ kind: 'listener', on: 'click' }] }, options: long },
      { ref: 'e5', skipped: undefined, nested: { deeper: { a: 1 }, 'dotted.key': 2 }, flag: true, n: 0 },
      { ref: 'e6', skipped: undefined, nested: { deeper: { a: 1 }, 'dotted.key': 2 }, flag: true, n: 0 },
      { ref: 'e7', states: ['checked', 'focused'] },
      { ref: 'e8', states: ['checked', 'focused'] },
      { ref: 'e9', states: ['checked'] },
    ];
    const out = unpackRows(wire(packRows(list)), 50_000) as Array<Record<string, unknown>>;
    expect(exactly(out)).toBe(exactly(wire(list)));
    // A repeated list is a copy of its own, not shared with the row before.
    expect(out[7]!.states).not.toBe(out[6]!.states);
  });

  it('send a string that starts like the one in the row before as the length shared and the rest', () => {
    const list = [
      { name: 'Select USR-00001', href: 'http://lab.test/grid/users/USR-00001' },
      { name: 'Select USR-00002', href: 'http://lab.test/grid/users/USR-00002' },
      // A shared start that would end inside a surrogate pair stops before it.
      { name: 'Select 😀 one', href: 'http://lab.test/grid/users/USR-00002' },
      { name: 'Select 😁 two', href: 'http://lab.test/other' },
    ];
    const packed = packRows(list) as { $rows: [string[][], unknown[][]] };
    expect(packed.$rows[1][1]).toEqual([0, 3 * 2 ** 30, 15, '2', 35, '2']);
    expect(exactly(unpackRows(wire(packed), 10))).toBe(exactly(wire(list)));
    // Two shared starts of the same string would not go past it.
    const bad =
      (row: unknown[], first: unknown[] = [0, 0, 'Select USR-00001']) =>
      () =>
        unpackRows({ $rows: [[['name']], [first, row]] }, 10);
    expect(bad([0, 2 ** 30, 15, '2'])).not.toThrow();
    expect(bad([0, 2 ** 30, 17, '2'])).toThrow(PackedRowsError); // longer than the string before
    expect(bad([0, 2 ** 30, 0, '2'])).toThrow(PackedRowsError);
    expect(bad([0, 2 ** 30, 1.5, '2'])).toThrow(PackedRowsError);
    expect(bad([0, 2 ** 30, 3, 2])).toThrow(PackedRowsError);
    expect(bad([0, 2 ** 30, 3, '2'], [0, 0, 42])).toThrow(PackedRowsError); // the value before is no string
    expect(bad([0, 2 ** 30 + 1, 3, '2'])).toThrow(PackedRowsError); // repeated and shared at once
    expect(bad([0, 2 ** 31, 3, '2'])).toThrow(PackedRowsError); // a column the shape does not have
    expect(() => unpackRows({ $rows: [[['name']], [[0, 2 ** 30, 3, 'x']]] }, 10)).toThrow(PackedRowsError); // no row before
    // A chain of long shared starts counts against the budget like repeats.
    const long = 'x'.repeat(10_000);
    const chain = (n: number) => () => unpackRows({ $rows: [[['a']], [[0, 0, long], ...Array.from({ length: n }, () => [0, 2 ** 30, 10_000, ''])]] }, 50_000);
    expect(chain(1_000)).not.toThrow();
    expect(chain(49_999)).toThrow(PackedRowsError);
  });

  it('agree with the plain list on random lists', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const value = (depth: number): unknown => {
      switch (rnd(depth > 1 ? 6 : 8)) {
        case 0:
          return rnd(3) === 0 ? null : rnd(1000) - 500;
        case 1:
          return ['a', 'b', 'visible', '', 'Select USR-1', 'Select USR-12', 'Select 😀', 'Select 😁x'][rnd(8)];
        case 2:
          return rnd(2) === 0;
        case 3:
          return Array.from({ length: rnd(4) }, () => ['x', 'y'][rnd(2)]);
        case 4:
          return undefined;
        case 5:
          return rnd(1000) / 7;
        default:
          return Object.fromEntries(Array.from({ length: rnd(4) }, (_, i) => [['x', 'y', 'w', 'h', 'k.j'][i + rnd(2)]!, value(depth + 1)]));
      }
    };
    for (let round = 0; round < 200; round++) {
      const keys = ['ref', 'role', 'name', 'box', 'states', 'container', 'order'];
      const list = Array.from({ length: 4 + rnd(30) }, () => Object.fromEntries(keys.filter(() => rnd(4) > 0).map((k) => [k, value(0)])));
      expect(exactly(unpackRows(wire(packRows(list)), 50_000))).toBe(exactly(wire(list)));
    }
  });

  it('rebuild each row with its shape’s keys in order, a nested object where its first field is', () => {
    const rows = unpackRows(
      {
        $rows: [
          [['a.x', 'b', 'a.y'], ['b']],
          [
            [0, 0, 1, 2, 3],
            [1, 0, 'x'],
            [0, 5, 4],
          ],
        ],
      },
      10,
    );
    expect(exactly(rows)).toBe(exactly([{ a: { x: 1, y: 3 }, b: 2 }, { b: 'x' }, { a: { x: 1, y: 3 }, b: 4 }]));
    // Every row has objects of its own.
    const [first, , third] = rows as Array<{ a: object }>;
    expect(third!.a).not.toBe(first!.a);
  });

  it('leave lists alone that they cannot carry faithfully, or that are too short to gain', () => {
    const dotted = [{ 'a.b': 1 }, { 'a.b': 2 }, { 'a.b': 3 }, { 'a.b': 4 }];
    expect(packRows(dotted)).toBe(dotted);
    const short = [{ ref: 'e1' }];
    expect(packRows(short)).toBe(short);
    // What is not packed is handed on untouched, for the schema to judge.
    expect(unpackRows(short, 10)).toBe(short);
    expect(unpackRows('text', 10)).toBe('text');
  });

  it('refuse malformed packed rows from a hostile page instead of guessing', () => {
    const ok = wire(packRows(gridElements(3))) as { $rows: [string[][], unknown[][]] };
    const bad = (mutate: (p: { $rows: [string[][], unknown[][]] }) => void, maxRows = 50_000) => {
      const p = structuredClone(ok);
      mutate(p);
      return () => unpackRows(p, maxRows);
    };
    expect(() => unpackRows(ok, 50_000)).not.toThrow();
    expect(bad(() => {}, 5)).toThrow(PackedRowsError); // more rows than allowed
    expect(bad((p) => (p.$rows[0][0]![0] = '__proto__'))).toThrow(PackedRowsError);
    expect(bad((p) => (p.$rows[0][0]![0] = 'toString.x'))).not.toThrow(); // an own key, harmless
    expect(bad((p) => (p.$rows[0][0]![0] = 'box.__proto__'))).toThrow(PackedRowsError);
    expect(bad((p) => (p.$rows[0][0]![1] = p.$rows[0][0]![0]!))).toThrow(PackedRowsError); // a key twice
    expect(bad((p) => p.$rows[0][0]!.push('box'))).toThrow(PackedRowsError); // box both a value and an object
    expect(bad((p) => (p.$rows[1][0]![0] = 99))).toThrow(PackedRowsError); // no such shape
    expect(bad((p) => (p.$rows[1][0]![1] = 1))).toThrow(PackedRowsError); // a repeat with no row before
    expect(bad((p) => (p.$rows[1][3]![1] = 2 ** 40))).toThrow(PackedRowsError); // repeats past the columns
    expect(bad((p) => (p.$rows[1][3]![1] = 0.5))).toThrow(PackedRowsError);
    expect(bad((p) => p.$rows[1][0]!.push('extra'))).toThrow(PackedRowsError); // row length
    expect(bad((p) => (p.$rows[1][0] = { 0: 0 } as unknown as unknown[]))).toThrow(PackedRowsError);
    expect(() => unpackRows({ $rows: [[], []], more: 1 }, 10)).toThrow(PackedRowsError);
    // Repeats never copy objects or long lists (a few bytes must not become gigabytes).
    const repeating =
      (first: unknown, times = 1) =>
      () =>
        unpackRows({ $rows: [[['a']], [[0, 0, first], ...Array.from({ length: times }, () => [0, 1])]] }, 50_000);
    expect(repeating({ big: 1 })).toThrow(PackedRowsError);
    expect(repeating(Array(65).fill(1))).toThrow(PackedRowsError);
    expect(repeating([{}])).toThrow(PackedRowsError);
    // Nor a long string repeated down a long list (each copy would be checked again).
    expect(repeating('x'.repeat(10_000), 1_000)).not.toThrow();
    expect(repeating('x'.repeat(10_000), 49_999)).toThrow(PackedRowsError);
    // Nor more columns than any element has.
    expect(() => unpackRows({ $rows: [[Array.from({ length: 65 }, (_, i) => `k${i}`)], []] }, 10)).toThrow(PackedRowsError);
  });
});

const snapshot = (elements: SnapshotElement[]): PageSnapshot => ({
  url: 'http://lab.test/grid',
  title: 'Grid',
  capturedAt: '2026-08-03T11:40:00.000Z',
  elements,
  forms: [],
  texts: Array.from({ length: 40 }, (_, i) => ({ text: `Row ${i}`, role: 'cell', order: 1000 + i, container: { ref: 'e9000', row: i + 1 } })),
  structuredData: [],
  canvases: [],
  stats: { nodes: 400, interactive: elements.length, hidden: 0, iframesSkipped: 0, shadowRoots: 0 },
  blindSpots: [],
  documentToken: 'b7c1e8a2-1111-4222-8333-944455556666',
});

describe('observation replies with packed lists', () => {
  it('reach the service worker as the same snapshot, validated', async () => {
    const snap = snapshot(gridElements(50));
    const reply = { kind: 'full', seq: 1, snapshot: snap } as const;
    const text = JSON.stringify(packObserveReply(reply));
    expect(text.length).toBeLessThan(JSON.stringify(reply).length * 0.5);
    expect(exactly(ObserveReplyData.parse(unpackObserveReply(JSON.parse(text))))).toBe(exactly(ObserveReplyData.parse(wire(reply))));
    const service = createObservationService(fakeFrames(async () => ({ ok: true, data: text })));
    expect(await service.observeTab(3, { full: true })).toEqual({ ok: true, data: wire(snap) });
  });

  it('are still held to the schema after unpacking, and malformed packing is refused', async () => {
    const forged = packObserveReply({ kind: 'full', seq: 1, snapshot: snapshot(gridElements(5).map((e) => ({ ...e, ref: 'not a ref!' }))) });
    const observe = (data: unknown) => createObservationService(fakeFrames(async () => ({ ok: true, data: JSON.stringify(data) }))).observeTab(3);
    expect(await observe(forged)).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY', retryable: false } });
    const broken = wire(packObserveReply({ kind: 'full', seq: 1, snapshot: snapshot(gridElements(5)) })) as { snapshot: { elements: { $rows: unknown[] } } };
    broken.snapshot.elements.$rows[0] = [['__proto__']];
    expect(await observe(broken)).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY', retryable: false } });
  });
});
