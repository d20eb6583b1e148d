import { z } from 'zod';
import { Sha256Hex } from '../protocol/primitives.ts';
import type { AuditAnchor } from '../storage/audit-log.ts';

const KEY = 'steward.audit_head';
const Head = z.object({ seq: z.number().int().nonnegative(), hash: Sha256Hex });

/**
 * The audit log's newest seq and hash in chrome.storage.local: a second place, outside the log's
 * IndexedDB store, so "Verify chain" still notices removed newest entries after the worker
 * restarted. Whoever can rewrite both stores can still rewrite history; this raises the bar.
 */
export const chromeAuditAnchor = (): AuditAnchor => ({
  async load() {
    const parsed = Head.safeParse((await chrome.storage.local.get(KEY))[KEY]);
    return parsed.success ? parsed.data : undefined;
  },
  async save(head) {
    await chrome.storage.local.set({ [KEY]: head });
  },
});
