import { test, type Page } from '@playwright/test';
import { expect } from '../harness/expect.ts';
import { STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { connectHttp, startHttpBridge, type HttpBridge } from '../harness/bridge-harness.ts';
import { attackFromPage, type PageAttempts } from '../harness/bridge-hostile-page.ts';
import { showView } from '../harness/panel-helpers.ts';
import { auditRows, pendingPairings, shopOutcome, startRefusalWorld, tabIdOf, tokens, type RefusalWorld } from '../harness/bridge-hostile-world.ts';

/**
 * A web page in the person's browser, on an allowed site (the shop, where Steward's content scripts
 * run) and on a site Steward was never allowed on (the lab), tries every way it could reach the
 * bridge's HTTP port or Steward. Checked from the outside: the bridge refused whatever reached it,
 * no pairing request was made, no token minted, nothing reached the audit log, the shop unchanged.
 */

/** The bridge's stderr lines since `from`. */
const linesSince = (http: HttpBridge, from: number) =>
  http
    .stderr()
    .slice(from)
    .split('\n')
    .filter((l) => l.trim() !== '');

function expectNothingReadable(seen: PageAttempts): void {
  // CORS: the page cannot read any answer (a preflight for the bearer header fails; plain requests get no CORS headers).
  expect(seen.fetchCors).toMatch(/^rejected: TypeError/);
  expect(seen.fetchWithBearer).toMatch(/^rejected: TypeError/);
  expect(seen.xhr).toMatch(/^error \(status 0\)$/);
  // no-cors requests may leave, but their answer is opaque: status 0, no body.
  expect(seen.fetchNoCors).toBe('status 0 type opaque body ');
  expect(seen.fetchLocalhost).toBe('status 0 type opaque body ');
  expect(seen.form).toBe('unreadable (cross-origin)');
  expect(seen.iframe).toMatch(/^unreadable \(cross-origin\)$|^no load$/);
  expect(seen.websocket).not.toBe('open');
  // externally_connectable is closed: the page has no chrome.runtime at all, so no messaging and no native host.
  expect(seen.sendMessage).toBe('absent');
  expect(seen.connect).toBe('absent');
  expect(seen.connectNative).toBe('absent');
}

test.describe.serial('a web page cannot reach the bridge', () => {
  let world: RefusalWorld;
  let http: HttpBridge;

  test.beforeAll(async () => {
    world = await startRefusalWorld();
    http = await startHttpBridge(world.bridge);
  });
  test.afterAll(async () => {
    await http?.stop();
    await world?.close();
  });

  for (const where of ['an allowed site (shop)', 'a site never allowed (lab)'] as const) {
    test(`from ${where}: every way to the bridge or Steward is refused, and nothing happens`, async () => {
      const page: Page = where.includes('shop') ? world.shopPage : await world.bridge.context.newPage();
      if (!where.includes('shop')) await page.goto(`${world.sites.urls.lab}/`);
      else await tabIdOf(world.bridge.serviceWorker, page);
      const shopBefore = await shopOutcome(world.sites.urls.shop);
      const auditBefore = (await auditRows(world.bridge.serviceWorker)).length;
      const logFrom = http.stderr().length;

      const seen = await attackFromPage(page, { url: http.url, port: http.port, extensionId: STEWARD_EXTENSION_ID });
      expectNothingReadable(seen);

      // A top-level navigation to the bridge's URL (no Origin, no bearer): refused, nothing to read.
      const navigated = page.waitForResponse((r) => r.url() === http.url && r.request().isNavigationRequest());
      await page.evaluate((url) => (location.href = url), http.url);
      const answer = await navigated;
      expect(answer.status()).toBeGreaterThanOrEqual(400);
      expect(await answer.text()).not.toMatch(/steward_tabs|serverInfo|"result"/);
      if (where.includes('shop')) await page.goBack();
      else await page.close();

      // Whatever the bridge logged was a refusal: no session opened, no pairing asked for.
      const lines = linesSince(http, logFrom);
      for (const line of lines) expect(line).toMatch(/refus|40[13]|forbidden|unauthori[sz]ed|not allowed|origin|host/i);
      expect(lines.join('\n')).not.toMatch(/session|pairing|paired/i);
      // Nothing reached Steward: no pairing request, no token, no audit entry, the shop as it was.
      expect(await pendingPairings(world.panel)).toEqual([]);
      expect(await tokens(world.panel)).toEqual([]);
      expect((await auditRows(world.bridge.serviceWorker)).length).toBe(auditBefore);
      expect(await shopOutcome(world.sites.urls.shop)).toBe(shopBefore);
      await showView(world.panel, 'Approvals');
      await expect(world.panel.getByRole('region', { name: /^Pairing request from/ })).toHaveCount(0);
    });
  }

  test('the same checks see a real client: an MCP client with the bearer does reach Steward and asks to pair', async () => {
    const client = await connectHttp(http, 'v2', 'Control Agent');
    try {
      const reply = await client.call('steward_tabs');
      expect((reply.structured?.error as { code?: string } | undefined)?.code, reply.text).toBe('PAIRING_REQUIRED');
      expect((await pendingPairings(world.panel)).map((p) => p.client.name)).toEqual(['Control Agent']);
      await showView(world.panel, 'Approvals');
      await expect(world.panel.getByRole('region', { name: 'Pairing request from Control Agent' })).toHaveCount(1);
    } finally {
      await client.close();
    }
  });
});
