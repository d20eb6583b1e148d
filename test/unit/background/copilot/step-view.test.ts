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
  });
});
