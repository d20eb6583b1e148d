import { afterEach, describe, expect, it } from 'vitest';
import { approve } from '../../pipeline/fakes.ts';
import type { CopilotRun } from '../../../../src/protocol/copilot.ts';
import { TAB, act, done, haltAll, restarted, setUp, until, type Reply, type Setup } from './copilot-fakes.ts';

/** A run's `steps` hold one entry per step number, in order, each in its latest status, whichever way the run ends. */

const GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';
const cancel = act('orders.cancel', { reason: 'ordered_by_mistake' });
const view = act('orders.view');
const ask = JSON.stringify({ kind: 'ask_person', thought: 'unsure', question: 'Which order do you mean?' });
/** A model call that never answers until the run aborts it. */
const hang: Reply = (_m, signal) => new Promise<string>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));

async function start(s: Setup) {
  const reply = await s.manager.start({ tabId: TAB, goal: GOAL, grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 3_600_000 } });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data.run;
}

/** The run as `copilot/runs` reports it. */
async function listed(s: Setup, runId: string): Promise<CopilotRun> {
  const reply = await s.manager.runs({ tabId: TAB });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data.runs.find((r) => r.run_id === runId)!;
}

const shape = (run: CopilotRun) => run.steps.map((st) => `${st.n} ${st.status}`);

/** Every snapshot the panel was ever sent, and the listed run, have each step number once and in order. */
function expectDistinct(s: Setup, run: CopilotRun): void {
  const snapshots = [...s.pushes.flatMap((p) => (p.type === 'copilot/run-changed' ? [p.run] : [])), run];
  for (const r of snapshots) expect(r.steps.map((st) => st.n)).toEqual(r.steps.map((_, i) => i + 1));
}

async function ended(s: Setup, runId: string): Promise<CopilotRun> {
  await until(s, (r) => r.run_id === runId && r.end !== undefined, 'the end');
  const run = await listed(s, runId);
  expectDistinct(s, run);
  return run;
}

describe('co-pilot step numbers', () => {
  afterEach(haltAll);

  it('done: the final answer takes the place of the step that was thinking', async () => {
    const s = await setUp([cancel, done()]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_approval');
    const [card] = await s.h.pipeline.admin.pendingApprovals();
    await approve(s.h, card!);
    const end = await ended(s, run.run_id);
    expect(shape(end)).toEqual(['1 succeeded', '2 final']);
    expect(end.steps[1]).toMatchObject({ outcome: 'The order is cancelled.' });
    expect(end.steps[1]!.error).toBeUndefined();
  });

  it('ask_person: the question is its own step waiting for the answer, not beside an orphan; a stop ends it as the person’s', async () => {
    const s = await setUp([view, ask]);
    const run = await start(s);
    const waiting = await until(s, (r) => r.status === 'awaiting_answer', 'the question');
    expect(shape(waiting)).toEqual(['1 succeeded', '2 awaiting_answer']);
    expect(waiting.steps[1]).toMatchObject({ question: 'Which order do you mean?' });
    expect((await s.manager.stop({ run_id: run.run_id })).ok).toBe(true);
    const end = await ended(s, run.run_id);
    expect(end.end).toMatchObject({ reason: 'stopped_by_person' });
    expect(shape(end)).toEqual(['1 succeeded', '2 stopped']);
  });

  it('stuck: the step the model answered the same way a third time ends failed, once', async () => {
    const s = await setUp([view, view, view]);
    const run = await start(s);
    const end = await ended(s, run.run_id);
    expect(end.end).toMatchObject({ reason: 'stuck' });
    expect(shape(end)).toEqual(['1 succeeded', '2 succeeded', '3 failed']);
    expect(end.steps[2]!.error).toContain('stuck');
    expect(end.steps[2]!.error_said).toEqual({ code: 'step_cut_short', params: { reason: 'stuck' } });
    expect(end.end).toMatchObject({ detail_said: { code: 'run_stuck_act', params: { times: 3 } } });
  });

  it('model_error: the step that was asking the model ends failed, once', async () => {
    const s = await setUp([view]);
    const run = await start(s);
    const end = await ended(s, run.run_id);
    expect(end.end).toMatchObject({ reason: 'model_error' });
    expect(shape(end)).toEqual(['1 succeeded', '2 failed']);
  });

  it('an invalid reply twice is its own step, then the next one ends the run', async () => {
    const s = await setUp(['not json', '{"kind":"nope"}', done()]);
    const run = await start(s);
    const end = await ended(s, run.run_id);
    expect(shape(end)).toEqual(['1 invalid', '2 final']);
  });

  it('stop while thinking: the thinking step ends stopped by the person (not failed), once', async () => {
    const s = await setUp([view, hang]);
    const run = await start(s);
    await until(s, (r) => r.steps.some((st) => st.n === 2 && st.status === 'thinking'), 'step 2 thinking');
    expect((await s.manager.stop({ run_id: run.run_id })).ok).toBe(true);
    const end = await ended(s, run.run_id);
    expect(shape(end)).toEqual(['1 succeeded', '2 stopped']);
    expect(end.steps[1]!.outcome).toContain('You stopped the run');
    expect(end.steps[1]!.error).toBeUndefined();
  });

  it('a worker restart while thinking: the resumed step keeps its number and ends final', async () => {
    const first = await setUp([view, hang], { runId: 'run-think' });
    const run = await start(first);
    await until(first, (r) => r.steps.some((st) => st.n === 2 && st.status === 'thinking'), 'step 2 thinking');
    const second = await restarted(first, [done('Nothing left to do.')]);
    await second.manager.restore();
    const end = await ended(second, run.run_id);
    expect(shape(end)).toEqual(['1 succeeded', '2 final']);
  });
});
