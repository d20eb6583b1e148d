import { describe, expect, it } from 'vitest';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { JournalStore, type NewAction } from '../../../src/storage/journal-store.ts';
import { CorruptRecordError } from '../../../src/storage/read.ts';
import { FakeClock, freshFactory, openDb } from './helpers.ts';

const H = `sha256:${'c'.repeat(64)}`;
const newAction = (action_id = 'act_1'): NewAction => ({
  action_id,
  agent_id: 'agent:copilot',
  token_id: 'tok_1',
  idempotency_key: 'key_1',
  request: ActionRequest.parse({ action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'x' }, idempotency_key: 'key_1' }),
  request_hash: H,
  input_hash: H,
  context: { untrusted_input: false },
});

describe('JournalStore', () => {
  it('records each allowed transition with its predecessor, in order', async () => {
    const j = new JournalStore(await openDb(), new FakeClock().now);
    await j.begin(newAction());
    await j.transition('act_1', 'awaiting_approval');
    await j.transition('act_1', 'approved', { receipt_id: 'approval_1' });
    await j.transition('act_1', 'dispatched', { state_version: 'fp-aaaaaa', via: 'adapter', state_version_before: 'fp-aaaaaa' });
    await j.transition('act_1', 'confirmed', { state_version: 'fp-bbbbbb' });
    const h = await j.history('act_1');
    expect(h.map((e) => [e.seq, e.from, e.state])).toEqual([
      [0, undefined, 'proposed'],
      [1, 'proposed', 'awaiting_approval'],
      [2, 'awaiting_approval', 'approved'],
      [3, 'approved', 'dispatched'],
      [4, 'dispatched', 'confirmed'],
    ]);
    // The receipt, once known, stays on every later entry.
    expect(h[3]!.receipt_id).toBe('approval_1');
    const head = await j.action('act_1');
    expect(head).toMatchObject({ state: 'confirmed', seq: 4, open: 0, via: 'adapter', state_version_before: 'fp-aaaaaa', receipt_id: 'approval_1' });
  });

  it('refuses a transition the graph does not allow, and writes nothing', async () => {
    const j = new JournalStore(await openDb());
    await j.begin(newAction());
    await expect(j.transition('act_1', 'confirmed')).rejects.toMatchObject({ name: 'JournalTransitionError' });
    await expect(j.transition('act_1', 'approved', { receipt_id: 'approval_1' })).rejects.toThrow(/proposed to approved/);
    await expect(j.transition('act_missing', 'failed')).rejects.toMatchObject({ name: 'JournalTransitionError' });
    expect((await j.history('act_1')).length).toBe(1);
    expect((await j.action('act_1'))?.state).toBe('proposed');
  });

  it('two racing writers cannot both dispatch an action', async () => {
    const j = new JournalStore(await openDb());
    await j.begin(newAction());
    const results = await Promise.allSettled([j.transition('act_1', 'dispatched'), j.transition('act_1', 'dispatched')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await j.history('act_1')).filter((e) => e.state === 'dispatched')).toHaveLength(1);
  });

  it('lists unfinished actions, across a restart', async () => {
    const factory = freshFactory();
    const j = new JournalStore(await openDb(factory));
    await j.begin(newAction('act_1'));
    await j.begin(newAction('act_2'));
    await j.begin(newAction('act_3'));
    await j.transition('act_2', 'dispatched');
    await j.transition('act_3', 'failed', { error_code: 'SCOPE_DENIED' });
    const restarted = new JournalStore(await openDb(factory));
    expect((await restarted.unfinished()).map((a) => [a.action_id, a.state]).sort()).toEqual([
      ['act_1', 'proposed'],
      ['act_2', 'dispatched'],
    ]);
  });

  it('counts the actions journaled under each token, re-validating every record it reads', async () => {
    const db = await openDb();
    const j = new JournalStore(db, new FakeClock().now);
    await j.begin(newAction('act_1'));
    await j.begin({ ...newAction('act_2'), idempotency_key: 'key_2' });
    await j.begin({ ...newAction('act_3'), token_id: 'tok_2', idempotency_key: 'key_3' });
    expect(await j.actionsPerToken()).toEqual(
      new Map([
        ['tok_1', 2],
        ['tok_2', 1],
      ]),
    );
    const head = await db.get('journal_actions', 'act_3');
    await db.put('journal_actions', { ...head!, state: 'teleported' } as never);
    await expect(j.actionsPerToken()).rejects.toThrow(CorruptRecordError);
  });
});
