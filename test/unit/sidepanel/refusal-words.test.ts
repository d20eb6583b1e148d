import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { createObservationService } from '../../../src/background/observation/service.ts';
import { createPanelChannel, type PanelChannelDeps } from '../../../src/background/panel/panel-channel.ts';
import { forgetSite } from '../../../src/background/panel/forget-site.ts';
import { clearAudit } from '../../../src/background/panel/audit-keeping.ts';
import { changeSite } from '../../../src/background/panel/sites.ts';
import type { ToolRegistry } from '../../../src/background/tools/registry.ts';
import type { Pipeline } from '../../../src/pipeline/pipeline.ts';
import { parseReply, type Reply } from '../../../src/protocol/channel.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';
import { said, saidWithRecord } from '../../../src/sidepanel/lib/phrases.ts';
import { refusalWithRecord } from '../../../src/sidepanel/lib/refusal-words.ts';
import { tabGoneMessage } from '../../../src/background/ports/tab-observer.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { fakeFrames } from '../background/core/fake-frames.ts';
import { fakeSites } from '../background/panel/fake-sites.ts';
import { harness } from '../pipeline/fakes.ts';

/**
 * A refused panel request as the person reads it (issue 30.5): the worker's refusal travels with
 * a phrase beside its English, the panel's reply schema checks it, and the panel says it from the
 * person's catalogue; the worker's English when it cannot.
 */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const EN = catalogue('en');
const VI = catalogue('vi');
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(lang === 'en' ? EN : VI, lang === 'en' ? 'en-US' : 'vi'));
/** A Vietnamese message with its placeholders filled in order, as chrome.i18n fills them. */
function vi(key: string, ...values: string[]): string {
  const entry = VI[key];
  if (!entry) throw new Error(`no Vietnamese message ${key}`);
  return entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (_, name: string) =>
    (entry.placeholders?.[name.toLowerCase()]?.content ?? '').replace(/\$(\d)/g, (_m, d: string) => values[Number(d) - 1] ?? ''),
  );
}

afterEach(() => speak('en'));

/** The panel's side: the raw answer parsed by the request's reply schema, as background-client.ts does, then worded. */
function shown<K extends keyof PanelRequests & string>(type: K, raw: unknown): { code: string; words: string; english: string } {
  const reply = parseReply(PanelRequests, type, raw);
  if (reply.ok) throw new Error(`${type} was not refused`);
  return { code: reply.error.code, words: refusalWithRecord(reply.error).words, english: reply.error.message };
}

/** The worker's real panel channel over the test pipeline (src/background/panel/panel-channel.ts). */
async function worker(extra: Partial<PanelChannelDeps> = {}) {
  const h = await harness();
  return createPanelChannel({
    ready: async () => h.pipeline,
    sessions: { sessionFor: async (_agent, tabId) => `ses_tab${tabId}` },
    observeTab: async () => ({ ok: false, error: { code: 'TAB_GONE', message: 'gone', retryable: true } }),
    push: () => undefined,
    sites: fakeSites(),
    tools: { ready: Promise.resolve(), registry: { tab: () => [] } as unknown as ToolRegistry },
    observation: createObservationService(fakeFrames(async () => undefined)),
    ...extra,
  });
}

const failing = (message: string) => () => Promise.reject(new Error(message));

