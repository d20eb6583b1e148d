import { describe, expect, it } from 'vitest';
import { fuseWithDetail } from '../../../src/observation/fusion/index.ts';
import { canonicalState } from '../../../src/observation/read/states.ts';
import { toSnakeCase } from '../../../src/observation/read/normalize.ts';
import { resolveField } from '../../../src/observation/fusion/resolve.ts';
import { parseDate, parseMoney, resourcesInPath } from '../../../src/observation/read/values.ts';
import type { Claim } from '../../../src/observation/read/claims.ts';
import type { NetworkRecord, SnapshotText } from '../../../src/protocol/snapshot.ts';
import { blankSnapshot, expectValid, fact, fuse } from './fixtures/fusion-helpers.ts';
import { shopOrderSnapshot } from './fixtures/shop-order-snapshot.ts';

const ORDER_URL = 'https://shop.test/orders/A-77';
const heading: SnapshotText = { text: 'Order A-77', role: 'heading', level: 1, ref: 'h1' };
const page = (texts: SnapshotText[], extra: Parameters<typeof blankSnapshot>[0] = {}) => blankSnapshot({ url: ORDER_URL, texts: [heading, ...texts], ...extra });
const json = (value: unknown, url = 'https://shop.test/api/orders/A-77', status = 200): NetworkRecord => ({ url, method: 'GET', status, json: value, truncated: false, at: '2026-08-03T11:40:00Z' });
const claimsOf = (snapshot: ReturnType<typeof page>, network: NetworkRecord[] = []) => fuseWithDetail({ snapshot, network }).claims;

describe('normalisation', () => {
  it('turns page wording and schema.org values into snake_case states', () => {
    expect(toSnakeCase('Awaiting payment')).toBe('awaiting_payment');
    expect(toSnakeCase('OrderPaymentDue')).toBe('order_payment_due');
    expect(toSnakeCase('  Ready for pick-up! ')).toBe('ready_for_pick_up');
    expect(toSnakeCase('Annulée')).toBe('annulee');
    expect(toSnakeCase('404 error')).toBe('n_404_error');
    expect(toSnakeCase('—')).toBeUndefined();
    expect(canonicalState('Awaiting payment')).toBe('awaiting_payment');
    expect(canonicalState('https://schema.org/OrderPaymentDue')).toBe('awaiting_payment');
    expect(canonicalState('OrderInTransit')).toBe('shipped');
    expect(canonicalState('Canceled')).toBe('cancelled');
    expect(canonicalState('PAYMENT_DUE')).toBe('awaiting_payment');
  });

  it('parses money and dates the way pages print them', () => {
    expect(parseMoney('Total: $1,234.50')).toBe(1234.5);
    expect(parseMoney('95.63 EUR')).toBe(95.63);
    expect(parseMoney('no price')).toBeUndefined();
    expect(parseDate('Placed on July 28, 2026 by Jordan Lee')).toBe('2026-07-28');
    expect(parseDate('28 Jul 2026')).toBe('2026-07-28');
    expect(parseDate('2026-07-28T23:30:00-02:00')).toBe('2026-07-29');
    expect(parseDate('Time 12:34:56')).toBeUndefined();
  });

  it('reads resources from paths, outermost first', () => {
    expect(resourcesInPath('/orders/ORD-1024')).toEqual([{ type: 'order', id: 'ORD-1024' }]);
    expect(resourcesInPath('/api/v2/orders/ORD-1024/items/CER-1/quantity')).toEqual([
      { type: 'order', id: 'ORD-1024' },
      { type: 'item', id: 'CER-1' },
    ]);
    expect(resourcesInPath('/categories/42')).toEqual([{ type: 'category', id: '42' }]);
    expect(resourcesInPath('/orders/summary')).toEqual([]);
  });
});

