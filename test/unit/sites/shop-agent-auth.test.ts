/**
 * The shop's token and signature checks over real HTTP: the grant needs the person's session and
 * the agent's signature; every call needs a live token and a fresh, complete signature by the key
 * the token is bound to; the person can revoke from the API or from /account/agents.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SiteErrorBody, TokenGrant } from '../../../src/protocol/agent-contract.ts';
import {
  contentDigest,
  demoPost,
  demoState,
  execute,
  executeBody,
  grant,
  makeAgent,
  personSession,
  send,
  signRequest,
  signedFetch,
  startShop,
  tokenRequest,
  type Agent,
  type RunningShop,
} from './shop-agent-helpers.ts';

let shop: RunningShop;
let agent: Agent;
/** The shop's clock (tests move it forward to expire a token). */
let clockOffsetMs = 0;

beforeAll(async () => {
  shop = await startShop({ now: () => Date.now() + clockOffsetMs });
  agent = await makeAgent();
});
afterAll(async () => {
  await shop?.stop();
});
beforeEach(async () => {
  clockOffsetMs = 0;
  await demoPost(shop.url, '/__demo/reset');
});

const readUrl = () => `${shop.url}/agent/v1/resources/order/ORD-1024`;
const cancelCall = { action: 'orders.cancel', id: 'ORD-1024', input: { reason: 'other' } };

async function reasonOf(res: Response): Promise<unknown> {
  expect(res.status).toBe(401);
  const body = SiteErrorBody.parse(await res.json());
  expect(body.error.code).toBe('TOKEN_INVALID');
  return body.error.details?.reason;
}

describe('token grant', () => {
  it('needs the person’s session: without it → 401 login_required', async () => {
    const res = await signedFetch(agent, `${shop.url}/agent/v1/tokens`, { body: tokenRequest(agent) });
    expect(await reasonOf(res)).toBe('login_required');
  });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/', async () => {
    const res = await fetch(`${shop.url}/orders/ORD-1024`, { headers: { accept: 'text/html' } });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^larkspur_session=[^;]+; HttpOnly; SameSite=Lax; Path=\/$/);
  });

  it('needs a signature by the key in the body', async () => {
    const other = await makeAgent();
    const cookie = await personSession(shop.url);
    const unsigned = await fetch(`${shop.url}/agent/v1/tokens`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(tokenRequest(agent)) });
    expect(await reasonOf(unsigned)).toBe('signature_missing');
    const byOther = await signedFetch(other, `${shop.url}/agent/v1/tokens`, { body: tokenRequest(agent), cookie });
    expect(await reasonOf(byOther)).toBe('key_mismatch');
  });

  it('grants a bound token with the asked scopes, capping its lifetime', async () => {
    const granted = TokenGrant.parse(await grant(shop.url, agent, { expires_in_s: 10 ** 9 }));
    expect(granted).toMatchObject({
      token_type: 'Bearer',
      scopes: ['orders:read', 'orders:cancel'],
      resource_scope: ['order:*'],
      payment: false,
      key_thumbprint: agent.keyid,
      granted_by: 'Jordan Lee',
    });
    expect(Date.parse(granted.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 24 * 3600 * 1000 + 5000);
    const s = await demoState(shop.url);
    expect(s.agent.tokens).toEqual([expect.objectContaining({ token_id: granted.token_id, revoked: false })]);
    const directory = await fetch(`${shop.url}/.well-known/http-message-signatures-directory`);
    expect(directory.headers.get('content-type')).toBe('application/http-message-signatures-directory+json');
    expect(((await directory.json()) as { keys: { x: string; kid: string }[] }).keys).toEqual([expect.objectContaining({ x: agent.publicJwk.x, kid: agent.keyid })]);
  });

  it('refuses scopes the shop does not offer (400)', async () => {
    const res = await signedFetch(agent, `${shop.url}/agent/v1/tokens`, { body: tokenRequest(agent, { scopes: ['orders:steal'] }), cookie: await personSession(shop.url) });
    expect(res.status).toBe(400);
    expect(SiteErrorBody.parse(await res.json()).error.code).toBe('INVALID_INPUT');
  });
});

