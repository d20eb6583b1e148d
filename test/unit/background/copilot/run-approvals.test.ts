import { afterEach, describe, expect, it, vi } from 'vitest';
import { approve } from '../../pipeline/fakes.ts';
import { TAB, act, done, haltAll, setUp, until, type Setup } from './copilot-fakes.ts';

/** A run's approval card: withdrawn when the run ends before the person decides, and waited on without filling the logs. */

const GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';
const cancel = act('orders.cancel', { reason: 'ordered_by_mistake' });

async function start(s: Setup) {
  const reply = await s.manager.start({ tabId: TAB, goal: GOAL, grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 3_600_000 } });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data.run;
}

async function waitingCard(s: Setup) {
  await until(s, (r) => r.status === 'awaiting_approval', 'the approval');
  const [card] = await s.h.pipeline.admin.pendingApprovals();
  if (!card) throw new Error('no approval card');
  return card;
}

const cancellations = (s: Setup) => s.h.shop.calls.execute.filter((c) => c.action === 'orders.cancel').length;

describe('a co-pilot run’s approval cards', () => {
  afterEach(haltAll);

  const ends = [
    // Stop and take over are the person's: the audit records a stop. A closed tab withdraws the card without anyone deciding.
    { how: 'stopped', end: (s: Setup, runId: string) => s.manager.stop({ run_id: runId }), reason: 'stopped', step: 'stopped', outcome: 'stopped' },
    { how: 'taken over', end: (s: Setup, runId: string) => s.manager.takeOver({ run_id: runId }), reason: 'took over', step: 'stopped', outcome: 'stopped' },
    { how: 'closed with its tab', end: (s: Setup) => s.manager.onTabRemoved(TAB), reason: 'tab was closed', step: 'failed', outcome: 'withdrawn' },
  ];

  for (const { how, end, reason, step, outcome } of ends) {
    it(`a run ${how} while its step awaits approval leaves no card behind; the audit says the end withdrew it (${outcome})`, async () => {
      const s = await setUp([cancel, done()]);
      const run = await start(s);
      const card = await waitingCard(s);
      const before = s.pushes.length;
      await end(s, run.run_id);

      expect(await s.h.pipeline.admin.pendingApprovals()).toEqual([]);
      expect(s.pushes.slice(before)).toContainEqual({ type: 'panel/approvals-changed' });
      const ended = await until(s, (r) => r.end !== undefined);
      // The person's own end (Stop, take over) is theirs, not a failure of the step.
      expect(ended.steps[0]).toMatchObject({ status: step });
      expect(ended.steps[0]!.approval_id).toBeUndefined();

      // The pipeline ends the action as a denial, in the run's agent's audit trail, with the reason and who ended it.
      await vi.waitFor(async () => {
        const audit = (await s.h.pipeline.admin.auditEntries()).filter((e) => e.agent_id === run.agent_id);
        const denial = audit.find((e) => e.kind === 'denial');
        expect(denial).toMatchObject({ outcome, error_code: 'APPROVAL_DENIED', action: 'orders.cancel' });
        expect(String(denial?.details?.message)).toContain(reason);
      });
      // However late the waiting step hears of the denial, the run stays ended: no push shows it ended and active again.
      await new Promise((r) => setTimeout(r, 50));
      const endedPushes = s.pushes.flatMap((p) => (p.type === 'copilot/run-changed' && p.run.end ? [p.run.status] : []));
      expect(endedPushes.length).toBeGreaterThan(0);
      expect(new Set(endedPushes)).toEqual(new Set(['stopped']));
      // Deciding the old card later does nothing.
      expect(await s.h.pipeline.admin.decide({ request_id: card.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date(s.h.clock.t).toISOString() })).toMatchObject({
        ok: false,
        problem: 'already_decided',
      });
      expect(cancellations(s)).toBe(0);
    });
  }

  it('waiting on the card resubmits nothing: the step hears of the decision from the pipeline, then submits its key once for the result', async () => {
    const s = await setUp([cancel, done()]);
    const submit = vi.spyOn(s.h.pipeline, 'submit');
    await start(s);
    const card = await waitingCard(s);
    const submits = submit.mock.calls.length;
    const audit = (await s.h.pipeline.admin.auditEntries()).length;
    const journal = (await s.h.db.getAll('journal')).length;
    // The sleeps the run's ports are given are ticks here: a timer-driven wait would have resubmitted many times.
    await new Promise((r) => setTimeout(r, 100));
    expect(submit.mock.calls.length).toBe(submits);
    expect((await s.h.pipeline.admin.auditEntries()).length).toBe(audit);
    expect((await s.h.db.getAll('journal')).length).toBe(journal);

    await approve(s.h, card);
    await until(s, (r) => r.end !== undefined);
    expect(cancellations(s)).toBe(1);
    const keys = submit.mock.calls.slice(submits - 1).map(([request]) => (request as { idempotency_key: string }).idempotency_key);
    expect(keys).toEqual([keys[0], keys[0]]);
  });
});
