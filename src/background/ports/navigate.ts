import type { NavigatePort, PortContext } from '../../pipeline/ports.ts';
import type { SessionTabs } from '../pipeline/sessions.ts';
import { browser } from '../browser.ts';
import { waitForLoaded, watchTab, type TabEvents } from './tab-wait.ts';

/**
 * Loads a URL in the agent's working tab and waits for it to finish loading. A session whose tab
 * was closed gets a new (background) tab, bound to the session in memory. Whether the page shows
 * what the caller was after is not decided here: the navigator re-observes and verifies.
 */

export interface TabControl extends TabEvents {
  update(tabId: number, props: { url: string }): Promise<unknown>;
  create(props: { url: string; active: boolean }): Promise<{ id?: number }>;
}

export const chromeTabControl = (events: TabEvents): TabControl => ({
  ...events,
  update: (tabId, props) => browser.tabs.update(tabId, props),
  create: (props) => browser.tabs.create(props),
});

/** A navigation that has not even started after this long is treated as failed. */
const START_MS = 5_000;

export function navigatePort(deps: { sessions: Pick<SessionTabs, 'tabOf' | 'bind'>; tabs: TabControl }): NavigatePort['navigate'] {
  return async (url: string, ctx: PortContext): Promise<void> => {
    if (!ctx.session_id) throw new Error('the agent has no working session to navigate in');
    const tabId = await deps.sessions.tabOf(ctx.session_id);
    if (tabId === undefined) {
      const tab = await deps.tabs.create({ url, active: false });
      if (tab.id === undefined) throw new Error('no tab could be opened');
      await deps.sessions.bind(ctx.session_id, ctx.agent_id, tab.id);
      if (!(await waitForLoaded(deps.tabs, tab.id))) throw new Error(`the new tab did not finish loading ${url}`);
      return;
    }
    const watch = watchTab(deps.tabs, tabId);
    try {
      await deps.tabs.update(tabId, { url });
      if (!(await watch.settled(START_MS))) throw new Error(`the tab did not finish loading ${url}`);
    } finally {
      watch.dispose();
    }
  };
}
