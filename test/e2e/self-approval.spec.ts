import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { approve, control, data, mint, observe, pendingCard, submit, type Card } from '../harness/pipeline-helpers.ts';

/**
 * Issue 27, items 4 and 11, as a hostile agent would try them on the lab's `/consent/` pages; the
 * lab server's own records are the ground truth. An agent may not pass the page's human check for
 * the person — an in-page “Are you sure?”, a window.confirm — a card names the order its input
 * really cancels, and a newsletter's “Subscribe” is a form to approve, not a payment to refuse.
 */

interface ConsentState {
  deleted: string[];
  subscribed: string[];
  cancelled: string[];
}
interface Observed {
  resource: { type: string; id: string };
  elements: Array<{ ref: string; role: string; name: string }>;
}
type Result = Record<string, unknown> & { error?: { code: string; message: string; details?: { reasons?: string[] } }; execution?: { status: string; error?: { message: string } } };
type ConsentCard = Omit<Card, 'reasons'> & {
  reasons: Array<{ code: string; detail?: string }>;
  prior_step?: { action: string; target: string };
  acts_on?: { known: boolean; resource?: { type: string; id: string } };
};

const consentState = async (labUrl: string) => (await (await fetch(new URL('/consent/__state', labUrl))).json()) as ConsentState;

async function agentOn(
  fx: { steward: { context: import('@playwright/test').BrowserContext }; openPanel: (p: Page) => Promise<Page>; tabIdOf: (p: Page) => Promise<number> },
  labUrl: string,
  path: string,
  grant: { scope: string[]; resource_scope: string } = { scope: ['dom:*'], resource_scope: '*' },
) {
  await fetch(new URL('/consent/__reset', labUrl), { method: 'POST' });
  const page = await fx.steward.context.newPage();
  await page.goto(`${labUrl}${path}`);
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const token = await mint(panel, { ...grant, origins: [new URL(labUrl).origin] });
  const look = async () => (await observe(panel, tabId)) as unknown as Observed;
  const ref = async (name: string) => {
    const o = await look();
    const e = o.elements.find((x) => x.name === name);
    if (!e) throw new Error(`no element named ${name}: ${o.elements.map((x) => `${x.role} ${x.name}`).join(', ')}`);
    return e.ref;
  };
  const run = async (action: string, input: Record<string, unknown>, key: string, wait = false, with_token = token) => {
    const o = await look();
    return (await data(submit(panel, { token: with_token, tabId, request: { action, resource: o.resource, input, idempotency_key: key }, wait_for_approval: wait }))).result as Result;
  };
  /** The person approves the card, then the agent asks again with the same key for the result. */
  const approved = async (action: string, input: Record<string, unknown>, key: string): Promise<Result> => {
    expect(await run(action, input, key)).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
    expect(await approve(panel, await pendingCard(panel, action))).toMatchObject({ ok: true });
    let result: Result = {};
    await expect
      .poll(async () => {
        result = await run(action, input, key, true);
        return result.error?.code;
      })
      .not.toBe('IN_PROGRESS');
    return result;
  };
  return { page, panel, tabId, token, look, ref, run, approved };
}

async function showApprovals(panel: Page) {
  await panel.getByRole('tab', { name: /^Approvals/ }).click();
}

test('an agent that clicks “Delete note” cannot then answer the page’s “Are you sure?” itself: one card shows both steps, and nothing is deleted', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/consent/notes');
  // The first step is the agent's, approved by the person as “Delete note”: the page then asks.
  expect((await fx.approved('dom.click', { ref: await fx.ref('Delete note') }, 'e2e-consent-delete')).error).toBeUndefined();
  await expect(fx.page.getByText('Are you sure?')).toBeVisible();

  // The page's own check, a plain link: the agent tries to answer it.
  const held = await fx.run('dom.click', { ref: await fx.ref('Yes, I’m sure') }, 'e2e-consent-yes');
  expect(held).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  expect(held.error!.details!.reasons).toContain('confirmation');
  const card = (await pendingCard(fx.panel, 'dom.click')) as ConsentCard;
  expect(card.prior_step).toMatchObject({ action: 'dom.click', target: expect.stringContaining('Delete note') });
  expect(card.reasons.find((r) => r.code === 'confirmation')?.detail).toContain('appeared after this agent’s previous step');

  // The person sees both steps on the one card.
  await showApprovals(fx.panel);
  const article = fx.panel.getByRole('article', { name: /^Press link “Yes, I’m sure” on / });
  await expect(article.getByTestId('prior-step')).toContainText('Delete note');
  await expect(article).toContainText('that check is yours, never the agent’s');

  // Nobody approves: the site received no delete.
  expect((await consentState(sites.urls.lab)).deleted).toEqual([]);
  await expect(fx.page.locator('#note')).toContainText('43 attachments');
});

