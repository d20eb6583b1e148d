import { agentKeyFromPair, generateAgentKeyPair } from '../../native/agent-key.ts';
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
    return checked(stored);
  }
}

async function newAgentKey(now: number): Promise<StoredAgentKey> {
  const pair = await generateAgentKeyPair();
  const key = await agentKeyFromPair(pair);
  return { private_key: pair.privateKey, public_key: pair.publicKey, public_jwk: key.publicJwk, thumbprint: key.keyid, created_at: now };
}

/**
 * The stored halves must belong together: the keyid is the public key's thumbprint, and the
 * private key signs what that public key verifies (else every site would refuse Steward, unexplained).
 */
async function checked(stored: StoredAgentKey): Promise<AgentKey> {
  const key = await agentKeyFromPair({ privateKey: stored.private_key, publicKey: stored.public_key });
  if (key.keyid !== stored.thumbprint || key.publicJwk.x !== stored.public_jwk.x) throw new Error("The stored agent key's thumbprint does not match its public key.");
  const probe = 'steward.agent-key.check';
  const signature = new Uint8Array(await key.sign(probe));
  if (!(await crypto.subtle.verify('Ed25519', stored.public_key, signature, new TextEncoder().encode(probe)))) {
    throw new Error("The stored agent key's private half does not match its public key.");
  }
  return key;
}
