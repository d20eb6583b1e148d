import { describe, expect, it, vi } from 'vitest';
import { badgeFor, presenceByTab, type ActionOnTab } from '../../../src/pipeline/presence.ts';
import { presenceLine } from '../../../src/protocol/presence.ts';
import { isErrorResult } from '../../../src/protocol/results.ts';
import { cancelRequest, harness } from './fakes.ts';

/** The name the person sees on the page's indicator for the co-pilot. */
const COPILOT_NAME = 'Steward co-pilot';

const act = (a: Partial<ActionOnTab>): ActionOnTab => ({ agent_id: 'agent:mcp-helper-1a2b', state: 'dispatched', tabId: 7, input: {}, label: 'Shop Helper', ...a });

describe('who acts on which tab (presence.ts)', () => {
  it('an MCP client acting on a tab shows with its paired name and the element it acts on', () => {
    const tabs = presenceByTab([act({ input: { ref: 'e12' } })], []);
    expect([...tabs.keys()]).toEqual([7]);
    expect(tabs.get(7)).toEqual({ agents: [{ agent_id: 'agent:mcp-helper-1a2b', kind: 'mcp', name: 'Shop Helper', phase: 'acting' }], target_ref: 'e12' });
  });

  it('an action waiting for the person reads as waiting, and wins over acting for the same agent', () => {
    const tabs = presenceByTab([act({ state: 'proposed' }), act({ state: 'awaiting_approval' })], []);
    expect(tabs.get(7)!.agents).toEqual([expect.objectContaining({ phase: 'awaiting_approval' })]);
  });

  it('finished, site-pending and tab-less actions show nothing: the agent no longer acts on a page', () => {
    const done = (['confirmed', 'failed', 'denied', 'pending_confirmation', 'unknown'] as const).map((state) => act({ state }));
    expect(presenceByTab([...done, act({ tabId: undefined })], []).size).toBe(0);
  });

  it('a running co-pilot run shows on its tab for the whole run, named as the co-pilot; paused or ended runs do not', () => {
    const tabs = presenceByTab(
      [],
      [
        { agent_id: 'agent:copilot-run-1', tabId: 3, status: 'running' },
        { agent_id: 'agent:copilot-run-2', tabId: 4, status: 'paused' },
        { agent_id: 'agent:copilot-run-3', tabId: 5, status: 'stopped' },
      ],
    );
    expect([...tabs.keys()]).toEqual([3]);
    expect(tabs.get(3)!.agents).toEqual([{ agent_id: 'agent:copilot-run-1', kind: 'copilot', name: COPILOT_NAME, phase: 'acting' }]);
  });

  it("the co-pilot's own action on its tab merges with its run, and its card shows as waiting", () => {
    const tabs = presenceByTab([act({ agent_id: 'agent:copilot-run-1', state: 'awaiting_approval', tabId: 3, label: 'ignored' })], [{ agent_id: 'agent:copilot-run-1', tabId: 3, status: 'running' }]);
    expect(tabs.get(3)!.agents).toEqual([{ agent_id: 'agent:copilot-run-1', kind: 'copilot', name: COPILOT_NAME, phase: 'awaiting_approval' }]);
  });

  it('a client without a label is named by its agent id; a ref that is not an element ref is not outlined', () => {
    const tabs = presenceByTab([act({ label: '  ', input: { ref: '<img src=x onerror=alert(1)>' } })], []);
    expect(tabs.get(7)).toEqual({ agents: [expect.objectContaining({ name: 'agent:mcp-helper-1a2b' })] });
  });

  it('the badge is short and language-neutral; its title and the page line say who, in words', () => {
    const acting = presenceByTab([act({})], []).get(7)!;
    expect(badgeFor(acting)).toMatchObject({ text: '▶', title: 'Steward: Shop Helper is acting on this page' });
    const waiting = presenceByTab([act({ state: 'awaiting_approval' })], []).get(7)!;
    expect(badgeFor(waiting)).toMatchObject({ text: '?', title: 'Steward: Shop Helper waits for your approval on this page' });
    expect(presenceLine(waiting.agents[0]!)).toBe('Shop Helper waits for your approval in Steward’s side panel');
  });
});

