/**
 * Runs the vendored web-platform-tests `webmcp/` pages (served by the lab, sites/lab/wpt-webmcp.ts)
 * in a browser Steward is loaded in, and collects testharness.js's results per subtest. Used by
 * the e2e spec (polyfill against native) and by the bench (`webmcp.wpt_pass`).
 */
import type { BrowserContext } from '@playwright/test';
import { wptTestPaths } from '../../sites/lab/wpt-webmcp.ts';

/** testharness.js's subtest statuses (Test.statuses). */
const STATUS_NAMES = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'] as const;

export interface WptSubtest {
  /** `<page path> | <subtest name>`: unique across the suite. */
  id: string;
  status: (typeof STATUS_NAMES)[number] | 'HARNESS_ERROR';
  message: string | null;
}

interface PageResults {
  harness: { status: number; message: string | null };
  tests: Array<{ name: string; status: number; message: string | null }>;
}

/** Long enough for a page whose harness runs to its own "long" timeout (60 s) and reports it. */
const PAGE_DEADLINE_MS = 75_000;

/** Every subtest of one page; a page whose harness itself failed counts as one HARNESS_ERROR. */
async function runPage(context: BrowserContext, origin: string, path: string): Promise<WptSubtest[]> {
  const page = await context.newPage();
  try {
    await page.goto(origin + path);
    await page.waitForFunction(() => (window as { __wptResults?: unknown }).__wptResults !== undefined, undefined, { timeout: PAGE_DEADLINE_MS });
    const results = (await page.evaluate(() => (window as unknown as { __wptResults: PageResults }).__wptResults)) as PageResults;
    const subtests: WptSubtest[] = results.tests.map((t) => ({ id: `${path} | ${t.name}`, status: STATUS_NAMES[t.status] ?? 'FAIL', message: t.message }));
    // Harness status 0 is OK; otherwise (an uncaught error, a timeout) the page did not run as written.
    if (results.harness.status !== 0) subtests.push({ id: `${path} | (harness)`, status: 'HARNESS_ERROR', message: results.harness.message });
    return subtests;
  } catch (error) {
    return [{ id: `${path} | (harness)`, status: 'HARNESS_ERROR', message: error instanceof Error ? error.message.split('\n')[0]! : String(error) }];
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Pages in flight at once (each its own tab and document; results keep the suite's order). */
const CONCURRENCY = 4;

/** The whole suite from `origin` (the lab's URL), a few pages at a time. */
export async function runWptWebMcp(context: BrowserContext, origin: string): Promise<WptSubtest[]> {
  const paths = wptTestPaths();
  const results: WptSubtest[][] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) results[i] = await runPage(context, origin, paths[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, paths.length) }, worker));
  return results.flat();
}

export const passed = (results: WptSubtest[]): Set<string> => new Set(results.filter((r) => r.status === 'PASS').map((r) => r.id));
