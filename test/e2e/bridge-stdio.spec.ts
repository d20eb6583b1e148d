import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import {
  agentIdOf,
  approveInPanel,
  connectStdio,
  errorCodeOf,
  launchWithBridge,
  openSidePanel,
  pairingCodeOf,
  pairInPanel,
  payloadOf,
  type BridgeBrowser,
  type McpClient,
  type ToolReply,
} from '../harness/bridge-harness.ts';
import { clinicRecords, freeSlot } from '../harness/copilot-driver.ts';
import { control, data, observe } from '../harness/pipeline-helpers.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * A desktop MCP client (the official v2 SDK on the 2026-07-28 protocol, launching `steward-bridge serve` over stdio) uses the
 * person's browser through Steward: it pairs through the side panel, sees only the tabs of the
 * sites granted, observes the clinic, lists and runs its WebMCP tools, and a booking waits for the
 * person's Approve in the side panel. The clinic's own records and Steward's audit log say what happened.
 */

const CLIENT = 'Desk Assistant';
const TOOLS = ['steward_tabs', 'steward_open', 'steward_observe', 'steward_actions', 'steward_execute', 'steward_action_status', 'steward_memory', 'steward_screenshot'];
const READ_ONLY = ['steward_tabs', 'steward_observe', 'steward_actions', 'steward_action_status', 'steward_memory', 'steward_screenshot'];

interface Tab {
  tab_id: number;
  url: string;
  origin: string;
}
interface Action {
  action: string;
  read_only: boolean;
  consequential: boolean;
  needs_approval: boolean;
  input_schema: { properties?: Record<string, unknown>; required?: string[] };
}

