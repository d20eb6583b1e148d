import type { Page } from '@playwright/test';
import type { CopilotRun } from '../src/protocol/copilot.ts';
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../sites/model/scripted-server.ts';
import type { RunningDemoSites } from '../sites/server.ts';
import type { StewardBrowser } from '../test/harness/browser.ts';
import { approveUntilEnd, freeSlot, offered, panelFor, promptTokens, startRun, useScriptedModel } from '../test/harness/copilot-driver.ts';
import { callTool, callToolVia, click, done, selectIn, typeInto } from '../test/harness/copilot-replies.ts';
import { connectContract, disconnectContract } from './contract-connect.ts';
import { median, type Row } from './report.ts';

/**
 * task.steps, task.wall_ms and task.prompt_tokens: whole co-pilot runs in Steward, from the goal to
 * the run's end, with a scripted model (so the numbers measure Steward, not a model) and the
 * person's approvals given as soon as each card appears. book.webmcp and book.legacy book the same
 * appointment on the same clinic page, through its WebMCP tool or through its form's DOM controls;
 * cancel-order.native and cancel-order.legacy cancel the same order on the same shop page, through
 * the shop's contract (Steward connected to it first) or through the page's cancel form.
 */

interface TaskCase {
  name: string;
  url: (sites: RunningDemoSites) => string;
  goal: string;
  /** The tab must offer this before the run starts (WebMCP tools register after load). */
  waitFor?: string;
  script: (ctx: { date: string }) => ScriptedReply[];
  /** Set-up on the open tab before the clock starts (the person connecting a site); returns its undoing. */
  prepare?: (panel: Page, tabId: number) => Promise<() => Promise<void>>;
  /** The site's own records say the task happened exactly once. */
  check: (sites: RunningDemoSites, ctx: { date: string }) => Promise<string | undefined>;
}

const DOCTOR = { id: 'dr-okafor', label: 'Dr. Amara Okafor — General practice' };
const TIME = '15:00';
const PATIENT = 'Jordan Lee';

async function state<T>(url: string): Promise<T> {
  return (await (await fetch(new URL('/__demo/state', url))).json()) as T;
}

async function oneBooking(sites: RunningDemoSites, { date }: { date: string }): Promise<string | undefined> {
  const { appointments } = await state<{ appointments: Array<{ doctor_id: string; date: string; time: string; status: string }> }>(sites.urls.clinic);
  const n = appointments.filter((a) => a.doctor_id === DOCTOR.id && a.date === date && a.time === TIME && a.status === 'booked').length;
  return n === 1 ? undefined : `${n} bookings on the clinic instead of 1`;
}

async function oneCancellation(sites: RunningDemoSites): Promise<string | undefined> {
  const { counters } = await state<{ counters: Record<string, { cancelled: number }> }>(sites.urls.shop);
  const n = counters['ORD-1024']?.cancelled ?? 0;
  return n === 1 ? undefined : `${n} cancellations on the shop instead of 1`;
}

const CANCEL_GOAL = 'Cancel order ORD-1024, I ordered it by mistake.';

const CASES: TaskCase[] = [
  {
    name: 'book.webmcp',
    url: (s) => `${s.urls.clinic}/#/book`,
    goal: `Book an appointment with Dr. Okafor at ${TIME} for ${PATIENT}.`,
    waitFor: 'book_appointment',
    script: ({ date }) => [callTool('book_appointment', { doctor: DOCTOR.id, date, time: TIME, patient_name: PATIENT }, 'a new appointment'), done('Booked.')],
    check: oneBooking,
  },
  {
    name: 'book.legacy',
    url: (s) => `${s.urls.clinic}/#/book`,
    goal: `Book an appointment with Dr. Okafor at ${TIME} for ${PATIENT}.`,
    waitFor: 'book_appointment',
    script: ({ date }) => [
      selectIn('Doctor', DOCTOR.label),
      typeInto('Date', date),
      selectIn('Time', TIME),
      typeInto('Patient name', PATIENT),
      click('Book appointment', 'the booking is confirmed'),
      done('Booked.'),
    ],
    check: oneBooking,
  },
  {
    name: 'cancel-order.legacy',
    url: (s) => `${s.urls.shop}/orders/ORD-1024`,
    goal: CANCEL_GOAL,
    script: () => [selectIn('Reason for cancelling', 'Ordered by mistake'), click('Cancel order', 'the order is cancelled'), done('Cancelled ORD-1024.')],
    check: oneCancellation,
  },
  {
    name: 'cancel-order.native',
    url: (s) => `${s.urls.shop}/orders/ORD-1024`,
    goal: CANCEL_GOAL,
    prepare: async (panel, tabId) => {
      const site = await connectContract(panel, tabId, 'orders.cancel');
      return () => disconnectContract(panel, site.origin);
    },
    script: () => [callToolVia('orders.cancel', 'site_contract', { reason: 'ordered_by_mistake' }, 'the order is cancelled'), done('Cancelled ORD-1024.')],
    check: oneCancellation,
  },
];

