import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { offered, startRun, useScriptedModel, waitForRun } from './copilot-driver.ts';
import { callTool } from './copilot-replies.ts';
import { test, expect } from './fixtures.ts';

/**
 * The rails are code, not prompt: a model that asks for the same action again and again is
 * stopped when it asks the third time, before that action runs, and the person is asked to look.
 */

interface ClinicRecords {
  tool_calls: Array<{ method: string; path: string; source: string }>;
}
const clinicRecords = async (url: string) => (await (await fetch(new URL('/__demo/state', url))).json()) as ClinicRecords;

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

test('a model that repeats the same action is stopped at the third repeat, which never runs, and the run asks the person', async ({ steward, sites, openPanel, tabIdOf }) => {
  model.fallback(callTool('list_doctors', {}, 'the list of doctors'));

  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/book`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await useScriptedModel(panel, model);
  await offered(panel, tabId, 'list_doctors');

  const started = await startRun(panel, tabId, 'Find me a doctor for my child.');
  const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);

  expect(run.status).toBe('stopped');
  expect(run.end).toMatchObject({ kind: 'stopped', reason: 'stuck' });
  if (run.end?.kind === 'stopped') expect(run.end.detail).toMatch(/list_doctors 3 times in a row/);
  // Asked three times, run twice: the third request was stopped before it reached the page.
  expect(model.requests).toHaveLength(3);
  expect(run.steps.filter((s) => s.action?.name === 'list_doctors' && s.status === 'succeeded')).toHaveLength(2);
  const calls = (await clinicRecords(sites.urls.clinic)).tool_calls.filter((c) => c.source === 'tool:list_doctors');
  expect(calls).toHaveLength(2);
});
