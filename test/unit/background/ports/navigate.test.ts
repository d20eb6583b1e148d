import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTabs } from '../../../../src/background/core/sessions.ts';
import { chromeTabControl, navigatePort } from '../../../../src/background/ports/navigate.ts';
import { chromeTabEvents } from '../../../../src/background/ports/tab-wait.ts';

const ORIGIN = 'http://localhost:4100';
const agent = 'agent:copilot';

/** Chrome reports a navigation as status `loading`, then `complete`; fake-browser only records the new URL. */
function tabsLoadWhenUpdated(): void {
  const update = fakeBrowser.tabs.update.bind(fakeBrowser.tabs);
  vi.spyOn(fakeBrowser.tabs, 'update').mockImplementation((async (tabId: number, props: { url?: string }) => {
    const tab = (await update(tabId, props))!;
    setTimeout(() => void fakeBrowser.tabs.onUpdated.trigger(tabId, { status: 'loading' }, tab), 5);
    setTimeout(() => void fakeBrowser.tabs.onUpdated.trigger(tabId, { status: 'complete' }, tab), 15);
    return tab;
  }) as never);
}

/** chrome.declarativeNetRequest is not in fake-browser: the fence is checked in fence.test.ts and with FakeTabs in ports.test.ts. */
const noFence = { hold: async () => ({ opened: async () => [], release: async () => undefined }) };
const navigate = (sessions: SessionTabs) => navigatePort({ sessions, tabs: { ...chromeTabControl(chromeTabEvents()), fence: noFence } });

beforeEach(tabsLoadWhenUpdated);
afterEach(() => vi.restoreAllMocks());

describe('the navigate port in the browser', () => {
  it('loads the URL in the session’s own tab', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: `${ORIGIN}/account`, active: true });
    const sessions = new SessionTabs();
    const sid = await sessions.sessionFor(agent, id!);
    await navigate(sessions)(`${ORIGIN}/orders/ORD-1024`, { agent_id: agent, session_id: sid }, [ORIGIN]);
    expect((await fakeBrowser.tabs.get(id!))?.url).toBe(`${ORIGIN}/orders/ORD-1024`);
    expect(await fakeBrowser.tabs.query({})).toHaveLength(2);
  });

  it('a session whose tab was closed gets a new tab in the background, bound to it', async () => {
    const sessions = new SessionTabs();
    const sid = await sessions.sessionFor(agent, 41);
    await sessions.forgetTab(41);
    await navigate(sessions)(`${ORIGIN}/orders/ORD-1024`, { agent_id: agent, session_id: sid }, [ORIGIN]);
    const [opened] = await fakeBrowser.tabs.query({ url: `${ORIGIN}/orders/ORD-1024` });
    expect(opened).toMatchObject({ active: false });
    expect(await sessions.tabOf(sid)).toBe(opened!.id);
  });

  it('fails when the tab is closed while it loads', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: `${ORIGIN}/account` });
    vi.mocked(fakeBrowser.tabs.update).mockImplementation((async (tabId: number) => {
      setTimeout(() => void fakeBrowser.tabs.onUpdated.trigger(tabId, { status: 'loading' }, {} as never), 5);
      setTimeout(() => void fakeBrowser.tabs.onRemoved.trigger(tabId, { isWindowClosing: false, windowId: 0 }), 10);
      return {};
    }) as never);
    const sessions = new SessionTabs();
    const sid = await sessions.sessionFor(agent, id!);
    await expect(navigate(sessions)(`${ORIGIN}/`, { agent_id: agent, session_id: sid }, [ORIGIN])).rejects.toThrow(/did not finish loading/);
  });
});
