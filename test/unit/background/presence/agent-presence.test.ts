import { describe, expect, it } from 'vitest';
import { AgentPresence, type AgentPresenceDeps } from '../../../../src/background/presence/agent-presence.ts';
import type { ActionOnTab, RunOnTab } from '../../../../src/pipeline/presence.ts';

/** The worker's adapter over fakes: badges and page messages as Chrome would receive them, records as stored. */
function world(initial: { actions?: ActionOnTab[]; runs?: RunOnTab[]; badged?: number[] } = {}) {
  const records = { actions: initial.actions ?? [], runs: initial.runs ?? [] };
  const badges = new Map<number, string>();
  let badged = initial.badged ?? [];
  const told: Array<[number, unknown]> = [];
  const stops: string[] = [];
  const deps: AgentPresenceDeps = {
    actions: async () => records.actions,
    runs: async () => records.runs,
    send: (async (tabId: number, _frame: number, _type: string, payload: { presence: unknown }) => {
      told.push([tabId, payload.presence]);
      return { ok: true, data: null };
    }) as unknown as AgentPresenceDeps['send'],
    badge: {
      set: async (tabId, b) => void badges.set(tabId, b.text),
      clear: async (tabId) => void badges.delete(tabId),
      badged: async () => badged,
      remember: async (ids) => void (badged = ids),
    },
    stopRun: async (id) => (stops.push(id), true),
    stopActions: async (id, tabId) => (stops.push(`${id}@${tabId}`), true),
  };
  return { records, badges, told, stops, deps };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const mcp = (state: ActionOnTab['state'], tabId = 7): ActionOnTab => ({ agent_id: 'agent:mcp-helper-1', state, tabId, input: { ref: 'e3' }, label: 'Shop Helper' });

describe('AgentPresence: badges and indicators from the records', () => {
  it('badges the tab and tells its page while the action runs, and clears both when it ends', async () => {
    const w = world({ actions: [mcp('awaiting_approval')] });
    const p = new AgentPresence(w.deps);
    p.refresh();
    await settle();
    expect(w.badges.get(7)).toBe('?');
    expect(w.told.at(-1)).toEqual([7, expect.objectContaining({ target_ref: 'e3', agents: [expect.objectContaining({ name: 'Shop Helper' })] })]);
    w.records.actions = [mcp('denied')];
    p.refresh();
    await settle();
    expect(w.badges.has(7)).toBe(false);
    expect(w.told.at(-1)).toEqual([7, null]);
  });

  it('after a worker restart, a badge left on a tab nobody acts on any more is cleared and its page told', async () => {
    const w = world({ badged: [9] });
    new AgentPresence(w.deps).refresh();
    await settle();
    expect(w.badges.size).toBe(0);
    expect(w.told).toEqual([[9, null]]);
  });

  it('Stop stops only an agent acting on that very tab, the co-pilot through its run', async () => {
    const w = world({ actions: [mcp('dispatched')], runs: [{ agent_id: 'agent:copilot-run-1', tabId: 3, status: 'running' }] });
    const p = new AgentPresence(w.deps);
    expect(await p.stop(3, 'agent:mcp-helper-1')).toBe(false);
    expect(await p.stop(7, 'agent:copilot-run-1')).toBe(false);
    expect(w.stops).toEqual([]);
    expect(await p.stop(7, 'agent:mcp-helper-1')).toBe(true);
    expect(await p.stop(3, 'agent:copilot-run-1')).toBe(true);
    expect(w.stops).toEqual(['agent:mcp-helper-1@7', 'agent:copilot-run-1']);
  });
});
