import { describe, expect, it } from 'vitest';
import { createObservationService, type SendToFrame } from '../../../src/background/observation/service.ts';
import { PageSnapshotSchema } from '../../../src/protocol/messages.ts';
import { ContentRequestMessage, PanelMessage } from '../protocol/wire-schema.ts';
import { fakeFrames } from '../background/core/fake-frames.ts';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';

const snapshot = (): PageSnapshot => ({
  url: 'http://localhost:4102/shadow',
  title: 'Shadow DOM — Steward Lab',
  capturedAt: '2026-08-03T11:40:00.000Z',
  elements: [
    { ref: 'e1', role: 'button', name: 'Closed shadow action', states: [], visibility: 'visible', tag: 'button', scope: 'shadow-closed', box: { x: 1, y: 2, w: 30, h: 20 }, order: 0 },
    {
      ref: 'e2',
      role: 'combobox',
      name: 'Role',
      value: 'Admin',
      options: ['Viewer', 'Admin'],
      states: ['required'],
      visibility: 'hidden',
      tag: 'select',
      scope: 'document',
      container: { ref: 'e9', row: 1 },
      order: 1,
    },
  ],
  forms: [{ ref: 'e3', method: 'post', action: 'http://localhost:4102/x', fieldRefs: ['e2'], toolname: 'book' }],
  texts: [{ text: 'Shadow DOM', role: 'heading', level: 1, ref: 'e4', order: 2 }],
  structuredData: [{ kind: 'json-ld', type: 'Order', data: { '@type': 'Order', orderNumber: 'ORD-1' } }],
  canvases: [{ ref: 'e5', box: { x: 0, y: 0, w: 10, h: 10 }, hasTextEquivalent: false, pixelHash: 'px-00000000' }],
  tables: [{ ref: 'e9', headers: ['Item'], rows: [['Mug']] }],
  stats: { nodes: 40, interactive: 2, hidden: 1, iframesSkipped: 1, shadowRoots: 3 },
  blindSpots: ['cross_origin_iframe'],
  containers: [{ ref: 'e9', role: 'table', rows: 1, columns: ['Item'] }],
  documentToken: 'b7c1e8a2-1111-4222-8333-944455556666',
  viewport: { w: 1280, h: 720, scrollX: 0, scrollY: 0, pageW: 1280, pageH: 900 },
  timing: { mode: 'full', captureMs: 12.5, updateMs: 9.1, layoutMs: 0.2, dirtyRoots: 1, recomputed: 2 },
});

describe('PageSnapshotSchema', () => {
  it('accepts what the observer produces', () => {
    expect(PageSnapshotSchema.safeParse(snapshot()).success).toBe(true);
  });

  it('rejects refs that are not refs, unknown visibility, and oversized lists', () => {
    const badRef = snapshot();
    badRef.elements[0]!.ref = 'e1"><script>';
    expect(PageSnapshotSchema.safeParse(badRef).success).toBe(false);
    const badVisibility = snapshot() as unknown as { elements: Array<{ visibility: string }> };
    badVisibility.elements[0]!.visibility = 'kinda';
    expect(PageSnapshotSchema.safeParse(badVisibility).success).toBe(false);
    const huge = snapshot();
    huge.blindSpots = Array.from({ length: 500 }, (_, i) => `spot_${i}`);
    expect(PageSnapshotSchema.safeParse(huge).success).toBe(false);
  });
});

describe('observation messages', () => {
  it('parses content/observe and content/query, and refuses unknown query keys or limits', () => {
    expect(ContentRequestMessage.safeParse({ type: 'content/observe', full: true }).success).toBe(true);
    expect(ContentRequestMessage.safeParse({ type: 'content/query', query: { refs: ['e1'], role: 'button' } }).success).toBe(true);
    expect(ContentRequestMessage.safeParse({ type: 'content/query', query: { selector: '#x' } }).success).toBe(false);
    expect(ContentRequestMessage.safeParse({ type: 'content/query', query: { limit: 10_000 } }).success).toBe(false);
    expect(PanelMessage.safeParse({ type: 'panel/snapshot-tab', tabId: 3 }).success).toBe(true);
    expect(PanelMessage.safeParse({ type: 'panel/query-tab', tabId: 3, query: { name: 'Pay' } }).success).toBe(true);
  });
});

describe('createObservationService', () => {
  const sent: Array<{ tabId: number; frameId: number; message: unknown }> = [];
  const replying = (reply: unknown): SendToFrame =>
    fakeFrames(async (tabId, frameId, message) => {
      sent.push({ tabId, frameId, message });
      return reply;
    });

  it('asks the top frame and returns the validated snapshot', async () => {
    sent.length = 0;
    const service = createObservationService(replying({ ok: true, data: JSON.stringify({ kind: 'full', seq: 1, snapshot: snapshot() }) }));
    const r = await service.observeTab(7, { full: true });
    expect(r).toEqual({ ok: true, data: snapshot() });
    expect(sent).toEqual([{ tabId: 7, frameId: 0, message: { type: 'content/observe', full: true } }]);
    // Next time it says which snapshot it holds, so the page may answer with a delta.
    await service.observeTab(7);
    expect(sent[1]!.message).toEqual({ type: 'content/observe', since: { documentToken: snapshot().documentToken, seq: 1 } });
  });

  it('passes on the page’s own machine-readable error', async () => {
    const error = { code: 'DOCUMENT_NOT_READY', message: 'no root yet', retryable: true };
    expect(await createObservationService(replying({ ok: false, error })).observeTab(1)).toEqual({ ok: false, error });
  });

  it('turns an unreachable page, a silent page and a malformed answer into clear errors', async () => {
    const unreachable = createObservationService(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    expect(await unreachable.observeTab(1)).toMatchObject({ ok: false, error: { code: 'NO_CONTENT_SCRIPT', retryable: true } });
    expect(await createObservationService(replying(undefined)).observeTab(1)).toMatchObject({ ok: false, error: { code: 'NO_CONTENT_SCRIPT' } });
    const forged = { ok: true, data: JSON.stringify({ kind: 'full', seq: 1, snapshot: { ...snapshot(), elements: [{ ref: 'not a ref!', role: 'button' }] } }) };
    expect(await createObservationService(replying(forged)).observeTab(1)).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY', retryable: false } });
    // The snapshot travels as JSON text: text that is not JSON, or an object where the text belongs, is refused too.
    expect(await createObservationService(replying({ ok: true, data: '{"kind": "full", ' })).observeTab(1)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REPLY', message: "The page's answer is not JSON." },
    });
    expect(await createObservationService(replying({ ok: true, data: { kind: 'full', seq: 1, snapshot: snapshot() } })).observeTab(1)).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
  });

  it('queries with the document token so refs of another document are not resolved', async () => {
    sent.length = 0;
    const data = { documentToken: 't', elements: [], texts: [], total: 0, missing: ['e4'] };
    const r = await createObservationService(replying({ ok: true, data })).queryTab(2, { refs: ['e4'] }, 't');
    expect(r).toEqual({ ok: true, data });
    expect(sent[0]).toEqual({ tabId: 2, frameId: 0, message: { type: 'content/query', query: { refs: ['e4'] }, documentToken: 't' } });
  });
});
