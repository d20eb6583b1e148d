import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchHttpPort } from '../../../../src/background/contract/http.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Site-Header': 'Yes', Link: '</agent/v1/contract>; rel="agent-contract"' });
      res.end(JSON.stringify({ method: req.method, cookie: req.headers.cookie ?? null, auth: req.headers.authorization ?? null }));
    } else if (req.url === '/big') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      // Streamed in pieces, more than the cap.
      for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
      res.end();
    } else if (req.url === '/redirect') {
      res.writeHead(302, { Location: '/json' });
      res.end();
    } else if (req.url === '/silent') {
      // Never answers.
    } else {
      res.writeHead(404);
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the contract client's HttpPort over fetch", () => {
  it('returns status, lower-cased headers and the body', async () => {
    const r = await fetchHttpPort().request({ method: 'POST', url: `${base}/json`, headers: { Authorization: 'Bearer t' }, body: '{}' });
    expect(r.status).toBe(200);
    expect(r.headers['x-site-header']).toBe('Yes');
    expect(r.headers.link).toContain('rel="agent-contract"');
    expect(JSON.parse(r.body)).toMatchObject({ method: 'POST', auth: 'Bearer t' });
    expect(r.truncated).toBeUndefined();
  });

  it('cuts a body past the cap and says so', async () => {
    const r = await fetchHttpPort({ maxBytes: 2500 }).request({ method: 'GET', url: `${base}/big`, headers: {} });
    expect(r.body.length).toBe(2500);
    expect(r.truncated).toBe(true);
    const whole = await fetchHttpPort({ maxBytes: 10_000 }).request({ method: 'GET', url: `${base}/big`, headers: {} });
    expect(whole.body.length).toBe(10_000);
    expect(whole.truncated).toBeUndefined();
  });

  it('never follows a redirect (a signed request or the cookies never go elsewhere)', async () => {
    await expect(fetchHttpPort().request({ method: 'GET', url: `${base}/redirect`, headers: {} })).rejects.toMatchObject({ name: 'HttpFailure', reason: 'network' });
  });

  it('gives up on a site that does not answer in time', async () => {
    await expect(fetchHttpPort({ timeoutMs: 50 }).request({ method: 'GET', url: `${base}/silent`, headers: {} })).rejects.toMatchObject({ name: 'HttpFailure', reason: 'timeout' });
  });

  it("sends the person's cookies only with a request that asks for them, never lets a redirect through, and sends no referrer", async () => {
    const seen: RequestInit[] = [];
    const port = fetchHttpPort({
      fetch: async (_url, init) => {
        seen.push(init ?? {});
        return new Response('{}', { status: 200 });
      },
    });
    await port.request({ method: 'GET', url: `${base}/json`, headers: {} });
    await port.request({ method: 'POST', url: `${base}/json`, headers: {}, body: '{}', withCredentials: true });
    expect(seen.map((i) => i.credentials)).toEqual(['omit', 'include']);
    expect(seen.every((i) => i.redirect === 'error' && i.referrerPolicy === 'no-referrer' && i.cache === 'no-store')).toBe(true);
  });

  it('refuses what is not an http(s) URL, or one with credentials in it, without sending', async () => {
    let sent = 0;
    const port = fetchHttpPort({
      fetch: async () => {
        sent++;
        return new Response('');
      },
    });
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'http://user:pw@127.0.0.1/']) {
      await expect(port.request({ method: 'GET', url, headers: {} })).rejects.toMatchObject({ name: 'HttpFailure', reason: 'refused_url' });
    }
    expect(sent).toBe(0);
  });
});
