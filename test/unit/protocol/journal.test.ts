import { describe, expect, it } from 'vitest';
import { JournalEntry, JournalState, canTransition, isTerminal } from '../../../src/protocol/journal.ts';
import { accepts, example, rejects } from './helpers.ts';

describe('journal transition graph', () => {
  it('allows the happy paths', () => {
    const consequential = ['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed'] as const;
    const readOnly = ['proposed', 'dispatched', 'pending_confirmation', 'confirmed'] as const;
    for (const path of [consequential, readOnly]) {
      for (let i = 1; i < path.length; i++) expect(canTransition(path[i - 1]!, path[i]!), `${path[i - 1]} → ${path[i]}`).toBe(true);
    }
    for (const end of ['confirmed', 'failed', 'pending_confirmation', 'unknown'] as const) expect(canTransition('dispatched', end)).toBe(true);
    expect(canTransition('awaiting_approval', 'denied')).toBe(true);
    expect(canTransition('unknown', 'confirmed')).toBe(true);
    expect(canTransition('pending_confirmation', 'failed')).toBe(true);
  });
  it('forbids skipping approval, replaying and reviving', () => {
    expect(canTransition('awaiting_approval', 'dispatched')).toBe(false); // no dispatch without a decision
    expect(canTransition('denied', 'approved')).toBe(false);
    expect(canTransition('unknown', 'dispatched')).toBe(false); // restart resolves, never replays
    expect(canTransition('pending_confirmation', 'dispatched')).toBe(false);
    expect(canTransition('confirmed', 'failed')).toBe(false);
    expect(canTransition('proposed', 'confirmed')).toBe(false);
    expect(canTransition('approved', 'approved')).toBe(false);
  });
  it('terminal and unfinished states', () => {
    expect(JournalState.options.filter(isTerminal).sort()).toEqual(['confirmed', 'denied', 'failed']);
    // What a restarted service worker must resume or resolve.
    expect(JournalState.options.filter((s) => !isTerminal(s)).sort()).toEqual(['approved', 'awaiting_approval', 'dispatched', 'pending_confirmation', 'proposed', 'unknown']);
    for (const from of JournalState.options) expect(canTransition(from, 'proposed'), from).toBe(false);
  });
});

describe('JournalEntry', () => {
  const entry = (extra: Record<string, unknown>) => ({
    action_id: 'act_8f31',
    seq: 1,
    at: '2026-08-03T11:50:00Z',
    agent_id: 'agent:copilot',
    token_id: 'tok_3f9a1c',
    idempotency_key: 'act_8f31',
    action: 'orders.cancel',
    resource: { type: 'order', id: 'ORD-1024' },
    input_hash: `sha256:${'d'.repeat(64)}`,
    ...extra,
  });
  it('accepts valid steps', () => {
    accepts(JournalEntry, entry({ seq: 0, state: 'proposed', state_version: 17 }));
    accepts(JournalEntry, entry({ from: 'awaiting_approval', state: 'approved', receipt_id: 'approval_274' }));
    accepts(JournalEntry, entry({ seq: 4, from: 'dispatched', state: 'pending_confirmation', result: example('resultAccepted') }));
  });
  it('rejects steps the graph does not allow', () => {
    rejects(JournalEntry, entry({ from: 'awaiting_approval', state: 'dispatched' }), 'state', /cannot go from awaiting_approval to dispatched/);
    rejects(JournalEntry, entry({ state: 'dispatched' }), 'from', /which state led to dispatched/);
    rejects(JournalEntry, entry({ seq: 0, from: 'approved', state: 'proposed' }), 'from', /no previous state/);
    rejects(JournalEntry, entry({ state: 'proposed' }), 'seq', /first entry/);
    rejects(JournalEntry, entry({ from: 'proposed', state: 'finished' }), 'state', /expected one of/);
  });
  it('an approval has its receipt; a dispatch has its token; a result is a valid ActionResult', () => {
    rejects(JournalEntry, entry({ from: 'awaiting_approval', state: 'approved' }), 'receipt_id', /receipt/);
    rejects(JournalEntry, entry({ from: 'approved', state: 'dispatched', token_id: undefined }), 'token_id', /without a token/);
    const bad = example('resultAccepted');
    bad.execution.certainty = 'confirmed';
    rejects(JournalEntry, entry({ from: 'dispatched', state: 'pending_confirmation', result: bad }), 'result.execution.certainty', /not done/);
  });
});
