import type { AuditEntry } from '../../protocol/audit.ts';
import { ActRefusalBeside, type ActRefusalPhrase } from '../../protocol/act-refusal.ts';
import { Source } from '../../protocol/resource.ts';

/**
 * The audit log as a person reads it: one group per action (all steps sharing an agent and an
 * idempotency key: proposal → observation → approval → dispatch → confirmation), standalone
 * entries (token minted or revoked) as groups of one. Pure, so filtering is unit-tested.
 */

export interface AuditGroup {
  key: string;
  agent_id: string;
  action?: string;
  resource?: string;
  origin?: string;
  /** The path the action was sent on (site contract, WebMCP tool, adapter, page controls), as its dispatch recorded it. */
  via?: Source;
  /**
   * What happened in the end, so far: for an action, a word a person would use (`done_confirmed`,
   * `denied_by_you`, `outcome_unknown`, … see `actionResult`); for anything else, the final step's
   * outcome (or kind when it has none).
   */
  outcome: string;
  tone: 'ok' | 'pending' | 'bad' | 'neutral';
  error_code?: string;
  /** Why the page step was refused, as the worker recorded it for the person (act-refusal.ts); a record that does not fit is left out. */
  said?: ActRefusalPhrase;
  first_at: string;
  last_at: string;
  last_seq: number;
  steps: AuditEntry[];
}

