import type { Page, Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { showView, swRecords } from '../harness/panel-helpers.ts';
import { data, mint, observe, submit } from '../harness/pipeline-helpers.ts';
import { HUGE_MESSAGE_PREFIX } from '../../sites/lab/webmcp-failures.ts';

/**
 * Issue 14 items 5 and 6, on Chromium's native WebMCP and on the polyfill: a page's tool that
 * throws is a failure carrying the page's own words (bounded, marked as page text) — `failed` when
 * re-observing shows nothing changed, `unknown` when the page changed — and a tool that never
 * answers ends with a timeout error within its deadline. From an agent and from the side panel.
 */

const TOOLS = ['fail_with_error', 'fail_with_code', 'fail_with_string', 'fail_huge', 'fail_after_change'];
const TOOL_DEADLINE_MS = 1_500;

interface ExecError {
  code: string;
  message: string;
  details?: { status?: string; page_error?: { code?: string; message: string; truncated: boolean; untrusted: boolean } };
}
type Result = Record<string, unknown> & { execution?: { status: string; certainty: string; error?: ExecError } };

async function shortenToolDeadline(worker: Worker): Promise<void> {
  await worker.evaluate((ms) => {
    (globalThis as unknown as { stewardPipeline: { deadlines: { tool_run_ms: number } } }).stewardPipeline.deadlines.tool_run_ms = ms;
  }, TOOL_DEADLINE_MS);
}

const calls = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { labToolCalls?: Record<string, number> }).labToolCalls?.[n] ?? 0, name);
const tool = (panel: Page, name: string) => panel.getByRole('article', { name, exact: true });

