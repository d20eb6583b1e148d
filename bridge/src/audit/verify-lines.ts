import { AUDIT_GENESIS_HASH } from '../../../src/protocol/audit.ts';
import { parseSyslogLine, recordDigest } from './syslog-line.ts';

/**
 * `steward-bridge audit verify`: each browser's chain, rebuilt from the lines a collector wrote
 * (files in the order given, lines in file order). Steward sends each chain in seq order and
 * resends after a failed attempt, so a seq seen again must be the same entry (a duplicate, fine);
 * a new seq must be the next one. The first place that does not hold is the break.
 */

export interface LineSource {
  file: string;
  text: string;
}

type Problem = 'malformed' | 'tampered' | 'conflict' | 'gap' | 'reordered' | 'broken_link';

interface ChainBreakAt {
  file: string;
  line: number;
  chain: string | undefined;
  seq: number | undefined;
  problem: Problem;
  message: string;
}

interface ChainSummary {
  chain: string;
  first: number;
  last: number;
  entries: number;
  duplicates: number;
  head_hash: string;
}

export type VerifyOutcome = { ok: true; chains: ChainSummary[]; ignored: number } | { ok: false; break: ChainBreakAt };

interface Seen {
  digest: string;
  hash: string;
  prev: string;
  file: string;
  line: number;
}

interface ChainState {
  first: number;
  last: number;
  bySeq: Map<number, Seen>;
  duplicates: number;
  /** The first new seq that skipped ahead, judged at the end (gap) or when the missing one turns up (reordered). */
  skipped?: { expected: number; got: number; file: string; line: number };
}

export function verifyLines(sources: readonly LineSource[]): VerifyOutcome {
  const chains = new Map<string, ChainState>();
  let ignored = 0;
  for (const { file, text } of sources) {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i]!;
      if (!raw.trim()) continue;
      const at = { file, line: i + 1 };
      const parsed = parseSyslogLine(raw);
      if (parsed.kind === 'other') {
        ignored++;
        continue;
      }
      if (parsed.kind === 'malformed') return fail(at, undefined, undefined, 'malformed', `a Steward line that cannot be read: ${parsed.problem}`);
      const { chain, record: r, digest } = parsed;
      if (recordDigest(chain, r) !== digest) return fail(at, chain, r.seq, 'tampered', `the line's fields do not match its digest: it was edited after Steward sent it`);
      const state = chains.get(chain) ?? { first: r.seq, last: r.seq - 1, bySeq: new Map<number, Seen>(), duplicates: 0 };
      chains.set(chain, state);
      const seen = state.bySeq.get(r.seq);
      if (seen) {
        if (seen.digest !== digest) return fail(at, chain, r.seq, 'conflict', `seq ${r.seq} was already collected with other content (${seen.file}:${seen.line}): one of them was altered`);
        state.duplicates++;
        continue;
      }
      if (r.seq < state.first) {
        // An earlier seq than the chain's first line: it arrived out of order.
        return fail(at, chain, r.seq, 'reordered', `seq ${r.seq} arrived after seq ${state.first}`);
      }
      if (r.seq !== state.last + 1) {
        if (state.skipped === undefined) state.skipped = { expected: state.last + 1, got: r.seq, ...at };
        if (r.seq < state.last) {
          const s = state.skipped;
          return fail(at, chain, r.seq, 'reordered', `seq ${r.seq} arrived after seq ${s.got} (${s.file}:${s.line})`);
        }
      }
      if (r.seq === 0 && r.prev_hash !== AUDIT_GENESIS_HASH) return fail(at, chain, 0, 'broken_link', 'the first entry does not chain from the genesis hash');
      const before = state.bySeq.get(r.seq - 1);
      if (before && before.hash !== r.prev_hash) return fail(at, chain, r.seq, 'broken_link', `seq ${r.seq}'s previous hash is not seq ${r.seq - 1}'s hash`);
      const after = state.bySeq.get(r.seq + 1);
      if (after && after.prev !== r.hash) return fail(at, chain, r.seq + 1, 'broken_link', `seq ${r.seq + 1}'s previous hash is not seq ${r.seq}'s hash`);
      state.bySeq.set(r.seq, { digest, hash: r.hash, prev: r.prev_hash, ...at });
      state.last = Math.max(state.last, r.seq);
    }
  }
  const summaries: ChainSummary[] = [];
  for (const [chain, s] of chains) {
    for (let seq = s.first; seq <= s.last; seq++) {
      if (!s.bySeq.has(seq)) {
        const k = s.skipped;
        return { ok: false, break: { file: k?.file ?? '', line: k?.line ?? 0, chain, seq, problem: 'gap', message: `seq ${seq} is missing (the next collected was seq ${k?.got ?? seq + 1})` } };
      }
    }
    summaries.push({ chain, first: s.first, last: s.last, entries: s.bySeq.size, duplicates: s.duplicates, head_hash: s.bySeq.get(s.last)!.hash });
  }
  return { ok: true, chains: summaries, ignored };
}

function fail(at: { file: string; line: number }, chain: string | undefined, seq: number | undefined, problem: Problem, message: string): VerifyOutcome {
  return { ok: false, break: { ...at, chain, seq, problem, message } };
}

/** What the CLI prints. */
export function describeOutcome(outcome: VerifyOutcome): string {
  if (!outcome.ok) {
    const b = outcome.break;
    return `${b.file}:${b.line}: ${b.chain ?? 'unknown chain'}${b.seq !== undefined ? ` seq ${b.seq}` : ''}: ${b.problem}: ${b.message}`;
  }
  if (outcome.chains.length === 0) return 'no Steward audit lines found';
  return outcome.chains
    .map(
      (c) =>
        `${c.chain}: seq ${c.first}–${c.last}, ${c.entries} entries${c.duplicates ? ` (${c.duplicates} duplicate lines)` : ''}, unbroken; head ${c.head_hash}${c.first > 0 ? ` (starts at seq ${c.first}, not the first entry)` : ''}`,
    )
    .join('\n');
}
