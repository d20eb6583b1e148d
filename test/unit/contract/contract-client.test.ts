import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/base/canonical-json.ts';
import { ExecuteBody, SiteErrorBody, TokenRequest, type SiteActionResult } from '../../../src/protocol/agent-contract.ts';
import { createContractClient, type ContractClient } from '../../../src/contract/contract-client.ts';
import type { AgentKey, HttpRequest, HttpResponse } from '../../../src/contract/ports.ts';
import { describeRefusal } from '../../../src/contract/refusals.ts';
import type { ExecutionCall } from '../../../src/pipeline/ports.ts';
import { ORIGIN, RecordingPort, discovered, json, makeAgentKey, siteGrant, siteState, verifySignature } from './helpers.ts';

const ORDER = { type: 'order', id: 'ORD-1024' };
const contract = discovered();
const clock = () => Date.now();

async function setup(respond: (req: HttpRequest) => HttpResponse | Promise<HttpResponse>) {
  const { key, pair } = await makeAgentKey();
  const port = new RecordingPort(respond);
  const client = createContractClient({ http: port, key, now: clock });
  return { key, pair, port, client, grant: siteGrant(key) };
}

function call(over: Partial<ExecutionCall> = {}): ExecutionCall {
  return {
    action_id: 'act_8f31',
    action: 'orders.cancel',
    resource: ORDER,
    input: { reason: 'ordered_by_mistake' },
    idempotency_key: 'idem_1',
    via: 'site_contract',
    description: {
      action: 'orders.cancel',
      via: 'site_contract',
      read_only: false,
      consequential: true,
      payment: false,
      untrusted_content: false,
      requires_approval: true,
      input_schema: { type: 'object' },
    },
    agent_id: 'agent:copilot',
    token_id: 'tok_local',
    receipt_id: 'approval_274',
    location: { kind: 'contract', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` },
    ctx: { agent_id: 'agent:copilot' },
    observed: { url: `${ORIGIN}/orders/ORD-1024`, state_version: 17 },
    ...over,
  };
}

const after = (state: string, state_version: number) => ({ type: 'order', id: 'ORD-1024', state, state_version });

const confirmed: SiteActionResult = {
  action_id: 'site_act_1',
  resource: after('cancelled', 18),
  execution: { status: 'confirmed', certainty: 'confirmed', executed_at: '2026-08-03T11:52:14Z', verified_by: 'site_contract' },
  effects: [{ type: 'order_cancelled', reversible: false }],
  available_actions: ['orders.reorder'],
};
const accepted: SiteActionResult = {
  action_id: 'site_act_1',
  resource: after('cancellation_pending', 18),
  execution: { status: 'accepted', certainty: 'pending_confirmation', status_url: '/agent/v1/actions/site_act_1', accepted_at: '2026-08-03T11:52:14Z' },
};
const failedResult: SiteActionResult = {
  action_id: 'site_act_1',
  resource: after('paid', 19),
  execution: { status: 'failed', certainty: 'confirmed', executed_at: '2026-08-03T11:53:00Z', error: { code: 'EXECUTION_FAILED', message: 'The refund was declined.', retryable: false } },
};
const refusal = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { code, message, retryable: false, ...extra } });
const revoked = refusal('TOKEN_INVALID', 'The token was revoked.', { details: { reason: 'token_revoked' } });
const shipped = {
  ...refusal('PRECONDITION_FAILED', 'Order can no longer be cancelled because it has shipped.'),
  expected: { state_version: 17 },
  current: { state: 'shipped', state_version: 21 },
  available_actions: [
    { action: 'orders.track', requires_approval: false },
    { action: 'orders.request_return', requires_approval: true },
  ],
};

describe('readState', () => {
  it('GETs the resource endpoint, signed with the token, and returns the parsed state', async () => {
    const { client, grant, port, pair } = await setup(() => json(200, siteState(), { etag: '"17"' }));
    expect(await client.readState(contract, grant, ORDER)).toEqual({ ok: true, value: siteState() });
    expect(port.last).toMatchObject({ method: 'GET', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024` });
    expect(port.last.headers.authorization).toBe(`Bearer ${grant.grant.token}`);
    expect(port.last.withCredentials).toBeUndefined();
    expect(await verifySignature(port.last, pair.publicKey)).toEqual(['@method', '@authority', '@path', 'signature-agent', 'authorization']);
  });

  it('encodes the id, so it cannot walk out of the endpoint', async () => {
    const { client, grant, port } = await setup(() => json(404, refusal('TOOL_NOT_FOUND', 'No such order.')));
    await client.readState(contract, grant, { type: 'order', id: 'a/../../tokens?x=1#' });
    expect(port.last.url).toBe(`${ORIGIN}/agent/v1/resources/order/a%2F..%2F..%2Ftokens%3Fx%3D1%23`);
  });

  it("returns the site's refusal, with its reason", async () => {
    const { client, grant } = await setup(() => json(401, revoked));
    const read = await client.readState(contract, grant, ORDER);
    expect(read).toMatchObject({ ok: false, error: { code: 'refused', status: 401, site_error: { error: { code: 'TOKEN_INVALID', details: { reason: 'token_revoked' } } } } });
  });

  it('refuses an answer about another resource, or of the wrong shape', async () => {
    const other = await setup(() => json(200, siteState({ resource: { type: 'order', id: 'ORD-9' } })));
    expect(await other.client.readState(contract, other.grant, ORDER)).toMatchObject({ ok: false, error: { code: 'bad_response', message: expect.stringContaining('ORD-9') } });
    const stringVersion = await setup(() => json(200, { ...siteState(), state_version: 'fp-abcdef' }));
    expect(await stringVersion.client.readState(contract, stringVersion.grant, ORDER)).toMatchObject({ ok: false, error: { code: 'bad_response', message: expect.stringContaining('state_version') } });
    const html = await setup(() => ({ status: 500, headers: {}, body: '<h1>oops</h1>' }));
    expect(await html.client.readState(contract, html.grant, ORDER)).toMatchObject({ ok: false, error: { code: 'bad_response', status: 500 } });
  });

  it('sends nothing with a grant that ended, expired, belongs to another origin or key, or for an unknown type', async () => {
    const { client, key, port } = await setup(() => json(200, siteState()));
    const other = await makeAgentKey();
    const cases = [
      { ...siteGrant(key), ended: { at: 1, reason: 'token_revoked', message: 'revoked' } },
      siteGrant(key, { expires_at: '2020-01-01T00:00:00Z' }),
      siteGrant(key, {}, 'http://localhost:4101'),
      siteGrant(other.key),
    ];
    for (const grant of cases) expect(await client.readState(contract, grant, ORDER)).toMatchObject({ ok: false, error: { code: 'not_sent' } });
    expect(await client.readState(contract, siteGrant(key), { type: 'invoice', id: 'INV-1' })).toMatchObject({ ok: false, error: { code: 'not_sent', message: expect.stringContaining('invoice') } });
    expect(port.requests).toHaveLength(0);
  });
});

