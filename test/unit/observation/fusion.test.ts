import { describe, expect, it } from 'vitest';
import { Adapter } from '../../../src/observation/adapters/index.ts';
import { fuseWithDetail, FusionError } from '../../../src/observation/fusion/index.ts';
import { blankSnapshot, expectValid, fact, fuse } from './fixtures/fusion-helpers.ts';
import { shopApiRecord, shopOrderSnapshot } from './fixtures/shop-order-snapshot.ts';

describe('fuse: the shop order page', () => {
  const agreeing = () => fuse({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()] });

  it('produces a valid ObservedState naming the order, its state and where each came from', () => {
    const s = expectValid(agreeing());
    expect(s.resource).toEqual({ type: 'order', id: 'ORD-1024' });
    expect(s.state).toBe('awaiting_payment');
    expect(s.source).toBe('legacy_inference');
    expect(s.url).toBe('http://127.0.0.1:41873/orders/ORD-1024');
    expect(s.state_version).toMatch(/^fp-[0-9a-f]{16}$/);
    expect(fact(s, 'state')).toMatchObject({ value: 'awaiting_payment', sources: ['dom', 'structured_data', 'network'] });
    expect(fact(s, 'resource_id')?.sources).toEqual(expect.arrayContaining(['url', 'accessibility', 'structured_data', 'dom', 'network']));
    expect(fact(s, 'placed_at')).toMatchObject({ value: '2026-07-28', sources: ['text', 'structured_data', 'network'] });
    expect(fact(s, 'item_count')?.value).toBe(3);
    expect(fact(s, 'total_quantity')?.value).toBe(4);
  });

  it('reports the total it cannot read: it is drawn on a canvas only', () => {
    const s = agreeing();
    expect(s.conflicts).toEqual(['canvas_total_not_observed']);
    expect(fact(s, 'total')).toBeUndefined();
    expect(s.confidence).toBeGreaterThan(0.8);
    expect(s.confidence).toBeLessThan(1);
  });

  it('flags dom_state_disagrees_with_network when the API says otherwise, and trusts the page less', () => {
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot(), network: [shopApiRecord({ status: 'cancelled' })] }));
    expect(s.conflicts).toContain('dom_state_disagrees_with_network');
    expect(fact(s, 'state')?.disagreements).toEqual([{ source: 'network', value: 'cancelled' }]);
    expect(s.confidence).toBeLessThan(agreeing().confidence - 0.2);
    expect(fact(s, 'state')!.confidence).toBeLessThan(fact(agreeing(), 'state')!.confidence);
  });

  it('when the page itself prints the API status too, it also says the DOM is inconsistent', () => {
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot({ liveStatus: 'Live status: Cancelled' }), network: [shopApiRecord({ status: 'cancelled' })] }));
    expect(s.conflicts).toEqual(expect.arrayContaining(['dom_state_disagrees_with_network', 'dom_state_inconsistent']));
    // The badge beside the heading is the DOM's position; the live line is the dissent.
    expect(fact(s, 'state')?.value).toBe('awaiting_payment');
  });

  it('lists only evidence that contributed', () => {
    const s = fuse({ snapshot: { ...shopOrderSnapshot(), structuredData: [] } });
    expect(s.evidence).not.toContain('network');
    expect(s.evidence).not.toContain('structured_data');
    expect(s.evidence).not.toContain('screenshot');
    expect(s.evidence).toEqual(expect.arrayContaining(['dom', 'accessibility', 'url']));
    for (const f of s.facts ?? []) for (const src of f.sources) expect(s.evidence).toContain(src);
  });

  it('offers the page controls as legacy actions bound to refs, with risk', () => {
    const s = agreeing();
    expect(s.available_actions).toEqual(['dom.click', 'dom.type', 'dom.press', 'dom.select', 'nav.goto', 'dom.scroll']);
    const byRef = (ref: string) => s.actions?.find((a) => a.target_ref === ref);
    expect(byRef('e20')).toMatchObject({ action: 'dom.click', payment: true, consequential: true, read_only: false, requires_approval: true });
    expect(byRef('e20')?.input_schema).toEqual({ type: 'object', properties: { ref: { type: 'string', const: 'e20' } }, required: ['ref'], additionalProperties: false });
    expect(byRef('e22')).toMatchObject({ action: 'dom.click', consequential: true, payment: false, requires_approval: true });
    expect(byRef('e22')?.description).toContain('/orders/ORD-1024/cancel');
    expect(byRef('eu0')).toMatchObject({ action: 'dom.click', read_only: false, consequential: false, requires_approval: true });
    expect(byRef('e21')).toMatchObject({ action: 'dom.select', read_only: true, requires_approval: false });
    expect(byRef('eq0')).toMatchObject({ action: 'dom.type', read_only: true });
    expect(byRef('e2')).toMatchObject({ action: 'dom.click', read_only: true, requires_approval: false });
  });

  it('summarises forms with their fields, requiredness and option labels', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.elements.find((e) => e.ref === 'e21')!.options = ['Choose a reason…', 'Ordered by mistake', 'x'.repeat(2000)];
    const form = expectValid(fuse({ snapshot })).forms?.find((f) => f.ref === 'fc');
    expect(form).toMatchObject({ method: 'post', submit_ref: 'e22', fields: [{ ref: 'e21', name: 'Reason for cancelling', type: 'select', required: true, value: '' }] });
    expect(form?.fields[0]?.options?.map((o) => o.length)).toEqual([16, 18, 1024]);
  });

  it('a cancelled order has no pay or cancel control, and prose confirms the state', () => {
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot({ status: 'cancelled' }), network: [shopApiRecord({ status: 'cancelled' })] }));
    expect(s.state).toBe('cancelled');
    expect(fact(s, 'state')?.sources).toEqual(['dom', 'text', 'structured_data', 'network']);
    expect(fact(s, 'cancelled_at')).toMatchObject({ value: '2026-07-29', sources: ['text'] });
    expect(s.actions?.some((a) => a.target_ref === 'e20' || a.target_ref === 'e22')).toBe(false);
  });

  it('schema.org OrderProcessing agrees with a page that says Paid (a coarser word, not a conflict)', () => {
    const s = fuse({ snapshot: shopOrderSnapshot({ status: 'paid' }), network: [shopApiRecord({ status: 'paid' })] });
    expect(s.state).toBe('paid');
    expect(fact(s, 'state')?.sources).toContain('structured_data');
    expect(s.conflicts.filter((c) => c.includes('disagrees'))).toEqual([]);
  });

  it('explains each claim', () => {
    const { claims } = fuseWithDetail({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()] });
    const state = claims.filter((c) => c.field === 'state');
    expect(state.map((c) => `${c.source}: ${c.why}`)).toEqual(
      expect.arrayContaining(['dom: beside the heading "Order ORD-1024": "Awaiting payment"', 'structured_data: json-ld order "ORD-1024" status', 'network: GET "/api/orders/ORD-1024"']),
    );
  });
});

