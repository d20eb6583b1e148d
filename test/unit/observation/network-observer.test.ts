import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installNetworkObserver, portSender, type ObservableWindow } from '../../../src/content/main/network-observer.ts';
import type { NetworkWire } from '../../../src/protocol/page-channel.ts';

/** A site with JSON, HTML, binary, huge and secret-bearing responses; and a second origin. */
let site: Server;
let other: Server;
let origin = '';
let otherOrigin = '';
const requestBodies: string[] = [];

function routes(req: IncomingMessage, body: string): { type: string; text: string } {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/api/orders/ORD-1') return { type: 'application/json', text: JSON.stringify({ id: 'ORD-1', status: 'paid', n: Number(url.searchParams.get('n') ?? 0) }) };
  if (url.pathname === '/api/session')
    return { type: 'application/json; charset=utf-8', text: JSON.stringify({ user: 'jo', access_token: 'tok-SECRET', nested: { password: 'pw-SECRET', ok: true } }) };
  if (url.pathname === '/api/echo') return { type: 'application/json', text: JSON.stringify({ received: body.length }) };
  if (url.pathname === '/api/huge') return { type: 'application/json', text: JSON.stringify({ blob: 'x'.repeat(100_000) }) };
  if (url.pathname === '/api/problem') return { type: 'application/problem+json', text: JSON.stringify({ title: 'Not found' }) };
  if (url.pathname === '/api/broken') return { type: 'application/json', text: '{not json' };
  if (url.pathname === '/page') return { type: 'text/html', text: '<p>{"id":"ORD-1"}</p>' };
  return { type: 'application/octet-stream', text: '\u0000\u0001' };
}

function serve(): Promise<[Server, string]> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (body) requestBodies.push(body);
      const { type, text } = routes(req, body);
      res.writeHead(req.url?.startsWith('/api/problem') ? 404 : 200, { 'content-type': type, 'access-control-allow-origin': '*' });
      res.end(text);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve([server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`])));
}

beforeAll(async () => {
  [site, origin] = await serve();
  [other, otherOrigin] = await serve();
});
afterAll(() => {
  site.close();
  other.close();
});

/** A page window with the observer installed; records land in `seen`. */
function page(Xhr?: typeof XMLHttpRequest) {
  const seen: NetworkWire[] = [];
  const win: ObservableWindow = { fetch: globalThis.fetch, XMLHttpRequest: Xhr, location: { href: `${origin}/orders/ORD-1`, origin } };
  installNetworkObserver(win, (r) => seen.push(r));
  const settle = () => new Promise((r) => setTimeout(r, 60));
  return { win, seen, settle };
}

describe('fetch observer', () => {
  it('records a same-origin JSON response, and the page still reads its own body in full', async () => {
    const { win, seen, settle } = page();
    const res = await win.fetch(`${origin}/api/orders/ORD-1?n=1`);
    expect(await res.json()).toEqual({ id: 'ORD-1', status: 'paid', n: 1 });
    await settle();
    expect(seen).toEqual([{ url: `${origin}/api/orders/ORD-1?n=1`, method: 'GET', status: 200, json: { id: 'ORD-1', status: 'paid', n: 1 }, truncated: false }]);
  });

  it('ignores other origins, HTML, binary, and bodies that are not JSON', async () => {
    const { win, seen, settle } = page();
    await (await win.fetch(`${otherOrigin}/api/orders/ORD-1`)).text();
    await (await win.fetch(`${origin}/page`)).text();
    await (await win.fetch(`${origin}/summary.bin`)).arrayBuffer();
    await (await win.fetch(`${origin}/api/broken`)).text();
    await settle();
    expect(seen).toEqual([{ url: `${origin}/api/broken`, method: 'GET', status: 200, json: null, truncated: false }]);
  });

  it('never records request bodies or secrets; records error bodies with their status', async () => {
    const { win, seen, settle } = page();
    await (await win.fetch(`${origin}/api/echo`, { method: 'post', body: JSON.stringify({ card_number: '4242-REQUEST-SECRET' }) })).json();
    await (await win.fetch(`${origin}/api/session?token=q-SECRET&page=2#frag`)).json();
    await (await win.fetch(`${origin}/api/problem`)).json();
    await settle();
    expect(requestBodies.some((b) => b.includes('REQUEST-SECRET'))).toBe(true); // the server did get it…
    expect(JSON.stringify(seen)).not.toMatch(/SECRET|frag/); // …the record never does
    expect(seen[0]).toMatchObject({ method: 'POST', json: { received: expect.any(Number) } });
    expect(seen[1]).toMatchObject({ url: `${origin}/api/session?token=redacted&page=2`, json: { user: 'jo', access_token: '[redacted]', nested: { password: '[redacted]', ok: true } } });
    expect(seen[2]).toMatchObject({ status: 404, json: { title: 'Not found' } });
  });

  it('does not parse a body over the size limit, but says it was there', async () => {
    const { win, seen, settle } = page();
    expect((await (await win.fetch(`${origin}/api/huge`)).json()).blob).toHaveLength(100_000);
    await settle();
    expect(seen).toEqual([{ url: `${origin}/api/huge`, method: 'GET', status: 200, json: null, truncated: true }]);
  });

  it('is transparent: errors reach the page unchanged, and nothing here can throw into it', async () => {
    const { win } = page();
    const original = await globalThis.fetch('http://127.0.0.1:1/').catch((e: Error) => e);
    const wrapped = await win.fetch('http://127.0.0.1:1/').catch((e: Error) => e);
    expect(wrapped).toBeInstanceOf(TypeError);
    expect((wrapped as Error).message).toBe((original as Error).message);
    const throwing: ObservableWindow = { fetch: globalThis.fetch, location: { href: `${origin}/`, origin } };
    installNetworkObserver(throwing, () => {
      throw new Error('port closed');
    });
    expect(await (await throwing.fetch(`${origin}/api/orders/ORD-1`)).json()).toMatchObject({ id: 'ORD-1' });
  });

  it('keeps working when the page later patches clone and JSON.parse', async () => {
    const { win, seen, settle } = page();
    const clone = Response.prototype.clone;
    const parse = JSON.parse;
    try {
      Response.prototype.clone = () => {
        throw new Error('page says no');
      };
      JSON.parse = () => ({ forged: true });
      await (await win.fetch(`${origin}/api/orders/ORD-1`)).text();
      await settle();
    } finally {
      Response.prototype.clone = clone;
      JSON.parse = parse;
    }
    expect(seen[0]?.json).toEqual({ id: 'ORD-1', status: 'paid', n: 0 });
  });
});

