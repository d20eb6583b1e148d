import { z } from 'zod';
import { AUDIT_CHAIN_BROKEN, AUDIT_GENESIS_HASH, AuditEntry, type UnsealedAuditEntry } from '../protocol/audit.ts';
import { canonicalJson } from '../base/canonical-json.ts';
import { sha256Hex } from '../base/hash.ts';
import { SignedHead } from './audit-seal.ts';
import { ChainStart, startMismatch } from './audit-retention.ts';

/**
 * The audit log's hash chain (DESIGN §4), as pure functions: `hash` is SHA-256 over the canonical
 * JSON of the entry without `hash`, and each entry's `prev_hash` is the previous entry's `hash`.
 */

export async function sealAuditEntry(unsealed: UnsealedAuditEntry): Promise<AuditEntry> {
  const { hash: _ignored, ...body } = unsealed as UnsealedAuditEntry & { hash?: string };
  return { ...body, hash: await sha256Hex(canonicalJson(body)) };
}

type ChainProblem = 'malformed' | 'edited' | 'deleted' | 'inserted' | 'reordered' | 'broken_link' | 'truncated' | 'rewritten' | 'unsigned' | 'unrecorded_removal';

/** A break between the stored entries and the signed head. */
export interface ChainBreak {
  /** The first seq that cannot be trusted. */
  seq: number;
  problem: ChainProblem;
  message: string;
}

export type ChainVerification =
  | {
      ok: true;
      count: number;
      head_hash: string;
      /** Older entries were removed (retention or clear) through this seq: the chain starts after it. */
      removed_through?: number;
    }
  | { ok: false; seq: number; problem: ChainProblem; message: string };

export interface StoredAuditRecord {
  /** The IndexedDB key the record sits under. */
  key: unknown;
  value: unknown;
}

/**
 * Walks the records in key order and reports the first place the chain breaks: an entry that
 * fails its schema, sits under another seq's key, skips or repeats a seq, does not chain from its
 * predecessor, or whose hash does not match its content. `expectedHead` (the last entry this
 * process wrote) additionally catches removal of the newest entries. `start` (audit-retention.ts)
 * is where the chain begins after older entries were removed; without it, at seq 0 from the
 * genesis hash. Either way the start must be the one the log's own `retention` entry records.
 */
export async function verifyChain(records: readonly StoredAuditRecord[], expectedHead?: { seq: number; hash: string }, start?: ChainStart): Promise<ChainVerification> {
  const first = start ? start.through_seq + 1 : 0;
  let prevHash = start ? start.through_hash : AUDIT_GENESIS_HASH;
  for (let i = 0; i < records.length; i++) {
    const { key, value } = records[i]!;
    const at = first + i;
    if (typeof key !== 'number' || !Number.isInteger(key)) {
      return { ok: false, seq: at, problem: 'inserted', message: `a record under key ${JSON.stringify(key)} was inserted before seq ${at}` };
    }
    const parsed = AuditEntry.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, seq: at, problem: 'malformed', message: `entry at position ${at} is not a valid audit entry: ${issue?.path.join('.')}: ${issue?.message}` };
    }
    const entry = parsed.data;
    if (key !== entry.seq) {
      return { ok: false, seq: at, problem: 'reordered', message: `the record under seq ${key} holds entry ${entry.seq}: entries were moved` };
    }
    if (entry.seq > at) {
      return { ok: false, seq: at, problem: 'deleted', message: `entry ${at} is missing (the next stored entry is ${entry.seq})` };
    }
    if (entry.seq < at) {
      return { ok: false, seq: at, problem: 'inserted', message: `seq ${entry.seq} appears again at position ${at}` };
    }
    if (entry.prev_hash !== prevHash) {
      const from = at === first && start ? `the chain's start (entry ${start.through_seq}, removed)` : `entry ${at - 1}`;
      return {
        ok: false,
        seq: at,
        problem: 'broken_link',
        message: `entry ${at} does not chain from ${from}: an entry was changed, inserted or removed between them`,
      };
    }
    // Hash the raw record, not the parsed one: parsing drops unknown keys, which would hide an added field.
    const resealed = await sealAuditEntry(value as UnsealedAuditEntry);
    if (resealed.hash !== entry.hash) {
      return { ok: false, seq: at, problem: 'edited', message: `entry ${at} was edited: its content no longer matches its hash` };
    }
    prevHash = entry.hash;
  }
  const recorded = recordedBreak(records);
  if (recorded) return { ok: false, ...recorded };
  const unrecorded = startMismatch(
    records.map((r) => r.value),
    start,
  );
  if (unrecorded) return { ok: false, seq: unrecorded.seq, problem: 'unrecorded_removal', message: unrecorded.message };
  const last = first + records.length - 1;
  if (expectedHead && (last < expectedHead.seq || (last === expectedHead.seq && prevHash !== expectedHead.hash))) {
    return {
      ok: false,
      seq: Math.min(last + 1, expectedHead.seq),
      problem: 'truncated',
      message: `the log ends before entry ${expectedHead.seq}, which this session wrote: the newest entries were removed or replaced`,
    };
  }
  return { ok: true, count: records.length, head_hash: prevHash, ...(start ? { removed_through: start.through_seq } : {}) };
}

