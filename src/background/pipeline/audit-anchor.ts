import type { AuditAnchor } from '../../storage/audit-log.ts';
import { browser } from '../core/browser.ts';

const KEY = 'steward.audit_head';

/**
 * A copy of the audit log's signed head in chrome.storage.local (trusted contexts only, see
 * storage-access.ts): a second place, outside the log's IndexedDB, so rolling back the log together
 * with its signed head is still noticed. The log validates and checks the signature of what it reads.
 */
export const chromeAuditAnchor = (): AuditAnchor => ({
  async load() {
    return (await browser.storage.local.get(KEY))[KEY];
  },
  async save(head) {
    await browser.storage.local.set({ [KEY]: head });
  },
});
