import { describe, expect, it } from 'vitest';
import type { ActionResult } from '../../../src/protocol/results.ts';
import { IdempotencyStore } from '../../../src/storage/idempotency-store.ts';
import { FakeClock, freshFactory, openDb } from './helpers.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const IDEMPOTENCY_MIN_TTL_MS = 24 * 60 * 60 * 1000;

const H1 = `sha256:${'1'.repeat(64)}`;
const H2 = `sha256:${'2'.repeat(64)}`;
const result: ActionResult = {
  action_id: 'act_1',
  execution: { status: 'confirmed', certainty: 'confirmed', executed_at: '2026-08-03T11:52:14Z' },
  resource: { type: 'order', id: 'ORD-1024', state: 'cancelled', state_version: 18 },
};
const req = (action_id: string, request_hash = H1) => ({ agent_id: 'agent:copilot', key: 'act_8f31', request_hash, action_id });

describe('IdempotencyStore', () => {
  it('claims a new key, then says in progress, then replays the stored first result', async () => {
    const s = new IdempotencyStore(await openDb());
    expect(await s.begin(req('act_1'))).toEqual({ kind: 'started' });
    expect(await s.begin(req('act_2'))).toEqual({ kind: 'in_progress', action_id: 'act_1' });
    await s.complete('agent:copilot', 'act_8f31', 'act_1', result);
    expect(await s.begin(req('act_3'))).toEqual({ kind: 'replay', action_id: 'act_1', result });
  });

  it('same key with a different request is a conflict, running or finished', async () => {
    const s = new IdempotencyStore(await openDb());
    await s.begin(req('act_1'));
    expect(await s.begin(req('act_2', H2))).toEqual({ kind: 'conflict', action_id: 'act_1' });
    await s.complete('agent:copilot', 'act_8f31', 'act_1', result);
    expect(await s.begin(req('act_2', H2))).toEqual({ kind: 'conflict', action_id: 'act_1' });
  });

  it('keys are per agent', async () => {
    const s = new IdempotencyStore(await openDb());
    await s.begin(req('act_1'));
    expect(await s.begin({ ...req('act_2', H2), agent_id: 'agent:other' })).toEqual({ kind: 'started' });
  });

  it('concurrent claims of one key: exactly one starts', async () => {
    const s = new IdempotencyStore(await openDb());
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => s.begin(req(`act_${i}`))));
    expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(1);
  });

  it('a released key can be used again; release and complete only touch their own action', async () => {
    const s = new IdempotencyStore(await openDb());
    await s.begin(req('act_1'));
    await s.release('agent:copilot', 'act_8f31', 'act_other');
    expect((await s.get('agent:copilot', 'act_8f31'))?.action_id).toBe('act_1');
    await s.complete('agent:copilot', 'act_8f31', 'act_other', result);
    expect((await s.get('agent:copilot', 'act_8f31'))?.status).toBe('in_progress');
    await s.release('agent:copilot', 'act_8f31', 'act_1');
    expect(await s.begin(req('act_2', H2))).toEqual({ kind: 'started' });
  });

  it('keeps records at least 24 hours, whatever TTL is asked for', async () => {
    const clock = new FakeClock();
    const s = new IdempotencyStore(await openDb(), clock.now, 1000);
    expect(s.ttlMs).toBe(IDEMPOTENCY_MIN_TTL_MS);
    await s.begin(req('act_1'));
    await s.complete('agent:copilot', 'act_8f31', 'act_1', result);
    clock.advance(IDEMPOTENCY_MIN_TTL_MS - 1);
    expect(await s.purgeExpired()).toBe(0);
    expect((await s.begin(req('act_2'))).kind).toBe('replay');
    clock.advance(1);
    // Past retention the key is new again, and the purge removes the record.
    expect(await s.purgeExpired()).toBe(1);
    expect(await s.begin(req('act_2', H2))).toEqual({ kind: 'started' });
  });

  it('purge never removes a running record', async () => {
    const clock = new FakeClock();
    const s = new IdempotencyStore(await openDb(), clock.now);
    await s.begin(req('act_1'));
    clock.advance(10 * IDEMPOTENCY_MIN_TTL_MS);
    expect(await s.purgeExpired()).toBe(0);
    expect((await s.begin(req('act_2'))).kind).toBe('in_progress');
  });

  it('survives a restart (a new store on the same database)', async () => {
    const factory = freshFactory();
    const a = new IdempotencyStore(await openDb(factory));
    await a.begin(req('act_1'));
    await a.complete('agent:copilot', 'act_8f31', 'act_1', result);
    const b = new IdempotencyStore(await openDb(factory));
    expect(await b.begin(req('act_9'))).toEqual({ kind: 'replay', action_id: 'act_1', result });
  });
});
