import { describe, expect, it } from 'vitest';
import { namedIds } from '../../../src/observation/read/id-shapes.ts';
import { renderSnapshot } from '../../../src/observation/render/index.ts';
import type { PageSnapshot, SnapshotText } from '../../../src/protocol/snapshot.ts';
import { blankSnapshot, expectValid, fuse } from './fixtures/fusion-helpers.ts';
import { shopOrderSnapshot } from './fixtures/shop-order-snapshot.ts';

/** A checkout-like page at a URL that names nothing, with the given title and texts. */
const pageWith = (texts: SnapshotText[], extra: Partial<PageSnapshot> = {}) => blankSnapshot({ url: 'http://localhost:4100/checkout', title: 'Larkspur', texts, ...extra });
const observe = (snapshot: PageSnapshot) => expectValid(fuse({ snapshot }));
const h1 = (text: string): SnapshotText => ({ text, role: 'heading', level: 1 });
const crumb = (text: string): SnapshotText => ({ text, landmark: 'breadcrumb' });

describe('Steward names the resource the way real sites name it', () => {
  it('a heading "Checkout for ORD-2003" names order ORD-2003: the prefix says it is an order', () => {
    const s = observe(pageWith([h1('Checkout for ORD-2003')]));
    expect(s.resource).toEqual({ type: 'order', id: 'ORD-2003' });
    expect(s.resource_identity?.certainty).toBe('identified');
    expect(s.resource_identity?.basis).toContain('Checkout for ORD-2003');
  });

  it('a title "Checkout · ORD-2003" alone is a guess, and says it came from the title', () => {
    const s = observe(pageWith([h1('Checkout')], { title: 'Checkout · ORD-2003' }));
    expect(s.resource).toEqual({ type: 'order', id: 'ORD-2003' });
    expect(s.resource_identity).toMatchObject({ certainty: 'guessed', basis: 'page title "Checkout · ORD-2003"' });
  });

  it('a breadcrumb Home › Orders › ORD-2003 alone is a guess; with the title agreeing it is identified', () => {
    const crumbs = [crumb('Home'), crumb('Orders'), crumb('ORD-2003')];
    const alone = observe(pageWith([h1('Checkout'), ...crumbs]));
    expect(alone.resource).toEqual({ type: 'order', id: 'ORD-2003' });
    expect(alone.resource_identity).toMatchObject({ certainty: 'guessed', basis: 'breadcrumb "Home › Orders › ORD-2003"' });
    const both = observe(pageWith([h1('Checkout'), ...crumbs], { title: 'Checkout · ORD-2003' }));
    expect(both.resource_identity?.certainty).toBe('identified');
  });

  it('a breadcrumb printed as one text types a bare id from the crumb before it: Orders › 2003', () => {
    const s = observe(pageWith([crumb('Home › Orders › 2003')]));
    expect(s.resource).toEqual({ type: 'order', id: '2003' });
    expect(s.resource_identity?.certainty).toBe('guessed');
  });

  it('labelled ids name their resource: "Order number: 2003", "Booking reference: K7QX2P", "Invoice #: INV-2024-118"', () => {
    const order = observe(pageWith([h1('Track your package'), { text: 'Order number: 2003' }]));
    expect(order.resource).toEqual({ type: 'order', id: '2003' });
    expect(order.resource_identity?.certainty).toBe('identified');
    const booking = observe(pageWith([h1('Your stay'), { text: 'Booking reference:' }, { text: 'K7QX2P' }]));
    expect(booking.resource).toEqual({ type: 'booking', id: 'K7QX2P' });
    const invoice = observe(
      pageWith([
        { text: 'Invoice #', role: 'term' },
        { text: 'INV-2024-118', role: 'definition' },
      ]),
    );
    expect(invoice.resource).toEqual({ type: 'invoice', id: 'INV-2024-118' });
  });

  it('"#12345" after "Order", and ids in the URL query, name the order', () => {
    expect(observe(pageWith([h1('Order #12345')])).resource).toEqual({ type: 'order', id: '12345' });
    expect(observe(pageWith([h1('Thank you')], { url: 'https://shop.test/confirm?order=ORD-2003' })).resource).toEqual({ type: 'order', id: 'ORD-2003' });
    expect(observe(pageWith([], { url: 'https://air.test/manage?pnr=K7QX2P' })).resource).toEqual({ type: 'booking', id: 'K7QX2P' });
  });

  it('an id alone gets its type from its prefix: INV-, TKT-, RMA-, SUB-, APPT-', () => {
    expect(namedIds('Support · TKT-88412').map((n) => [n.type, n.id])).toEqual([['ticket', 'TKT-88412']]);
    expect(namedIds('Return RMA-30418')[0]).toMatchObject({ type: 'return', id: 'RMA-30418' });
    expect(namedIds('Your plan SUB-88120')[0]).toMatchObject({ type: 'subscription' });
    expect(namedIds('Visit APPT-77')[0]).toMatchObject({ type: 'appointment' });
    expect(namedIds('Project PRJ-12')).toEqual([]); // an unknown prefix types nothing
  });

  it('the URL, structured data and headings agree: the demo order is identified exactly as before', () => {
    const s = observe(shopOrderSnapshot());
    expect(s.resource).toEqual({ type: 'order', id: 'ORD-1024' });
    expect(s.resource_identity?.certainty).toBe('identified');
  });

  it('a strong cue naming another id makes the weaker one lose, and a tie makes it a guess', () => {
    const s = observe(pageWith([h1('Order ORD-2003')], { title: 'Checkout · ORD-1999' }));
    expect(s.resource).toEqual({ type: 'order', id: 'ORD-2003' });
    expect(s.resource_identity?.certainty).toBe('identified');
    const tie = observe(pageWith([crumb('Orders › ORD-2001')], { title: 'Checkout · ORD-2002' }));
    expect(tie.resource_identity?.certainty).toBe('guessed');
  });
});

