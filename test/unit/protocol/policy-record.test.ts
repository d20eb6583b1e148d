import { describe, expect, it } from 'vitest';
import { NO_POLICY, parsePolicy } from '../../../src/protocol/managed-policy.ts';
import { createHash } from 'node:crypto';
import type { ParsedPolicy } from '../../../src/protocol/managed-policy.ts';
import { policyChanged, policyRecord as recordOf, policyRules } from '../../../src/protocol/policy-record.ts';

const policyRecord = (parsed: ParsedPolicy) => recordOf(parsed, createHash('sha256').update(policyRules(parsed)).digest('hex'));

describe('the policy on record', () => {
  it('records the keys the organisation sets and what did not read, not the values', async () => {
    const record = policyRecord(parsePolicy({ blockedSites: ['https://intranet.example.com'], allowedSites: ['shop.example.com/orders'] }));
    expect(record).toEqual({
      outcome: 'policy_applied',
      details: {
        managed: ['allowedSites', 'blockedSites'],
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        problems: [{ path: 'allowedSites[0]', message: expect.any(String), applied: 'that entry allows no site' }],
      },
    });
    expect(JSON.stringify(record)).not.toContain('intranet.example.com');
  });

  it('goes on record when the policy first applies and whenever it changes; not for an unchanged re-read, nor in a browser that never had one', async () => {
    const read = (raw: unknown) => policyRecord(parsePolicy(raw));
    const none = policyRecord({ policy: NO_POLICY, problems: [] });
    const some = read({ copilotEnabled: false, maxTokenLifetimeMinutes: 45 });
    expect(policyChanged(undefined, none)).toBe(false);
    expect(policyChanged(undefined, some)).toBe(true);
    expect(policyChanged(some, read({ maxTokenLifetimeMinutes: 45, copilotEnabled: false }))).toBe(false);
    // A value changed under the same keys is a change.
    expect(policyChanged(some, read({ copilotEnabled: false, maxTokenLifetimeMinutes: 30 }))).toBe(true);
    expect(policyChanged(some, read({ copilotEnabled: 'no', maxTokenLifetimeMinutes: 45 }))).toBe(true);
    expect(policyChanged(some, none)).toBe(true);
    expect(none.outcome).toBe('policy_cleared');
  });
});