describe('execute: the request', () => {
  it('POSTs the ExecuteBody with preconditions, If-Match, Idempotency-Key and an approval receipt bound to the call', async () => {
    const { client, grant, port, pair } = await setup(() => json(200, confirmed));
    const before = Date.now();
    await client.execute(contract, grant, call());
    const req = port.last;
    expect(req).toMatchObject({ method: 'POST', url: `${ORIGIN}/agent/v1/actions/execute` });
    expect(req.headers['idempotency-key']).toBe('act_8f31');
    expect(req.headers['if-match']).toBe('"17"');
    expect(req.headers.authorization).toBe(`Bearer ${grant.grant.token}`);
    const body = ExecuteBody.parse(JSON.parse(req.body!));
    const expectedHash = `sha256:${createHash('sha256')
      .update(canonicalJson({ action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'ordered_by_mistake' } }))
      .digest('hex')}`;
    expect(body).toEqual({
      action: 'orders.cancel',
      resource: ORDER,
      input: { reason: 'ordered_by_mistake' },
      preconditions: { state_version: 17 },
      approval: { receipt_id: 'approval_274', approved_at: expect.any(String), input_hash: expectedHash },
    });
    expect(Date.parse(body.approval!.approved_at)).toBeGreaterThanOrEqual(before - 1);
    expect(await verifySignature(req, pair.publicKey)).toEqual(['@method', '@authority', '@path', 'signature-agent', 'authorization', 'idempotency-key', 'if-match', 'content-digest']);
  });

  it('sends no preconditions for a fingerprint version, and no approval without a receipt', async () => {
    const { client, grant, port } = await setup(() => json(200, confirmed));
    await client.execute(contract, grant, call({ observed: { url: `${ORIGIN}/orders/ORD-1024`, state_version: 'fp-abcdef12' }, receipt_id: undefined }));
    expect(JSON.parse(port.last.body!)).toEqual({ action: 'orders.cancel', resource: ORDER, input: { reason: 'ordered_by_mistake' } });
    expect(port.last.headers).not.toHaveProperty('if-match');
    await client.execute(contract, grant, call({ observed: undefined }));
    expect(JSON.parse(port.last.body!)).not.toHaveProperty('preconditions');
  });

  it('sends nothing for an action the contract does not define (TOOL_NOT_FOUND), an ended grant, or input that is not a valid body', async () => {
    const { client, grant, port, key } = await setup(() => json(200, confirmed));
    expect(await client.execute(contract, grant, call({ action: 'orders.delete' }))).toMatchObject({ outcome: 'failed', code: 'TOOL_NOT_FOUND', side_effect_possible: false });
    expect(await client.execute(contract, grant, call({ resource: { type: 'invoice', id: 'INV-1' } }))).toMatchObject({ outcome: 'failed', code: 'TOOL_NOT_FOUND' });
    const ended = { ...siteGrant(key), ended: { at: 1, reason: 'token_revoked', message: 'revoked' } };
    expect(await client.execute(contract, ended, call())).toMatchObject({ outcome: 'failed', side_effect_possible: false, message: expect.stringContaining('token_revoked') });
    const hostile = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    expect(await client.execute(contract, grant, call({ input: hostile }))).toMatchObject({ outcome: 'failed', side_effect_possible: false, message: expect.stringContaining('__proto__') });
    expect(port.requests).toHaveLength(0);
  });

  it('sends nothing when the key cannot sign', async () => {
    const { key } = await makeAgentKey();
    const broken: AgentKey = { ...key, sign: () => Promise.reject(new Error('key unavailable')) };
    const port = new RecordingPort(() => json(200, confirmed));
    const client = createContractClient({ http: port, key: broken, now: clock });
    expect(await client.execute(contract, siteGrant(key), call())).toMatchObject({ outcome: 'failed', side_effect_possible: false, message: expect.stringContaining('key unavailable') });
    expect(port.requests).toHaveLength(0);
  });
});

