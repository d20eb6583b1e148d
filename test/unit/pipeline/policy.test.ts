import { describe, expect, it } from 'vitest';
import { ActionRequest, type AvailableAction } from '../../../src/protocol/action.ts';
import type { DelegatedAgentToken } from '../../../src/protocol/token.ts';
import { classifyDom } from '../../../src/pipeline/policy/dom-risk.ts';
import { checkToken, PolicyGateway, type GatewayInput } from '../../../src/pipeline/policy/gateway.ts';
import { RateLimiter } from '../../../src/pipeline/policy/quota.ts';
import { approvalReasons } from '../../../src/pipeline/policy/risk.ts';
import { requiredScope, scopeCovers } from '../../../src/pipeline/policy/scope.ts';
import { FakeShop, ORDER, ORIGIN, action } from './fakes.ts';
import { parsePolicy } from '../../../src/protocol/managed-policy.ts';

const token: DelegatedAgentToken = {
  token_type: 'delegated_agent_token',
  token_id: 'tok_1',
  agent_id: 'agent:copilot',
  principal: 'user:local',
  scope: ['orders:read', 'orders:cancel', 'webmcp:book_appointment', 'dom:*', 'nav:goto'],
  resource_scope: 'order:ORD-1024',
  origins: [ORIGIN],
  payment: false,
  issued_at: '2026-08-03T11:35:00Z',
  expires_at: '2026-08-03T11:50:00Z',
  revocable_at: '/r',
};

const describeAs = (a: Partial<AvailableAction>): AvailableAction => action({ action: 'orders.cancel', ...a });

const req = (action = 'orders.cancel', input: Record<string, unknown> = {}) => ActionRequest.parse({ action, resource: ORDER, input, idempotency_key: 'k' });

describe('scope mapping', () => {
  it('maps actions to scopes per path', () => {
    expect(requiredScope('orders.cancel', 'site_contract')).toBe('orders:cancel');
    expect(requiredScope('orders.cancel', 'adapter')).toBe('orders:cancel');
    expect(requiredScope('book_appointment', 'webmcp')).toBe('webmcp:book_appointment');
    // A page cannot borrow a contract scope by naming its tool like a contract action.
    expect(requiredScope('orders.cancel', 'webmcp')).toBe('webmcp:orders.cancel');
    expect(requiredScope('dom.click', 'legacy_inference')).toBe('dom:click');
    expect(requiredScope('nav.goto', 'legacy_inference')).toBe('nav:goto');
    expect(requiredScope('cancel', 'adapter')).toBe('adapter:cancel');
  });

  it('honours exact scopes and the three wildcards only', () => {
    expect(scopeCovers(['orders:cancel'], 'orders:cancel')).toBe(true);
    expect(scopeCovers(['orders:read'], 'orders:cancel')).toBe(false);
    expect(scopeCovers(['orders:*'], 'orders:cancel')).toBe(true);
    expect(scopeCovers(['*:cancel'], 'orders:cancel')).toBe(true);
    expect(scopeCovers(['*:*'], 'webmcp:anything')).toBe(true);
    expect(scopeCovers(['order:*'], 'orders:cancel')).toBe(false);
    expect(scopeCovers(['webmcp:book'], 'webmcp:book_appointment')).toBe(false);
  });
});

describe('checkToken (step 2)', () => {
  it('refuses unknown, expired, revoked and other agents’ tokens, and resources outside resource_scope', () => {
    expect(checkToken('agent:copilot', { ok: false, reason: 'unknown' }, ORDER)).toMatchObject({ ok: false, error: { code: 'TOKEN_INVALID' } });
    expect(checkToken('agent:copilot', { ok: false, reason: 'expired' }, ORDER)).toMatchObject({ ok: false, error: { code: 'TOKEN_INVALID', message: /expired/ } });
    expect(checkToken('agent:copilot', { ok: false, reason: 'revoked' }, ORDER)).toMatchObject({ ok: false, error: { code: 'TOKEN_INVALID', message: /revoked/ } });
    expect(checkToken('agent:other', { ok: true, token }, ORDER)).toMatchObject({ ok: false, error: { code: 'TOKEN_INVALID' } });
    expect(checkToken('agent:copilot', { ok: true, token }, { type: 'order', id: 'ORD-1' })).toMatchObject({ ok: false, error: { code: 'SCOPE_DENIED' } });
    expect(checkToken('agent:copilot', { ok: true, token }, ORDER)).toEqual({ ok: true, token });
  });
});