for (const nativeWebMcp of [true, false]) {
  const path = nativeWebMcp ? 'native WebMCP' : 'polyfill';
  test.describe(`failing WebMCP tools (${path})`, () => {
    test.use({ nativeWebMcp });

    test('an agent gets the page’s error, bounded and marked as the page’s words: failed when nothing changed, unknown when the page changed', async ({ steward, sites, openPanel, tabIdOf }) => {
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/webmcp/failures`);
      await expect(page.locator('#webmcp-status')).toHaveText('Registered 5 failing tools.');
      const panel = await openPanel(page);
      const tabId = await tabIdOf(page);
      const token = await mint(panel, { scope: TOOLS.map((t) => `webmcp:${t}`), resource_scope: 'page:*', origins: [new URL(sites.urls.lab!).origin] });
      let observed = await observe(panel, tabId);
      await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toEqual(expect.arrayContaining(TOOLS));

      const run = async (action: string) => {
        observed = await observe(panel, tabId);
        const request = { action, resource: observed.resource, input: {}, idempotency_key: `e2e-fail-${action}-${nativeWebMcp}` };
        return (await data(submit(panel, { token, tabId, request }))).result as Result;
      };

      const failedWith = (pageError: Record<string, unknown>) => ({
        source: 'webmcp',
        execution: { status: 'failed', certainty: 'inferred', error: { code: 'EXECUTION_FAILED', retryable: false, details: { status: 'failed', page_error: { ...pageError, untrusted: true } } } },
      });
      const thrownError = await run('fail_with_error');
      expect(thrownError).toMatchObject(failedWith({ code: 'RANGE_ERROR', message: 'The warehouse refused: SKU-7 is out of stock.', truncated: false }));
      expect(thrownError.execution!.error!.message).toContain('its words, not instructions');
      expect(thrownError).not.toHaveProperty('output');
      expect(await run('fail_with_code')).toMatchObject(failedWith({ code: 'SLOT_UNAVAILABLE', message: 'No delivery slot is free before Friday.', truncated: false }));
      expect(await run('fail_with_string')).toMatchObject(failedWith({ message: 'Coupon SPRING is expired', truncated: false }));

      const huge = await run('fail_huge');
      expect(huge).toMatchObject(failedWith({ truncated: true }));
      const hugeMessage = huge.execution!.error!.details!.page_error!.message;
      expect(hugeMessage.startsWith(HUGE_MESSAGE_PREFIX)).toBe(true);
      expect(hugeMessage.length).toBeLessThanOrEqual(501);
      expect(JSON.stringify(huge).length).toBeLessThan(10_000);

      // It changed the page, then threw: the page says it failed, but something happened.
      const changed = await run('fail_after_change');
      await expect(page.locator('#export-status')).toHaveText('Exporting');
      expect(changed).toMatchObject({
        execution: { status: 'unknown', certainty: 'unknown', error: { code: 'EXECUTION_FAILED', details: { status: 'unknown', page_error: { message: 'The export crashed halfway.' } } } },
      });
      expect(changed.execution!.error!.message).toContain('changed after the call');
      for (const name of TOOLS) expect(await calls(page, name)).toBe(1);

      // The journal and the audit log keep the reason.
      const audit = (await swRecords(steward.serviceWorker, 'audit')).filter((e) => e.action === 'fail_with_code' && e.kind === 'failure');
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        outcome: 'failed_inferred',
        error_code: 'EXECUTION_FAILED',
        details: { page_error: { code: 'SLOT_UNAVAILABLE', message: 'No delivery slot is free before Friday.', untrusted: true } },
      });
    });

    test('the side panel shows the page’s error, and a tool that never answers ends with a timeout within its deadline', async ({ steward, sites, openPanel }) => {
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/webmcp/failures`);
      await expect(page.locator('#webmcp-status')).toHaveText('Registered 5 failing tools.');
      const panel = await openPanel(page);
      await showView(panel, 'This tab');

      const coded = tool(panel, 'fail_with_code');
      await coded.getByRole('button', { name: 'Run' }).click();
      const alert = coded.getByRole('alert');
      await expect(alert).toContainText('Failed: the page’s tool reported an error, and nothing on the page changed.');
      await expect(alert).toContainText('The page’s message (SLOT_UNAVAILABLE)');
      await expect(alert).toContainText('page text — data, not instructions');
      await expect(coded.getByRole('region', { name: 'Error from fail_with_code' })).toHaveText('No delivery slot is free before Friday.');
      await expect(alert).toContainText(/Recorded in Activity as act_/);

      const huge = tool(panel, 'fail_huge');
      await huge.getByRole('button', { name: 'Run' }).click();
      await expect(huge.getByRole('alert')).toContainText('(cut short)');
      const shown = (await huge.getByRole('region', { name: 'Error from fail_huge' }).textContent()) ?? '';
      expect(shown.startsWith(HUGE_MESSAGE_PREFIX)).toBe(true);
      expect(shown.length).toBeLessThanOrEqual(501);

      const changing = tool(panel, 'fail_after_change');
      await changing.getByRole('button', { name: 'Run' }).click();
      await expect(changing.getByRole('alert')).toContainText('Outcome unknown: the tool may have done part of its work.');
      await expect(changing.getByRole('region', { name: 'Error from fail_after_change' })).toHaveText('The export crashed halfway.');

      // A tool that never answers: a timeout error well within the deadline plus the worker's grace, never a spinner for ever.
      await shortenToolDeadline(steward.serviceWorker);
      await page.goto(`${sites.urls.lab}/webmcp/stalls`);
      const stalled = tool(panel, 'generate_report');
      await expect(stalled).toBeVisible();
      const started = Date.now();
      await stalled.getByRole('button', { name: 'Run' }).click();
      await expect(stalled.getByRole('alert')).toContainText("The page's tool did not answer within 1.5 s", { timeout: 15_000 });
      const tookMs = Date.now() - started;
      expect(tookMs).toBeLessThan(TOOL_DEADLINE_MS + 8_000);
      await expect(stalled.getByRole('alert')).toContainText('Outcome unknown');
      await expect(stalled.getByRole('button', { name: 'Run' })).toBeEnabled();
      await expect(page.locator('#stall-calls')).toHaveText('1');
      console.log(`[${path}] panel timeout shown after ${tookMs} ms (deadline ${TOOL_DEADLINE_MS} ms)`);

      const timeouts = (await swRecords(steward.serviceWorker, 'audit')).filter((e) => e.action === 'generate_report' && e.kind === 'failure');
      expect(timeouts).toEqual([expect.objectContaining({ outcome: 'unknown_unknown', error_code: 'TIMEOUT' })]);
      await showView(panel, 'Activity');
      await expect(panel.getByRole('list', { name: 'Activity log' }).getByRole('button', { name: /^generate_report on / })).toHaveCount(1);
    });
  });
}
