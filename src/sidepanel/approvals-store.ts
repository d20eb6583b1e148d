import { signal } from '@preact/signals';
import type { ApprovalRequest } from '../protocol/approval.ts';
import { listApprovals, subscribe } from './background-client.ts';
import { DeadlineExceeded, withDeadline } from '../base/deadline.ts';
import { t } from '../base/i18n.ts';

/** The first view waits for the cards no longer than this: a worker that never answers must not leave the panel on “Loading…”. */
const LIST_DEADLINE_MS = 10_000;

/**
 * The pending approval cards, shared by the Approvals view and the tab bar's count. Reloaded
 * whenever the service worker says the queue changed (and after it restarts).
 */
export const pendingApprovals = signal<ApprovalRequest[]>([]);
export const approvalsError = signal('');
/** False until the first answer (or failure): the panel picks its first view from it. */
export const approvalsLoaded = signal(false);

export async function reloadApprovals(): Promise<void> {
  try {
    pendingApprovals.value = (await withDeadline(listApprovals(), LIST_DEADLINE_MS, 'Steward’s background')).pending;
    approvalsError.value = '';
  } catch (error) {
    // A worker that did not answer in time is said in the person's words; any other failure is the worker's own.
    const why = error instanceof DeadlineExceeded ? t('panel_background_silent', error.ms) : (error as Error).message;
    approvalsError.value = t('approvals_load_failed', why);
  } finally {
    approvalsLoaded.value = true;
  }
}

/** Drops a card at once after a decision, so focus can move before the worker's push arrives. */
export function forgetApproval(requestId: string): void {
  pendingApprovals.value = pendingApprovals.value.filter((r) => r.request_id !== requestId);
}

export function trackApprovals(): void {
  void reloadApprovals();
  subscribe((m) => {
    if (m.type === 'panel/approvals-changed' || m.type === 'panel/reconnected') void reloadApprovals();
  });
}
