import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { expect } from '../harness/expect.ts';
import {
  BRIDGE_CLI,
  alive,
  connectHttp,
  connectStdio,
  credentialFileFor,
  errorCodeOf,
  pairClient,
  pairingCodeOf,
  pairInPanel,
  payloadOf,
  startHttpBridge,
  type McpClient,
  type ToolReply,
} from '../harness/bridge-harness.ts';
import { pendingPairings, startRefusalWorld, tokensLabelled, type RefusalWorld } from '../harness/bridge-hostile-world.ts';
import { showView } from '../harness/panel-helpers.ts';

/**
 * Pairing as an attacker on this computer would try it, against the real bridge and Steward: a
 * second program starting the bridge under a paired client's name, one process flooding the
 * pairing queue, and a one-shot client (connect, call once, exit) that must still be able to pair.
 */

const ORDER = 'ORD-1024';

/** What a client must not see before it may: the tabs and their pages. */
function expectNothingOfThePages(reply: ToolReply, world: RefusalWorld): void {
  const seen = `${reply.text}\n${JSON.stringify(reply.structured ?? {})}`;
  for (const secret of [new URL(world.sites.urls.shop).host, new URL(world.sites.urls.clinic).host, '/orders/', 'tab_id']) expect(seen).not.toContain(secret);
}

/** Many requests written on one connection to the host's socket, as one local process could: the replies, in order. */
function socketFlood(home: string, messages: Array<Record<string, unknown>>): Promise<Array<{ ok: boolean; error?: { code: string } }>> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(home, 'bridge.sock'));
    const replies = new Map<string, { ok: boolean; error?: { code: string } }>();
    let buffered = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error('the host did not answer the flood'))), 20_000);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as { id: string; reply: { ok: boolean; error?: { code: string } } };
        buffered = buffered.slice(newline + 1);
        replies.set(line.id, line.reply);
      }
      if (replies.size === messages.length) {
        clearTimeout(timer);
        // The flooder stays connected (a request whose process left would be withdrawn).
        resolve(messages.map((_, i) => replies.get(`flood-${i}`)!));
      }
    });
    messages.forEach((message, i) => socket.write(`${JSON.stringify({ id: `flood-${i}`, message })}\n`));
    closers.push(() => void socket.destroy());
  });
}

const closers: Array<() => void | Promise<void>> = [];

