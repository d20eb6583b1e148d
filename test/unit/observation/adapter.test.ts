import { describe, expect, it } from 'vitest';
import { Adapter, AdapterRegistry, shopAdapter } from '../../../src/observation/adapters/index.ts';
import { runAdapter } from '../../../src/observation/adapters/evaluate.ts';
import type { AdapterDefinition } from '../../../src/observation/adapters/format.ts';
import { fuseWithDetail } from '../../../src/observation/fusion/index.ts';
import { expectValid, fact, fuse } from './fixtures/fusion-helpers.ts';
import { shopApiRecord, shopOrderSnapshot } from './fixtures/shop-order-snapshot.ts';

const ORIGIN = 'http://127.0.0.1:41873';

/** The shop's adapter as a definition to change (a copy: the parsed adapter is its definition with the defaults filled in). */
const definition = (): AdapterDefinition => structuredClone(shopAdapter());

describe('adapter format', () => {
  it('accepts the shop adapter', () => {
    expect(Adapter.safeParse(shopAdapter()).success).toBe(true);
    expect(Adapter.safeParse(shopAdapter({ origin: ORIGIN })).success).toBe(true);
  });

  it('refuses malformed definitions with the reason', () => {
    const bad = (patch: (d: AdapterDefinition) => void) => {
      const d = definition();
      patch(d);
      const r = Adapter.safeParse(d);
      expect(r.success).toBe(false);
      return r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(bad((d) => (d.actions![0]!.name = 'pay'))).toMatch(/actions\.0\.name: must be namespace\.verb/);
    expect(bad((d) => (d.state = { read: { from: 'text', pattern: '(unclosed' } }))).toMatch(/valid regular expression/);
    expect(bad((d) => (d.match.path = '/orders/:id/:id'))).toMatch(/each :name once/);
    expect(bad((d) => (d.match.origins = ['http://127.0.0.1:41873/orders']))).toMatch(/origin/);
    expect(bad((d) => Object.assign(d.actions![3]!, { changes: ['order_tracked'] }))).toMatch(/read-only action cannot list changes/);
    expect(bad((d) => Object.assign(d, { script: 'alert(1)' }))).toMatch(/Unrecognized key/);
    expect(bad((d) => Object.assign(d.resource.id.read, { selector: '#order' }))).toMatch(/Unrecognized key/);
  });
});

describe('matching', () => {
  const snapshot = shopOrderSnapshot({ origin: ORIGIN });

  it('matches the shop on any port by path and site marker, or only its pinned origin', () => {
    expect(runAdapter(shopAdapter(), snapshot)).toBeDefined();
    expect(runAdapter(shopAdapter({ origin: ORIGIN }), snapshot)).toBeDefined();
    expect(runAdapter(shopAdapter({ origin: 'http://127.0.0.1:5100' }), snapshot)).toBeUndefined();
  });

  it('does not match another page or another site', () => {
    expect(runAdapter(shopAdapter(), { ...snapshot, url: `${ORIGIN}/orders/ORD-1024/tracking` })).toBeUndefined();
    expect(runAdapter(shopAdapter(), { ...snapshot, title: 'Order ORD-1024 — Some Other Shop' })).toBeUndefined();
    expect(runAdapter(shopAdapter(), { ...snapshot, structuredData: [] })).toBeUndefined();
  });

  it('the registry pins an adapter to the origin given at registration and refuses bad ones', () => {
    const registry = new AdapterRegistry();
    expect(registry.register(shopAdapter(), { origin: ORIGIN }).ok).toBe(true);
    expect(registry.forSnapshot(snapshot).map((a) => a.id)).toEqual(['larkspur-shop.order']);
    expect(registry.forSnapshot(shopOrderSnapshot({ origin: 'http://127.0.0.1:9999' }))).toEqual([]);
    const refused = registry.register({ id: 'Bad Id', match: { path: 'orders' } });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toMatch(/id|path/);
    expect(registry.list()).toHaveLength(1);
  });
});

describe('running the shop adapter', () => {
  it('reads resource, state and fields from the snapshot, with provenance', () => {
    const out = runAdapter(shopAdapter(), shopOrderSnapshot())!;
    expect(out.claims.map((c) => [c.field, c.value, c.source])).toEqual([
      ['resource_type', 'order', 'adapter'],
      ['resource_id', 'ORD-1024', 'adapter'],
      ['state', 'awaiting_payment', 'adapter'],
      ['placed_at', '2026-07-28', 'adapter'],
    ]);
    expect(out.expected).toEqual(['total']);
    expect(out.conflicts).toEqual([]);
  });

  it('maps actions to the controls that perform them, with inputs bound to their controls', () => {
    const out = runAdapter(shopAdapter(), shopOrderSnapshot())!;
    const cancel = out.actions.find((a) => a.action.action === 'orders.cancel')!;
    expect(cancel.targetRef).toBe('e22');
    expect(cancel.inputRefs).toEqual({ reason: 'e21' });
    expect(cancel.action).toMatchObject({ via: 'adapter', consequential: true, requires_approval: true, changes: ['order_cancelled'], target_ref: 'e22' });
    expect(cancel.action.input_schema).toMatchObject({ required: ['reason'], properties: { reason: { enum: expect.arrayContaining(['ordered_by_mistake']) } } });
    expect(out.actions.find((a) => a.action.action === 'orders.pay')?.action).toMatchObject({ payment: true, target_ref: 'e20' });
    expect(out.actions.find((a) => a.action.action === 'orders.add_item')?.inputRefs).toEqual({ sku: 'e10', quantity: 'e11' });
    expect(out.actions.find((a) => a.action.action === 'orders.track')).toBeUndefined(); // no such link yet
  });

  it('offers only what the page allows: a shipped order can be tracked, not paid or cancelled', () => {
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot({ status: 'shipped' }), adapters: [shopAdapter()] }));
    expect(s.available_actions.filter((a) => a.startsWith('orders.'))).toEqual(['orders.track']);
    expect(s.actions?.find((a) => a.action === 'orders.track')).toMatchObject({ read_only: true, requires_approval: false });
  });

  it('a hidden or disabled control is not an available action', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.elements.find((e) => e.ref === 'e22')!.states.push('disabled');
    snapshot.elements.find((e) => e.ref === 'e20')!.visibility = 'covered';
    const names = runAdapter(shopAdapter(), snapshot)!.actions.map((a) => a.action.action);
    expect(names).toEqual(['orders.add_item']);
  });
});

