import { describe, expect, it, vi } from 'vitest';
import { createChannels } from '../../../../src/background/core/channels.ts';
import { createObservationService } from '../../../../src/background/observation/service.ts';
import { createPanelChannel, type PanelChannelDeps } from '../../../../src/background/panel/panel-channel.ts';
import type { SenderFacts } from '../../../../src/background/core/senders.ts';
import type { ToolRegistry } from '../../../../src/background/tools/registry.ts';
import { claimsType, refuse } from '../../../../src/protocol/channel.ts';
import { ContentReports } from '../../../../src/protocol/content-channel.ts';
import { PanelRequests, type PanelPush } from '../../../../src/protocol/panel-channel.ts';
import { fakeFrames } from '../core/fake-frames.ts';
import { ORDER, ORIGIN, cancelRequest, harness, type Harness } from '../../pipeline/fakes.ts';
import { fakeSites } from './fake-sites.ts';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const PANEL_PREFIX = `chrome-extension://${ID}/src/sidepanel/`;
const who = (facts: SenderFacts) => facts;
const PANEL = who({ id: ID, url: `${PANEL_PREFIX}index.html?tabId=3` });

type ControlDeps = Omit<PanelChannelDeps, 'tools' | 'observation'>;
/** The worker's one message door, with the panel channel's real handlers behind it. */
function panelDoor(deps: ControlDeps) {
  const channels = createChannels({
    panel: createPanelChannel({
      ...deps,
      tools: { ready: Promise.resolve(), registry: { tab: () => [] } as unknown as ToolRegistry },
      observation: createObservationService(fakeFrames(async () => undefined)),
    }),
    content: async () => refuse('UNEXPECTED', 'no content reports here'),
    extensionId: ID,
    panelUrlPrefix: PANEL_PREFIX,
  });
  return (message: unknown, sender: SenderFacts) => channels.onMessage(message, sender);
}

/** Senders that are not the side panel, as Chrome would describe them. */
const FORGED: Record<string, SenderFacts> = {
  'Steward content script in a page': { id: ID, url: 'http://localhost:4100/orders/ORD-1024', origin: 'http://localhost:4100', tab: { id: 7 }, frameId: 0 },
  'content script in an iframe': { id: ID, url: 'http://evil.test/frame', tab: { id: 7 }, frameId: 3 },
  'another extension claiming the panel URL': { id: 'someotherextensionidaaaaaaaaaaaa', url: `${PANEL_PREFIX}index.html` },
  'a web page with the panel path': { id: ID, url: 'http://evil.test/src/sidepanel/index.html', tab: { id: 9 }, frameId: 0 },
  'another page of Steward': { id: ID, url: `chrome-extension://${ID}/src/other/index.html` },
  'no sender at all': {},
};

function deps(h: Harness, pushes: PanelPush[] = []): ControlDeps {
  return {
    ready: async () => h.pipeline,
    sessions: { sessionFor: async (_agent, tabId) => `ses_tab${tabId}` },
    observeTab: async () => ({ ok: false, error: { code: 'TAB_GONE', message: 'gone', retryable: true } }),
    push: (m) => pushes.push(m),
    sites: fakeSites(),
  };
}

const approveMessage = (card: { request_id: string; input_hash: string; state: { state_version: string | number } }) => ({
  type: 'panel/approval-decide',
  decision: { request_id: card.request_id, decision: 'approve', decided_by: 'user:local', decided_at: '2026-08-03T11:41:00Z', input_hash: card.input_hash, state_version: card.state.state_version },
});