describe('execute: the answer', () => {
  const answer = async (response: HttpResponse | (() => Promise<HttpResponse>)) => {
    const { client, grant } = await setup(typeof response === 'function' ? response : () => response);
    return client.execute(contract, grant, call());
  };

  it('200 → confirmed with the resulting state, effects and next actions', async () => {
    expect(await answer(json(200, confirmed))).toEqual({
      outcome: 'confirmed',
      resource_state: { state: 'cancelled', state_version: 18 },
      effects: [{ type: 'order_cancelled', reversible: false }],
      available_actions: ['orders.reorder'],
    });
  });

  it('202 → accepted, with the status URL made absolute on the contract origin', async () => {
    expect(await answer(json(202, accepted, { location: '/agent/v1/actions/site_act_1' }))).toEqual({
      outcome: 'accepted',
      status_url: `${ORIGIN}/agent/v1/actions/site_act_1`,
      resource_state: { state: 'cancellation_pending', state_version: 18 },
    });
  });

  it('a 202 whose status_url leaves the origin is not followed (it may have run)', async () => {
    for (const status_url of ['//evil.example/status', 'http://evil.example/status']) {
      const report = await answer(json(202, { ...accepted, execution: { ...accepted.execution, status_url } }));
      expect(report, status_url).toMatchObject({ outcome: 'failed', side_effect_possible: true });
      expect(JSON.stringify(report)).not.toContain('evil.example/status"');
    }
  });

  it('412 → failed, nothing happened, with the current state and the actions offered instead', async () => {
    const report = await answer(json(412, shipped));
    expect(report).toEqual({ outcome: 'failed', message: expect.stringContaining('shipped'), side_effect_possible: false, site_error: SiteErrorBody.parse(shipped) });
  });

  it('401 revoked → failed, nothing happened, and the refusal ends the grant', async () => {
    const report = await answer(json(401, revoked));
    expect(report).toMatchObject({ outcome: 'failed', side_effect_possible: false, site_error: { error: { code: 'TOKEN_INVALID', details: { reason: 'token_revoked' } } } });
    if (report.outcome !== 'failed' || !report.site_error) throw new Error('expected a site refusal');
    expect(describeRefusal('Larkspur', report.site_error)).toMatchObject({ reason: 'token_revoked', ends_grant: true, person: expect.stringContaining('Larkspur revoked') });
  });

  it('403 APPROVAL_REQUIRED / 400 INVALID_INPUT → failed, nothing happened', async () => {
    expect(await answer(json(403, refusal('APPROVAL_REQUIRED', 'Needs approval.')))).toMatchObject({
      outcome: 'failed',
      side_effect_possible: false,
      site_error: { error: { code: 'APPROVAL_REQUIRED' } },
    });
    expect(await answer(json(400, refusal('INVALID_INPUT', 'reason is required.')))).toMatchObject({ outcome: 'failed', side_effect_possible: false });
  });

  it('anything that may have run → failed with side_effect_possible', async () => {
    const mayHaveRun = [
      json(409, refusal('IN_PROGRESS', 'Still running.')),
      json(422, refusal('IDEMPOTENCY_CONFLICT', 'Different body under this key.')),
      json(500, refusal('EXECUTION_FAILED', 'Internal error.')),
      { status: 502, headers: {}, body: 'Bad gateway' },
      { status: 200, headers: {}, body: '{"action_id":' },
      json(200, { ...confirmed, execution: { status: 'done' } }),
      json(200, accepted),
      json(202, confirmed),
      json(200, { ...confirmed, resource: after('cancelled', 18.5) }),
      json(200, { ...confirmed, resource: { ...after('cancelled', 18), id: 'ORD-1' } }),
      json(400, { message: 'no error form' }),
      json(302, refusal('EXECUTION_FAILED', 'moved')),
      { status: 200, headers: {}, body: JSON.stringify(confirmed), truncated: true },
    ];
    for (const response of mayHaveRun) {
      expect(await answer(response), `${response.status} ${response.body.slice(0, 60)}`).toMatchObject({ outcome: 'failed', side_effect_possible: true });
    }
    expect(await answer(() => Promise.reject(new TypeError('network error')))).toMatchObject({ outcome: 'failed', side_effect_possible: true, message: expect.stringContaining('network error') });
  });

  it('409 IN_PROGRESS keeps the site error for the agent', async () => {
    expect(await answer(json(409, refusal('IN_PROGRESS', 'Still running.')))).toMatchObject({ site_error: { error: { code: 'IN_PROGRESS' } } });
  });
});

