import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastSafeParse } from '../../../src/protocol/fast-check.ts';
import { ObserveReplyData } from '../../../src/protocol/messages.ts';
import { ElementState } from '../../../src/protocol/element.ts';
import { ActReport } from '../../../src/protocol/messages.ts';

/** A full reply using every field the schema knows, the way a page sends it (JSON). */
function fullReply(): unknown {
  const elements = Array.from({ length: 12 }, (_, i) => ({
    ref: `e${i + 1}`,
    role: ['button', 'link', 'combobox', 'checkbox', 'slider', 'img'][i % 6],
    name: i === 3 ? '😀'.repeat(600) : `Control ${i}`,
    states: i % 2 ? ['required', 'focused'] : [],
    visibility: ['visible', 'covered', 'offscreen'][i % 3],
    tag: i === 1 ? 'a' : 'button',
    scope: i === 5 ? 'shadow-closed' : 'document',
    order: i * 2,
    ...(i === 1 ? { href: 'http://lab.test/x' } : {}),
    ...(i === 2 ? { value: 'Admin', options: ['Viewer', 'Admin'], formRef: 'e90', description: 'Role' } : {}),
    ...(i % 4 === 0 ? { box: { x: -3.5, y: 20, w: 100, h: 0 } } : {}),
    ...(i === 6 ? { framePath: [0, 2], inputType: 'range', range: { min: 0, max: 10, step: 0.5 } } : {}),
    ...(i === 7 ? { inferred: { confidence: 0.7, evidence: ['click_listener', 'cursor_pointer'] }, coveredBy: { role: 'banner', name: 'Cookies', ref: 'e50' } } : {}),
    ...(i === 8 ? { shape: { kind: 'circle', fill: 'red', size: 'large' }, passive: true } : {}),
    ...(i === 9 ? { controls: 'e70', container: { ref: 'e80', row: 3 } } : {}),
  }));
  return {
    kind: 'full',
    seq: 1,
    snapshot: {
      url: 'http://lab.test/grid',
      title: 'Grid',
      capturedAt: '2026-08-03T11:40:00.000Z',
      elements,
      forms: [{ ref: 'e90', name: 'Filter', method: 'get', action: 'http://lab.test/grid', fieldRefs: ['e3'], submitRef: 'e4', toolname: 'filter' }],
      texts: [
        { text: 'Team members', role: 'heading', level: 1, ref: 'e99', order: 1 },
        { text: 'Row', container: { ref: 'e80', row: 1 }, landmark: 'navigation', volatile: true, order: 3 },
      ],
      structuredData: [{ kind: 'json-ld', type: 'Order', data: { '@type': 'Order', nested: { list: [1, 'two', null] } } }],
      canvases: [{ ref: 'e60', box: { x: 0, y: 0, w: 10, h: 10 }, hasTextEquivalent: false, pixelHash: 'px-1', unreadable: true, label: 'Chart' }],
      tables: [{ ref: 'e80', caption: 'Members', headers: ['ID'], rows: [['USR-1']], rowCount: 1 }],
      stats: { nodes: 400, interactive: 12, hidden: 1, iframesSkipped: 0, shadowRoots: 1 },
      blindSpots: ['cross_origin_iframe'],
      containers: [{ ref: 'e80', role: 'table', name: 'Members', rows: 1, columns: ['ID'], openedBy: 'e2' }],
      documentToken: 'b7c1e8a2-1111-4222-8333-944455556666',
      viewport: { w: 1280, h: 720, scrollX: 0, scrollY: 10.5, pageW: 1280, pageH: 9000 },
      timing: { mode: 'full', captureMs: 12.5, updateMs: 9.1, layoutMs: 0.2, dirtyRoots: 1, recomputed: 2 },
      contractHref: 'https://lab.test/.well-known/agent-contract.json',
    },
  };
}

function deltaReply(): unknown {
  const { snapshot } = fullReply() as { snapshot: Record<string, unknown> };
  const { elements: _e, texts: _t, ...rest } = snapshot;
  return {
    kind: 'delta',
    seq: 3,
    baseSeq: 2,
    digest: 12345,
    delta: {
      ...rest,
      elementRefs: ['e1', 'e2', 'e3'],
      elementOrders: [0, 2, 4],
      elementOrderShifts: [[0, 2, -1]],
      changed: (fullReply() as { snapshot: { elements: unknown[] } }).snapshot.elements.slice(0, 3),
      patches: [
        { ref: 'e2', name: 'Renamed', value: null, box: null, states: ['checked'] },
        { ref: 'e4', coveredBy: { role: 'dialog', name: 'Sign in' }, passive: null },
      ],
      moves: [
        [0, 3, 0, 37],
        [5, 2, -1.5, 0, '48'],
      ],
      textPieces: [[0, 2, 1], { text: 'New', order: 9 }],
    },
  };
}

