import { describe, expect, it } from 'vitest';
import { applyDelta } from '../../../src/background/observation-delta.ts';
import { createObservationService } from '../../../src/background/observation-service.ts';
import { DeltaEncoder } from '../../../src/content/observe/snapshot-delta.ts';
import type { ObserveReplyData } from '../../../src/protocol/messages.ts';
import type { PageSnapshot, SnapshotElement } from '../../../src/observation/snapshot.ts';

const el = (n: number, name = `Button ${n}`): SnapshotElement => ({ ref: `e${n}`, role: 'button', name, states: [], visibility: 'visible', tag: 'button', scope: 'document', order: n });

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

describe('DeltaEncoder + applyDelta', () => {
  it('sends only changed elements (by identity) and rebuilds the same snapshot on the other side', () => {
    const encoder = new DeltaEncoder();
    const ten = () => Array.from({ length: 10 }, (_, i) => el(i + 1));
    const a = ten();
    const first = encoder.encode(snap(a));
    expect(first).toMatchObject({ kind: 'full', seq: 1 });

    // e2 changed (a new object), e11 is new, e1 moved (same object, new order), e3 is gone.
    const e1 = a[0]!;
    e1.order = 50;
    const next = snap([el(11), el(2, 'Renamed'), ...a.slice(3), e1]);
    const second = encoder.encode(next, { documentToken: 'doc-1', seq: 1 });
    expect(second.kind).toBe('delta');
    if (second.kind !== 'delta') return;
    expect(second.delta.changed.map((e) => e.ref)).toEqual(['e11', 'e2']);
    expect(second.delta.elementRefs).toEqual(['e11', 'e2', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e1']);

    const base = snap(ten());
    const merged = applyDelta(base, new Map(base.elements.map((e) => [e.ref, e])), second.delta);
    expect(merged).toEqual(JSON.parse(JSON.stringify(next)));
    // The base is left as it was.
    expect(base.elements[0]!.order).toBe(1);
  });

  it('answers in full when the caller holds another sequence, another document, or most elements changed', () => {
    const encoder = new DeltaEncoder();
    encoder.encode(snap([el(1), el(2)]));
    expect(encoder.encode(snap([el(1), el(2)]), { documentToken: 'doc-1', seq: 7 }).kind).toBe('full');
    expect(encoder.encode(snap([el(1)]), { documentToken: 'doc-2', seq: 2 }).kind).toBe('full');
    expect(encoder.encode(snap([el(8), el(9)]), { documentToken: 'doc-1', seq: 3 }).kind).toBe('full');
  });

  it('refuses deltas that do not fit their base', () => {
    const base = snap([el(1), el(2)]);
    const byRef = new Map(base.elements.map((e) => [e.ref, e]));
    const { elements: _e, ...rest } = base;
    const delta = (refs: string[], changed: SnapshotElement[] = [], token = 'doc-1') => ({ ...rest, documentToken: token, elementRefs: refs, elementOrders: refs.map((_, i) => i), changed });
    expect(applyDelta(base, byRef, delta(['e1', 'e9']))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1', 'e1']))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], [el(5)]))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e1'], [], 'doc-2'))).toBeUndefined();
    expect(applyDelta(base, byRef, delta(['e2', 'e1']))!.elements.map((e) => e.ref)).toEqual(['e2', 'e1']);
  });
});

describe('observation service with deltas', () => {
  it('merges a fitting delta, and asks again in full when a delta does not fit', async () => {
    const replies: ObserveReplyData[] = [];
    const sent: unknown[] = [];
    const service = createObservationService(async (_tab, _frame, message) => {
      sent.push(message);
      return { ok: true, data: replies.shift() };
    });
    const first = snap([el(1), el(2)]);
    replies.push({ kind: 'full', seq: 1, snapshot: first });
    expect(await service.observeTab(3)).toEqual({ ok: true, data: first });

    const { elements: _e, ...rest } = first;
    replies.push({ kind: 'delta', seq: 2, baseSeq: 1, delta: { ...rest, elementRefs: ['e2', 'e1'], elementOrders: [0, 1], changed: [el(2, 'New name')] } });
    const second = await service.observeTab(3);
    expect(second.ok && second.data.elements.map((e) => `${e.ref}:${e.name}:${e.order}`)).toEqual(['e2:New name:0', 'e1:Button 1:1']);

    // A delta against a sequence we do not hold: discarded, then a full snapshot is asked for.
    replies.push({ kind: 'delta', seq: 9, baseSeq: 8, delta: { ...rest, elementRefs: ['e1'], elementOrders: [0], changed: [] } });
    const fresh = snap([el(7)]);
    replies.push({ kind: 'full', seq: 10, snapshot: fresh });
    expect(await service.observeTab(3)).toEqual({ ok: true, data: fresh });
    expect(sent.at(-1)).toEqual({ type: 'content/observe' });
  });
});