test.describe.serial('pairing against a hostile process on this computer', () => {
  let world: RefusalWorld;
  const clients: McpClient[] = [];
  const open = <C extends McpClient>(c: C): C => (clients.push(c), c);

  test.beforeAll(async () => {
    world = await startRefusalWorld();
  });
  test.afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const close of closers.splice(0)) await close();
    await world?.close();
  });

  test("a second program starting the bridge under a paired client's name gets no access: it pairs on its own", async () => {
    const name = 'Claude Desktop';
    const genuine = open(await connectStdio(world.bridge, 'v2', name));
    await pairClient(genuine, world.panel, { sites: [new URL(world.sites.urls.shop).origin], scopes: '*:*' });
    expect(existsSync(credentialFileFor(world.bridge, name))).toBe(true);
    await genuine.close();

    // The same user, the same bridge home and socket, the same name: without the client's credential file, and with a file of its own.
    for (const credential of [null, join(world.bridge.home, 'impostor.credential')]) {
      const impostor = open(await connectStdio(world.bridge, 'v2', name, { credential }));
      for (const [tool, args] of [
        ['steward_tabs', {}],
        ['steward_execute', { action: 'orders.cancel', resource: { type: 'order', id: ORDER }, input: { reason: 'ordered_by_mistake' }, idempotency_key: `impostor-${String(credential)}` }],
      ] as const) {
        const reply = await impostor.call(tool, args);
        expect(errorCodeOf(reply), reply.text).toBe('PAIRING_REQUIRED');
        expectNothingOfThePages(reply, world);
      }
      // A pairing card of its own: the person sees a new request under that name.
      await expect.poll(async () => (await pendingPairings(world.panel)).filter((p) => p.client.name === name)).toHaveLength(1);
      await showView(world.panel, 'Approvals');
      const card = world.panel.getByRole('region', { name: `Pairing request from ${name}` });
      await card.getByRole('button', { name: 'Refuse' }).click();
      await expect(card).toHaveCount(0);
      expect(errorCodeOf(await impostor.call('steward_tabs'))).toBe('PAIRING_REFUSED');
      await impostor.close();
    }
    expect(await tokensLabelled(world.panel, name)).toHaveLength(1);
    expect((await (await fetch(new URL('/__demo/state', world.sites.urls.shop))).json()).orders.find((o: { id: string }) => o.id === ORDER).status).not.toBe('cancelled');

    // The real client, started again with its credential file, still works.
    const again = open(await connectStdio(world.bridge, 'v1', name));
    const tabs = await again.call('steward_tabs');
    expect(tabs.isError, tabs.text).toBe(false);
    expect(JSON.stringify(payloadOf(tabs))).toContain(new URL(world.sites.urls.shop).host);
  });

  test("a flood from one process (many names over one HTTP bearer, many requests on one socket connection) leaves room for a genuine client's pairing, and is refused in one click", async () => {
    const http = await startHttpBridge(world.bridge);
    closers.push(() => http.stop());
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 8; i++) {
      const flooder = open(await connectHttp(http, 'v2', `Helpful Assistant ${i}`));
      codes.push(errorCodeOf(await flooder.call('steward_tabs')));
    }
    expect(codes.filter((c) => c === 'PAIRING_REQUIRED')).toHaveLength(2);
    expect(codes.filter((c) => c === 'QUOTA_EXCEEDED')).toHaveLength(6);

    const raw = await socketFlood(
      world.bridge.home,
      Array.from({ length: 10 }, (_, i) => ({ type: 'bridge/pair-request', client: { name: `Cursor ${i}`, transport: 'stdio' }, keep: true, source: `bearer-${i}` })),
    );
    expect(raw.filter((r) => r.ok)).toHaveLength(4);
    expect(raw.filter((r) => r.error?.code === 'QUOTA_EXCEEDED')).toHaveLength(6);

    // A genuine client still pairs.
    const genuine = open(await connectStdio(world.bridge, 'v2', 'Genuine Editor'));
    await pairClient(genuine, world.panel, { sites: [new URL(world.sites.urls.shop).origin] });

    // The person refuses the HTTP flood in one click; its next request is refused at once.
    await showView(world.panel, 'Approvals');
    const refuseHttp = world.panel.getByRole('button', { name: /^Refuse all 2 requests from HTTP bridge connection .*, bearer default$/ });
    await refuseHttp.click();
    await expect(refuseHttp).toHaveCount(0);
    const late = open(await connectHttp(http, 'v2', 'Helpful Assistant 99'));
    expect(errorCodeOf(await late.call('steward_tabs'))).toBe('PAIRING_REFUSED');
    expect((await pendingPairings(world.panel)).filter((p) => p.client.name.startsWith('Helpful Assistant'))).toHaveLength(0);
    expect(await tokensLabelled(world.panel, 'Helpful Assistant 0')).toHaveLength(0);
  });

  test('a one-shot client pairs: its request outlives the process, and a later run with its credential works; `steward-bridge pair` completes one from a terminal', async () => {
    // Like the MCP Inspector CLI: connect, call once, exit.
    const oneShot = async (name: string, credential: string): Promise<ToolReply> => {
      const client = await connectStdio(world.bridge, 'v2', name, { credential });
      const pid = client.pid!;
      const reply = await client.call('steward_tabs');
      await client.close();
      await expect.poll(() => alive(pid)).toBe(false);
      return reply;
    };
    const credential = join(world.bridge.home, 'inspector.credential');
    const code = pairingCodeOf(await oneShot('Inspector CLI', credential));
    // The process is gone; its request still waits for the person.
    await expect(world.panel.getByRole('region', { name: 'Pairing request from Inspector CLI' })).toBeVisible();
    await pairInPanel(world.panel, 'Inspector CLI', code, { asOffered: true });
    await expect(world.panel.getByRole('region', { name: 'Pairing request from Inspector CLI' })).toHaveCount(0);
    const later = await oneShot('Inspector CLI', credential);
    expect(later.isError, later.text).toBe(false);
    expect(JSON.stringify(payloadOf(later))).toContain(new URL(world.sites.urls.shop).host);

    // From a terminal: the person runs `steward-bridge pair`, reads the code, pairs in the panel; the client's next run works.
    const terminal = join(world.bridge.home, 'terminal.credential');
    const pair = spawn(process.execPath, [BRIDGE_CLI, 'pair', '--credential', terminal, '--name', 'Terminal Agent'], {
      env: { ...process.env, ...world.bridge.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    closers.push(() => void (pair.exitCode === null && pair.kill()));
    let out = '';
    pair.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => pair.once('exit', resolve));
    await expect.poll(() => /Pairing code (\d{3}-\d{3})/.exec(out)?.[1], { timeout: 20_000 }).toBeTruthy();
    await pairInPanel(world.panel, 'Terminal Agent', /Pairing code (\d{3}-\d{3})/.exec(out)![1]!, { asOffered: true });
    expect(await exited).toBe(0);
    expect(out).toMatch(/"Terminal Agent" is paired as agent:mcp-terminal-agent-/);
    const run = await oneShot('Any Name', terminal);
    expect(run.isError, run.text).toBe(false);
  });
});
