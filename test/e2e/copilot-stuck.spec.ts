import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { clinicRecords, offered } from '../harness/copilot-driver.ts';
import { configureCopilot, type Run } from '../harness/copilot-helpers.ts';
import { startGoal } from '../harness/copilot-panel-helpers.ts';
import { callTool } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';
import { control, data } from '../harness/pipeline-helpers.ts';

/**
 * The rails are code, not prompt: a model that asks for the same action again and again is
 * stopped when it asks the third time, before that action runs, and the panel asks the person.
 */

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

test('a model that repeats the same action is stopped at the third repeat, which never runs, and the panel asks the person to look', async ({ steward, sites, openPanel, tabIdOf }) => {
  model.fallback(callTool('list_doctors', {}, 'the list of doctors'));

  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/book`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await configureCopilot(panel, model);
  await offered(panel, tabId, 'list_doctors');

  // The person types the goal in the Co-pilot view; the panel shows the run stop and why.
  const shown = await startGoal(panel, 'Find me a doctor for my child.');
  await expect(shown).toContainText('Stopped: the co-pilot seems stuck', { timeout: 30_000 });
  await expect(shown).toContainText('list_doctors 3 times in a row');
  await expect(shown).toContainText('Please take a look at the page');

  const { runs } = await data<{ runs: Run[] }>(control(panel, { type: 'copilot/runs', tabId }));
  expect(runs).toHaveLength(1);
  const run = runs[0]!;
  expect(run.status).toBe('stopped');
  expect(run.end).toMatchObject({ kind: 'stopped', reason: 'stuck', detail: expect.stringContaining('list_doctors 3 times in a row') });
  // Asked three times, run twice: the third request was stopped before it reached the page.
  expect(model.requests).toHaveLength(3);
  expect(run.steps.filter((s) => s.action?.name === 'list_doctors' && s.status === 'succeeded')).toHaveLength(2);
  expect((await clinicRecords(sites.urls.clinic)).tool_calls.filter((c) => c.source === 'tool:list_doctors')).toHaveLength(2);
});