describe('DOM text and accessibility', () => {
  it('reads "Status: X" as the DOM and a status region as accessibility', () => {
    const claims = claimsOf(page([{ text: 'Status: Awaiting payment' }, { text: 'Order status: Awaiting payment', role: 'status' }]));
    const state = claims.filter((c) => c.field === 'state');
    expect(state.map((c) => [c.source, c.value])).toEqual([
      ['accessibility', 'awaiting_payment'],
      ['dom', 'awaiting_payment'],
    ]);
  });

  it('pairs an explicit label with the next block, but never a column header with the first cell', () => {
    const claims = claimsOf(
      page([
        { text: 'Status', role: 'term' },
        { text: 'Shipped', role: 'definition' },
        { text: 'Total:' },
        { text: '$95.63' },
        { text: 'Status', role: 'columnheader' },
        { text: 'ORD-1025', role: 'cell' },
      ]),
    );
    const dom = new Set(claims.filter((c) => c.source === 'dom').map((c) => `${c.field}=${c.value}`));
    expect([...dom]).toEqual(['state=shipped', 'total=95.63']);
    expect(claims.find((c) => c.why.includes('labelled "Status: Shipped"'))).toBeDefined();
  });

  it('ignores placeholders: "Live status: checking…" is not a state', () => {
    const claims = claimsOf(page([{ text: 'Live status: checking…' }, { text: 'Status: Loading' }, { text: 'Status: 3 items' }]));
    expect(claims.filter((c) => c.field === 'state')).toEqual([]);
  });

  it('reads the badge beside the heading only when it is a known state word', () => {
    const known = claimsOf(page([{ text: 'Out for delivery' }]));
    expect(known.find((c) => c.field === 'state')).toMatchObject({ source: 'dom', value: 'out_for_delivery' });
    const unknown = claimsOf(page([{ text: 'Thank you for shopping' }]));
    expect(unknown.find((c) => c.field === 'state')).toBeUndefined();
  });

  it('a page repeating a label thousands of times costs a bounded number of claims', () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => ({ text: i % 2 ? 'Status: Shipped' : 'Shipped on July 1, 2026 — was shipped' }));
    const claims = claimsOf(page(texts));
    expect(claims.filter((c) => c.source === 'dom').length).toBeLessThanOrEqual(210);
    expect(claims.filter((c) => c.source === 'text').length).toBeLessThanOrEqual(210);
  });

  it('reads line items and the total from tables', () => {
    const claims = claimsOf(
      page([], {
        tables: [
          {
            headers: ['Product', 'Qty', 'Price'],
            rows: [
              ['Mug', '2', '$12.00'],
              ['Kettle', '1', '$39.00'],
              ['Total', '', '$63.00'],
            ],
          },
        ],
      }),
    );
    const dom = Object.fromEntries(claims.filter((c) => c.source === 'dom').map((c) => [c.field, c.value]));
    expect(dom).toMatchObject({ total: 63, item_count: 2, total_quantity: 3, line_quantities: '2,1' });
  });

  it('reads the same line items from the capture’s containers when it reports no tables', () => {
    const fromTables = fuse({ snapshot: shopOrderSnapshot() });
    const fromContainers = fuse({ snapshot: shopOrderSnapshot({ tableModel: 'containers' }) });
    expect(shopOrderSnapshot({ tableModel: 'containers' }).tables).toBeUndefined();
    for (const name of ['item_count', 'total_quantity', 'line_quantities', 'line_items']) {
      const { ref, ...rest } = fact(fromContainers, name)!;
      expect(rest).toEqual(fact(fromTables, name));
      expect(ref).toBe('t1'); // the fact points at the table it was read from
      expect(rest.sources).toContain('dom');
    }
    // A row whose cells do not line up with the columns is not guessed at: the table is incomplete.
    const ragged = shopOrderSnapshot({ tableModel: 'containers' });
    ragged.texts = ragged.texts.filter((t) => !(t.container?.row === 2 && t.text === '2'));
    expect(fuseWithDetail({ snapshot: ragged }).claims.filter((c) => c.source === 'dom' && c.field === 'item_count')).toEqual([]);
  });

  it('does not count lines of a table it saw only part of', () => {
    const claims = claimsOf(page([], { tables: [{ headers: ['Item', 'Quantity'], rows: [['Mug', '2']], rowCount: 40 }] }));
    expect(claims.find((c) => c.field === 'item_count')).toBeUndefined();
  });
});