describe('Pipeline.stopAgentOnTab: the Stop on the page', () => {
  const onS1 = async (s: string | undefined) => s === 's1';

  it("denies the agent's waiting card on that tab as the panel's Deny does, with the reason", async () => {
    const h = await harness();
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    await h.panel.next();
    expect(await h.pipeline.stopAgentOnTab('agent:copilot', onS1, 'stopped on the page')).toBe(true);
    const r = await pending;
    expect(isErrorResult(r) && r.error.code).toBe('APPROVAL_DENIED');
    expect(isErrorResult(r) && r.error.message).toContain('stopped on the page');
    expect(h.shop.calls.execute).toHaveLength(0);
    // The audit tells the person's Stop from their Deny: the activity log shows "Stopped by you".
    expect((await h.pipeline.admin.auditEntries()).at(-1)).toMatchObject({ kind: 'denial', outcome: 'stopped', error_code: 'APPROVAL_DENIED', details: { stopped_by: 'user:local' } });
  });

  it('never dispatches an action stopped before its dispatch', async () => {
    const h = await harness();
    h.shop.beforeObserve = async () => {
      h.shop.beforeObserve = undefined;
      expect(await h.pipeline.stopAgentOnTab('agent:copilot', onS1, 'stopped on the page')).toBe(true);
    };
    const r = await h.pipeline.submit({ action: 'orders.view', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: 'view-1' }, h.agent);
    expect(r).toMatchObject({ error: { code: 'EXECUTION_FAILED', details: { stopped_by: 'user:local' } } });
    expect(h.shop.calls.execute).toHaveLength(0);
    const history = (await h.pipeline.deps.journal.history(r.action_id!)).map((e) => e.state);
    expect(history).toEqual(['proposed', 'failed']);
    expect((await h.pipeline.admin.auditEntries()).at(-1)).toMatchObject({ kind: 'failure', outcome: 'stopped', error_code: 'EXECUTION_FAILED', details: { stopped_by: 'user:local' } });
  });

  it('stops nothing of another tab or another agent', async () => {
    const h = await harness();
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    const card = await h.panel.next();
    expect(await h.pipeline.stopAgentOnTab('agent:copilot', async () => false, 'x')).toBe(false);
    expect(await h.pipeline.stopAgentOnTab('agent:other', onS1, 'x')).toBe(false);
    expect((await h.pipeline.admin.pendingApprovals()).map((c) => c.request_id)).toEqual([card.request_id]);
    await h.pipeline.admin.decide({ request_id: card.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date(h.clock.t).toISOString() });
    await pending;
    // The panel's Deny stays a denial.
    const last = (await h.pipeline.admin.auditEntries()).at(-1);
    expect(last).toMatchObject({ kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED' });
    expect(last?.details).not.toHaveProperty('stopped_by');
  });

  it('tells the path of an action already dispatched on that tab to stop what it runs (a page tool: its abort signal), and the co-pilot’s Stop does so on any tab', async () => {
    for (const stop of ['on the page', 'co-pilot'] as const) {
      const h = await harness();
      const cancelled: string[] = [];
      let release: (() => void) | undefined;
      h.shop.beforeEffect = () => new Promise<void>((resolve) => (release = resolve));
      h.pipeline.deps.ports.executors.adapter!.cancel = async (actionId) => {
        cancelled.push(actionId);
        release?.();
        return true;
      };
      const pending = h.pipeline.submit({ action: 'orders.view', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: stop === 'co-pilot' ? 'view-copilot' : 'view-page' }, h.agent);
      await vi.waitFor(() => expect(h.shop.calls.execute).toHaveLength(1), { timeout: 5_000 });
      expect(await h.pipeline.stopAgentOnTab('agent:other', onS1, 'x')).toBe(false);
      expect(stop === 'co-pilot' ? await h.pipeline.stopRunning('agent:copilot') : await h.pipeline.stopAgentOnTab('agent:copilot', onS1, 'stopped on the page')).toBe(true);
      const r = await pending;
      expect(cancelled).toEqual([r.action_id]);
    }
  });
});
