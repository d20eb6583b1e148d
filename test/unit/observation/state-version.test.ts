import { describe, expect, it } from 'vitest';
import type { PageSnapshot, SnapshotCanvas, SnapshotText } from '../../../src/protocol/snapshot.ts';
import { blankSnapshot, element, expectValid, fact, fuse } from './fixtures/fusion-helpers.ts';

/**
 * state_version on pages Steward has never seen: it moves with every real change (a quantity, a
 * total, a status, a date, a chosen option, a ticked box, a new line) and with nothing the page
 * changes on its own (clocks, relative times, countdowns, banners, tickers, ads, live regions),
 * on a page that names no resource as on one that does.
 */

interface CartOptions {
  quantity?: number;
  stepper?: number;
  total?: string;
  status?: string;
  placed?: string;
  shipping?: string;
  giftWrap?: boolean;
  extraLine?: boolean;
  clock?: string;
  updated?: string;
  countdown?: string;
  hold?: string;
  banner?: string;
  ticker?: string;
  live?: string;
  timer?: string;
  ad?: string;
}

const KINDS = {
  /** A cart that names no order. */
  anonymous: { url: 'https://shop.test/cart', heading: 'Your cart' },
  /** The same page about order ORD-7. */
  identified: { url: 'https://shop.test/orders/ORD-7', heading: 'Order ORD-7' },
} as const;

function cartPage(kind: keyof typeof KINDS, o: CartOptions = {}): PageSnapshot {
  const { url, heading } = KINDS[kind];
  const quantity = o.quantity ?? 2;
  const row = (n: number, cells: string[]): SnapshotText[] => cells.map((text) => ({ text, role: 'cell', container: { ref: 't1', row: n } }));
  const lines = [['Ceramic dripper', String(quantity), '$24.00'], ...(o.extraLine ? [['Paper filters', '1', '$6.50']] : [])];
  const texts: SnapshotText[] = [
    { text: `Time: ${o.clock ?? '11:40:07'}` },
    { text: `Updated ${o.updated ?? '3 min ago'}` },
    { text: `Sale ends in ${o.countdown ?? '02:14:09'}` },
    { text: `Items held for ${o.hold ?? '04:59'}`, role: 'paragraph' },
    { text: o.banner ?? 'Free returns within 30 days.', volatile: true },
    { text: o.ticker ?? 'ACME 187.23 ▲ 1.2%', volatile: true },
    { text: o.ad ?? 'Sponsored: 2 for 1 on kettles', volatile: true },
    { text: o.live ?? 'Last checked: 11:40:07', role: 'status' },
    { text: o.timer ?? '02:14:09', role: 'timer' },
    { text: heading, role: 'heading', level: 1, ref: 'h1' },
    { text: `Status: ${o.status ?? 'Awaiting payment'}` },
    { text: 'Placed on:' },
    { text: o.placed ?? 'July 28, 2026' },
    ...['Item', 'Quantity', 'Price'].map((text): SnapshotText => ({ text, role: 'columnheader', container: { ref: 't1', row: 0 } })),
    ...lines.flatMap((cells, i) => row(i + 1, cells)),
    { text: `Quantity: ${quantity}` },
    { text: `Total: ${o.total ?? '$48.00'}` },
  ];
  return blankSnapshot({
    url,
    title: `${heading} — Shop`,
    texts,
    tables: [{ ref: 't1', headers: ['Item', 'Quantity', 'Price'], rows: lines }],
    containers: [{ ref: 't1', role: 'table', rows: lines.length + 1, columns: ['Item', 'Quantity', 'Price'] }],
    elements: [
      element('b1', 'button', 'Decrease quantity'),
      element('s1', 'spinbutton', 'Quantity', { tag: 'input', inputType: 'number', value: String(o.stepper ?? quantity) }),
      element('b2', 'button', 'Increase quantity'),
      element('c1', 'combobox', 'Shipping', { tag: 'select', value: o.shipping ?? 'standard', options: ['standard', 'express'] }),
      element('x1', 'checkbox', 'Gift wrap', { tag: 'input', inputType: 'checkbox', states: o.giftWrap ? ['checked'] : [] }),
      element('b3', 'button', 'Pay now'),
      element('q1', 'searchbox', 'Search the shop', { tag: 'input', inputType: 'search', value: '' }),
    ],
  });
}

