import type { Page } from '@playwright/test';
import { allowSites } from '../harness/browser.ts';
import { stewardStopButton } from '../harness/content-world.ts';
import { test, expect } from '../harness/fixtures.ts';
import { approve, control, data, historyOf, journal, killServiceWorker, liveWorker, mint, observe, pendingCard, submit } from '../harness/pipeline-helpers.ts';

/**
 * WebMCP tool continuations (issue 29, item 2): the lab's parcel booking (`/webmcp/continue`) spreads
 * one `ship_parcel` call over three documents; its tool asks for a continuation token and each next page
 * redeems it with `document.modelContext.resumeTool`. Through Steward's pipeline the call stays
 * dispatched (pending) across the navigations and ends with the last page's answer, confirmed,
 * once; its idempotency key answers for the whole chain. The page is then hostile: a token
 * redeemed again, one sent to another origin, one forged after the person denied the call, and a
 * chain the person stopped never go on — the lab's server records are the ground truth. The
 * person's Stop also reaches a page's tool that is still running, through its abort signal
 * (`toolcancel`), under native WebMCP and the polyfill alike. MV3 stopping the service worker
 * between two documents loses nothing: the restarted worker takes the call up where it waited, the
 * booking is confirmed once, and the tokens it used stay refused after another restart.
 */

interface BookingState {
  steps: Array<{ step: string; item: string; address?: string }>;
  parcels: Array<{ id: string; item: string; address: string }>;
}
const bookingState = async (lab: string) => (await (await fetch(new URL('/webmcp/continue/__state', lab))).json()) as BookingState;
const INPUT = { item: 'trail shoes', address: '1 Quay Street' };

/** The sender page in a tab, its panel, a token for the parcel tools on `origins`, and the observation the call is planned on. */
async function senderPage(
  fixtures: { steward: { context: { newPage(): Promise<Page> } }; openPanel: (page: Page) => Promise<Page>; tabIdOf: (page: Page) => Promise<number> },
  url: string,
  origins: string[],
) {
  const page = await fixtures.steward.context.newPage();
  await page.goto(url);
  const panel = await fixtures.openPanel(page);
  const tabId = await fixtures.tabIdOf(page);
  const token = await mint(panel, { scope: ['webmcp:ship_parcel', 'webmcp:slow_parcel'], resource_scope: 'page:*', origins });
  let observed = await observe(panel, tabId);
  await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toEqual(expect.arrayContaining(['ship_parcel', 'slow_parcel']));
  return { page, panel, tabId, token, resource: observed.resource };
}

/** Submits and approves the card the consequential tool needs; resolves with the pipeline's result (a result before any card fails the test with it). */
async function submitApproved(panel: Page, body: Parameters<typeof submit>[1]): Promise<Record<string, unknown> & { error?: { code: string } }> {
  let early: unknown;
  const result = data(submit(panel, body)).then((r) => (early = r.result));
  const waitForCard = pendingCard(panel, body.request.action as string);
  waitForCard.catch(() => undefined); // a call that ends first is reported below, not as this wait's timeout
  const card = await Promise.race([waitForCard, result.then(() => undefined)]);
  if (!card) throw new Error(`the call ended before any card: ${JSON.stringify(early)}`);
  await data(approve(panel, card));
  return result;
}

/** Where the journal has the action of this key: Steward's own word on whether it is still pending. */
async function journalState(panel: Page, key: string): Promise<string | undefined> {
  return (await journal(panel)).heads.find((h) => h.idempotency_key === key)?.state;
}

/** The person's own click on Steward's Stop, once the page shows it. */
async function pressStewardStop(page: Page): Promise<void> {
  let stop: { x: number; y: number } | null = null;
  await expect.poll(async () => (stop = await stewardStopButton(page))).not.toBeNull();
  await page.mouse.click(stop!.x, stop!.y);
}

