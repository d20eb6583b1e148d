import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/protocol/audit.ts';
import { approveNext, cancelRequest, ORIGIN } from '../pipeline/fakes.ts';
import { AGENT, agentSetup, type AgentSetup } from './agent-fakes.ts';

/**
 * The worker's side of an MCP client's sessions: the session the bridge sent with a call that acts
 * goes into the action's agent context, and from there into every audit entry of the action,
 * recorded under the agent id of the token the call authenticated with.
 */

const SESSION = { id: 'mcps_Q2xhdWRlIERlc2t0b3AgMQ', started_at: '2026-12-07T09:00:00.000Z' };

const stepsOf = async (s: AgentSetup, key: string): Promise<AuditEntry[]> => (await s.h.pipeline.deps.audit.entries()).filter((e) => e.idempotency_key === key);

describe("external agent calls: the client's session", () => {
  it('steward_execute: every entry of the action names the session the call carried, through the person’s approval and the run', async () => {
    const s = await agentSetup();
    await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    const request = cancelRequest();
    await s.calls['bridge/execute']({ auth: s.auth, request, untrusted_input: false, session: SESSION });
    expect(s.submitted[0]!.agent.mcp_session).toEqual(SESSION);
    await approveNext(s.h);
    await s.h.pipeline.idle();
    const steps = await stepsOf(s, request.idempotency_key);
    expect(steps.map((e) => e.kind)).toEqual(expect.arrayContaining(['proposal', 'approval', 'dispatch', 'confirmation']));
    expect(steps.map((e) => [e.agent_id, e.details?.mcp_session])).toEqual(steps.map(() => [AGENT, SESSION]));
  });

  it('a page tool call names it too', async () => {
    const s = await agentSetup();
    await s.calls['bridge/page-tool-call']({ auth: s.auth, tab_id: 1, tool: 'orders.cancel', input: { reason: 'changed my mind' }, idempotency_key: 'page-cancel-in-session', session: SESSION });
    expect(s.submitted[0]!.agent.mcp_session).toEqual(SESSION);
    await s.h.pipeline.deps.audit.flush();
    const steps = await stepsOf(s, 'page-cancel-in-session');
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((e) => e.details?.mcp_session !== undefined)).toBe(true);
  });

  it('takes it from the call alone: one written into the action request is not recorded, and a call without one records none', async () => {
    const s = await agentSetup();
    await s.calls['bridge/observe']({ auth: s.auth, tab_id: 1 });
    const request = cancelRequest({ mcp_session: SESSION, session: SESSION, details: { mcp_session: SESSION } });
    await s.calls['bridge/execute']({ auth: s.auth, request, untrusted_input: false });
    expect(s.submitted[0]!.agent).not.toHaveProperty('mcp_session');
    await s.h.pipeline.deps.audit.flush();
    const steps = await stepsOf(s, request.idempotency_key);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.filter((e) => JSON.stringify(e).includes(SESSION.id))).toEqual([]);
  });

  it('is recorded under the calling token’s agent: another client naming this session id writes only under its own', async () => {
    const s = await agentSetup();
    const other = await s.h.pipeline.admin.mintToken({
      agent_id: 'agent:mcp-cursor-9f9f9f',
      scope: ['orders:*'],
      resource_scope: 'order:*',
      origins: [ORIGIN],
      ttl_ms: 60 * 60_000,
      label: 'Cursor',
    });
    const otherAuth = { agent_id: 'agent:mcp-cursor-9f9f9f', token: other.secret };
    await s.calls['bridge/observe']({ auth: otherAuth, tab_id: 1 });
    const request = cancelRequest();
    await s.calls['bridge/execute']({ auth: otherAuth, request, untrusted_input: false, session: SESSION });
    await s.h.pipeline.deps.audit.flush();
    const steps = await stepsOf(s, request.idempotency_key);
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps.map((e) => e.agent_id))).toEqual(new Set(['agent:mcp-cursor-9f9f9f']));
  });
});