describe('status', () => {
  const poll = async (response: HttpResponse | (() => Promise<HttpResponse>), statusUrl = `${ORIGIN}/agent/v1/actions/site_act_1`) => {
    const setupResult = await setup(typeof response === 'function' ? response : () => response);
    return { report: await setupResult.client.status(contract, setupResult.grant, statusUrl, ORDER), ...setupResult };
  };

  it('GETs the status URL signed, and a confirmed answer settles it', async () => {
    const { report, port, pair } = await poll(json(200, confirmed));
    expect(report).toMatchObject({ outcome: 'confirmed', resource_state: { state: 'cancelled', state_version: 18 } });
    expect(port.last).toMatchObject({ method: 'GET', url: `${ORIGIN}/agent/v1/actions/site_act_1` });
    expect(await verifySignature(port.last, pair.publicKey)).toContain('authorization');
  });

  it('accepts a same-origin path', async () => {
    const { port } = await poll(json(200, confirmed), '/agent/v1/actions/site_act_1');
    expect(port.last.url).toBe(`${ORIGIN}/agent/v1/actions/site_act_1`);
  });

  it('a failed answer settles it as not done, with the error as the site said it', async () => {
    expect((await poll(json(200, failedResult))).report).toEqual({
      outcome: 'failed',
      message: expect.stringContaining('refund was declined'),
      side_effect_possible: false,
      site_error: { error: failedResult.execution.status === 'failed' ? failedResult.execution.error : undefined, current: { state: 'paid', state_version: 19 } },
    });
  });

  it('still accepted, or no readable answer → accepted (ask again)', async () => {
    const pending = { outcome: 'accepted', status_url: `${ORIGIN}/agent/v1/actions/site_act_1` };
    expect((await poll(json(200, accepted))).report).toEqual({ ...pending, resource_state: { state: 'cancellation_pending', state_version: 18 } });
    expect((await poll(json(202, accepted))).report).toMatchObject(pending);
    expect((await poll(json(503, refusal('EXECUTION_FAILED', 'busy')))).report).toEqual(pending);
    expect((await poll({ status: 200, headers: {}, body: 'garbage' })).report).toEqual(pending);
    expect((await poll(json(200, { nope: true }))).report).toEqual(pending);
    expect((await poll(() => Promise.reject(new TypeError('offline')))).report).toEqual(pending);
  });

  it('a refusal means the outcome can no longer be learned here: failed, side effect possible', async () => {
    expect((await poll(json(401, revoked))).report).toMatchObject({ outcome: 'failed', side_effect_possible: true, site_error: { error: { code: 'TOKEN_INVALID' } } });
    expect((await poll(json(404, refusal('TOOL_NOT_FOUND', 'Unknown action.')))).report).toMatchObject({ outcome: 'failed', side_effect_possible: true });
  });

  it('never asks a URL off the contract origin', async () => {
    for (const url of ['http://evil.example/agent/v1/actions/x', '//evil.example/x', 'http://user:pw@localhost:4100/x', 'javascript:alert(1)']) {
      const { report, port } = await poll(json(200, confirmed), url);
      expect(report, url).toMatchObject({ outcome: 'failed', side_effect_possible: true });
      expect(port.requests).toHaveLength(0);
    }
  });
});