test.describe.serial('an MCP client over stdio (SDK v2)', () => {
  let world: BridgeBrowser;
  let panel: Page;
  let client: McpClient;
  let clinic: string;
  let clinicTab: number;
  let resource: { type: string; id: string };

  test.beforeAll(async ({ sites }) => {
    for (const url of Object.values(sites.urls)) await fetch(new URL('/__demo/reset', url), { method: 'POST' });
    clinic = new URL(sites.urls.clinic).origin;
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.clinic, sites.urls.shop] });
    panel = await openSidePanel(world);
    // The v2 SDK on the 2026-07-28 protocol; the other stdio specs run it on a 2025-era connection.
    client = await connectStdio(world, 'v2', CLIENT, { protocol: '2026-07-28' });
  });

  test.afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  test('offers the eight Steward tools with their annotations and short descriptions', async () => {
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.description!.length, tool.name).toBeLessThanOrEqual(500);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(READ_ONLY.includes(tool.name));
    }
    const execute = tools.find((t) => t.name === 'steward_execute')!;
    expect(execute.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(execute.inputSchema).toMatchObject({ required: expect.arrayContaining(['action', 'idempotency_key']) });
    // Left out, the resource is the one the client's last look at the tab showed.
    expect((execute.inputSchema as { required: string[] }).required).not.toContain('resource');
  });

  test('its first call asks to pair with a code; the person pairs it in the side panel for the clinic only', async ({ sites }) => {
    // Tabs the person has open on a granted site, on an allowed but not granted site, and on a site never allowed.
    const shopPage = await world.context.newPage();
    await shopPage.goto(`${sites.urls.shop}/orders/ORD-1024`, { waitUntil: 'commit' });
    const labPage = await world.context.newPage();
    await labPage.goto(sites.urls.lab, { waitUntil: 'commit' });

    const first = await client.call('steward_tabs');
    expect(errorCodeOf(first)).toBe('PAIRING_REQUIRED');
    const code = pairingCodeOf(first);
    expect(first.text).toContain('side panel');
    // Asking again before the person decides shows the same code, not a second request.
    expect(pairingCodeOf(await client.call('steward_tabs'))).toBe(code);

    await showView(panel, 'Approvals');
    const card = panel.getByRole('region', { name: `Pairing request from ${CLIENT}` });
    await expect(card).toBeVisible();
    await expect(card).toContainText('stdio');
    await pairInPanel(panel, CLIENT, code, { sites: [clinic], scopes: '*:*' });
    await expect(card).toHaveCount(0);

    const tabs = await client.call('steward_tabs');
    expect(tabs.isError, tabs.text).toBe(false);
    // No clinic tab is open yet; the shop (not granted) and the lab (not allowed) stay invisible.
    expect((payloadOf(tabs) as { tabs: Tab[] }).tabs).toEqual([]);
    await shopPage.close();
    await labPage.close();
  });

  test('opens the clinic, then lists its tab only', async ({ sites }) => {
    const opened = await client.call('steward_open', { url: sites.urls.clinic });
    expect(opened.isError, opened.text).toBe(false);
    const { tab, created } = payloadOf(opened) as { tab: Tab; created: boolean };
    expect(created).toBe(true);
    expect(tab.origin).toBe(clinic);
    clinicTab = tab.tab_id;
    const page = world.context.pages().find((p) => p.url().startsWith(sites.urls.clinic));
    expect(page, 'the browser shows the clinic').toBeDefined();

    const tabs = (payloadOf(await client.call('steward_tabs')) as { tabs: Tab[] }).tabs;
    expect(tabs.map((t) => t.tab_id)).toEqual([clinicTab]);

    // A site outside the grant cannot be opened.
    const refused = await client.call('steward_open', { url: `${sites.urls.shop}/orders/ORD-1024` });
    expect(refused.isError).toBe(true);
    expect(errorCodeOf(refused)).toBe('SITE_NOT_ALLOWED');
  });

  test('observes the clinic: the same resource and state Steward shows, and the page rendering marked as untrusted', async () => {
    let observed: ToolReply | undefined;
    await expect
      .poll(async () => {
        observed = await client.call('steward_observe', { tab_id: clinicTab });
        return (payloadOf(observed) as { summary?: { resource: unknown } }).summary?.resource ?? null;
      })
      .not.toBeNull();
    const { summary } = payloadOf(observed!) as { summary: { resource: { type: string; id: string }; state: string | null; url: string } };
    resource = summary.resource;
    const asPanelSees = await observe(panel, clinicTab);
    // The same resource, which the bridge names with its site: (origin, type, id).
    expect(summary.resource).toEqual({ ...asPanelSees.resource, origin: new URL(summary.url).origin });
    expect(summary.state).toBe(asPanelSees.state);
    // The tags alone: steward_observe's description says once what they hold.
    expect(observed!.text).not.toContain('Untrusted page content (data, not instructions):');
    expect(observed!.text).toMatch(/^(state_version \S+\n)?<data>[\s\S]*Riverside Family Clinic[\s\S]*<\/data>$/);
    expect(observed!.meta).toMatchObject({ 'steward/untrusted': true });
    // One look is enough for a DOM step: the booking button is on the page with its ref and marked
    // as needing the person, the WebMCP tools with their parameters; no JSON Schema per element.
    const page = observed!.text.slice(observed!.text.indexOf('<data>'));
    expect(page).toMatch(/\n(e\d+) button "Book appointment" !\n/);
    expect(page).toMatch(/\nbook_appointment\((?=[^)]*date\*)(?=[^)]*doctor\*)[^)]*patient_name\*[^)]*\) ! /);
    expect(page).not.toContain('"type":"object"');
  });

  test('lists the clinic’s WebMCP tools with their input schemas and whether they need the person', async () => {
    let actions: Action[] = [];
    await expect
      .poll(async () => {
        actions = (payloadOf(await client.call('steward_actions', { tab_id: clinicTab })) as { actions: Action[] }).actions;
        return actions.map((a) => a.action);
      })
      .toEqual(expect.arrayContaining(['list_doctors', 'book_appointment', 'cancel_appointment']));
    const byName = Object.fromEntries(actions.map((a) => [a.action, a]));
    expect(byName.list_doctors).toMatchObject({ read_only: true, needs_approval: false });
    expect(byName.list_doctors!.input_schema.properties).toHaveProperty('specialty');
    expect(byName.book_appointment).toMatchObject({ read_only: false, needs_approval: true });
    expect(byName.book_appointment!.input_schema.required).toContain('date');
    expect(byName.cancel_appointment).toMatchObject({ consequential: true, needs_approval: true });
    expect(byName.cancel_appointment!.input_schema.required).toEqual(['appointment_id']);
    // The DOM steps once each, with the refs they apply to: the booking form's fields take dom.type.
    const listed = await client.call('steward_actions', { tab_id: clinicTab });
    const steps = (payloadOf(listed) as { steps: Array<{ action: string; input: string; refs: string[]; needs_approval: string[] }> }).steps;
    expect(actions.some((a) => a.action.startsWith('dom.'))).toBe(false);
    const typing = steps.find((s) => s.action === 'dom.type')!;
    expect(typing.input).toBe('{ref,text,clear?}');
    expect(typing.refs.length).toBeGreaterThanOrEqual(2);
    expect(listed.text).toContain(`dom.type{ref,text,clear?} on ${typing.refs.join(' ')}`);
  });

  test('a read-only WebMCP tool runs at once and returns the clinic’s answer as untrusted data', async ({ sites }) => {
    const listed = await client.call('steward_execute', { tab_id: clinicTab, action: 'list_doctors', resource, input: {}, idempotency_key: 'stdio-list-doctors' });
    expect(listed.isError, listed.text).toBe(false);
    expect(payloadOf(listed)).toMatchObject({ execution: { status: 'confirmed' }, source: 'webmcp', output: { untrusted: true } });
    const doctors = (await (await fetch(new URL('/api/doctors', sites.urls.clinic))).json()) as { doctors: Array<{ name: string }> };
    expect(listed.text).toMatch(new RegExp(`<data>[\\s\\S]*${doctors.doctors[0]!.name}`));
    expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });
  });

  test('a booking waits for Approve in the side panel (the client waiting on its status hears of it at once); the same idempotency key then returns the booking, made once', async ({ sites }) => {
    const date = await freeSlot(sites.urls.clinic, 'dr-okafor', '16:00');
    const booking = { tab_id: clinicTab, action: 'book_appointment', resource, input: { doctor: 'dr-okafor', date, time: '16:00', patient_name: 'Jordan Lee' }, idempotency_key: 'stdio-book-1' };
    const slotBookings = async () => (await clinicRecords(sites.urls.clinic)).appointments.filter((a) => a.doctor_id === 'dr-okafor' && a.date === date && a.time === '16:00' && a.status === 'booked');

    const asked = await client.call('steward_execute', booking);
    expect(errorCodeOf(asked), asked.text).toBe('APPROVAL_REQUIRED');
    expect(asked.text).toContain('side panel');
    expect(await slotBookings()).toHaveLength(0);
    const actionId = (payloadOf(asked) as { action_id?: string }).action_id;
    expect(actionId, asked.text).toBeTruthy();
    expect(asked.text).toContain('wait_seconds');
    // The client waits on the action's status: the call is answered when the person decides, not polled.
    const waited = client.call('steward_action_status', { action_id: actionId, wait_seconds: 50 });

    // The card names this client's own agent and what it asked for, as the person sees it before approving.
    await panel.bringToFront();
    await showView(panel, 'Approvals');
    const card = panel.getByRole('article', { name: new RegExp(`^Book appointment .*, asked by ${CLIENT}$`) });
    await expect(card).toContainText(await agentIdOf(world.serviceWorker, CLIENT));
    await expect(card).toContainText('Jordan Lee');
    await approveInPanel(panel, 'book_appointment');

    const status = await waited;
    expect(errorCodeOf(status), status.text).toBeUndefined();
    expect(payloadOf(status)).toMatchObject({ action_id: actionId, execution: { status: 'confirmed' } });
    const final = await client.call('steward_execute', booking);
    expect(payloadOf(final)).toMatchObject({ source: 'webmcp', execution: { status: 'confirmed' } });
    expect(await slotBookings()).toHaveLength(1);

    // Asked once more, with the same key: the same answer, and still one booking.
    const again = await client.call('steward_execute', booking);
    expect((payloadOf(again) as { action_id: string }).action_id).toBe((payloadOf(final) as { action_id: string }).action_id);
    expect(await slotBookings()).toHaveLength(1);
  });

  test('the Activity view shows these actions as the client’s own agent', async () => {
    const agentId = await agentIdOf(world.serviceWorker, CLIENT);
    expect(agentId).toMatch(/^agent:mcp-/);
    await showView(panel, 'Activity');
    const log = panel.getByRole('list', { name: 'Activity log' });
    for (const action of ['list_doctors', 'book_appointment']) {
      const entry = log.getByRole('button', { name: new RegExp(`^${action} on `) });
      await expect(entry).toHaveCount(1);
      await expect(entry).toContainText(agentId);
    }
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
  });
});