/** The first break the log recorded about itself (an intact chain that says it was found broken is still broken). */
function recordedBreak(records: readonly StoredAuditRecord[]): ChainBreak | undefined {
  for (const { value } of records) {
    const e = value as AuditEntry;
    if (e.kind !== 'recovery' || e.outcome !== AUDIT_CHAIN_BROKEN) continue;
    const d = (e.details ?? {}) as { seq?: unknown; problem?: unknown; message?: unknown };
    const problem = typeof d.problem === 'string' ? (d.problem as ChainProblem) : 'truncated';
    return {
      seq: typeof d.seq === 'number' ? d.seq : e.seq,
      problem,
      message: `entry ${e.seq} records that Steward found the log broken when it started: ${typeof d.message === 'string' ? d.message : problem}`,
    };
  }
  return undefined;
}

/** The export's last line: the head Steward signed when it exported. */
const ExportedHead = z.object({ signed_head: SignedHead });
/** The export's first line when older entries were removed: where the chain starts. */
const ExportedStart = z.object({ chain_start: ChainStart });

/**
 * Verifies an exported JSON Lines log (e.g. one handed to someone else): the line number plays
 * the role of the key, so moved lines show up as reordering. A first line `{"chain_start":…}`
 * says older entries were removed (the log's own `retention` entry must record the same start).
 * The last line is the signed head: the entries must end exactly there. `headSigned` checks its
 * MAC (only Steward holds the key); without it the chain is still checked against the head it claims.
 */
export async function verifyJsonl(text: string, headSigned?: (head: SignedHead) => Promise<boolean>): Promise<ChainVerification> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const values: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    try {
      values.push(JSON.parse(lines[i]!));
    } catch {
      return { ok: false, seq: i, problem: 'malformed', message: `line ${i + 1} is not JSON` };
    }
  }
  const opening = ExportedStart.safeParse(values[0]);
  const start = opening.success ? opening.data.chain_start : undefined;
  if (start) values.shift();
  const first = start ? start.through_seq + 1 : 0;
  const records: StoredAuditRecord[] = values.map((value, i) => ({ key: first + i, value }));
  const last = ExportedHead.safeParse(records.at(-1)?.value);
  if (!last.success) {
    if (headSigned) return { ok: false, seq: first + records.length, problem: 'unsigned', message: 'the export carries no signed head: it was cut short or not exported by Steward' };
    return verifyChain(records, undefined, start);
  }
  const head = last.data.signed_head;
  records.pop();
  if (headSigned && !(await headSigned(head))) {
    return { ok: false, seq: head.seq, problem: 'unsigned', message: "the export's head is not signed with this Steward's key: the head or the entries were rewritten" };
  }
  const verified = await verifyChain(records, head, start);
  if (verified.ok && (first + verified.count !== head.seq + 1 || verified.head_hash !== head.hash)) {
    return { ok: false, seq: head.seq + 1, problem: 'inserted', message: `the export has entries after the signed head (entry ${head.seq})` };
  }
  return verified;
}
