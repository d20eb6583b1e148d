import { describe, expect, it } from 'vitest';
import { ErrorCode, StewardError, makeError } from '../../../src/protocol/errors.ts';
import { ActionErrorResult, ActionResult, ExecutedResult, errorResult, isErrorResult } from '../../../src/protocol/results.ts';
import { accepts, example, isConfirmedDone, rejects } from './helpers.ts';

describe('never done while only accepted (security invariant 6)', () => {
  it('an accepted result cannot claim any certainty but pending_confirmation', () => {
    for (const certainty of ['confirmed', 'inferred', 'unknown']) {
      const r = example('resultAccepted');
      r.execution.certainty = certainty;
      rejects(ActionResult, r, 'execution.certainty', /accepted execution is not done/);
      rejects(ExecutedResult, r, 'execution.certainty', /pending_confirmation/);
    }
  });
  it('pending_confirmation belongs to accepted only', () => {
    for (const status of ['confirmed', 'failed']) {
      const r = example('resultConfirmed');
      r.execution.status = status;
      r.execution.certainty = 'pending_confirmation';
      rejects(ActionResult, r, 'execution.certainty', /never pending_confirmation|belongs only to status "accepted"/);
    }
    const u = example('resultConfirmed');
    u.execution = { status: 'unknown', certainty: 'pending_confirmation' };
    delete u.effects;
    rejects(ActionResult, u, 'execution.certainty', /must have certainty "unknown"/);
  });
  it('an accepted or unknown result reports no effects yet', () => {
    const r = { ...example('resultAccepted'), effects: [{ type: 'order_cancelled', reversible: false }] };
    rejects(ActionResult, r, 'effects', /accepted action has none yet/);
  });
  it('a confirmed result says when it ran and what state it led to', () => {
    const r = example('resultConfirmed');
    delete r.execution.executed_at;
    rejects(ExecutedResult, r, 'execution.executed_at', /required/);
    const s = example('resultConfirmed');
    delete s.resource.state_version;
    rejects(ActionResult, s, 'resource.state_version', /resulting state_version/);
  });
  it('rejects an unknown execution status', () => {
    const r = example('resultConfirmed');
    r.execution.status = 'done';
    rejects(ActionResult, r, 'execution.status', /Expected 'confirmed' \| 'accepted' \| 'failed' \| 'unknown'/);
  });
  it('legacy outcomes: confirmed/inferred, failed, unknown', () => {
    const base = { action_id: 'act_1', resource: { type: 'order', id: 'ORD-1024' } };
    accepts(ActionResult, {
      ...base,
      resource: { ...base.resource, state: 'cancelled', state_version: 'fp-abcdef' },
      execution: { status: 'confirmed', certainty: 'inferred', executed_at: '2026-08-03T11:52:14Z', verified_by: 'postcondition' },
    });
    accepts(ActionResult, { ...base, execution: { status: 'failed', certainty: 'confirmed' } });
    accepts(ActionResult, { ...base, execution: { status: 'unknown', certainty: 'unknown' } });
  });
  it('isConfirmedDone is true only for a confirmed, certain result', () => {
    expect(isConfirmedDone(accepts(ActionResult, example('resultConfirmed')))).toBe(true);
    expect(isConfirmedDone(accepts(ActionResult, example('resultAccepted')))).toBe(false);
    expect(isConfirmedDone(accepts(ActionResult, example('resultPreconditionFailed')))).toBe(false);
  });
});

describe('error results', () => {
  it('rejects an unknown error code', () => {
    const r = example('resultPreconditionFailed');
    r.error.code = 'ORDER_SHIPPED';
    rejects(ActionErrorResult, r, 'error.code', /expected one of "PRECONDITION_FAILED"/);
    rejects(ActionResult, r, 'error.code', /expected one of/);
  });
  it('rejects an error without retryable', () => {
    const r = example('resultPreconditionFailed');
    delete r.error.retryable;
    rejects(ActionResult, r, 'error.retryable', /required \(expected boolean\)/);
    rejects(StewardError, { code: 'INVALID_INPUT', message: 'x', recovery_hint: 'y', retryable: 'no' }, 'retryable', /true or false/);
  });
  it('requires a recovery hint somewhere', () => {
    const r = example('resultPreconditionFailed');
    delete r.recovery_hint;
    rejects(ActionErrorResult, r, 'recovery_hint', /every error needs a recovery hint/);
    r.error.recovery_hint = 'Re-read the order.';
    accepts(ActionErrorResult, r);
    rejects(StewardError, { code: 'INVALID_INPUT', message: 'x', retryable: false }, 'recovery_hint', /required/);
  });
  it('PRECONDITION_FAILED reports the current state', () => {
    const r = example('resultPreconditionFailed');
    delete r.current;
    rejects(ActionErrorResult, r, 'current', /current state and state_version/);
  });
  it('isErrorResult tells the forms apart', () => {
    expect(isErrorResult(accepts(ActionResult, example('resultPreconditionFailed')))).toBe(true);
    expect(isErrorResult(accepts(ActionResult, example('resultAccepted')))).toBe(false);
  });
});

describe('makeError', () => {
  it('has a default retryability and recovery hint for every code', () => {
    // Only these may succeed when sent again unchanged; every other code needs a new state, approval, token or input.
    const retryable = new Set<ErrorCode>(['QUOTA_EXCEEDED', 'IN_PROGRESS', 'AUDIT_UNAVAILABLE']);
    for (const code of ErrorCode.options) {
      const e = makeError(code, `something about ${code}`);
      accepts(StewardError, e);
      expect(e.retryable).toBe(retryable.has(code));
      expect(e.recovery_hint.length).toBeGreaterThan(10);
    }
    expect(makeError('IN_PROGRESS', 'x').retryable).toBe(true);
    expect(makeError('QUOTA_EXCEEDED', 'x').retryable).toBe(true);
    expect(makeError('IDEMPOTENCY_CONFLICT', 'x').retryable).toBe(false);
    expect(makeError('EXECUTION_FAILED', 'x').retryable).toBe(false); // may have taken effect: re-observe first
  });
  it('takes overrides and extras', () => {
    const e = makeError('QUOTA_EXCEEDED', 'Too many actions.', { retry_after_ms: 30_000, recovery_hint: 'Wait 30 s.' });
    expect(e).toEqual({ code: 'QUOTA_EXCEEDED', message: 'Too many actions.', retryable: true, recovery_hint: 'Wait 30 s.', retry_after_ms: 30_000 });
  });
  it('errorResult builds the DESIGN §3 error form', () => {
    const r = errorResult(makeError('PRECONDITION_FAILED', 'Order has shipped.'), {
      expected: { state: 'awaiting_payment', state_version: 17 },
      current: { state: 'shipped', state_version: 21 },
      available_actions: [{ action: 'orders.track', requires_approval: false }],
    });
    accepts(ActionResult, r);
    expect(r.recovery_hint).toBe('Refresh the resource state and re-plan using an available action.');
  });
});