describe('requestGrant', () => {
  const consent: Parameters<ContractClient['requestGrant']>[1] = { scopes: ['orders:read', 'orders:cancel'], resource_scope: ['order:*'], payment: false, expires_in_s: 3_600, agent_name: 'Steward' };

  it("POSTs the TokenRequest with the person's cookies, signed by the key it names, and returns the grant", async () => {
    const { client, port, pair, key } = await setup(() => json(201, granted));
    const granted = siteGrant(key, { scopes: consent.scopes }).grant;
    const result = await client.requestGrant(contract, consent);
    expect(result).toEqual({ ok: true, value: { origin: ORIGIN, contract_url: `${ORIGIN}/agent/v1/contract`, grant: granted, granted_at: expect.any(Number) } });
    expect(port.last).toMatchObject({ method: 'POST', url: `${ORIGIN}/agent/v1/tokens`, withCredentials: true });
    expect(port.last.headers).not.toHaveProperty('authorization');
    expect(TokenRequest.parse(JSON.parse(port.last.body!))).toEqual({ agent_key: key.publicJwk, ...consent });
    expect(await verifySignature(port.last, pair.publicKey)).toEqual(['@method', '@authority', '@path', 'signature-agent', 'content-digest']);
  });

  it("asks for no longer than the site's ceiling", async () => {
    const { client, port, key } = await setup(() => json(200, siteGrant(key, { scopes: consent.scopes }).grant));
    await client.requestGrant(contract, { ...consent, expires_in_s: 10 * 86_400 });
    expect(JSON.parse(port.last.body!)).toMatchObject({ expires_in_s: 86_400 });
  });

  it('login_required → the refusal, and the words tell the person to sign in first', async () => {
    const { client } = await setup(() => json(401, refusal('TOKEN_INVALID', 'Sign in first.', { details: { reason: 'login_required' } })));
    const result = await client.requestGrant(contract, consent);
    if (result.ok || result.error.code !== 'refused') throw new Error('expected a refusal');
    expect(describeRefusal('Larkspur', result.error.site_error)).toMatchObject({ reason: 'login_required', ends_grant: false, person: 'Sign in to Larkspur first, then connect again.' });
  });

  it('refuses a grant that is not what the person consented to', async () => {
    const other = await makeAgentKey();
    const asked = (key: AgentKey) => siteGrant(key, { scopes: consent.scopes }).grant;
    const wrong = (key: AgentKey) => [
      asked(other.key),
      { ...asked(key), scopes: ['orders:read', 'orders:cancel', 'orders:pay'] },
      { ...asked(key), resource_scope: ['*'] },
      { ...asked(key), payment: true },
      { ...asked(key), expires_at: '2020-01-01T00:00:00Z' },
    ];
    const { key } = await makeAgentKey();
    for (const grant of wrong(key)) {
      const port = new RecordingPort(() => json(200, grant));
      const client = createContractClient({ http: port, key, now: clock });
      expect(await client.requestGrant(contract, consent)).toMatchObject({ ok: false, error: { code: 'bad_response', message: expect.stringContaining('does not match') } });
    }
  });

  it('sends nothing for a scope the site does not offer, or an invalid request', async () => {
    const { client, port } = await setup(() => json(200, {}));
    expect(await client.requestGrant(contract, { ...consent, scopes: ['orders:delete'] })).toMatchObject({ ok: false, error: { code: 'not_sent', message: expect.stringContaining('orders:delete') } });
    expect(await client.requestGrant(contract, { ...consent, resource_scope: ['orders everywhere'] })).toMatchObject({
      ok: false,
      error: { code: 'not_sent', message: expect.stringContaining('resource_scope') },
    });
    expect(await client.requestGrant(contract, { ...consent, agent_name: '' })).toMatchObject({ ok: false, error: { code: 'not_sent' } });
    expect(port.requests).toHaveLength(0);
  });
});