describe('numbers that are not ids name no resource: Steward says it could not tell', () => {
  it.each([
    ['a product name with a model number', 'Trail Runner 3'],
    ['a phone', 'iPhone 15'],
    ['a watch series', 'Series 7'],
    ['an operating system', 'Windows 11'],
    ['a room', 'Room 2'],
    ['a season', 'Spring 2026'],
    ['a price', 'Sale: $129.99'],
    ['a date', 'Delivered 2026-06-16'],
    ['a phone number', 'Call us 555-0123'],
    ['a year after a resource word', 'Invoices 2025'],
    ['a small number after a resource word', 'Case 3'],
  ])('%s: "%s"', (_what, text) => {
    const s = observe(pageWith([h1(text)], { url: 'http://localhost:4100/shop/trail-runner-3', title: `${text} — Larkspur` }));
    expect(s.resource.type).toBe('page');
    expect(s.resource_identity).toEqual({ certainty: 'unknown' });
  });

  it('labels about something else name nothing: "Customer service: 1-800-555-0199", "Order date: 2026-06-16", "Order total: $12.00"', () => {
    const s = observe(pageWith([{ text: 'Customer service: 1-800-555-0199' }, { text: 'Order date: 2026-06-16' }, { text: 'Order total: $12.00' }]));
    expect(s.resource.type).toBe('page');
  });

  it('a slug in the URL is a name, not an id; a gallery path names nothing', () => {
    expect(observe(pageWith([], { url: 'https://shop.test/products/trail-runner-3' })).resource.type).toBe('page');
    expect(observe(pageWith([], { url: 'http://localhost:4300/gallery/html/order-ord-2003' })).resource.type).toBe('page');
    expect(observe(pageWith([], { url: 'https://shop.test/products/SKU-1234' })).resource).toEqual({ type: 'product', id: 'SKU-1234' });
  });

  it('a list of orders is about none of them', () => {
    const texts = [
      h1('Your orders'),
      { text: 'Order number: 1001' },
      { text: 'Order number: 1002' },
      { text: 'Order ORD-1', role: 'heading', level: 2 },
      { text: 'Order ORD-2', role: 'heading', level: 2 },
    ];
    expect(observe(pageWith(texts)).resource.type).toBe('page');
  });

  it('a type named without an id is kept as the likely type: "could not tell which order"', () => {
    const s = observe(pageWith([crumb('Home › Orders › Details')], { structuredData: [{ kind: 'json-ld', data: { '@type': 'Order' } }] }));
    expect(s.resource.type).toBe('page');
    expect(s.resource_identity).toEqual({ certainty: 'unknown', likely_type: 'order' });
  });
});

describe('the co-pilot’s rendering never shows a guess as known', () => {
  const stateLine = (snapshot: PageSnapshot) => {
    const observed = fuse({ snapshot });
    return renderSnapshot(snapshot, { observed, facts: observed.facts ?? [] }).split('\n')[0]!;
  };

  it('a guessed resource carries "(guessed from …)" on the state line', () => {
    expect(stateLine(pageWith([h1('Checkout')], { title: 'Checkout · ORD-2003' }))).toMatch(/^order ORD-2003 \(guessed from page title "Checkout · ORD-2003"\) unknown \(\.\d\d\)$/);
  });

  it('an identified one does not, and an unknown order says which kind it could not tell', () => {
    expect(stateLine(pageWith([h1('Order ORD-2003')]))).toMatch(/^order ORD-2003 unknown \(\.\d\d\)$/);
    // The page is its own resource (the prompt names it): the line says only what Steward could not tell.
    expect(stateLine(pageWith([crumb('Home › Orders › Details')], { structuredData: [{ kind: 'json-ld', data: { '@type': 'Order' } }] }))).toBe('(which order: unknown)');
  });
});

