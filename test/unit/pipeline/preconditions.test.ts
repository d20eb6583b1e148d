import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { ActionErrorResult } from '../../../src/protocol/results.ts';
import { checkPreconditions } from '../../../src/pipeline/preconditions.ts';
import { FakeShop, ORDER } from './fakes.ts';

const shop = new FakeShop();
shop.ship('ORD-1024');
const shipped = shop.observation('ORD-1024', 'site_contract')!;
const req = (preconditions?: Record<string, unknown>) => ActionRequest.parse({ action: 'orders.cancel', resource: ORDER, idempotency_key: 'k', ...(preconditions ? { preconditions } : {}) });

describe('checkPreconditions', () => {
  it('passes when nothing is expected, or what is expected holds', () => {
    expect(checkPreconditions(req(), shipped)).toBeUndefined();
    expect(checkPreconditions(req({ expected_state: 'shipped', state_version: 21 }), shipped)).toBeUndefined();
  });

  it('a different state gives PRECONDITION_FAILED in the DESIGN shape', () => {
    const r = checkPreconditions(req({ expected_state: 'awaiting_payment', state_version: 17 }), shipped, 'act_1')!;
    expect(ActionErrorResult.parse(r)).toBeTruthy();
    expect(r).toMatchObject({
      error: { code: 'PRECONDITION_FAILED', retryable: false, message: 'The order ORD-1024 is shipped, not awaiting_payment as expected (state_version 21).' },
      action_id: 'act_1',
      expected: { state: 'awaiting_payment', state_version: 17 },
      current: { state: 'shipped', state_version: 21, source: 'site_contract' },
      recovery_hint: 'Refresh the resource state and re-plan using an available action.',
    });
    expect(r.available_actions).toEqual([
      { action: 'orders.view', requires_approval: false, via: 'site_contract' },
      { action: 'orders.track', requires_approval: false, via: 'site_contract' },
    ]);
  });

  it('the same state at another version is a mismatch too; integer and fingerprint never match', () => {
    expect(checkPreconditions(req({ state_version: 20 }), shipped)?.error.message).toMatch(/changed since/);
    expect(checkPreconditions(req({ state_version: 'fp-000015' }), shipped)?.error.code).toBe('PRECONDITION_FAILED');
  });
});
