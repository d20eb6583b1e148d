import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../../src/background/observation/delta.ts';
import { createObservationService } from '../../../src/background/observation/service.ts';
import { DeltaEncoder } from '../../../src/content/observe/snapshot-delta.ts';
import { snapshotDigest } from '../../../src/observation/snapshot-digest.ts';
import { ObserveReplyData, type SnapshotDelta } from '../../../src/protocol/messages.ts';
import { ELEMENT_FIELDS, OTHER_ELEMENT_FIELDS } from './fixtures/element-fields.ts';
import type { PageSnapshot, SnapshotElement } from '../../../src/protocol/snapshot.ts';
import { fakeFrames } from '../background/core/fake-frames.ts';

const el = (n: number, name = `Button ${n}`): SnapshotElement => ({ ref: `e${n}`, role: 'button', name, states: [], visibility: 'visible', tag: 'button', scope: 'document', order: n });
const ten = () => Array.from({ length: 10 }, (_, i) => ({ ...el(i + 1), box: { x: i, y: 2, w: 3, h: 4 }, container: { ref: 't1', row: i + 1 } }));

/** The patch the encoder sends for one element that went from `before` to `after` (undefined: none). */
function diffElement(before: SnapshotElement, after: SnapshotElement) {
  const encoder = new DeltaEncoder();
  encoder.encode(snap([before]));
  const reply = encoder.encode(snap([after]), { documentToken: 'doc-1', seq: 1 });
  if (reply.kind !== 'delta') throw new Error('expected a delta');
  expect(reply.delta.changed).toEqual([]);
  return reply.delta.patches?.[0];
}

const snap = (elements: SnapshotElement[], token = 'doc-1'): PageSnapshot => ({
  url: 'http://lab.test/grid',
  title: 'Grid',
  capturedAt: '2026-08-03T11:40:00.000Z',
  elements,
  forms: [],
  texts: [{ text: 'Team', role: 'heading', order: 0 }],
  structuredData: [],
  canvases: [],
  stats: { nodes: 10, interactive: elements.length, hidden: 0, iframesSkipped: 0, shadowRoots: 0 },
  blindSpots: [],
  documentToken: token,
});

/** What the service worker would do: validate the wire form, then merge. */
function roundTrip(base: PageSnapshot, reply: ObserveReplyData): PageSnapshot | undefined {
  const parsed = ObserveReplyData.parse(JSON.parse(JSON.stringify(reply)));
  if (parsed.kind === 'full') return parsed.snapshot;
  return applyDelta(base, new Map(base.elements.map((e) => [e.ref, e])), parsed.delta);
}

