import { MAX_RESPONSE_BYTES, type HttpPort, type HttpRequest, type HttpResponse } from '../../contract/ports.ts';

/**
 * The contract client's HttpPort over the worker's own `fetch`: only Steward's requests to a site
 * go through it (and only they are signed); the pages' traffic is never touched. A redirect is an
 * error, so a signed request, its token or the person's cookies never follow one elsewhere.
 */

/** A site that has not answered by then is given up on (the pipeline's deadlines sit above). */
const HTTP_TIMEOUT_MS = 10_000;

/** Why a request got no answer, said plainly (the client turns it into the site's unavailability). */
class HttpFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'refused_url',
    message: string,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }
}

interface FetchPortOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
}

export function fetchHttpPort(options: FetchPortOptions = {}): HttpPort {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  // Contract documents and API answers are small; more than the client reads is cut and marked truncated.
  const maxBytes = options.maxBytes ?? MAX_RESPONSE_BYTES;
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const url = webUrl(req.url);
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        const response = await doFetch(url, {
          method: req.method,
          headers: req.headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
          // The person's cookies go only with the token grant; everything else is the agent's own.
          credentials: req.withCredentials === true ? 'include' : 'omit',
          redirect: 'error',
          cache: 'no-store',
          referrerPolicy: 'no-referrer',
          signal: abort.signal,
        });
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
        const { body, truncated } = await readCapped(response, maxBytes);
        return { status: response.status, headers, body, ...(truncated ? { truncated: true } : {}) };
      } catch (error) {
        if (abort.signal.aborted) throw new HttpFailure('timeout', `${req.method} ${url.origin} did not answer within ${timeoutMs / 1000} s.`);
        throw new HttpFailure('network', `${req.method} ${url.origin} failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000));
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function webUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpFailure('refused_url', `Not a URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HttpFailure('refused_url', `Steward only asks sites over http(s), not ${url.protocol}`);
  if (url.username || url.password) throw new HttpFailure('refused_url', 'A site URL with credentials in it is refused.');
  return url;
}

/** Reads at most `maxBytes` of the body as a stream, so a huge or endless answer costs no more than that. */
async function readCapped(response: Response, maxBytes: number): Promise<{ body: string; truncated: boolean }> {
  if (!response.body) return { body: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      size += room;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { body: new TextDecoder().decode(bytes), truncated };
}