describe('structured data', () => {
  it('reads schema.org Order from JSON-LD (with @graph) and microdata', () => {
    for (const block of [
      { kind: 'json-ld' as const, data: { '@graph': [{ '@type': 'WebPage' }, { '@type': 'Order', orderNumber: 'A-77', orderStatus: 'https://schema.org/OrderDelivered' }] } },
      { kind: 'microdata' as const, type: 'Order', data: { orderNumber: 'A-77', orderStatus: 'http://schema.org/OrderDelivered' } },
    ]) {
      const s = fuse({ snapshot: page([], { structuredData: [block] }) });
      expect(fact(s, 'state')).toMatchObject({ value: 'delivered', sources: ['structured_data'] });
    }
  });

  it('on a page listing several orders, only the one the page is about counts', () => {
    const s = fuse({
      snapshot: page([{ text: 'Paid' }], {
        structuredData: [
          { kind: 'json-ld', data: { '@type': 'Order', orderNumber: 'A-76', orderStatus: 'OrderCancelled' } },
          { kind: 'json-ld', data: { '@type': 'Order', orderNumber: 'A-77', orderStatus: 'OrderProcessing' } },
        ],
      }),
    });
    expect(s.state).toBe('paid');
    expect(s.conflicts.filter((c) => /disagree|inconsistent/.test(c))).toEqual([]);
  });
});

describe('network responses', () => {
  it('finds the resource inside a list response and reads cents as money', () => {
    const s = expectValid(
      fuse({
        snapshot: page([{ text: 'Total: $95.63' }]),
        network: [
          json(
            {
              orders: [
                { id: 'A-76', status: 'cancelled' },
                { id: 'A-77', status: 'shipped', total_cents: 9563 },
              ],
            },
            'https://shop.test/api/orders',
          ),
        ],
      }),
    );
    expect(fact(s, 'state')).toMatchObject({ value: 'shipped', sources: ['network'] });
    expect(fact(s, 'total')).toMatchObject({ value: 95.63, sources: ['dom', 'network'] });
    expect(s.conflicts).toEqual([]);
  });

  it('a total that differs between page and API is a conflict that costs confidence', () => {
    const agree = fuse({ snapshot: page([{ text: 'Status: Shipped' }, { text: 'Total: $95.63' }]), network: [json({ id: 'A-77', status: 'shipped', total: 95.63 })] });
    const differ = fuse({ snapshot: page([{ text: 'Status: Shipped' }, { text: 'Total: $95.63' }]), network: [json({ id: 'A-77', status: 'shipped', total: 99.99 })] });
    expect(differ.conflicts).toContain('dom_total_disagrees_with_network');
    expect(differ.confidence).toBeLessThan(agree.confidence);
  });

  it('after a single-page app acts, the newest response that states a field wins; older ones are history', () => {
    const s = fuse({
      snapshot: page([{ text: 'Status: Cancelled' }]),
      network: [
        json({ id: 'A-77', status: 'awaiting_payment', total_cents: 4200 }),
        { ...json({ order: { id: 'A-77', status: 'cancelled' } }, 'https://shop.test/api/orders/A-77/cancel'), method: 'POST' },
      ],
    });
    expect(fact(s, 'state')).toMatchObject({ value: 'cancelled', sources: ['dom', 'network'] });
    expect(fact(s, 'total')).toMatchObject({ value: 42, sources: ['network'] }); // only the older response said it
    expect(s.conflicts.filter((c) => c.includes('disagrees'))).toEqual([]);
  });

  it('uses the latest response per URL and ignores errors and other resources', () => {
    const s = fuse({
      snapshot: page([]),
      network: [
        json({ id: 'A-77', status: 'awaiting_payment' }),
        json({ id: 'A-77', status: 'paid' }),
        json({ error: 'nope', id: 'A-77', status: 'cancelled' }, 'https://shop.test/api/orders/A-77/refund', 500),
        json({ id: 'B-1', status: 'cancelled' }, 'https://shop.test/api/orders/B-1'),
      ],
    });
    expect(fact(s, 'state')).toMatchObject({ value: 'paid', sources: ['network'] });
    expect(fact(s, 'state')?.disagreements).toBeUndefined();
  });
});