describe('control messages: sender first', () => {
  it('recognises panel messages by type, and nothing else', () => {
    expect(claimsType(PanelRequests, { type: 'panel/approval-decide' })).toBe(true);
    expect(claimsType(PanelRequests, { type: 'agent/submit' })).toBe(true);
    expect(claimsType(PanelRequests, { type: 'panel/get-tab-tools' })).toBe(true);
    expect(claimsType(PanelRequests, { type: 'content/tools' })).toBe(false);
    expect(claimsType(ContentReports, { type: 'content/tools' })).toBe(true);
    expect(claimsType(PanelRequests, { type: 'toString' })).toBe(false);
    expect(claimsType(PanelRequests, null)).toBe(false);
    expect(claimsType(PanelRequests, 'panel/approvals')).toBe(false);
  });

  it.each(Object.entries(FORGED))('refuses %s with FORBIDDEN_SENDER before touching the pipeline', async (_name, facts) => {
    const ready = vi.fn(async () => {
      throw new Error('must not be reached');
    });
    const handle = panelDoor({ ready, sessions: { sessionFor: vi.fn() }, observeTab: vi.fn(), push: vi.fn(), sites: fakeSites() });
    const messages = [
      approveMessage({ request_id: 'apreq_1', input_hash: `sha256:${'a'.repeat(64)}`, state: { state_version: 'fp-abcdef' } }),
      { type: 'panel/token-mint', agent_id: 'agent:evil', scope: ['*:*'], resource_scope: '*', origins: [ORIGIN], ttl_ms: 60_000 },
      { type: 'agent/submit', agent_id: 'agent:copilot', token: 'stw_secret_x', tabId: 1, request: cancelRequest() },
      { type: 'panel/audit-export' },
      { type: 'panel/audit-verify-export', jsonl: '' },
      { type: 'panel/token-revoke', token_id: 'tok_1' },
    ];
    for (const m of messages) expect(await handle(m, who(facts))).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER', retryable: false } });
    expect(ready).not.toHaveBeenCalled();
  });

  it('refuses a malformed control message from the panel with the schema problem', async () => {
    const h = await harness();
    const handle = panelDoor(deps(h));
    expect(await handle({ type: 'panel/token-mint', agent_id: 'copilot', scope: [], resource_scope: '*', origins: [], ttl_ms: 1 }, PANEL)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_MESSAGE' },
    });
    expect(await handle({ type: 'panel/approval-decide', decision: { decision: 'approve' } }, PANEL)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
  });

  it('answers NOT_READY (retryable) when the store cannot be opened', async () => {
    const handle = panelDoor({ ready: () => Promise.reject(new Error('disk full')), sessions: { sessionFor: vi.fn() }, observeTab: vi.fn(), push: vi.fn(), sites: fakeSites() });
    expect(await handle({ type: 'panel/approvals' }, PANEL)).toMatchObject({ ok: false, error: { code: 'NOT_READY', retryable: true } });
  });
});

