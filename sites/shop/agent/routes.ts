/**
 * The Agent Action API wired into the shop's router: the contract, the key directory, token grant
 * and revocation, state reads, execute and action status; the person's /account/agents page; and
 * the `/__demo/agent/` test controls. Every answer is JSON the contract's schemas accept.
 */
import type { ServerResponse } from 'node:http';
import { MediaType } from 'http-message-sig';
import { z } from 'zod';
import { CONTRACT_MEDIA_TYPE, KEY_DIRECTORY_PATH, RevokeRequest, SiteErrorBody, TokenGrant, TokenRequest } from '../../../src/protocol/agent-contract.ts';
import { HttpError, parseBody, readRawBody, redirect, sendHtml, sendJson, type RequestContext, type Router } from '../../http.ts';
import { EventLog } from '../../store-log.ts';
import { agentsPage } from '../pages.ts';
import type { ShopStore } from '../store.ts';
import { AgentActions, type AgentEvent } from './actions.ts';
import { CONTRACT_PATH, OFFERED_SCOPES, ORDER_TYPE, buildContract } from './contract.ts';
import { SiteRefusal, authRefusal } from './errors.ts';
import { IdempotencyStore, type StoredResponse } from './idempotency.ts';
import { parseJsonBody } from './input.ts';
import { SessionBook } from './session.ts';
import { NonceCache, verifySignedRequest } from './signatures.ts';

/** The key directory: the agent keys the site has enrolled (public JWKs). The site's own answer; Steward never reads it. */
const KeyDirectory = z.object({ keys: z.array(z.record(z.string(), z.unknown())).max(1000) });
import { TokenIssuer, thumbprintOf, type TokenRecord } from './tokens.ts';

export const CONTRACT_LINK_HEADER = `<${CONTRACT_PATH}>; rel="agent-contract"`;

export interface AgentApiOptions {
  /** The clock tokens are issued and checked against (tests move it to expire a token). */
  now?: () => number;
  /** Awaited inside a claimed execute, before it runs (tests hold it to overlap two requests). */
  executionGate?: () => Promise<void>;
}

const SettingsBody = z.strictObject({ refund_delay_ms: z.int().min(0).max(600_000).nullable() });
const PersonRevokeForm = z.object({ token_id: z.string().min(1).max(128) });
const HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,64}\](?::\d{1,5})?$/;

function originOf(ctx: RequestContext): string {
  const host = ctx.req.headers.host ?? '';
  if (!HOST.test(host)) throw new SiteRefusal('INVALID_INPUT', 'The Host header is not a host name.');
  return `http://${host}`;
}