describe('a line under the main heading names the resource when nothing else does', () => {
  it('"Account ACC-4471-0092 · IBAN DE89 …" under "Everyday Checking" is account ACC-4471-0092, a guess', () => {
    const s = observe(pageWith([h1('Everyday Checking'), { text: 'Active' }, { text: 'Account ACC-4471-0092 · IBAN DE89 3704 0044 0532 0130 00' }]));
    expect(s.resource).toEqual({ type: 'account', id: 'ACC-4471-0092' });
    expect(s.resource_identity?.certainty).toBe('guessed');
  });

  it('but not when the heading names one: "from order ORD-2017" on return RMA-30418 is another resource', () => {
    const s = observe(pageWith([h1('Return RMA-30418'), { text: 'Oak side table from order ORD-2017 · reason: arrived damaged' }]));
    expect(s.resource).toEqual({ type: 'return', id: 'RMA-30418' });
  });

  it('nor an announcement: "Booked APT-1004 …" in a status line under "Book an appointment" reports an event; the page is still the booking form', () => {
    const s = observe(pageWith([h1('Book an appointment'), { text: 'Booked APT-1004 with Dr. Okafor on 2026-12-02 at 16:00 for Jordan Lee.', role: 'status' }]));
    expect(s.resource.type).toBe('page');
    expect(s.resource_identity?.certainty).toBe('unknown');
  });
});

describe('key–value rows of spans, as component kits print them', () => {
  it('"Booking reference" then "M3RT8Z" (no colon) is booking M3RT8Z; a crumb "My cases" types a bare case id', () => {
    expect(observe(pageWith([h1('Your stay'), { text: 'Booking reference' }, { text: 'M3RT8Z' }, { text: 'Check-in' }, { text: 'Mon 5 August 2024' }])).resource).toEqual({
      type: 'booking',
      id: 'M3RT8Z',
    });
    expect(observe(pageWith([crumb('Support'), crumb('My cases'), crumb('20931')])).resource).toEqual({ type: 'case', id: '20931' });
    expect(namedIds('Case CS-20931: Router drops Wi-Fi every evening')[0]).toMatchObject({ type: 'case', id: 'CS-20931' });
  });

  it('a table’s "Order" column is not a label: an admin list of orders names none', () => {
    const cells = (row: number, id: string): SnapshotText[] => [
      { text: 'Order', role: 'columnheader', container: { ref: 't1', row: 0 } },
      { text: id, role: 'cell', container: { ref: 't1', row } },
    ];
    expect(observe(pageWith([h1('Orders'), ...cells(1, 'ORD-1')])).resource.type).toBe('page');
  });
});

describe('badges and sentences are not labels', () => {
  it('a badge "Awaiting payment" before "Placed on July 28, 2026" names no payment 28', () => {
    expect(observe(pageWith([h1('Thanks!'), { text: 'Awaiting payment' }, { text: 'Placed on July 28, 2026 by Jordan Lee' }])).resource.type).toBe('page');
    expect(observe(pageWith([{ text: 'Payment: Card ending 4242' }])).resource.type).toBe('page');
  });

  it('a booking reference may be letters only', () => {
    expect(observe(pageWith([{ text: 'Booking reference: QXZKTP' }])).resource).toEqual({ type: 'booking', id: 'QXZKTP' });
  });
});

describe('counts are not ids', () => {
  it('"Your cart (240 items)" in the title loses to the breadcrumb "Cart CRT-40218"', () => {
    expect(namedIds('Your cart (240 items) · BuildMart Trade')).toEqual([]);
    const s = observe(pageWith([crumb('Trade account'), crumb('Cart CRT-40218'), h1('Your cart')], { title: 'Your cart (240 items) · BuildMart Trade' }));
    expect(s.resource).toEqual({ type: 'cart', id: 'CRT-40218' });
  });

  it.each(['Free returns: 30 days', 'Orders: 3 items', 'Returns: 14', 'Tickets: 2 adults', 'Bookings: 12'])('a count under a label names nothing: "%s"', (text) => {
    const s = observe(pageWith([h1('Your basket'), { text }]));
    expect(s.resource_identity).toEqual({ certainty: 'unknown' });
    expect(s.resource.type).toBe('page');
  });

  it.each([
    ['Order number: 12', { type: 'order', id: '12' }],
    ['Order: 42', { type: 'order', id: '42' }],
    ['Orders: #42', { type: 'order', id: '42' }],
    ['Order: 2003', { type: 'order', id: '2003' }],
    ['Return: RMA-30418', { type: 'return', id: 'RMA-30418' }],
  ])('a label for one resource, or one that marks its id, still names it: "%s"', (text, resource) => {
    expect(observe(pageWith([h1('Your basket'), { text }])).resource).toEqual(resource);
  });
});
