import { describe, expect, it } from 'vitest';
import { isErrorResult } from '../../../src/protocol/results.ts';
import type { StewardDb } from '../../../src/storage/db.ts';
import { ORDER, approveNext, cancelRequest, harness } from './fakes.ts';

/** Every string in a value, keys included. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, out.add(k));
  return out;
}

const STORES: Array<Parameters<StewardDb['getAll']>[0]> = ['tokens', 'approvals', 'receipts', 'idempotency', 'journal', 'journal_actions', 'audit', 'memory', 'quota'];

describe('what an agent presents is the secret, never the public id', () => {
  it('a hostile agent holding every record and the audit export cannot act; the secret can', async () => {
    const h = await harness();
    // History under the token: an approved, confirmed cancel and a read.
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    await approveNext(h);
    expect(isErrorResult(await pending)).toBe(false);
    expect(isErrorResult(await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'seen' }, h.agent))).toBe(false);
    const executed = h.shop.calls.execute.length;

    const copy = await Promise.all(STORES.map((s) => h.db.getAll(s)));
    const exported = await h.pipeline.deps.audit.exportJsonl();
    const candidates = strings([
      copy,
      exported
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ]);
    expect(candidates.has(h.token.token_id)).toBe(true);
    expect(candidates.has(h.secret)).toBe(false);
    expect(exported).not.toContain(h.secret);

    let i = 0;
    for (const token of candidates) {
      const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: `hostile_${i++}` }, { ...h.agent, token });
      expect(r, token).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
    }
    expect(h.shop.calls.execute).toHaveLength(executed);
    expect(isErrorResult(await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'secret' }, h.agent))).toBe(false);
  });
});
