import { z } from 'zod';
import { ResourceRef } from '../../protocol/resource.ts';
import { browser } from '../core/browser.ts';

/**
 * Each external agent's current tab (the one it last opened or observed), where `steward_execute`
 * works when it names no tab, and the resource its last look at that tab showed, which a
 * `steward_execute` naming no resource acts on. Kept in memory and chrome.storage.session — it
 * survives a worker restart but never reaches disk (DESIGN §7: tab ids are never persisted).
 */

const KEY = 'bridge.current-tabs';
const SHOWN_KEY = 'bridge.shown-resources';
const Stored = z.record(z.string(), z.number().int().nonnegative());
const Shown = z.object({ tab_id: z.number().int().nonnegative(), resource: ResourceRef });
const StoredShown = z.record(z.string(), Shown);

export class AgentTabs {
  private map: Promise<Record<string, number>> | undefined;
  private shownMap: Promise<Record<string, z.infer<typeof Shown>>> | undefined;

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

  private loadShown(): Promise<Record<string, z.infer<typeof Shown>>> {
    this.shownMap ??= browser.storage.session.get(SHOWN_KEY).then(
      (items) => {
        const parsed = StoredShown.safeParse(items[SHOWN_KEY] ?? {});
        return parsed.success ? parsed.data : {};
      },
      () => ({}),
    );
    return this.shownMap;
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

  /** The resource the agent's last look at `tabId` showed (none when its last look was at another tab). */
  async shown(agentId: string, tabId: number): Promise<ResourceRef | undefined> {
    const map = await this.loadShown();
    const entry = Object.hasOwn(map, agentId) ? map[agentId] : undefined;
    return entry?.tab_id === tabId ? entry.resource : undefined;
  }

  async setShown(agentId: string, tabId: number, resource: ResourceRef): Promise<void> {
    const map = await this.loadShown();
    const was = map[agentId];
    if (was?.tab_id === tabId && was.resource.type === resource.type && was.resource.id === resource.id && was.resource.origin === resource.origin) return;
    map[agentId] = { tab_id: tabId, resource };
    await browser.storage.session.set({ [SHOWN_KEY]: map });
  }
}