describe('DeltaEncoder + applyDelta', () => {
  it('sends new elements in full and changed ones as patches, and rebuilds the same snapshot on the other side', () => {
    const encoder = new DeltaEncoder();
    const a = ten();
    expect(encoder.encode(snap(a))).toMatchObject({ kind: 'full', seq: 1 });

    // e2 renamed (a new object), e11 new, e1 moved (same object, new order), e3 gone, e4 lost its box.
    const e1 = a[0]!;
    e1.order = 50;
    const e4: SnapshotElement = { ...a[3]! };
    delete e4.box;
    const next = snap([el(11), { ...a[1]!, name: 'Renamed' }, e4, ...a.slice(4), e1]);
    const second = encoder.encode(next, { documentToken: 'doc-1', seq: 1 });
    expect(second.kind).toBe('delta');
    if (second.kind !== 'delta') return;
    expect(second.delta.changed.map((e) => e.ref)).toEqual(['e11']);
    expect(second.delta.patches).toEqual([
      { ref: 'e2', name: 'Renamed' },
      { ref: 'e4', box: null },
    ]);
    expect(second.delta.elementRefs).toEqual(['e11', 'e2', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e1']);

    const base = snap(ten());
    expect(roundTrip(base, second)).toEqual(JSON.parse(JSON.stringify(next)));
    // The base is left as it was.
    expect(base.elements[0]!.order).toBe(1);
    expect(base.elements[1]!.name).toBe('Button 2');
  });

  it('compares values when a full re-walk made new objects: equal elements are not sent again, a reflow sends runs of moves', () => {
    const encoder = new DeltaEncoder();
    encoder.encode(snap(ten()));
    const fresh = ten().map((e) => ({ ...e, box: { ...e.box, x: e.box.x + 40 } }));
    fresh[4] = { ...fresh[4]!, states: ['checked'] };
    fresh[8] = { ...fresh[8]!, box: { ...fresh[8]!.box, y: 30 } };
    const second = encoder.encode(snap(fresh), { documentToken: 'doc-1', seq: 1 });
    if (second.kind !== 'delta') throw new Error('expected a delta');
    expect(second.delta.changed).toEqual([]);
    // e5 changed more than its box: a patch. The rest only moved: e1–e4, e6–e8 and e10 by (40, 0), e9 by (40, 28).
    expect(second.delta.patches).toEqual([{ ref: 'e5', states: ['checked'], box: { x: 44, y: 2, w: 3, h: 4 } }]);
    expect(second.delta.moves).toEqual([
      [0, 4, 40, 0],
      [5, 3, 40, 0],
      [8, 1, 40, 28],
      [9, 1, 40, 0],
    ]);
    expect(roundTrip(snap(ten()), second)).toEqual(JSON.parse(JSON.stringify(snap(fresh))));
    expect(JSON.stringify(second.delta).length).toBeLessThan(JSON.stringify(snap(fresh)).length);
    // Whole-pixel boxes under a fractional shift (37.5 px) move by 37 or 38: still one run, with a nudge per element.
    const again = new DeltaEncoder();
    again.encode(snap(ten()));
    const half = ten().map((e, i) => ({ ...e, box: { ...e.box, x: e.box.x + 40, y: e.box.y + (i % 3 === 0 ? 38 : 37) } }));
    const nudged = again.encode(snap(half), { documentToken: 'doc-1', seq: 1 });
    if (nudged.kind !== 'delta') throw new Error('expected a delta');
    expect(nudged.delta.moves).toEqual([[0, 10, 40, 38, '4334334334']]);
    expect(roundTrip(snap(ten()), nudged)).toEqual(JSON.parse(JSON.stringify(snap(half))));
    // A resized box is no move.
    const resized = ten().map((e) => ({ ...e, box: { ...e.box, w: 9 } }));
    const third = encoder.encode(snap(resized), { documentToken: 'doc-1', seq: 2 });
    expect(third.kind === 'delta' && third.delta.moves).toBeUndefined();
    expect(third.kind === 'delta' && third.delta.patches).toHaveLength(10);
    expect(diffElement(el(1), { ...el(1), order: 7 })).toBeUndefined();
    expect(diffElement({ ...el(1), value: 'x' }, el(1))).toEqual({ ref: 'e1', value: null });
  });

  it('a change in any one field of an element reaches the service worker after a full re-walk (new, otherwise equal objects)', () => {
    // Every field but `ref` (the identity) and `order` (sent apart).
    const fields = ELEMENT_FIELDS.filter((k) => k !== 'ref' && k !== 'order');
    expect(Object.keys(OTHER_ELEMENT_FIELDS).sort()).toEqual([...ELEMENT_FIELDS].sort());
    for (const field of fields) {
      const encoder = new DeltaEncoder();
      encoder.encode(snap(ten()));
      const next: SnapshotElement[] = ten();
      next[4] = { ...next[4]!, [field]: OTHER_ELEMENT_FIELDS[field] } as SnapshotElement;
      const reply = encoder.encode(snap(next), { documentToken: 'doc-1', seq: 1 });
      expect(roundTrip(snap(ten()), reply), field).toEqual(JSON.parse(JSON.stringify(snap(next))));
    }
  });

  it("a change inside one of issue 26's fields (the cover's name, a shape's size, a bound) is a patch of that field alone", () => {
    const withFields = (cover: string, size: 'small' | 'large', max: number): SnapshotElement[] =>
      ten().map((e, i) => (i === 2 ? { ...e, visibility: 'covered', coveredBy: { role: 'dialog', name: cover, ref: 'e9' }, shape: { kind: 'circle', fill: 'red', size }, range: { min: 0, max } } : e));
    const encoder = new DeltaEncoder();
    encoder.encode(snap(withFields('Cookies', 'large', 10)));
    // New, equal objects (a full re-walk): nothing to send.
    const same = encoder.encode(snap(withFields('Cookies', 'large', 10)), { documentToken: 'doc-1', seq: 1 });
    expect(same.kind === 'delta' && same.delta.patches).toBeUndefined();
    const next = withFields('Cookie consent', 'small', 20);
    const reply = encoder.encode(snap(next), { documentToken: 'doc-1', seq: 2 });
    if (reply.kind !== 'delta') throw new Error('expected a delta');
    expect(reply.delta.patches).toEqual([{ ref: 'e3', coveredBy: next[2]!.coveredBy, shape: next[2]!.shape, range: next[2]!.range }]);
    expect(roundTrip(snap(withFields('Cookies', 'large', 10)), reply)).toEqual(JSON.parse(JSON.stringify(snap(next))));
    // The cover gone: the field is removed.
    expect(diffElement(next[2]!, { ...next[2]!, visibility: 'visible', coveredBy: undefined })).toEqual({ ref: 'e3', visibility: 'visible', coveredBy: null });
  });

  it("finds each element's old self by ref when the list shifted (positions no longer match)", () => {
    const encoder = new DeltaEncoder();
    const a = ten();
    encoder.encode(snap(a));
    // One element inserted at the front: every other element sits one place later, unchanged but e7.
    const shifted = [el(20), ...a.slice(0, 6), { ...a[6]!, name: 'Seven' }, ...a.slice(7)];
    const reply = encoder.encode(snap(shifted), { documentToken: 'doc-1', seq: 1 });
    if (reply.kind !== 'delta') throw new Error('expected a delta');
    expect(reply.delta.changed.map((e) => e.ref)).toEqual(['e20']);
    expect(reply.delta.patches).toEqual([{ ref: 'e7', name: 'Seven' }]);
    expect(reply.delta.elementRefs).toEqual(shifted.map((e) => e.ref));
    expect(roundTrip(snap(ten()), reply)).toEqual(JSON.parse(JSON.stringify(snap(shifted))));
  });

  it('leaves out the ref order, the order numbers and the texts when they did not change', () => {
    const encoder = new DeltaEncoder();
    const elements = ten();
    encoder.encode(snap(elements));
    const same = encoder.encode(snap(elements), { documentToken: 'doc-1', seq: 1 });
    expect(same).toMatchObject({ kind: 'delta', delta: { changed: [] } });
    if (same.kind !== 'delta') return;
    expect(same.delta.patches).toBeUndefined();
    expect(same.delta.elementRefs).toBeUndefined();
    expect(same.delta.elementOrders).toBeUndefined();
    expect(same.delta.texts).toBeUndefined();
    const base = snap(ten());
    expect(roundTrip(base, same)).toEqual(base);

    // One text of many changed: runs of the others around that one. All of them changed: the whole list.
    const many = (label: string) => Array.from({ length: 8 }, (_, i) => ({ text: i === 3 ? label : `Cell ${i}`, role: 'cell', order: 20 + i }));
    const withTexts = (label: string) => ({ ...snap(elements), texts: many(label) });
    encoder.encode(withTexts('Active'), { documentToken: 'doc-1', seq: 2 });
    const third = encoder.encode(withTexts('Suspended'), { documentToken: 'doc-1', seq: 3 });
    expect(third.kind === 'delta' && third.delta.textPieces).toEqual([[0, 3, 0], { text: 'Suspended', role: 'cell', order: 23 }, [4, 4, 0]]);
    expect(third.kind === 'delta' && third.delta.texts).toBeUndefined();
    expect(roundTrip(withTexts('Active'), third)!.texts).toEqual(many('Suspended'));
    const retitled = snap(elements);
    retitled.texts = [{ text: 'Team (live)', role: 'heading', order: 0 }];
    const fourth = encoder.encode(retitled, { documentToken: 'doc-1', seq: 4 });
    expect(fourth.kind === 'delta' && fourth.delta.texts).toEqual(retitled.texts);
  });

  it('leaves out forms, tables and the other lists when they are as before, also when the page reused and changed the same object', () => {
    const encoder = new DeltaEncoder();
    const table = { ref: 't1', headers: ['Name'], rows: [['Ada']], rowCount: 1 };
    const page = () => ({
      ...snap(ten()),
      forms: [{ ref: 'f1', fieldRefs: ['e1'] }],
      structuredData: [{ kind: 'json-ld' as const, data: { '@type': 'Dataset' } }],
      tables: [table],
      containers: [{ ref: 't1', role: 'table', rows: 1 }],
    });
    const first = page();
    encoder.encode(first);
    const second = encoder.encode(page(), { documentToken: 'doc-1', seq: 1 });
    if (second.kind !== 'delta') throw new Error('expected a delta');
    expect(second.delta.same).toEqual(['forms', 'structuredData', 'canvases', 'tables', 'containers']);
    for (const key of ['forms', 'structuredData', 'canvases', 'tables', 'containers'] as const) expect(second.delta).not.toHaveProperty(key);
    expect(roundTrip(first, second)).toEqual(JSON.parse(JSON.stringify(page())));
    // The same table object, its rows changed in place: it travels again.
    table.rows[0]![0] = 'Grace';
    const third = encoder.encode(page(), { documentToken: 'doc-1', seq: 2 });
    if (third.kind !== 'delta') throw new Error('expected a delta');
    expect(third.delta.same).toEqual(['forms', 'structuredData', 'canvases', 'containers']);
    expect(third.delta.tables).toEqual([{ ref: 't1', headers: ['Name'], rows: [['Grace']], rowCount: 1 }]);
    expect(roundTrip(first, third)!.tables).toEqual(third.delta.tables);
    // Tables gone: absent from the delta and not said to be the same, so gone on the other side too.
    const fourth = encoder.encode({ ...page(), tables: undefined }, { documentToken: 'doc-1', seq: 3 });
    if (fourth.kind !== 'delta') throw new Error('expected a delta');
    expect(fourth.delta.same).not.toContain('tables');
    expect(roundTrip(first, fourth)).not.toHaveProperty('tables');

    // A delta that sends a list and says it is the base's, or that has a list neither way, does not fit.
    const base = first;
    const byRef = new Map(base.elements.map((e) => [e.ref, e]));
    const { elements: _e, texts: _t, forms, ...rest } = base;
    expect(applyDelta(base, byRef, { ...rest, forms, changed: [], same: ['forms'] })).toBeUndefined();
    expect(applyDelta(base, byRef, { ...rest, changed: [] })).toBeUndefined();
    expect(applyDelta(base, byRef, { ...rest, changed: [], same: ['forms'] })).toMatchObject({ forms: base.forms });
  });

  it('sends order numbers moved alike (a text inserted above) as runs of shifts', () => {
    const encoder = new DeltaEncoder();
    encoder.encode(snap(ten()));
    const later = ten().map((e) => ({ ...e, order: e.order! + 1 }));
    const reply = encoder.encode(snap(later), { documentToken: 'doc-1', seq: 1 });
    if (reply.kind !== 'delta') throw new Error('expected a delta');
    expect(reply.delta.elementOrderShifts).toEqual([[0, 10, 1]]);
    expect(reply.delta.elementOrders).toBeUndefined();
    expect(roundTrip(snap(ten()), reply)).toEqual(JSON.parse(JSON.stringify(snap(later))));
    const base = snap(ten());
    const byRef = new Map(base.elements.map((e) => [e.ref, e]));
    const { elements: _e, texts: _t, ...rest } = base;
    expect(applyDelta(base, byRef, { ...rest, changed: [], elementOrderShifts: [[5, 6, 1]] })).toBeUndefined();
    expect(applyDelta(base, byRef, { ...rest, changed: [], elementOrderShifts: [[0, 1, -5]] })).toBeUndefined();
    expect(applyDelta(base, byRef, { ...rest, changed: [], elementOrderShifts: [[0, 1, 1]], elementRefs: base.elements.map((e) => e.ref) })).toBeUndefined();
  });

  it('answers in full when the caller holds another sequence or another document', () => {
    const encoder = new DeltaEncoder();
    encoder.encode(snap([el(1), el(2)]));
    expect(encoder.encode(snap([el(1), el(2)]), { documentToken: 'doc-1', seq: 7 }).kind).toBe('full');
    expect(encoder.encode(snap([el(1)]), { documentToken: 'doc-2', seq: 2 }).kind).toBe('full');
    expect(encoder.encode(snap([el(1)], 'doc-3'), { documentToken: 'doc-2', seq: 3 }).kind).toBe('full');
  });

  it('refuses deltas that do not fit their base', () => {
    const base = snap([el(1), el(2)]);
    const byRef = new Map(base.elements.map((e) => [e.ref, e]));
    const { elements: _e, texts: _t, ...rest } = base;
    const delta = (refs: string[], extra: Partial<SnapshotDelta> = {}): SnapshotDelta => ({ ...rest, elementRefs: refs, elementOrders: refs.map((_, i) => i), changed: [], ...extra });
    expect(applyDelta(base, byRef, delta(['e1', 'e9']))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1', 'e1']))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], { changed: [el(5)] }))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], { changed: [el(1)] }))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], { patches: [{ ref: 'e7', name: 'x' }] }))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], { documentToken: 'doc-2' }))).toBeUndefined();
    expect(applyDelta(base, byRef, { ...delta(['e1', 'e2']), elementOrders: [0] })).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e2', 'e1']))!.elements.map((e) => e.ref)).toEqual(['e2', 'e1']);
    // Moves only of boxed base elements, within the list, once each.
    const boxed = snap([{ ...el(1), box: { x: 0, y: 0, w: 5, h: 5 } }, el(2)]);
    const boxedByRef = new Map(boxed.elements.map((e) => [e.ref, e]));
    const moved = (moves: SnapshotDelta['moves'], extra: Partial<SnapshotDelta> = {}) => applyDelta(boxed, boxedByRef, { ...delta(['e1', 'e2'], extra), moves });
    expect(moved([[0, 1, 3, 4]])!.elements[0]!.box).toEqual({ x: 3, y: 4, w: 5, h: 5 });
    expect(boxed.elements[0]!.box).toEqual({ x: 0, y: 0, w: 5, h: 5 });
    expect(moved([[1, 1, 3, 4]])).toBeUndefined();
    expect(moved([[0, 3, 3, 4]])).toBeUndefined();
    expect(
      moved([
        [0, 1, 3, 4],
        [0, 1, 1, 1],
      ]),
    ).toBeUndefined();
    expect(moved([[0, 1, 3, 4]], { patches: [{ ref: 'e1', name: 'x' }] })).toBeUndefined();
    expect(moved([[0, 1, 3, 4, '0']])!.elements[0]!.box).toEqual({ x: 2, y: 3, w: 5, h: 5 });
    expect(moved([[0, 1, 3, 4, '44']])).toBeUndefined();
  });

  it('rejects patches with unknown fields or values that do not fit the element schema', () => {
    const bad = (patch: unknown) => ObserveReplyData.safeParse({ kind: 'delta', seq: 2, baseSeq: 1, digest: 1, delta: { ...snap([]), elements: undefined, changed: [], patches: [patch] } }).success;
    expect(bad({ ref: 'e1', name: 'ok' })).toBe(true);
    expect(bad({ ref: 'e1', onclick: 'alert(1)' })).toBe(false);
    expect(bad({ ref: 'e1', visibility: 'sort of' })).toBe(false);
    expect(bad({ ref: 'e1', role: null })).toBe(false);
  });
});

describe('observation service with deltas', () => {
  it('merges a fitting delta, and asks again (in full) when a delta does not fit', async () => {
    const replies: ObserveReplyData[] = [];
    const sent: unknown[] = [];
    const service = createObservationService(
      fakeFrames(async (_tab, _frame, message) => {
        sent.push(message);
        return { ok: true, data: JSON.stringify(replies.shift()) };
      }),
    );
    const first = snap([el(1), el(2)]);
    replies.push({ kind: 'full', seq: 1, snapshot: first });
    expect(await service.observeTab(3)).toEqual({ ok: true, data: first });

    const { elements: _e, texts: _t, ...rest } = first;
    const renamed = [
      { ...el(2), name: 'New name', order: 0 },
      { ...el(1), order: 1 },
    ];
    const digest = snapshotDigest({ elements: renamed, texts: first.texts });
    replies.push({ kind: 'delta', seq: 2, baseSeq: 1, digest, delta: { ...rest, elementRefs: ['e2', 'e1'], elementOrders: [0, 1], changed: [], patches: [{ ref: 'e2', name: 'New name' }] } });
    const second = await service.observeTab(3);
    expect(second.ok && second.data.elements.map((e) => `${e.ref}:${e.name}:${e.order}`)).toEqual(['e2:New name:0', 'e1:Button 1:1']);
    expect(second.ok && second.data.texts).toEqual(first.texts);

    // A delta that fits but rebuilds something other than what the page holds (its digest says
    // so): discarded, then everything is asked for.
    const truth = snap([
      { ...el(2), name: 'Other name', order: 0 },
      { ...el(1), order: 1 },
    ]);
    replies.push({ kind: 'delta', seq: 3, baseSeq: 2, digest: snapshotDigest(truth), delta: { ...rest, changed: [], patches: [{ ref: 'e2', name: 'Wrong name' }] } });
    replies.push({ kind: 'full', seq: 4, snapshot: truth });
    expect(await service.observeTab(3)).toEqual({ ok: true, data: truth });
    expect(sent.at(-1)).toEqual({ type: 'content/observe' });

    // A delta against a sequence we do not hold: discarded, then everything is asked for.
    replies.push({ kind: 'delta', seq: 9, baseSeq: 8, digest, delta: { ...rest, changed: [] } });
    const fresh = snap([el(7)]);
    replies.push({ kind: 'full', seq: 10, snapshot: fresh });
    expect(await service.observeTab(3)).toEqual({ ok: true, data: fresh });
    expect(sent.at(-1)).toEqual({ type: 'content/observe' });
  });
});

describe("checking the worker's copy against the page", () => {
  it("asks for the page's digest with every full observation and every tenth delta, and starts over when it disagrees", async () => {
    const page = snap([el(1), el(2)]);
    const { elements: _e, texts: _t, ...rest } = page;
    const sent: Array<Record<string, unknown>> = [];
    let digest = snapshotDigest(page);
    let seq = 0;
    const service = createObservationService(
      fakeFrames(async (_tab, _frame, message) => {
        const m = message as Record<string, unknown>;
        sent.push(m);
        seq++;
        if (!m.since) return { ok: true, data: JSON.stringify({ kind: 'full', seq, snapshot: page }) };
        const since = m.since as { seq: number };
        return { ok: true, data: JSON.stringify({ kind: 'delta', seq, baseSeq: since.seq, delta: { ...rest, changed: [] }, ...(m.verify ? { digest } : {}) }) };
      }),
    );
    await service.observeTab(1);
    for (let i = 0; i < 10; i++) expect(await service.observeTab(1)).toMatchObject({ ok: true });
    expect(sent.map((m) => m.verify === true)).toEqual([false, false, false, false, false, false, false, false, false, false, true]);
    await service.observeTab(1, { full: true });
    expect(sent.at(-1)).toMatchObject({ full: true, verify: true });

    // The page holds something else than the worker rebuilt: the copy is dropped and everything asked for.
    digest = (digest + 1) >>> 0;
    const count = sent.length;
    expect(await service.observeTab(1, { full: true })).toEqual({ ok: true, data: page });
    expect(sent.slice(count).map((m) => (m.since ? 'delta' : 'everything'))).toEqual(['delta', 'everything']);
  });
});
