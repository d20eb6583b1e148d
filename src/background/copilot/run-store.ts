import { z } from 'zod';
import { CopilotRun } from '../../protocol/copilot.ts';
import { browser } from '../core/browser.ts';
import { RunRecord } from './run-record.ts';

/**
 * The co-pilot's runs in chrome.storage.session under one key, one entry per run id. The session
 * area survives a service-worker restart, is gone with the browser and cannot be read by content
 * scripts (storage-access.ts), so the token secret it holds never reaches a page. Writes are
 * serialised; a record that does not validate is handed back as `broken` (with its run, when that
 * part still reads) and never throws.
 */

const KEY = 'copilot.runs';
/** Finished runs kept for the panel's list, newest first. */
const KEEP_ENDED = 20;

export type ReadRun = { ok: true; record: RunRecord } | { ok: false; run_id: string; run?: CopilotRun; token_id?: string };

export class RunStore {
  private queue: Promise<unknown> = Promise.resolve();

  private async raw(): Promise<Record<string, unknown>> {
    const items = await browser.storage.session.get(KEY);
    const parsed = z.record(z.string(), z.unknown()).safeParse(items[KEY] ?? {});
    return parsed.success ? parsed.data : {};
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Every stored run, validated one by one. */
  async all(): Promise<ReadRun[]> {
    await this.queue;
    return Object.entries(await this.raw()).map(([run_id, value]) => readOne(run_id, value));
  }

  async get(runId: string): Promise<ReadRun | undefined> {
    await this.queue;
    const map = await this.raw();
    return Object.hasOwn(map, runId) ? readOne(runId, map[runId]) : undefined;
  }

  put(record: RunRecord): Promise<void> {
    return this.serial(async () => {
      const map = await this.raw();
      map[record.run.run_id] = record;
      await browser.storage.session.set({ [KEY]: prune(map) });
    });
  }

  delete(runId: string): Promise<void> {
    return this.serial(async () => {
      const map = await this.raw();
      delete map[runId];
      await browser.storage.session.set({ [KEY]: map });
    });
  }
}

function readOne(run_id: string, value: unknown): ReadRun {
  const full = RunRecord.safeParse(value);
  if (full.success) return { ok: true, record: full.data };
  const run = CopilotRun.safeParse((value as { run?: unknown } | null)?.run);
  return { ok: false, run_id, ...(run.success ? { run: run.data, token_id: run.data.token_id } : {}) };
}

/** Drops the oldest ended runs past KEEP_ENDED; active and unreadable ones stay until dealt with. */
function prune(map: Record<string, unknown>): Record<string, unknown> {
  const ended = Object.entries(map)
    .map(([id, v]) => ({ id, run: CopilotRun.safeParse((v as { run?: unknown } | null)?.run) }))
    .filter((e) => e.run.success && e.run.data.end !== undefined)
    .sort((a, b) => (b.run.data?.started_at ?? 0) - (a.run.data?.started_at ?? 0));
  for (const e of ended.slice(KEEP_ENDED)) delete map[e.id];
  return map;
}
