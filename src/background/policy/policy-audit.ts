import type { ParsedPolicy } from '../../protocol/managed-policy.ts';
import { sha256Hex } from '../../base/hash.ts';
import { PolicyRecord, policyChanged, policyRecord, policyRules } from '../../protocol/policy-record.ts';
import { browser } from '../core/browser.ts';
import type { ManagedPolicy } from '../core/managed-policy.ts';

/** chrome.storage.local: the policy as last put on record, so a change made while the worker was stopped is still recorded as one. */
const ON_RECORD_KEY = 'steward.policy_on_record';

/**
 * Puts every change of the organisation's policy in force on the audit log (kind `policy`): at
 * start (against the last one recorded) and whenever Chrome reloads it. One at a time, in order.
 */
export function auditPolicyChanges(policy: ManagedPolicy, record: (r: PolicyRecord) => Promise<void>): void {
  let queue: Promise<void> = Promise.resolve();
  const note = async (parsed: ParsedPolicy) => {
    const now = policyRecord(parsed, await sha256Hex(policyRules(parsed)));
    const kept = PolicyRecord.safeParse((await browser.storage.local.get(ON_RECORD_KEY))[ON_RECORD_KEY]);
    if (!policyChanged(kept.success ? kept.data : undefined, now)) return;
    await record(now);
    await browser.storage.local.set({ [ON_RECORD_KEY]: now });
  };
  const changed = (parsed: ParsedPolicy) => {
    queue = queue.then(() => note(parsed)).catch((e) => console.warn('Steward could not put the policy change on record', e));
  };
  void policy.read().then(changed);
  policy.onChange(changed);
}
