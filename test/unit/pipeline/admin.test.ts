import { describe, expect, it } from 'vitest';
import { ORDER, ORIGIN, cancelRequest, harness } from './fakes.ts';

const decision = (card: { request_id: string; input_hash: string; state: { state_version: string | number } }, at: number, choice: 'approve' | 'deny' = 'approve') => ({
  request_id: card.request_id,
  decision: choice,
  decided_by: 'user:local',
  decided_at: new Date(at).toISOString(),
  input_hash: card.input_hash,
  state_version: card.state.state_version,
});

describe('PipelineAdmin (what the person’s side asks of the pipeline)', () => {
  it('lists and counts the cards waiting, and a decision through it runs the action', async () => {
    const h = await harness();
    expect(await h.pipeline.admin.pendingCount()).toBe(0);
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    const card = await h.panel.next();
    expect(await h.pipeline.admin.pendingApprovals()).toMatchObject([{ request_id: card.request_id, action: 'orders.cancel' }]);
    expect(await h.pipeline.admin.pendingCount()).toBe(1);
    expect(await h.pipeline.admin.decide({ ...decision(card, h.clock.t), state_version: 'fp-0000000' })).toMatchObject({ ok: false, problem: 'stale_card' });
    expect(await h.pipeline.admin.decide(decision(card, h.clock.t))).toMatchObject({ ok: true, status: 'approved' });
    expect(await pending).toMatchObject({ execution: { status: 'confirmed' } });
    expect(await h.pipeline.admin.decide(decision(card, h.clock.t))).toMatchObject({ ok: false, problem: 'already_decided' });
    expect(await h.pipeline.admin.pendingCount()).toBe(0);
  });

  it('mints, lists (newest first, with status and uses) and revokes tokens', async () => {
    const h = await harness();
    h.clock.advance(1000);
    const minted = await h.pipeline.admin.mintToken({ agent_id: 'agent:copilot', scope: ['orders:view'], resource_scope: '*', origins: [ORIGIN], ttl_ms: 60_000 });
    expect(minted).toMatchObject({ status: 'active', uses: 0, token: { agent_id: 'agent:copilot', scope: ['orders:view'] } });
    expect(minted.secret).toMatch(/^stw_secret_/);
    expect(minted.token).not.toHaveProperty('secret_hash');
    await expect(h.pipeline.admin.mintToken({ agent_id: 'agent:copilot', scope: ['orders:view'], resource_scope: '*', origins: [ORIGIN], ttl_ms: 365 * 24 * 3_600_000 })).rejects.toThrow(RangeError);
    await h.pipeline.admin.mintToken({ agent_id: 'agent:other', scope: ['orders:view'], resource_scope: '*', origins: [ORIGIN], ttl_ms: 60_000 });

    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v2' }, h.agent);
    const copilot = await h.pipeline.admin.tokens('agent:copilot');
    expect(copilot.map((t) => [t.token.token_id, t.status, t.uses])).toEqual([
      [minted.token.token_id, 'active', 0],
      [h.token.token_id, 'active', 2],
    ]);
    expect(await h.pipeline.admin.tokens()).toHaveLength(3);
    expect(JSON.stringify(copilot)).not.toContain('secret');

    expect(await h.pipeline.admin.revokeToken(h.token.token_id)).toMatchObject({ status: 'revoked', uses: 2 });
    expect(await h.pipeline.admin.revokeToken('tok_doesnotexist')).toBeUndefined();
    h.clock.advance(2 * 60_000);
    expect((await h.pipeline.admin.tokens('agent:copilot')).map((t) => t.status)).toEqual(['expired', 'revoked']);
  });

  it('counts uses with a re-validating read: a corrupt journal record is an error, not a count', async () => {
    const h = await harness();
    const r = await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    const head = await h.db.get('journal_actions', r.action_id!);
    await h.db.put('journal_actions', { ...head!, token_id: 42 } as never);
    await expect(h.pipeline.admin.tokens()).rejects.toThrow(/Corrupt record in journal_actions/);
  });

  it('pages, verifies and exports the audit chain, and says where a tampered chain breaks', async () => {
    const h = await harness();
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    const all = await h.pipeline.admin.auditEntries();
    expect(all.length).toBeGreaterThan(2);
    expect((await h.pipeline.admin.auditEntries(2)).map((e) => e.seq)).toEqual(all.slice(-2).map((e) => e.seq));
    expect(await h.pipeline.admin.verifyAudit()).toEqual({ ok: true, entries: all.length });

    const jsonl = await h.pipeline.admin.exportAudit();
    expect(jsonl.trim().split('\n')).toHaveLength(all.length + 1);
    expect(await h.pipeline.admin.verifyAuditExport(jsonl)).toEqual({ ok: true, entries: all.length });
    const cut = jsonl.trim().split('\n').slice(0, -2).join('\n');
    expect(await h.pipeline.admin.verifyAuditExport(cut)).toMatchObject({ ok: false, entries: all.length - 2, problem: expect.stringContaining('unsigned') });

    const first = await h.db.get('audit', 1);
    await h.db.put('audit', { ...first!, outcome: 'edited_by_someone' });
    // With the kind as a phrase, for the panel to say in the person's language.
    expect(await h.pipeline.admin.verifyAudit()).toMatchObject({
      ok: false,
      entries: all.length,
      broken_at: 1,
      problem: expect.stringContaining('edited'),
      problem_said: { code: 'chain_broken', params: { problem: 'edited' } },
    });
  });

  it('purges expired tokens and expires cards whose time is up', async () => {
    const h = await harness();
    const { token: short } = await h.pipeline.deps.tokens.mint({ agent_id: 'agent:copilot', scope: ['orders:*'], resource_scope: '*', origins: ['http://localhost:4100'], ttl_ms: 1000 });
    void h.pipeline.submit(cancelRequest(), { ...h.agent, wait_for_approval: false });
    await h.panel.next();
    h.clock.advance(h.pipeline.deps.approvals.settings.request_ttl_ms + 1);
    const r = await h.pipeline.admin.purge();
    expect(r).toMatchObject({ tokens: 1, approvals_pending: 0 });
    expect(await h.pipeline.deps.tokens.get(short.token_id)).toBeUndefined();
    expect(h.panel.settledLog.map(([, s]) => s)).toContain('expired');
  });
});
