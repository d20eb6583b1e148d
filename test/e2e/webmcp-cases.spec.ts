import { test, expect } from '../harness/fixtures.ts';
import { mint, observe, submitApproving } from '../harness/pipeline-helpers.ts';

/**
 * The three shapes public WebMCP pages use that Steward's polyfill once got wrong (the lab's
 * `/webmcp/cases`), through Steward's pipeline, under Chromium's native WebMCP and under the
 * polyfill: the same tools, the same outcome per call. A tool registered with `exposedTo` exists
 * and answers; a tool that swaps itself for another (aborting its own registration while it
 * runs) answers; a GET form with `toolautosubmit` that navigates is confirmed by its result page,
 * with no output (never the text "undefined").
 */

for (const nativeWebMcp of [true, false]) {
  test.describe(nativeWebMcp ? 'native WebMCP' : 'Steward’s polyfill', () => {
    test.use({ nativeWebMcp });

    test('exposedTo, a tool that swaps itself, and a form that navigates: each call ends as on a plain page', async ({ steward, sites, openPanel, tabIdOf }) => {
      const lab = new URL(sites.urls.lab).origin;
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/webmcp/cases`);
      const panel = await openPanel(page);
      const tabId = await tabIdOf(page);
      const token = await mint(panel, { scope: ['webmcp:partner_prices', 'webmcp:begin_survey', 'webmcp:search_catalog'], resource_scope: 'page:*', origins: [lab] });
      let observed = await observe(panel, tabId);
      await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toEqual(expect.arrayContaining(['partner_prices', 'begin_survey', 'search_catalog']));
      const call = (action: string, input: Record<string, unknown> = {}) =>
        submitApproving(panel, { token, tabId, request: { action, resource: observed.resource, input, idempotency_key: `e2e-cases-${action}` } });

      // (a) registered with exposedTo: there, and it answers.
      expect(await call('partner_prices')).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, output: { text: expect.stringContaining('Partner prices') } });

      // (b) it aborts its own registration while it runs: its answer, not "Tool unregistered"; the page moved on.
      expect(await call('begin_survey')).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, output: { text: 'Survey begun: answer the first question next.' } });
      await expect(page.locator('#survey-step')).toHaveText('Question 1 of 3');
      await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('answer_survey');
      expect(observed.available_actions).not.toContain('begin_survey');

      // (c) the form navigates to its result page: confirmed by that page, with no output.
      const searched = await call('search_catalog', { q: 'trail shoes' });
      await expect(page).toHaveURL(/\/webmcp\/cases\/results\?q=trail\+shoes$/);
      expect(searched).toMatchObject({ execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'postcondition' } });
      expect(searched).not.toHaveProperty('output');
    });
  });
}
