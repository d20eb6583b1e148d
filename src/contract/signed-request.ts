import { serializeDictionary, serializeItem } from 'structured-headers';
import { signatureHeaders } from 'web-bot-auth';
import type { Clock } from '../base/clock.ts';
import { KEY_DIRECTORY_PATH } from '../protocol/agent-contract.ts';
import type { AgentKey, HttpRequest } from './ports.ts';

/**
 * Every request Steward makes to a contract site, signed (HTTP Message Signatures, Web Bot Auth
 * profile; docs/agent-contract.md): the site learns which agent key is acting and that nothing
 * covered was changed on the way. Only Steward's own calls are signed; page traffic never is.
 */

/** How long a signature is good for: long enough for a slow network, short enough that a copy is soon useless. */
const SIGNATURE_VALIDITY_S = 60;

export interface UnsignedRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Serialized JSON; its SHA-256 goes in Content-Digest and is covered. */
  body?: string;
  /** The delegated token, sent as `Authorization: Bearer …`. */
  token?: string;
  idempotencyKey?: string;
  /** The state_version the call was planned on; sent as `If-Match: "<n>"`. */
  ifMatch?: number;
  withCredentials?: boolean;
  /** The site's key directory path (the contract's `endpoints.key_directory`). */
  keyDirectoryPath?: string;
  /** The site's longest accepted validity (`auth.signature.max_validity_s`); the signature never exceeds it. */
  maxValidityS?: number;
}

/** A header value must be visible ASCII: a hostile site's token can never smuggle a line break into a request. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function checkedHeader(name: string, value: string): string {
  if (!HEADER_VALUE.test(value) || value.length > 8192) throw new TypeError(`${name} must be visible ASCII of at most 8192 characters`);
  return value;
}

/** RFC 9530 `Content-Digest: sha-256=:<base64>:`, serialized as a structured-field dictionary. */
async function contentDigest(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  return serializeDictionary({ 'sha-256': digest });
}

/** `Signature-Agent`: an sf-string naming the site's own directory of the keys it enrolled (the site never fetches an agent-supplied URL). */
function signatureAgent(url: URL, keyDirectoryPath: string = KEY_DIRECTORY_PATH): string {
  return serializeItem(new URL(keyDirectoryPath, url.origin).href);
}

/**
 * Builds the request with its signature: covered `@method @authority @path signature-agent`,
 * plus `@query` when the URL has one, and `authorization`, `idempotency-key`, `if-match`,
 * `content-digest` when present. Throws a TypeError on a bad URL or header value (nothing is sent).
 */
export async function signedRequest(input: UnsignedRequest, key: AgentKey, now: Clock): Promise<HttpRequest> {
  const url = new URL(input.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url.protocol}`);
  const headers: Record<string, string> = { accept: 'application/json', 'signature-agent': signatureAgent(url, input.keyDirectoryPath) };
  const components = ['@method', '@authority', '@path'];
  if (url.search !== '') components.push('@query');
  components.push('signature-agent');
  if (input.token !== undefined) {
    headers.authorization = checkedHeader('Authorization', `Bearer ${input.token}`);
    components.push('authorization');
  }
  if (input.idempotencyKey !== undefined) {
    headers['idempotency-key'] = checkedHeader('Idempotency-Key', input.idempotencyKey);
    components.push('idempotency-key');
  }
  if (input.ifMatch !== undefined) {
    if (!Number.isSafeInteger(input.ifMatch) || input.ifMatch < 0) throw new TypeError('If-Match must carry a non-negative integer state_version');
    headers['if-match'] = `"${input.ifMatch}"`;
    components.push('if-match');
  }
  if (input.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-digest'] = await contentDigest(input.body);
    components.push('content-digest');
  }

  // Whole seconds, as the signature carries them; created is never ahead of the clock.
  const createdS = Math.floor(now() / 1000);
  const validityS = Math.max(1, Math.min(SIGNATURE_VALIDITY_S, input.maxValidityS ?? SIGNATURE_VALIDITY_S));
  const signed = await signatureHeaders({ method: input.method, url: url.href, headers }, key, {
    created: new Date(createdS * 1000),
    expires: new Date((createdS + validityS) * 1000),
    components,
  });
  headers['signature-input'] = signed['Signature-Input'];
  headers.signature = signed.Signature;

  const request: HttpRequest = { method: input.method, url: url.href, headers };
  if (input.body !== undefined) request.body = input.body;
  if (input.withCredentials) request.withCredentials = true;
  return request;
}
