import { describe, expect, it } from 'vitest';
import { renderSnapshot } from '../../../src/observation/render/index.ts';
import type { SnapshotText } from '../../../src/protocol/snapshot.ts';
import { blankSnapshot, expectValid, fuse } from './fixtures/fusion-helpers.ts';

/** A page whose only cue about its resource is its address. */
const at = (url: string, texts: SnapshotText[] = [{ text: 'Your list', role: 'heading', level: 1 }]) => blankSnapshot({ url, title: 'Larkspur', texts });
const resourceAt = (url: string) => expectValid(fuse({ snapshot: at(url) })).resource;

describe('an id in the address names the page’s resource', () => {
  it.each([
    ['a collection and an id in the path', 'https://shop.test/orders/ORD-1024', { type: 'order', id: 'ORD-1024' }],
    ['a small number after its collection (the path marks it)', 'https://shop.test/orders/7', { type: 'order', id: '7' }],
    ['an id with its prefix after a resource word', 'https://shop.test/confirm?order=ORD-1024', { type: 'order', id: 'ORD-1024' }],
    ['a number after a key that says it is an id', 'https://shop.test/track?order_id=1024', { type: 'order', id: '1024' }],
    ['a small number after a camel-case id key', 'https://shop.test/track?orderId=7', { type: 'order', id: '7' }],
    ['a number long enough to be an id after a resource word', 'https://shop.test/confirm?order=10245', { type: 'order', id: '10245' }],
    ['a booking reference', 'https://air.test/manage?booking_ref=K7QX2P', { type: 'booking', id: 'K7QX2P' }],
    ['`id` typed by the id’s prefix', 'https://billing.test/view?id=INV-2024-118', { type: 'invoice', id: 'INV-2024-118' }],
    ['an id beside a sort direction', 'https://billing.test/view?order=desc&invoice=INV-2024-118', { type: 'invoice', id: 'INV-2024-118' }],
    ['a real order after a false one', 'https://shop.test/list?order=0,1,2&order_id=ORD-9', { type: 'order', id: 'ORD-9' }],
  ])('%s: %s', (_what, url, resource) => {
    expect(resourceAt(url)).toEqual(resource);
  });
});

describe('a resource word in the address whose value is not an id names nothing', () => {
  it.each([
    ['a list’s current arrangement', 'http://localhost:4300/widgets/jq-sortable?order=0,1,2,3'],
    ['a sort direction', 'https://shop.test/list?order=desc'],
    ['a field and a direction', 'https://shop.test/list?order=name,asc'],
    ['a field with its direction', 'https://shop.test/list?order=created_at.desc'],
    ['two positions', 'https://shop.test/list?order=1,2'],
    ['a position', 'https://shop.test/list?order=2'],
    ['the resource word as a value', 'https://shop.test/list?sort=order'],
    ['a sort key with a resource word', 'https://shop.test/list?sort_order=12'],
    ['a CMS menu position', 'https://blog.test/pages?menu_order=100'],
    ['a camel-case display position', 'https://shop.test/list?displayOrder=ORD-1'],
    ['empty JSON', 'https://shop.test/list?order=%7B%7D'],
    ['a JSON object', 'https://shop.test/list?order=%7B%22id%22%3A1024%7D'],
    ['a JSON array', 'https://shop.test/list?order=%5B1%2C2%5D'],
    ['a switch', 'https://shop.test/list?cart=1'],
    ['a boolean', 'https://shop.test/list?order=true'],
    ['free text with spaces', 'https://help.test/search?ticket=my%20ticket%2042'],
    ['free text with plus signs', 'https://help.test/search?ticket=printer+broken+3rd+floor'],
    ['an address to return to', 'https://shop.test/login?return=https%3A%2F%2Fshop.test%2Forders%2FORD-1'],
    ['a date', 'https://hotel.test/rooms?booking=2026-06-16'],
    ['a 500-character value', `https://shop.test/list?order=${'A1'.repeat(250)}`],
    ['a list in the path', 'https://shop.test/orders/0,1,2,3'],
    ['an encoded list in the path', 'https://shop.test/orders/1%2C2%2C3'],
    ['a date in the path', 'https://hotel.test/bookings/2026-06-16'],
  ])('%s: %s', (_what, url) => {
    const s = expectValid(fuse({ snapshot: at(url) }));
    expect(s.resource.type).toBe('page');
    expect(s.resource_identity).toEqual({ certainty: 'unknown' });
  });

  it('the sortable widget page reads as a page, and its look names no order', () => {
    const snapshot = at('http://localhost:4300/widgets/jq-sortable?order=0,1,2,3', [
      { text: "This week's priorities", role: 'heading', level: 1 },
      { text: 'Water the plants', role: 'listitem' },
      { text: 'Pay invoices', role: 'listitem' },
    ]);
    const observed = expectValid(fuse({ snapshot }));
    const look = renderSnapshot(snapshot, { observed, facts: observed.facts ?? [] });
    expect(look).not.toContain('0,1,2,3');
    expect(look).not.toMatch(/\border\b/i);
  });
});