describe('PolicyGateway', () => {
  const now = Date.parse('2026-08-03T11:40:00Z');
  const input = (over: Partial<GatewayInput> = {}): GatewayInput => ({
    agent_id: 'agent:copilot',
    token,
    request: req(),
    description: describeAs({ consequential: true }),
    origin: ORIGIN,
    untrusted_input: false,
    now,
    ...over,
  });
  const gw = () => new PolicyGateway(new RateLimiter(() => ({ per_minute: 1000, per_day: 1000 })));

  it('refuses an action outside the token’s scope', () => {
    expect(gw().evaluate(input({ request: req('orders.refund') }))).toMatchObject({ kind: 'refuse', error: { code: 'SCOPE_DENIED', details: { required_scope: 'orders:refund' } } });
    expect(gw().evaluate(input({ request: req('book_table'), description: describeAs({ action: 'book_table', via: 'webmcp' }) }))).toMatchObject({ kind: 'refuse', error: { code: 'SCOPE_DENIED' } });
  });

  it('refuses another origin, and navigation that leaves the token’s origins', () => {
    expect(gw().evaluate(input({ origin: 'http://evil.test' }))).toMatchObject({ kind: 'refuse', error: { code: 'SCOPE_DENIED', details: { origin: 'http://evil.test' } } });
    const goto = (url: string) => input({ request: req('nav.goto', { url }), description: describeAs({ action: 'nav.goto', via: 'legacy_inference', read_only: true, requires_approval: false }) });
    expect(gw().evaluate(goto('http://evil.test/x'))).toMatchObject({ kind: 'refuse', error: { code: 'SCOPE_DENIED' } });
    expect(gw().evaluate(goto(`${ORIGIN}/orders`))).toMatchObject({ kind: 'allow', required_scope: 'nav:goto' });
  });

  it('refuses payment without a payment token; with one, payment still needs approval', () => {
    const pay = input({ description: describeAs({ payment: true, consequential: true }) });
    expect(gw().evaluate(pay)).toMatchObject({ kind: 'refuse', error: { code: 'SCOPE_DENIED', message: /payment/ } });
    const d = gw().evaluate({ ...pay, token: { ...token, payment: true } });
    expect(d.kind === 'needs_approval' && d.reasons.map((r) => r.code)).toContain('payment');
  });

  it('rate limit and daily quota: QUOTA_EXCEEDED, retryable, with when to retry', () => {
    const g = new PolicyGateway(new RateLimiter(() => ({ per_minute: 2, per_day: 3 })));
    const ro = input({ request: req('orders.read'), description: describeAs({ action: 'orders.read', read_only: true, requires_approval: false }) });
    expect(g.evaluate(ro).kind).toBe('allow');
    expect(g.evaluate({ ...ro, now: now + 1000 }).kind).toBe('allow');
    expect(g.evaluate({ ...ro, now: now + 2000 })).toMatchObject({ kind: 'refuse', error: { code: 'QUOTA_EXCEEDED', retryable: true, retry_after_ms: 58_000, details: { limit: 'per_minute' } } });
    expect(g.evaluate({ ...ro, now: now + 60_000 }).kind).toBe('allow');
    expect(g.evaluate({ ...ro, now: now + 200_000 })).toMatchObject({ kind: 'refuse', error: { code: 'QUOTA_EXCEEDED', details: { limit: 'per_day' } } });
    // Quotas are per agent.
    expect(g.evaluate({ ...ro, agent_id: 'agent:other', token: { ...token, agent_id: 'agent:other' }, now: now + 200_000 }).kind).toBe('allow');
    // A re-check of an already counted action does not count again.
    expect(g.evaluate({ ...ro, now: now + 200_000, count_quota: false }).kind).toBe('allow');
  });

  it('read-only inside scope runs without approval', () => {
    expect(gw().evaluate(input({ request: req('orders.read'), description: describeAs({ action: 'orders.read', read_only: true, requires_approval: false }) }))).toMatchObject({ kind: 'allow' });
  });
});

