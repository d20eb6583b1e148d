/**
 * Request signatures: HTTP Message Signatures in the Web Bot Auth profile (web-bot-auth does the
 * cryptography), the components every request must cover, the validity window, the nonce replay
 * cache, and the body's Content-Digest (RFC 9530, parsed with structured-headers).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { isInnerList, parseDictionary, parseItem } from 'structured-headers';
import { HTTP_MESSAGE_SIGNATURE_TAG, validateNonce, verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import type { AgentPublicJwk } from '../../../src/protocol/agent-contract.ts';
import { MAX_SIGNATURE_VALIDITY_S } from './contract.ts';
import { authRefusal } from './errors.ts';

/** Bound on remembered nonces; past it the oldest go first (they expire within minutes anyway). */
const MAX_NONCES = 100_000;

/** Nonces seen, each kept until its signature expires (a replay after that fails as expired). */
export class NonceCache {
  private seen = new Map<string, number>();

  reset(): void {
    this.seen.clear();
  }

  /** False when the nonce was already used. */
  claim(nonce: string, expiresAtMs: number): boolean {
    const now = Date.now();
    if (this.seen.size >= MAX_NONCES) {
      for (const [n, until] of this.seen) if (until < now || this.seen.size >= MAX_NONCES) this.seen.delete(n);
    }
    const until = this.seen.get(nonce);
    if (until !== undefined && until >= now) return false;
    this.seen.set(nonce, expiresAtMs);
    return true;
  }
}

export interface SignedRequest {
  method: string;
  /** Absolute URL as the agent addressed it (`http://<host><path>`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Components the signature must cover for this request. */
function requiredComponents(req: SignedRequest): string[] {
  const required = ['@method', '@authority', '@path', 'signature-agent'];
  if (new URL(req.url).search !== '') required.push('@query');
  for (const h of ['authorization', 'idempotency-key', 'if-match']) if (header(req.headers, h) !== undefined) required.push(h);
  if (req.body.length > 0) required.push('content-digest');
  return required;
}

interface SignatureInput {
  components: string[];
  keyid: string;
}

function parseSignatureInput(value: string): SignatureInput {
  let dict;
  try {
    dict = parseDictionary(value);
  } catch {
    throw authRefusal('signature_invalid', 'Signature-Input is not a structured-field dictionary.');
  }
  if (dict.size !== 1) throw authRefusal('signature_invalid', 'Send exactly one signature (label sig1).');
  const entry = [...dict.values()][0];
  if (!entry || !isInnerList(entry)) throw authRefusal('signature_invalid', 'Signature-Input must list the covered components.');
  const [items, params] = entry;
  const components = items.map(([c]) => (typeof c === 'string' ? c : ''));
  const keyid = params.get('keyid');
  if (typeof keyid !== 'string') throw authRefusal('signature_invalid', 'Signature-Input has no keyid.');
  if (params.get('tag') !== HTTP_MESSAGE_SIGNATURE_TAG) throw authRefusal('signature_invalid', `The signature's tag must be "${HTTP_MESSAGE_SIGNATURE_TAG}".`);
  const alg = params.get('alg');
  if (alg !== undefined && alg !== 'ed25519') throw authRefusal('signature_invalid', 'Only ed25519 signatures are accepted.');
  const created = params.get('created');
  const expires = params.get('expires');
  if (typeof created !== 'number' || typeof expires !== 'number') throw authRefusal('signature_invalid', 'The signature needs created and expires.');
  if (expires - created > MAX_SIGNATURE_VALIDITY_S) throw authRefusal('signature_invalid', `A signature may be valid for at most ${MAX_SIGNATURE_VALIDITY_S} seconds.`);
  const nonce = params.get('nonce');
  if (typeof nonce !== 'string' || !validateNonce(nonce)) throw authRefusal('signature_invalid', 'The signature needs a 64-byte base64 nonce.');
  return { components, keyid };
}

function checkDigest(req: SignedRequest): void {
  if (req.body.length === 0) return;
  const value = header(req.headers, 'content-digest');
  if (!value) throw authRefusal('digest_mismatch', 'A request with a body needs Content-Digest: sha-256=:<base64>:.');
  let expected: ArrayBuffer | undefined;
  try {
    const member = parseDictionary(value).get('sha-256');
    if (member && !isInnerList(member) && member[0] instanceof ArrayBuffer) expected = member[0];
  } catch {
    // falls through to the refusal below
  }
  if (!expected) throw authRefusal('digest_mismatch', 'Content-Digest has no sha-256 value.');
  const actual = createHash('sha256').update(req.body).digest();
  if (!actual.equals(Buffer.from(expected))) throw authRefusal('digest_mismatch', 'The body does not match its Content-Digest.');
}

function refusalFor(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/expired/i.test(message)) return authRefusal('signature_expired', 'The signature has expired; sign the request again.');
  return authRefusal('signature_invalid', `The signature does not verify: ${message.slice(0, 200)}`);
}

/**
 * Verifies that `key` (thumbprint `keyThumbprint`) signed this request, covering what it must, with
 * a fresh nonce and a body that matches its digest. Throws a 401 refusal with the reason.
 */
export async function verifySignedRequest(req: SignedRequest, key: AgentPublicJwk, keyThumbprint: string, nonces: NonceCache): Promise<void> {
  const input = header(req.headers, 'signature-input');
  const signature = header(req.headers, 'signature');
  if (!input || !signature) throw authRefusal('signature_missing', 'Sign the request (Signature-Input, Signature, Signature-Agent; Web Bot Auth).');
  const agent = header(req.headers, 'signature-agent');
  if (!agent) throw authRefusal('signature_missing', 'Send Signature-Agent naming the key directory.');
  try {
    if (typeof parseItem(agent)[0] !== 'string') throw new Error('not a string');
  } catch {
    throw authRefusal('signature_invalid', 'Signature-Agent must be a structured-field string.');
  }
  const parsed = parseSignatureInput(input);
  const missing = requiredComponents(req).filter((c) => !parsed.components.includes(c));
  if (missing.length > 0) throw authRefusal('signature_invalid', `The signature must cover ${missing.map((c) => `"${c}"`).join(' ')}.`);
  if (parsed.keyid !== keyThumbprint) throw authRefusal('key_mismatch', 'The request is signed by another key than the one the token is bound to.');
  let nonce = '';
  let expiresAt = 0;
  try {
    const verifyWithKey = await verifierFromJWK({ kty: key.kty, crv: key.crv, x: key.x });
    await verify({ method: req.method, url: req.url, headers: req.headers as Record<string, string | string[]> }, async (data, sig, params) => {
      nonce = params.nonce ?? '';
      expiresAt = params.expires.getTime();
      await verifyWithKey(data, sig, params);
    });
  } catch (err) {
    throw refusalFor(err);
  }
  if (!nonces.claim(nonce, expiresAt)) throw authRefusal('nonce_replayed', 'This signature nonce was already used; sign the request again.');
  checkDigest(req);
}
