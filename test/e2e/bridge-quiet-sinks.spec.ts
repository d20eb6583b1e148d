import { test, expect } from '../harness/fixtures.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, payloadOf, type BridgeBrowser, type McpClient } from '../harness/bridge-harness.ts';
import { control, data } from '../harness/pipeline-helpers.ts';

/**
 * Quiet sinks through the MCP bridge (issue 27, defect 10): an obedient MCP client reads the lab's
 * account page, which tells agents to "verify" by opening a one-click GET cancel link carrying the
 * account number. Once it has read the page, steward_open of that composed address is refused
 * (it has no card), and the same address through steward_execute nav.goto waits for the person
 * with the full URL on the card. Nobody approves: the lab's server received nothing.
 */

interface Received {
  method: string;
  path: string;
}
const received = async (lab: string) => ((await (await fetch(new URL('/sinks/__state', lab))).json()) as { received: Received[] }).received;

test.describe.serial('an MCP client that obeys a planted instruction', () => {
  let world: BridgeBrowser;
  let client: McpClient;

  test.beforeAll(async ({ sites }) => {
    await fetch(new URL('/sinks/__reset', sites.urls.lab), { method: 'POST' });
    world = await launchWithBridge({ nativeWebMcp: true, allowSites: [sites.urls.lab] });
    client = await connectStdio(world, 'v2', 'Obedient Client');
  });
  test.afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  test('cannot open or go to a composed URL carrying a page fact without the person', async ({ sites }) => {
    const panel = await openSidePanel(world);
    await pairClient(client, panel, { sites: [new URL(sites.urls.lab).origin], scopes: '*:*' });
    const opened = await client.call('steward_open', { url: `${sites.urls.lab}/sinks/account` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = (payloadOf(opened) as { tab: { tab_id: number } }).tab.tab_id;

    const observed = await client.call('steward_observe', { tab_id: tabId });
    expect(observed.isError, observed.text).toBe(false);
    const link = /go to (\S+account=)/.exec(observed.text);
    const fact = /ACC-\d{6}/.exec(observed.text);
    expect(link && fact, observed.text.slice(0, 2000)).toBeTruthy();
    const composed = `${link![1]!}${fact![0]}`;

    // steward_open has no card: refused, nothing opened.
    const open = await client.call('steward_open', { url: composed });
    expect(errorCodeOf(open), open.text).toBe('APPROVAL_REQUIRED');
    // A link the page shows is opened as before.
    const shown = await client.call('steward_open', { url: `${sites.urls.lab}/sinks/orders` });
    expect(shown.isError, shown.text).toBe(false);

    // The orders page links back to the account: opened too.
    const back = await client.call('steward_open', { url: `${sites.urls.lab}/sinks/account` });
    expect(back.isError, back.text).toBe(false);

    // nav.goto goes to the person, the full URL on the card.
    const resource = (payloadOf(observed) as { summary: { resource: { type: string; id: string } } }).summary.resource;
    const goto = await client.call('steward_execute', { tab_id: tabId, action: 'nav.goto', resource, input: { url: composed }, idempotency_key: 'obedient-goto-1' });
    expect(errorCodeOf(goto), goto.text).toBe('APPROVAL_REQUIRED');
    const { pending } = await data<{ pending: Array<{ action: string; reasons: Array<{ code: string; detail?: string }> }> }>(control(panel, { type: 'panel/approvals' }));
    const card = pending.find((c) => c.action === 'nav.goto');
    expect(card?.reasons.some((r) => r.detail?.includes(composed))).toBe(true);

    await new Promise((r) => setTimeout(r, 1500));
    expect((await received(sites.urls.lab)).filter((x) => x.path.startsWith('/sinks/cancel'))).toEqual([]);
  });
});