describe("PolicyGateway under the organisation's managed policy", () => {
  const now = Date.parse('2026-08-03T11:40:00Z');
  const input = (over: Partial<GatewayInput> = {}): GatewayInput => ({
    agent_id: 'agent:copilot',
    token,
    request: req(),
    description: describeAs({ read_only: true, consequential: false, requires_approval: false }),
    origin: ORIGIN,
    untrusted_input: false,
    now,
    ...over,
  });
  const gw = (raw: unknown) => new PolicyGateway(new RateLimiter(() => ({ per_minute: 1000, per_day: 1000 })), () => parsePolicy(raw).policy);

  it('without a policy a read-only action needs nobody', () => {
    expect(gw({}).evaluate(input())).toMatchObject({ kind: 'allow' });
  });

  it('an action the policy always wants approved waits for the person, even when nothing else would ask', () => {
    expect(gw({ approvalRequiredActions: ['orders.*'] }).evaluate(input())).toMatchObject({
      kind: 'needs_approval',
      reasons: [{ code: 'organisation_policy', detail: 'your organisation requires approval for orders.*' }],
    });
  });

  it('a frozen action is refused outright with POLICY_DENIED naming the rule, until its period ends', () => {
    const policy = { frozenActions: [{ action: 'orders.cancel', until: '2026-08-04T00:00:00Z' }] };
    expect(gw(policy).evaluate(input())).toMatchObject({
      kind: 'refuse',
      error: { code: 'POLICY_DENIED', retryable: false, details: { policy: 'frozenActions', action: 'orders.cancel', until: '2026-08-04T00:00:00.000Z' } },
    });
    expect(gw(policy).evaluate(input({ now: Date.parse('2026-08-04T00:00:01Z') }))).toMatchObject({ kind: 'allow' });
  });

  it('a site the policy blocks is refused though the token covers it, and so is a navigation to one', () => {
    expect(gw({ blockedSites: [ORIGIN] }).evaluate(input())).toMatchObject({ kind: 'refuse', error: { code: 'POLICY_DENIED', details: { policy: 'blockedSites', origin: ORIGIN } } });
    const nav = input({
      request: req('nav.goto', { url: 'https://bank.example/' }),
      description: describeAs({ action: 'nav.goto', via: 'legacy_inference' }),
      token: { ...token, origins: [ORIGIN, 'https://bank.example'] },
    });
    expect(gw({ blockedSites: ['https://bank.example'] }).evaluate(nav)).toMatchObject({ kind: 'refuse', error: { code: 'POLICY_DENIED', details: { origin: 'https://bank.example' } } });
  });

  it('a token older than the lifetime the policy now allows is refused', () => {
    expect(gw({ maxTokenLifetimeMinutes: 4 }).evaluate(input())).toMatchObject({ kind: 'refuse', error: { code: 'TOKEN_INVALID', details: { policy: 'maxTokenLifetimeMinutes' } } });
    expect(gw({ maxTokenLifetimeMinutes: 6 }).evaluate(input())).toMatchObject({ kind: 'allow' });
  });

  it('a paired MCP client the policy no longer lets pair can no longer act', () => {
    const paired = input({ agent_id: 'agent:mcp-cursor-abc123', token: { ...token, agent_id: 'agent:mcp-cursor-abc123', label: 'Cursor' } });
    expect(gw({ mcpPairing: false }).evaluate(paired)).toMatchObject({ kind: 'refuse', error: { code: 'POLICY_DENIED', details: { policy: 'mcpPairing' } } });
    expect(gw({ allowedMcpClients: ['Claude Desktop'] }).evaluate(paired)).toMatchObject({ kind: 'refuse', error: { details: { policy: 'allowedMcpClients' } } });
    expect(gw({ allowedMcpClients: ['cursor'] }).evaluate(paired)).toMatchObject({ kind: 'allow' });
  });

  it('a paired MCP client goes on only with the key it paired with still issued for its name', () => {
    const issued = 'a'.repeat(64);
    const keyed = (client_key_sha256?: string) =>
      input({ agent_id: 'agent:mcp-cursor-abc123', token: { ...token, agent_id: 'agent:mcp-cursor-abc123', label: 'Cursor', ...(client_key_sha256 ? { client_key_sha256 } : {}) } });
    const policy = { mcpClientKeys: [{ name: 'Cursor', sha256: issued }] };
    expect(gw(policy).evaluate(keyed(issued))).toMatchObject({ kind: 'allow' });
    // Paired before keys were asked for, with another key, or under another name: refused.
    expect(gw(policy).evaluate(keyed())).toMatchObject({ kind: 'refuse', error: { code: 'POLICY_DENIED', details: { policy: 'mcpClientKeys' } } });
    expect(gw(policy).evaluate(keyed('b'.repeat(64)))).toMatchObject({ kind: 'refuse', error: { details: { policy: 'mcpClientKeys' } } });
    expect(gw({ mcpClientKeys: [{ name: 'Claude Desktop', sha256: issued }] }).evaluate(keyed(issued))).toMatchObject({ kind: 'refuse' });
  });
});

