import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page, type Worker } from '@playwright/test';
import { expect } from '../harness/expect.ts';
import { STEWARD_EXTENSION_ID } from '../../src/protocol/bridge.ts';
import { tabIdOf, test } from '../harness/fixtures.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, type BridgeBrowser, type McpClient, type ToolReply } from '../harness/bridge-harness.ts';
import { showView, shopState, swRecords } from '../harness/panel-helpers.ts';
import { grantHosts } from '../harness/browser.ts';

/**
 * The organisation's policy as an admin sets it on Linux: a JSON file in Debian Chromium's managed
 * policy directory, under 3rdparty.extensions.<Steward's id>. Chromium reads it at start and
 * watches the directory, so a rewrite reaches Steward's chrome.storage.managed mid-run (about five
 * seconds later: the loader waits for the file to settle). The file affects every Chromium on the
 * machine, so it exists only while this spec runs (which holds the browser lock).
 */

const POLICY_DIR = '/etc/chromium/policies/managed';
const POLICY_FILE = join(POLICY_DIR, 'steward-test.json');
const ORDER = 'ORD-1024';
const ALLOWED_CLIENT = 'Policy Client';
/** The key the organisation issued to that client (in its launch line's environment); the policy holds only its hash. */
const CLIENT_KEY = 'org-issued-key-for-policy-client-7f3a9c';
const CLIENT_KEY_SHA256 = createHash('sha256').update(CLIENT_KEY).digest('hex');
/** Chromium's loader re-reads a changed file after a few seconds; the panel shows the change when Steward has it. */
const POLICY_RELOAD = { timeout: 30_000 };

function writePolicy(policy: Record<string, unknown>): void {
  mkdirSync(POLICY_DIR, { recursive: true });
  writeFileSync(POLICY_FILE, JSON.stringify({ '3rdparty': { extensions: { [STEWARD_EXTENSION_ID]: policy } } }));
}

const cancel = (tabId: number, key: string) => ({
  tab_id: tabId,
  action: 'orders.cancel',
  resource: { type: 'order', id: ORDER },
  input: { reason: 'ordered_by_mistake' },
  idempotency_key: key,
  rationale: 'The person ordered this by mistake.',
});

/** Settings → Sites Steward may observe: one line per site on the person's list. */
const allowedSites = (panel: Page) => panel.getByRole('list', { name: 'Allowed sites' }).getByRole('listitem');

const detailsOf = (reply: ToolReply) => (reply.structured?.error as { details?: Record<string, unknown> } | undefined)?.details ?? {};

/** The id of the open tab on this origin, asked of Chrome (a blocked site's page never reports to Steward). */
async function tabOn(sw: Worker, origin: string): Promise<number> {
  return sw.evaluate(async (o) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith(o))!.id!, origin);
}

