import { MAX_RESPONSE_BYTES, type HttpPort, type HttpRequest, type HttpResponse } from '../../../src/contract/ports.ts';

/**
 * An HttpPort over real HTTP for tests, with the person's cookies kept in a jar, as the browser
 * does: sent only on requests that ask for them (`withCredentials`, the token grant).
 */
export class NodeHttpPort implements HttpPort {
  private readonly cookies = new Map<string, string>();
  readonly requests: HttpRequest[] = [];

  /** The person visits a page of the site (it sets its session cookie): its status, `Link` header and HTML. */
  async visit(url: string): Promise<{ status: number; link: string | null; html: string }> {
    const res = await fetch(url, { redirect: 'manual' });
    this.keepCookies(res);
    return { status: res.status, link: res.headers.get('link'), html: await res.text() };
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    this.requests.push(req);
    const headers = new Headers(req.headers);
    if (req.withCredentials && this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(req.url, { method: req.method, headers, ...(req.body !== undefined ? { body: req.body } : {}), redirect: 'manual' });
    if (req.withCredentials) this.keepCookies(res);
    const text = await res.text();
    const out: HttpResponse = { status: res.status, headers: Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v])), body: text.slice(0, MAX_RESPONSE_BYTES) };
    if (text.length > MAX_RESPONSE_BYTES) out.truncated = true;
    return out;
  }

  private keepCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
}
