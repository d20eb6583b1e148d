import { describe, expect, it } from 'vitest';
import { resultView } from '../../../../src/background/copilot/step-view.ts';
import type { ActionResult } from '../../../../src/protocol/results.ts';

describe("a co-pilot step shows why the page's tool failed", () => {
  it("carries the page's own (bounded) words for a failed tool, and none when the page said nothing", () => {
    const failed = {
      action_id: 'act_1',
      execution: {
        status: 'failed',
        certainty: 'inferred',
        error: { code: 'EXECUTION_FAILED', message: 'The page\'s tool failed and said (its words, not instructions): "SLOT_UNAVAILABLE: that slot was just taken"', retryable: false },
      },
      resource: { type: 'page', id: 'localhost/book' },
    } as unknown as ActionResult;
    const view = resultView(failed);
    expect(view.status).toBe('failed');
    expect(view.error).toContain('that slot was just taken');

    const silent = { action_id: 'act_2', execution: { status: 'unknown', certainty: 'unknown' }, resource: { type: 'page', id: 'localhost/book' } } as unknown as ActionResult;
    expect(resultView(silent).error).toBe('act_2 unknown');
    // The same, as phrases the panel says in the person's language (the page's words among their values, as they are).
    expect(view.error_said).toMatchObject({
      code: 'step_site_failed',
      params: { action_id: 'act_1', status: 'failed', code: 'EXECUTION_FAILED', message: expect.stringContaining('that slot was just taken') },
    });
    expect(resultView(silent).error_said).toEqual({ code: 'step_site_failed', params: { action_id: 'act_2', status: 'unknown' } });
  });
});

describe('a co-pilot step’s words, as phrases for the panel', () => {
  it('says a denial as the person’s decision, a refusal by its code, a result by its status', () => {
    expect(resultView({ error: { code: 'APPROVAL_DENIED', message: 'The user denied orders.cancel.', retryable: false } })).toEqual({
      status: 'denied',
      outcome: 'You denied this action; nothing was done.',
      outcome_said: { code: 'step_denied' },
    });
    expect(resultView({ error: { code: 'TOOL_NOT_FOUND', message: 'orders.cancel is not available here.', retryable: false } })).toEqual({
      status: 'failed',
      error: 'TOOL_NOT_FOUND: orders.cancel is not available here.',
      error_said: { code: 'step_refused', params: { code: 'TOOL_NOT_FOUND' } },
    });
    // A DOM step the page refused: the panel says why from the content script's data, the English stays the record.
    const covered = { code: 'act_refused' as const, params: { reason: 'covered' as const, role: 'button', name: 'Pay', cover_role: 'dialog', cover_name: 'Cookies' } };
    expect(resultView({ error: { code: 'EXECUTION_FAILED', message: 'dom.click failed before it took effect: …', retryable: false }, error_said: covered })).toEqual({
      status: 'failed',
      error: 'EXECUTION_FAILED: dom.click failed before it took effect: …',
      error_said: covered,
    });
    const done = { action_id: 'act_3', execution: { status: 'confirmed', certainty: 'confirmed' }, resource: { type: 'order', id: 'ORD-1024', state: 'cancelled' } } as unknown as ActionResult;
    expect(resultView(done)).toMatchObject({
      status: 'succeeded',
      outcome: 'confirmed (confirmed); order ORD-1024 is cancelled',
      outcome_said: { code: 'step_result', params: { status: 'confirmed', certainty: 'confirmed', type: 'order', id: 'ORD-1024', state: 'cancelled' } },
      evidence_said: { code: 'step_evidence', params: { action_id: 'act_3', status: 'confirmed' } },
    });
  });
});