describe('blind spots', () => {
  const page = (texts: SnapshotText[], extra: Parameters<typeof blankSnapshot>[0] = {}) => blankSnapshot({ url: ORDER_URL, texts: [heading, { text: 'Status: Shipped' }, ...texts], ...extra });
  const items = { tables: [{ headers: ['Item', 'Quantity'], rows: [['Mug', '2']] }] };
  const canvas = { ref: 'c1', box: { x: 0, y: 0, w: 300, h: 100 }, hasTextEquivalent: false, pixelHash: 'p1' };

  it('a total drawn only on a canvas is canvas_total_not_observed; without a canvas it is total_not_observed', () => {
    expect(fuse({ snapshot: page([], { ...items, canvases: [canvas] }) }).conflicts).toEqual(['canvas_total_not_observed']);
    expect(fuse({ snapshot: page([], items) }).conflicts).toEqual(['total_not_observed']);
  });

  it('a canvas with a text equivalent is read, not a blind spot', () => {
    const s = fuse({ snapshot: page([], { ...items, canvases: [{ ...canvas, hasTextEquivalent: true, label: 'Subtotal $24.00, Total $30.41' }] }) });
    expect(fact(s, 'total')).toMatchObject({ value: 30.41, sources: ['accessibility'], ref: 'c1' });
    expect(s.conflicts).toEqual([]);
  });

  it('an opaque canvas where no value is missing is still content Steward cannot see; tiny ones are decoration', () => {
    expect(fuse({ snapshot: page([], { canvases: [canvas] }) }).conflicts).toEqual(['canvas_content_not_observed']);
    expect(fuse({ snapshot: page([], { canvases: [{ ...canvas, box: { x: 0, y: 0, w: 16, h: 16 } }] }) }).conflicts).toEqual([]);
  });

  it('says when the canvas holding a missing value cannot even be read for change detection', () => {
    const s = fuse({ snapshot: page([], { ...items, canvases: [{ ...canvas, pixelHash: undefined, unreadable: true }] }) });
    expect(s.conflicts).toEqual(['canvas_total_not_observed', 'canvas_pixels_unreadable']);
    expect(s.evidence).not.toContain('canvas');
  });

  it('a blank screenshot over a non-empty DOM is screenshot_blank and halves confidence', () => {
    const snapshot = page([{ text: 'Status: Shipped' }]);
    const ok = fuse({ snapshot, screenshot: { width: 800, height: 600, blank: false } });
    const blank = fuse({ snapshot, screenshot: { width: 800, height: 600, blank: true } });
    expect(ok.conflicts).toEqual([]);
    expect(ok.evidence).toContain('screenshot');
    expect(blank.conflicts).toEqual(['screenshot_blank']);
    expect(blank.confidence).toBeLessThanOrEqual(ok.confidence / 2 + 0.01);
    // An empty page that paints nothing is not a contradiction.
    expect(fuse({ snapshot: blankSnapshot(), screenshot: { width: 800, height: 600, blank: true } }).conflicts).toEqual([]);
  });
});

describe('confidence', () => {
  const claim = (source: Claim['source'], value: string): Claim => ({ field: 'state', value, source, strength: 1, why: 'test' });

  it('rises with each independent source that agrees and falls with each that disagrees', () => {
    const one = resolveField('state', [claim('dom', 'paid')])!.fact.confidence;
    const two = resolveField('state', [claim('dom', 'paid'), claim('network', 'paid')])!.fact.confidence;
    const three = resolveField('state', [claim('dom', 'paid'), claim('network', 'paid'), claim('structured_data', 'paid')])!.fact.confidence;
    const contested = resolveField('state', [claim('dom', 'paid'), claim('structured_data', 'paid'), claim('network', 'cancelled')])!;
    expect(one).toBeLessThan(two);
    expect(two).toBeLessThan(three);
    expect(contested.fact.confidence).toBeLessThan(two);
    expect(contested.fact).toMatchObject({ value: 'paid', sources: ['dom', 'structured_data'], disagreements: [{ source: 'network', value: 'cancelled' }] });
    expect(contested.conflicts).toEqual(['dom_state_disagrees_with_network', 'structured_data_state_disagrees_with_network']);
  });

  it('the heavier side wins, and the conflict is named the same way whichever side that is', () => {
    const r = resolveField('state', [claim('dom', 'paid'), claim('network', 'cancelled'), claim('adapter', 'cancelled')])!;
    expect(r.fact.value).toBe('cancelled');
    expect(r.conflicts).toEqual(['adapter_state_disagrees_with_dom', 'dom_state_disagrees_with_network']);
  });
});
