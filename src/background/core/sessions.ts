import { z } from 'zod';
import { newId } from '../../base/ids.ts';
import { browser } from './browser.ts';

/**
 * Which tab each agent session works in (DESIGN §7: tab ids are never persisted). The map lives in
 * chrome.storage.session — memory only, never written to disk, gone with the browser, unreadable
 * by content scripts at its default access level — so it survives a service-worker restart (an
 * action resumed after a kill finds its tab) without ever reaching IndexedDB. The journal only
 * holds the opaque session id.
 */

const KEY = 'pipeline.sessions';
const Entry = z.object({ agent_id: z.string(), tabId: z.number().int() });
const Stored = z.record(z.string(), Entry);
type Stored = z.infer<typeof Stored>;

export class SessionTabs {
  /** Writes are serialised so two submissions never lose each other's binding. */
  private queue: Promise<unknown> = Promise.resolve();

  private async read(): Promise<Stored> {
    const items = await browser.storage.session.get(KEY);
    const parsed = Stored.safeParse(items[KEY] ?? {});
    return parsed.success ? parsed.data : {};
  }

  private update<T>(change: (map: Stored) => T): Promise<T> {
    const next = this.queue.then(async () => {
      const map = await this.read();
      const out = change(map);
      await browser.storage.session.set({ [KEY]: map });
      return out;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The agent's session in this tab, created on first use (one session per agent and tab). */
  sessionFor(agentId: string, tabId: number): Promise<string> {
    return this.update((map) => {
      const found = Object.entries(map).find(([, e]) => e.agent_id === agentId && e.tabId === tabId);
      if (found) return found[0];
      const id = newId('ses_');
      map[id] = { agent_id: agentId, tabId };
      return id;
    });
  }

  async tabOf(sessionId: string | undefined): Promise<number | undefined> {
    if (!sessionId) return undefined;
    await this.queue;
    const tabId = (await this.read())[sessionId]?.tabId;
    return tabId !== undefined && tabId >= 0 ? tabId : undefined;
  }

  /** Moves a session to another tab (its tab was closed and the navigator opened a new one). */
  bind(sessionId: string, agentId: string, tabId: number): Promise<void> {
    return this.update((map) => {
      map[sessionId] = { agent_id: agentId, tabId };
    });
  }

  /** A closed tab: its sessions stay (the agent may continue elsewhere) but point nowhere. */
  forgetTab(tabId: number): Promise<void> {
    return this.update((map) => {
      for (const [id, e] of Object.entries(map)) if (e.tabId === tabId) map[id] = { ...e, tabId: -1 };
    });
  }
}
