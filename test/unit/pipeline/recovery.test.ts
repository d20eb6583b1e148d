import { describe, expect, it } from 'vitest';
import type { JournalState } from '../../../src/protocol/journal.ts';
import { isErrorResult } from '../../../src/protocol/results.ts';
import { isConfirmedDone } from '../protocol/helpers.ts';
import { requestHash } from '../../../src/base/hash.ts';
import { approvalOf, approve, approveNext, cancelRequest, harness, killed, restart, type Harness } from './fakes.ts';
import type { ExecutionReport, Executor, ResumeCall } from '../../../src/pipeline/ports.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const headIs = (h: Harness, state: JournalState) => async () => {
  const [action] = await h.pipeline.deps.journal.unfinished();
  return action?.state === state;
};

async function history(h: Harness, actionId: string) {
  return (await h.pipeline.deps.journal.history(actionId)).map((e) => e.state);
}

/** Approves the next card and "kills" the service worker at its next observation (right after `approved` is journaled). */
async function approveThenKill(h: Harness): Promise<void> {
  let approved = false;
  h.shop.beforeObserve = () => (approved ? killed() : undefined);
  const card = await h.panel.next();
  approved = true;
  await approve(h, card);
  await until(headIs(h, 'approved'), 'approved');
  await h.pipeline.deps.audit.flush();
  h.shop.beforeObserve = undefined;
}

/** Submits, lets the pipeline reach `state`, and "kills" the service worker there (its awaits never resume). */
async function killAt(h: Harness, state: JournalState, req = cancelRequest(), agent = h.agent): Promise<string> {
  void h.pipeline.submit(req, agent);
  await until(headIs(h, state), state);
  await h.pipeline.deps.audit.flush();
  const [action] = await h.pipeline.deps.journal.unfinished();
  return action!.action_id;
}

