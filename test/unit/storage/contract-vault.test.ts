import { describe, expect, it } from 'vitest';
import { openStewardDb } from '../../../src/storage/db.ts';
import { openContractVault, type StoredSiteGrant } from '../../../src/storage/contract-vault.ts';
import { CorruptRecordError } from '../../../src/storage/read.ts';
import { DB_VERSION, freshFactory } from './helpers.ts';
import { demoContract, demoGrant } from '../background/contract/contract-fixtures.ts';

const ORIGIN = 'http://localhost:4100';

async function agentKeyRecord(origin = ORIGIN) {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  const { kty, crv, x } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const { calculateJwkThumbprint } = await import('jose');
  const public_jwk = { kty: kty as 'OKP', crv: crv as 'Ed25519', x: x! };
  return { origin, private_key: pair.privateKey, public_key: pair.publicKey, public_jwk, thumbprint: await calculateJwkThumbprint(public_jwk, 'sha256'), created_at: 1 };
}

function grantRecord(overrides: Partial<StoredSiteGrant> = {}): StoredSiteGrant {
  return { origin: ORIGIN, contract_url: `${ORIGIN}/agent/v1/contract`, contract: demoContract(ORIGIN), grant: demoGrant(), granted_at: 5, ...overrides };
}

describe('the contract vault (agent key and site grants in the steward database)', () => {
  it('upgrades a v3 database in place: the new stores appear and the old data stays', async () => {
    const factory = freshFactory();
    // A v3 database as the previous release left it.
    await new Promise<void>((resolve, reject) => {
      const req = factory.open('steward', 3);
      req.onupgradeneeded = () => {
        req.result.createObjectStore('audit', { keyPath: 'seq' });
        req.result.createObjectStore('audit_seal');
      };
      req.onsuccess = () => {
        const tx = req.result.transaction('audit', 'readwrite');
        tx.objectStore('audit').put({ seq: 0 });
        tx.oncomplete = () => {
          req.result.close();
          resolve();
        };
      };
      req.onerror = () => reject(req.error);
    });
    const db = await openStewardDb({ factory });
    expect(db.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(5);
    expect([...db.objectStoreNames]).toEqual(expect.arrayContaining(['agent_key', 'site_grants', 'audit']));
    expect(await db.count('audit')).toBe(1);
  });

  it('keeps the first agent key written for a site: a second, racing key is dropped and both callers get the first', async () => {
    const vault = await openContractVault({ factory: freshFactory() });
    expect(await vault.agentKey.read(ORIGIN)).toBeUndefined();
    const [a, b] = [await agentKeyRecord(), await agentKeyRecord()];
    const [kept1, kept2] = await Promise.all([vault.agentKey.keepFirst(a), vault.agentKey.keepFirst(b)]);
    expect(kept1.thumbprint).toBe(a.thumbprint);
    expect(kept2.thumbprint).toBe(a.thumbprint);
    expect((await vault.agentKey.read(ORIGIN))?.thumbprint).toBe(a.thumbprint);
    // Another site gets its own key.
    const other = await agentKeyRecord('http://localhost:4200');
    expect((await vault.agentKey.keepFirst(other)).thumbprint).toBe(other.thumbprint);
    expect((await vault.agentKey.read('http://localhost:4200'))?.thumbprint).not.toBe(a.thumbprint);
  });

  it("refuses a site's key record moved under another site", async () => {
    const factory = freshFactory();
    const vault = await openContractVault({ factory });
    const db = await openStewardDb({ factory });
    await db.put('agent_key', await agentKeyRecord('http://localhost:4200'), ORIGIN);
    await expect(vault.agentKey.read(ORIGIN)).rejects.toBeInstanceOf(CorruptRecordError);
  });

  it('refuses to store an extractable private key, and a stored record that no longer is one is an error, not a key', async () => {
    const factory = freshFactory();
    const vault = await openContractVault({ factory });
    const extractable = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    await expect(vault.agentKey.keepFirst({ ...(await agentKeyRecord()), private_key: extractable.privateKey })).rejects.toThrow(/non-extractable/);
    const db = await openStewardDb({ factory });
    await db.put('agent_key', { ...(await agentKeyRecord()), thumbprint: 'not a thumbprint' } as never, ORIGIN);
    await expect(vault.agentKey.read(ORIGIN)).rejects.toBeInstanceOf(CorruptRecordError);
  });

  it('stores a grant per origin and survives a reopen; ending marks only the grant with that token', async () => {
    const factory = freshFactory();
    const vault = await openContractVault({ factory });
    await vault.grants.put(grantRecord());
    const again = await openContractVault({ factory });
    expect((await again.grants.get(ORIGIN))?.grant.token_id).toBe('tok_site_1');
    // A refusal of an older token never ends the newer grant.
    expect(await again.grants.markEnded(ORIGIN, 'tok_older', { at: 9, reason: 'token_revoked', message: 'revoked' })).toBe(false);
    expect((await again.grants.get(ORIGIN))?.ended).toBeUndefined();
    expect(await again.grants.markEnded(ORIGIN, 'tok_site_1', { at: 9, reason: 'token_revoked', message: 'revoked' })).toBe(true);
    expect(await again.grants.markEnded(ORIGIN, 'tok_site_1', { at: 10, reason: 'token_expired', message: 'again' })).toBe(false);
    expect((await again.grants.get(ORIGIN))?.ended).toEqual({ at: 9, reason: 'token_revoked', message: 'revoked' });
    expect(await again.grants.markEnded('http://other.test', 'tok_site_1', { at: 9, reason: 'x', message: 'y' })).toBe(false);
    await again.grants.delete(ORIGIN);
    expect(await again.grants.all()).toEqual([]);
  });

  it('re-validates grants on read: a corrupt record is an error for get and left out of the list', async () => {
    const factory = freshFactory();
    const vault = await openContractVault({ factory });
    await vault.grants.put(grantRecord());
    await vault.grants.put(grantRecord({ origin: 'http://localhost:4101' }));
    const db = await openStewardDb({ factory });
    await db.put('site_grants', { ...grantRecord(), grant: { ...demoGrant(), token: 'short' } } as never);
    await expect(vault.grants.get(ORIGIN)).rejects.toBeInstanceOf(CorruptRecordError);
    expect((await vault.grants.all()).map((g) => g.origin)).toEqual(['http://localhost:4101']);
    await expect(vault.grants.put({ ...grantRecord(), origin: 'not an origin' })).rejects.toThrow();
  });
});
