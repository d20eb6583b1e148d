/**
 * What the shop's agent tests share: the shop's real listener on 127.0.0.1, and an agent that
 * signs its requests as Steward does (web-bot-auth, a non-extractable WebCrypto Ed25519 key,
 * Content-Digest serialized with structured-headers).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serializeDictionary } from 'structured-headers';
import { helpers, jwkToKeyID, signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { requestHash } from '../../../src/base/hash.ts';
import { KEY_DIRECTORY_PATH, type TokenGrant, type TokenRequest } from '../../../src/protocol/agent-contract.ts';
import { createShop } from '../../../sites/shop/app.ts';
import type { AgentApiOptions } from '../../../sites/shop/agent/routes.ts';

/** Parsed JSON from the shop, read loosely in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface RunningShop {
  url: string;
  stop(): Promise<void>;
}

export async function startShop(options: AgentApiOptions = {}): Promise<RunningShop> {
  const server: Server = createServer(createShop(options).listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Agent {
  keyid: string;
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  signer: Ed25519Signer;
}

export async function makeAgent(): Promise<Agent> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const publicJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: String(jwk.x) };
  const keyid = await jwkToKeyID(publicJwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
  return { keyid, publicJwk, signer: new Ed25519Signer(keyid, pair.privateKey) };
}

export interface SignOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  token?: string;
  idempotencyKey?: string;
  ifMatch?: string;
  cookie?: string;
  /** Seconds from now; default created now, expires in 60 s. */
  created?: number;
  expires?: number;
}

export interface PreparedRequest {
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
}

/** Builds and signs a request the way Steward's client does. */
export async function signRequest(agent: Agent, url: string, options: SignOptions = {}): Promise<PreparedRequest> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const origin = new URL(url).origin;
  const headers: Record<string, string> = { 'signature-agent': `"${origin}${KEY_DIRECTORY_PATH}"` };
  const components = ['@method', '@authority', '@path', 'signature-agent'];
  if (new URL(url).search) components.push('@query');
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
    components.push('authorization');
  }
  if (options.idempotencyKey !== undefined) {
    headers['idempotency-key'] = options.idempotencyKey;
    components.push('idempotency-key');
  }
  if (options.ifMatch !== undefined) {
    headers['if-match'] = options.ifMatch;
    components.push('if-match');
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
    headers['content-digest'] = contentDigest(body);
    components.push('content-digest');
  }
  const now = Date.now();
  const signed = await signatureHeaders({ method, url, headers }, agent.signer, {
    created: new Date(now + (options.created ?? 0) * 1000),
    expires: new Date(now + (options.expires ?? 60) * 1000),
    components,
  });
  const all = { ...headers, signature: signed.Signature, 'signature-input': signed['Signature-Input'], ...(options.cookie ? { cookie: options.cookie } : {}) };
  return { url, init: { method, headers: all, ...(body !== undefined ? { body } : {}) } };
}

export function contentDigest(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  return serializeDictionary({ 'sha-256': digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) });
}

export function send(prepared: PreparedRequest): Promise<Response> {
  return fetch(prepared.url, { ...prepared.init, redirect: 'manual' });
}

export async function signedFetch(agent: Agent, url: string, options: SignOptions = {}): Promise<Response> {
  return send(await signRequest(agent, url, options));
}

/** The person's session: any HTML page of the shop sets it. */
export async function personSession(shop: string): Promise<string> {
  const res = await fetch(`${shop}/`, { headers: { accept: 'text/html' } });
  const cookie = res.headers.get('set-cookie') ?? '';
  const match = /larkspur_session=[^;]+/.exec(cookie);
  if (!match) throw new Error(`no session cookie in "${cookie}"`);
  return match[0];
}

export function tokenRequest(agent: Agent, overrides: Partial<TokenRequest> = {}): TokenRequest {
  return {
    agent_key: agent.publicJwk,
    agent_name: 'Steward',
    scopes: ['orders:read', 'orders:cancel'],
    resource_scope: ['order:*'],
    payment: false,
    expires_in_s: 3600,
    ...overrides,
  };
}

/** The whole grant: the person's session plus the agent's signature. */
export async function grant(shop: string, agent: Agent, overrides: Partial<TokenRequest> = {}): Promise<TokenGrant> {
  const res = await signedFetch(agent, `${shop}/agent/v1/tokens`, { body: tokenRequest(agent, overrides), cookie: await personSession(shop) });
  if (res.status !== 201) throw new Error(`grant failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as TokenGrant;
}

export interface ExecuteCall {
  action: string;
  id: string;
  input?: Record<string, unknown>;
  preconditions?: { expected_state?: string; state_version?: number };
  /** Leave out the approval receipt. */
  noApproval?: boolean;
}

/** An execute body with the approval receipt Steward would attach. */
export async function executeBody(call: ExecuteCall): Promise<Record<string, unknown>> {
  const resource = { type: 'order', id: call.id };
  const input = call.input ?? {};
  return {
    action: call.action,
    resource,
    input,
    ...(call.preconditions ? { preconditions: call.preconditions } : {}),
    ...(call.noApproval ? {} : { approval: { receipt_id: 'rcpt-1', approved_at: new Date().toISOString(), input_hash: await requestHash(call.action, resource, input) } }),
  };
}

export async function execute(shop: string, agent: Agent, token: string, call: ExecuteCall, extra: Omit<SignOptions, 'body' | 'token'> = {}): Promise<Response> {
  return signedFetch(agent, `${shop}/agent/v1/actions/execute`, { idempotencyKey: `act-${crypto.randomUUID()}`, ...extra, token, body: await executeBody(call) });
}

export async function demoState(shop: string): Promise<Loose> {
  return (await fetch(`${shop}/__demo/state`)).json();
}

export function demoPost(shop: string, path: string, body: unknown = {}): Promise<Response> {
  return fetch(`${shop}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
