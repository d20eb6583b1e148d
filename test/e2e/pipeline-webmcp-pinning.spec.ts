import type { Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { data, journal, mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * A WebMCP call is pinned to the document whose tools were observed. Here the agent's tab shows
 * the clinic (tool `list_doctors`), then navigates to the lab, another site whose page offers a
 * tool of the same name. Nothing meant for the clinic may ever run on the lab's page.
 */

interface LabState {
  requests: Array<{ path: string; source: string | null }>;
}
const labCalls = async (labUrl: string) =>
  ((await (await fetch(new URL('/__demo/state', labUrl))).json()) as LabState).requests.filter((r) => r.path === '/api/tool-calls' && r.source === 'tool:list_doctors').length;

/** Chrome's id for the document that last reported the tab's top-frame tools. */
async function topDocumentId(worker: Worker, tabId: number): Promise<string | undefined> {
  return worker.evaluate(async (id) => {
    const frames = (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] as Array<{ tabId: number; frameId: number; documentId?: string }> | undefined;
    return frames?.find((f) => f.tabId === id && f.frameId === 0)?.documentId;
  }, tabId);
}

test('a tab that navigated to another site offering a same-named tool never runs the agent’s call there', async ({ steward, sites, openPanel, tabIdOf }) => {
  const clinic = new URL(sites.urls.clinic!).origin;
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/book`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  const token = await mint(panel, { scope: ['webmcp:list_doctors'], resource_scope: 'page:*', origins: [clinic] });
  let observed = await observe(panel, tabId);
  await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('list_doctors');
  await expect.poll(() => topDocumentId(steward.serviceWorker, tabId)).toBeDefined();
  const clinicDocument = (await topDocumentId(steward.serviceWorker, tabId))!;

  // The tab moves on to the lab's page, which offers its own `list_doctors`.
  await page.goto(`${sites.urls.lab}/webmcp/same-name`);
  await expect.poll(() => topDocumentId(steward.serviceWorker, tabId)).not.toBe(clinicDocument);

  // Through the pipeline: the agent's action for the clinic page is refused, nothing dispatched.
  const key = 'e2e-same-name-after-navigation';
  const result = (await data(submit(panel, { token, tabId, request: { action: 'list_doctors', resource: observed.resource, input: {}, idempotency_key: key } }))).result;
  expect(result).toMatchObject({ error: { code: expect.stringMatching(/^(TOOL_NOT_FOUND|PRECONDITION_FAILED|SCOPE_DENIED)$/) } });
  const j = await journal(panel);
  const head = j.heads.find((h) => h.idempotency_key === key)!;
  expect(j.entries.filter((e) => e.action_id === head.action_id).map((e) => e.state)).not.toContain('dispatched');

  // The pin itself, as Steward's executor sends it: a message for the clinic's document is never
  // delivered to the lab's page (Chrome refuses it), so the same-named tool cannot run.
  const pinned = await steward.serviceWorker.evaluate(
    async ({ tabId, documentId }) =>
      chrome.tabs.sendMessage(tabId, { type: 'content/run-tool', name: 'list_doctors', input: {} }, { documentId }).then(
        () => 'delivered',
        () => 'refused',
      ),
    { tabId, documentId: clinicDocument },
  );
  expect(pinned).toBe('refused');
  await expect(page.locator('#same-name-calls')).toHaveText('0');
  expect(await labCalls(sites.urls.lab!)).toBe(0);

  // What the pin prevents: sent by frame alone (as before), the lab's tool runs.
  await steward.serviceWorker.evaluate(async (tabId) => chrome.tabs.sendMessage(tabId, { type: 'content/run-tool', name: 'list_doctors', input: {} }, { frameId: 0 }), tabId);
  await expect(page.locator('#same-name-calls')).toHaveText('1');
});
