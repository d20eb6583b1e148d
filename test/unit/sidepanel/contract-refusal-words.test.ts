import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { describeAuthRefusal, describeRefusal } from '../../../src/contract/refusals.ts';
import { AuthRefusalReason, ContractPanelError, ContractSiteView, SiteErrorBody } from '../../../src/protocol/agent-contract.ts';
import { said, saidWithRecord } from '../../../src/sidepanel/lib/phrases.ts';
import { contractControl } from '../../../src/background/contract/contract-control.ts';
import type { ContractClient } from '../../../src/contract/contract-client.ts';
import type { SiteCallError } from '../../../src/contract/site-call.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { demoContract } from '../background/contract/contract-fixtures.ts';

/**
 * Why connecting to a site's agent contract did not work, or why its grant ended, as the panel
 * says it (issue 30.5): the site's refusal in the person's language, the site's name and its own
 * words as they are, and English exactly as before.
 */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(catalogue(lang), lang === 'en' ? 'en-US' : 'vi'));
afterEach(() => speak('en'));

const SITE = 'Larkspur Home Goods';
const refusal = (code: string, message: string, reason?: string) => SiteErrorBody.parse({ error: { code, message, retryable: false, ...(reason !== undefined ? { details: { reason } } : {}) } });

describe('a site’s refusal, in the person’s language', () => {
  const meanings = [
    ...AuthRefusalReason.options.map((reason) => describeAuthRefusal(SITE, reason)),
    describeRefusal(SITE, refusal('TOKEN_INVALID', 'Refused.')),
    describeRefusal(SITE, refusal('SCOPE_DENIED', 'The token does not cover orders:pay.')),
  ];

  it('says in English word for word what the worker wrote for the person', () => {
    speak('en');
    for (const m of meanings) expect(said(m.person_said, '(not said)'), m.person).toBe(m.person);
  });

  it('says it in Vietnamese, the site’s name and its own words unchanged', () => {
    speak('vi');
    for (const m of meanings) {
      const words = said(m.person_said, m.person);
      expect(words, m.person).not.toBe(m.person);
      expect(words).toContain(SITE);
    }
    expect(said(describeAuthRefusal(SITE, 'login_required').person_said, '')).toBe(`Hãy đăng nhập vào ${SITE} trước, rồi kết nối lại.`);
    expect(said(meanings.at(-1)!.person_said, '')).toBe(`${SITE} từ chối: The token does not cover orders:pay.`);
  });

  it('drops a phrase that does not fit from a connect’s refusal and from an ended grant, keeping the English', () => {
    speak('vi');
    const error = ContractPanelError.parse({ code: 'login_required', message: `Sign in to ${SITE} first, then connect again.`, said: { code: 'contract_sign_in', params: { site: ['x'] } } });
    expect(error.said).toBeUndefined();
    expect(said(error.said, error.message)).toBe(error.message);
    const view = ContractSiteView.parse({
      origin: 'http://localhost:4100',
      site_name: SITE,
      contract_url: 'http://localhost:4100/agent/v1/contract',
      offered_scopes: [],
      resource_types: [],
      has_payment_actions: false,
      max_token_ttl_s: 3600,
      connection: { status: 'ended', reason: 'token_revoked', message: 'Revoked.', message_said: 'contract_revoked', at: '2026-12-02T10:00:00.000Z' },
    });
    expect(view.connection.status === 'ended' && said(view.connection.message_said, view.connection.message)).toBe('Revoked.');
  });
});

describe('an answer that does not fit the contract, or a request Steward did not send, in the person’s language', () => {
  const ORIGIN = 'http://localhost:4100';
  const contract = demoContract(ORIGIN);
  const name = contract.site.name;

  /** The worker's real connect (contract-control.ts), the site's grant answer replaced by `error`. */
  async function connectFailing(error: SiteCallError) {
    const control = contractControl({
      registry: { cached: () => ({ origin: ORIGIN, contract_url: `${ORIGIN}/agent/v1/contract`, contract, fetched_at: 0 }) } as never,
      grants: { record: async () => undefined } as never,
      client: async () => ({ requestGrant: async () => ({ ok: false, error }) }) as unknown as ContractClient,
      tabPage: async () => undefined,
      allowed: async () => true,
    });
    const reply = await control.connect({ origin: ORIGIN, scopes: ['orders:read'], resource_scope: ['order:*'], payment: false, expires_in_s: 600 });
    if (reply.ok) throw new Error('connect did not fail');
    // As the panel receives it: through the reply's schema.
    return ContractPanelError.parse(reply.error);
  }

  it('says a malformed grant in Vietnamese with its HTTP status, Steward’s account of it behind Details', async () => {
    const error = await connectFailing({ code: 'bad_response', status: 200, message: 'the grant is malformed at token: Required' });
    speak('vi');
    const shown = saidWithRecord(error.said, error.message);
    expect(shown.words).toBe(
      `${name} trả lời theo cách mà hợp đồng tác tử của trang không cho phép (HTTP 200), nên Steward không dùng câu trả lời đó. Hãy thử lại sau; nếu việc này cứ lặp lại, trang web cần sửa hợp đồng của mình.`,
    );
    expect(shown.record).toBe(`${name}: the grant is malformed at token: Required`);
    speak('en');
    expect(saidWithRecord(error.said, error.message).words).toContain(`${name} answered in a way its agent contract does not allow (HTTP 200)`);
  });

  it('says a request Steward did not send in Vietnamese, why behind Details', async () => {
    const error = await connectFailing({ code: 'not_sent', message: 'the request could not be signed: key unavailable' });
    speak('vi');
    const shown = saidWithRecord(error.said, error.message);
    expect(shown.words).toBe(`Steward đã không gửi yêu cầu này đến ${name}, nên trang web không nhận được gì.`);
    expect(shown.record).toBe(`${name}: the request could not be signed: key unavailable`);
  });

  it('shows the English for a phrase the panel cannot say, and drops a forged one', () => {
    speak('vi');
    const message = `${name}: HTTP 502 without the contract's error form`;
    const missing = ContractPanelError.parse({ code: 'bad_response', message, said: { code: 'contract_bad_answer', params: { site: name } } });
    expect(saidWithRecord(missing.said, missing.message)).toEqual({ words: message });
    const forged = ContractPanelError.parse({ code: 'bad_response', message, said: { code: 'contract_bad_answer', params: { site: name, status: { n: 502 } } } });
    expect(forged.said).toBeUndefined();
    expect(saidWithRecord(forged.said, forged.message)).toEqual({ words: message });
  });
});