interface Measured {
  steps: number;
  wall_ms: number;
  prompt_tokens: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The run's action steps as `name via path`, in order: which path each step took (said in the task.steps row's note). */
function actionSteps(run: CopilotRun): string[] {
  const byStep = new Map<number, string>();
  for (const s of run.steps) if (s.action) byStep.set(s.n, s.action.via ? `${s.action.name} via ${s.action.via}` : s.action.name);
  return [...byStep.values()];
}

async function settled(page: Page): Promise<void> {
  // The shop fetches its live status after load; acting on a settled page keeps the run about Steward.
  if (page.url().includes('/orders/')) await page.locator('#live-status').filter({ hasNotText: 'checking' }).waitFor();
}

async function runOnce(browser: StewardBrowser, model: ScriptedModel, sites: RunningDemoSites, c: TaskCase): Promise<Measured & { actions: string[] }> {
  for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
  const ctx = { date: await freeSlot(sites.urls.clinic, DOCTOR.id, TIME) };
  model.script(c.script(ctx));
  const page = await browser.context.newPage();
  await page.goto(c.url(sites));
  await settled(page);
  const { panel, tabId } = await panelFor(browser, page);
  let undo: (() => Promise<void>) | undefined;
  try {
    await useScriptedModel(panel, model);
    if (c.waitFor) await offered(panel, tabId, c.waitFor);
    undo = await c.prepare?.(panel, tabId);
    const firstRequest = model.requests.length;
    const t0 = performance.now();
    const started = await startRun(panel, tabId, c.goal);
    const run: CopilotRun = await approveUntilEnd(panel, started.run_id);
    const wall = performance.now() - t0;
    if (run.end?.kind !== 'done') throw new Error(`${c.name}: the run ended ${JSON.stringify(run.end)}`);
    const wrong = await c.check(sites, ctx);
    if (wrong) throw new Error(`${c.name}: ${wrong}`);
    // Distinct step numbers: a step's later report may sit beside an earlier one of the same number.
    return { steps: new Set(run.steps.map((s) => s.n)).size, wall_ms: wall, prompt_tokens: promptTokens(model.requests.slice(firstRequest)), actions: actionSteps(run) };
  } finally {
    await undo?.();
    await panel.close();
    await page.close();
  }
}

/** Rows for every case (medians over `runs`); each tool path carries its DOM path as its anchor. */
export async function copilotTaskRows(browser: StewardBrowser, sites: RunningDemoSites, runs: number): Promise<Row[]> {
  const model = await startScriptedModel();
  const medians = new Map<string, Measured>();
  const actionsOf = new Map<string, string>();
  try {
    for (const c of CASES) {
      const samples: Array<Measured & { actions: string[] }> = [];
      for (let i = 0; i < runs; i++) samples.push(await runOnce(browser, model, sites, c));
      medians.set(c.name, { steps: median(samples.map((s) => s.steps)), wall_ms: median(samples.map((s) => s.wall_ms)), prompt_tokens: median(samples.map((s) => s.prompt_tokens)) });
      const seen = [...new Set(samples.map((s) => s.actions.join(', ')))];
      actionsOf.set(c.name, seen.length === 1 ? `${plural(samples[0]!.actions.length, 'action step')} and the final answer: ${seen[0]!}` : `action steps differed between runs: ${seen.join(' | ')}`);
    }
  } finally {
    await model.stop();
  }
  const anchorOf: Record<string, string> = { 'book.webmcp': 'book.legacy', 'cancel-order.native': 'cancel-order.legacy' };
  const rows: Row[] = [];
  for (const [name, m] of medians) {
    const anchor = anchorOf[name] ? medians.get(anchorOf[name]) : undefined;
    const row = (metric: keyof Measured, unit: string): Row => ({
      metric: `task.${metric}`,
      case: name,
      value: m[metric],
      unit,
      better: 'lower',
      ...(anchor ? { anchor: anchorOf[name]!, anchor_value: anchor[metric] } : {}),
    });
    rows.push({ ...row('steps', 'steps'), note: actionsOf.get(name)!.slice(0, 600) }, row('wall_ms', 'ms'), row('prompt_tokens', 'tokens'));
  }
  return rows;
}
