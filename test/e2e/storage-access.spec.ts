import { test, expect } from '../harness/fixtures.ts';
import { allowSites, tabIdOfAnyPage } from '../harness/browser.ts';
import { inContentScript } from '../harness/content-world.ts';
import { SHOP_ORDER, showView } from '../harness/panel-helpers.ts';
import { control, data, killServiceWorker, liveWorker, mint } from '../harness/pipeline-helpers.ts';

/**
 * Steward's records in chrome.storage grant power: the allowed sites, the settings (co-pilot
 * endpoint, approval window) and the audit head's copy. A content script compromised by its page
 * tries to write them all; Chrome refuses every call, and nothing Steward allows changes.
 */

// Only the shop is allowed: the forged write tries to add the clinic.
test.use({ demoSitesAllowed: false });

const DENIED = 'Access to storage is not allowed from this context.';

test('a compromised content script cannot read or write chrome.storage: sites, settings and audit head stay as they were', async ({ steward, sites, openPanel, tabIdOf }) => {
  let sw = steward.serviceWorker;
  const shop = new URL(sites.urls.shop).origin;
  const clinic = new URL(sites.urls.clinic).origin;
  await allowSites(steward, [sites.urls.shop]);
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await tabIdOf(page);
  // Something in the audit log, so its head's copy is in storage too.
  await mint(panel, { scope: ['orders:view'], resource_scope: `order:${SHOP_ORDER}`, origins: [shop] });
  const records = () => sw.evaluate(() => chrome.storage.local.get(['steward.sites', 'steward.settings', 'steward.audit_head']));
  await expect.poll(async () => Object.keys(await records()).sort()).toEqual(['steward.audit_head', 'steward.sites']);
  const storedBefore = await records();
  const scripts = () => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => [s.id, s.matches]));
  const scriptsBefore = await scripts();

  const forged = {
    'steward.sites': { allowed: [shop, clinic] },
    'steward.settings': { polyfill_enabled: true, token_lifetime_minutes: 60, approval_window_minutes: 60, copilot: { endpoint: 'https://attacker.example/v1', model: 'exfiltrate' } },
    'steward.audit_head': { seq: 0, hash: '0'.repeat(64), mac: '0'.repeat(64) },
  };
  const outcome = (await inContentScript(
    page,
    `(async () => {
      const attempt = (p) => p.then(() => 'done', (e) => String(e && e.message));
      return {
        localSet: await attempt(chrome.storage.local.set(${JSON.stringify(forged)})),
        localGet: await attempt(chrome.storage.local.get(null)),
        localRemove: await attempt(chrome.storage.local.remove('steward.audit_head')),
        localClear: await attempt(chrome.storage.local.clear()),
        sessionSet: await attempt(chrome.storage.session.set({ 'webmcp.frames': [] })),
        sessionGet: await attempt(chrome.storage.session.get(null)),
      };
    })()`,
  )) as Record<string, string>;
  expect(outcome).toEqual({ localSet: DENIED, localGet: DENIED, localRemove: DENIED, localClear: DENIED, sessionSet: DENIED, sessionGet: DENIED });
  // Chrome keeps the level while the service worker is stopped (MV3 stops it whenever it idles).
  const stoppedAt = Date.now();
  await killServiceWorker(panel, sw);
  expect(await inContentScript(page, `chrome.storage.local.set(${JSON.stringify(forged)}).then(() => 'done', (e) => String(e && e.message))`)).toBe(DENIED);
  // The panel's next message starts a new worker.
  await data(control(panel, { type: 'panel/sites' }));
  sw = await liveWorker(steward.context, steward.extensionId, stoppedAt);

  // Nothing moved: the stored records, the registered page scripts, the list the panel shows.
  expect(await records()).toEqual(storedBefore);
  expect(await scripts()).toEqual(scriptsBefore);
  expect((await data<{ allowed: string[] }>(control(panel, { type: 'panel/sites' }))).allowed).toEqual([shop]);
  // The clinic is not observed: its tab stands as not allowed.
  const clinicPage = await steward.context.newPage();
  await clinicPage.goto(sites.urls.clinic);
  const clinicTab = await tabIdOfAnyPage(sw, clinicPage);
  expect((await data<{ tab: { allowed: boolean; observing: boolean } }>(control(panel, { type: 'panel/sites', tabId: clinicTab }))).tab).toMatchObject({ allowed: false, observing: false });
  // The settings the person sees are still the defaults: no co-pilot endpoint, 15-minute windows.
  await showView(panel, 'Settings');
  await expect(panel.getByLabel('Endpoint URL')).toHaveValue('');
  await expect(panel.getByLabel(/Approve for N minutes/)).toHaveValue('15');
  expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
});
