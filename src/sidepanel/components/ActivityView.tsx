import { useEffect, useMemo, useState } from 'preact/hooks';
import { AUDIT_CHAIN_BROKEN, type AuditEntry } from '../../protocol/audit.ts';
import type { z } from 'zod';
import type { AuditVerifyResponse } from '../../protocol/panel-channel.ts';
import { auditEntries, exportAudit, subscribe, verifyAudit, verifyAuditExport } from '../background-client.ts';
import { auditFilename, downloadText } from '../download.ts';
import { NO_FILTER, facets, filterGroups, groupAudit, type AuditFilter } from '../lib/audit-groups.ts';
import { AuditFilters } from './AuditFilters.tsx';
import { AuditGroupItem } from './AuditGroupItem.tsx';

/** How many entries the list loads; verification and export always cover the whole log. */
const LIST_LIMIT = 5000;

/** What was verified: the log Steward holds, or an exported file. */
type Subject = 'chain' | 'export';
type Verify = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; subject: Subject; result: z.infer<typeof AuditVerifyResponse> } | { kind: 'error'; message: string };

/** The hash-chained audit log: searchable, grouped per action, verifiable and exportable; `agent` opens it filtered to one agent. */
export function ActivityView({ agent = '' }: { agent?: string }) {
  const [entries, setEntries] = useState<AuditEntry[] | undefined>(undefined);
  const [error, setError] = useState('');
  const [filter, setFilter] = useState<AuditFilter>({ ...NO_FILTER, agent });
  const [verify, setVerify] = useState<Verify>({ kind: 'idle' });
  const [exported, setExported] = useState('');

  useEffect(() => {
    let alive = true;
    const load = () =>
      auditEntries(LIST_LIMIT).then(
        (r) => alive && (setEntries(r.entries), setError('')),
        (e: Error) => alive && setError(`Could not load the activity log: ${e.message}`),
      );
    void load();
    const off = subscribe((m) => {
      if (m.type === 'panel/audit-changed' || m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      off();
    };
  }, []);

  const groups = useMemo(() => groupAudit(entries ?? []), [entries]);
  const shown = useMemo(() => filterGroups(groups, filter), [groups, filter]);
  const menu = useMemo(() => {
    const found = facets(groups);
    // A run's agent is offered even before its first entry arrives.
    return filter.agent && !found.agents.includes(filter.agent) ? { ...found, agents: [...found.agents, filter.agent] } : found;
  }, [groups, filter.agent]);
  // A break Steward found at a start is in the log itself: say so without waiting for "Verify chain".
  const recordedBreak = useMemo(() => entries?.find((e) => e.kind === 'recovery' && e.outcome === AUDIT_CHAIN_BROKEN), [entries]);

  const runVerify = async (subject: Subject, check: () => ReturnType<typeof verifyAudit>) => {
    setVerify({ kind: 'running' });
    try {
      setVerify({ kind: 'done', subject, result: await check() });
    } catch (e) {
      setVerify({ kind: 'error', message: (e as Error).message });
    }
  };

  const verifyFile = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (file) void runVerify('export', async () => verifyAuditExport(await file.text()));
  };

  const runExport = async () => {
    setExported('');
    try {
      const { jsonl } = await exportAudit();
      // The last line is the signed head, and after a removal the first is the chain's start: neither is an entry.
      const lines = jsonl.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{"chain_start"') && !l.startsWith('{"signed_head"')).length;
      downloadText(jsonl, auditFilename(new Date()), 'application/jsonl');
      setExported(`Exported ${lines} entr${lines === 1 ? 'y' : 'ies'} as JSON Lines, ending with Steward's signed head.`);
    } catch (e) {
      setExported(`Export failed: ${(e as Error).message}`);
    }
  };

  return (
    <>
      <h2>Activity</h2>
      <p class="muted">Every step agents took through Steward, in a tamper-evident log (each entry carries the previous one’s hash).</p>
      <div class="toolbar">
        <button type="button" onClick={() => void runVerify('chain', verifyAudit)} disabled={verify.kind === 'running'}>
          Verify chain
        </button>
        <button type="button" class="secondary" onClick={() => void runExport()}>
          Export
        </button>
        <label class="file-button">
          Verify a downloaded log…
          <input type="file" accept=".jsonl,application/jsonl" class="sr-only" onChange={(e) => verifyFile(e.currentTarget)} disabled={verify.kind === 'running'} />
        </label>
      </div>
      {recordedBreak && (
        <p role="alert" class="verify broken">
          Steward found this log broken when it started (recorded as entry #{recordedBreak.seq}): {String(recordedBreak.details?.message ?? 'it no longer matched its signed head')}. Do not trust the
          entries before it.
        </p>
      )}
      <VerifyResult verify={verify} />
      <p role="status" class="note">
        {exported}
      </p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <AuditFilters filter={filter} facets={menu} onChange={setFilter} />
      {entries === undefined && !error && <p class="muted">Loading…</p>}
      {entries !== undefined && (
        <p class="muted" role="status">
          {groups.length === 0 ? 'Nothing recorded yet.' : `${shown.length} of ${groups.length} action${groups.length === 1 ? '' : 's'} (${entries.length} entries), newest first.`}
        </p>
      )}
      <ul class="audit-list" aria-label="Activity log">
        {shown.map((g) => (
          <AuditGroupItem key={g.key} group={g} />
        ))}
      </ul>
    </>
  );
}

function VerifyResult({ verify }: { verify: Verify }) {
  if (verify.kind === 'idle') return null;
  if (verify.kind === 'running')
    return (
      <p role="status" class="note">
        Verifying…
      </p>
    );
  if (verify.kind === 'error')
    return (
      <p role="alert" class="error-text">
        Could not verify: {verify.message}
      </p>
    );
  const r = verify.result;
  const what = verify.subject === 'chain' ? 'Chain' : 'Downloaded log';
  if (r.ok)
    return (
      <p role="status" class="verify ok">
        {what} valid: all {r.entries} entries are intact and in order{verify.subject === 'export' ? ', and the head is signed by this Steward' : ''}
        {r.removed_through !== undefined ? `; it starts after entry #${r.removed_through} (older entries were removed, as the log records)` : ''}.
      </p>
    );
  return (
    <p role="alert" class="verify broken">
      {what} broken{r.broken_at !== undefined ? ` at entry #${r.broken_at}` : ''}: {r.problem ?? 'the log does not verify.'} Entries from there on cannot be trusted.
    </p>
  );
}
