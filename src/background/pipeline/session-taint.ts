import { z } from 'zod';
import { browser } from '../browser.ts';
import type { TaintLedger, TaintMark } from '../../pipeline/taint.ts';

/**
 * The taint ledger (src/pipeline/taint.ts) on chrome.storage.session: memory only, gone with the
 * browser, unreadable by content scripts at its default access level, and it survives a
 * service-worker restart — a killed worker must not forget that an agent has read a page. An
 * unreadable record counts as tainted (fail closed).
 */

const KEY = 'pipeline.taint';
const Mark = z.object({ at: z.number(), source: z.string().max(400), session_id: z.string().max(128).optional() });
const Stored = z.record(z.string(), Mark);
type Stored = z.infer<typeof Stored>;

const UNREADABLE: TaintMark = { at: 0, source: 'an unreadable taint record (counted as tainted)' };

export class StorageTaintLedger implements TaintLedger {
  /** Writes are serialised so two marks never lose each other. */
  private queue: Promise<unknown> = Promise.resolve();

  private async read(): Promise<Stored | undefined> {
    const items = await browser.storage.session.get(KEY);
    const parsed = Stored.safeParse(items[KEY] ?? {});
    return parsed.success ? parsed.data : undefined;
  }

  async taintOf(agentId: string): Promise<TaintMark | undefined> {
    await this.queue;
    const map = await this.read();
    if (!map) return UNREADABLE;
    return Object.hasOwn(map, agentId) ? map[agentId] : undefined;
  }

  mark(agentId: string, mark: TaintMark): Promise<void> {
    const next = this.queue.then(async () => {
      const map = await this.read();
      // An unreadable record already taints every agent; overwriting it would clear the others.
      if (!map || Object.hasOwn(map, agentId)) return;
      map[agentId] = { at: mark.at, source: mark.source.slice(0, 400), ...(mark.session_id ? { session_id: mark.session_id.slice(0, 128) } : {}) };
      await browser.storage.session.set({ [KEY]: map });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
