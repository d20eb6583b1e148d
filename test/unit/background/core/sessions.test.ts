import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { SessionTabs } from '../../../../src/background/core/sessions.ts';

describe('SessionTabs (agent session → tab, memory only)', () => {
  beforeEach(() => fakeBrowser.reset());

  it('gives each agent one opaque session per tab, and maps it back to the tab', async () => {
    const s = new SessionTabs();
    const a = await s.sessionFor('agent:copilot', 5);
    expect(a).toMatch(/^ses_[0-9a-f]{24}$/);
    expect(await s.sessionFor('agent:copilot', 5)).toBe(a);
    const b = await s.sessionFor('agent:copilot', 6);
    const c = await s.sessionFor('agent:other', 5);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(await s.tabOf(a)).toBe(5);
    expect(await s.tabOf(b)).toBe(6);
    expect(await s.tabOf(undefined)).toBeUndefined();
    expect(await s.tabOf('ses_unknown')).toBeUndefined();
  });

  it('survives a service-worker restart through chrome.storage.session (a new instance reads it back)', async () => {
    const id = await new SessionTabs().sessionFor('agent:copilot', 9);
    expect(await new SessionTabs().tabOf(id)).toBe(9);
  });

  it('keeps the map in the session area only (memory, never disk), keyed by the opaque session id', async () => {
    const id = await new SessionTabs().sessionFor('agent:copilot', 9);
    expect(await fakeBrowser.storage.session.get('pipeline.sessions')).toEqual({ 'pipeline.sessions': { [id]: { agent_id: 'agent:copilot', tabId: 9 } } });
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('a corrupt stored map is dropped, not trusted: the agent gets a new session', async () => {
    await fakeBrowser.storage.session.set({ 'pipeline.sessions': { ses_old: { agent_id: 'agent:copilot', tabId: 'five' } } });
    const s = new SessionTabs();
    expect(await s.tabOf('ses_old')).toBeUndefined();
    const id = await s.sessionFor('agent:copilot', 5);
    expect(await fakeBrowser.storage.session.get('pipeline.sessions')).toEqual({ 'pipeline.sessions': { [id]: { agent_id: 'agent:copilot', tabId: 5 } } });
  });

  it('concurrent first submissions in one tab share one session', async () => {
    const s = new SessionTabs();
    const ids = await Promise.all(Array.from({ length: 8 }, () => s.sessionFor('agent:copilot', 3)));
    expect(new Set(ids).size).toBe(1);
  });

  it('a closed tab leaves its session pointing nowhere until rebound', async () => {
    const s = new SessionTabs();
    const id = await s.sessionFor('agent:copilot', 4);
    await s.forgetTab(4);
    expect(await s.tabOf(id)).toBeUndefined();
    expect(await fakeBrowser.storage.session.get('pipeline.sessions')).toEqual({ 'pipeline.sessions': { [id]: { agent_id: 'agent:copilot', tabId: -1 } } });
    await s.bind(id, 'agent:copilot', 11);
    expect(await s.tabOf(id)).toBe(11);
  });
});
