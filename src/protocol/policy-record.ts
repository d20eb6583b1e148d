import { z } from 'zod';
import type { ParsedPolicy } from './managed-policy.ts';

/**
 * The organisation's policy as the audit log records it: which keys it sets, a fingerprint of
 * its rules, and what did not read (and so applies its strictest reading); not the values (a site
 * list can be long; the policy file is the organisation's own record of them). Pure.
 */
export const PolicyRecord = z.object({
  outcome: z.enum(['policy_applied', 'policy_cleared']),
  details: z.object({
    managed: z.array(z.string().max(80)).max(64),
    /** SHA-256 of the rules as Steward applies them: a changed value (a site, a lifetime) shows as a new fingerprint. */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    problems: z.array(z.object({ path: z.string().max(200), message: z.string().max(1000), applied: z.string().max(400) })).max(600),
  }),
});
export type PolicyRecord = z.infer<typeof PolicyRecord>;

/** What the fingerprint is the SHA-256 of: parsePolicy builds the policy in one fixed order, so equal rules read alike. */
export const policyRules = (parsed: ParsedPolicy): string => JSON.stringify(parsed.policy);

/** `fingerprint`: the SHA-256 (hex) of `policyRules(parsed)`, hashed by the caller. */
export function policyRecord(parsed: ParsedPolicy, fingerprint: string): PolicyRecord {
  const managed = [...parsed.policy.managed].sort();
  const problems = parsed.problems.map(({ path, message, applied }) => ({ path, message: message.slice(0, 1000), applied }));
  return { outcome: managed.length === 0 && problems.length === 0 ? 'policy_cleared' : 'policy_applied', details: { managed, fingerprint, problems } };
}

/**
 * Whether `now` goes on record after `before` (the last one recorded; undefined: none yet). A
 * worker restart re-reads an unchanged policy: not a change. A browser that never had a policy has
 * nothing to record.
 */
export function policyChanged(before: PolicyRecord | undefined, now: PolicyRecord): boolean {
  if (before === undefined) return now.outcome === 'policy_applied';
  return JSON.stringify(before) !== JSON.stringify(now);
}
