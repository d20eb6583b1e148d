import type { Page, Worker } from '@playwright/test';
import type { StewardBrowser } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { control, data, journal, mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * DESIGN §9 invariant 9: every call into a page has a deadline. The lab's `generate_report` tool
 * accepts a call and never answers. The agent must get an answer — `unknown` with TIMEOUT, never
 * "done" and never a wait for ever — and the journal must not be left at `dispatched`. The
 * deadline is shortened for the test through the worker's global scope (it is a constant).
 */

async function shortenToolDeadline(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    (globalThis as unknown as { stewardPipeline: { deadlines: { tool_run_ms: number } } }).stewardPipeline.deadlines.tool_run_ms = 1_500;
  });
}

interface LabState {
  requests: Array<{ method: string; path: string; source: string | null }>;
}
const toolCalls = async (labUrl: string, name: string) =>
  ((await (await fetch(new URL('/__demo/state', labUrl))).json()) as LabState).requests.filter((r) => r.path === '/api/tool-calls' && r.source === `tool:${name}`);

/** The lab's stalling-tool page in a tab, its panel, a token for the tool, and a short tool deadline. */
async function stallingToolPage(steward: StewardBrowser, labUrl: string, openPanel: (page: Page) => Promise<Page>, tabIdOf: (page: Page) => Promise<number>) {
  const page = await steward.context.newPage();
  await page.goto(`${labUrl}/webmcp/stalls`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['webmcp:generate_report'], resource_scope: 'page:*', origins: [new URL(labUrl).origin] });
  let observed = await observe(panel, tabId);
  await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('generate_report');
  await shortenToolDeadline(steward.serviceWorker);
  return { page, panel, tabId, token, observed };
}

for (const nativeWebMcp of [true, false]) {
  test.describe(`a page that never answers (${nativeWebMcp ? 'native WebMCP' : 'polyfill'})`, () => {
    test.use({ nativeWebMcp });

    test('a WebMCP tool that never answers ends unknown with TIMEOUT, and the agent is not left waiting', async ({ steward, sites, openPanel, tabIdOf }) => {
      const { page, panel, tabId, token, observed } = await stallingToolPage(steward, sites.urls.lab!, openPanel, tabIdOf);

      const key = `e2e-stalled-tool-${nativeWebMcp ? 'native' : 'polyfill'}`;
      const request = { action: 'generate_report', resource: observed.resource, input: {}, idempotency_key: key };
      const result = (await data(submit(panel, { token, tabId, request }))).result;
      expect(result).toMatchObject({
        source: 'webmcp',
        execution: { status: 'unknown', certainty: 'unknown', error: { code: 'TIMEOUT', retryable: false, message: expect.stringContaining('did not answer in time') } },
      });
      expect(result).not.toHaveProperty('effects');
      // The page really received the call: it may have acted, which is why the outcome is unknown.
      await expect(page.locator('#stall-calls')).toHaveText('1');
      expect(await toolCalls(sites.urls.lab!, 'generate_report')).toHaveLength(1);

      // The journal ends at unknown with the reason, never stuck at dispatched.
      const j = await journal(panel);
      const head = j.heads.find((h) => h.idempotency_key === key)!;
      expect(head.state).toBe('unknown');
      expect(
        j.entries
          .filter((e) => e.action_id === head.action_id)
          .sort((a, b) => a.seq - b.seq)
          .map((e) => e.state),
      ).toEqual(['proposed', 'dispatched', 'unknown']);

      // Asking again gets the same answer and does not call the page a second time.
      const replay = (await data(submit(panel, { token, tabId, request }))).result;
      expect(replay).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT' } } });
      expect(await toolCalls(sites.urls.lab!, 'generate_report')).toHaveLength(1);
    });
  });
}

test('a background recheck of that unknown action never takes the person’s tab back to the page', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { page, panel, tabId, token, observed } = await stallingToolPage(steward, sites.urls.lab!, openPanel, tabIdOf);
  const key = 'e2e-stalled-then-rechecked';
  const result = (await data(submit(panel, { token, tabId, request: { action: 'generate_report', resource: observed.resource, input: {}, idempotency_key: key } }))).result;
  expect(result).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT' } } });

  // The person uses the tab for something else; then the recheck alarm fires.
  await page.goto(`${sites.urls.lab}/`);
  await tabIdOf(page);
  const rechecks = async () =>
    (await data<{ entries: Array<{ kind: string; idempotency_key?: string }> }>(control(panel, { type: 'panel/audit' }))).entries.filter((e) => e.idempotency_key === key && e.kind === 'recovery')
      .length;
  expect(await rechecks()).toBe(0);
  await steward.serviceWorker.evaluate(() => chrome.alarms.create('steward.recheck', { when: Date.now() + 100 }));
  await expect.poll(rechecks, { timeout: 20_000 }).toBeGreaterThan(0);
  // The recheck looked at the tab as it is and left it there.
  expect(new URL(page.url()).pathname).toBe('/');
  await expect(page.locator('#lab-pages')).toBeVisible();
  expect((await journal(panel)).heads.find((h) => h.idempotency_key === key)?.state).toBe('unknown');
  expect(await toolCalls(sites.urls.lab!, 'generate_report')).toHaveLength(1);
});
