import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { buildPairingDecision, defaultPairingSites, DEFAULT_PAIRING_EXPIRY_MINUTES, DEFAULT_PAIRING_SCOPES, describePairingGrant, pairingExpiries } from '../../../src/sidepanel/lib/pairing-form.ts';
import { floodingSources, sourceWords } from '../../../src/sidepanel/lib/pairing-sources.ts';
import type { PairingView } from '../../../src/protocol/bridge.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (setup-browser.ts installs English before each test). */
const vietnamese = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;

const base = { code: '483-192', sites: ['http://localhost:4001'], scopes: DEFAULT_PAIRING_SCOPES, expires_minutes: DEFAULT_PAIRING_EXPIRY_MINUTES };

describe('pairing card form', () => {
  it('offers 1 hour, 1 day, 7 days and 30 days; narrow by default: reading, one hour, the current tab’s site only', () => {
    expect(pairingExpiries().map(([label]) => label)).toEqual(['1 hour', '1 day', '7 days', '30 days']);
    expect(DEFAULT_PAIRING_EXPIRY_MINUTES).toBe(60);
    expect(DEFAULT_PAIRING_SCOPES).toBe('*:read');
    expect(defaultPairingSites('http://localhost:4001', ['http://localhost:4001', 'http://localhost:4101'])).toEqual(['http://localhost:4001']);
    // A tab on a site Steward may not use ticks nothing: the person chooses.
    expect(defaultPairingSites('http://elsewhere.test', ['http://localhost:4001'])).toEqual([]);
    expect(defaultPairingSites(undefined, ['http://localhost:4001'])).toEqual([]);
  });

  it('builds the code and the grant the worker takes', () => {
    expect(buildPairingDecision(base)).toEqual({
      ok: true,
      code: '483-192',
      grant: { scope: ['*:read'], origins: ['http://localhost:4001'], resource_scope: '*', payment: false, ttl_ms: 3_600_000 },
    });
  });

  it('grants payment only when the person ticks it (each payment is still approved on its own)', () => {
    expect(buildPairingDecision(base)).toMatchObject({ ok: true, grant: { payment: false } });
    expect(buildPairingDecision({ ...base, payment: false })).toMatchObject({ ok: true, grant: { payment: false } });
    expect(buildPairingDecision({ ...base, payment: true })).toMatchObject({ ok: true, grant: { payment: true } });
  });

  it('takes the code as a person types it: with a space, without the dash', () => {
    expect(buildPairingDecision({ ...base, code: '483192' })).toMatchObject({ ok: true, code: '483-192' });
    expect(buildPairingDecision({ ...base, code: ' 483 192 ' })).toMatchObject({ ok: true, code: '483-192' });
  });

  it('splits scopes on spaces and commas', () => {
    const r = buildPairingDecision({ ...base, scopes: 'orders:read, orders:cancel' });
    expect(r.ok && r.grant.scope).toEqual(['orders:read', 'orders:cancel']);
  });

  it('says what is wrong, field by field', () => {
    const r = buildPairingDecision({ code: '48319', sites: [], scopes: 'cancel everything', expires_minutes: 5 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.code).toMatch(/6-digit code/);
    expect(r.errors.sites).toMatch(/at least one site/);
    expect(r.errors.scopes).toMatch(/“cancel”/);
    expect(r.errors.expires_minutes).toMatch(/offered/);
  });

  it('an empty scope list is refused rather than granting nothing', () => {
    const r = buildPairingDecision({ ...base, scopes: '  ' });
    expect(!r.ok && r.errors.scopes).toMatch(/at least one scope/);
  });
});

describe('pairing card words', () => {
  const here = 'http://localhost:4001';
  const allowed = [here, 'http://localhost:4101', 'http://localhost:4201'];
  const narrow = { sites: [here], scopes: DEFAULT_PAIRING_SCOPES, expires_minutes: DEFAULT_PAIRING_EXPIRY_MINUTES };

  it('the default says what it grants and nothing is wider', () => {
    expect(describePairingGrant(narrow, here, allowed)).toEqual({ summary: `It may read on ${here} for 1 hour. It cannot act.`, wider: [] });
  });

  it('states each widening in words: every allowed site, acting, a longer life, payment', () => {
    const wide = describePairingGrant({ sites: allowed, scopes: '*:*', expires_minutes: 7 * 24 * 60, payment: true }, here, allowed);
    expect(wide.summary).toBe('It may read and act on 3 sites for 7 days. Each consequential action still asks you.');
    expect(wide.wider).toEqual([
      `All 3 allowed sites besides this tab’s site (${here}): http://localhost:4101, http://localhost:4201.`,
      'It may take any action (*:*), not only read.',
      'It lasts 7 days, longer than one hour.',
      'It may touch payment (each payment still needs your approval).',
    ]);
    expect(describePairingGrant({ ...narrow, scopes: 'orders:read orders:cancel' }, here, allowed).wider).toEqual(['It may act, not only read: orders:cancel.']);
  });

  it('in Vietnamese: the same grant, the lifetimes and the sites unchanged', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    expect(pairingExpiries().map(([label]) => label)).toEqual(['1 giờ', '1 ngày', '7 ngày', '30 ngày']);
    const wide = describePairingGrant({ sites: allowed, scopes: '*:*', expires_minutes: 7 * 24 * 60, payment: false }, here, allowed);
    expect(wide.summary).toBe('Ứng dụng được đọc và thao tác trên 3 trang web trong 7 ngày. Mỗi thao tác quan trọng vẫn hỏi bạn.');
    expect(wide.wider[0]).toBe(`Cả 3 trang web được cho phép ngoài trang web của thẻ này (${here}): http://localhost:4101, http://localhost:4201.`);
    expect(sourceWords('conn-3f2a9c01a2b3/http:default', 'http')).toBe('kết nối cầu nối HTTP 3f2a9c, bearer default');
  });
});

describe('pairing sources', () => {
  const view = (id: string, source: string, name = id): PairingView => ({
    pairing_id: `pair_${id.padEnd(8, 'x')}`,
    client: { name, transport: source.includes('http') ? 'http' : 'stdio' },
    requested_at: '2026-12-01T10:00:00.000Z',
    expires_at: '2026-12-01T10:10:00.000Z',
    wrong_codes: 0,
    source,
  });

  it('names a source in words', () => {
    expect(sourceWords('conn-3f2a9c01a2b3', 'stdio')).toBe('stdio bridge connection 3f2a9c');
    expect(sourceWords('conn-3f2a9c01a2b3/http:default', 'http')).toBe('HTTP bridge connection 3f2a9c, bearer default');
  });

  it('a flood is a source with more than one request waiting, the largest first', () => {
    const groups = floodingSources([
      view('a1', 'conn-aaaa'),
      view('b1', 'conn-bbbb'),
      view('a2', 'conn-aaaa'),
      view('c1', 'conn-cccc/http:default'),
      view('c2', 'conn-cccc/http:default'),
      view('c3', 'conn-cccc/http:default'),
    ]);
    expect(groups.map((g) => [g.source, g.requests.length])).toEqual([
      ['conn-cccc/http:default', 3],
      ['conn-aaaa', 2],
    ]);
  });
});