describe('token checks', () => {
  it('missing or malformed token → 401 token_missing / token_malformed', async () => {
    expect(await reasonOf(await signedFetch(agent, readUrl()))).toBe('token_missing');
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token: 'not-a-jwt' }))).toBe('token_malformed');
    const { token } = await grant(shop.url, agent);
    const [h, p, s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p ?? '', 'base64url').toString()), scope: 'orders:*' })).toString('base64url')}.${s}`;
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token: forged }))).toBe('token_malformed');
  });

  it('an expired token → 401 token_expired', async () => {
    const { token } = await grant(shop.url, agent, { expires_in_s: 60 });
    expect((await signedFetch(agent, readUrl(), { token })).status).toBe(200);
    clockOffsetMs = 61_000;
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token }))).toBe('token_expired');
  });

  it('revoked by the agent through the revoke endpoint → 401 token_revoked', async () => {
    const granted = await grant(shop.url, agent);
    const res = await signedFetch(agent, `${shop.url}/agent/v1/tokens/revoke`, { token: granted.token, body: { token_id: granted.token_id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: true });
    expect(await reasonOf(await execute(shop.url, agent, granted.token, cancelCall))).toBe('token_revoked');
    expect((await demoState(shop.url)).agent.tokens[0].revoked).toBe(true);
  });

  it('revoked by the person on /account/agents → the agent’s next call gets 401 token_revoked', async () => {
    const granted = await grant(shop.url, agent);
    const cookie = await personSession(shop.url);
    const page = await (await fetch(`${shop.url}/account/agents`, { headers: { accept: 'text/html', cookie } })).text();
    expect(page).toContain(`value="${granted.token_id}"`);
    expect(page).toContain('Revoke');
    const res = await fetch(`${shop.url}/account/agents/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', cookie },
      body: new URLSearchParams({ token_id: granted.token_id }).toString(),
    });
    expect(res.status).toBe(303);
    expect(await reasonOf(await execute(shop.url, agent, granted.token, cancelCall))).toBe('token_revoked');
    const after = await (await fetch(`${shop.url}/account/agents`, { headers: { accept: 'text/html', cookie } })).text();
    expect(after).toContain('Revoked');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(0);
  });

  it('the person can revoke through the API with the session; without it → login_required', async () => {
    const granted = await grant(shop.url, agent);
    const post = (cookie?: string) =>
      fetch(`${shop.url}/agent/v1/tokens/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ token_id: granted.token_id }),
      });
    expect(await reasonOf(await post())).toBe('login_required');
    expect((await post(await personSession(shop.url))).status).toBe(200);
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token: granted.token }))).toBe('token_revoked');
  });
});

describe('signature checks', () => {
  it('no signature → signature_missing; a signature over other values → signature_invalid', async () => {
    const { token } = await grant(shop.url, agent);
    const unsigned = await fetch(readUrl(), { headers: { authorization: `Bearer ${token}` } });
    expect(await reasonOf(unsigned)).toBe('signature_missing');
    const prepared = await signRequest(agent, readUrl(), { token });
    prepared.init.headers['signature-agent'] = '"http://evil.example/.well-known/http-message-signatures-directory"';
    expect(await reasonOf(await send(prepared))).toBe('signature_invalid');
    const otherPath = await signRequest(agent, `${shop.url}/agent/v1/resources/order/ORD-1025`, { token });
    expect(await reasonOf(await send({ ...otherPath, url: readUrl() }))).toBe('signature_invalid');
  });

  it('a signature that leaves out a required component → signature_invalid', async () => {
    const { token } = await grant(shop.url, agent);
    const prepared = await signRequest(agent, readUrl(), { token });
    // an Idempotency-Key added after signing is not covered
    prepared.init.headers['idempotency-key'] = 'sneaked-in';
    const res = await send(prepared);
    expect(res.status).toBe(401);
    const body = SiteErrorBody.parse(await res.json());
    expect(body.error.details?.reason).toBe('signature_invalid');
    expect(body.error.message).toContain('"idempotency-key"');
  });

  it('expired, future-dated and over-long signatures are refused', async () => {
    const { token } = await grant(shop.url, agent);
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token, created: -400, expires: -100 }))).toBe('signature_expired');
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token, created: 100, expires: 200 }))).toBe('signature_invalid');
    expect(await reasonOf(await signedFetch(agent, readUrl(), { token, created: 0, expires: 3000 }))).toBe('signature_invalid');
  });

  it('signed by a key the token is not bound to → key_mismatch', async () => {
    const { token } = await grant(shop.url, agent);
    const thief = await makeAgent();
    expect(await reasonOf(await signedFetch(thief, readUrl(), { token }))).toBe('key_mismatch');
  });

  it('the same signed request sent twice → the second is nonce_replayed, and nothing runs twice', async () => {
    const { token } = await grant(shop.url, agent);
    const prepared = await signRequest(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-replay', body: await executeBody(cancelCall) });
    expect((await send(prepared)).status).toBe(200);
    expect(await reasonOf(await send(prepared))).toBe('nonce_replayed');
    expect((await demoState(shop.url)).counters['ORD-1024'].cancelled).toBe(1);
  });

  it('a body changed after signing → digest_mismatch; with its digest changed too → signature_invalid', async () => {
    const { token } = await grant(shop.url, agent);
    const prepared = await signRequest(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-t', body: await executeBody(cancelCall) });
    const tampered = JSON.stringify({ ...(JSON.parse(prepared.init.body ?? '{}') as object), resource: { type: 'order', id: 'ORD-1025' } });
    expect(await reasonOf(await send({ ...prepared, init: { ...prepared.init, body: tampered } }))).toBe('digest_mismatch');
    const redigested = await signRequest(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'act-t', body: await executeBody(cancelCall) });
    const headers = { ...redigested.init.headers, 'content-digest': contentDigest(tampered) };
    expect(await reasonOf(await send({ ...redigested, init: { ...redigested.init, headers, body: tampered } }))).toBe('signature_invalid');
    const s = await demoState(shop.url);
    expect(s.counters['ORD-1024'].cancelled + s.counters['ORD-1025'].cancelled).toBe(0);
  });
});

describe('hostile input', () => {
  it('a body over 64 KB → 413 with the error form; junk headers never crash the shop', async () => {
    const { token } = await grant(shop.url, agent);
    const big = await signRequest(agent, `${shop.url}/agent/v1/actions/execute`, { token, idempotencyKey: 'k', body: { pad: 'x'.repeat(70 * 1024) } });
    const res = await send(big);
    expect(res.status).toBe(413);
    expect(SiteErrorBody.parse(await res.json()).error.code).toBe('INVALID_INPUT');
    for (const headers of [
      { authorization: 'Bearer a.b.c', 'signature-input': 'sig1=(', signature: 'sig1=:AAAA:', 'signature-agent': '"x"' },
      { authorization: `Bearer ${token}`, 'signature-input': 'sig1=("@method");keyid="x";created=1;expires=2', signature: 'garbage', 'signature-agent': 'not a string' },
      { authorization: `Bearer ${token}`, 'signature-input': 'a=(), b=()', signature: 'a=:AA==:', 'signature-agent': '"x"' },
    ]) {
      const r = await fetch(readUrl(), { headers });
      expect(r.status).toBe(401);
      SiteErrorBody.parse(await r.json());
    }
    expect((await signedFetch(agent, readUrl(), { token })).status).toBe(200);
  });
});
