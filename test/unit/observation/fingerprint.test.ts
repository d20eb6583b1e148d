import { describe, expect, it } from 'vitest';
import { fnv1a64 } from '../../../src/base/hash.ts';
import { fingerprint } from '../../../src/observation/fusion/fingerprint.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';
import { blankSnapshot, fuse } from './fixtures/fusion-helpers.ts';
import { DEFAULT_ITEMS, shopApiRecord, shopOrderSnapshot, type ShopPageOptions } from './fixtures/shop-order-snapshot.ts';

const version = (input: Parameters<typeof fuse>[0]) => fuse(input).state_version;
const shop = (page: ShopPageOptions = {}, api: Parameters<typeof shopApiRecord>[0] = {}) =>
  version({ snapshot: shopOrderSnapshot(page), network: [shopApiRecord({ status: page.status, items: page.items, ...api })] });

describe('hash', () => {
  it('is FNV-1a 64 (published test vectors)', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('a fingerprint does not depend on the order its parts were listed in', () => {
    const a = fingerprint({ resource: { type: 'order', id: 'A' }, state: 'paid', actions: ['x', 'y'], fields: { total: [1, 2], item_count: [3] } });
    const b = fingerprint({ resource: { type: 'order', id: 'A' }, state: 'paid', actions: ['y', 'x', 'x'], fields: { item_count: [3], total: [2, 1, 1] } });
    expect(a).toBe(b);
    expect(a).toMatch(/^fp-[0-9a-f]{16}$/);
  });
});

describe('state_version ignores churn', () => {
  const base = shop();

  it('a ticking clock', () => {
    expect(shop({ clock: '11:40:01' })).toBe(base);
    expect(shop({ clock: '23:59:59' })).toBe(base);
  });

  it('a rotating promo banner', () => {
    expect(shop({ promo: 1 })).toBe(base);
    expect(shop({ promo: 2 })).toBe(base);
  });

  it('scrolling: every box moves and the lower controls go offscreen', () => {
    const scrolled = fuse({ snapshot: shopOrderSnapshot({ scrollY: 600 }), network: [shopApiRecord()] });
    expect(scrolled.elements?.some((e) => e.visibility === 'offscreen')).toBe(true); // the fixture really scrolled
    expect(scrolled.state_version).toBe(base);
  });

  it('focus moving between controls', () => {
    expect(shop({ focused: 'e22' })).toBe(base);
    expect(shop({ focused: 'eq1' })).toBe(base);
  });

  it('capture time, response time, and the page polling its API again with the same answer', () => {
    const snapshot = shopOrderSnapshot({ capturedAt: '2026-08-03T12:00:00.000Z' });
    const polls = [shopApiRecord({ at: '2026-08-03T11:59:00Z' }), shopApiRecord({ at: '2026-08-03T11:59:30Z' })];
    expect(version({ snapshot, network: polls, observedAt: '2026-08-03T12:00:01Z' })).toBe(base);
  });

  it('the page’s own live line going from "checking…" to the status it already shows', () => {
    expect(shop({ liveStatus: 'Live status: checking…' })).toBe(base);
  });

  it('a user typing a new quantity before submitting it (a form edit is not a change of the order)', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.elements.find((e) => e.ref === 'eq0')!.value = '7';
    expect(version({ snapshot, network: [shopApiRecord()] })).toBe(base);
  });

  it('a new ad link appearing (links are navigation, not resource actions)', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.elements.push({ ref: 'ad1', role: 'link', name: 'Shop the summer sale', tag: 'a', href: 'https://ads.example/x', states: [], visibility: 'visible', scope: 'document' });
    expect(version({ snapshot, network: [shopApiRecord()] })).toBe(base);
  });
});

