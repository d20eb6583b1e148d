import { SiteErrorBody } from '../protocol/agent-contract.ts';
import { MAX_RESPONSE_BYTES, type DiscoveredContract, type HttpPort, type HttpRequest, type HttpResponse, type SiteGrant } from './ports.ts';

/**
 * What every call to a contract site shares: URLs built only from the contract's endpoints on the
 * contract's own origin, a bounded body, JSON that is parsed before anyone looks at it, and
 * failures sorted by what they mean for a side effect.
 */

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** Why a call to the site did not give the answer asked for. */
export type SiteCallError =
  /** Steward refused before sending (a URL off the contract's origin, an ended grant, bad input): the site saw nothing. */
  | { code: 'not_sent'; message: string }
  /** No HTTP answer (network error, connection refused): the site may or may not have received it. */
  | { code: 'unreachable'; message: string; origin?: string; cause?: string }
  /** The site refused in the contract's error form (`site_error.error.code`, 401's `details.reason`). */
  | { code: 'refused'; status: number; message: string; site_error: SiteErrorBody }
  /** An answer that is not what the contract promises (unexpected status, too large, not JSON, wrong shape). */
  | { code: 'bad_response'; status: number; message: string };

/** One HTTP answer with its body parsed as JSON, or why there is none. */
export type SiteAnswer = { kind: 'json'; status: number; headers: Record<string, string>; json: unknown } | { kind: 'failed'; error: SiteCallError };

/** Sends through the port; the body must be JSON within MAX_RESPONSE_BYTES. */
export async function sendToSite(http: HttpPort, request: HttpRequest): Promise<SiteAnswer> {
  let response: HttpResponse;
  try {
    response = await http.request(request);
  } catch (error) {
    const origin = new URL(request.url).origin;
    const cause = messageOf(error);
    return { kind: 'failed', error: { code: 'unreachable', message: `${origin} did not answer: ${cause}`, origin, cause } };
  }
  if (response.truncated || response.body.length > MAX_RESPONSE_BYTES) {
    return { kind: 'failed', error: { code: 'bad_response', status: response.status, message: `the answer is larger than ${MAX_RESPONSE_BYTES} bytes` } };
  }
  try {
    return { kind: 'json', status: response.status, headers: response.headers, json: JSON.parse(response.body) as unknown };
  } catch {
    return { kind: 'failed', error: { code: 'bad_response', status: response.status, message: `the answer (HTTP ${response.status}) is not JSON` } };
  }
}

/** A non-2xx answer: the site's refusal when it is in the contract's error form, else a bad response. */
export function siteRefusal(status: number, json: unknown): SiteCallError {
  const parsed = SiteErrorBody.safeParse(json);
  if (parsed.success) return { code: 'refused', status, message: parsed.data.error.message, site_error: parsed.data };
  return { code: 'bad_response', status, message: `HTTP ${status} without the contract's error form` };
}

/** A body of the wrong shape, said briefly (`what` names it; the first issue's path and message). */
export function shapeError(status: number, what: string, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): SiteCallError {
  const first = issues[0];
  const where = first && first.path.length > 0 ? ` at ${first.path.map(String).join('.')}` : '';
  return { code: 'bad_response', status, message: `${what} is malformed${where}: ${first?.message ?? 'unknown'}`.slice(0, 1024) };
}

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 512);
}

/**
 * An endpoint's absolute URL on the contract's origin, with `{type}`, `{id}`, `{action_id}`
 * filled in URL-encoded. Undefined when the result would leave the origin.
 */
export function endpointUrl(contract: DiscoveredContract, template: string, params: Readonly<Record<string, string>> = {}): string | undefined {
  const path = template.replace(/\{(type|id|action_id)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  if (!path.startsWith('/') || path.startsWith('//')) return undefined;
  try {
    const url = new URL(path, contract.origin);
    return url.origin === contract.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A site-given path (a status_url) as an absolute URL on the contract's origin. Only a path is
 * accepted, or an absolute URL already on that origin; anything else is refused.
 */
export function sameOriginUrl(contract: DiscoveredContract, pathOrUrl: string): string | undefined {
  if (pathOrUrl.length > 2048 || /[\s\\]/.test(pathOrUrl)) return undefined;
  const isPath = pathOrUrl.startsWith('/') && !pathOrUrl.startsWith('//');
  try {
    const url = isPath ? new URL(pathOrUrl, contract.origin) : new URL(pathOrUrl);
    return url.origin === contract.origin && url.username === '' && url.password === '' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Why this grant cannot be used with this contract, or undefined when it can. */
export function grantProblem(contract: DiscoveredContract, grant: SiteGrant, keyid: string, now: number): string | undefined {
  if (grant.origin !== contract.origin) return `the grant is for ${grant.origin}, not ${contract.origin}`;
  if (grant.grant.key_thumbprint !== keyid) return "the grant is bound to another agent key than Steward's";
  if (grant.ended) return `the site ended Steward's access (${grant.ended.reason})`;
  if (Date.parse(grant.grant.expires_at) <= now) return "Steward's access to the site has expired";
  return undefined;
}
