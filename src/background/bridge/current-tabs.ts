import { z } from 'zod';
import { browser } from '../browser.ts';

/**
 * Each external agent's current tab (the one it last opened or observed), where `steward_execute`
 * works when it names no tab. Kept in memory and chrome.storage.session — it survives a worker
 * restart but never reaches disk (DESIGN §7: tab ids are never persisted).
 */

const KEY = 'bridge.current-tabs';
const Stored = z.record(z.string(), z.number().int().nonnegative());

export class AgentTabs {
  private map: Promise<Record<string, number>> | undefined;

  private load(): Promise<Record<string, number>> {
    this.map ??= browser.storage.session.get(KEY).then(
      (items) => {
        const parsed = Stored.safeParse(items[KEY] ?? {});
        return parsed.success ? parsed.data : {};
      },
      () => ({}),
    );
    return this.map;
  }

  async current(agentId: string): Promise<number | undefined> {
    const map = await this.load();
    return Object.hasOwn(map, agentId) ? map[agentId] : undefined;
  }

  async set(agentId: string, tabId: number): Promise<void> {
    const map = await this.load();
    if (map[agentId] === tabId) return;
    map[agentId] = tabId;
    await browser.storage.session.set({ [KEY]: map });
  }
}
