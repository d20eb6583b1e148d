import { RetentionDays } from '../../protocol/audit.ts';
import { browser } from '../core/browser.ts';

/** Where the person's audit retention (days; absent: keep everything) lives in chrome.storage.local (not a secret). */
const KEY = 'steward.audit_retention_days';

export interface AuditRetentionSetting {
  days(): Promise<number | null>;
  setDays(days: number | null): Promise<void>;
}

/** The retention setting on chrome.storage.local; a stored value that is not a valid period counts as none (everything kept). */
export const chromeAuditRetention = (): AuditRetentionSetting => ({
  async days() {
    const parsed = RetentionDays.safeParse((await browser.storage.local.get(KEY))[KEY]);
    return parsed.success ? parsed.data : null;
  },
  async setDays(days) {
    if (days === null) await browser.storage.local.remove(KEY);
    else await browser.storage.local.set({ [KEY]: days });
  },
});
