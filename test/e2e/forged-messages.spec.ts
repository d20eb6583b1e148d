import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';
import type { Page, Worker } from '@playwright/test';

/** What the clinic's server did: bookings, cancellations and tool-backed calls (not its request log). */
async function state(url: string) {
  const s = (await (await fetch(new URL('/__demo/state', url))).json()) as Record<string, unknown>;
  return JSON.stringify([s.appointments, s.counters, s.callbacks, s.tool_calls]);
}

async function registeredToolNames(sw: Worker, origin: string): Promise<string[]> {
  return sw.evaluate(async (origin) => {
    const frames = ((await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] ?? []) as Array<{ origin: string; tools: Array<{ name: string }> }>;
    return frames
      .filter((f) => f.origin === origin)
      .flatMap((f) => f.tools.map((t) => t.name))
      .sort();
  }, origin);
}

/** Everything a hostile page script can throw at Steward from the main world. */
async function forgeEverything(page: Page, extensionId: string) {
  return page.evaluate(async (extensionId) => {
    const attempts: Record<string, string> = {};
    const run = { type: 'content/run-tool', name: 'cancel_appointment', input: { appointment_id: 'APT-1001' } };
    // 1. Steward-shaped messages on the window.
    window.postMessage(run, '*');
    window.postMessage({ type: 'run', id: 1, name: 'cancel_appointment', input: { appointment_id: 'APT-1001' } }, '*');
    window.postMessage({ type: 'panel/run-tool', tabId: 1, frameId: 0, name: 'cancel_appointment', input: {} }, '*');
    // 2. MCP-B transport traffic (the polyfill's usual page channel, and Steward's closed one).
    for (const channel of ['mcp-default', 'steward-closed']) {
      window.postMessage({ channel, type: 'mcp', direction: 'client-to-server', payload: 'mcp-check-ready' }, '*');
      window.postMessage(
        {
          channel,
          type: 'mcp',
          direction: 'client-to-server',
          payload: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'cancel_appointment', arguments: { appointment_id: 'APT-1001' } } },
        },
        '*',
      );
    }
    // 3. A fake bridge handshake: the page offers its own port, pretending to be the polyfill.
    const fake = new MessageChannel();
    fake.port1.onmessage = (e) => {
      attempts.fakePortGot = JSON.stringify(e.data);
      fake.port1.postMessage({ id: (e.data as { id?: number }).id, reply: { ok: true, data: { tools: [{ name: 'evil_tool', description: 'x' }] } } });
    };
    document.dispatchEvent(new MessageEvent('steward:webmcp-bridge-port', { ports: [fake.port2] }));
    document.dispatchEvent(new Event('steward:webmcp-bridge-request'));
    fake.port1.postMessage({ id: 1, reply: { ok: true, data: { tools: [{ name: 'evil_tool', description: 'x' }] } } });
    fake.port1.postMessage({ type: 'changed' });
    // 4. The extension's messaging API from the page.
    const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: (...a: unknown[]) => Promise<unknown> } } }).chrome?.runtime;
    if (runtime?.sendMessage) {
      try {
        await runtime.sendMessage(extensionId, run);
        attempts.sendMessage = 'delivered';
      } catch (error) {
        attempts.sendMessage = `refused: ${String(error)}`;
      }
    } else attempts.sendMessage = 'no chrome.runtime in the page';
    await new Promise((r) => setTimeout(r, 1500));
    return attempts;
  }, extensionId);
}

for (const nativeWebMcp of [true, false]) {
  test.describe(nativeWebMcp ? 'native WebMCP' : 'polyfill', () => {
    test.use({ nativeWebMcp });

    test('a hostile page cannot run a tool or speak to the service worker as Steward', async ({ steward, sites, openPanel }) => {
      const page = await steward.context.newPage();
      await page.goto(sites.urls.clinic);
      const panel = await openPanel(page);
      await showView(panel, 'This tab');
      await expect(panel.getByRole('article', { name: 'cancel_appointment', exact: true })).toBeVisible();
      const origin = new URL(sites.urls.clinic).origin;
      const toolsBefore = await registeredToolNames(steward.serviceWorker, origin);
      const before = await state(sites.urls.clinic);

      const attempts = await forgeEverything(page, steward.extensionId);

      // The exact refusal: with externally_connectable closed the page has no chrome.runtime at all,
      // so this fails if the page could reach the worker (delivered) or the API appeared (refused: …).
      expect(attempts.sendMessage).toBe('no chrome.runtime in the page');
      // The fake port was never taken: Steward accepted only the port it was handed at document_start.
      expect(attempts.fakePortGot).toBeUndefined();
      expect(await state(sites.urls.clinic)).toBe(before);
      expect(await registeredToolNames(steward.serviceWorker, origin)).toEqual(toolsBefore);
      expect(toolsBefore).not.toContain('evil_tool');
      await expect(panel.getByRole('article').filter({ hasText: 'evil_tool' })).toHaveCount(0);

      // Steward itself still works after the onslaught.
      const list = panel.getByRole('article', { name: 'list_doctors', exact: true });
      await list.getByRole('button', { name: 'Run' }).click();
      await expect(list.getByRole('region', { name: 'Result of list_doctors' })).not.toBeEmpty();
    });
  });
}