let seed = 11;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const pick = <T>(list: readonly T[]): T => list[rnd(list.length)]!;

const WEIRD: unknown[] = [
  null,
  undefined,
  -1,
  0,
  -0,
  0.5,
  2 ** 53 + 2,
  1e300,
  Number.NaN,
  '',
  'x',
  'e1',
  'not a ref!',
  'full',
  'delta',
  'visible',
  'x'.repeat(65),
  'x'.repeat(1025),
  '😀'.repeat(64),
  '😀'.repeat(65),
  '😀'.repeat(1024),
  '\uD800'.repeat(70),
  true,
  false,
  [],
  [1],
  ['required'],
  ['required', 'required'],
  {},
  { x: 1, y: 2, w: 3, h: 4 },
  { ref: 'e1', row: 1 },
  [0, 1, 2],
  [0, 1, 2, 3, 'x'],
  [0, 1, 2, 3, '48'],
  [0, 1, 2, 3, '4'],
];

/** Every object and array inside a value, with how to reach it. */
function holders(value: unknown, out: Array<Record<string, unknown> | unknown[]> = []): Array<Record<string, unknown> | unknown[]> {
  if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) holders(v, out);
  }
  return out;
}

/** One random change: a field removed, replaced by something odd, an unknown key added, a list stretched. */
function mutate(value: unknown): unknown {
  const copy = structuredClone(value);
  const all = holders(copy);
  const target = pick(all);
  const keys = Object.keys(target);
  switch (rnd(5)) {
    case 0:
      if (Array.isArray(target)) target.splice(rnd(target.length + 1), 1);
      else if (keys.length) delete (target as Record<string, unknown>)[pick(keys)];
      break;
    case 1:
      if (keys.length) (target as Record<string, unknown>)[pick(keys)] = structuredClone(pick(WEIRD));
      break;
    case 2:
      if (Array.isArray(target)) target.push(structuredClone(target[0] ?? pick(WEIRD)));
      else Object.defineProperty(target, pick(['extra', '__proto__', 'constructor', 'toString', 'order']), { value: pick(WEIRD), enumerable: true, writable: true, configurable: true });
      break;
    case 3:
      if (Array.isArray(target)) while (target.length < 80) target.push(structuredClone(target[0] ?? 'x'));
      break;
    default: {
      // Two changes at once.
      return mutate(copy);
    }
  }
  return copy;
}

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

/** zod's own outcome and the fast path's agree: same success, and the same data when accepted. */
function expectSameAsZod(schema: z.ZodType, parse: (v: unknown) => z.ZodSafeParseResult<unknown>, value: unknown): void {
  const want = schema.safeParse(value);
  const got = parse(value);
  expect(got.success).toBe(want.success);
  if (want.success) expect(got.data).toStrictEqual(want.data);
}

