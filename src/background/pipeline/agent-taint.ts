import { z } from 'zod';
import { browser } from '../core/browser.ts';
import type { TaintLedger, TaintMark } from '../../pipeline/taint.ts';
import { Phrase, phrase } from '../../protocol/phrase.ts';

/**
 * The taint ledger (src/pipeline/taint.ts) on chrome.storage.local: it lasts as long as the
 * agents' credentials do (tokens and pairings outlive a browser restart, so their taint must too),
 * unreadable by content scripts, validated with zod on every read. An unreadable record counts as
 * tainted for every agent (fail closed); marks end only through `clear` (the person, or the end of
 * the agent's last token).
 */

const KEY = 'pipeline.taint';
const Mark = z.object({ at: z.number(), source: z.string().max(400), said: Phrase.optional(), session_id: z.string().max(128).optional() });
const Stored = z.record(z.string(), Mark);
type Stored = z.infer<typeof Stored>;

const UNREADABLE: TaintMark = { at: 0, source: 'an unreadable taint record (counted as tainted)', said: phrase('taint_unreadable') };

export class StorageTaintLedger implements TaintLedger {
  /** Writes are serialised so two marks never lose each other. */
  private queue: Promise<unknown> = Promise.resolve();

  private async read(): Promise<Stored | undefined> {
    const items = await browser.storage.local.get(KEY);
    const parsed = Stored.safeParse(items[KEY] ?? {});
    return parsed.success ? parsed.data : undefined;
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async taintOf(agentId: string): Promise<TaintMark | undefined> {
    await this.queue;
    const map = await this.read();
    if (!map) return UNREADABLE;
    return Object.hasOwn(map, agentId) ? map[agentId] : undefined;
  }

  mark(agentId: string, mark: TaintMark): Promise<void> {
    return this.serialised(async () => {
      const map = await this.read();
      // An unreadable record already taints every agent; overwriting it would clear the others.
      if (!map || Object.hasOwn(map, agentId)) return;
      map[agentId] = {
        at: mark.at,
        source: mark.source.slice(0, 400),
        ...(mark.said && Phrase.safeParse(mark.said).success ? { said: mark.said } : {}),
        ...(mark.session_id ? { session_id: mark.session_id.slice(0, 128) } : {}),
      };
      await browser.storage.local.set({ [KEY]: map });
    });
  }

  clear(agentId: string): Promise<TaintMark | undefined> {
    return this.serialised(async () => {
      const map = await this.read();
      if (!map) throw new Error('the taint record cannot be read, so no single agent’s mark can be cleared');
      if (!Object.hasOwn(map, agentId)) return undefined;
      const mark = map[agentId];
      delete map[agentId];
      await browser.storage.local.set({ [KEY]: map });
      return mark;
    });
  }
}
