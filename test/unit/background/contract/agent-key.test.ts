import { describe, expect, it } from 'vitest';
import { calculateJwkThumbprint } from 'jose';
import { SiteAgentKeys } from '../../../../src/background/contract/agent-key.ts';
import { openContractVault } from '../../../../src/storage/contract-vault.ts';
import { openStewardDb } from '../../../../src/storage/db.ts';
import { freshFactory } from '../../storage/helpers.ts';

const SHOP = 'http://localhost:4100';
const CLINIC = 'http://localhost:4200';
const keysOn = (factory: IDBFactory) => new SiteAgentKeys(async () => (await openContractVault({ factory })).agentKey);

describe("Steward's agent keys (one Ed25519 key per site, in IndexedDB)", () => {
  it('is made on first need, signs what its public JWK verifies, and its keyid is the RFC 7638 thumbprint', async () => {
    const key = await keysOn(freshFactory()).get(SHOP);
    expect(key.alg).toBe('ed25519');
    expect(key.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(key.keyid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x }, 'sha256'));
    const publicKey = await crypto.subtle.importKey('jwk', key.publicJwk, { name: 'Ed25519' }, false, ['verify']);
    const signature = new Uint8Array(await key.sign('"@method": POST'));
    expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode('"@method": POST'))).toBe(true);
    expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode('"@method": GET'))).toBe(false);
  });

  it('gives each site its own key, so two sites cannot link the person by the key their grants are bound to', async () => {
    const keys = keysOn(freshFactory());
    const [shop, clinic, shopAgain] = await Promise.all([keys.get(SHOP), keys.get(CLINIC), keys.get(`${SHOP}/orders/ORD-1024`)]);
    expect(clinic.keyid).not.toBe(shop.keyid);
    expect(clinic.publicJwk.x).not.toBe(shop.publicJwk.x);
    // A page URL of the site is the same site.
    expect(shopAgain.keyid).toBe(shop.keyid);
  });

  it('keeps its private half non-extractable in the database', async () => {
    const factory = freshFactory();
    await keysOn(factory).get(SHOP);
    const stored = await (await openContractVault({ factory })).agentKey.read(SHOP);
    expect(stored?.private_key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', stored!.private_key)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('pkcs8', stored!.private_key)).rejects.toThrow();
  });

  it('survives a worker restart: a new worker on the same database has the same identity for each site', async () => {
    const factory = freshFactory();
    const first = await keysOn(factory).get(SHOP);
    const second = await keysOn(factory).get(SHOP);
    expect(second.keyid).toBe(first.keyid);
    expect(second.publicJwk).toEqual(first.publicJwk);
  });

  it('concurrent first calls, in one worker or two, end with one key per site', async () => {
    const factory = freshFactory();
    const one = keysOn(factory);
    const keys = await Promise.all([one.get(SHOP), one.get(SHOP), keysOn(factory).get(SHOP), keysOn(factory).get(SHOP)]);
    expect(new Set(keys.map((k) => k.keyid)).size).toBe(1);
    const db = await openStewardDb({ factory });
    expect(await db.count('agent_key')).toBe(1);
  });

  it('refuses a stored key whose halves do not belong together, and tries again on the next call', async () => {
    const factory = freshFactory();
    const vault = await openContractVault({ factory });
    const good = await new SiteAgentKeys(async () => vault.agentKey).get(SHOP);
    const stored = (await vault.agentKey.read(SHOP))!;
    const other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const db = await openStewardDb({ factory });
    await db.put('agent_key', { ...stored, private_key: other.privateKey }, SHOP);
    const keys = new SiteAgentKeys(async () => vault.agentKey);
    await expect(keys.get(SHOP)).rejects.toThrow(/private half does not match/);
    await db.put('agent_key', stored, SHOP);
    expect((await keys.get(SHOP)).keyid).toBe(good.keyid);
  });
});
