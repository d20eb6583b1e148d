import { SaidRecord } from './SaidRecord.tsx';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import { AUDIT_CHAIN_BROKEN, type AuditEntry } from '../../protocol/audit.ts';
import type { z } from 'zod';
import type { AuditVerifyResponse } from '../../protocol/panel-channel.ts';
import { auditEntries, exportAudit, subscribe, verifyAudit, verifyAuditExport } from '../background-client.ts';
import { auditFilename, downloadText } from '../download.ts';
import { NO_FILTER, facets, filterGroups, groupAudit, type AuditFilter } from '../lib/audit-groups.ts';
import { AuditFilters } from './AuditFilters.tsx';
import { AuditGroupItem } from './AuditGroupItem.tsx';
import { AuditTaskItem } from './AuditTaskItem.tsx';
import { activityRows, taskIdentities, taskTitles } from '../lib/audit-tasks.ts';
import { taskSearchWords } from '../lib/task-heading.ts';
import { startOfDay } from '../lib/time.ts';
import { now } from '../now.ts';
import { saidWithRecord } from '../lib/phrases.ts';
import { copilotRunList } from '../copilot-store.ts';

/** How many entries the list loads; verification and export always cover the whole log. */
const LIST_LIMIT = 5000;

/** What was verified: the log Steward holds, or an exported file. */
type Subject = 'chain' | 'export';
type Verify = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; subject: Subject; result: z.infer<typeof AuditVerifyResponse> } | { kind: 'error'; message: string };

/** The hash-chained audit log: searchable, grouped per action and per task (a co-pilot run, an MCP client), verifiable and exportable; `agent` opens it filtered to one agent. */
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
        (e: Error) => alive && setError(t('activity_load_failed', e.message)),
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
  // A co-pilot run is headed by what the person asked it, as far as the panel knows its runs.
  const runs = copilotRunList.value;
  const titles = useMemo(() => taskTitles(groups, new Map(runs.map((r) => [r.agent_id, r.goal]))), [groups, runs]);
  // Tasks (a client's sessions and visits) from the whole log, so a filter never regroups what it leaves.
  const identities = useMemo(() => taskIdentities(groups), [groups]);
  // Headings show the date only for another day: they change at midnight, not with every tick of the clock.
  const today = startOfDay(now.value);
  const taskWords = useMemo(() => taskSearchWords(groups, identities, titles, today), [groups, identities, titles, today]);
  const shown = useMemo(() => filterGroups(groups, filter, taskWords), [groups, filter, taskWords]);
  const rows = useMemo(() => activityRows(shown, titles, identities), [shown, titles, identities]);
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
      setExported(pluralOf(lines) === 'one' ? t('activity_exported_one', lines) : t('activity_exported_other', lines));
    } catch (e) {
      setExported(t('activity_export_failed', (e as Error).message));
    }
  };

  return (
    <>
      <h2>{t('activity_heading')}</h2>
      <p class="muted">{t('activity_intro')}</p>
      <div class="toolbar">
        <button type="button" onClick={() => void runVerify('chain', verifyAudit)} disabled={verify.kind === 'running'}>
          {t('activity_verify_chain')}
        </button>
        <button type="button" class="secondary" onClick={() => void runExport()}>
          {t('activity_export')}
        </button>
        <label class="file-button">
          {t('activity_verify_file')}
          <input type="file" accept=".jsonl,application/jsonl" class="sr-only" onChange={(e) => verifyFile(e.currentTarget)} disabled={verify.kind === 'running'} />
        </label>
      </div>
      {recordedBreak && <RecordedBreak entry={recordedBreak} />}
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
      {entries === undefined && !error && <p class="muted">{t('app_loading')}</p>}
      {entries !== undefined && (
        <p class="muted" role="status">
          {groups.length === 0
            ? t('activity_nothing_yet')
            : pluralOf(groups.length) === 'one'
              ? t('activity_count_one', shown.length, groups.length, entries.length)
              : t('activity_count_other', shown.length, groups.length, entries.length)}
        </p>
      )}
      <ul class="audit-list" aria-label={t('activity_log_label')}>
        {rows.map((row) => (row.kind === 'task' ? <AuditTaskItem key={row.task.key} task={row.task} /> : <AuditGroupItem key={row.group.key} group={row.group} />))}
      </ul>
    </>
  );
}

function VerifyResult({ verify }: { verify: Verify }) {
  if (verify.kind === 'idle') return null;
  if (verify.kind === 'running')
    return (
      <p role="status" class="note">
        {t('activity_verifying')}
      </p>
    );
  if (verify.kind === 'error')
    return (
      <p role="alert" class="error-text">
        {t('activity_verify_failed', verify.message)}
      </p>
    );
  const r = verify.result;
  const chain = verify.subject === 'chain';
  if (r.ok) {
    const removed = r.removed_through;
    const text =
      removed === undefined
        ? chain
          ? t('activity_verify_ok_chain', r.entries)
          : t('activity_verify_ok_export', r.entries)
        : chain
          ? t('activity_verify_ok_chain_removed', r.entries, removed)
          : t('activity_verify_ok_export_removed', r.entries, removed);
    return (
      <p role="status" class="verify ok">
        {text}
      </p>
    );
  }
  // The problem in the person's words for its kind; the verifier's own sentence one click away.
  const { words, record } = saidWithRecord(r.problem_said, r.problem ?? t('activity_verify_problem_unknown'));
  const problem = words;
  const at = r.broken_at;
  const text =
    at === undefined
      ? chain
        ? t('activity_verify_broken_chain', problem)
        : t('activity_verify_broken_export', problem)
      : chain
        ? t('activity_verify_broken_chain_at', at, problem)
        : t('activity_verify_broken_export_at', at, problem);
  return (
    <div role="alert" class="verify broken">
      <p>{text}</p>
      <SaidRecord record={record} />
    </div>
  );
}

/** A break Steward found at a start, as the log recorded it (its kind in words, its own sentence one click away). */
function RecordedBreak({ entry }: { entry: AuditEntry }) {
  const problem = entry.details?.problem;
  const message = typeof entry.details?.message === 'string' ? entry.details.message : t('activity_recorded_break_unknown');
  const { words, record } = saidWithRecord(typeof problem === 'string' ? { code: 'chain_broken', params: { problem } } : undefined, message);
  return (
    <div role="alert" class="verify broken">
      <p>{t('activity_recorded_break', entry.seq, words.replace(/\.$/, ''))}</p>
      <SaidRecord record={record} />
    </div>
  );
}
