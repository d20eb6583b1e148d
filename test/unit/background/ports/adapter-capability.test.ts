import { describe, expect, it } from 'vitest';
import { resolveCapability } from '../../../../src/pipeline/capability.ts';
import type { Executor } from '../../../../src/pipeline/ports.ts';
import { ActionRequest } from '../../../../src/protocol/action.ts';
import { fuse } from '../../observation/fixtures/fusion-helpers.ts';
import { shopAdapter } from '../../../../src/observation/adapters/index.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';

/**
 * An adapter action carries the ref of the control that performs it (`target_ref`); the agent
 * never names that ref. Found on the real shop page: the capability check once applied the
 * legacy per-element filter to adapter actions too, so `orders.cancel` was "not available".
 */
const noop: Executor = { execute: async () => ({ outcome: 'completed' }) };
const observed = fuse({ snapshot: shopOrderSnapshot({ origin: 'http://localhost:4100' }), adapters: [shopAdapter()] });
const request = (action: string, input: Record<string, unknown>) => ActionRequest.parse({ action, resource: { type: 'order', id: 'ORD-1024' }, input, idempotency_key: 'k1' });

describe('capability check with the shop adapter on a fused observation', () => {
  it('offers orders.cancel through the adapter although its entry is bound to a control', () => {
    expect(observed.actions?.find((a) => a.action === 'orders.cancel')?.target_ref).toEqual(expect.any(String));
    const cap = resolveCapability(request('orders.cancel', { reason: 'other' }), observed, { adapter: noop, legacy_inference: noop });
    expect(cap).toMatchObject({ ok: true, capability: { description: { action: 'orders.cancel', via: 'adapter' } } });
  });

  it('still checks the adapter action’s input schema', () => {
    const cap = resolveCapability(request('orders.cancel', { reason: 'bored' }), observed, { adapter: noop });
    expect(cap).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('keeps legacy entries per element: the entry for the named ref, not another one', () => {
    const click = observed.actions!.filter((a) => a.action === 'dom.click' && a.target_ref);
    expect(click.length).toBeGreaterThan(1);
    const ref = click[1]!.target_ref!;
    const cap = resolveCapability(request('dom.click', { ref }), observed, { legacy_inference: noop });
    expect(cap.ok && cap.capability.description.target_ref).toBe(ref);
  });
});