describe('recover() after a service-worker kill', () => {
  it('right after approval: the approved action is dispatched exactly once, journal and audit consistent', async () => {
    const h = await harness();
    const req = cancelRequest();
    void h.pipeline.submit(req, h.agent);
    await approveThenKill(h);
    const action_id = (await h.pipeline.deps.journal.unfinished())[0]!.action_id;
    const h2 = await restart(h);
    const reports = await h2.pipeline.recover();
    expect(reports).toMatchObject([{ action_id, from: 'approved', to: 'confirmed' }]);
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(h.shop.orders.get('ORD-1024')!.state).toBe('cancelled');
    expect(await history(h2, action_id)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
    // Recovering again does nothing; the agent's retry gets the recovered result.
    expect(await h2.pipeline.recover()).toEqual([]);
    const replay = await h2.pipeline.submit(req, h2.agent);
    expect(isConfirmedDone(replay)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('right after approval, but the state moved meanwhile: the precondition is re-checked and nothing runs', async () => {
    const h = await harness();
    void h.pipeline.submit(cancelRequest(), h.agent);
    await approveThenKill(h);
    h.shop.ship('ORD-1024');
    const h2 = await restart(h);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'approved', to: 'failed', result: { error: { code: 'PRECONDITION_FAILED' } } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('right after approval, with the state fingerprint changed: the receipt no longer binds and nothing runs', async () => {
    const h = await harness();
    void h.pipeline.submit(cancelRequest({ preconditions: undefined }), h.agent);
    await approveThenKill(h);
    h.shop.touch('ORD-1024');
    const h2 = await restart(h);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ to: 'failed', result: { error: { code: 'APPROVAL_REQUIRED', details: { receipt_problem: 'state_changed' } } } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });

  it('right after dispatch, effect observed: confirmed by re-reading the state, never executed again', async () => {
    const h = await harness();
    h.shop.afterEffect = () => killed(); // the site did it; the service worker died before hearing back
    const req = cancelRequest();
    const agent = { ...h.agent, expect: { state: 'cancelled' } };
    void h.pipeline.submit(req, agent);
    await approveNext(h);
    await until(headIs(h, 'dispatched'), 'dispatched');
    await h.pipeline.deps.audit.flush();
    const action_id = (await h.pipeline.deps.journal.unfinished())[0]!.action_id;
    const h2 = await restart(h);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'dispatched', to: 'confirmed', result: { execution: { status: 'confirmed', certainty: 'confirmed' } } });
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await history(h2, action_id)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
    const replay = await h2.pipeline.submit(req, h2.agent);
    expect(isConfirmedDone(replay)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('right after dispatch, no effect seen: unknown (never re-executed), then confirmed by a later re-check', async () => {
    const h = await harness();
    h.shop.beforeEffect = () => killed();
    const req = cancelRequest();
    const actionId = await (async () => {
      void h.pipeline.submit(req, { ...h.agent, expect: { state: 'cancelled' } });
      await approveNext(h);
      await until(headIs(h, 'dispatched'), 'dispatched');
      return (await h.pipeline.deps.journal.unfinished())[0]!.action_id;
    })();
    h.shop.beforeEffect = undefined;
    const h2 = await restart(h);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'dispatched', to: 'unknown', result: { execution: { status: 'unknown', certainty: 'unknown' } } });
    expect(h.shop.calls.execute).toHaveLength(1);
    const replay = await h2.pipeline.submit(req, h2.agent);
    expect(!isErrorResult(replay) && replay.execution.status).toBe('unknown');
    expect(h.shop.calls.execute).toHaveLength(1);
    // The site processed it after all; a re-check (polling) sees it.
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.touch('ORD-1024');
    const status = await h2.pipeline.recheck(actionId);
    expect(status).toMatchObject({ state: 'confirmed', finished: true, result: { execution: { status: 'confirmed' } } });
    expect(await history(h2, actionId)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'unknown', 'confirmed']);
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('right after dispatch, no effect seen yet: the agent asking again with the same key gets the outcome once the site shows it', async () => {
    const h = await harness();
    h.shop.beforeEffect = () => killed();
    const req = cancelRequest();
    void h.pipeline.submit(req, h.agent);
    await approveNext(h);
    await until(headIs(h, 'dispatched'), 'dispatched');
    h.shop.beforeEffect = undefined;
    const h2 = await restart(h);
    expect(await h2.pipeline.recover()).toMatchObject([{ from: 'dispatched', to: 'unknown' }]);
    const recoveryEntries = async () => {
      await h2.pipeline.deps.audit.flush();
      return (await h2.pipeline.deps.audit.entries()).filter((e) => e.kind === 'recovery').length;
    };
    const recoveredOnce = await recoveryEntries();

    // Nothing new on the page: every replay says unknown, re-reads at most once per 2 s, and audits nothing.
    const observedBefore = h.shop.calls.observe;
    for (let i = 0; i < 5; i++) expect(await h2.pipeline.submit(req, h2.agent)).toMatchObject({ execution: { status: 'unknown' } });
    expect(h.shop.calls.observe - observedBefore).toBe(1);
    h.clock.advance(2_000);
    expect(await h2.pipeline.submit(req, h2.agent)).toMatchObject({ execution: { status: 'unknown' } });
    expect(h.shop.calls.observe - observedBefore).toBe(2);
    expect(await recoveryEntries()).toBe(recoveredOnce);

    // The site did it after all: the next replay re-reads and answers confirmed, never executing again.
    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.touch('ORD-1024');
    h.clock.advance(2_000);
    const replay = await h2.pipeline.submit(req, h2.agent);
    expect(replay).toMatchObject({ execution: { status: 'confirmed' }, resource: { state: 'cancelled' } });
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await h2.pipeline.submit(req, h2.agent)).toEqual(replay);
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('an action left unknown is not called done because the page changed: only the effect it declares, observed, settles it', async () => {
    const h = await harness();
    h.shop.executorOutcome = () => ({ outcome: 'timed_out', message: 'the page did not answer' });
    const req = cancelRequest();
    const first = h.pipeline.submit(req, h.agent);
    await approveNext(h);
    expect(await first).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT' } } });
    const [action] = await h.pipeline.deps.journal.unfinished();
    expect(action).toMatchObject({ state: 'unknown', declared_effect: { state: 'cancelled' } });

    // Something else changed on the page (a new version), but the order is not cancelled.
    h.shop.touch('ORD-1024');
    expect(await h.pipeline.submit(req, h.agent)).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT' } } });
    expect(await h.pipeline.recheck(action!.action_id)).toMatchObject({ state: 'unknown', finished: false });

    h.shop.orders.get('ORD-1024')!.state = 'cancelled';
    h.shop.touch('ORD-1024');
    h.clock.advance(2_000);
    expect(await h.pipeline.submit(req, h.agent)).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed' }, resource: { state: 'cancelled' } });
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('before any decision (proposed): failed and the key released, so the same request can run', async () => {
    const h = await harness();
    h.shop.beforeObserve = () => killed();
    const req = cancelRequest();
    await killAt(h, 'proposed', req);
    h.shop.beforeObserve = undefined;
    const h2 = await restart(h);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'proposed', to: 'failed', result: { error: { code: 'EXECUTION_FAILED', retryable: true } } });
    const retry = h2.pipeline.submit(req, h2.agent);
    await approveNext(h2);
    expect(isConfirmedDone(await retry)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('while awaiting approval: the card persists, the decision made after the restart is carried out', async () => {
    const h = await harness();
    const req = cancelRequest();
    const actionId = await killAt(h, 'awaiting_approval', req);
    const h2 = await restart(h);
    const pending = await h2.pipeline.deps.approvals.pending();
    expect(pending.map((c) => c.action)).toEqual(['orders.cancel']);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'awaiting_approval', to: 'waiting' });
    // The agent retrying meanwhile is told it is in progress.
    expect(await h2.pipeline.submit(req, h2.agent)).toMatchObject({ error: { code: 'IN_PROGRESS' } });
    const card = pending[0]!;
    await h2.pipeline.deps.approvals.decide(approvalOf(card, h.clock.t));
    await h2.pipeline.idle();
    expect(await history(h2, actionId)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(isConfirmedDone(await h2.pipeline.submit(req, h2.agent))).toBe(true);
  });

  it('a token revoked while the service worker was down stops the approved action', async () => {
    const h = await harness();
    void h.pipeline.submit(cancelRequest(), h.agent);
    await approveThenKill(h);
    const h2 = await restart(h);
    await h2.pipeline.deps.tokens.revoke(h.token.token_id);
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ to: 'failed', result: { error: { code: 'TOKEN_INVALID' } } });
    expect(h.shop.calls.execute).toHaveLength(0);
  });
});

describe('re-reading dispatched actions after a restart', () => {
  it('never navigates the tab, and reads nothing for a token revoked meanwhile (the action becomes unknown, not stuck)', async () => {
    const h = await harness();
    const req = cancelRequest();
    h.shop.beforeEffect = () => killed();
    void h.pipeline.submit(req, h.agent);
    await approveNext(h);
    await until(headIs(h, 'dispatched'), 'dispatched');
    await h.pipeline.deps.audit.flush();
    h.shop.beforeEffect = undefined;
    // The person took the tab elsewhere; an adapter URL would lead back to the order.
    h.shop.tabUrl = 'http://localhost:4100/account';
    h.shop.routes = [{ kind: 'adapter', url: 'http://localhost:4100/orders/ORD-1024' }];
    const h2 = await restart(h);
    await h2.pipeline.deps.tokens.revoke(h.token.token_id);
    const observed = h.shop.calls.observe;
    const [report] = await h2.pipeline.recover();
    expect(report).toMatchObject({ from: 'dispatched', to: 'unknown' });
    expect(h.shop.calls.observe).toBe(observed);
    expect(h.shop.calls.navigate).toEqual([]);
    expect(h.shop.calls.execute).toHaveLength(1);
  });
});

describe('idempotency keys never stay claimed by nothing', () => {
  /** The state an older worker left when killed between claiming the key and journaling the action. */
  async function orphanKey(h: Harness, req: ReturnType<typeof cancelRequest>): Promise<void> {
    const request_hash = await requestHash(req.action, req.resource, req.input);
    expect(await h.pipeline.deps.idempotency.begin({ agent_id: h.agent.agent_id, key: req.idempotency_key, request_hash, action_id: 'act_orphan' })).toEqual({ kind: 'started' });
  }

  it('the key and the proposed action are one write: a claim that cannot be journaled claims nothing', async () => {
    const h = await harness();
    const { journal, idempotency } = h.pipeline.deps;
    const req = cancelRequest();
    const claimed = await h.pipeline.submit({ ...req, action: 'orders.view', idempotency_key: 'k_first' }, h.agent);
    const draft = (await journal.action(claimed.action_id!))!;
    // The same action id again: the journal write fails, so the key claim must roll back with it.
    const { state: _s, seq: _q, open: _o, created_at: _c, updated_at: _u, ...again } = { ...draft, idempotency_key: 'k_second' };
    await expect(journal.beginClaimed({ agent_id: h.agent.agent_id, key: 'k_second', request_hash: draft.request_hash, action_id: draft.action_id }, again)).rejects.toThrow();
    expect(await idempotency.get(h.agent.agent_id, 'k_second')).toBeUndefined();
  });

  it('a key claimed with no journal record (killed between the two) is released at recovery; the retry runs once', async () => {
    const h = await harness();
    const req = cancelRequest();
    await orphanKey(h, req);
    const h2 = await restart(h);
    expect(await h2.pipeline.recover()).toEqual([]);
    expect(h2.pipeline.keyRecovery).toEqual([{ agent_id: h.agent.agent_id, key: req.idempotency_key, action_id: 'act_orphan', outcome: 'released' }]);
    expect(await h2.pipeline.deps.idempotency.get(h.agent.agent_id, req.idempotency_key)).toBeUndefined();
    const retry = h2.pipeline.submit(req, h2.agent);
    await approveNext(h2);
    expect(isConfirmedDone(await retry)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('a retry that meets such a key before any recovery ran is not told IN_PROGRESS forever', async () => {
    const h = await harness();
    const req = cancelRequest();
    await orphanKey(h, req);
    const h2 = await restart(h);
    const retry = h2.pipeline.submit(req, h2.agent);
    await approveNext(h2);
    expect(isConfirmedDone(await retry)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('killed after the journal recorded the outcome but before the key got it: the retry replays it, never runs again', async () => {
    const h = await harness();
    const req = cancelRequest();
    h.pipeline.deps.idempotency.complete = () => killed();
    void h.pipeline.submit(req, h.agent);
    await approveNext(h);
    await until(async () => (await h.pipeline.deps.journal.unfinished()).length === 0, 'the journal to record the outcome');
    expect((await h.pipeline.deps.idempotency.get(h.agent.agent_id, req.idempotency_key))?.status).toBe('in_progress');
    const h2 = await restart(h);
    await h2.pipeline.recover();
    expect(h2.pipeline.keyRecovery).toMatchObject([{ key: req.idempotency_key, outcome: 'completed' }]);
    const replay = await h2.pipeline.submit(req, h2.agent);
    expect(isConfirmedDone(replay)).toBe(true);
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(h2.panel.cards).toHaveLength(0);
  });
});

describe('recover() after a kill while a page’s WebMCP call waits for its next document', () => {
  const parcel: ToolDescriptor = {
    name: 'ship_parcel',
    description: 'Books a parcel over three pages.',
    inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
    annotations: { consequentialHint: true },
    kind: 'imperative',
  };
  const request = { action: 'ship_parcel', resource: { type: 'order', id: 'ORD-1024' }, input: { item: 'boots' }, idempotency_key: 'parcel-1' };

  /** Dispatched, then the worker stopped while the page's tool had asked to go on elsewhere. */
  async function stoppedMidChain() {
    const h = await harness();
    h.shop.tools = [parcel];
    h.shop.beforeEffect = () => killed();
    void h.pipeline.submit(request, h.agent);
    await approveNext(h);
    await until(headIs(h, 'dispatched'), 'dispatched');
    await h.pipeline.deps.audit.flush();
    h.shop.beforeEffect = undefined;
    return { h, action_id: (await h.pipeline.deps.journal.unfinished())[0]!.action_id };
  }

  /** The restarted worker's ports: the WebMCP path holds the chain (or not) and ends it when `finish` is called. */
  function portsHolding(h: Harness, holds: boolean) {
    const asked: ResumeCall[] = [];
    let finish!: (report: ExecutionReport) => void;
    const ports = h.shop.ports();
    const webmcp: Executor = {
      ...ports.executors.webmcp!,
      resume: async (call) => {
        asked.push(call);
        if (!holds) return undefined;
        const description = {
          action: 'ship_parcel',
          via: 'webmcp' as const,
          read_only: false,
          consequential: true,
          payment: false,
          untrusted_content: false,
          requires_approval: true,
          input_schema: parcel.inputSchema,
        };
        return { planned: { description, tool: parcel }, ended: new Promise<ExecutionReport>((resolve) => (finish = resolve)) };
      },
    };
    return { ports: { ...ports, executors: { ...ports.executors, webmcp } }, asked, finish: (r: ExecutionReport) => finish(r) };
  }

  it('the WebMCP path takes the call up; the action stays dispatched (IN_PROGRESS to a replay) until the chain ends, then is confirmed once by the page’s answer', async () => {
    const { h, action_id } = await stoppedMidChain();
    const held = portsHolding(h, true);
    const h2 = await restart(h, held.ports);
    expect(await h2.pipeline.recover()).toMatchObject([{ action_id, from: 'dispatched', to: 'waiting' }]);
    expect(held.asked).toEqual([expect.objectContaining({ action_id, action: 'ship_parcel', input: { item: 'boots' }, idempotency_key: 'parcel-1' })]);
    expect(await h2.pipeline.submit(request, h2.agent)).toMatchObject({ error: { code: 'IN_PROGRESS' } });
    expect((await h2.pipeline.deps.journal.action(action_id))?.state).toBe('dispatched');

    held.finish({ outcome: 'completed', output: { text: 'Sender saved.\nParcel booked: PCL-7001.', truncated: false, untrusted: true } });
    await h2.pipeline.settled(action_id);
    expect(await history(h2, action_id)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    const replay = await h2.pipeline.submit(request, h2.agent);
    expect(replay).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, output: { text: expect.stringContaining('PCL-7001'), untrusted: true } });
    // Taken up, never run again from the start.
    expect(h.shop.calls.execute).toHaveLength(1);
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('a path that holds nothing for it (the token expired, or was used) leaves it to re-reading: unknown, never run again', async () => {
    const { h, action_id } = await stoppedMidChain();
    const held = portsHolding(h, false);
    const h2 = await restart(h, held.ports);
    expect(await h2.pipeline.recover()).toMatchObject([{ action_id, from: 'dispatched', to: 'unknown' }]);
    expect(held.asked).toHaveLength(1);
    expect(h.shop.calls.execute).toHaveLength(1);
  });

  it('an agent token revoked while the worker was stopped finishes nothing: the path is not asked', async () => {
    const { h, action_id } = await stoppedMidChain();
    const held = portsHolding(h, true);
    const h2 = await restart(h, held.ports);
    await h2.pipeline.deps.tokens.revoke(h.token.token_id);
    expect(await h2.pipeline.recover()).toMatchObject([{ action_id, from: 'dispatched', to: 'unknown' }]);
    expect(held.asked).toEqual([]);
  });
});