test.describe.serial('managed policy: the organisation’s rules, set through Chromium’s own policy files', () => {
  let world: BridgeBrowser;
  let panel: Page;
  let client: McpClient;
  let shopOrigin: string;
  let clinicOrigin: string;
  let shopTab: number;

  test.beforeAll(async ({ sites }) => {
    shopOrigin = new URL(sites.urls.shop).origin;
    clinicOrigin = new URL(sites.urls.clinic).origin;
    // Before the browser starts: policy an admin pushed to this machine.
    writePolicy({
      blockedSites: [clinicOrigin],
      allowedMcpClients: [ALLOWED_CLIENT],
      mcpClientKeys: [{ name: ALLOWED_CLIENT, sha256: CLIENT_KEY_SHA256 }],
      copilotEnabled: false,
      frozenActions: [{ action: 'orders.cancel' }],
      maxTokenLifetimeMinutes: 45,
      auditExport: { host: '127.0.0.1', port: 6514, tls: true, server_name: 'logs.example.com' },
    });
    // The person allowed both demo sites themselves (the clinic as its own step: the harness waits for page scripts, which a blocked site never gets).
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.shop] });
    expect(world.extensionId).toBe(STEWARD_EXTENSION_ID);
    await world.serviceWorker.evaluate(async (origin) => {
      const key = 'steward.sites';
      const stored = ((await chrome.storage.local.get(key))[key] as { allowed?: string[] } | undefined)?.allowed ?? [];
      await chrome.storage.local.set({ [key]: { allowed: [...stored, origin] } });
    }, clinicOrigin);
    await grantHosts(world, [sites.urls.clinic]);
    const shop = await world.context.newPage();
    await shop.goto(`${sites.urls.shop}/orders/${ORDER}`);
    shopTab = await tabIdOf(world.serviceWorker, shop);
    const clinic = await world.context.newPage();
    await clinic.goto(sites.urls.clinic);
    panel = await openSidePanel(world, await tabOn(world.serviceWorker, clinicOrigin));
  });

  test.afterAll(async () => {
    rmSync(POLICY_FILE, { force: true });
    await client?.close().catch(() => undefined);
    await world?.close();
  });

  /** The policy entries of the audit log, oldest first: which keys were in force, and what did not read. */
  const policyOnRecord = async () =>
    (await swRecords(world.serviceWorker, 'audit'))
      .filter((e) => e.kind === 'policy')
      .map((e) => {
        const { fingerprint, ...details } = e.details as { managed: string[]; fingerprint: string; problems: Array<{ path: string }> };
        return { outcome: e.outcome, fingerprinted: /^[0-9a-f]{64}$/.test(fingerprint), ...details };
      });

  test('the panel shows what the organisation manages, disables it, and refuses a blocked site the person allowed', async () => {
    // The policy in force at start is on record.
    await expect.poll(policyOnRecord).toEqual([
      {
        outcome: 'policy_applied',
        fingerprinted: true,
        managed: ['allowedMcpClients', 'auditExport', 'blockedSites', 'copilotEnabled', 'frozenActions', 'maxTokenLifetimeMinutes', 'mcpClientKeys'],
        problems: [],
      },
    ]);
    await expect(panel.getByLabel('Managed by your organisation')).toContainText('blockedSites');
    await expect(panel.getByRole('alert', { name: 'Organisation policy problems' })).toHaveCount(0);

    // This tab is the clinic: the person allowed it, the organisation blocks it.
    await showView(panel, 'This tab');
    const access = panel.getByRole('region', { name: 'Site access' });
    await expect(access).toContainText('Set by your organisation');
    await expect(access).toContainText('your organisation blocks Steward on this site');
    await expect(access.getByRole('button', { name: `Allow ${clinicOrigin}` })).toBeDisabled();

    await showView(panel, 'Settings');
    const copilot = panel.getByRole('group', { name: 'Co-pilot settings' });
    await expect(copilot).toContainText('Set by your organisation: the co-pilot is off in this browser.');
    await expect(copilot.getByRole('combobox', { name: 'Provider' })).toBeDisabled();
    await expect(panel.getByText('every token lasts at most 45 minutes')).toBeVisible();
    // The lifetime menu offers nothing longer than the cap.
    const lifetimes = await panel
      .getByRole('combobox', { name: 'Default lifetime of a new token' })
      .locator('option')
      .evaluateAll((os) => os.map((o) => Number((o as HTMLOptionElement).value)));
    expect(Math.max(...lifetimes)).toBeLessThanOrEqual(45);
    await expect(allowedSites(panel).filter({ hasText: clinicOrigin })).toContainText('Set by your organisation: not read');
    // The organisation's collector, shown and not the person's to change.
    const exportBox = panel.getByRole('group', { name: 'Audit export (syslog)' });
    await expect(exportBox).toContainText('Set by your organisation: every audit entry goes to 127.0.0.1:6514 over TLS.');
    await expect(exportBox.getByLabel('Collector host')).toHaveValue('127.0.0.1');
    await expect(exportBox.getByLabel('Collector host')).toBeDisabled();
    await expect(exportBox.getByLabel('Port', { exact: true })).toBeDisabled();
    await expect(exportBox.getByLabel('TLS (RFC 5425)')).toBeDisabled();

    // The worker agrees, whatever the panel shows: no content script answers on the clinic.
    const overview = await world.serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).flatMap((s) => s.matches ?? []));
    expect(overview.some((m) => m.startsWith(clinicOrigin))).toBe(false);
    expect(overview.some((m) => m.startsWith(shopOrigin))).toBe(true);
  });

  test('an MCP client the policy does not name cannot even ask to pair', async () => {
    const stranger = await connectStdio(world, 'v2', 'Unlisted Client');
    try {
      const reply = await stranger.call('steward_tabs');
      expect(errorCodeOf(reply), reply.text).toBe('POLICY_DENIED');
      expect(reply.text).not.toMatch(/\b\d{3}-\d{3}\b/);
      await showView(panel, 'Approvals');
      await expect(panel.getByRole('region', { name: 'Pairing request from Unlisted Client' })).toHaveCount(0);
    } finally {
      await stranger.close();
    }
  });

  test('a client that takes the listed name without the organisation’s key, or with a key of its own, cannot ask to pair', async () => {
    const keys: Array<Record<string, string>> = [{}, { STEWARD_CLIENT_KEY: 'a-key-the-impostor-made-up-itself' }, { STEWARD_CLIENT_KEY: CLIENT_KEY_SHA256 }];
    for (const env of keys) {
      const impostor = await connectStdio(world, 'v2', ALLOWED_CLIENT, { credential: null, env });
      try {
        const reply = await impostor.call('steward_tabs');
        expect(errorCodeOf(reply), reply.text).toBe('POLICY_DENIED');
        expect(reply.text).toContain(Object.keys(env).length === 0 ? 'presented none' : 'not one your organisation issued');
        expect(reply.text).not.toMatch(/\b\d{3}-\d{3}\b/);
      } finally {
        await impostor.close();
      }
    }
    await showView(panel, 'Approvals');
    await expect(panel.getByRole('region', { name: `Pairing request from ${ALLOWED_CLIENT}` })).toHaveCount(0);
  });

  test('the client it names pairs with its key, with a token no longer than the cap, and a frozen action is refused outright', async () => {
    client = await connectStdio(world, 'v2', ALLOWED_CLIENT, { env: { STEWARD_CLIENT_KEY: CLIENT_KEY } });
    await pairClient(client, panel, { sites: [shopOrigin], scopes: '*:*' });
    const token = (await swRecords(world.serviceWorker, 'tokens')).find((t) => t.label === ALLOWED_CLIENT)!;
    // Steward keeps the key's hash with the token, never the key.
    expect(token.client_key_sha256).toBe(CLIENT_KEY_SHA256);
    expect(JSON.stringify(await swRecords(world.serviceWorker, 'tokens'))).not.toContain(CLIENT_KEY);
    expect(Date.parse(String(token.expires_at)) - Date.parse(String(token.issued_at))).toBeLessThanOrEqual(45 * 60_000);

    const frozen = await client.call('steward_execute', cancel(shopTab, 'policy-frozen-1'));
    expect(errorCodeOf(frozen), frozen.text).toBe('POLICY_DENIED');
    expect(detailsOf(frozen)).toMatchObject({ policy: 'frozenActions', action: 'orders.cancel' });
    // No card was made: nobody can approve a frozen action.
    await showView(panel, 'Approvals');
    await expect(panel.locator('article[data-action="orders.cancel"]')).toHaveCount(0);
    expect((await shopState(shopOrigin)).counters[ORDER]?.cancelled ?? 0).toBe(0);
  });

  test('a policy rewritten mid-run takes effect without a restart: the freeze lifts, approval is required instead, the clinic is readable again', async () => {
    writePolicy({ allowedMcpClients: [ALLOWED_CLIENT], approvalRequiredActions: ['orders.*'] });
    await expect(panel.getByLabel('Managed by your organisation')).toHaveText('Managed by your organisation: allowedMcpClients, approvalRequiredActions.', POLICY_RELOAD);
    // The change is on record, without a restart.
    await expect.poll(async () => (await policyOnRecord()).at(-1)).toEqual({ outcome: 'policy_applied', fingerprinted: true, managed: ['allowedMcpClients', 'approvalRequiredActions'], problems: [] });
    await showView(panel, 'Settings');
    await expect(panel.getByRole('group', { name: 'Co-pilot settings' }).getByRole('combobox', { name: 'Provider' })).toBeEnabled();
    await expect(
      allowedSites(panel)
        .filter({ hasText: clinicOrigin })
        .getByRole('button', { name: `Remove ${clinicOrigin}` }),
    ).toBeVisible();
    await expect(panel.getByText('Set by your organisation: not read')).toHaveCount(0);
    // No auditExport any more: the export is the person's to set again.
    await expect(panel.getByRole('group', { name: 'Audit export (syslog)' }).getByLabel('Collector host')).toBeEnabled();

    const asked = await client.call('steward_execute', cancel(shopTab, 'policy-approval-1'));
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    await showView(panel, 'Approvals');
    const card = panel.locator('article[data-action="orders.cancel"]');
    await expect(card).toHaveAccessibleName(new RegExp(`^Cancel order ${ORDER} on .*, asked by ${ALLOWED_CLIENT}$`));
    await expect(card.getByRole('list', { name: 'What to weigh' })).toContainText('Your organisation requires approval for orders.*.');
    await card.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(card).toHaveCount(0);
    expect((await shopState(shopOrigin)).counters[ORDER]?.cancelled ?? 0).toBe(0);
  });

  test('an invalid policy shows the banner with what is wrong, and its strictest reading applies', async () => {
    // An allow list whose only entry is no site: Steward cannot tell which site was meant, so none is allowed.
    writePolicy({ allowedSites: ['shop.example.com/orders'], allowedMcpClients: [ALLOWED_CLIENT] });
    const banner = panel.getByRole('alert', { name: 'Organisation policy problems' });
    await expect(banner).toContainText('allowedSites[0]', POLICY_RELOAD);
    await expect(banner).toContainText('Applied: that entry allows no site');
    // The audit log says what did not read, and what applied instead.
    await expect.poll(async () => (await policyOnRecord()).at(-1)?.problems).toEqual([{ path: 'allowedSites[0]', message: expect.any(String), applied: 'that entry allows no site' }]);

    await showView(panel, 'Settings');
    await expect(allowedSites(panel).filter({ hasText: shopOrigin })).toContainText('Set by your organisation: not read');
    // The shop is no longer a site the client may use: its tab is gone from the client's view, and nothing can be done there.
    const tabs = await client.call('steward_tabs');
    expect(tabs.isError, tabs.text).toBe(false);
    expect(((tabs.structured?.tabs ?? []) as Array<{ tab_id: number }>).map((t) => t.tab_id)).not.toContain(shopTab);
    const refused = await client.call('steward_execute', cancel(shopTab, 'policy-invalid-1'));
    expect(errorCodeOf(refused), refused.text).toBe('TAB_NOT_FOUND');
    expect((await shopState(shopOrigin)).counters[ORDER]?.cancelled ?? 0).toBe(0);
  });
});