describe('risk: why approval is needed', () => {
  const codes = (d: Partial<AvailableAction>, untrusted = false) => approvalReasons(describeAs(d), { untrusted_input: untrusted }).map((r) => r.code);

  it('WebMCP annotations: readOnlyHint runs directly; consequentialHint or not read-only needs approval', () => {
    expect(codes({ via: 'webmcp', read_only: true, requires_approval: false })).toEqual([]);
    expect(codes({ via: 'webmcp', read_only: false, consequential: true })).toEqual(['consequential', 'not_read_only']);
    expect(codes({ via: 'webmcp', read_only: false })).toEqual(['not_read_only']);
  });

  it('payment and untrusted input always need approval, even when read-only', () => {
    expect(codes({ read_only: true, payment: true, requires_approval: true })).toContain('payment');
    expect(codes({ read_only: true, requires_approval: false }, true)).toEqual(['untrusted_input']);
  });

  it('contract flags: the site asking for approval is honoured', () => {
    expect(codes({ via: 'site_contract', read_only: true, requires_approval: true })).toEqual(['site_requires_approval']);
    expect(codes({ via: 'adapter', read_only: true, requires_approval: true })).toEqual(['unknown_risk']);
  });
});

describe('legacy classification (by what the control does)', () => {
  const shop = new FakeShop();
  const observed = shop.observation('ORD-1024')!;
  const classify = (action: 'dom.click' | 'dom.type' | 'dom.select' | 'dom.scroll' | 'nav.goto', input: Record<string, unknown>) => classifyDom(action, input, observed);
  const domCodes = (action: 'dom.click' | 'dom.type', input: Record<string, unknown>) => {
    const c = classify(action, input);
    return approvalReasons(describeAs({ action, via: 'legacy_inference', read_only: c.read_only, consequential: false, requires_approval: false }), { untrusted_input: false, dom: c }).map(
      (r) => r.code,
    );
  };

  /** Whether clicking the plain button e6 (outside any form), named `name`, is refused a free run for its name. */
  const riskyName = (name: string) => {
    const renamed = { ...observed, elements: (observed.elements ?? []).map((e) => (e.ref === 'e6' ? { ...e, name } : e)) };
    return classifyDom('dom.click', { ref: 'e6' }, renamed).reasons.some((r) => r.code === 'risky_control');
  };

  it.each(['Buy now', 'Pay', 'Delete account', 'Send', 'Cancel order', 'Transfer funds', 'Order', 'Confirm', 'Remove item', 'Place order'])('“%s” is a risky control', (name) => {
    expect(riskyName(name)).toBe(true);
  });

  it.each(['Help', 'Orders', 'Next page', 'Details'])('“%s” is not named as risky', (name) => {
    expect(riskyName(name)).toBe(false);
  });

  it('clicking a risky control is consequential', () => {
    expect(domCodes('dom.click', { ref: 'e1' })).toEqual(['risky_control', 'not_read_only']);
  });

  it('submitting a form is consequential', () => {
    expect(domCodes('dom.click', { ref: 'e5' })).toEqual(['form_submission', 'not_read_only']);
  });

  it('an unclassifiable control counts as risky; a link or disclosure is read-only', () => {
    expect(domCodes('dom.click', { ref: 'e6' })).toEqual(['unknown_risk', 'not_read_only']);
    expect(domCodes('dom.click', { ref: 'e2' })).toEqual([]);
    expect(domCodes('dom.click', { ref: 'e8' })).toEqual([]);
  });

  it('typing into a plain field only edits the form; a payment field needs approval', () => {
    expect(domCodes('dom.type', { ref: 'e3', text: 'hi' })).toEqual([]);
    expect(domCodes('dom.type', { ref: 'e7', text: '4111' })).toEqual(['payment', 'not_read_only']);
  });

  it('never acts on hidden or unknown elements', () => {
    expect(classify('dom.type', { ref: 'e4', text: 'x' }).problem?.message).toMatch(/hidden/);
    expect(classify('dom.click', { ref: 'e99' }).problem?.message).toMatch(/not in the current observation/);
  });

  it('neither clicks nor scrolls to an element Steward marks unreachable (offscreen: outside the scrollable page)', () => {
    const far = { ...observed, elements: observed.elements!.map((e) => (e.ref === 'e1' ? { ...e, visibility: 'offscreen' as const } : e)) };
    expect(classifyDom('dom.click', { ref: 'e1' }, far).problem?.message).toMatch(/e1 is offscreen/);
    expect(classifyDom('dom.scroll', { ref: 'e1' }, far).problem?.message).toMatch(/e1 is offscreen/);
    expect(classifyDom('dom.scroll', { direction: 'down' }, far).problem).toBeUndefined();
  });

  it('the riskier of the observation’s description and Steward’s classification wins', () => {
    const c = classify('dom.click', { ref: 'e2' });
    const codesFor = approvalReasons(describeAs({ action: 'dom.click', via: 'legacy_inference', read_only: false, consequential: true }), { untrusted_input: false, dom: c }).map((r) => r.code);
    expect(codesFor).toEqual(['consequential', 'not_read_only']);
  });
});

