import { describe, expect, it } from 'vitest';
import { buildPairingDecision, DEFAULT_PAIRING_EXPIRY_MINUTES, DEFAULT_PAIRING_SCOPES, PAIRING_EXPIRIES } from '../../../src/sidepanel/lib/pairing-form.ts';

const base = { code: '483-192', sites: ['http://localhost:4001'], scopes: DEFAULT_PAIRING_SCOPES, expires_minutes: DEFAULT_PAIRING_EXPIRY_MINUTES };

describe('pairing card form', () => {
  it('offers 1 hour, 1 day, 7 days and 30 days, 1 day and *:* by default', () => {
    expect(PAIRING_EXPIRIES.map(([label]) => label)).toEqual(['1 hour', '1 day', '7 days', '30 days']);
    expect(DEFAULT_PAIRING_EXPIRY_MINUTES).toBe(24 * 60);
    expect(DEFAULT_PAIRING_SCOPES).toBe('*:*');
  });

  it('builds the code and the grant the worker takes', () => {
    expect(buildPairingDecision(base)).toEqual({
      ok: true,
      code: '483-192',
      grant: { scope: ['*:*'], origins: ['http://localhost:4001'], resource_scope: '*', payment: false, ttl_ms: 86_400_000 },
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
