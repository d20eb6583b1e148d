import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@playwright/test';
import { DIST, grantInChromeSettings, grantedOrigins, launchInProfile, tabIdOfAnyPage } from '../harness/browser.ts';
import { test, expect, tabIdOf } from '../harness/fixtures.ts';
import { SHOP_ORDER, showView } from '../harness/panel-helpers.ts';

const registeredMatches = (worker: Worker) => worker.evaluate(async () => [...new Set((await chrome.scripting.getRegisteredContentScripts()).flatMap((s) => s.matches ?? []))].sort());
const observeInWorker = (worker: Worker, tabId: number) =>
  worker.evaluate((id) => (globalThis as unknown as { stewardObservation: { observeTab(id: number): Promise<{ ok: boolean }> } }).stewardObservation.observeTab(id), tabId);

/** dist/ as the versions before per-site access were: every site asked for at install. Same key, so the same extension id. */
function earlierVersion(): string {
  const dir = mkdtempSync(join(tmpdir(), 'steward-all-urls-'));
  cpSync(DIST, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { permissions: string[]; host_permissions?: string[]; optional_host_permissions?: string[] };
  manifest.host_permissions = ['<all_urls>'];
  delete manifest.optional_host_permissions;
  manifest.permissions = manifest.permissions.filter((p) => p !== 'activeTab').map((p) => (p === 'declarativeNetRequest' ? 'declarativeNetRequestWithHostAccess' : p));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

test('upgrading from a version with <all_urls>: the allowed sites keep working, Chrome keeps every site for Steward until the person narrows it in Settings', async ({ sites }) => {
  const shop = new URL(sites.urls.shop).origin;
  const profile = mkdtempSync(join(tmpdir(), 'steward-upgrade-'));
  const earlier = earlierVersion();
  try {
    // The earlier version, with the shop allowed as it allowed sites then: the stored list alone.
    const before = await launchInProfile(profile, { nativeWebMcp: true, extensionDir: earlier });
    expect(await grantedOrigins(before.serviceWorker)).toEqual(['<all_urls>']);
    await before.serviceWorker.evaluate((origin) => chrome.storage.local.set({ 'steward.sites': { allowed: [origin] } }), shop);
    await expect.poll(() => registeredMatches(before.serviceWorker)).toEqual([`${shop}/*`]);
    await before.context.close();

    // This version, in the same profile: Chrome moves the grant onto the optional http/https patterns.
    const after = await launchInProfile(profile, { nativeWebMcp: true });
    try {
      expect(after.extensionId).toBe(before.extensionId);
      expect((await grantedOrigins(after.serviceWorker)).sort()).toEqual(['http://*/*', 'https://*/*']);
      // Chrome drops registered page scripts when an extension updates; Steward registers them again at start.
      await expect.poll(() => registeredMatches(after.serviceWorker)).toEqual([`${shop}/*`]);
      const page = await after.context.newPage();
      await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
      const tabId = await tabIdOf(after.serviceWorker, page);
      expect(await observeInWorker(after.serviceWorker, tabId)).toMatchObject({ ok: true });
      // Steward still reads only the person's sites.
      const clinic = await after.context.newPage();
      await clinic.goto(sites.urls.clinic);
      expect(await observeInWorker(after.serviceWorker, await tabIdOfAnyPage(after.serviceWorker, clinic))).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });

      // Settings says Chrome still gives every site; narrowing asks Chrome for the shop alone (granted in
      // Chrome's settings, so no prompt) and gives the rest back.
      const panel = await after.context.newPage();
      await panel.goto(`chrome-extension://${after.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
      await showView(panel, 'Settings');
      const group = panel.getByRole('group', { name: 'Sites Steward may observe' });
      await expect(group).toContainText('Chrome still gives Steward access to every site');
      await grantInChromeSettings(after, [sites.urls.shop]);
      await group.getByRole('button', { name: 'Narrow Chrome’s access to these sites' }).click();
      await expect(group.getByRole('status')).toContainText('Chrome now gives Steward only the sites listed here.');
      await expect.poll(() => grantedOrigins(after.serviceWorker)).toEqual([`${shop}/*`]);
      await expect(group).not.toContainText('Chrome still gives Steward access to every site');
      expect(await registeredMatches(after.serviceWorker)).toEqual([`${shop}/*`]);
      await page.reload();
      await expect.poll(async () => (await observeInWorker(after.serviceWorker, tabId)).ok).toBe(true);
    } finally {
      await after.context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    rmSync(earlier, { recursive: true, force: true });
  }
});