/** Just enough XMLHttpRequest for the observer: a real request through fetch, events on EventTarget. */
function fakeXhrClass() {
  return class FakeXhr extends EventTarget {
    status = 0;
    responseType: XMLHttpRequestResponseType = '';
    responseURL = '';
    responseText = '';
    response: unknown = null;
    private url = '';
    private headers = new Headers();
    open(_method: string, url: string) {
      this.url = url;
    }
    send() {
      void fetch(this.url).then(async (res) => {
        this.status = res.status;
        this.responseURL = res.url;
        this.headers = res.headers;
        const text = await res.text();
        if (this.responseType === 'json') this.response = JSON.parse(text);
        else this.responseText = text;
        this.dispatchEvent(new Event('loadend'));
      });
    }
    getResponseHeader(name: string) {
      return this.headers.get(name);
    }
  } as unknown as typeof XMLHttpRequest;
}

describe('XMLHttpRequest observer', () => {
  const run = async (Xhr: typeof XMLHttpRequest, url: string, responseType: XMLHttpRequestResponseType = '') => {
    const xhr = new Xhr();
    xhr.responseType = responseType;
    xhr.open('GET', url);
    xhr.send();
    await new Promise((r) => xhr.addEventListener('loadend', r));
  };

  it('records same-origin JSON as text or as a parsed response, nothing else', async () => {
    const Xhr = fakeXhrClass();
    const { seen, settle } = page(Xhr);
    await run(Xhr, `${origin}/api/orders/ORD-1?n=2`);
    await run(Xhr, `${origin}/api/orders/ORD-1?n=3`, 'json');
    await run(Xhr, `${otherOrigin}/api/orders/ORD-1`);
    await run(Xhr, `${origin}/page`);
    await settle();
    expect(seen.map((r) => r.json)).toEqual([
      { id: 'ORD-1', status: 'paid', n: 2 },
      { id: 'ORD-1', status: 'paid', n: 3 },
    ]);
  });
});

describe('port sender', () => {
  it('keeps only the last few records until the isolated world takes the port, then sends them in order', async () => {
    const channel = new MessageChannel();
    const got: unknown[] = [];
    channel.port2.onmessage = (e) => got.push(e.data);
    const sender = portSender(channel.port1, 3);
    const rec = (n: number): NetworkWire => ({ url: `${origin}/api/${n}`, method: 'GET', status: 200, json: { n }, truncated: false });
    for (let n = 1; n <= 5; n++) sender.emit(rec(n));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([]);
    sender.connected();
    sender.emit(rec(6));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([3, 4, 5, 6].map((n) => ({ type: 'network', record: rec(n) })));
    channel.port1.close();
  });
});