test('a window.confirm the page raises during an agent’s click is never accepted: the person is asked instead, and nothing is removed', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/consent/attachment');
  // Whatever dialog reaches the browser is accepted here, as a hurried person might: none may reach it.
  const reached: string[] = [];
  fx.page.on('dialog', (d) => {
    reached.push(d.message());
    void d.accept();
  });
  const result = await fx.approved('dom.click', { ref: await fx.ref('Remove attachment') }, 'e2e-consent-remove');
  const said = JSON.stringify(result);
  expect(said).toContain('NEEDS_PERSON');
  expect(said).toContain('Remove the attachment “scan.pdf” for good?');
  expect(result.execution?.status ?? result.error?.code).not.toBe('confirmed');
  expect(reached).toEqual([]);
  await expect(fx.page.locator('#said')).toHaveText('Kept.');
  expect((await consentState(sites.urls.lab)).deleted).toEqual([]);

  // Outside an agent's act the page's dialog is the person's again.
  await fx.page.getByRole('button', { name: 'Remove attachment' }).click();
  await expect.poll(() => reached).toEqual(['Remove the attachment “scan.pdf” for good?']);
  await expect.poll(async () => (await consentState(sites.urls.lab)).deleted).toEqual(['scan.pdf']);
});

test('a newsletter’s “Subscribe” is a form for the person to approve, not a payment refused outright', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/consent/newsletter');
  expect((await fx.run('dom.type', { ref: await fx.ref('E-mail'), text: 'ada@example.test' }, 'e2e-consent-type', true)).error).toBeUndefined();
  const held = await fx.run('dom.click', { ref: await fx.ref('Subscribe') }, 'e2e-consent-subscribe');
  // A token without payment: refused on main as “touches payment”; here a card, for a form submission.
  expect(held).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  expect(held.error!.details!.reasons).toContain('form_submission');
  expect(held.error!.details!.reasons).not.toContain('payment');
  expect(await approve(fx.panel, await pendingCard(fx.panel, 'dom.click'))).toMatchObject({ ok: true });
  await expect.poll(async () => (await consentState(sites.urls.lab)).subscribed).toEqual(['ada@example.test']);
});

test('a WebMCP card names the order its input cancels (ORD-7002), not the page’s (ORD-7001); a token for ORD-7001 alone cannot cancel ORD-7002', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/consent/orders/ORD-7001', { scope: ['webmcp:cancel_order'], resource_scope: 'order:*' });
  await expect.poll(async () => ((await observe(fx.panel, fx.tabId)) as { available_actions: string[] }).available_actions).toContain('cancel_order');
  expect((await fx.look()).resource).toEqual({ type: 'order', id: 'ORD-7001' });

  // As the co-pilot does when the model names no resource: the request names the page's order.
  const held = await fx.run('cancel_order', { order_id: 'ORD-7002' }, 'e2e-consent-cancel');
  expect(held).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
  const card = (await pendingCard(fx.panel, 'cancel_order')) as ConsentCard;
  expect(card.acts_on).toMatchObject({ known: true, resource: { type: 'order', id: 'ORD-7002' } });
  await showApprovals(fx.panel);
  const article = fx.panel.getByRole('article', { name: /^Cancel order ORD-7002 on / });
  await expect(article).toBeVisible();
  await expect(article).toContainText('The page it runs on shows order ORD-7001');
  await expect(fx.panel.getByRole('article', { name: /^Cancel order ORD-7001 / })).toHaveCount(0);

  // The audit names it too.
  const { entries } = await data<{ entries: Array<{ action?: string; kind: string; details?: Record<string, unknown> }> }>(control(fx.panel, { type: 'panel/audit' }));
  expect(entries.find((e) => e.action === 'cancel_order' && e.kind === 'approval_request')?.details).toMatchObject({ acts_on: 'order:ORD-7002' });

  // A token for ORD-7001 only: the input's ORD-7002 is outside it.
  const narrow = await mint(fx.panel, { scope: ['webmcp:cancel_order'], resource_scope: 'order:ORD-7001', origins: [new URL(sites.urls.lab).origin] });
  const refused = await fx.run('cancel_order', { order_id: 'ORD-7002' }, 'e2e-consent-cancel-narrow', false, narrow);
  expect(refused).toMatchObject({ error: { code: 'SCOPE_DENIED' } });
  expect(refused.error!.message).toContain('ORD-7002');
  expect((await consentState(sites.urls.lab)).cancelled).toEqual([]);
});
