import { parseDictionary, type Item } from 'structured-headers';
import { verify } from 'web-bot-auth';
import { verifier } from 'web-bot-auth/crypto';
import { AgentContract, type SiteResourceState, type TokenGrant } from '../../../src/protocol/agent-contract.ts';
import { agentKeyFromPair, generateAgentKeyPair } from '../../../src/contract/agent-key.ts';
import type { AgentKey, DiscoveredContract, HttpPort, HttpRequest, HttpResponse, SiteGrant } from '../../../src/contract/ports.ts';
import { contractUrlFor, fetchContract, type PageHints } from '../../../src/contract/discovery.ts';
import { originOf } from '../../../src/base/origin.ts';

export const ORIGIN = 'http://localhost:4100';
export const T0 = Date.parse('2026-08-03T11:40:00Z');

/** Finds and fetches the contract a page names, as the worker's contract registry does (the URL the page names, then the fetch). */
export async function discoverContract(http: HttpPort, hints: PageHints, now: () => number): ReturnType<typeof fetchContract> {
  const url = contractUrlFor(hints);
  if (!url.ok) return url;
  return fetchContract(http, url.value, originOf(hints.pageUrl)!, now);
}

/** A real agent key: a non-extractable WebCrypto Ed25519 pair, as the worker keeps it. */
export async function makeAgentKey(): Promise<{ key: AgentKey; pair: CryptoKeyPair }> {
  const pair = await generateAgentKeyPair();
  return { key: await agentKeyFromPair(pair), pair };
}

/** Checks a request's signature the way a site does (web-bot-auth's verify with the public key); returns the covered components. */
export async function verifySignature(req: HttpRequest, publicKey: CryptoKey): Promise<string[]> {
  await verify({ method: req.method, url: req.url, headers: req.headers }, verifier(publicKey));
  return signatureInput(req).components;
}

/** The parsed `Signature-Input` (label sig1). */
export function signatureInput(req: HttpRequest): { components: string[]; params: Map<string, unknown> } {
  const dict = parseDictionary(req.headers['signature-input'] ?? '');
  const entry = dict.get('sig1') as [Item[], Map<string, unknown>] | undefined;
  if (!entry) throw new Error('no sig1 in Signature-Input');
  return { components: entry[0].map((item) => String(item[0])), params: entry[1] };
}

/** The shop's contract, as docs/agent-contract.md describes it. */
export function shopContract(origin = ORIGIN): AgentContract {
  const reason = { type: 'object', properties: { reason: { type: 'string', enum: ['ordered_by_mistake', 'found_cheaper', 'other'] } }, required: ['reason'] };
  const none = { type: 'object', properties: {} };
  return AgentContract.parse({
    spec: 'steward-contract/1',
    site: { name: 'Larkspur', origin },
    resources: [
      {
        type: 'order',
        title: 'Order',
        scope_namespace: 'orders',
        page_path_template: '/orders/{id}',
        states: ['awaiting_payment', 'paid', 'cancellation_pending', 'shipped', 'delivered', 'cancelled'].map((name) => ({ name, title: name })),
      },
    ],
    actions: [
      {
        name: 'orders.cancel',
        resource_type: 'order',
        title: 'Cancel order',
        read_only: false,
        consequential: true,
        requires_approval: true,
        changes: ['order_cancelled'],
        allowed_in_states: ['awaiting_payment', 'paid'],
        input_schema: reason,
        may_be_async: true,
      },
      {
        name: 'orders.pay',
        resource_type: 'order',
        title: 'Pay',
        read_only: false,
        consequential: true,
        payment: true,
        requires_approval: true,
        changes: ['order_paid'],
        allowed_in_states: ['awaiting_payment'],
        input_schema: none,
      },
      {
        name: 'orders.track',
        resource_type: 'order',
        title: 'Track',
        read_only: true,
        consequential: false,
        requires_approval: false,
        allowed_in_states: ['shipped', 'delivered'],
        input_schema: none,
      },
      {
        name: 'orders.request_return',
        resource_type: 'order',
        title: 'Request a return',
        read_only: false,
        consequential: true,
        requires_approval: true,
        changes: ['return_requested'],
        allowed_in_states: ['shipped', 'delivered'],
        input_schema: none,
      },
    ],
    endpoints: {
      resource_state: '/agent/v1/resources/{type}/{id}',
      execute: '/agent/v1/actions/execute',
      action_status: '/agent/v1/actions/{action_id}',
      token: '/agent/v1/tokens',
      revoke: '/agent/v1/tokens/revoke',
    },
    auth: {
      token_type: 'delegated',
      signature: { profile: 'web-bot-auth', algorithms: ['ed25519'], required_components: ['@method', '@authority', '@path', 'signature-agent'], max_validity_s: 300 },
      scopes: [
        { scope: 'orders:read', title: 'See your orders' },
        { scope: 'orders:cancel', title: 'Cancel orders' },
        { scope: 'orders:pay', title: 'Pay for orders' },
        { scope: 'orders:track', title: 'Track orders' },
        { scope: 'orders:request_return', title: 'Request returns' },
      ],
      max_token_ttl_s: 86_400,
    },
  });
}

export function discovered(contract = shopContract(), origin = ORIGIN): DiscoveredContract {
  return { origin, contract_url: `${origin}/agent/v1/contract`, contract, fetched_at: T0 };
}

function tokenGrant(key: AgentKey, over: Partial<TokenGrant> = {}): TokenGrant {
  return {
    token_type: 'Bearer',
    token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1c2VyOmpvcmRhbiJ9.c2lnbmF0dXJl',
    token_id: 'tok_1',
    scopes: ['orders:read', 'orders:cancel', 'orders:track', 'orders:request_return'],
    resource_scope: ['order:*'],
    payment: false,
    // A day from now on the real clock: signatures are checked against it.
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    key_thumbprint: key.keyid,
    granted_by: 'Jordan Lee',
    ...over,
  };
}

export function siteGrant(key: AgentKey, over: Partial<TokenGrant> = {}, origin = ORIGIN): SiteGrant {
  return { origin, contract_url: `${origin}/agent/v1/contract`, grant: tokenGrant(key, over), granted_at: T0 };
}

export function siteState(over: Partial<SiteResourceState> = {}): SiteResourceState {
  return {
    resource: { type: 'order', id: 'ORD-1024' },
    state: 'awaiting_payment',
    state_version: 17,
    title: 'Order ORD-1024',
    facts: { total_cents: 4_200, currency: 'USD' },
    available_actions: ['orders.cancel', 'orders.pay'],
    updated_at: '2026-08-03T11:39:00Z',
    ...over,
  };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** An HttpPort answering from `respond`, keeping every request it was sent. */
export class RecordingPort implements HttpPort {
  readonly requests: HttpRequest[] = [];
  constructor(private readonly respond: (req: HttpRequest) => HttpResponse | Promise<HttpResponse>) {}
  async request(req: HttpRequest): Promise<HttpResponse> {
    this.requests.push(req);
    return this.respond(req);
  }
  get last(): HttpRequest {
    const req = this.requests.at(-1);
    if (!req) throw new Error('nothing was sent');
    return req;
  }
}