test.describe('tool continuations under Steward’s polyfill', () => {
  test.use({ nativeWebMcp: false });

  test('a parcel booked over three pages stays pending across the navigations, is confirmed by the last page’s answer, and is done once', async ({ steward, sites, openPanel, tabIdOf }) => {
    const lab = sites.urls.lab;
    const { page, panel, tabId, token, resource } = await senderPage({ steward, openPanel, tabIdOf }, `${lab}/webmcp/continue?hold=1`, [new URL(lab).origin]);
    await expect(page.locator('#continuations')).toHaveText('supported');
    const request = { action: 'ship_parcel', resource, input: INPUT, idempotency_key: 'e2e-parcel-chain' };
    const result = submitApproved(panel, { token, tabId, request });

    // The tool asked for a token and moved on: the delivery page holds it, and the call is still pending.
    await expect(page).toHaveURL(/\/webmcp\/continue\/delivery\?token=stwc_[A-Za-z0-9_-]+&hold=1$/);
    const firstToken = new URL(page.url()).searchParams.get('token')!;
    expect(await journalState(panel, 'e2e-parcel-chain')).toBe('dispatched');
    expect((await data(submit(panel, { token, tabId, request }))).result.error?.code).toBe('IN_PROGRESS');
    expect((await bookingState(lab)).steps.map((s) => s.step)).toEqual(['sender']);

    // The delivery page resumes; its callback asks for one more token; the confirmation page books the parcel.
    await page.locator('#resume-now').click();
    await expect(page).toHaveURL(/\/webmcp\/continue\/confirm\?token=stwc_/);
    await expect(page.locator('#booked')).toHaveText('Parcel booked: PCL-7001');
    expect(await result).toMatchObject({
      source: 'webmcp',
      execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'tool_result' },
      // Each page answers as it leaves; an answer its navigation cut off is lost, the last page's never is.
      output: { text: expect.stringMatching(/^(Sender saved for trail shoes\.\n)?(Delivery to 1 Quay Street saved\.\n)?Parcel booked: PCL-7001 \(trail shoes to 1 Quay Street\)\.$/), untrusted: true },
    });
    expect(await journalState(panel, 'e2e-parcel-chain')).toBe('confirmed');

    // The same key again: the chain's outcome, not a second parcel.
    expect((await data(submit(panel, { token, tabId, request }))).result).toMatchObject({ execution: { status: 'confirmed' }, output: { text: expect.stringContaining('PCL-7001') } });
    const done = await bookingState(lab);
    expect(done.steps.map((s) => s.step)).toEqual(['sender', 'delivery', 'book']);
    expect(done.parcels).toEqual([{ id: 'PCL-7001', item: 'trail shoes', address: '1 Quay Street' }]);

    // A hostile page replays the first token, in this tab and in another: both refused, nothing more done.
    await page.goto(`${lab}/webmcp/continue/delivery?token=${firstToken}`);
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError: .*not valid/);
    const other = await steward.context.newPage();
    await other.goto(`${lab}/webmcp/continue/delivery?token=${firstToken}`);
    await expect(other.locator('#resume')).toHaveText(/^refused: NotAllowedError/);
    expect((await bookingState(lab)).parcels).toHaveLength(1);
  });

  test('the service worker stopped while the booking waits for its next page loses nothing: the restarted worker takes the call up, it is confirmed once, and its used tokens stay refused', async ({
    steward,
    sites,
    openPanel,
    tabIdOf,
  }) => {
    const lab = sites.urls.lab;
    const key = 'e2e-parcel-restart';
    const { page, panel, tabId, token, resource } = await senderPage({ steward, openPanel, tabIdOf }, `${lab}/webmcp/continue?hold=1`, [new URL(lab).origin]);
    const request = { action: 'ship_parcel', resource, input: INPUT, idempotency_key: key };
    // The panel's own wait for the call ends with the worker that ran it; the agent asks again by its key below.
    const firstWait = submitApproved(panel, { token, tabId, request });
    firstWait.catch(() => undefined);
    await expect(page).toHaveURL(/\/webmcp\/continue\/delivery\?token=stwc_[A-Za-z0-9_-]+&hold=1$/);
    const firstToken = new URL(page.url()).searchParams.get('token')!;
    expect(await journalState(panel, key)).toBe('dispatched');

    // MV3 stops the worker between the two documents.
    const killedAt = Date.now();
    await killServiceWorker(panel, steward.serviceWorker);

    // The delivery page resumes (its message wakes a new worker); the chain goes on to the confirmation page, which books the parcel.
    await page.locator('#resume-now').click();
    await expect(page.locator('#resume')).toHaveText('accepted');
    await expect(page).toHaveURL(/\/webmcp\/continue\/confirm\?token=stwc_/);
    const secondToken = new URL(page.url()).searchParams.get('token')!;
    await expect(page.locator('#booked')).toHaveText('Parcel booked: PCL-7001');
    const worker = await liveWorker(steward.context, steward.extensionId, killedAt);
    await expect.poll(() => journalState(panel, key), { timeout: 20_000 }).toBe('confirmed');
    // One dispatch, one ending: recovery took the call up at its wait, it did not resolve it by guessing, nor run it again.
    expect(await historyOf(panel, key)).toEqual(['proposed', 'awaiting_approval', 'approved', 'dispatched', 'confirmed']);
    const recovery = () =>
      worker.evaluate(() => (globalThis as unknown as { stewardPipeline: { recovery: () => unknown[] } }).stewardPipeline.recovery()) as Promise<Array<{ from: string; to: string }>>;
    expect(await recovery()).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'dispatched', to: 'waiting' })]));

    // The agent asks again with its key: the chain's outcome, confirmed by the last page's answer, and still one parcel.
    expect((await data(submit(panel, { token, tabId, request }))).result).toMatchObject({
      source: 'webmcp',
      execution: { status: 'confirmed', certainty: 'confirmed', verified_by: 'tool_result' },
      output: { text: expect.stringMatching(/Parcel booked: PCL-7001 \(trail shoes to 1 Quay Street\)\.$/), untrusted: true },
    });
    const done = await bookingState(lab);
    expect(done.steps.map((s) => s.step)).toEqual(['sender', 'delivery', 'book']);
    expect(done.parcels).toEqual([{ id: 'PCL-7001', item: 'trail shoes', address: '1 Quay Street' }]);

    // A hostile page replays the used tokens, in this worker and after it is stopped once more: refused each time, nothing more done.
    await page.goto(`${lab}/webmcp/continue/delivery?token=${firstToken}`);
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError: .*not valid/);
    await killServiceWorker(panel, worker);
    await page.goto(`${lab}/webmcp/continue/confirm?token=${secondToken}`);
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError: .*not valid/);
    await page.goto(`${lab}/webmcp/continue/delivery?token=${firstToken}`);
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError/);
    expect((await bookingState(lab)).parcels).toHaveLength(1);
    expect(await journalState(panel, key)).toBe('confirmed');
  });

  test('a token handed to another origin is refused there, and the call ends without a confirmation', async ({ steward, sites, openPanel, tabIdOf }) => {
    const lab = sites.urls.lab;
    const labOrigin = new URL(lab).origin;
    const elsewhere = `http://127.0.0.1:${new URL(lab).port}`;
    // Steward runs on both (so the other page has the polyfill and asks), and the token covers both (so no fence stops the navigation): only the token's origin decides.
    await allowSites(steward, [elsewhere]);
    await steward.serviceWorker.evaluate(() => {
      (globalThis as unknown as { stewardPipeline: { deadlines: { continuation_token_ms: number } } }).stewardPipeline.deadlines.continuation_token_ms = 4_000;
    });
    const { page, panel, tabId, token, resource } = await senderPage({ steward, openPanel, tabIdOf }, `${lab}/webmcp/continue?hand_off=${encodeURIComponent(elsewhere)}`, [labOrigin, elsewhere]);
    const result = await submitApproved(panel, { token, tabId, request: { action: 'ship_parcel', resource, input: INPUT, idempotency_key: 'e2e-parcel-elsewhere' } });

    await expect(page).toHaveURL(new RegExp(`^${elsewhere}/webmcp/continue/delivery\\?token=stwc_`));
    await expect(page.locator('#resume')).toHaveText(`refused: NotAllowedError: The continuation token was refused: A continuation token of ${labOrigin} cannot be redeemed by ${elsewhere}.`);
    expect(result).toMatchObject({ execution: { status: 'unknown', error: { code: 'TIMEOUT', message: expect.stringContaining('asked to continue in its next document') } } });
    expect(result).not.toHaveProperty('output');
    const state = await bookingState(lab);
    expect(state.steps.map((s) => s.step)).toEqual(['sender']);
    expect(state.parcels).toEqual([]);
  });

  test('the person’s Stop while the booking waits for its next page revokes the token; a denied call leaves nothing a forged token can take up', async ({ steward, sites, openPanel, tabIdOf }) => {
    const lab = sites.urls.lab;
    const { page, panel, tabId, token, resource } = await senderPage({ steward, openPanel, tabIdOf }, `${lab}/webmcp/continue?hold=1`, [new URL(lab).origin]);
    const result = submitApproved(panel, { token, tabId, request: { action: 'ship_parcel', resource, input: INPUT, idempotency_key: 'e2e-parcel-stopped' } });
    await expect(page).toHaveURL(/\/webmcp\/continue\/delivery\?token=stwc_.*&hold=1$/);

    // Stop on Steward's own indicator, then the page tries to go on: refused, and the call ends stopped.
    await pressStewardStop(page);
    expect(await result).toMatchObject({ execution: { status: 'unknown', error: { message: expect.stringContaining('the person stopped it') } } });
    await page.locator('#resume-now').click();
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError: .*not valid/);
    expect(await journalState(panel, 'e2e-parcel-stopped')).toBe('unknown');

    // The person denies a new booking: nothing is dispatched, and a token the page makes up is refused.
    await page.goto(`${lab}/webmcp/continue`);
    await expect.poll(async () => (await observe(panel, tabId)).available_actions).toContain('ship_parcel');
    const denied = data(submit(panel, { token, tabId, request: { action: 'ship_parcel', resource: (await observe(panel, tabId)).resource, input: INPUT, idempotency_key: 'e2e-parcel-denied' } }));
    const card = await pendingCard(panel, 'ship_parcel');
    await data(
      control(panel, {
        type: 'panel/approval-decide',
        decision: { request_id: card.request_id, decision: 'deny', decided_by: 'user:local', decided_at: new Date().toISOString(), reason: 'not this one' },
      }),
    );
    expect((await denied).result.error?.code).toBe('APPROVAL_DENIED');
    await page.goto(`${lab}/webmcp/continue/confirm?token=stwc_forged_by_the_page_0000000000`);
    await expect(page.locator('#resume')).toHaveText(/^refused: NotAllowedError/);
    const state = await bookingState(lab);
    expect(state.steps.map((s) => s.step)).toEqual(['sender']);
    expect(state.parcels).toEqual([]);
  });
});

