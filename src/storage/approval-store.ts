import { checkReceiptBinding, type BindingCheck, type ReceiptBinding } from './receipt-binding.ts';
import type { StewardDb } from './db.ts';
import { StoredApproval, StoredReceipt } from './approval-records.ts';
import { readValid } from './read.ts';

const MAX_WINDOW_USES = 1000;

/**
 * Approval requests and receipts in IndexedDB, so a queued card and a given approval survive a
 * service-worker restart. Deciding and consuming are single transactions: a request is decided
 * once, and an exact receipt can be consumed by one action only, even under concurrency.
 */
export class ApprovalStore {
  constructor(private readonly db: StewardDb) {}

  async putRequest(stored: StoredApproval): Promise<void> {
    await this.db.add('approvals', StoredApproval.parse(stored));
  }

  async request(requestId: string): Promise<StoredApproval | undefined> {
    const raw = await this.db.get('approvals', requestId);
    return raw === undefined ? undefined : readValid(StoredApproval, raw, 'approvals', requestId);
  }

  async pending(): Promise<StoredApproval[]> {
    const raws = await this.db.getAllFromIndex('approvals', 'by_status', 'pending');
    return raws.map((r) => readValid(StoredApproval, r, 'approvals', r?.request?.request_id));
  }

  async forAction(actionId: string): Promise<StoredApproval[]> {
    const raws = await this.db.getAllFromIndex('approvals', 'by_action', actionId);
    return raws.map((r) => readValid(StoredApproval, r, 'approvals', r?.request?.request_id));
  }

  /**
   * Moves a pending request to its final status (with its receipt when approved) atomically.
   * Returns the record as it stands afterwards: if it had already been decided, unchanged.
   */
  async settle(requestId: string, update: Omit<StoredApproval, 'request' | 'action_id'>, receipt?: StoredReceipt): Promise<StoredApproval | undefined> {
    const tx = this.db.transaction(['approvals', 'receipts'], 'readwrite');
    const raw = await tx.objectStore('approvals').get(requestId);
    const current = raw === undefined ? undefined : readValid(StoredApproval, raw, 'approvals', requestId);
    if (!current || current.status !== 'pending') {
      await tx.done;
      return current;
    }
    const next = StoredApproval.parse({ ...current, ...update });
    await tx.objectStore('approvals').put(next);
    if (receipt) await tx.objectStore('receipts').add(StoredReceipt.parse(receipt));
    await tx.done;
    return next;
  }

  async receipt(receiptId: string): Promise<StoredReceipt | undefined> {
    const raw = await this.db.get('receipts', receiptId);
    return raw === undefined ? undefined : readValid(StoredReceipt, raw, 'receipts', receiptId);
  }

  /** Checks a receipt against one dispatch and records the use, in one transaction. */
  async consume(receiptId: string, binding: ReceiptBinding, now: number): Promise<BindingCheck> {
    const tx = this.db.transaction('receipts', 'readwrite');
    const raw = await tx.store.get(receiptId);
    if (raw === undefined) {
      await tx.done;
      return { ok: false, problem: 'unknown', message: `no approval receipt ${receiptId}` };
    }
    const stored = readValid(StoredReceipt, raw, 'receipts', receiptId);
    const check = checkReceiptBinding(stored, binding, now);
    if (check.ok && !stored.used_by.includes(binding.action_id)) {
      if (stored.used_by.length >= MAX_WINDOW_USES) {
        await tx.done;
        return { ok: false, problem: 'used', message: `approval receipt ${receiptId} has reached its use limit` };
      }
      await tx.store.put({ ...stored, used_by: [...stored.used_by, binding.action_id], last_used_at: now });
    }
    await tx.done;
    return check;
  }
}