describe('control messages from the side panel', () => {
  it('mints, lists with usage, and revokes tokens, pushing tokens-changed', async () => {
    const h = await harness();
    const pushes: PanelPush[] = [];
    const handle = panelDoor(deps(h, pushes));
    const minted = await handle({ type: 'panel/token-mint', agent_id: 'agent:copilot', scope: ['orders:cancel'], resource_scope: 'order:ORD-1024', origins: [ORIGIN], ttl_ms: 60_000 }, PANEL);
    expect(minted).toMatchObject({ ok: true, data: { status: 'active', uses: 0, token: { agent_id: 'agent:copilot', scope: ['orders:cancel'], payment: false } } });
    expect(pushes).toContainEqual({ type: 'panel/tokens-changed' });
    const { token: mintedToken, secret } = (minted as { data: { token: { token_id: string }; secret: string } }).data;
    const tokenId = mintedToken.token_id;
    expect(secret).toMatch(/^stw_secret_/);
    expect(mintedToken).not.toHaveProperty('secret_hash');

    // One action under the harness token counts as one use of it.
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v1' }, h.agent);
    const listed = await handle({ type: 'panel/tokens' }, PANEL);
    const tokens = (listed as { data: { tokens: Array<{ token: { token_id: string }; uses: number; status: string }> } }).data.tokens;
    expect(tokens.find((t) => t.token.token_id === h.token.token_id)).toMatchObject({ uses: 1, status: 'active' });
    expect(tokens.find((t) => t.token.token_id === tokenId)).toMatchObject({ uses: 0, status: 'active' });
    // The list shows public tokens only: never the secret, nor its hash.
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain('secret');

    expect(await handle({ type: 'panel/token-revoke', token_id: tokenId }, PANEL)).toMatchObject({ ok: true, data: { status: 'revoked' } });
    expect(await handle({ type: 'panel/token-revoke', token_id: 'tok_doesnotexist' }, PANEL)).toMatchObject({ ok: false, error: { code: 'TOKEN_NOT_FOUND' } });
    expect(await handle({ type: 'panel/token-mint', agent_id: 'agent:copilot', scope: ['orders:cancel'], resource_scope: '*', origins: [ORIGIN], ttl_ms: 365 * 24 * 3_600_000 }, PANEL)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('lists pending approvals and decides them; a stale or repeated decision is refused with a code', async () => {
    const h = await harness();
    const handle = panelDoor(deps(h));
    const pending = h.pipeline.submit(cancelRequest(), h.agent);
    const card = await h.panel.next();
    expect(await handle({ type: 'panel/approvals' }, PANEL)).toMatchObject({ ok: true, data: { pending: [{ request_id: card.request_id, action: 'orders.cancel' }] } });

    const stale = approveMessage({ ...card, state: { state_version: 'fp-0000000' } });
    expect(await handle(stale, PANEL)).toMatchObject({ ok: false, error: { code: 'APPROVAL_STALE' } });
    expect(await handle(approveMessage(card), PANEL)).toMatchObject({ ok: true, data: { status: 'approved', receipt: { action: 'orders.cancel', scope: 'order:ORD-1024' } } });
    expect(await handle(approveMessage(card), PANEL)).toMatchObject({ ok: false, error: { code: 'APPROVAL_ALREADY_DECIDED' } });
    expect(await pending).toMatchObject({ execution: { status: 'confirmed' } });
    expect(await handle({ type: 'panel/approvals' }, PANEL)).toEqual({ ok: true, data: { pending: [] } });
  });

  it('submits as the co-pilot in its tab’s session, with the agent’s expectation', async () => {
    const h = await harness();
    const sessionFor = vi.fn(async () => 's1');
    const handle = panelDoor({ ...deps(h), sessions: { sessionFor } });
    const reply = await handle(
      {
        type: 'agent/submit',
        agent_id: 'agent:copilot',
        token: h.secret,
        tabId: 12,
        request: { action: 'orders.view', resource: ORDER, idempotency_key: 'v2' },
        expect: { state: 'awaiting_payment' },
      },
      PANEL,
    );
    expect(reply).toMatchObject({ ok: true, data: { result: { execution: { status: 'confirmed' } } } });
    expect(sessionFor).toHaveBeenCalledWith('agent:copilot', 12);
    const action = (await h.db.getAll('journal_actions')).find((a) => a.idempotency_key === 'v2');
    expect(action?.context).toMatchObject({ session_id: 's1', expect: { state: 'awaiting_payment' } });
    // A token of another agent is refused by the pipeline, whoever the panel says is acting.
    const other = await handle({ type: 'agent/submit', agent_id: 'agent:other', token: h.secret, tabId: 12, request: { action: 'orders.view', resource: ORDER, idempotency_key: 'v3' } }, PANEL);
    expect(other).toMatchObject({ ok: true, data: { result: { error: { code: 'TOKEN_INVALID' } } } });
    // The public id (in every record and the panel) is not a credential.
    const byId = await handle(
      { type: 'agent/submit', agent_id: 'agent:copilot', token: h.token.token_id, tabId: 12, request: { action: 'orders.view', resource: ORDER, idempotency_key: 'v4' } },
      PANEL,
    );
    expect(byId).toMatchObject({ ok: true, data: { result: { error: { code: 'TOKEN_INVALID' } } } });
    expect(
      await handle({ type: 'agent/submit', agent_id: 'agent:copilot', token_id: h.secret, tabId: 12, request: { action: 'orders.view', resource: ORDER, idempotency_key: 'v5' } }, PANEL),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_MESSAGE' },
    });
  });

  it('verifies and exports the audit chain, and reports where a tampered chain breaks', async () => {
    const h = await harness();
    const handle = panelDoor(deps(h));
    await h.pipeline.submit({ action: 'orders.view', resource: ORDER, idempotency_key: 'v4' }, h.agent);
    const verified = await handle({ type: 'panel/audit-verify' }, PANEL);
    expect(verified).toMatchObject({ ok: true, data: { ok: true } });
    const count = (verified as { data: { entries: number } }).data.entries;
    expect(count).toBeGreaterThan(2);
    const exported = (await handle({ type: 'panel/audit-export' }, PANEL)) as { data: { jsonl: string } };
    // One line per entry, then the signed head; the file verifies against this Steward's key, and not once cut short.
    expect(exported.data.jsonl.trim().split('\n')).toHaveLength(count + 1);
    expect(await handle({ type: 'panel/audit-verify-export', jsonl: exported.data.jsonl }, PANEL)).toEqual({ ok: true, data: { ok: true, entries: count } });
    const cut = exported.data.jsonl.trim().split('\n').slice(0, -2).join('\n');
    expect(await handle({ type: 'panel/audit-verify-export', jsonl: cut }, PANEL)).toMatchObject({ ok: true, data: { ok: false, problem: expect.stringContaining('unsigned') } });
    expect(await handle({ type: 'panel/audit', limit: 2 }, PANEL)).toMatchObject({ ok: true, data: { entries: [{ seq: count - 2 }, { seq: count - 1 }] } });

    const first = await h.db.get('audit', 1);
    await h.db.put('audit', { ...first!, outcome: 'edited_by_someone' });
    expect(await handle({ type: 'panel/audit-verify' }, PANEL)).toMatchObject({ ok: true, data: { ok: false, broken_at: 1, problem: expect.stringContaining('edited') } });
  });

  it('observes a tab for the panel, and says why when it cannot', async () => {
    const h = await harness();
    const handle = panelDoor(deps(h));
    // The refusal's English, and beside it the panel's phrase: a failure Steward does not word itself is said generically.
    expect(await handle({ type: 'panel/observe-tab', tabId: 4 }, PANEL)).toEqual({
      ok: true,
      data: { state: null, error: 'TAB_GONE: gone', error_said: { code: 'observe_failed', params: { tab: 4, code: 'TAB_GONE' } } },
    });
  });
});

describe('site access from the side panel', () => {
  it('allows and removes a site, pushing sites-changed; refuses anything but an origin', async () => {
    const h = await harness();
    const pushes: PanelPush[] = [];
    const sites = fakeSites();
    const handle = panelDoor({ ...deps(h, pushes), sites });
    expect(await handle({ type: 'panel/site-allow', origin: 'http://127.0.0.1:4100' }, PANEL)).toMatchObject({ ok: true, data: { allowed: ['http://127.0.0.1:4100'] } });
    expect(pushes).toContainEqual({ type: 'panel/sites-changed' });
    expect(await handle({ type: 'panel/site-allow', origin: 'http://127.0.0.1:4100/orders' }, PANEL)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    expect(await handle({ type: 'panel/site-allow', origin: 'file:///etc' }, PANEL)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    expect(await handle({ type: 'panel/sites' }, PANEL)).toMatchObject({ ok: true, data: { allowed: ['http://127.0.0.1:4100'] } });
    expect(await handle({ type: 'panel/site-remove', origin: 'http://127.0.0.1:4100' }, PANEL)).toMatchObject({ ok: true, data: { allowed: [] } });
  });

  it.each(Object.entries(FORGED))('refuses a site change from %s', async (_name, facts) => {
    const h = await harness();
    const sites = fakeSites();
    const handle = panelDoor({ ...deps(h), sites });
    expect(await handle({ type: 'panel/site-allow', origin: 'https://evil.example' }, who(facts))).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(sites.allowed.size).toBe(0);
  });
});
