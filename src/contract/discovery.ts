import type { Clock } from '../base/clock.ts';
import { originOf } from '../base/origin.ts';
import { AgentContract, CONTRACT_LINK_REL, CONTRACT_MEDIA_TYPE } from '../protocol/agent-contract.ts';
import { parseLinkHeader } from './link-header.ts';
import type { DiscoveredContract, HttpPort } from './ports.ts';
import { sendToSite, shapeError, type Result } from './site-call.ts';

/**
 * Finding a site's contract: the page names it (`<link rel="agent-contract">`, or the response's
 * `Link` header), Steward fetches it from the page's own origin only and checks the document
 * speaks for that origin. Anything else is a typed error, and the site is observed as before.
 */

type DiscoveryErrorCode =
  /** The page names no contract. */
  | 'no_contract'
  /** The page, or the contract URL it names, is not an http(s) URL. */
  | 'bad_url'
  /** The contract named is on another origin than the page: ignored. */
  | 'cross_origin'
  /** The contract could not be fetched (network error, non-200). */
  | 'unreachable'
  /** The answer is not a contract (media type, too large, not JSON, wrong shape). */
  | 'malformed'
  /** The contract says it speaks for another origin. */
  | 'origin_mismatch';

export interface DiscoveryError {
  code: DiscoveryErrorCode;
  message: string;
}

/** What the caller read from the page: its URL, the `<link rel="agent-contract">` href, the response's `Link` header. */
export interface PageHints {
  pageUrl: string;
  linkHref?: string;
  linkHeader?: string;
}

const fail = (code: DiscoveryErrorCode, message: string): { ok: false; error: DiscoveryError } => ({ ok: false, error: { code, message } });

/**
 * The contract's URL, resolved against the page. The `Link` header (sent by the server) is
 * preferred over the `<link>` element (which the page's own content could have placed).
 */
export function contractUrlFor(hints: PageHints): Result<string, DiscoveryError> {
  const pageOrigin = originOf(hints.pageUrl);
  if (pageOrigin === undefined) return fail('bad_url', `the page is not an http(s) URL`);
  const fromHeader = hints.linkHeader === undefined ? undefined : parseLinkHeader(hints.linkHeader).find((l) => l.rels.includes(CONTRACT_LINK_REL))?.href;
  const candidates = [fromHeader, hints.linkHref].filter((href): href is string => href !== undefined && href.trim() !== '');
  if (candidates.length === 0) return fail('no_contract', 'the page names no agent contract');
  let crossOrigin: string | undefined;
  for (const href of candidates) {
    let url: URL;
    try {
      url = new URL(href.trim(), hints.pageUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.origin !== pageOrigin) {
      crossOrigin ??= url.origin;
      continue;
    }
    url.hash = '';
    return { ok: true, value: url.href };
  }
  if (crossOrigin !== undefined) return fail('cross_origin', `the page names a contract on ${crossOrigin}, not on its own origin ${pageOrigin}: ignored`);
  return fail('bad_url', 'the contract URL the page names is not an http(s) URL');
}

/** GET the contract from `contractUrl` (on `origin`) and check it speaks for that origin. */
export async function fetchContract(http: HttpPort, contractUrl: string, origin: string, now: Clock): Promise<Result<DiscoveredContract, DiscoveryError>> {
  if (originOf(contractUrl) !== origin) return fail('cross_origin', `the contract URL is not on ${origin}`);
  const answer = await sendToSite(http, { method: 'GET', url: contractUrl, headers: { accept: `${CONTRACT_MEDIA_TYPE}, application/json` } });
  if (answer.kind === 'failed') return fail(answer.error.code === 'unreachable' ? 'unreachable' : 'malformed', answer.error.message);
  if (answer.status !== 200) return fail('unreachable', `${contractUrl} answered HTTP ${answer.status}`);
  const mediaType = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== CONTRACT_MEDIA_TYPE && mediaType !== 'application/json') {
    return fail('malformed', `the contract is served as "${mediaType.slice(0, 100)}", not ${CONTRACT_MEDIA_TYPE} or application/json`);
  }
  const parsed = AgentContract.safeParse(answer.json);
  if (!parsed.success) return fail('malformed', shapeError(200, "the site's contract", parsed.error.issues).message);
  if (originOf(parsed.data.site.origin) !== origin) {
    return fail('origin_mismatch', `the contract speaks for ${parsed.data.site.origin.slice(0, 200)}, not ${origin}`);
  }
  return { ok: true, value: { origin, contract_url: contractUrl, contract: parsed.data, fetched_at: now() } };
}
