import { describe, expect, it } from 'vitest';
import { listenForNetworkRecords, NetworkBuffer } from '../../../src/content/main/network-buffer.ts';
import { boundJson, isJsonContentType, redactUrl } from '../../../src/content/main/network-bounds.ts';
import { expectValid, fact, fuse } from './fixtures/fusion-helpers.ts';
import { shopOrderSnapshot } from './fixtures/shop-order-snapshot.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const MAX_JSON_CHARS = 64 * 1024;

const ORIGIN = 'http://127.0.0.1:41873';
const wire = (over: Record<string, unknown> = {}) => ({ url: `${ORIGIN}/api/orders/ORD-1024`, method: 'GET', status: 200, json: { id: 'ORD-1024', status: 'paid' }, truncated: false, ...over });
const buffer = (capacity?: number) => new NetworkBuffer({ origin: ORIGIN, capacity, now: () => '2026-08-03T11:40:00.000Z' });

describe('NetworkBuffer (isolated world)', () => {
  it('stores valid network events as NetworkRecords, stamped by the isolated world', () => {
    const b = buffer();
    expect(b.acceptEvent({ type: 'network', record: wire() })).toEqual({ ...wire(), at: '2026-08-03T11:40:00.000Z' });
    expect(b.records()).toHaveLength(1);
  });

  it('ignores other bridge traffic and refuses malformed or foreign records', () => {
    const b = buffer();
    expect(b.acceptEvent({ type: 'changed' })).toBeUndefined();
    expect(b.acceptEvent({ id: 1, reply: { ok: true, data: { tools: [] } } })).toBeUndefined();
    expect(b.acceptEvent('{"type":"network"}')).toBeUndefined();
    for (const bad of [
      wire({ url: 'https://evil.test/api/orders/ORD-1024' }),
      wire({ url: 'javascript:alert(1)' }),
      wire({ url: `${ORIGIN}/${'x'.repeat(5000)}` }),
      wire({ status: '200' }),
      wire({ truncated: 'no' }),
      { url: `${ORIGIN}/api` },
      null,
    ]) {
      expect(b.accept(bad)).toBeUndefined();
    }
    expect(b.rejected).toBe(7);
    expect(b.records()).toEqual([]);
  });

  it('bounds and redacts again: the main world is the page’s and may have been tampered with', () => {
    const b = buffer();
    const r = b.accept(
      wire({
        url: `${ORIGIN}/api/me?api_key=K-SECRET#x`,
        method: 'get; drop table',
        json: { session_id: 'S-SECRET', profile: { name: 'Jo', Authorization: 'Bearer B-SECRET' }, list: Array.from({ length: 1000 }, (_, i) => i), long: 'y'.repeat(10_000) },
      }),
    )!;
    expect(JSON.stringify(r)).not.toMatch(/SECRET/);
    expect(r.url).toBe(`${ORIGIN}/api/me?api_key=redacted`);
    expect(r.method).toBe('GET');
    expect(r.truncated).toBe(true);
    expect((r.json as { list: unknown[] }).list).toHaveLength(100);
    expect(JSON.stringify(r.json).length).toBeLessThanOrEqual(MAX_JSON_CHARS);
  });

  it('keeps only the last N, tells listeners, hands out copies, and clears on navigation', () => {
    const b = buffer(3);
    const heard: number[] = [];
    const stop = b.onRecord((r) => heard.push((r.json as { n: number }).n));
    for (let n = 1; n <= 5; n++) b.accept(wire({ json: { n } }));
    stop();
    b.accept(wire({ json: { n: 6 } }));
    expect(b.records().map((r) => (r.json as { n: number }).n)).toEqual([4, 5, 6]);
    expect(heard).toEqual([1, 2, 3, 4, 5]);
    b.records()[0]!.url = 'mutated';
    expect(b.records()[0]!.url).toBe(`${ORIGIN}/api/orders/ORD-1024`);
    b.clear();
    expect(b.records()).toEqual([]);
  });

  it('reads from the private port, and what it keeps feeds fusion', async () => {
    const b = buffer();
    const channel = new MessageChannel();
    listenForNetworkRecords(channel.port2, b);
    channel.port1.postMessage({ type: 'network', record: wire({ json: { id: 'ORD-1024', status: 'cancelled' } }) });
    channel.port1.postMessage({ type: 'network', record: wire({ url: 'https://elsewhere.test/api/orders/ORD-1024' }) });
    await new Promise((r) => setTimeout(r, 20));
    channel.port1.close();
    expect(b.records()).toHaveLength(1);
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot({ origin: ORIGIN }), network: b.records() }));
    expect(fact(s, 'state')?.disagreements).toEqual([{ source: 'network', value: 'cancelled' }]);
    expect(s.conflicts).toContain('dom_state_disagrees_with_network');
  });
});

describe('network bounds', () => {
  it('caps depth, arrays, strings and total work; drops what is not JSON', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { d: deep };
    const r = boundJson({ deep, fn: () => 1, n: Number.NaN, big: 10n as unknown, ok: [1, 'a', null, true] });
    expect(r.truncated).toBe(true);
    expect(JSON.stringify(r.json)).not.toContain('bottom');
    expect(r.json).toMatchObject({ n: null, ok: [1, 'a', null, true] });
    expect(r.json).not.toHaveProperty('fn');
    const wide = boundJson(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, Array.from({ length: 100 }, () => 'z'.repeat(100))])));
    expect(wide).toEqual({ json: null, truncated: true }); // still over the size limit after pruning
  });

  it('redacts URLs and recognises JSON content types', () => {
    expect(redactUrl('https://u:p@a.test/x?password=1&q=2#h')).toBe('https://a.test/x?password=redacted&q=2');
    expect(redactUrl('/rel', 'https://a.test/base/')).toBe('https://a.test/rel');
    expect(redactUrl('data:text/plain,hi')).toBeUndefined();
    expect(['application/json', 'application/ld+json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json', 'text/json'].every(isJsonContentType)).toBe(true);
    expect(['text/html', 'application/jsonp', 'application/octet-stream', '', null].some(isJsonContentType)).toBe(false);
  });
});
