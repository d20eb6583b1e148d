import type { AgentContract, AgentPublicJwk, TokenGrant } from '../protocol/agent-contract.ts';

/**
 * The contract path's client (src/contract/) talks to a site only through these ports, so unit tests
 * drive it against the reference shop's real HTTP handler and the worker wires it to `fetch` and
 * the agent key in IndexedDB (src/background/contract/).
 */

/** Longest response body the client reads from a site (a contract, a state, a result); longer is refused. */
export const MAX_RESPONSE_BYTES = 256 * 1024;

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Send the person's cookies for the site. Only the token grant does (the person, logged in to
   * the site, grants it); every other call authenticates with the delegated token and signature.
   */
  withCredentials?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** At most MAX_RESPONSE_BYTES; a longer body is cut and `truncated` set. */
  body: string;
  truncated?: boolean;
}

export interface HttpPort {
  request(req: HttpRequest): Promise<HttpResponse>;
}

/**
 * Steward's agent key: Ed25519, the private half a non-extractable CryptoKey that never leaves
 * the worker. Shaped like web-bot-auth's `Signer` (`alg`, `keyid`, `sign`).
 */
export interface AgentKey {
  readonly alg: 'ed25519';
  /** RFC 7638 JWK thumbprint of the public key: the signature's `keyid` and the token's `cnf.jkt`. */
  readonly keyid: string;
  readonly publicJwk: AgentPublicJwk;
  sign(data: string): Promise<Uint8Array>;
}

/** A site's contract as Steward discovered it: the document, where it came from, and its origin. */
export interface DiscoveredContract {
  origin: string;
  contract_url: string;
  contract: AgentContract;
  fetched_at: number;
}

/** The token a site granted Steward for its agents, held by the worker only (never shown to an agent). */
export interface SiteGrant {
  origin: string;
  contract_url: string;
  grant: TokenGrant;
  granted_at: number;
  /** Set once the site refused the token (revoked, expired, key mismatch): the panel asks the person to connect again. */
  ended?: { at: number; reason: string; message: string };
}
