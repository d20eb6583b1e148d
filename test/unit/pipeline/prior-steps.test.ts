import { describe, expect, it } from 'vitest';
import { PriorSteps } from '../../../src/pipeline/prior-steps.ts';
import type { ElementSummary } from '../../../src/protocol/element.ts';

/** Issue 27, self-approval: a card that answers the page's confirmation shows the agent's step that made the page ask. */
const el = (ref: string, name: string, visibility: ElementSummary['visibility'] = 'visible'): ElementSummary => ({ ref, role: 'button', name, states: [], visibility });
const ORIGIN = 'https://lab.test';
const confirmation = [{ code: 'confirmation' as const, detail: '“Yes” answers the page' }];

describe('the step that made the page ask', () => {
  it('is tied to a confirmation card on the same site, saying the control appeared after it', () => {
    const steps = new PriorSteps();
    steps.note('agent:a', { action: 'dom.click', target: el('e1', 'Delete note'), at: 1_000, origin: ORIGIN, before: [el('e1', 'Delete note'), el('e2', 'Yes', 'hidden')] });
    const tied = steps.tie('agent:a', { origin: ORIGIN, now: 2_000, target: el('e2', 'Yes'), reasons: confirmation });
    expect(tied.prior).toEqual({
      action: 'dom.click',
      target: 'button “Delete note”',
      target_said: { code: 'element', params: { role: 'button', name: 'Delete note' } },
      at: new Date(1_000).toISOString(),
    });
    expect(tied.reasons[0]!.detail).toContain('appeared after this agent’s previous step');
  });

  it('is not tied to another agent, another site, a card that is no confirmation, or a step long ago', () => {
    const steps = new PriorSteps();
    steps.note('agent:a', { action: 'dom.click', target: el('e1', 'Delete note'), at: 1_000, origin: ORIGIN, before: [] });
    expect(steps.tie('agent:b', { origin: ORIGIN, now: 2_000, reasons: confirmation }).prior).toBeUndefined();
    expect(steps.tie('agent:a', { origin: 'https://other.test', now: 2_000, reasons: confirmation }).prior).toBeUndefined();
    expect(steps.tie('agent:a', { origin: ORIGIN, now: 2_000, reasons: [{ code: 'form_submission' }] }).prior).toBeUndefined();
    expect(steps.tie('agent:a', { origin: ORIGIN, now: 1_000 + 11 * 60_000, reasons: confirmation }).prior).toBeUndefined();
  });
});
