import { calculateJwkThumbprint } from 'jose';
import { AgentPublicJwk } from '../protocol/agent-contract.ts';
import type { AgentKey } from './ports.ts';

/**
 * Steward's agent key from a WebCrypto Ed25519 key pair. The private half stays a CryptoKey (the
 * worker creates it non-extractable and keeps it in IndexedDB); only the public half is exported,
 * as the JWK a site enrols and whose RFC 7638 thumbprint is the signature's `keyid`.
 */
export async function agentKeyFromPair(pair: CryptoKeyPair): Promise<AgentKey> {
  if (pair.privateKey.algorithm.name !== 'Ed25519' || pair.publicKey.algorithm.name !== 'Ed25519') {
    throw new TypeError('the agent key must be an Ed25519 key pair');
  }
  const exported = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const publicJwk = AgentPublicJwk.parse({ kty: exported.kty, crv: exported.crv, x: exported.x });
  const keyid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateKey = pair.privateKey;
  return {
    alg: 'ed25519',
    keyid,
    publicJwk: { ...publicJwk, kid: keyid },
    async sign(data: string): Promise<Uint8Array> {
      return new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, new TextEncoder().encode(data)));
    },
  };
}

/** A fresh agent key pair whose private half can never be exported. */
export async function generateAgentKeyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey('Ed25519', false, ['sign', 'verify'])) as CryptoKeyPair;
}
