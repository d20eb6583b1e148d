import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { approvalOf, cancelRequest, harness, restart, type Harness } from './fakes.ts';

/**
 * A paired MCP client's session (src/protocol/mcp-session.ts) in the audit: every entry of an
 * action it asked for records it in `details`, so the hash chain, the export and its verification
 * cover it like any other field.
 */

const SESSION = { id: 'mcps_Q2xhdWRlIERlc2t0b3AgMQ', started_at: '2026-12-07T09:00:00.000Z' };

const stepsOf = async (h: Harness, key: string): Promise<AuditEntry[]> => (await h.pipeline.deps.audit.entries()).filter((e) => e.idempotency_key === key);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an MCP client session in the audit log', () => {
  it('is in every entry of the action it asked for, also those written after a restart, and the chain verifies', async () => {
    const h = await harness();
    const req = cancelRequest();
    // The service worker stops while the card waits for the person.
    void h.pipeline.submit(req, { ...h.agent, mcp_session: SESSION });
    await until(async () => (await h.pipeline.deps.journal.unfinished())[0]?.state === 'awaiting_approval', 'awaiting approval');
    await h.pipeline.deps.audit.flush();
    const h2 = await restart(h);
    const [card] = await h2.pipeline.deps.approvals.pending();
    await h2.pipeline.recover();
    await h2.pipeline.deps.approvals.decide(approvalOf(card!, h.clock.t));
    await h2.pipeline.idle();

    const steps = await stepsOf(h2, req.idempotency_key);
    expect(steps.map((e) => e.kind)).toEqual(expect.arrayContaining(['proposal', 'approval_request', 'approval', 'dispatch', 'confirmation']));
    expect(steps.map((e) => e.details?.mcp_session)).toEqual(steps.map(() => SESSION));
    expect(await h2.pipeline.deps.audit.verify()).toMatchObject({ ok: true });
  });

  it('is in a refusal before the action was journaled, and in nothing an agent without one asked for', async () => {
    const h = await harness();
    const withSession = cancelRequest({ idempotency_key: 'refused-in-session' });
    await h.pipeline.submit(withSession, { ...h.agent, token: 'stw_secret_not-a-real-one-000000000000000000000000', mcp_session: SESSION });
    const plain = cancelRequest();
    void h.pipeline.submit(plain, h.agent);
    await until(async () => (await h.pipeline.deps.journal.unfinished())[0]?.state === 'awaiting_approval', 'awaiting approval');
    await h.pipeline.deps.audit.flush();

    expect((await stepsOf(h, 'refused-in-session')).map((e) => [e.kind, e.details?.mcp_session])).toEqual([['denial', SESSION]]);
    const others = await stepsOf(h, plain.idempotency_key);
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((e) => e.details !== undefined && 'mcp_session' in e.details)).toEqual([]);
  });

  it('is covered by the chain: the export verifies, and an entry whose session was changed is reported edited', async () => {
    const h = await harness();
    const req = cancelRequest();
    void h.pipeline.submit(req, { ...h.agent, mcp_session: SESSION });
    await until(async () => (await h.pipeline.deps.journal.unfinished())[0]?.state === 'awaiting_approval', 'awaiting approval');
    await h.pipeline.deps.audit.flush();
    const jsonl = await h.pipeline.deps.audit.exportJsonl();
    expect(jsonl).toContain(SESSION.id);
    expect(await h.pipeline.deps.audit.verifyExport(jsonl)).toMatchObject({ ok: true });

    // Someone moves the proposal into another session, in the export and in the stored log.
    const [proposal] = await stepsOf(h, req.idempotency_key);
    const moved = jsonl.replace(SESSION.id, 'mcps_c29tZW9uZSBlbHNlcyBzZXNz');
    expect(await h.pipeline.deps.audit.verifyExport(moved)).toMatchObject({ ok: false, seq: proposal!.seq, problem: 'edited' });
    await h.db.put('audit', { ...proposal!, details: { ...proposal!.details, mcp_session: { ...SESSION, id: 'mcps_c29tZW9uZSBlbHNlcyBzZXNz' } } });
    expect(await h.pipeline.deps.audit.verify()).toMatchObject({ ok: false, seq: proposal!.seq, problem: 'edited' });
  });
});