describe('fusion with the adapter', () => {
  it('the adapter agrees with the page: source adapter, more confidence, adapter actions offered', () => {
    const without = fuse({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()] });
    const detail = fuseWithDetail({ snapshot: shopOrderSnapshot(), network: [shopApiRecord()], adapters: [shopAdapter()] });
    const s = expectValid(detail.state);
    expect(s.source).toBe('adapter');
    expect(s.evidence).toContain('adapter');
    expect(fact(s, 'state')?.sources).toEqual(['adapter', 'dom', 'structured_data', 'network']);
    expect(fact(s, 'state')!.confidence).toBeGreaterThan(fact(without, 'state')!.confidence);
    expect(s.available_actions).toEqual(expect.arrayContaining(['orders.pay', 'orders.cancel', 'orders.add_item', 'dom.click']));
    expect(s.conflicts).toEqual(['canvas_total_not_observed']);
    expect(detail.adapterBindings.map((b) => b.action.action)).toEqual(['orders.pay', 'orders.cancel', 'orders.add_item']);
  });

  it('an adapter that reads another state than the DOM is a conflict, and costs confidence', () => {
    const stale = definition();
    stale.state!.map = { 'Awaiting payment': 'paid' }; // e.g. the shop renamed its states under the adapter
    const agreeing = fuse({ snapshot: shopOrderSnapshot(), adapters: [shopAdapter()] });
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot(), adapters: [Adapter.parse(stale)] }));
    expect(s.conflicts).toContain('adapter_state_disagrees_with_dom');
    expect(fact(s, 'state')?.disagreements).toEqual([{ source: 'adapter', value: 'paid' }]);
    expect(s.confidence).toBeLessThan(agreeing.confidence);
    expect(s.source).toBe('legacy_inference');
    // Actions are gated by the fused state (awaiting_payment), not by the adapter's reading of it.
    expect(s.available_actions).toContain('orders.pay');
  });

  it('text the adapter cannot map is reported, not guessed', () => {
    const def = definition();
    delete def.state!.map!['Awaiting payment'];
    const s = expectValid(fuse({ snapshot: shopOrderSnapshot(), adapters: [Adapter.parse(def)] }));
    expect(s.conflicts).toContain('adapter_state_not_observed');
    expect(s.state).toBe('awaiting_payment'); // the other sources still know
  });

  it('the adapter’s expectation makes a missing total a blind spot even without line items', () => {
    const snapshot = shopOrderSnapshot();
    snapshot.tables = [];
    snapshot.structuredData[0]!.data.orderedItem = [];
    expect(fuse({ snapshot }).conflicts).not.toContain('canvas_total_not_observed');
    expect(fuse({ snapshot, adapters: [shopAdapter()] }).conflicts).toContain('canvas_total_not_observed');
  });
});
