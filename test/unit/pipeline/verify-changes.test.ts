import { describe, expect, it } from 'vitest';
import { ActionRequest, type AvailableAction } from '../../../src/protocol/action.ts';
import { ActionResult, type ExecutedResult } from '../../../src/protocol/results.ts';
import type { ObservedState } from '../../../src/protocol/observed-state.ts';
import type { ExecutionReport } from '../../../src/pipeline/ports.ts';
import { verifyOutcome } from '../../../src/pipeline/verify.ts';
import { observedChanges } from '../../../src/pipeline/what-changed.ts';
import { FakeShop, ORDER } from './fakes.ts';

/** Verification says what really changed, and flags a read-only-looking action that wrote. */

const before = new FakeShop().observation('ORD-1024', 'legacy_inference')!;
const withElements = (s: ObservedState, elements: NonNullable<ObservedState['elements']>, url = s.url): ObservedState => ({ ...s, url, elements });
const base = before.elements ?? [];
const row = { ref: 'r7', role: 'row', name: 'Item 7', states: [], visibility: 'visible' as const };
const box = { ref: 'k1', role: 'checkbox', name: 'Gift wrap', states: [], visibility: 'visible' as const };
const start = withElements(before, [...base, row, box, { ref: 'q1', role: 'textbox', name: 'Qty', value: '1', states: ['focused'], visibility: 'visible' }]);
const after = withElements(
  before,
  [
    ...base,
    { ...box, states: ['checked'] },
    { ref: 'q1', role: 'textbox', name: 'Qty', value: '2', states: [], visibility: 'visible' },
    { ref: 'm1', role: 'menuitem', name: 'Profile', states: [], visibility: 'visible' },
    { ref: 'm2', role: 'menuitem', name: 'Billing', states: [], visibility: 'visible' },
    { ref: 'h9', role: 'menuitem', name: 'Hidden', states: [], visibility: 'hidden' },
  ],
  `${before.url}#done`,
);
const disclosure: AvailableAction = {
  action: 'dom.click',
  via: 'legacy_inference',
  read_only: true,
  consequential: false,
  payment: false,
  untrusted_content: false,
  requires_approval: false,
  input_schema: {},
};
const del = { method: 'DELETE', url: 'https://shop.test/items/7', kind: 'fetch' as const, status: 200, at_ms: 12 };

describe('what changed', () => {
  it('counts what appeared and went away, with examples, values and states that changed, and the address', () => {
    expect(observedChanges(start, after, undefined, false)).toEqual({
      appeared: {
        count: 2,
        examples: [
          { role: 'menuitem', name: 'Profile' },
          { role: 'menuitem', name: 'Billing' },
        ],
      },
      removed: { count: 1, examples: [{ role: 'row', name: 'Item 7' }] },
      changed: [
        { ref: 'k1', role: 'checkbox', name: 'Gift wrap', states: { added: ['checked'], removed: [] } },
        { ref: 'q1', role: 'textbox', name: 'Qty', value: { from: '1', to: '2' } },
      ],
      changed_count: 2,
      url: { from: before.url, to: `${before.url}#done` },
    });
    expect(observedChanges(start, start, undefined, false)).toBeUndefined();
  });

  it('names the requests that may have written, and flags them when the action looked read-only', () => {
    expect(observedChanges(start, start, { requests: [del], settle: { ms: 80, how: 'quiet' } }, true)).toEqual({ requests: [del], settle: { ms: 80, how: 'quiet' }, read_only_wrote: true });
    expect(observedChanges(start, start, { requests: [del] }, false)).toEqual({ requests: [del] });
  });
});

describe('verifyOutcome with what changed', () => {
  const run = (report: ExecutionReport, description = disclosure) => {
    const r = verifyOutcome({
      action_id: 'act_1',
      request: ActionRequest.parse({ action: 'dom.click', resource: ORDER, input: { ref: 'r7' }, idempotency_key: 'k' }),
      description,
      report,
      before: start,
      after,
      executed_at: '2026-08-03T11:52:14Z',
    });
    expect(ActionResult.safeParse(r).success, JSON.stringify(r)).toBe(true);
    return r as ExecutedResult;
  };

  it('a “harmless” control that deleted something: the result shows the write, flagged, and is not confirmed', () => {
    const r = run({ outcome: 'completed', activity: { requests: [del], settle: { ms: 90, how: 'quiet' } } });
    expect(r.observed_changes).toMatchObject({ read_only_wrote: true, requests: [del], removed: { count: 1 } });
    expect(r.execution).toMatchObject({ status: 'confirmed', certainty: 'inferred' });
  });

  it('a page that never settled says so in the result', () => {
    const r = run({ outcome: 'completed', activity: { settle: { ms: 1500, how: 'capped', busy: ['mutations'] } } });
    expect(r.observed_changes?.settle).toEqual({ ms: 1500, how: 'capped', busy: ['mutations'] });
    expect(r.observed_changes?.read_only_wrote).toBeUndefined();
  });
});