describe('revoke', () => {
  it('POSTs the token id with the token, signed', async () => {
    const { client, grant, port, pair } = await setup(() => json(200, { revoked: true }));
    expect(await client.revoke(contract, grant)).toEqual({ ok: true, value: undefined });
    expect(port.last).toMatchObject({ method: 'POST', url: `${ORIGIN}/agent/v1/tokens/revoke` });
    expect(JSON.parse(port.last.body!)).toEqual({ token_id: 'tok_1' });
    expect(await verifySignature(port.last, pair.publicKey)).toEqual(['@method', '@authority', '@path', 'signature-agent', 'authorization', 'content-digest']);
  });

  it('a token the site already ended counts as revoked; other refusals do not', async () => {
    expect(await (await setup(() => json(401, revoked))).client.revoke(contract, (await setup(() => json(401, revoked))).grant)).toEqual({ ok: true, value: undefined });
    const denied = await setup(() => json(401, refusal('TOKEN_INVALID', 'Bad signature.', { details: { reason: 'signature_invalid' } })));
    expect(await denied.client.revoke(contract, denied.grant)).toMatchObject({ ok: false, error: { code: 'refused' } });
    const odd = await setup(() => json(200, { revoked: false }));
    expect(await odd.client.revoke(contract, odd.grant)).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });

  it('sends nothing for a grant of another origin', async () => {
    const { client, key, port } = await setup(() => json(200, { revoked: true }));
    expect(await client.revoke(contract, siteGrant(key, {}, 'http://localhost:4101'))).toMatchObject({ ok: false, error: { code: 'not_sent' } });
    expect(port.requests).toHaveLength(0);
  });
});
