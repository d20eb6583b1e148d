import { z } from 'zod';
import { browser } from '../core/browser.ts';
import type { WrittenControl, WrittenControls } from '../../pipeline/written-controls.ts';

/**
 * Controls whose harmless-looking action wrote (src/pipeline/written-controls.ts), kept in
 * chrome.storage.local so the lesson outlives the browser session. Validated on every read; an
 * unreadable record is dropped as a whole (it can only make Steward remember less, and each
 * entry only ever adds a hold). Bounded: the oldest entries go first.
 */

const KEY = 'pipeline.written_controls';
const MAX_ENTRIES = 2000;
const Entry = z.object({
  origin: z.string().max(300),
  control: z.string().max(1200),
  label: z.string().max(200),
  request: z.object({ method: z.string().max(16), url: z.string().max(512) }),
  at: z.number(),
});
const Stored = z.array(Entry).max(MAX_ENTRIES);

export class StorageWrittenControls implements WrittenControls {
  /** Writes are serialised so two never lose each other. */
  private queue: Promise<unknown> = Promise.resolve();

  private async read(): Promise<WrittenControl[]> {
    const items = await browser.storage.local.get(KEY);
    const parsed = Stored.safeParse(items[KEY] ?? []);
    return parsed.success ? parsed.data : [];
  }

  async find(origin: string, control: string): Promise<WrittenControl | undefined> {
    await this.queue;
    return (await this.read()).find((e) => e.origin === origin && e.control === control);
  }

  remember(entry: WrittenControl): Promise<void> {
    const next = this.queue.then(async () => {
      const clean = Entry.parse({ ...entry, control: entry.control.slice(0, 1200), label: entry.label.slice(0, 200) });
      const all = (await this.read()).filter((e) => !(e.origin === clean.origin && e.control === clean.control));
      all.push(clean);
      await browser.storage.local.set({ [KEY]: all.slice(-MAX_ENTRIES) });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
