import { chromium, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, DIST, NATIVE_WEBMCP_FLAG, allowSites } from '../test/harness/browser.ts';
import { median, type Row } from './report.ts';

async function withBrowser<T>(steward: boolean, url: string, run: (context: BrowserContext) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'steward-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_FLAGS, NATIVE_WEBMCP_FLAG, ...(steward ? [`--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`] : [])],
  });
  try {
    if (steward) {
      const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      await allowSites({ context, serviceWorker, extensionId: new URL(serviceWorker.url()).host }, [url]);
    }
    return await run(context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Navigation start → load event end, as the page itself measured it. */
async function loadTimes(context: BrowserContext, url: string, runs: number): Promise<number[]> {
  const page = await context.newPage();
  const times: number[] = [];
  await page.goto(url); // warm the cache and the content scripts' compile cache
  for (let i = 0; i < runs; i++) {
    await page.goto(`${url}${url.includes('?') ? '&' : '?'}run=${i}`, { waitUntil: 'load' });
    times.push(
      await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return nav.loadEventEnd - nav.startTime;
      }),
    );
  }
  await page.close();
  return times;
}

/** Browsers launched in turn, without and with Steward, so a drift in the machine's load hits both alike. */
const ROUNDS = 3;

/** content.page_load_overhead_pct: the same heavy page loaded with and without Steward, same run. */
export async function pageLoadRows(url: string, caseName: string, runs = 15): Promise<Row[]> {
  const per = Math.max(1, Math.round(runs / ROUNDS));
  const withoutTimes: number[] = [];
  const withTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    withoutTimes.push(...(await withBrowser(false, url, (c) => loadTimes(c, url, per))));
    withTimes.push(...(await withBrowser(true, url, (c) => loadTimes(c, url, per))));
  }
  const without = median(withoutTimes);
  const withSteward = median(withTimes);
  return [
    { metric: 'content.page_load_ms', case: caseName, value: withSteward, unit: 'ms', better: 'lower', anchor: 'same page without Steward', anchor_value: without },
    { metric: 'content.page_load_overhead_pct', case: caseName, value: ((withSteward - without) / without) * 100, unit: '%', better: 'lower' },
  ];
}