/** The origin an entry names, when the service worker recorded one in `details`. */
function entryOrigin(e: AuditEntry): string | undefined {
  // The resource's own site first (origin, type, id), then what a step recorded.
  if (e.resource?.origin) return e.resource.origin;
  const d = e.details ?? {};
  if (typeof d.origin === 'string') return d.origin;
  if (typeof d.url === 'string') {
    try {
      return new URL(d.url).origin;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The path an entry names in `details.via`; anything else recorded there is not a path. */
function entryVia(e: AuditEntry): Source | undefined {
  const parsed = Source.safeParse(e.details?.via);
  return parsed.success ? parsed.data : undefined;
}

function tone(last: AuditEntry): AuditGroup['tone'] {
  // The person's own decision (Deny, Stop), or a card its run's end withdrew: neither a success nor a failure.
  if (stoppedByPerson(last) || last.outcome === 'withdrawn' || (last.kind === 'denial' && (last.error_code === 'APPROVAL_DENIED' || last.outcome === 'denied'))) return 'neutral';
  if (last.error_code || last.kind === 'denial' || last.kind === 'failure') return 'bad';
  if (last.kind === 'confirmation') return last.outcome === 'unknown' ? 'pending' : 'ok';
  if (last.kind === 'acceptance' || last.kind === 'approval_request' || last.kind === 'dispatch' || last.kind === 'recovery') return 'pending';
  return 'neutral';
}

/**
 * Denials from before the audit told a Stop from a Deny (outcome `stopped`): the reason the
 * service worker gave when the person's Stop withdrew the card (run-manager.ts, chrome-presence.ts).
 */
const STOPPED_BEFORE = /withdrawn: the person (stopped|took over from) the co-pilot run|stopped by the person with Steward’s Stop on the page/;

/** The person's Stop ended it: on the run, or on Steward's indicator on the page (runner.ts records it). */
function stoppedByPerson(e: AuditEntry): boolean {
  if (e.outcome === 'stopped' || typeof e.details?.stopped_by === 'string') return true;
  return e.kind === 'denial' && typeof e.details?.message === 'string' && STOPPED_BEFORE.test(e.details.message);
}

/**
 * An action's end as a person names it, from its last step: done (and whether the site confirmed
 * it), waiting for the person, sent but not confirmed, denied by the person, stopped by the person,
 * withdrawn when its co-pilot run ended, refused before it ran, failed, or an outcome nobody could
 * tell (the person should look at the site). Undefined for an entry that is not an action's step
 * (a token minted, a policy change).
 */
function actionResult(last: AuditEntry): string | undefined {
  if (!last.idempotency_key) return undefined;
  switch (last.kind) {
    case 'confirmation':
      return last.outcome?.endsWith('_confirmed') ? 'done_confirmed' : 'done';
    case 'approval_request':
      return 'waiting_for_you';
    case 'acceptance':
    case 'dispatch':
      return 'sent_unconfirmed';
    case 'denial':
      if (stoppedByPerson(last)) return 'stopped_by_you';
      if (last.outcome === 'withdrawn') return 'withdrawn';
      return last.error_code === 'APPROVAL_DENIED' || last.outcome === 'denied' ? 'denied_by_you' : 'refused';
    case 'failure':
      if (stoppedByPerson(last)) return 'stopped_by_you';
      if (last.outcome?.startsWith('unknown') || last.error_code === 'TIMEOUT') return 'outcome_unknown';
      return last.outcome === 'refused' ? 'refused' : 'failed';
    case 'proposal':
    case 'observation':
    case 'approval':
      return 'in_progress';
    default:
      return undefined;
  }
}

/** The refusal phrase the last failure step recorded (`details.said`), unchecked. */
function decisiveSaid(steps: readonly AuditEntry[]): unknown {
  return steps.findLast((s) => s.kind === 'failure')?.details?.said;
}

export function groupAudit(entries: readonly AuditEntry[]): AuditGroup[] {
  const groups = new Map<string, AuditEntry[]>();
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    const key = e.idempotency_key ? `act:${e.agent_id}:${e.idempotency_key}` : `entry:${e.seq}`;
    const list = groups.get(key) ?? [];
    list.push(e);
    groups.set(key, list);
  }
  const out: AuditGroup[] = [];
  for (const [key, steps] of groups) {
    const first = steps[0]!;
    const last = steps[steps.length - 1]!;
    // The last one that names the resource: once reached, it names its site too.
    const withResource = steps.findLast((s) => s.resource);
    const origin = steps.map(entryOrigin).find((o) => o !== undefined);
    // The last one recorded: a retry on another path says where the action finally went.
    const via = steps.map(entryVia).findLast((v) => v !== undefined);
    const errorCode = [...steps].reverse().find((s) => s.error_code)?.error_code;
    const said = ActRefusalBeside.parse(decisiveSaid(steps));
    // An agent asking again with the same key changes nothing: the action ended as its last real step says.
    const decisive = steps.findLast((s) => s.outcome !== 'idempotent_replay') ?? last;
    out.push({
      key,
      agent_id: first.agent_id,
      ...(steps.find((s) => s.action)?.action ? { action: steps.find((s) => s.action)!.action! } : {}),
      ...(withResource?.resource ? { resource: `${withResource.resource.type}:${withResource.resource.id}` } : {}),
      ...(origin ? { origin } : {}),
      ...(via ? { via } : {}),
      outcome: actionResult(decisive) ?? decisive.outcome ?? decisive.kind,
      tone: tone(decisive),
      ...(errorCode ? { error_code: errorCode } : {}),
      ...(said ? { said } : {}),
      first_at: first.at,
      last_at: last.at,
      last_seq: last.seq,
      steps,
    });
  }
  return foldTokenChanges(out.sort((a, b) => b.last_seq - a.last_seq));
}

/**
 * Tokens minted and revoked one after another by the same hand (the co-pilot mints one per run, a
 * person tidies up several) are one row, not one each: the actions between them stay where they
 * are, the folded row's steps list every change, and its badge is the newest change.
 */
function foldTokenChanges(groups: AuditGroup[]): AuditGroup[] {
  const out: AuditGroup[] = [];
  for (const g of groups) {
    const previous = out[out.length - 1];
    if (previous && isTokenChange(g) && (isTokenChange(previous) || previous.key.startsWith('tokens:')) && previous.agent_id === g.agent_id) {
      const steps = [...g.steps, ...previous.steps].sort((a, b) => a.seq - b.seq);
      out[out.length - 1] = { ...previous, key: `tokens:${steps[0]!.seq}`, first_at: steps[0]!.at, steps };
      continue;
    }
    out.push(g);
  }
  return out;
}

const isTokenChange = (g: AuditGroup) => g.steps.length === 1 && g.steps[0]!.kind === 'token' && !g.action;

export interface AuditFilter {
  text: string;
  agent: string;
  origin: string;
  action: string;
  outcome: string;
}

export const NO_FILTER: AuditFilter = { text: '', agent: '', origin: '', action: '', outcome: '' };

/** Every piece of text a search may match, across all steps of the group, and the words heading its task (task-heading.ts). */
function haystack(g: AuditGroup, taskWords: ReadonlyMap<string, string>): string {
  const parts = [g.agent_id, taskWords.get(g.key), g.action, g.resource, g.origin, g.outcome, g.error_code];
  for (const s of g.steps) parts.push(s.kind, s.outcome, s.error_code, s.token_id, s.receipt_id, s.idempotency_key, s.audit_id);
  return parts.filter(Boolean).join(' ').toLowerCase();
}

/** The groups the filter keeps; `taskWords`: what heads each group's task, by group key (taskSearchWords). */
export function filterGroups(groups: readonly AuditGroup[], f: AuditFilter, taskWords: ReadonlyMap<string, string> = new Map()): AuditGroup[] {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  const found = (text: string) => words.every((w) => text.includes(w));
  return groups.filter(
    (g) =>
      (!f.agent || g.agent_id === f.agent) &&
      (!f.origin || g.origin === f.origin) &&
      (!f.action || g.action === f.action) &&
      (!f.outcome || g.outcome === f.outcome) &&
      (words.length === 0 || found(haystack(g, taskWords))),
  );
}

/** The distinct values a filter menu offers. */
export function facets(groups: readonly AuditGroup[]): { agents: string[]; origins: string[]; actions: string[]; outcomes: string[] } {
  const uniq = (xs: Array<string | undefined>) => [...new Set(xs.filter((x): x is string => !!x))].sort();
  return {
    agents: uniq(groups.map((g) => g.agent_id)),
    origins: uniq(groups.map((g) => g.origin)),
    actions: uniq(groups.map((g) => g.action)),
    outcomes: uniq(groups.map((g) => g.outcome)),
  };
}