const version = (snapshot: PageSnapshot) => expectValid(fuse({ snapshot })).state_version;

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('state_version on the %s cart', (kind) => {
  const base = version(cartPage(kind));

  it('names the resource only when the page does', () => {
    const state = fuse({ snapshot: cartPage(kind) });
    expect(state.resource.type).toBe(kind === 'identified' ? 'order' : 'page');
    expect(state.state).toBe('awaiting_payment');
  });

  const churn: Array<[string, CartOptions]> = [
    ['a clock ticking', { clock: '11:40:08' }],
    ['a relative time moving on', { updated: '4 min ago' }],
    ['a countdown', { countdown: '02:14:08' }],
    ['a countdown in a sentence', { hold: '04:58' }],
    ['a rotating banner', { banner: 'New this week: stoneware mugs.' }],
    ['a ticker', { ticker: 'ACME 187.31 ▲ 1.3%' }],
    ['an ad slot', { ad: 'Sponsored: Total: $9.99 for a grinder' }],
    ['a live region', { live: 'Last checked: 11:40:37' }],
    ['a timer', { timer: '02:14:01' }],
  ];
  it.each(churn)('ignores %s', (_, change) => {
    expect(version(cartPage(kind, change))).toBe(base);
  });

  it('ignores typing in a search field', () => {
    const page = cartPage(kind);
    page.elements.find((e) => e.ref === 'q1')!.value = 'kettle';
    expect(version(page)).toBe(base);
  });

  const real: Array<[string, CartOptions]> = [
    ['a quantity going from 2 to 3 (text, table and stepper)', { quantity: 3 }],
    ['a quantity going from 2 to 3 in the stepper only', { stepper: 3 }],
    ['the total', { total: '$72.00' }],
    ['the status', { status: 'Paid' }],
    ['a date', { placed: 'July 29, 2026' }],
    ['the option chosen', { shipping: 'express' }],
    ['a box ticked', { giftWrap: true }],
    ['a line added', { extraLine: true }],
  ];
  it.each(real)('moves with %s', (_, change) => {
    expect(version(cartPage(kind, change))).not.toBe(base);
  });
});

describe('state without a resource', () => {
  it('a labelled status is the page’s state, with its provenance', () => {
    const state = fuse({ snapshot: blankSnapshot({ url: 'https://shop.test/checkout', texts: [{ text: 'Checkout', role: 'heading', level: 1 }, { text: 'Status: Awaiting payment' }] }) });
    expect(state.resource.type).toBe('page');
    expect(state.state).toBe('awaiting_payment');
    expect(fact(state, 'state')?.sources).toEqual(['dom']);
  });

  it('a badge beside the page’s heading is its state', () => {
    const state = fuse({ snapshot: blankSnapshot({ url: 'https://tickets.test/booking', texts: [{ text: 'Your booking', role: 'heading', level: 1 }, { text: 'Confirmed' }] }) });
    expect(state.state).toBe('confirmed');
  });

  it('a list of orders with different statuses has no state of its own', () => {
    const cards: SnapshotText[] = [
      { text: 'Your orders', role: 'heading', level: 1 },
      { text: 'Order placed July 2' },
      { text: 'Status: Shipped' },
      { text: 'Order placed July 9' },
      { text: 'Status: Awaiting payment' },
    ];
    expect(fuse({ snapshot: blankSnapshot({ url: 'https://shop.test/account', texts: cards }) }).state).toBe('unknown');
  });

  it('statuses in a list’s rows are the rows’ own, even when they agree', () => {
    const rows: SnapshotText[] = [
      { text: 'Your orders', role: 'heading', level: 1 },
      { text: 'Status: Shipped', role: 'listitem', container: { ref: 'l1', row: 1 } },
      { text: 'Status: Shipped', role: 'listitem', container: { ref: 'l1', row: 2 } },
    ];
    expect(fuse({ snapshot: blankSnapshot({ url: 'https://shop.test/account', texts: rows }) }).state).toBe('unknown');
  });

  it('a page that says nothing about a state is unknown', () => {
    const state = fuse({
      snapshot: blankSnapshot({
        texts: [
          { text: 'Welcome', role: 'heading', level: 1 },
          { text: 'Browse our catalogue.', role: 'paragraph' },
        ],
      }),
    });
    expect(state.state).toBe('unknown');
    expect(state.conflicts).not.toContain('state_not_observed');
  });

  it('a status only a volatile text shows is not the page’s state', () => {
    const state = fuse({
      snapshot: blankSnapshot({
        texts: [
          { text: 'Checkout', role: 'heading', level: 1 },
          { text: 'Status: Shipped', volatile: true },
        ],
      }),
    });
    expect(state.state).toBe('unknown');
  });

  // The lab's /churn page: its promo rotates through "Free returns: 30 days" every few seconds.
  describe('a volatile text names nothing, whichever way it is worded', () => {
    const basket = (rotating: SnapshotText) =>
      fuse({
        snapshot: blankSnapshot({
          url: 'https://shop.test/basket',
          title: 'Your basket — Shop',
          texts: [{ text: 'Your basket', role: 'heading', level: 1 }, rotating, { text: 'Subtotal: $48.00' }, { text: 'Total: $48.00' }],
        }),
      });
    const still = basket({ text: 'Members save: 10% on kettles', volatile: true });
    it.each([
      ['a labelled id', 'Free returns: 30 days'],
      ['a labelled order number', 'Order number: 2003'],
      ['a heading', 'Order ORD-1024'],
      ['a status', 'Status: Shipped'],
      ['a date', 'Delivered on July 28, 2026'],
      ['a total', 'Total: $9.00'],
    ])('%s (%s)', (_, text) => {
      const rotating: SnapshotText = text.startsWith('Order ORD') ? { text, role: 'heading', level: 2, volatile: true } : { text, volatile: true };
      const state = basket(rotating);
      expect(state.resource).toEqual(still.resource);
      expect(state.resource_identity).toEqual({ certainty: 'unknown' });
      expect(state.state).toBe('unknown');
      expect(state.facts?.find((f) => f.name === 'total')?.value).toBe(48);
      expect(state.state_version).toBe(still.state_version);
    });
  });
});

