import { describe, expect, it } from 'vitest';
import { calculateJwkThumbprint } from 'jose';
import { ProfileAgentKey } from '../../../../src/background/native/agent-key.ts';
import { openNativeVault } from '../../../../src/storage/native-vault.ts';
import { openStewardDb } from '../../../../src/storage/db.ts';
import { freshFactory } from '../../storage/helpers.ts';

const keyOn = (factory: IDBFactory) => new ProfileAgentKey(async () => (await openNativeVault({ factory })).agentKey);

describe("Steward's agent key (one Ed25519 key per profile, in IndexedDB)", () => {
  it('is made on first need, signs what its public JWK verifies, and its keyid is the RFC 7638 thumbprint', async () => {
    const key = await keyOn(freshFactory()).get();
    expect(key.alg).toBe('ed25519');
    expect(key.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(key.keyid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x }, 'sha256'));
    const publicKey = await crypto.subtle.importKey('jwk', key.publicJwk, { name: 'Ed25519' }, false, ['verify']);
    const signature = new Uint8Array(await key.sign('"@method": POST'));
    expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode('"@method": POST'))).toBe(true);
    expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode('"@method": GET'))).toBe(false);
  });

  it('keeps its private half non-extractable in the database', async () => {
    const factory = freshFactory();
    await keyOn(factory).get();
    const stored = await (await openNativeVault({ factory })).agentKey.read();
    expect(stored?.private_key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', stored!.private_key)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('pkcs8', stored!.private_key)).rejects.toThrow();
  });

  it('survives a worker restart: a new worker on the same database has the same identity', async () => {
    const factory = freshFactory();
    const first = await keyOn(factory).get();
    const second = await keyOn(factory).get();
    expect(second.keyid).toBe(first.keyid);
    expect(second.publicJwk).toEqual(first.publicJwk);
  });

  it('concurrent first calls, in one worker or two, end with one key', async () => {
    const factory = freshFactory();
    const one = keyOn(factory);
    const keys = await Promise.all([one.get(), one.get(), keyOn(factory).get(), keyOn(factory).get()]);
    expect(new Set(keys.map((k) => k.keyid)).size).toBe(1);
    const db = await openStewardDb({ factory });
    expect(await db.count('agent_key')).toBe(1);
  });

  it('refuses a stored key whose halves do not belong together, and tries again on the next call', async () => {
    const factory = freshFactory();
    const vault = await openNativeVault({ factory });
    const key = new ProfileAgentKey(async () => vault.agentKey);
    const good = await key.get();
    const stored = (await vault.agentKey.read())!;
    const other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const db = await openStewardDb({ factory });
    await db.put('agent_key', { ...stored, private_key: other.privateKey }, 'agent');
    await expect(new ProfileAgentKey(async () => vault.agentKey).get()).rejects.toThrow(/private half does not match/);
    await db.put('agent_key', stored, 'agent');
    expect((await new ProfileAgentKey(async () => vault.agentKey).get()).keyid).toBe(good.keyid);
  });
});
