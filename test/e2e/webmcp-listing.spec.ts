import type { Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { LONG_DESCRIPTION, LONG_PARAMETER_DESCRIPTION, LONG_TOOL_NAME } from '../../sites/lab/webmcp-listing.ts';
import { configureCopilot, startRun, waitForRun } from '../harness/copilot-helpers.ts';
import { done, promptOf } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';
import { data, mint, observe, submit } from '../harness/pipeline-helpers.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * WebMCP tool listing on Chromium's native API (`/webmcp/listing` on the lab): getTools() is
 * page-wide, so the top frame and its same-origin store widget would each report every tool.
 * Each tool is listed once, under the frame that registered it, and runs there; long text reaches
 * agents cut to Chrome's budgets while the person reads it whole; a debugging tool is kept from
 * agents unless Settings says otherwise, and listed apart in the panel.
 */

const card = (panel: Page, name: string) => panel.getByRole('article', { name, exact: true });
const TOP_TOOLS = ['check_stock', 'return_policy', LONG_TOOL_NAME, 'dump_debug_state'];

async function listingPage(page: Page, labUrl: string): Promise<void> {
  await page.goto(`${labUrl}/webmcp/listing`);
  await expect(page.frameLocator('#store-widget').locator('#child-calls')).toHaveText('0');
}

async function setShowDebugging(panel: Page, on: boolean): Promise<void> {
  await panel.evaluate(async (on) => {
    const key = 'steward.settings';
    const current = ((await chrome.storage.local.get(key))[key] ?? {}) as Record<string, unknown>;
    await chrome.storage.local.set({ [key]: { ...current, show_debugging_tools: on } });
  }, on);
}

test.describe('WebMCP tool listing (native)', () => {
  test('a tool of a same-origin child frame is listed once, under that frame, and runs there', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await listingPage(page, sites.urls.lab);
    const panel = await openPanel(page);
    await showView(panel, 'This tab');

    for (const name of [...TOP_TOOLS, 'store_hours']) await expect(card(panel, name)).toHaveCount(1);
    await expect(panel.getByRole('list', { name: 'Tools', exact: true }).getByRole('article')).toHaveCount(4);
    await expect(card(panel, 'store_hours')).toContainText('registered in an embedded frame');
    await expect(card(panel, 'check_stock')).not.toContainText('embedded frame');

    // The registry holds each tool under the frame that registered it.
    const frames = (await steward.serviceWorker.evaluate(async () => (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'])) as Array<{
      frameId: number;
      url: string;
      tools: Array<{ name: string }>;
    }>;
    const listed = frames.filter((f) => f.url.includes('/webmcp/listing')).map((f) => [f.frameId === 0 ? 'top' : 'child', f.tools.map((t) => t.name).sort()]);
    expect(listed.sort()).toEqual([
      ['child', ['store_hours']],
      ['top', [...TOP_TOOLS].sort()],
    ]);

    // Run from the panel: each tool runs in its own frame.
    await card(panel, 'store_hours').getByRole('button', { name: 'Run' }).click();
    await expect(card(panel, 'store_hours').getByRole('region', { name: 'Result of store_hours' })).toContainText('ran store_hours in the child frame');
    await expect(page.frameLocator('#store-widget').locator('#child-calls')).toHaveText('1');
    await expect(page.locator('#top-calls')).toHaveText('0');
    await card(panel, 'check_stock').getByRole('button', { name: 'Run' }).click();
    await expect(card(panel, 'check_stock').getByRole('region', { name: 'Result of check_stock' })).toContainText('ran check_stock in the top frame');
    await expect(page.locator('#top-calls')).toHaveText('1');
    await expect(page.frameLocator('#store-widget').locator('#child-calls')).toHaveText('1');
  });

  test('long text is cut for agents and whole behind “more”; a debugging tool is hidden from agents until Settings shows it', async ({ steward, sites, openPanel, tabIdOf }) => {
    let model: ScriptedModel | undefined;
    try {
      model = await startScriptedModel();
      model.script([done('The return policy is listed.')]);
      const page = await steward.context.newPage();
      await listingPage(page, sites.urls.lab);
      const panel = await openPanel(page);
      const tabId = await tabIdOf(page);
      await showView(panel, 'This tab');

      // The person: the whole description behind "more", and the debugging tool in its own list.
      const policy = card(panel, 'return_policy');
      await expect(policy).toContainText('agents get the first 500 characters');
      await expect(policy).not.toContainText('THE-END-OF-THE-LONG-DESCRIPTION');
      await policy.getByRole('button', { name: 'More of the description of return_policy' }).click();
      await expect(policy).toContainText(LONG_DESCRIPTION);
      await policy.getByRole('button', { name: 'More of the description of category' }).click();
      await expect(policy).toContainText(LONG_PARAMETER_DESCRIPTION);
      await expect(card(panel, LONG_TOOL_NAME)).toContainText('name over 30 characters');
      await expect(panel.getByRole('list', { name: 'Debugging tools' }).getByRole('article', { name: 'dump_debug_state' })).toBeVisible();
      await expect(panel.getByRole('list', { name: 'Tools', exact: true }).getByRole('article', { name: 'dump_debug_state' })).toHaveCount(0);

      // An agent (the co-pilot): cut text, flagged; the long name whole; no debugging tool.
      await configureCopilot(panel, model);
      const run = await startRun(panel, tabId, 'What is the return policy for shoes?');
      await waitForRun(panel, run.run_id, (r) => r.end !== undefined);
      const prompt = promptOf(model.requests[0]!);
      expect(prompt).toContain('return_policy');
      expect(prompt).toContain('description truncated');
      expect(prompt).not.toContain('THE-END-OF-THE-LONG-DESCRIPTION');
      expect(prompt).not.toContain('THE-END-OF-THE-PARAMETER');
      expect(prompt).toContain(LONG_TOOL_NAME);
      expect(prompt).toContain('store_hours');
      expect(prompt).not.toContain('dump_debug_state');

      // The gateway: an agent cannot run it, even with a token that names it.
      const origin = new URL(sites.urls.lab).origin;
      const token = await mint(panel, { scope: ['webmcp:dump_debug_state', 'webmcp:check_stock'], resource_scope: '*', origins: [origin] });
      const observedResource = async () => (await observe(panel, tabId)).resource;
      const hidden = (await data(submit(panel, { token, tabId, request: { action: 'dump_debug_state', resource: await observedResource(), input: {}, idempotency_key: 'e2e-debug-hidden' } }))).result;
      expect(hidden.error?.code).toBe('TOOL_NOT_FOUND');
      const summary = (hidden as { available_actions?: Array<{ action: string }> }).available_actions?.map((a) => a.action) ?? [];
      expect(summary).toContain('check_stock');
      expect(summary).not.toContain('dump_debug_state');
      await expect(page.locator('#top-calls')).toHaveText('0');

      // The person can still run it from the panel.
      await card(panel, 'dump_debug_state').getByRole('button', { name: 'Run' }).click();
      await expect(card(panel, 'dump_debug_state').getByRole('region', { name: 'Result of dump_debug_state' })).toContainText('ran dump_debug_state in the top frame');
      await expect(page.locator('#top-calls')).toHaveText('1');

      // With the setting on, agents are offered it and the gateway runs it.
      await setShowDebugging(panel, true);
      const shown = (await data(submit(panel, { token, tabId, request: { action: 'dump_debug_state', resource: await observedResource(), input: {}, idempotency_key: 'e2e-debug-shown' } }))).result;
      expect(shown).toMatchObject({ execution: { status: 'confirmed' }, source: 'webmcp' });
      await expect(page.locator('#top-calls')).toHaveText('2');
    } finally {
      await model?.stop();
    }
  });
});
