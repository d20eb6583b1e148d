import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { describeAuthRefusal, describeRefusal } from '../../../src/contract/refusals.ts';
import { AuthRefusalReason, ContractPanelError, ContractSiteView, SiteErrorBody } from '../../../src/protocol/agent-contract.ts';
import { said } from '../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

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
