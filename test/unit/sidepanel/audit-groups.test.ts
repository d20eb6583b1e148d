import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { NO_FILTER, facets, filterGroups, groupAudit } from '../../../src/sidepanel/lib/audit-groups.ts';
import { outcomeText } from '../../../src/sidepanel/lib/labels.ts';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { readFileSync } from 'node:fs';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;

const H = (n: number) => n.toString(16).padStart(64, '0');
let seq = 0;
function entry(fields: Partial<AuditEntry> & Pick<AuditEntry, 'kind'>): AuditEntry {
  const s = seq++;
  return { audit_id: `audit_${s}`, seq: s, at: new Date(Date.UTC(2026, 7, 3, 11, 0, s)).toISOString(), agent_id: 'agent:copilot', prev_hash: H(s), hash: H(s + 1), ...fields };
}

function log(): AuditEntry[] {
  seq = 0;
  const cancel = { idempotency_key: 'k1', action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, details: { origin: 'http://localhost:4100' } };
  const pay = { idempotency_key: 'k2', action: 'orders.pay', resource: { type: 'order', id: 'ORD-2048' } };
  return [
    entry({ kind: 'token', outcome: 'minted', token_id: 'tok_a' }),
    entry({ kind: 'proposal', outcome: 'proposed', ...cancel }),
    entry({ kind: 'proposal', outcome: 'proposed', ...pay, agent_id: 'agent:ide' }),
    entry({ kind: 'approval', outcome: 'approved', receipt_id: 'approval_1', input_hash: `sha256:${'a'.repeat(64)}`, ...cancel }),
    entry({ kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED', ...pay, agent_id: 'agent:ide' }),
    entry({ kind: 'confirmation', outcome: 'confirmed_confirmed', ...cancel }),
  ];
}

describe('groupAudit', () => {
  it('puts every step of one action (same agent and idempotency key) in one group, newest action first', () => {
    const groups = groupAudit(log());
    expect(groups.map((g) => [g.action ?? g.steps[0]!.kind, g.steps.map((s) => s.seq)])).toEqual([
      ['orders.cancel', [1, 3, 5]],
      ['orders.pay', [2, 4]],
      ['token', [0]],
    ]);
    const cancel = groups[0]!;
    expect(cancel).toMatchObject({ resource: 'order:ORD-1024', origin: 'http://localhost:4100', outcome: 'done_confirmed', tone: 'ok' });
    // The person's no is their decision: not shown as a failure.
    expect(groups[1]).toMatchObject({ agent_id: 'agent:ide', outcome: 'denied_by_you', tone: 'neutral', error_code: 'APPROVAL_DENIED' });
  });

  it('keeps the same key used by two agents apart', () => {
    seq = 0;
    const a = entry({ kind: 'proposal', idempotency_key: 'same', action: 'orders.cancel' });
    const b = entry({ kind: 'proposal', idempotency_key: 'same', action: 'orders.cancel', agent_id: 'agent:other' });
    expect(groupAudit([a, b])).toHaveLength(2);
  });
});

describe('the path an action took', () => {
  it('is the one its dispatch recorded, the last one when a retry went another way; none when nothing was sent', () => {
    seq = 0;
    const act = (key: string) => ({ idempotency_key: key, action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' } });
    const groups = groupAudit([
      entry({ kind: 'proposal', outcome: 'proposed', ...act('contract') }),
      entry({ kind: 'dispatch', outcome: 'dispatched', state_version_before: 3, details: { via: 'site_contract' }, ...act('contract') }),
      entry({ kind: 'confirmation', outcome: 'confirmed', ...act('contract') }),
      entry({ kind: 'dispatch', outcome: 'dispatched', state_version_before: 1, details: { via: 'webmcp' }, ...act('retried') }),
      entry({ kind: 'dispatch', outcome: 'dispatched', state_version_before: 1, details: { via: 'legacy_inference' }, ...act('retried') }),
      entry({ kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED', ...act('denied') }),
      // Whatever else is written there is not a path.
      entry({ kind: 'dispatch', outcome: 'dispatched', state_version_before: 1, details: { via: 'the back door' }, ...act('odd') }),
    ]);
    const via = Object.fromEntries(groups.map((g) => [g.key.split(':').pop(), g.via]));
    expect(via).toEqual({ contract: 'site_contract', retried: 'legacy_inference', denied: undefined, odd: undefined });
  });
});

describe('filterGroups', () => {
  const groups = groupAudit(log());
  it('filters by agent, site, action and outcome, and searches every step', () => {
    expect(filterGroups(groups, { ...NO_FILTER, agent: 'agent:ide' }).map((g) => g.action)).toEqual(['orders.pay']);
    expect(filterGroups(groups, { ...NO_FILTER, origin: 'http://localhost:4100' }).map((g) => g.action)).toEqual(['orders.cancel']);
    expect(filterGroups(groups, { ...NO_FILTER, outcome: 'denied_by_you' }).map((g) => g.action)).toEqual(['orders.pay']);
    expect(filterGroups(groups, { ...NO_FILTER, text: 'approval_1' }).map((g) => g.action)).toEqual(['orders.cancel']);
    expect(filterGroups(groups, { ...NO_FILTER, text: 'ORD-2048 DENIED' }).map((g) => g.action)).toEqual(['orders.pay']);
    expect(filterGroups(groups, { ...NO_FILTER, text: 'nothing-like-this' })).toEqual([]);
    expect(filterGroups(groups, NO_FILTER)).toHaveLength(3);
  });

  it('offers only the values that occur', () => {
    expect(facets(groups)).toEqual({
      agents: ['agent:copilot', 'agent:ide'],
      origins: ['http://localhost:4100'],
      actions: ['orders.cancel', 'orders.pay'],
      outcomes: ['denied_by_you', 'done_confirmed', 'minted'],
    });
  });
});

describe('how an action ended, as the Activity badge says it', () => {
  const act = { idempotency_key: 'k', action: 'orders.cancel' };
  const cases: Array<[Partial<AuditEntry> & Pick<AuditEntry, 'kind'>, string, string]> = [
    [{ kind: 'confirmation', outcome: 'confirmed_confirmed' }, 'done_confirmed', 'Done — confirmed by the site'],
    [{ kind: 'confirmation', outcome: 'confirmed_inferred' }, 'done', 'Done'],
    [{ kind: 'approval_request', outcome: 'queued' }, 'waiting_for_you', 'Waiting for you'],
    [{ kind: 'acceptance', outcome: 'accepted_pending_confirmation' }, 'sent_unconfirmed', 'Sent, not confirmed yet'],
    [{ kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED' }, 'denied_by_you', 'Denied by you'],
    // The person's Stop withdrew the card, or stopped the action before it was sent: not their Deny.
    [{ kind: 'denial', outcome: 'stopped', error_code: 'APPROVAL_DENIED', details: { stopped_by: 'user:local' } }, 'stopped_by_you', 'Stopped by you'],
    [{ kind: 'failure', outcome: 'stopped', error_code: 'EXECUTION_FAILED', details: { stopped_by: 'user:local' } }, 'stopped_by_you', 'Stopped by you'],
    // A log written before stops were told apart: the withdrawal's recorded reason says it.
    [
      { kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED', details: { message: 'The user denied orders.cancel: withdrawn: the person stopped the co-pilot run' } },
      'stopped_by_you',
      'Stopped by you',
    ],
    [
      { kind: 'denial', outcome: 'denied', error_code: 'APPROVAL_DENIED', details: { message: 'The user denied orders.cancel: stopped by the person with Steward’s Stop on the page' } },
      'stopped_by_you',
      'Stopped by you',
    ],
    [{ kind: 'denial', outcome: 'withdrawn', error_code: 'APPROVAL_DENIED' }, 'withdrawn', 'Withdrawn: its co-pilot run ended'],
    [{ kind: 'denial', outcome: 'refused', error_code: 'TOKEN_INVALID' }, 'refused', 'Refused before it ran'],
    [{ kind: 'failure', outcome: 'failed', error_code: 'EXECUTION_FAILED' }, 'failed', 'Failed'],
    [{ kind: 'failure', outcome: 'unknown_unknown', error_code: 'TIMEOUT' }, 'outcome_unknown', 'Outcome unknown: check on the site'],
    [{ kind: 'proposal', outcome: 'proposed' }, 'in_progress', 'In progress'],
  ];
  it.each(cases)('%o → %s', (last, key, english) => {
    seq = 0;
    const step = entry({ ...act, ...last });
    expect(groupAudit([step])[0]!.outcome).toBe(key);
    useMessageSource(catalogueSource(catalogue('en'), 'en'));
    expect(outcomeText(key)).toBe(english);
    useMessageSource(catalogueSource(catalogue('vi'), 'vi'));
    expect(outcomeText(key)).not.toBe(english);
    expect(outcomeText(key)).not.toBe(key);
    useMessageSource(catalogueSource(catalogue('en'), 'en'));
  });

  it('is what the action’s last real step says, whatever the agent asked again with the same key afterwards', () => {
    seq = 0;
    const groups = groupAudit([
      entry({ ...act, kind: 'proposal', outcome: 'proposed' }),
      entry({ ...act, kind: 'denial', outcome: 'stopped', error_code: 'APPROVAL_DENIED', details: { stopped_by: 'user:local' } }),
      entry({ ...act, kind: 'proposal', outcome: 'idempotent_replay' }),
      entry({ ...act, kind: 'proposal', outcome: 'idempotent_replay' }),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ outcome: 'stopped_by_you', tone: 'neutral', last_seq: 3 });
  });

  it('leaves an entry that is no action’s step to its own outcome', () => {
    seq = 0;
    expect(groupAudit([entry({ kind: 'token', outcome: 'minted', token_id: 'tok_a' })])[0]!.outcome).toBe('minted');
  });
});

describe('token changes', () => {
  it('fold into one row when they follow one another, by the same agent; an action between them keeps them apart', () => {
    seq = 0;
    const groups = groupAudit([
      entry({ kind: 'token', outcome: 'minted', token_id: 'tok_a' }),
      entry({ kind: 'token', outcome: 'minted', token_id: 'tok_b' }),
      entry({ kind: 'token', outcome: 'revoked', token_id: 'tok_a' }),
      entry({ kind: 'proposal', outcome: 'proposed', idempotency_key: 'k1', action: 'orders.cancel' }),
      entry({ kind: 'token', outcome: 'revoked', token_id: 'tok_b' }),
      entry({ kind: 'token', outcome: 'minted', token_id: 'tok_c', agent_id: 'agent:ide' }),
    ]);
    expect(groups.map((g) => [g.action ?? g.agent_id, g.outcome, g.steps.map((s) => s.seq)])).toEqual([
      ['agent:ide', 'minted', [5]],
      ['agent:copilot', 'revoked', [4]],
      ['orders.cancel', 'in_progress', [3]],
      ['agent:copilot', 'revoked', [0, 1, 2]],
    ]);
    // The search still finds every token in a folded row.
    expect(filterGroups(groups, { ...NO_FILTER, text: 'tok_b' }).map((g) => g.steps.map((s) => s.seq))).toEqual([[4], [0, 1, 2]]);
  });
});

describe('why an action failed', () => {
  const covered = { code: 'act_refused', params: { reason: 'covered', role: 'button', name: 'Publish', cover_role: 'overlay', cover_name: 'Cookies' } };
  const failed = (said: unknown) => {
    seq = 0;
    return groupAudit([
      entry({ kind: 'proposal', outcome: 'proposed', idempotency_key: 'k1', action: 'dom.click' }),
      entry({ kind: 'failure', outcome: 'failed', idempotency_key: 'k1', action: 'dom.click', error_code: 'EXECUTION_FAILED', details: { via: 'dom', said } }),
    ])[0]!;
  };

  it('carries the page step refusal the worker recorded, for the person’s words', () => {
    expect(failed(covered)).toMatchObject({ outcome: 'failed', error_code: 'EXECUTION_FAILED', said: covered });
  });

  it('leaves out a recorded refusal that does not fit: the code’s meaning is said instead', () => {
    expect(failed({ ...covered, params: { ...covered.params, reason: 'because I say so' } })).not.toHaveProperty('said');
    expect(failed({ ...covered, params: { ...covered.params, html: '<b>x</b>' } })).not.toHaveProperty('said');
    expect(failed({ code: 'run_internal_error' })).not.toHaveProperty('said');
    expect(failed(undefined)).not.toHaveProperty('said');
  });
});
