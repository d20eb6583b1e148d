import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { ContractSiteView } from '../../../src/protocol/agent-contract.ts';
import { buildContractConnect, defaultContractForm, expiryChoices, isPaymentScope, shortThumbprint } from '../../../src/sidepanel/lib/contract-form.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (the setup installs English before each test). */
const vietnamese = () => useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue, 'vi'));

const shop = ContractSiteView.parse({
  origin: 'http://localhost:4100',
  site_name: 'Larkspur',
  contract_url: 'http://localhost:4100/agent/v1/contract',
  offered_scopes: [
    { scope: 'orders:read', title: 'See your orders' },
    { scope: 'orders:cancel', title: 'Cancel orders' },
    { scope: 'orders:pay', title: 'Pay for orders' },
    { scope: 'orders:change_address', title: 'Change the delivery address' },
    { scope: 'orders:*', title: 'Everything on your orders' },
  ],
  resource_types: ['order', 'return_request'],
  has_payment_actions: true,
  max_token_ttl_s: 30 * 24 * 3600,
});

describe('the contract consent form', () => {
  it('starts with every offered scope ticked but payment ones and wildcards, each resource type whole, no payment, one hour', () => {
    expect(defaultContractForm(shop)).toEqual({
      scopes: ['orders:read', 'orders:cancel', 'orders:change_address'],
      resource_scope: 'order:*, return_request:*',
      payment: false,
      expires_in_s: 3600,
    });
  });

  it('sends those defaults as the request the worker takes, scopes in the order the site offers them', () => {
    const values = { ...defaultContractForm(shop), scopes: ['orders:cancel', 'orders:read'] };
    expect(buildContractConnect(shop, values)).toEqual({
      ok: true,
      request: { origin: 'http://localhost:4100', scopes: ['orders:read', 'orders:cancel'], resource_scope: ['order:*', 'return_request:*'], payment: false, expires_in_s: 3600 },
    });
  });

  it('takes one resource, or any, and payment when the person ticks it', () => {
    const r = buildContractConnect(shop, { scopes: ['orders:pay'], resource_scope: ' order:ORD-1024 ', payment: true, expires_in_s: 7 * 24 * 3600 });
    expect(r).toMatchObject({ ok: true, request: { scopes: ['orders:pay'], resource_scope: ['order:ORD-1024'], payment: true, expires_in_s: 604_800 } });
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), resource_scope: '*' })).toMatchObject({ ok: true, request: { resource_scope: ['*'] } });
  });

  it('says what is wrong, field by field, instead of sending', () => {
    const r = buildContractConnect(shop, { scopes: [], resource_scope: 'orders', payment: false, expires_in_s: 60 });
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.errors).sort()).toEqual(['expires_in_s', 'resource_scope', 'scopes']);
    expect(!r.ok && r.errors.resource_scope).toContain('“orders” must be');
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), resource_scope: ' , ' })).toMatchObject({ ok: false, errors: { resource_scope: expect.stringContaining('at least one') } });
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), resource_scope: 'order:*, order:*' })).toMatchObject({ ok: false, errors: { resource_scope: expect.stringContaining('twice') } });
  });

  it('sends no scope the site did not offer, and no payment to a site without payment actions', () => {
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), scopes: ['orders:read', 'admin:delete'] })).toMatchObject({ ok: false, errors: { scopes: expect.any(String) } });
    const noPay = { ...shop, has_payment_actions: false };
    expect(buildContractConnect(noPay, { ...defaultContractForm(noPay), payment: true })).toMatchObject({ ok: false, errors: { payment: expect.any(String) } });
  });

  it('offers 1 hour, 1 day and 7 days, capped by what the site allows', () => {
    expect(expiryChoices(30 * 24 * 3600)).toEqual([
      ['1 hour', 3600],
      ['1 day', 86_400],
      ['7 days', 604_800],
    ]);
    expect(expiryChoices(86_400).map(([l]) => l)).toEqual(['1 hour', '1 day']);
    // A site that allows less than an hour: its own cap is the one choice, and the default.
    expect(expiryChoices(900)).toEqual([['15 minutes', 900]]);
    expect(defaultContractForm({ ...shop, max_token_ttl_s: 900 }).expires_in_s).toBe(900);
    expect(buildContractConnect({ ...shop, max_token_ttl_s: 86_400 }, { ...defaultContractForm(shop), expires_in_s: 604_800 })).toMatchObject({
      ok: false,
      errors: { expires_in_s: expect.any(String) },
    });
  });

  it('takes a wildcard when the person ticks it', () => {
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), scopes: ['orders:*'] })).toMatchObject({ ok: true, request: { scopes: ['orders:*'] } });
  });

  it('tells payment scopes by their verb or the site’s title for them', () => {
    expect(isPaymentScope({ scope: 'orders:pay', title: '' })).toBe(true);
    expect(isPaymentScope({ scope: 'subscriptions:renew', title: 'Renew and pay for subscriptions' })).toBe(true);
    expect(isPaymentScope({ scope: 'orders:cancel', title: 'Cancel orders' })).toBe(false);
    // Reading is never a payment, whatever its title mentions.
    expect(isPaymentScope({ scope: 'orders:read', title: 'See your orders and payment status' })).toBe(false);
    expect(isPaymentScope({ scope: 'orders:refund', title: 'Ask for your money back' })).toBe(true);
    expect(isPaymentScope({ scope: 'orders:track', title: 'Track a parcel (prepaid shipping)' })).toBe(false);
  });

  it('shortens a key thumbprint for reading', () => {
    expect(shortThumbprint('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')).toBe('NzbLsXh8uDCc…');
    expect(shortThumbprint('abc')).toBe('abc');
  });

  it('says its lifetimes and what is wrong in Vietnamese in a Vietnamese browser', () => {
    vietnamese();
    expect(expiryChoices(30 * 24 * 3600).map(([l]) => l)).toEqual(['1 giờ', '1 ngày', '7 ngày']);
    expect(expiryChoices(900)).toEqual([['15 phút', 900]]);
    const r = buildContractConnect(shop, { scopes: [], resource_scope: 'orders, order:*, order:*', payment: false, expires_in_s: 3600 });
    expect(r).toMatchObject({ ok: false, errors: { scopes: 'Hãy đánh dấu ít nhất một việc Steward được làm trên trang web này.', resource_scope: expect.stringMatching(/^“orders” phải có dạng /) } });
    expect(buildContractConnect(shop, { ...defaultContractForm(shop), resource_scope: 'order:*, order:*' })).toMatchObject({ ok: false, errors: { resource_scope: '“order:*” bị liệt kê hai lần.' } });
  });
});