describe('fast checks compiled from zod schemas', () => {
  const parse = fastSafeParse(ObserveReplyData);
  const check = fastCheck(ObserveReplyData);

  it('answer valid observation replies themselves, with zod’s data', () => {
    for (const reply of [fullReply(), deltaReply()]) {
      expect(check(reply)).toBe(true);
      expectSameAsZod(ObserveReplyData, parse, reply);
    }
  });

  it('never accept what zod refuses, nor anything zod would change (thousands of random changes)', () => {
    let refused = 0;
    let acceptedFast = 0;
    const bases = [fullReply(), deltaReply()];
    for (let round = 0; round < 1500; round++) {
      const value = mutate(bases[round % 2]);
      expectSameAsZod(ObserveReplyData, parse, value);
      if (!ObserveReplyData.safeParse(value).success) refused++;
      else if (check(value)) acceptedFast++;
    }
    // The changes reach both verdicts (not all are harmless, not all are fatal).
    expect(refused).toBeGreaterThan(300);
    expect(refused).toBeLessThan(1450);
    // Most changes zod lets through unchanged are answered without zod.
    expect(acceptedFast).toBeGreaterThan(100);
  }, 30_000);

  it('leave unknown keys to zod (a plain object strips them, a strict one refuses them)', () => {
    const withExtra = fullReply() as { snapshot: { elements: Array<Record<string, unknown>> } };
    withExtra.snapshot.elements[0]!.extra = 1;
    expect(check(withExtra)).toBe(false);
    expectSameAsZod(ObserveReplyData, parse, withExtra);
    expect((parse(withExtra).data as typeof withExtra).snapshot.elements[0]).not.toHaveProperty('extra');
    const proto = JSON.parse(JSON.stringify(fullReply()).replace('"ref":"e1",', '"__proto__":{"polluted":true},"ref":"e1",'));
    expect(check(proto)).toBe(false);
    expectSameAsZod(ObserveReplyData, parse, proto);
    const strictPatch = deltaReply() as { delta: { patches: Array<Record<string, unknown>> } };
    strictPatch.delta.patches[0]!.extra = 1;
    expect(parse(strictPatch).success).toBe(false);
  });

  it('measure strings as zod does (code points), and keep zod’s integer, range and pattern rules', () => {
    const astral = fullReply() as { snapshot: { elements: Array<Record<string, unknown>>; stats: Record<string, unknown> } };
    astral.snapshot.elements[0]!.role = '😀'.repeat(64); // 128 UTF-16 units, 64 code points: allowed
    expectSameAsZod(ObserveReplyData, parse, astral);
    expect(parse(astral).success).toBe(true);
    astral.snapshot.elements[0]!.role = '😀'.repeat(65);
    expect(parse(astral).success).toBe(false);
    const bad = (mutate: (r: { snapshot: { elements: Array<Record<string, unknown>>; stats: Record<string, unknown> } }) => void) => {
      const r = fullReply() as { snapshot: { elements: Array<Record<string, unknown>>; stats: Record<string, unknown> } };
      mutate(r);
      expectSameAsZod(ObserveReplyData, parse, r);
      return parse(r).success;
    };
    expect(bad((r) => (r.snapshot.stats.nodes = 1.5))).toBe(false);
    expect(bad((r) => (r.snapshot.stats.nodes = 2 ** 53))).toBe(false);
    expect(bad((r) => (r.snapshot.stats.nodes = -1))).toBe(false);
    expect(bad((r) => (r.snapshot.elements[0]!.ref = 'e1"><script>'))).toBe(false);
    expect(bad((r) => (r.snapshot.elements[7]!.inferred = { confidence: 1.01, evidence: ['tabindex'] }))).toBe(false);
    expect(bad((r) => (r.snapshot.elements[0]!.box = { x: 0, y: 0, w: -1, h: 1 }))).toBe(false);
    expect(bad((r) => (r.snapshot.elements[0]!.states = Array(ElementState.options.length + 1).fill('required')))).toBe(false);
  });

  it('agree with zod on schemas with refinements, transforms, records, defaults and unions of any kind', () => {
    const schemas: Array<[z.ZodType, unknown[]]> = [
      [z.object({ a: z.string().trim() }), [{ a: ' x ' }, { a: 'x' }]],
      [z.object({ a: z.number().default(3) }), [{}, { a: 1 }]],
      [z.object({ a: z.array(z.string()).refine((l) => l.length !== 2) }), [{ a: ['x'] }, { a: ['x', 'y'] }]],
      [z.record(z.string(), z.unknown()), [{ a: 1 }, JSON.parse('{"__proto__": {"x": 1}}'), []]],
      [z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]), [{ a: 'x', b: 1 }, { a: 'x' }]],
      [z.union([z.string(), z.string().transform((s) => s.length)]), ['abc', 3]],
      [z.union([z.tuple([z.int()]), z.tuple([z.int(), z.string()])]), [[1], [1, 'x'], [1, 2], [1.5]]],
      [z.object({ a: z.unknown() }), [{}, { a: undefined }, { a: { deep: [1] } }]],
      [z.object({ a: z.string().optional() }).strict(), [{}, { a: 'x' }, { a: 'x', b: 1 }]],
      [z.string().url(), ['https://lab.test/a', 'not a url']],
      [z.string().email(), ['a@b.test', 'nope']],
      [z.tuple([z.string(), z.number().optional()]), [['x'], ['x', 1], ['x', 'y']]],
      [z.object({ a: z.string() }).readonly(), [{ a: 'x' }]],
      [z.coerce.number(), ['3', 3]],
      [z.object({ r: z.lazy(() => z.string()) }), [{ r: 'x' }, { r: 1 }]],
      [ActReport, [{ steps: [{ op: 'click', ref: 'e1', status: 'done', message: 'ok' }] }, { steps: [{ op: 'fly', status: 'done', message: '' }] }]],
    ];
    for (const [schema, values] of schemas) {
      const p = fastSafeParse(schema);
      for (const value of values) {
        expectSameAsZod(schema, p, value);
        // Frozen or not, the data is zod's.
        const want = schema.safeParse(value);
        if (want.success && Object.isFrozen(want.data)) expect(Object.isFrozen(p(value).data)).toBe(true);
      }
    }
  });
});