describe('state_version changes with every real change', () => {
  // The canvas hash is held fixed so that each change must be seen through the page's text, data and API.
  const base = shop({ canvasHash: 'px-fixed' });
  const shopFixed = (page: ShopPageOptions = {}, api: Parameters<typeof shopApiRecord>[0] = {}) => shop({ canvasHash: 'px-fixed', ...page }, api);
  const more = (sku: string, quantity: number) => DEFAULT_ITEMS.map((i) => (i.sku === sku ? { ...i, quantity } : i));

  it('the order is cancelled (or paid, or shipped)', () => {
    const versions = new Set([base, shopFixed({ status: 'cancelled' }), shopFixed({ status: 'paid' }), shopFixed({ status: 'shipped' })]);
    expect(versions.size).toBe(4);
  });

  it('a quantity changes', () => {
    expect(shopFixed({ items: more('FLT-100', 3) })).not.toBe(base);
    // Even when one goes up and another down by the same amount (total quantity unchanged).
    const swapped = DEFAULT_ITEMS.map((i) => ({ ...i, quantity: i.sku === 'FLT-100' ? 1 : i.sku === 'GRD-HAND-02' ? 2 : i.quantity }));
    expect(shopFixed({ items: swapped })).not.toBe(base);
  });

  it('an item is added', () => {
    expect(shopFixed({ items: [...DEFAULT_ITEMS, { sku: 'KTL-GOOSE', name: 'Gooseneck kettle', quantity: 1, unitCents: 3900 }] })).not.toBe(base);
  });

  it('one product replaced by another at the same quantity', () => {
    const replaced = DEFAULT_ITEMS.map((i) => (i.sku === 'CER-DRIP-01' ? { sku: 'MUG-STN-BL', name: 'Stoneware mug, blue glaze', quantity: 1, unitCents: 1200 } : i));
    expect(shopFixed({ items: replaced })).not.toBe(base);
    // A shipped order has no quantity inputs: only the line items themselves can tell.
    expect(shopFixed({ status: 'shipped', items: replaced })).not.toBe(shopFixed({ status: 'shipped' }));
  });

  it('the API reports another status than the page (only the network changed)', () => {
    expect(shopFixed({}, { status: 'cancelled' })).not.toBe(base);
  });

  it('the total changes, seen only in the network response', () => {
    const page = blankSnapshot({ url: 'https://shop.test/orders/A-1', texts: [{ text: 'Order A-1', role: 'heading', level: 1 }, { text: 'Status: Paid' }] });
    const api = (total: number) => [{ url: 'https://shop.test/api/orders/A-1', method: 'GET', status: 200, json: { id: 'A-1', status: 'paid', total }, truncated: false, at: 't' }];
    expect(version({ snapshot: page, network: api(95.63) })).not.toBe(version({ snapshot: page, network: api(101.2) }));
  });

  it('the total changes, seen only in the canvas that draws it', () => {
    expect(shopFixed({ canvasHash: 'px-other-total' })).not.toBe(base);
  });

  it('a control appears, disappears or is disabled', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.elements.find((e) => e.ref === 'e22')!.states.push('disabled');
    expect(version({ snapshot, network: [shopApiRecord()] })).not.toBe(shop());
    const removed = shopOrderSnapshot();
    removed.elements = removed.elements.filter((e) => e.ref !== 'e20');
    expect(version({ snapshot: removed, network: [shopApiRecord()] })).not.toBe(shop());
  });

  it('a WebMCP tool is registered, or changes its schema', () => {
    const tool: ToolDescriptor = { name: 'cancel_order', description: 'Cancel', inputSchema: { type: 'object' }, annotations: { consequentialHint: true }, kind: 'imperative' };
    const withTool = version({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()], tools: [tool] });
    expect(withTool).not.toBe(shop());
    const changed = version({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()], tools: [{ ...tool, inputSchema: { type: 'object', required: ['reason'] } }] });
    expect(changed).not.toBe(withTool);
  });

  it('another order with the same content is another version', () => {
    expect(shop({ id: 'ORD-1025' })).not.toBe(base);
  });
});
