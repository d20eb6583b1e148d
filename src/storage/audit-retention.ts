import { z } from 'zod';
import type { AuditEntry } from '../protocol/audit.ts';
import { IsoDateTime, Sha256Hex } from '../protocol/primitives.ts';

/**
 * Removing the oldest audit entries (a retention period, or the person's "clear") without losing
 * the chain's verifiability. Only a prefix is ever removed, and what stays starts from a chain
 * start: the last removed entry's seq and hash, from which the first kept entry chains. The
 * removal itself is appended to the chain as a `retention` entry naming the same seq and hash, so
 * the start is sealed by the chain (and its signed head): a start that no entry records, or one
 * that disagrees with the newest record, is a break, not a removal. Pure; the log applies it.
 */

export const RETENTION_REASONS = ['retention', 'cleared'] as const;

/** Key of the chain's start in the `audit_seal` store. */
export const CHAIN_START_KEY = 'start';

export const ChainStart = z
  .object({
    /** The last removed entry: the first kept one chains from its hash. */
    through_seq: z.int().nonnegative(),
    through_hash: Sha256Hex,
    /** How many entries this removal took (earlier removals took the ones before). */
    removed: z.int().positive(),
    at: IsoDateTime,
    reason: z.enum(RETENTION_REASONS),
    /** For `retention`: the period in force. */
    retention_days: z.int().positive().optional(),
  })
  .strict();
export type ChainStart = z.infer<typeof ChainStart>;

/** `outcome` of the entry recording a removal. */
export const RETENTION_OUTCOME = { retention: 'old_entries_removed', cleared: 'log_cleared' } as const;

/** The `details` of a `retention` entry: the chain start it created. */
const RetentionDetails = ChainStart.extend({
  by: z.string().max(120),
  /** A clear of a log that did not verify: where it was broken (the clear does not hide it). */
  broken_before: z.object({ seq: z.int().nonnegative(), problem: z.string(), message: z.string() }).optional(),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The last seq a retention of `days` removes at `now`: every entry up to the newest one recorded
 * before the cutoff (entries are in seq order; a clock that stepped back leaves its entry, and the
 * ones before it, for a later run). Never beyond `keepFrom - 1` (entries the audit export has not
 * copied yet). Undefined: nothing to remove.
 */
export function retentionThrough(entries: readonly Pick<AuditEntry, 'seq' | 'at'>[], days: number, now: number, keepFrom = Infinity): number | undefined {
  const cutoff = now - days * DAY_MS;
  let through: number | undefined;
  for (const e of entries) {
    if (e.seq >= keepFrom || !(Date.parse(e.at) < cutoff)) break;
    through = e.seq;
  }
  return through;
}

/** The last seq clearing removes: everything, except entries the audit export has not copied yet. */
export function clearThrough(headSeq: number | undefined, keepFrom = Infinity): number | undefined {
  if (headSeq === undefined) return undefined;
  const through = Math.min(headSeq, keepFrom - 1);
  return through >= 0 ? through : undefined;
}

export type StartProblem = { seq: number; message: string };

/**
 * Whether the chain's start is the one the log recorded: the newest `retention` entry must name
 * exactly `start` (and there must be one when there is a start). Undefined when they agree.
 */
export function startMismatch(entries: readonly unknown[], start: ChainStart | undefined): StartProblem | undefined {
  let recorded: { seq: number; details: unknown } | undefined;
  for (const value of entries) {
    const e = value as Partial<AuditEntry>;
    if (e.kind === 'retention' && typeof e.seq === 'number') recorded = { seq: e.seq, details: e.details };
  }
  if (!start) {
    return recorded ? { seq: 0, message: `entry ${recorded.seq} records that old entries were removed, but the chain's start is missing` } : undefined;
  }
  const first = start.through_seq + 1;
  if (!recorded) return { seq: first, message: `the log starts after entry ${start.through_seq}, but no entry records that removal` };
  const details = RetentionDetails.safeParse(recorded.details);
  if (!details.success) return { seq: recorded.seq, message: `entry ${recorded.seq} records a removal it does not describe` };
  if (details.data.through_seq !== start.through_seq || details.data.through_hash !== start.through_hash) {
    return {
      seq: first,
      message: `the log starts after entry ${start.through_seq}, but entry ${recorded.seq} records a removal through entry ${details.data.through_seq}: entries were removed without a record`,
    };
  }
  return undefined;
}