function sendStored(res: ServerResponse, response: StoredResponse): void {
  res.statusCode = response.status;
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  for (const [k, v] of Object.entries(response.headers)) res.setHeader(k, v);
  res.setHeader('content-length', Buffer.byteLength(response.body));
  res.end(response.body);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/** Any failure as SiteErrorBody with its status; the router's own errors (413, bad JSON) too. */
function refusalOf(err: unknown): SiteRefusal {
  if (err instanceof SiteRefusal) return err;
  if (err instanceof HttpError) {
    if (err.status === 413) return new SiteRefusal('INVALID_INPUT', err.message, { status: 413 });
    if (err.status < 500) return new SiteRefusal('INVALID_INPUT', err.message, { status: 400 });
  }
  console.error('[shop agent] unexpected error:', err);
  return new SiteRefusal('EXECUTION_FAILED', 'The shop failed to handle the request.', { status: 500 });
}

function agentRoute(handler: (ctx: RequestContext) => Promise<StoredResponse> | StoredResponse) {
  return async (ctx: RequestContext): Promise<void> => {
    let response: StoredResponse;
    try {
      response = await handler(ctx);
    } catch (err) {
      const refusal = refusalOf(err);
      response = json(refusal.status, SiteErrorBody.parse(refusal.body));
    }
    sendStored(ctx.res, response);
  };
}

function headerOf(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function createAgentApi(store: ShopStore, options: AgentApiOptions = {}) {
  const now = options.now ?? Date.now;
  const tokens = new TokenIssuer(now);
  const nonces = new NonceCache();
  const idempotency = new IdempotencyStore();
  const events = new EventLog<AgentEvent>();
  const actions = new AgentActions(store, idempotency, events, options.executionGate);
  const sessions = new SessionBook();

  const signed = (ctx: RequestContext, raw: Buffer) => ({ method: ctx.method, url: `${originOf(ctx)}${ctx.req.url ?? '/'}`, headers: ctx.req.headers, body: raw });

  /** Token first, then the signature by the key the token is bound to. */
  async function authenticate(ctx: RequestContext, raw: Buffer): Promise<TokenRecord> {
    const token = await tokens.authenticate(headerOf(ctx, 'authorization'), originOf(ctx));
    await verifySignedRequest(signed(ctx, raw), token.agent_key, token.key_thumbprint, nonces);
    return token;
  }

  function revoke(tokenId: string, via: AgentEvent['via']): void {
    if (!tokens.list().some((t) => t.token_id === tokenId)) throw new SiteRefusal('TOOL_NOT_FOUND', 'There is no such token.');
    if (tokens.revoke(tokenId)) events.push({ type: 'token_revoked', via, token_id: tokenId });
  }

  function mount(router: Router): void {
    router.get(
      CONTRACT_PATH,
      agentRoute((ctx) => json(200, buildContract(originOf(ctx)), { 'content-type': `${CONTRACT_MEDIA_TYPE}; charset=utf-8` })),
    );
    router.get(
      KEY_DIRECTORY_PATH,
      agentRoute(() => json(200, KeyDirectory.parse({ keys: tokens.enrolledKeys() }), { 'content-type': MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY })),
    );

    router.post(
      '/agent/v1/tokens',
      agentRoute(async (ctx) => {
        const raw = await readRawBody(ctx.req);
        if (!sessions.has(ctx.req)) throw authRefusal('login_required', 'The person must be signed in to the shop (its session cookie) to grant a token.');
        const request = parseJsonBody(raw, TokenRequest, 'token request');
        const offered = new Set(OFFERED_SCOPES.map((s) => s.scope));
        const unknown = request.scopes.filter((s) => !offered.has(s));
        if (unknown.length > 0) throw new SiteRefusal('INVALID_INPUT', `The shop does not offer ${unknown.join(', ')}.`, { issues: [{ path: 'scopes', message: `unknown: ${unknown.join(', ')}` }] });
        const foreign = request.resource_scope.filter((s) => s !== '*' && !s.startsWith(`${ORDER_TYPE}:`));
        if (foreign.length > 0)
          throw new SiteRefusal('INVALID_INPUT', `The shop has only ${ORDER_TYPE} resources.`, { issues: [{ path: 'resource_scope', message: `unknown: ${foreign.join(', ')}` }] });
        await verifySignedRequest(signed(ctx, raw), request.agent_key, await thumbprintOf(request.agent_key), nonces);
        const { grant } = await tokens.issue(request, originOf(ctx));
        events.push({
          type: 'token_issued',
          via: 'agent',
          token_id: grant.token_id,
          detail: { agent_name: request.agent_name, scopes: grant.scopes, resource_scope: grant.resource_scope, payment: grant.payment },
        });
        return json(201, TokenGrant.parse(grant));
      }),
    );

    router.post(
      '/agent/v1/tokens/revoke',
      agentRoute(async (ctx) => {
        const raw = await readRawBody(ctx.req);
        if (headerOf(ctx, 'authorization') !== undefined) {
          const token = await authenticate(ctx, raw);
          const { token_id } = parseJsonBody(raw, RevokeRequest, 'revoke');
          if (token_id !== token.token_id) throw new SiteRefusal('SCOPE_DENIED', 'An agent may revoke only its own token.');
          revoke(token_id, 'agent');
        } else {
          if (!sessions.has(ctx.req)) throw authRefusal('login_required', 'Revoke with the token itself (signed) or as the signed-in person.');
          revoke(parseJsonBody(raw, RevokeRequest, 'revoke').token_id, 'person');
        }
        return json(200, { revoked: true });
      }),
    );

    router.get(
      '/agent/v1/resources/:type/:id',
      agentRoute(async (ctx) => {
        const token = await authenticate(ctx, Buffer.alloc(0));
        const order = actions.readOrder(token, ctx.params.type ?? '', ctx.params.id ?? '');
        return json(200, actions.resourceState(order), { etag: `"${order.state_version}"` });
      }),
    );

    router.post(
      '/agent/v1/actions/execute',
      agentRoute(async (ctx) => {
        const raw = await readRawBody(ctx.req);
        const token = await authenticate(ctx, raw);
        return actions.execute({ token, raw, ifMatch: headerOf(ctx, 'if-match'), idempotencyKey: headerOf(ctx, 'idempotency-key') });
      }),
    );

    router.get(
      '/agent/v1/actions/:action_id',
      agentRoute(async (ctx) => {
        const token = await authenticate(ctx, Buffer.alloc(0));
        return json(200, actions.status(ctx.params.action_id ?? '', token));
      }),
    );

    // The person's own page: the agents they connected, each with a Revoke button.
    router.get('/account/agents', (ctx) => {
      sessions.ensure(ctx.req, ctx.res);
      sendHtml(ctx.res, 200, agentsPage(tokens.list(), now()));
    });
    router.post('/account/agents/revoke', async (ctx) => {
      const { token_id } = await parseBody(ctx, PersonRevokeForm);
      if (!sessions.has(ctx.req)) throw new HttpError(401, 'LOGIN_REQUIRED', 'Sign in to the shop to manage connected agents.');
      if (!tokens.list().some((t) => t.token_id === token_id)) throw new HttpError(404, 'TOKEN_NOT_FOUND', 'There is no such agent token.');
      revoke(token_id, 'person');
      redirect(ctx.res, '/account/agents');
    });

    router.post('/__demo/agent/settings', async (ctx) => {
      const { refund_delay_ms } = await parseBody(ctx, SettingsBody);
      actions.setRefundDelay(refund_delay_ms);
      sendJson(ctx.res, 200, { ok: true, refund_delay_ms });
    });
    router.post('/__demo/agent/settle', (ctx) => sendJson(ctx.res, 200, { ok: true, settled: actions.settleAll() }));
  }

  return {
    mount,
    /** For the shop's HTML pages: the person is signed in. */
    ensureSession: (ctx: RequestContext) => sessions.ensure(ctx.req, ctx.res),
    reset(): void {
      tokens.reset();
      nonces.reset();
      idempotency.reset();
      actions.reset();
      events.clear();
    },
    state: () => ({
      tokens: tokens.list().map((t) => ({
        token_id: t.token_id,
        agent_name: t.agent_name,
        scopes: t.scopes,
        resource_scope: t.resource_scope,
        payment: t.payment,
        revoked: t.revoked,
        expires_at: new Date(t.expires_at * 1000).toISOString(),
      })),
      events: events.list(),
      pending_refunds: actions.pending(),
      running_idempotency_keys: idempotency.running().length,
    }),
  };
}
