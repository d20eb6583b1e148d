import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../harness/fixtures.ts';
import { launchWithSteward } from '../harness/browser.ts';
import { passed, runWptWebMcp, type WptSubtest } from '../harness/wpt-webmcp-run.ts';

/**
 * The web-platform-tests `webmcp/` suite (vendored in test/fixtures/wpt-webmcp/, served by the
 * lab) run twice in Chromium: with its native WebMCP (the anchor), and without it, where the page
 * gets Steward's polyfill the way Steward gives it to any allowed site (its main-world script at
 * document_start). Every subtest native passes must pass under the polyfill, except those listed,
 * each with its reason, in wpt-webmcp-expectations.json (what a polyfill cannot do by nature).
 */

const EXPECTATIONS = JSON.parse(readFileSync(join(import.meta.dirname, 'wpt-webmcp-expectations.json'), 'utf8')) as Record<string, string>;

async function runSuite(nativeWebMcp: boolean, lab: string): Promise<WptSubtest[]> {
  const browser = await launchWithSteward({ nativeWebMcp, allowSites: [lab] });
  try {
    return await runWptWebMcp(browser.context, lab);
  } finally {
    await browser.close();
  }
}

test('Steward’s polyfill passes every vendored WPT webmcp subtest native WebMCP passes, bar the reviewed expectations', async ({ sites }) => {
  test.setTimeout(600_000);
  const native = await runSuite(true, sites.urls.lab);
  const polyfill = await runSuite(false, sites.urls.lab);
  const nativePasses = passed(native);
  const polyfillPasses = passed(polyfill);
  const failing = (id: string) => `${id}: ${polyfill.find((r) => r.id === id)?.status ?? 'MISSING'} ${polyfill.find((r) => r.id === id)?.message ?? ''}`.trim();
  test.info().annotations.push({ type: 'wpt-webmcp', description: `native ${nativePasses.size}/${native.length}, polyfill ${polyfillPasses.size}/${polyfill.length}` });
  console.log(`WPT webmcp/: native passes ${nativePasses.size} of ${native.length}, polyfill ${polyfillPasses.size} of ${polyfill.length}`);
  for (const r of native) console.log(`  native ${r.status.padEnd(7)} polyfill ${(polyfill.find((p) => p.id === r.id)?.status ?? 'MISSING').padEnd(7)} ${r.id}`);

  // The anchor ran: the pages were served and reported, and native WebMCP passed some of them.
  expect(nativePasses.size).toBeGreaterThan(0);
  // Every native pass is a polyfill pass, unless a reviewed expectation says why it cannot be.
  const missing = [...nativePasses].filter((id) => !polyfillPasses.has(id) && !(id in EXPECTATIONS)).map(failing);
  expect(missing).toEqual([]);
  // No stale expectation: each still names a subtest native passes and the polyfill fails.
  const stale = Object.keys(EXPECTATIONS).filter((id) => !nativePasses.has(id) || polyfillPasses.has(id));
  expect(stale).toEqual([]);
});