describe('fuse: pages without a resource, and bad input', () => {
  it('a page that names no resource is observed as the page itself, state unknown, low confidence', () => {
    const s = expectValid(fuse({ snapshot: blankSnapshot({ url: 'https://example.test/help', texts: [{ text: 'Help centre', role: 'heading', level: 1 }] }) }));
    expect(s.resource).toEqual({ type: 'page', id: 'example.test/help' });
    expect(s.state).toBe('unknown');
    expect(s.evidence).toEqual(['url']);
    expect(s.confidence).toBeLessThan(0.4);
  });

  it('stays valid at the protocol’s limits: 600 tools, a 120-letter field name, a garbled capture time', () => {
    const tools = Array.from({ length: 600 }, (_, i) => ({ name: `tool_${i}`, description: '', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, kind: 'imperative' as const }));
    const long = `field_${'x'.repeat(120)}`;
    const def = { id: 'long', match: { path: '/orders/:id' }, resource: { type: 'order', id: { read: { from: 'url_group', group: 'id' } } }, expect: [long] };
    const s = expectValid(
      fuse({
        snapshot: { ...shopOrderSnapshot(), capturedAt: 'yesterday' },
        tools,
        adapters: [Adapter.parse(def)],
        observedAt: 'not a time',
      }),
    );
    expect(s.available_actions).toHaveLength(512);
    expect(s.conflicts.some((c) => c.startsWith('canvas_field_xxx') && c.length <= 128)).toBe(true);
    expect(Date.parse(s.observed_at)).not.toBeNaN();
  });

  it('refuses a non-http page with a clear error', () => {
    expect(() => fuse({ snapshot: blankSnapshot({ url: 'chrome://settings' }) })).toThrow(FusionError);
    expect(() => fuse({ snapshot: blankSnapshot({ url: 'about:blank' }) })).toThrow(/http\(s\) pages only/);
  });

  it('a hostile snapshot still yields a valid observation: bad refs dropped, text clipped, actions capped', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({
      ref: `e${i}`,
      role: 'button',
      name: `Button ${i} ${'x'.repeat(i === 0 ? 5000 : 0)}`,
      states: [],
      visibility: 'visible' as const,
      tag: 'button',
      scope: 'document' as const,
    }));
    const s = expectValid(
      fuse({
        snapshot: blankSnapshot({
          url: 'https://shop.test/orders/A-1',
          elements: [
            ...many,
            { ref: 'bad ref with spaces', role: 'button', name: 'x', states: [], visibility: 'visible', tag: 'button', scope: 'document' },
            { ref: 'e1', role: 'button', name: 'duplicate ref', states: [], visibility: 'visible', tag: 'button', scope: 'document' },
            { ref: 'e9999', role: '', name: 'no role', states: ['focused', 'bogus' as never, 'focused'], visibility: 'visible', tag: 'div', scope: 'document' },
          ],
          texts: [{ text: 'Order A-1', role: 'heading', level: 1 }, { text: 'Status: Shipped' }],
          blindSpots: ['Cross-origin iframe', 'getter threw!'],
        }),
      }),
    );
    expect(s.elements).toHaveLength(3001);
    expect(s.elements?.find((e) => e.ref === 'e0')?.name.length).toBe(1024);
    expect(s.elements?.find((e) => e.ref === 'e9999')).toMatchObject({ role: 'generic', states: ['focused'] });
    expect(s.actions!.length).toBeLessThanOrEqual(512);
    expect(s.conflicts).toEqual(expect.arrayContaining(['legacy_actions_truncated', 'cross_origin_iframe', 'getter_threw']));
    expect(s.state).toBe('shipped');
  });
});