describe('canvas blind spots without a resource', () => {
  const opaque = (ref = 'cv1', extra: Partial<SnapshotCanvas> = {}): SnapshotCanvas => ({ ref, box: { x: 0, y: 0, w: 360, h: 120 }, hasTextEquivalent: false, pixelHash: `px-${ref}`, ...extra });

  it('a total labelled in text but drawn only on a canvas', () => {
    const snapshot = blankSnapshot({ url: 'https://shop.test/', texts: [{ text: 'Your basket', role: 'heading', level: 1 }, { text: 'Total' }], canvases: [opaque()] });
    expect(fuse({ snapshot }).conflicts).toContain('canvas_total_not_observed');
  });

  it('a canvas on a checkout page where no total is in the text', () => {
    const snapshot = blankSnapshot({ url: 'https://shop.test/checkout', texts: [{ text: 'Review and pay', role: 'heading', level: 1 }], canvases: [opaque()] });
    const state = fuse({ snapshot });
    expect(state.conflicts).toContain('canvas_total_not_observed');
    // The canvas stands in for the total: what it draws is part of the version.
    expect(fuse({ snapshot: { ...snapshot, canvases: [opaque('cv1', { pixelHash: 'px-other' })] } }).state_version).not.toBe(state.state_version);
  });

  it('no total conflict when the checkout states its total in text', () => {
    const snapshot = blankSnapshot({ url: 'https://shop.test/checkout', texts: [{ text: 'Total: $48.00' }], canvases: [opaque()] });
    const state = fuse({ snapshot });
    expect(state.conflicts).not.toContain('canvas_total_not_observed');
    expect(fact(state, 'total')?.value).toBe(48);
  });

  it('an opaque content canvas elsewhere is content Steward could not read', () => {
    const snapshot = blankSnapshot({ url: 'https://bank.test/dashboard', texts: [{ text: 'Spending this month', role: 'heading', level: 1 }], canvases: [opaque()] });
    const conflicts = fuse({ snapshot }).conflicts;
    expect(conflicts).toContain('canvas_content_not_observed');
    expect(conflicts).not.toContain('canvas_total_not_observed');
  });

  it('a canvas with a text equivalent is read, not reported', () => {
    const snapshot = blankSnapshot({
      url: 'https://shop.test/checkout',
      canvases: [{ ref: 'cv1', box: { x: 0, y: 0, w: 360, h: 120 }, hasTextEquivalent: true, label: 'Order total $48.00' }],
    });
    const state = fuse({ snapshot });
    expect(state.conflicts.filter((c) => c.startsWith('canvas_'))).toEqual([]);
    expect(fact(state, 'total')?.value).toBe(48);
  });
});

describe('state and version on component-kit pages', () => {
  it('a lone status chip beside a title that is not a heading is the page’s state; two chips are a list', () => {
    const chip = (texts: string[]) => fuse({ snapshot: blankSnapshot({ texts: [{ text: 'Router drops Wi-Fi every evening' }, ...texts.map((text) => ({ text }))] }) }).state;
    expect(chip(['Open'])).toBe('open');
    expect(chip(['Open', 'Closed'])).toBe('unknown');
  });

  it('a quantity shown in an <output> (a status region) and a read-only stepper field count', () => {
    const page = (n: number, field = n) =>
      blankSnapshot({
        texts: [
          { text: 'Review and pay', role: 'heading', level: 1 },
          { text: String(n), role: 'status' },
        ],
        elements: [element('q', 'textbox', 'Quantity', { tag: 'input', value: String(field), states: ['readonly'] })],
      });
    expect(version(page(2))).not.toBe(version(page(1)));
    expect(version(page(1, 2))).not.toBe(version(page(1)));
  });

  it('a carousel’s slide pickers rotating with its slides change nothing', () => {
    const page = (at: number) =>
      blankSnapshot({
        elements: [1, 2, 3].map((n) => element(`t${n}`, 'tab', n === at ? `Slide ${n}` : `Go to slide ${n} of 3`, { states: n === at ? ['selected'] : [] })),
      });
    expect(version(page(2))).toBe(version(page(1)));
  });
});

