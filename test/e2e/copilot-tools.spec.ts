import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { clinicRecords, freeSlot, offered } from '../harness/copilot-driver.ts';
import { configureCopilot, startRun, waitForRun } from '../harness/copilot-helpers.ts';
import { callTool, click, done, offeredAction, selectIn, typeInto } from '../harness/copilot-replies.ts';
import { test, expect } from '../harness/fixtures.ts';
import { approve, pendingCard } from '../harness/pipeline-helpers.ts';

/**
 * Tool-first: on the clinic (native WebMCP) the booking form is a tool, and Steward offers it in
 * the model's action list, so booking takes one step instead of a form's worth of DOM steps. The
 * person approves it (booking is consequential); the clinic's own records show one booking.
 */

let model: ScriptedModel;
test.beforeEach(async () => {
  model = await startScriptedModel();
});
test.afterEach(async () => {
  await model.stop();
});

test('books an appointment through the clinic’s WebMCP tool in one step, and the clinic records exactly one booking', async ({ steward, sites, openPanel, tabIdOf }) => {
  const date = await freeSlot(sites.urls.clinic, 'dr-okafor', '15:00');
  const booking = { doctor: 'dr-okafor', date, time: '15:00', patient_name: 'Jordan Lee' };
  model.script([callTool('book_appointment', booking, 'a new appointment with Dr. Okafor'), done(`Booked Dr. Okafor on ${date} at 15:00 for Jordan Lee.`)]);

  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/book`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await configureCopilot(panel, model);
  await offered(panel, tabId, 'book_appointment');
  const before = (await clinicRecords(sites.urls.clinic)).appointments.length;

  const started = await startRun(panel, tabId, `Book an appointment with Dr. Okafor on ${date} at 15:00 for Jordan Lee.`);
  await approve(panel, await pendingCard(panel, 'book_appointment'));
  const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);

  // The tool was in the one list the model saw, with its path and its need for approval.
  expect(offeredAction(model.requests[0]!, 'book_appointment')).toMatch(/via webmcp.*needs approval/);
  // One action and the final answer; the answer is verified by the pipeline, not taken on trust.
  const actions = run.steps.filter((s) => s.action);
  expect(actions.map((s) => [s.action!.name, s.action!.via])).toEqual([['book_appointment', 'webmcp']]);
  expect(run.steps.at(-1)?.status).toBe('final');
  expect(new Set(run.steps.map((s) => s.n)).size).toBe(2);
  expect(model.requests).toHaveLength(2);
  expect(run.end).toMatchObject({ kind: 'done', verified: true });

  const records = await clinicRecords(sites.urls.clinic);
  expect(records.appointments).toHaveLength(before + 1);
  const booked = records.appointments.filter((a) => a.date === date && a.time === '15:00' && a.doctor_id === 'dr-okafor' && a.status === 'booked');
  expect(booked).toEqual([expect.objectContaining({ patient_name: 'Jordan Lee' })]);
  expect(records.tool_calls.filter((c) => c.method === 'POST' && c.path === '/api/appointments')).toEqual([expect.objectContaining({ source: 'agent-form:book_appointment' })]);
});

test('without the tool the same booking takes the form’s DOM steps, date picker included, and still books once', async ({ steward, sites, openPanel, tabIdOf }) => {
  const date = await freeSlot(sites.urls.clinic, 'dr-okafor', '15:30');
  model.script([
    selectIn('Doctor', 'Dr. Amara Okafor — General practice'),
    typeInto('Date', date),
    selectIn('Time', '15:30'),
    typeInto('Patient name', 'Jordan Lee'),
    click('Book appointment', 'the booking is confirmed'),
    done(`Booked Dr. Okafor on ${date} at 15:30 for Jordan Lee.`),
  ]);

  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.clinic}#/book`);
  const panel = await openPanel(page);
  const tabId = await tabIdOf(page);
  await configureCopilot(panel, model);

  const started = await startRun(panel, tabId, `Book an appointment with Dr. Okafor on ${date} at 15:30 for Jordan Lee, using the form.`);
  await approve(panel, await pendingCard(panel, 'dom.click'));
  const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);

  // Filling the form field by field is progress, not "stuck" (the state's version ignores typed values).
  expect(run.steps.filter((s) => s.action).map((s) => [s.action!.name, s.status])).toEqual([
    ['dom.select', 'succeeded'],
    ['dom.type', 'succeeded'],
    ['dom.select', 'succeeded'],
    ['dom.type', 'succeeded'],
    ['dom.click', expect.any(String)],
  ]);
  expect(run.end).toMatchObject({ kind: 'done' });
  await expect(page.locator('#book-result')).toContainText(`on ${date} at 15:30 for Jordan Lee`);
  const records = await clinicRecords(sites.urls.clinic);
  expect(records.appointments.filter((a) => a.date === date && a.time === '15:30' && a.doctor_id === 'dr-okafor' && a.status === 'booked')).toHaveLength(1);
  expect(records.tool_calls.filter((c) => c.path === '/api/appointments')).toEqual([]);
});
