import { agentKeyFromPair, generateAgentKeyPair } from '../../contract/agent-key.ts';
import type { AgentKey } from '../../contract/ports.ts';
import type { ContractVault, StoredAgentKey } from '../../storage/contract-vault.ts';

/**
 * Steward's agent identity on the contract path: one Ed25519 key per site origin, made on first
 * need, so two sites comparing the keys their grants are bound to cannot tell it is the same
 * person. The private half is generated non-extractable and kept as a CryptoKey in IndexedDB,
 * so it can sign inside this worker and nowhere else; a site learns only its own key's public
 * JWK and thumbprint.
 */
export class SiteAgentKeys {
  private readonly loading = new Map<string, Promise<AgentKey>>();

  constructor(
    private readonly vault: () => Promise<ContractVault['agentKey']>,
    private readonly now: () => number = Date.now,
  ) {}

  /** `origin`'s key, created once: concurrent first calls share one creation, and the store keeps the first key written. */
  get(origin: string): Promise<AgentKey> {
    const site = new URL(origin).origin;
    let loading = this.loading.get(site);
    if (!loading) {
      loading = this.load(site).catch((error: unknown) => {
        this.loading.delete(site);
        throw error;
      });
      this.loading.set(site, loading);
    }
    return loading;
  }

  private async load(origin: string): Promise<AgentKey> {
    const store = await this.vault();
    const stored = (await store.read(origin)) ?? (await store.keepFirst(await newAgentKey(origin, this.now())));
    return checked(stored);
  }
}

async function newAgentKey(origin: string, now: number): Promise<StoredAgentKey> {
  const pair = await generateAgentKeyPair();
  const key = await agentKeyFromPair(pair);
  return { origin, private_key: pair.privateKey, public_key: pair.publicKey, public_jwk: key.publicJwk, thumbprint: key.keyid, created_at: now };
}

/**
 * The stored halves must belong together: the keyid is the public key's thumbprint, and the
 * private key signs what that public key verifies (else the site would refuse Steward, unexplained).
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
