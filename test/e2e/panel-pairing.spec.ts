import type { Worker } from '@playwright/test';
import type { Reply } from '../../src/protocol/channel.ts';
import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * Pairing an MCP client, as the person sees it: the worker gets a pairing request (opened through
 * the stewardPairings test hook, as the bridge's `bridge/pair-request` would), the side panel shows
 * it, the person types the code their client shows, ticks a site and pairs; the client's token then
 * appears in Tokens with its name, and the bridge collects it once. Screenshots of the card, the
 * Tokens view and Settings are saved under test-results/screenshots/.
 */

type PairRequest = { pairing_id: string; code: string; claim_secret: string; expires_at: string };
type Claim = { status: 'pending' } | { status: 'paired'; agent_id: string; token: string; origins: string[] };

declare const stewardPairings: {
  request(client: { name: string; version?: string; transport: 'stdio' | 'http' }, source?: string): Promise<Reply<PairRequest>>;
  claim(pairing_id: string, claim_secret: string): Promise<Reply<Claim>>;
};

/** `source`: the host connection it came on (the worker's id for it), as the bridge's requests carry one. */
const askPairing = (worker: Worker, name: string, transport: 'stdio' | 'http' = 'stdio', source = `conn-${name.replace(/\W/g, '')}`) =>
  worker.evaluate(([n, t, s]) => stewardPairings.request({ name: n, version: '1.4.2', transport: t }, s), [name, transport, source] as const);

async function requestPairing(worker: Worker, name: string, transport: 'stdio' | 'http' = 'stdio', source?: string): Promise<PairRequest> {
  const reply = await askPairing(worker, name, transport, source);
  if (!reply.ok) throw new Error(`pairing request refused: ${reply.error.code} ${reply.error.message}`);
  return reply.data;
}

const claim = (worker: Worker, r: PairRequest) => worker.evaluate(([id, secret]) => stewardPairings.claim(id, secret), [r.pairing_id, r.claim_secret] as const);

const otherCode = (code: string) => (code === '000-000' ? '111-111' : '000-000');

test('a pairing request is paired from the side panel with the code the client shows', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  await panel.setViewportSize({ width: 360, height: 900 });
  const origin = new URL(sites.urls.clinic).origin;
  const shop = new URL(sites.urls.shop).origin;

  const r = await requestPairing(steward.serviceWorker, 'Claude Desktop');
  await showView(panel, 'Approvals');
  await expect(panel.getByRole('tab', { name: /^Approvals/ })).toContainText('1');
  const card = panel.getByRole('region', { name: 'Pairing request from Claude Desktop' });
  await expect(card).toContainText('An MCP client wants to use your browser through Steward');
  await expect(card).toContainText('1.4.2');
  // Narrow by default: this tab's site, reading, an hour; the card says so in words.
  await expect(card.getByLabel('Scopes')).toHaveValue('*:read');
  await expect(card.getByLabel('Expires after')).toHaveValue('60');
  await expect(card.getByRole('note', { name: 'What you grant' })).toHaveText(`It may read on ${shop} for 1 hour. It cannot act.`);
  await panel.screenshot({ path: 'test-results/screenshots/panel-pairing-request.png', fullPage: true });

  // The bridge hears "pending" until the person decides.
  expect(await claim(steward.serviceWorker, r)).toMatchObject({ ok: true, data: { status: 'pending' } });

  // A wrong code: refused, with the tries left; the request stays.
  // Only this tab's site is ticked at first; the person picks the clinic instead, and the card says that is wider.
  // Payment is not granted unless the person ticks it.
  await expect(card.getByRole('checkbox', { name: /May touch payment/ })).not.toBeChecked();
  const boxes = card.getByRole('group', { name: 'Sites it may use' }).getByRole('checkbox');
  await expect(boxes).toHaveCount(Object.keys(sites.urls).length);
  for (const box of await boxes.all()) await expect(box).toBeChecked({ checked: (await box.getAttribute('id'))!.endsWith(`-site-${shop}`) });
  for (const box of await boxes.all()) await box.setChecked((await box.getAttribute('id'))!.endsWith(`-site-${origin}`));
  await expect(card.getByRole('note', { name: 'What you grant' })).toContainText(`Wider than the default`);
  await expect(card.getByRole('note', { name: 'What you grant' })).toContainText(`A site besides this tab’s site (${shop}): ${origin}.`);
  await card.getByLabel('Pairing code').fill(otherCode(r.code));
  await card.getByRole('button', { name: 'Pair' }).click();
  await expect(card.getByRole('alert')).toContainText('does not match');
  await expect(card.getByRole('alert')).toContainText('2 tries left');
  await panel.screenshot({ path: 'test-results/screenshots/panel-pairing-wrong-code.png', fullPage: true });

  await card.getByLabel('Pairing code').fill(r.code);
  await card.getByLabel('Expires after').selectOption({ label: '7 days' });
  await expect(card.getByRole('note', { name: 'What you grant' })).toContainText('It lasts 7 days, longer than one hour.');
  await card.getByRole('button', { name: 'Pair' }).click();
  await expect(card).toHaveCount(0);
  await expect(panel.getByText(/Paired Claude Desktop as agent:mcp-claude-desktop-[0-9a-f]{6}/)).toBeVisible();

  // The bridge collects the token once.
  const paired = await claim(steward.serviceWorker, r);
  expect(paired).toMatchObject({ ok: true, data: { status: 'paired', origins: [origin], scope: ['*:read'] } });
  expect(paired.ok && paired.data.status === 'paired' && paired.data.token).toMatch(/^stw_secret_/);
  expect(await claim(steward.serviceWorker, r)).toMatchObject({ ok: false, error: { code: 'PAIRING_UNKNOWN' } });

  await showView(panel, 'Tokens');
  const tokens = panel.getByRole('tabpanel', { name: 'Tokens' });
  await expect(tokens).toContainText('MCP client');
  await expect(tokens.getByRole('heading', { name: /agent:mcp-claude-desktop-/ })).toBeVisible();
  await panel.screenshot({ path: 'test-results/screenshots/panel-pairing-tokens.png', fullPage: true });
  await showView(panel, 'Settings');
  await expect(panel.getByText(/MCP bridge: (connected|not connected)/)).toBeVisible();
  await panel.screenshot({ path: 'test-results/screenshots/panel-pairing-settings.png', fullPage: true });
});