describe('links and toggles are judged by where they go', () => {
  const now = Date.parse('2026-08-03T11:40:00Z');
  const base = new FakeShop().observation('ORD-1024')!;
  const withHref = (ref: string, href: string, role = 'link', states: Array<'collapsed' | 'checked'> = []) => ({
    ...base,
    elements: [...base.elements!, { ref, role, name: 'More info', href, states, visibility: 'visible' as const }],
  });
  const decide = (observed: ReturnType<typeof withHref>, ref: string) => {
    const c = classifyDom('dom.click', { ref }, observed);
    return new PolicyGateway(new RateLimiter()).evaluate({
      agent_id: 'agent:copilot',
      token,
      request: req('dom.click', { ref }),
      description: describeAs({ action: 'dom.click', via: 'legacy_inference', read_only: true, consequential: false, requires_approval: false }),
      origin: ORIGIN,
      untrusted_input: false,
      dom: c,
      now,
    });
  };

  it('a link on the token’s origins is read-only', () => {
    expect(decide(withHref('l1', `${ORIGIN}/help`), 'l1')).toMatchObject({ kind: 'allow' });
  });

  it.each([
    ['a link', 'link', []],
    ['a tab', 'tab', []],
    ['a disclosure', 'button', ['collapsed']],
  ] as const)('%s to another origin needs approval and says where it goes', (_what, role, states) => {
    const d = decide(withHref('l2', 'https://evil.example/steal?x=1', role, [...states]), 'l2');
    expect(d).toMatchObject({ kind: 'needs_approval', reasons: [{ code: 'not_read_only', detail: expect.stringContaining('https://evil.example, outside the sites this agent may use') }] });
  });

  it('a javascript: link is of unknown risk', () => {
    expect(decide(withHref('l3', 'javascript:void(fetch(1))'), 'l3')).toMatchObject({
      kind: 'needs_approval',
      reasons: [{ code: 'unknown_risk', detail: expect.stringContaining('non-web address') }],
    });
  });
});
