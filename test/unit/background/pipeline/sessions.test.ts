import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { SessionTabs } from '../../../../src/background/pipeline/sessions.ts';

const area = () => fakeBrowser.storage.session as unknown as chrome.storage.StorageArea;

describe('SessionTabs (agent session → tab, memory only)', () => {
  beforeEach(() => fakeBrowser.reset());

  it('gives each agent one opaque session per tab, and maps it back to the tab', async () => {
    const s = new SessionTabs(area());
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
    const id = await new SessionTabs(area()).sessionFor('agent:copilot', 9);
    expect(await new SessionTabs(area()).tabOf(id)).toBe(9);
  });

  it('concurrent first submissions in one tab share one session', async () => {
    const s = new SessionTabs(area());
    const ids = await Promise.all(Array.from({ length: 8 }, () => s.sessionFor('agent:copilot', 3)));
    expect(new Set(ids).size).toBe(1);
  });

  it('a closed tab leaves its session pointing nowhere until rebound', async () => {
    const s = new SessionTabs(area());
    const id = await s.sessionFor('agent:copilot', 4);
    await s.forgetTab(4);
    expect(await s.tabOf(id)).toBeUndefined();
    await s.bind(id, 'agent:copilot', 11);
    expect(await s.tabOf(id)).toBe(11);
  });
});
