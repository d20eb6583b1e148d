import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildProduction, packageName, writePackage } from '../../scripts/package.ts';
import { readZip } from '../../scripts/zip.ts';
import { grantedOrigins, launchInProfile } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';

/** Steward's id wherever the package is loaded unpacked: the manifest `key` fixes it, and the bridge's host manifest names it. */
const UNPACKED_ID = 'iodcoaibgikagkbaifmcklmipgpmmcip';

/**
 * The artefact a person gets: `npm run package`'s zip, unzipped into a folder and loaded as
 * chrome://extensions → Load unpacked loads it (Chromium's --load-extension is that same path).
 */
test('the packaged zip, unzipped, loads as Steward with its fixed id, asks Chrome for no site, and opens its side panel', async () => {
  test.setTimeout(180_000);
  const work = mkdtempSync(join(tmpdir(), 'steward-package-load-'));
  try {
    const built = join(work, 'dist');
    await buildProduction(built);
    const zipPath = join(work, packageName(false));
    writePackage(built, zipPath, false);
    const unzipped = join(work, 'Steward');
    for (const [name, data] of readZip(readFileSync(zipPath))) {
      mkdirSync(dirname(join(unzipped, name)), { recursive: true });
      writeFileSync(join(unzipped, name), data);
    }

    const profile = join(work, 'profile');
    const steward = await launchInProfile(profile, { nativeWebMcp: true, extensionDir: unzipped });
    try {
      expect(steward.extensionId).toBe(UNPACKED_ID);
      expect(await grantedOrigins(steward.serviceWorker)).toEqual([]);
      expect(await steward.serviceWorker.evaluate(() => chrome.runtime.getManifest().version)).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
      // A production build: the test hooks are not there.
      expect(await steward.serviceWorker.evaluate(() => 'stewardPipeline' in globalThis)).toBe(false);
      const panel = await steward.context.newPage();
      await panel.goto(`chrome-extension://${UNPACKED_ID}/src/sidepanel/index.html`);
      await expect(panel.getByRole('tablist', { name: 'Steward views' })).toBeVisible();
    } finally {
      await steward.context.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