describe('prose without a resource', () => {
  it('a sentence about "your order" states the page’s state; one about orders in general does not', () => {
    const said = (text: string) =>
      fuse({
        snapshot: blankSnapshot({
          texts: [
            { text: 'Order details', role: 'heading', level: 1 },
            { text, role: 'paragraph' },
          ],
        }),
      }).state;
    expect(said('Your order was cancelled on 12 March 2024 at your request.')).toBe('cancelled');
    expect(said('An order that was cancelled is refunded within 5 days.')).toBe('unknown');
  });
});

/**
 * Issue 26: a quantity the page changes in place with its own − / + buttons, no label on the
 * number, no request, no reload — snapshots as the content script takes them of such pages
 * (the lab's /widgets/v-quantity and the variants sites write), before and after one press of +.
 */
describe('state_version with a quantity changed in place by the page’s own buttons', () => {
  const steppers = (count: number, field?: 'text'): PageSnapshot['elements'] => [
    element('b1', 'button', '−'),
    ...(field ? [element('i1', 'textbox', '', { tag: 'input', inputType: 'text', value: String(count) })] : []),
    element('b2', 'button', '+'),
    element('b3', 'button', 'Add to basket'),
  ];
  const product = (lines: SnapshotText[], count: number, field?: 'text'): PageSnapshot =>
    blankSnapshot({
      url: 'https://beans.test/p/espresso',
      title: 'Espresso beans',
      texts: [
        { text: 'Espresso beans, 250 g', role: 'heading', level: 1, ref: 'h1' },
        { text: '€9.50 · roasted on Mondays', role: 'paragraph' },
        { text: 'Free returns within 30 days.', role: 'complementary' },
        ...lines,
      ],
      elements: steppers(count, field),
    });

  const pages: Array<[string, (n: number) => PageSnapshot]> = [
    ['a bare number between the buttons', (n) => product([{ text: String(n) }], n)],
    ['a count in a sentence', (n) => product([{ text: `You have ${n} item${n === 1 ? '' : 's'} in your basket`, role: 'paragraph' }], n)],
    ['a count after the product’s name', (n) => product([{ text: `Espresso beans × ${n}`, role: 'paragraph' }], n)],
    ['a count in the header’s cart link', (n) => product([{ text: `Cart (${n})` }], n)],
    ['a plain text field with no label', (n) => product([], n, 'text')],
  ];
  it.each(pages)('moves with %s', (_, page) => {
    expect(version(page(2))).not.toBe(version(page(1)));
    expect(version(page(1))).toBe(version(page(1)));
  });

  it('still ignores lines the page rotates before the content script has seen them churn twice', () => {
    const page = (promo: string, ticker: string) => product([{ text: promo, role: 'complementary' }, { text: ticker }, { text: 'You have 1 item in your basket' }], 1);
    const base = version(page('Free returns within 30 days.', 'ACME 187.23 ▲ 1.2%'));
    expect(version(page('Members save 10% on kettles', 'ACME 187.31 ▲ 1.3%'))).toBe(base);
    expect(version(page('Delivery in 2 days', 'GLOBEX 42.10'))).toBe(base);
    const viewers = (n: number) => product([{ text: `${n} people are looking at this route` }, { text: 'You have 1 item in your basket' }], 1);
    expect(version(viewers(14))).toBe(version(viewers(21)));
  });

  it('still ignores a count in text the page marks as changing by itself', () => {
    const page = (n: number) => product([{ text: `${n} people viewing this item`, volatile: true }], 1);
    expect(version(page(4))).toBe(version(page(5)));
  });

  it('keeps a number typed into a field of a form sent with a button a draft, and a search box out', () => {
    const draft = (value: string) =>
      blankSnapshot({
        url: 'https://beans.test/cart',
        forms: [{ ref: 'f1', method: 'post', fieldRefs: ['i1'], submitRef: 'b9' }],
        elements: [
          element('i1', 'textbox', 'Quantity', { tag: 'input', inputType: 'text', value, formRef: 'f1' }),
          element('b9', 'button', 'Update basket', { formRef: 'f1' }),
          element('q1', 'searchbox', 'Search', { tag: 'input', inputType: 'search', value: value }),
        ],
      });
    expect(version(draft('3'))).toBe(version(draft('2')));
  });
});
