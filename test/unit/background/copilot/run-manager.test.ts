import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from '@webext-core/fake-browser';
import { approvalOf, approve } from '../../pipeline/fakes.ts';
import { KEY, TAB, act, done, haltAll, restarted, setUp, until, type Setup } from './copilot-fakes.ts';

const GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';
const cancel = act('orders.cancel', { reason: 'ordered_by_mistake' });

async function start(s: Setup, goal = GOAL) {
  const reply = await s.manager.start({ tabId: TAB, goal, grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 3_600_000 } });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data.run;
}

async function pendingCard(s: Setup) {
  for (let i = 0; i < 2000; i++) {
    const [card] = await s.h.pipeline.admin.pendingApprovals();
    if (card) return card;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error('no approval card');
}

const tokenStatus = async (s: Setup, agentId: string) => (await s.h.pipeline.admin.tokens(agentId)).map((t) => t.status);
const cancellations = (s: Setup) => s.h.shop.calls.execute.filter((c) => c.action === 'orders.cancel').length;

describe('co-pilot runs in the worker', () => {
  afterEach(haltAll);

  it('cancels the order with one approval shown inline, ends done and verified, and revokes its token', async () => {
    const s = await setUp([cancel, done()]);
    const run = await start(s);
    expect(run).toMatchObject({ status: 'running', origin: 'http://localhost:4100', agent_id: `agent:copilot-${run.run_id}`, model_label: 'Demo model (scripted)' });
    expect(await tokenStatus(s, run.agent_id)).toEqual(['active']);

    const waiting = await until(s, (r) => r.status === 'awaiting_approval', 'the approval');
    const card = await pendingCard(s);
    expect(waiting.steps[0]).toMatchObject({ n: 1, status: 'awaiting_approval', approval_id: card.request_id, action: { name: 'orders.cancel', via: 'adapter' } });
    // The card says the run's agent read page content: the gateway asked because the run is tainted.
    expect(card.agent_id).toBe(run.agent_id);
    expect(card.reasons).toContainEqual(expect.objectContaining({ code: 'untrusted_input', detail: expect.stringContaining('page or tool content has already reached this agent') }));
    await approve(s.h, card);

    const ended = await until(s, (r) => r.end !== undefined, 'the end');
    expect(ended.status).toBe('finished');
    expect(ended.end).toMatchObject({ kind: 'done', verified: true });
    expect(ended.steps[0]).toMatchObject({ status: 'succeeded', evidence: expect.stringContaining('confirmed') });
    expect(ended.steps.at(-1)).toMatchObject({ status: 'final' });
    expect(cancellations(s)).toBe(1);
    expect(s.h.shop.orders.get('ORD-1024')!.state).toBe('cancelled');
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
  });

  it('marks the run’s agent tainted before the first prompt with page content reaches the model; the mark goes with the run’s token', async () => {
    const s = await setUp([done('nothing to do')]);
    const run = await start(s);
    await until(s, (r) => r.end !== undefined);
    expect(s.client.calls[0]!.some((m) => m.content.includes('ORD-1024'))).toBe(true);
    expect(s.client.taintedAtCall).toEqual([true]);
    // The run's agent ends with its run: its token is revoked, and its taint with it.
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
    await expect.poll(() => s.ledger.taintOf(run.agent_id)).toBeUndefined();
  });

  it('never pushes the token secret or the model key, and stores the key only in the extension’s local storage', async () => {
    const s = await setUp([cancel, done()]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_approval');
    await approve(s.h, await pendingCard(s));
    await until(s, (r) => r.end !== undefined);
    const pushed = JSON.stringify(s.pushes);
    expect(pushed).not.toContain(KEY);
    expect(pushed).not.toMatch(/stw_secret_/);
    expect(JSON.stringify(await s.manager.runs({}))).not.toMatch(new RegExp(`${KEY}|stw_secret_`));
    expect(await s.manager.modelStatus()).toMatchObject({ has_key: true });
    expect(JSON.stringify(await fakeBrowser.storage.session.get())).not.toContain(KEY);
    expect(run.token_id).toMatch(/^tok_/);
  });

  describe('refuses to start, clearly, and grants nothing', () => {
    it('while another run is active on the tab', async () => {
      const s = await setUp([cancel]);
      await start(s);
      const again = await s.manager.start({ tabId: TAB, goal: 'something else', grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 60_000 } });
      expect(again).toMatchObject({ ok: false, error: { code: 'RUN_ACTIVE', message: expect.stringContaining('already active') } });
    });

    it('when two starts on one tab race', async () => {
      const s = await setUp([cancel]);
      const grant = { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 60_000 };
      const [a, b] = await Promise.all([s.manager.start({ tabId: TAB, goal: GOAL, grant }), s.manager.start({ tabId: TAB, goal: GOAL, grant })]);
      expect([a.ok, b.ok].sort()).toEqual([false, true]);
      expect([a, b].find((r) => !r.ok)).toMatchObject({ error: { code: 'RUN_ACTIVE' } });
    });

    it('on a site Steward may not read', async () => {
      const s = await setUp([]);
      s.tab.allowed = false;
      const r = await s.manager.start({ tabId: TAB, goal: GOAL, grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 60_000 } });
      expect(r).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED', message: expect.stringContaining('http://localhost:4100') } });
      expect(await s.h.pipeline.admin.tokens()).toHaveLength(1); // only the harness's own token
    });

    it('without a ready model', async () => {
      const s = await setUp([]);
      s.model.ready = false;
      const r = await s.manager.start({ tabId: TAB, goal: GOAL, grant: { scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 60_000 } });
      expect(r).toMatchObject({ ok: false, error: { code: 'MODEL_NOT_READY', message: 'Choose a model in Settings first.' } });
      expect(await s.h.pipeline.admin.tokens()).toHaveLength(1);
    });
  });

  it('pauses between steps (the model is not asked again) and goes on when resumed', async () => {
    let runId = '';
    const s: Setup = await setUp([
      async () => {
        await s.manager.pause({ run_id: runId });
        return act('orders.view');
      },
      done('viewed'),
    ]);
    runId = (await start(s)).run_id;
    const paused = await until(s, (r) => r.status === 'paused' && r.steps[0]?.status === 'succeeded', 'step 1 to end, paused');
    expect(paused.end).toBeUndefined();
    await new Promise((r) => setTimeout(r, 30));
    expect(s.client.calls).toHaveLength(1);
    expect((await s.manager.resume({ run_id: runId })).ok).toBe(true);
    const ended = await until(s, (r) => r.end !== undefined);
    expect(ended.end).toMatchObject({ kind: 'done' });
    expect(s.client.calls).toHaveLength(2);
  });

  it('stops while the approval is pending: nothing is done, the token is revoked, and the card is withdrawn', async () => {
    const s = await setUp([cancel]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_approval');
    const card = await pendingCard(s);
    const stopped = await s.manager.stop({ run_id: run.run_id });
    expect(stopped).toMatchObject({ ok: true, data: { run: { status: 'stopped', end: { kind: 'stopped', reason: 'stopped_by_person' } } } });
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
    expect(await s.h.pipeline.admin.pendingApprovals()).toEqual([]);
    await expect(approve(s.h, card)).rejects.toThrow('already denied');
    await new Promise((r) => setTimeout(r, 30));
    expect(cancellations(s)).toBe(0);
    expect(await s.manager.pause({ run_id: run.run_id })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_ACTIVE' } });
  });

  it('a card the person denies ends the run as their decision: the step reads "denied", never failed, and nothing is done', async () => {
    const s = await setUp([cancel, done()]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_approval');
    const card = await pendingCard(s);
    const r = await s.h.pipeline.deps.approvals.decide({ ...approvalOf(card, s.h.clock.t), decision: 'deny' });
    expect(r.ok).toBe(true);
    const ended = await until(s, (r) => r.end !== undefined, 'the end');
    expect(ended).toMatchObject({ status: 'stopped', end: { kind: 'stopped', reason: 'denied_by_person', detail: 'You denied orders.cancel on order ORD-1024, so the co-pilot stopped there.' } });
    expect(ended.steps).toEqual([expect.objectContaining({ n: 1, status: 'denied', outcome: 'You denied this action; nothing was done.' })]);
    expect(ended.steps[0]!.error).toBeUndefined();
    // The model is not asked for a way around the person's "no".
    expect(s.client.calls).toHaveLength(1);
    expect(cancellations(s)).toBe(0);
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
  });

  it('a step cut short by the person’s Stop reads "stopped", not failed', async () => {
    const s = await setUp([cancel]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_approval');
    const stopped = await s.manager.stop({ run_id: run.run_id });
    if (!stopped.ok) throw new Error(stopped.error.message);
    expect(stopped.data.run.steps).toEqual([expect.objectContaining({ n: 1, status: 'stopped', outcome_said: { code: 'step_stopped' } })]);
    expect(stopped.data.run.steps[0]!.error).toBeUndefined();
  });

  it('asks the person: the question waits (unanswered by the model’s clock), the answer goes back to the model, and the run goes on', async () => {
    const question = JSON.stringify({ kind: 'ask_person', thought: 'Two reasons fit.', question: 'Why are you cancelling?' });
    const s = await setUp([question, cancel, done()]);
    const run = await start(s);
    expect(await s.manager.answer({ run_id: run.run_id, answer: 'too early' })).toMatchObject({ ok: false, error: { code: 'NO_QUESTION' } });
    const waiting = await until(s, (r) => r.status === 'awaiting_answer', 'the question');
    expect(waiting.steps[0]).toMatchObject({ n: 1, status: 'awaiting_answer', question: 'Why are you cancelling?', thought: 'Two reasons fit.' });
    expect(s.client.calls).toHaveLength(1);
    // Longer than the run's whole time budget (10 minutes).
    s.h.clock.t += 20 * 60_000;

    const answered = await s.manager.answer({ run_id: run.run_id, answer: 'I ordered it by mistake' });
    expect(answered).toMatchObject({ ok: true, data: { run: { status: 'running' } } });
    await until(s, (r) => r.status === 'awaiting_approval', 'the approval');
    expect(s.client.calls[1]!.at(-1)!.content).toContain('the person answered: "I ordered it by mistake"');
    await approve(s.h, await pendingCard(s));
    const ended = await until(s, (r) => r.end !== undefined, 'the end');
    expect(ended.end).toMatchObject({ kind: 'done', verified: true });
    expect(ended.steps[0]).toMatchObject({ status: 'answered', question: 'Why are you cancelling?', answer: 'I ordered it by mistake' });
    // The time spent waiting for the person is not charged to the run's time budget.
    expect(ended.budgets.elapsed_ms).toBeLessThan(ended.budgets.time_budget_ms);
    expect(cancellations(s)).toBe(1);
  });

  it('a run waiting for an answer can be stopped', async () => {
    const s = await setUp([JSON.stringify({ kind: 'ask_person', thought: 'unsure', question: 'Which order?' })]);
    const run = await start(s);
    await until(s, (r) => r.status === 'awaiting_answer', 'the question');
    const stopped = await s.manager.stop({ run_id: run.run_id });
    expect(stopped).toMatchObject({ ok: true, data: { run: { status: 'stopped', end: { reason: 'stopped_by_person' }, steps: [{ n: 1, status: 'stopped', question: 'Which order?' }] } } });
    expect(await s.manager.answer({ run_id: run.run_id, answer: 'ORD-1024' })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_ACTIVE' } });
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
  });

  it('take over aborts the model call in flight and leaves the tab alone', async () => {
    let aborted = false;
    const s = await setUp([
      (_m, signal) =>
        new Promise<string>((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    ]);
    const run = await start(s);
    await until(s, (r) => r.steps[0]?.status === 'thinking', 'thinking');
    const r = await s.manager.takeOver({ run_id: run.run_id });
    expect(r).toMatchObject({ ok: true, data: { run: { status: 'stopped', end: { reason: 'taken_over' } } } });
    expect(aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.h.shop.calls.execute).toHaveLength(0);
    expect(s.h.shop.calls.navigate).toHaveLength(0);
  });

  it('a closed tab ends the run', async () => {
    const s = await setUp([act('orders.view'), done()]);
    const run = await start(s);
    s.tab.open = false;
    await s.manager.onTabRemoved(TAB);
    expect((await until(s, (r) => r.end !== undefined)).end).toMatchObject({ kind: 'stopped', reason: 'tab_closed' });
    expect(await tokenStatus(s, run.agent_id)).toEqual(['revoked']);
  });

  it('a model error ends the run with the model’s plain sentence', async () => {
    const s = await setUp([]);
    await start(s);
    const ended = await until(s, (r) => r.end !== undefined);
    expect(ended).toMatchObject({ status: 'stopped', end: { reason: 'model_error' }, model_error: { code: 'server_error', message: 'The scripted model has no more replies.' } });
  });

  it('resumes after a worker restart while the approval waits, and the cancellation happens exactly once', async () => {
    const first = await setUp([cancel], { runId: 'run-r1' });
    const run = await start(first);
    await until(first, (r) => r.status === 'awaiting_approval');

    // The worker dies here; a new one starts on the same session storage and database.
    const second = await restarted(first, [done()]);
    await second.manager.restore();
    const card = await pendingCard(second);
    await approve(second.h, card);
    const ended = await until(second, (r) => r.end !== undefined, 'the resumed run to end');
    expect(ended).toMatchObject({ run_id: run.run_id, status: 'finished', end: { kind: 'done', verified: true } });
    expect(cancellations(second)).toBe(1);
    expect(second.h.shop.orders.get('ORD-1024')!.state).toBe('cancelled');
    expect(ended.steps.filter((st) => st.action?.name === 'orders.cancel')).toHaveLength(1);
    // The step under way was resubmitted as it was, not asked of the model again.
    expect(second.client.calls).toHaveLength(1);
  });

  it('keeps a paused run paused across a restart', async () => {
    const s: Setup = await setUp(
      [
        async () => {
          await s.manager.pause({ run_id: 'run-p1' });
          return act('orders.view');
        },
      ],
      { runId: 'run-p1' },
    );
    await start(s);
    await until(s, (r) => r.status === 'paused' && r.steps[0]?.status === 'succeeded');
    const second = await restarted(s, [done()]);
    await second.manager.restore();
    await new Promise((r) => setTimeout(r, 20));
    expect(second.client.calls).toHaveLength(0);
    const listed = await second.manager.runs({ tabId: TAB });
    expect(listed).toMatchObject({ ok: true, data: { runs: [{ run_id: 'run-p1', status: 'paused' }] } });
    await second.manager.resume({ run_id: 'run-p1' });
    expect((await until(second, (r) => r.end !== undefined)).end).toMatchObject({ kind: 'done' });
  });

  it('reports a run whose record cannot be read back as stopped with an error, without crashing', async () => {
    const s = await setUp([done()], { runId: 'run-b1' });
    const run = await start(s);
    await until(s, (r) => r.end !== undefined);
    const stored = (await fakeBrowser.storage.session.get('copilot.runs'))['copilot.runs'] as Record<string, Record<string, unknown>>;
    const broken = { ...stored['run-b1']!, run: { ...run, status: 'running', end: undefined }, secret: 42 };
    await fakeBrowser.storage.session.set({ 'copilot.runs': { 'run-b1': broken, 'run-junk': 'garbage' } });

    const second = await restarted(s, []);
    await expect(second.manager.restore()).resolves.toBeUndefined();
    const listed = await second.manager.runs({});
    expect(listed).toMatchObject({ ok: true, data: { runs: [{ run_id: 'run-b1', status: 'stopped', end: { kind: 'stopped', reason: 'error' } }] } });
    expect(second.client.calls).toHaveLength(0);
  });
});