test('refusing, and three wrong codes, end a request; the bridge hears PAIRING_REFUSED', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);

  const refused = await requestPairing(steward.serviceWorker, 'Cursor', 'http');
  const guessed = await requestPairing(steward.serviceWorker, 'Evil Guesser');
  await showView(panel, 'Approvals');
  await panel.getByRole('region', { name: 'Pairing request from Cursor' }).getByRole('button', { name: 'Refuse' }).click();
  await expect(panel.getByRole('region', { name: 'Pairing request from Cursor' })).toHaveCount(0);
  expect(await claim(steward.serviceWorker, refused)).toMatchObject({ ok: false, error: { code: 'PAIRING_REFUSED' } });

  const card = panel.getByRole('region', { name: 'Pairing request from Evil Guesser' });
  for (const left of ['2 tries left', '1 try left']) {
    await card.getByLabel('Pairing code').fill(otherCode(guessed.code));
    await card.getByRole('button', { name: 'Pair' }).click();
    await expect(card.getByRole('alert')).toContainText(left);
  }
  await card.getByLabel('Pairing code').fill(otherCode(guessed.code));
  await card.getByRole('button', { name: 'Pair' }).click();
  await expect(card).toHaveCount(0);
  await expect(panel.getByText(/After 3 wrong codes the request from Evil Guesser is refused/)).toBeVisible();
  expect(await claim(steward.serviceWorker, guessed)).toMatchObject({ ok: false, error: { code: 'PAIRING_REFUSED' } });
});

test('the card pairs narrowly unless the person widens it: this tab’s site, reading only, one hour; acting is stated in words', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.clinic);
  const panel = await openPanel(page);
  const clinic = new URL(sites.urls.clinic).origin;

  const r = await requestPairing(steward.serviceWorker, 'Quick Reader');
  await showView(panel, 'Approvals');
  const card = panel.getByRole('region', { name: 'Pairing request from Quick Reader' });
  const words = card.getByRole('note', { name: 'What you grant' });
  await expect(words).toHaveText(`It may read on ${clinic} for 1 hour. It cannot act.`);
  // Letting it act is a choice the card spells out before the person pairs.
  await card.getByLabel('Scopes').fill('*:*');
  await expect(words).toContainText('It may take any action (*:*), not only read.');
  await card.getByLabel('Scopes').fill('*:read');
  await expect(words).not.toContainText('Wider than the default');
  await card.getByLabel('Pairing code').fill(r.code);
  const before = Date.now();
  await card.getByRole('button', { name: 'Pair' }).click();
  await expect(card).toHaveCount(0);

  const paired = await claim(steward.serviceWorker, r);
  if (!paired.ok || paired.data.status !== 'paired') throw new Error(`not paired: ${JSON.stringify(paired)}`);
  expect(paired.data.origins).toEqual([clinic]);
  expect(paired.data).toMatchObject({ scope: ['*:read'] });
  const lifetime = Date.parse((paired.data as unknown as { expires_at: string }).expires_at) - before;
  expect(lifetime).toBeGreaterThan(55 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(61 * 60_000);
});

test('a flood from one source is capped, leaves room for another client, and is refused in one click', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  const flood = 'conn-flood00000001';
  const names = ['Claude Desktop', 'Cursor', 'VS Code', 'Zed'];
  const replies = [];
  for (const name of names) replies.push(await askPairing(steward.serviceWorker, name, 'stdio', flood));
  expect(replies.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'ok', 'QUOTA_EXCEEDED', 'QUOTA_EXCEEDED']);
  // Another client, on its own connection, still gets in.
  const genuine = await requestPairing(steward.serviceWorker, 'Genuine Client');

  await showView(panel, 'Approvals');
  await expect(panel.getByRole('region', { name: /^Pairing request from / })).toHaveCount(3);
  await panel.getByRole('button', { name: /^Refuse all 2 requests from stdio bridge connection flood0/ }).click();
  await expect(panel.getByRole('region', { name: /^Pairing request from / })).toHaveCount(1);
  await expect(panel.getByRole('region', { name: 'Pairing request from Genuine Client' })).toBeVisible();
  await expect(panel.getByRole('status').filter({ hasText: 'Refused 2 pairing requests' })).toBeVisible();
  for (const r of replies) if (r.ok) expect(await claim(steward.serviceWorker, r.data)).toMatchObject({ ok: false, error: { code: 'PAIRING_REFUSED' } });
  // The refused source asks again: refused at once, no new card.
  expect(await askPairing(steward.serviceWorker, 'Claude Desktop', 'stdio', flood)).toMatchObject({ ok: false, error: { code: 'PAIRING_REFUSED' } });
  expect(await claim(steward.serviceWorker, genuine)).toMatchObject({ ok: true, data: { status: 'pending' } });
});