test.describe('tool continuations under Chromium’s native WebMCP', () => {
  test.use({ nativeWebMcp: true });

  test('does the browser offer them? (requestToken in a tool’s options, resumeTool on document.modelContext)', async ({ steward, sites }) => {
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.lab}/webmcp/continue`);
    const native = await page.evaluate(async () => {
      const mc = (
        document as unknown as {
          modelContext: { registerTool(t: unknown): Promise<void>; getTools(): Promise<Array<{ name: string }>>; executeTool(t: unknown, i: unknown): Promise<unknown>; resumeTool?: unknown };
        }
      ).modelContext;
      let options: Record<string, unknown> = {};
      await mc.registerTool({ name: 'probe_options', description: 'Reports what execute is given.', execute: (_input: unknown, o: Record<string, unknown>) => void (options = o ?? {}) });
      const tool = (await mc.getTools()).find((t) => t.name === 'probe_options');
      await mc.executeTool(tool, {});
      const invocation = options.invocation as object | undefined;
      return { resumeTool: 'resumeTool' in mc, invocation: invocation !== undefined, requestToken: invocation !== undefined && 'requestToken' in invocation };
    });
    // Measured on Chromium 156 (--enable-features=WebMCPTesting,WebMCP): neither exists, so Steward has no continuations to offer on the native path.
    test.skip(!native.resumeTool || !native.requestToken, `native WebMCP has no continuations in this browser: ${JSON.stringify(native)}`);
    await expect(page.locator('#continuations')).toHaveText('supported');
  });
});

for (const nativeWebMcp of [false, true]) {
  test.describe(`the person’s Stop reaches a running page tool (${nativeWebMcp ? 'native WebMCP' : 'polyfill'})`, () => {
    test.use({ nativeWebMcp });

    test('Stop aborts the tool’s signal and the page hears toolcancel; the call is not confirmed', async ({ steward, sites, openPanel, tabIdOf }) => {
      const lab = sites.urls.lab;
      const { page, panel, tabId, token, resource } = await senderPage({ steward, openPanel, tabIdOf }, `${lab}/webmcp/continue`, [new URL(lab).origin]);
      const result = submitApproved(panel, { token, tabId, request: { action: 'slow_parcel', resource, input: {}, idempotency_key: `e2e-slow-${nativeWebMcp}` } });
      await expect(page.locator('#slow-state')).toHaveText('waiting for the depot');
      await pressStewardStop(page);
      await expect(page.locator('#slow-state')).toHaveText('signal aborted: AbortError');
      await expect(page.locator('#cancel-heard')).toHaveText('toolcancel slow_parcel');
      const ended = await result;
      expect(ended).not.toMatchObject({ execution: { status: 'confirmed' } });
      expect(JSON.stringify(ended)).toContain('stopped');
    });
  });
}