describe('a refused panel request, in the person’s language', () => {
  it('says a refusal in Vietnamese from the catalogue, its values (a token id) as the worker sent them', async () => {
    const channel = await worker();
    const raw = await channel['panel/token-revoke']({ token_id: 'tok_doesnotexist' }, undefined);
    speak('vi');
    const r = shown('panel/token-revoke', raw);
    expect(r.code).toBe('TOKEN_NOT_FOUND');
    expect(r.words).toBe(vi('said_token_not_found', 'tok_doesnotexist'));
    expect(r.words).toBe('Không có token tok_doesnotexist.');
    // What agents, logs and the audit read stays the worker's English.
    expect(r.english).toBe('No token tok_doesnotexist.');
  });

  it('says a lifetime Steward does not grant in Vietnamese, the limit in the person’s digits', async () => {
    const channel = await worker();
    const raw = await channel['panel/token-mint'](
      { agent_id: 'agent:copilot', scope: ['orders:read'], resource_scope: '*', origins: ['http://localhost:4100'], payment: false, ttl_ms: 365 * 24 * 3_600_000 },
      undefined,
    );
    speak('vi');
    const r = shown('panel/token-mint', raw);
    expect(r.code).toBe('INVALID_INPUT');
    expect(r.words).toBe(vi('said_token_lifetime', '2592000000'));
    speak('en');
    expect(shown('panel/token-mint', raw).words).toBe(r.english);
  });

  it('keeps the English byte for byte: what an English panel showed before is what it shows now', async () => {
    speak('en');
    const pipeline = { admin: { clearAudit: failing('the database is closing') } } as unknown as Pipeline;
    const sites = { ...fakeSites(), overview: failing('storage is full'), allow: failing('permission was not granted') };
    const channel = await worker();
    const refusals: Array<[keyof PanelRequests & string, Reply<unknown>]> = [
      ['panel/token-revoke', await channel['panel/token-revoke']({ token_id: 'tok_doesnotexist' }, undefined)],
      ['panel/audit-clear', await clearAudit(pipeline)],
      ['panel/site-forget', await forgetSite({ pipeline, sites }, 'http://localhost:4100')],
      ['panel/site-allow', await changeSite(sites, 'allow', 'http://localhost:4100')],
      ['panel/pairings', await channel['panel/pairings']({}, undefined)],
      [
        'panel/contract-connect',
        await channel['panel/contract-connect']({ origin: 'http://localhost:4100', scopes: ['orders:read'], resource_scope: ['order:*'], payment: false, expires_in_s: 3600 }, undefined),
      ],
      ['copilot/start', await channel['copilot/start']({ tabId: 3, goal: 'cancel my order' } as never, undefined)],
    ];
    for (const [type, raw] of refusals) {
      expect(raw.ok, type).toBe(false);
      expect((raw as { error: { said?: unknown } }).error.said, type).toBeDefined();
      const r = shown(type, raw);
      expect(r.words, type).toBe(r.english);
    }
    speak('vi');
    const inVietnamese = refusals.map(([type, raw]) => shown(type, raw));
    for (const r of inVietnamese) expect(r.words, r.code).not.toBe(r.english);
    expect(inVietnamese.map((r) => r.words)).toContain(vi('said_audit_not_cleared', 'the database is closing'));
    expect(inVietnamese.map((r) => r.words)).toContain(vi('said_unavailable_bridge'));
  });

  it('says why This tab could not be observed in Vietnamese when Steward worded it, and another failure generically with its words behind Details', async () => {
    const gone = await worker({ observeTab: async (tabId) => ({ ok: false, error: { code: 'TAB_GONE', message: tabGoneMessage(tabId), retryable: true } }) });
    const reply = parseReply(PanelRequests, 'panel/observe-tab', await gone['panel/observe-tab']({ tabId: 4 }, undefined));
    if (!reply.ok) throw new Error('observe-tab answers with why, not a refusal');
    speak('vi');
    expect(said(reply.data.error_said, reply.data.error!)).toBe(vi('said_observe_tab_gone', '4'));
    speak('en');
    expect(said(reply.data.error_said, reply.data.error!)).toBe('TAB_GONE: Tab 4 is closed or did not finish loading.');
    // Another failure under the same code is said generically; its words stay one click away.
    const other = await worker({ observeTab: async () => ({ ok: false, error: { code: 'TAB_GONE', message: 'gone', retryable: true } }) });
    const otherReply = parseReply(PanelRequests, 'panel/observe-tab', await other['panel/observe-tab']({ tabId: 4 }, undefined));
    if (!otherReply.ok) throw new Error('observe-tab answers with why, not a refusal');
    speak('vi');
    expect(saidWithRecord(otherReply.data.error_said, otherReply.data.error!)).toEqual({ words: vi('said_observe_failed', '4', 'TAB_GONE'), record: 'TAB_GONE: gone' });
  });

  it('shows the worker’s English for a code the panel does not know, or a phrase missing a value', () => {
    speak('vi');
    const newer = { ok: false, error: { code: 'FROM_A_NEWER_WORKER', message: 'Something a newer worker says.', retryable: false, said: { code: 'something_newer', params: { x: 1 } } } };
    expect(shown('panel/token-revoke', newer).words).toBe('Something a newer worker says.');
    const short = { ok: false, error: { code: 'TOKEN_NOT_FOUND', message: 'No token tok_1.', retryable: false, said: { code: 'token_not_found' } } };
    expect(shown('panel/token-revoke', short).words).toBe('No token tok_1.');
    const none = { ok: false, error: { code: 'INTERNAL', message: 'Error: boom', retryable: true } };
    expect(shown('panel/token-revoke', none).words).toBe('Error: boom');
  });

  it('drops a forged or malformed phrase at the reply schema, keeps the refusal, and shows its English', () => {
    speak('vi');
    const forged = [
      { code: 'token_not_found', params: { id: { toString: 'x' } } },
      { code: 'Token Not Found!', params: { id: 'tok_1' } },
      { code: 'token_not_found', params: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`v${i}`, 'x'])) },
      { code: 'token_not_found', params: { id: 'x'.repeat(2001) } },
      'token_not_found',
      null,
    ];
    for (const said of forged) {
      const raw = { ok: false, error: { code: 'TOKEN_NOT_FOUND', message: 'No token tok_1.', retryable: false, said } };
      const reply = parseReply(PanelRequests, 'panel/token-revoke', raw);
      expect(reply.ok).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code, JSON.stringify(said)).toBe('TOKEN_NOT_FOUND');
      expect(reply.error.said, JSON.stringify(said)).toBeUndefined();
      expect(refusalWithRecord(reply.error)).toEqual({ words: 'No token tok_1.' });
    }
  });
});
