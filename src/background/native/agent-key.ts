import { calculateJwkThumbprint } from 'jose';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { AgentPublicJwk } from '../../protocol/agent-contract.ts';
import type { AgentKey } from '../../native/ports.ts';
import type { NativeVault, StoredAgentKey } from '../../storage/native-vault.ts';

/**
 * Steward's agent identity on the native path: one Ed25519 key per profile, made on first need.
 * The private half is generated non-extractable and kept as a CryptoKey in IndexedDB, so it can
 * sign inside this worker and nowhere else; sites learn only the public JWK and its thumbprint.
 */
export class ProfileAgentKey {
  private loading: Promise<AgentKey> | undefined;

  constructor(
    private readonly vault: () => Promise<NativeVault['agentKey']>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key, created once: concurrent first calls share one creation, and the store keeps the first key written. */
  get(): Promise<AgentKey> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<AgentKey> {
    const store = await this.vault();
    const stored = (await store.read()) ?? (await store.keepFirst(await newAgentKey(this.now())));
    return signerOf(await checked(stored));
  }
}

/**
 * The stored halves must belong together: the keyid is the public JWK's thumbprint and the private
 * key signs what that public key verifies (else every site would refuse Steward, unexplained).
 */
async function checked(stored: StoredAgentKey): Promise<StoredAgentKey> {
  if ((await calculateJwkThumbprint(stored.public_jwk, 'sha256')) !== stored.thumbprint) throw new Error("The stored agent key's thumbprint does not match its public key.");
  const probe = new TextEncoder().encode('steward.agent-key.check');
  const publicKey = await crypto.subtle.importKey('jwk', stored.public_jwk, { name: 'Ed25519' }, false, ['verify']);
  const signature = await crypto.subtle.sign('Ed25519', stored.private_key, probe);
  if (!(await crypto.subtle.verify('Ed25519', publicKey, signature, probe))) throw new Error("The stored agent key's private half does not match its public key.");
  return stored;
}

async function newAgentKey(now: number): Promise<StoredAgentKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  const { kty, crv, x } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  // Only the RFC 7638 members: what the site enrolls and what the thumbprint covers.
  const publicJwk = AgentPublicJwk.parse({ kty, crv, x });
  return { private_key: pair.privateKey, public_jwk: publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'), created_at: now };
}

function signerOf(stored: StoredAgentKey): AgentKey {
  const signer = new Ed25519Signer(stored.thumbprint, stored.private_key);
  return { alg: 'ed25519', keyid: stored.thumbprint, publicJwk: stored.public_jwk, sign: (data) => signer.sign(data) };
}
