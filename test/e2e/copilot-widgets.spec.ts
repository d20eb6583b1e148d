import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { answersFor, judge, withEpisode } from '../../sites/lab/widgets/tasks.ts';
import { startScriptedModel, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { runEpisode } from '../../sites/model/widget-agent/episode.ts';
import { WIDGET_PLANS } from '../../sites/model/widget-agent/plans.ts';
import { launchWithSteward, type StewardBrowser } from '../harness/browser.ts';
import { configureCopilot, runOf, startRun, type Run } from '../harness/copilot-helpers.ts';
import { pageText } from '../harness/copilot-replies.ts';
import { control, data } from '../harness/pipeline-helpers.ts';
import { CopilotWidgetActor } from '../harness/copilot-widget-actor.ts';
import { expect, tabIdOf, test } from '../harness/fixtures.ts';
import { widgetTask } from '../harness/widget-agent.ts';

/**
 * One task per widget class done by the co-pilot: the model is the scripted widget agent
 * (copilot-widget-actor.ts), which decides each step from the page block Steward put into the
 * prompt, as a real model would, and the person approves each card in the side panel's Approvals
 * view after reading why it is asked. The lab's server says what was done. One browser and one
 * panel for all tasks; slider tasks that need a key three times in a row are left to the bridge
 * spec (the co-pilot's stuck rail stops a run that repeats one action three times).
 */

interface SeenCard {
  /** The run's step the card was for. */
  n: number;
  /** The card's first line: `Press button “Save” on localhost:4100, asked by Steward co-pilot`. */
  title: string;
  /** Why it asks, as the person reads it: the facts on its face and the reasons under Details. */
  why: string;
}

/** The steps of a run that wait for the person and have not been decided here yet. */
const waitingStep = (run: Run, decided: ReadonlySet<string>) => run.steps.find((s) => s.status === 'awaiting_approval' && s.approval_id && !decided.has(s.approval_id));

/** Plays the person until the run ends: reads each card the run waits on in the Approvals view and presses its Approve. */
async function approveInPanel(panel: Page, runId: string, actor: CopilotWidgetActor): Promise<{ run: Run; cards: SeenCard[]; question?: string }> {
  const decided = new Set<string>();
  const cards: SeenCard[] = [];
  const deadline = Date.now() + 90_000;
  for (;;) {
    const run = await runOf(panel, runId);
    if (!run) throw new Error(`copilot/runs does not list ${runId}`);
    if (run.end) {
      actor.ended(run.end.kind === 'done' ? 'done' : `${run.end.reason}: ${run.end.detail}`);
      return { run, cards };
    }
    const asked = run.steps.find((s) => s.status === 'awaiting_answer');
    if (asked) {
      // The model asks the person to take over: the person does.
      const { run: ended } = await data<{ run: Run }>(control(panel, { type: 'copilot/take-over', run_id: runId }));
      actor.ended(`asked the person: ${asked.question}`);
      return { run: ended, cards, question: asked.question };
    }
    const step = waitingStep(run, decided);
    if (step) {
      const card = panel.locator(`article[data-request-id="${step.approval_id}"]`);
      await expect(card).toBeVisible();
      const title = (await card.getByRole('heading', { level: 3 }).innerText()).trim();
      // The facts on its face, then the reasons under Details.
      await card.getByText('Details', { exact: true }).click();
      const why = [await card.getByRole('list', { name: 'What to weigh' }).innerText(), (await card.locator('ul.reasons').allInnerTexts()).join('\n')].join('\n').trim();
      cards.push({ n: step.n, title, why });
      await card.getByRole('button', { name: 'Approve', exact: true }).click();
      decided.add(step.approval_id!);
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end in 90 s: ${JSON.stringify(run.steps.at(-1))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The panel's English words (Playwright's Chromium runs in English). */
const ENGLISH = JSON.parse(readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Record<string, { message: string }>;

/** What the card of an inferred control says: Steward cannot tell what it does, and which behaviour it inferred it from. */
const INFERRED = new RegExp(`${escape(ENGLISH.reason_inferred_control!.message.replace(/\.$/, ''))} \\(Steward inferred this is a \\w+ .*from its click listener`);
/** A form submission's reason, as its own fact on the card's face: "Submits the form “Booking”". */
const SUBMITS = /submits the form/i;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface CopilotTask {
  id: string;
  widget: string;
  /** Steps (as the plan words them) the person is asked about, with what their card must say. */
  asks: Record<string, RegExp>;
  /** Steps that plainly disclose, select or edit a form: no card. */
  free?: string[];
}

/** One task per widget class of issue 26 (each one Steward solves through the co-pilot today). */
const TASKS: readonly CopilotTask[] = [
  { id: 'v-span-link', widget: 'a clickable <span> that is not a link', asks: { 'click "Bleeding hydraulic brakes"': INFERRED } },
  { id: 'v-covered-sticky', widget: 'a button half under a sticky header', asks: { 'click "Save draft"': /cannot tell what the button “Save draft” does/ } },
  { id: 'jq-datepicker', widget: 'a jQuery UI date picker', asks: { 'click "Next"': INFERRED, 'click "Submit"': SUBMITS }, free: ['click "7"'] },
  { id: 'jq-autocomplete', widget: 'a jQuery UI autocomplete', asks: { 'click "Submit"': SUBMITS }, free: ['type "Li" into "City"', 'click "Lisbon, Portugal"'] },
  { id: 'mui-slider', widget: 'a MUI slider moved with arrow keys', asks: { 'press ArrowLeft on "Volume"': /A slider outside a form may save its new value at once\./, 'click "Save"': /“Save”/ } },
  { id: 'jq-spinner', widget: 'a jQuery UI spinner', asks: { 'click "Book"': /named “Book”/ }, free: ['type "4" into "Guests"'] },
  { id: 'v-hover-js', widget: 'a menu opened by hovering (a mouseenter listener)', asks: {}, free: ['hover "Support"'] },
  { id: 'v-search', widget: 'a search run by pressing Enter', asks: {}, free: ['type "trail shoes" into "Search products"', 'press Enter on "Search products"'] },
  {
    id: 'jq-sortable',
    widget: 'a jQuery UI sortable list (drag)',
    asks: { 'drag "Pay invoices" onto the top of "Book dentist"': /drags onto or from “Pay invoices”/i, 'click "Save order"': /named “Save order”/ },
  },
  { id: 'jq-checkboxradio', widget: 'jQuery UI radios and checkboxes (check)', asks: { 'click "Confirm"': SUBMITS }, free: ['check "Window"', 'check "Extra legroom"'] },
  { id: 'v-svg-large-red', widget: 'an SVG shape picked by colour and size', asks: { 'click the large red circle': /cannot tell what the large red circle \(an SVG shape the page reacts to\) does/ } },
];

test.describe('widget tasks through the co-pilot', () => {
  let steward: StewardBrowser;
  let panel: Page;
  let model: ScriptedModel;
  const runId = `cw${Date.now().toString(36)}`;

  test.beforeAll(async ({ sites }) => {
    test.setTimeout(60_000);
    await fetch(new URL('/__demo/reset', sites.urls.lab), { method: 'POST' });
    model = await startScriptedModel();
    steward = await launchWithSteward({ nativeWebMcp: true, allowSites: [sites.urls.lab] });
    panel = await steward.context.newPage();
    await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html`);
    await configureCopilot(panel, model, { max_steps: 12 });
    await panel.getByRole('tab', { name: /^Approvals/ }).click();
  });
  test.afterAll(async () => {
    await steward?.close();
    await model?.stop();
  });

  /** Opens the task's page under a fresh episode, runs the co-pilot on its goal with the widget agent as the model. */
  async function copilotDoes(id: string, lab: string) {
    const task = widgetTask(id);
    const plan = WIDGET_PLANS.find((p) => p.task === id)!;
    const episode = `cw-${runId}-${id}`;
    const page = await steward.context.newPage();
    try {
      await page.goto(new URL(withEpisode(task.path, episode), lab).href);
      const tabId = await tabIdOf(steward.serviceWorker, page);
      const actor = new CopilotWidgetActor();
      model.fallback(actor.reply);
      const started = await startRun(panel, tabId, task.goal);
      const episodeRun = runEpisode(plan, actor).then(async (run) => {
        await actor.finish(run, `${task.goal} Done.`);
        return run;
      });
      const { run, cards, question } = await approveInPanel(panel, started.run_id, actor);
      const agent = await episodeRun;
      const verdict = judge(task, await answersFor(lab, episode));
      return { task, run, cards, question, agent, verdict, actor };
    } finally {
      await page.close();
    }
  }

  for (const { id, widget, asks, free = [] } of TASKS) {
    test(`${id} (${widget}): ${widgetTask(id).goal}`, async ({ sites }) => {
      test.setTimeout(90_000);
      const { task, run, cards, agent, verdict, actor } = await copilotDoes(id, sites.urls.lab);
      expect(agent.reason, 'why the scripted model stopped').toBeUndefined();
      expect(run.end, 'how the run ended').toMatchObject({ kind: 'done' });
      expect(verdict.first, 'what the lab received first').toEqual(task.expected);

      // The run's actions are the plan's steps, each on a ref the model read in Steward's page block.
      const acts = run.steps.filter((s) => s.action);
      expect(acts.map((s) => s.action!.name)).toHaveLength(agent.steps.length);
      expect(actor.requests).toHaveLength(run.steps.length);
      for (const s of acts) {
        const shown = pageText(actor.requests[s.n - 1]!);
        for (const ref of [s.action!.input.ref, s.action!.input.to].filter((r): r is string => typeof r === 'string')) expect(shown).toMatch(new RegExp(`(?:^|[\\s:·(])${ref} `, 'm'));
      }
      const asked = new Map(cards.map((c) => [c.n, c]));
      const stepCards = agent.steps.map((s, i) => ({ step: s.step, card: asked.get(acts[i]!.n) }));
      for (const [step, why] of Object.entries(asks)) {
        const seen = stepCards.filter((s) => s.step === step);
        expect(seen.length, `the run took the step ${step}`).toBeGreaterThan(0);
        for (const s of seen) {
          expect(s.card, `the person was asked about ${step}`).toBeDefined();
          expect(s.card!.title).toMatch(/^(Press|Type into|Choose an option in|Drag|Tick or untick|Press a key in) .+ on localhost:\d+, asked by Steward co-pilot$/);
          expect(s.card!.why, `what the card of ${step} says`).toMatch(why);
        }
      }
      for (const step of free) {
        const seen = stepCards.filter((s) => s.step === step);
        expect(seen.length, `the run took the step ${step}`).toBeGreaterThan(0);
        for (const s of seen) expect(s.card, `${step} needs no card`).toBeUndefined();
      }
    });
  }

  test('native-file: the co-pilot may not choose a file; the step is refused by name, no card, nothing sent', async ({ sites }) => {
    test.setTimeout(60_000);
    const { run, cards, question, agent, verdict } = await copilotDoes('native-file', sites.urls.lab);
    expect(agent.reason).toMatch(/^upload "Attachment": FILE_CHOICE_REQUIRED: .*only the person may choose a file/);
    expect(cards).toEqual([]);
    // The co-pilot asks the person to take over, and the person does.
    expect(question).toContain('FILE_CHOICE_REQUIRED');
    expect(question).toMatch(/^I could not finish: [\s\S]*Please take over\.$/);
    expect(run.end).toMatchObject({ kind: 'stopped', reason: 'taken_over' });
    expect(verdict.first).toBeUndefined();
  });
});
