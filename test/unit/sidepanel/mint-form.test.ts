import { describe, expect, it } from 'vitest';
import { PanelMessage } from '../protocol/wire-schema.ts';
import { buildMint, type MintFormValues } from '../../../src/sidepanel/lib/mint-form.ts';

const good: MintFormValues = {
  agent_id: 'agent:copilot',
  scopes: 'orders:read, orders:cancel',
  resource_scope: 'order:ORD-1024',
  origins: 'http://localhost:4100/',
  payment: false,
  lifetime_minutes: 60,
};

describe('buildMint', () => {
  it('turns the form into a valid panel/token-mint message', () => {
    const r = buildMint(good);
    expect(r).toEqual({
      ok: true,
      message: {
        type: 'panel/token-mint',
        agent_id: 'agent:copilot',
        scope: ['orders:read', 'orders:cancel'],
        resource_scope: 'order:ORD-1024',
        origins: ['http://localhost:4100'],
        payment: false,
        ttl_ms: 3_600_000,
      },
    });
    if (r.ok) expect(PanelMessage.safeParse(r.message).success).toBe(true);
  });

  it('reports every bad field with a message a person can act on', () => {
    const r = buildMint({ agent_id: 'copilot', scopes: '', resource_scope: 'order', origins: 'localhost:4100', payment: true, lifetime_minutes: 0 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['agent_id', 'lifetime_minutes', 'origins', 'resource_scope', 'scopes']);
    expect(r.errors.agent_id).toMatch(/agent:<name>/);
    expect(r.errors.scopes).toMatch(/at least one scope/);
    expect(r.errors.resource_scope).toMatch(/order:ORD-1024/);
    expect(r.errors.origins).toMatch(/“localhost:4100”/);
  });

  it('refuses a malformed scope, a repeated origin, and a lifetime over 30 days', () => {
    const r = buildMint({ ...good, scopes: 'orders.cancel', origins: 'https://a.example https://a.example', lifetime_minutes: 31 * 24 * 60 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.scopes).toMatch(/“orders.cancel”.*namespace>:<verb>/);
    expect(r.errors.origins).toMatch(/listed twice/);
    expect(r.errors.lifetime_minutes).toMatch(/30 days/);
  });
});

describe('a pasted origin', () => {
  /** The origin the form sends for `text`, or the item its error quotes when it refuses it. */
  const normalizeOrigin = (text: string) => {
    const r = buildMint({ ...good, origins: text });
    return r.ok ? r.message.origins.join(' ') : /“(.+?)”/.exec(r.errors.origins ?? '')?.[1];
  };

  it('drops only a bare trailing slash', () => {
    expect(normalizeOrigin('https://a.example/')).toBe('https://a.example');
    expect(normalizeOrigin('https://a.example/path')).toBe('https://a.example/path');
    // (One item: the form splits a list at spaces and commas.)
    expect(normalizeOrigin('not-a-url')).toBe('not-a-url');
  });
});
