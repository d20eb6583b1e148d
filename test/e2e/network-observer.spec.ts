import { chromium, type Page } from '@playwright/test';
import { join } from 'node:path';
import { NetworkBuffer } from '../../src/content/main/network-buffer.ts';
import { fuseWithDetail } from '../../src/observation/fusion/index.ts';
import { shopOrderSnapshot } from '../unit/observation/fixtures/shop-order-snapshot.ts';
import { CHROMIUM_FLAGS, DIST } from '../harness/browser.ts';
import { expect, test } from '../harness/fixtures.ts';

const MAIN_WORLD = join(DIST, 'src', 'content', 'main-world.iife.js');

async function demo(url: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, url), body === undefined ? { method: 'POST' } : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok).toBe(true);
}

/**
 * The built main-world script in a page without the extension: a first init script plays the
 * isolated world and takes the private port (cancelling the handshake event, as Steward does).
 */
async function pageWithObserver(): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __stewardTest: unknown[] };
    w.__stewardTest = [];
    document.addEventListener('steward:webmcp-bridge-port', (event) => {
      const port = (event as MessageEvent).ports[0];
      if (!port) return;
      event.preventDefault();
      port.onmessage = (m) => w.__stewardTest.push(m.data);
    });
  });
  await page.addInitScript({ path: MAIN_WORLD });
  return { page, close: () => browser.close() };
}

const networkEvents = (page: Page) => page.evaluate(() => (window as unknown as { __stewardTest: Array<{ type?: string }> }).__stewardTest.filter((m) => m.type === 'network'));

test.describe('main-world network observer (built script, real Chromium, real shop)', () => {
  test('records the shop’s own status call, and only that; the data feeds fusion through the buffer', async ({ sites }) => {
    await demo(sites.urls.shop, '/__demo/reset');
    await demo(sites.urls.shop, '/__demo/orders/ORD-1024/api-override', { status: 'cancelled' });
    const { page, close } = await pageWithObserver();
    try {
      await page.goto(`${sites.urls.shop}/orders/ORD-1024`);
      await expect(page.locator('#live-status')).toHaveText('Live status: Cancelled');
      await expect.poll(async () => (await networkEvents(page)).length).toBe(1);
      const [event] = (await networkEvents(page)) as Array<{ type: 'network'; record: { url: string; method: string; status: number; json: Record<string, unknown> } }>;
      expect(event!.record).toMatchObject({ url: `${sites.urls.shop}/api/orders/ORD-1024`, method: 'GET', status: 200, truncated: false });
      expect(event!.record.json).toMatchObject({ id: 'ORD-1024', status: 'cancelled', items: expect.any(Array) });
      // summary.bin (binary) was fetched too, and the canvas drawn from it, but never recorded.
      expect(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/summary.bin')))).toBe(true);

      // The isolated side: validate into the buffer, then fuse with the page (which says awaiting payment).
      const origin = new URL(sites.urls.shop).origin;
      const buffer = new NetworkBuffer({ origin });
      expect(buffer.acceptEvent(event)).toBeDefined();
      const state = fuseWithDetail({ snapshot: shopOrderSnapshot({ origin }), network: buffer.records() }).state;
      expect(state.conflicts).toContain('dom_state_disagrees_with_network');
    } finally {
      await close();
      await demo(sites.urls.shop, '/__demo/reset');
    }
  });

  test('never passes on request bodies, other origins or non-JSON; redacts secrets', async ({ sites }) => {
    await demo(sites.urls.shop, '/__demo/reset');
    const { page, close } = await pageWithObserver();
    try {
      await page.goto(`${sites.urls.shop}/`);
      await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete');
      await page.evaluate(async (clinic) => {
        // A POST whose request body holds a secret; the shop answers 400 JSON (no such field).
        await fetch('/api/orders/ORD-1024/cancel', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'nope', card_number: 'REQUEST-SECRET' }) });
        await fetch('/api/orders?token=URL-SECRET');
        await fetch(`${clinic}/api/doctors`, { mode: 'cors' }).catch(() => undefined); // another origin
        await fetch('/orders/ORD-1024/summary.bin');
        await new Promise<void>((resolve) => {
          const xhr = new XMLHttpRequest();
          xhr.open('GET', '/api/orders/ORD-1025');
          xhr.responseType = 'json';
          xhr.onloadend = () => resolve();
          xhr.send();
        });
      }, sites.urls.clinic);
      await expect.poll(async () => (await networkEvents(page)).length).toBe(3);
      const records = (await networkEvents(page)).map((e) => (e as unknown as { record: { url: string; method: string; status: number; json: unknown } }).record);
      expect(JSON.stringify(records)).not.toMatch(/SECRET/);
      expect(records.map((r) => [r.method, new URL(r.url).pathname + new URL(r.url).search, r.status])).toEqual([
        ['POST', '/api/orders/ORD-1024/cancel', 400],
        ['GET', '/api/orders?token=redacted', 200],
        ['GET', '/api/orders/ORD-1025', 200],
      ]);
      expect(records[2]!.json).toMatchObject({ id: 'ORD-1025', status: 'awaiting_payment' });
    } finally {
      await close();
    }
  });
});

for (const nativeWebMcp of [true, false]) {
  test.describe(`with Steward loaded (${nativeWebMcp ? 'native WebMCP' : 'polyfill'})`, () => {
    test.use({ nativeWebMcp });

    test('the shop’s own fetch, XHR and canvas work as before, and Steward adds no request', async ({ steward, sites }) => {
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.shop}/orders/ORD-1024`);
      await expect(page.locator('#live-status')).toHaveText('Live status: Awaiting payment');
      // The canvas was drawn from the binary summary (not blank).
      await expect
        .poll(() =>
          page.evaluate(() => {
            const c = document.getElementById('order-total-canvas') as HTMLCanvasElement;
            const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
            return new Set(Array.from({ length: 500 }, (_, i) => d[Math.floor((i * d.length) / 2000) * 4])).size;
          }),
        )
        .toBeGreaterThan(2);
      const viaXhr = await page.evaluate(
        () =>
          new Promise<unknown>((resolve) => {
            const xhr = new XMLHttpRequest();
            xhr.open('GET', '/api/orders/ORD-1024');
            xhr.onload = () => resolve(JSON.parse(xhr.responseText));
            xhr.send();
          }),
      );
      expect(viaXhr).toMatchObject({ id: 'ORD-1024', status: 'awaiting_payment' });
      // A page that wraps fetch itself still works on top of Steward's wrapper.
      const wrapped = await page.evaluate(async () => {
        const inner = window.fetch;
        let calls = 0;
        window.fetch = (...args: Parameters<typeof fetch>) => {
          calls++;
          return inner(...args);
        };
        const body = await (await fetch('/api/orders/ORD-1024')).json();
        return { calls, id: body.id };
      });
      expect(wrapped).toEqual({ calls: 1, id: 'ORD-1024' });
      const log = (await (await fetch(new URL('/__demo/state', sites.urls.shop))).json()) as { requests: Array<{ method: string; path: string }> };
      expect(log.requests.filter((r) => r.path === '/api/orders/ORD-1024').length).toBe(3); // the page's one, the XHR, the wrapped fetch
    });
  });
}
