import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';
import { mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * A page registers WebMCP tools whose input schemas would freeze a backtracking validator
 * (`^(a+)+$` in `pattern`, `^(a|aa)+$` in `patternProperties`). Steward lists them as
 * INVALID_TOOL_SCHEMA, never evaluates them, and the service worker keeps answering: the
 * ordinary tool on the same page still runs from the panel and for an agent.
 */
for (const nativeWebMcp of [true, false]) {
  test.describe(nativeWebMcp ? 'native WebMCP' : 'polyfill', () => {
    test.use({ nativeWebMcp });

    test('tools with catastrophic patterns are listed as INVALID_TOOL_SCHEMA and nothing freezes', async ({ steward, sites, openPanel, tabIdOf }) => {
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/hostile-tools`);
      await expect(page.locator('#tools-status')).toHaveText('Registered 3 tools.');
      const panel = await openPanel(page);
      await showView(panel, 'This tab');
      const card = (name: string) => panel.getByRole('article', { name, exact: true });

      for (const [name, pattern] of [
        ['lookup_code', '^(a+)+$'],
        ['tag_notes', '^(a|aa)+$'],
      ] as const) {
        await expect(card(name)).toContainText('INVALID_TOOL_SCHEMA');
        await expect(card(name)).toContainText(`pattern "${pattern}" could take exponential time`);
        await expect(card(name).getByRole('button', { name: 'Run' })).toBeDisabled();
      }

      // An agent that calls it anyway, with the input that would take minutes: refused, at once.
      const tabId = await tabIdOf(page);
      const origin = new URL(sites.urls.lab).origin;
      const token = await mint(panel, { scope: ['webmcp:*'], resource_scope: '*', origins: [origin] });
      const observed = await observe(panel, tabId);
      const refused = await submit(panel, {
        token,
        tabId,
        request: { action: 'lookup_code', resource: observed.resource, input: { code: `${'a'.repeat(40)}!` }, idempotency_key: 'e2e-redos-lookup' },
      });
      expect(refused).toMatchObject({ ok: true, data: { result: { error: { code: 'INVALID_TOOL_SCHEMA', message: expect.stringContaining('^(a+)+$') } } } });
      const keys = await submit(panel, { token, tabId, request: { action: 'tag_notes', resource: observed.resource, input: { [`${'a'.repeat(40)}!`]: 'x' }, idempotency_key: 'e2e-redos-tags' } });
      expect(keys).toMatchObject({ ok: true, data: { result: { error: { code: 'INVALID_TOOL_SCHEMA' } } } });

      // The worker is responsive: the ordinary tool runs, for the agent and from the panel.
      const echoed = await submit(panel, { token, tabId, request: { action: 'echo_code', resource: observed.resource, input: { code: 'ABC-1234' }, idempotency_key: 'e2e-redos-echo' } });
      expect(echoed).toMatchObject({ ok: true, data: { result: { execution: { status: 'confirmed' }, output: { text: 'echo ABC-1234', untrusted: true } } } });
      await card('echo_code').getByLabel('code (required)').fill('ABC-1234');
      await card('echo_code').getByRole('button', { name: 'Run' }).click();
      await expect(card('echo_code').getByRole('region', { name: 'Result of echo_code' })).toHaveText('echo ABC-1234');
    });
  });
}
