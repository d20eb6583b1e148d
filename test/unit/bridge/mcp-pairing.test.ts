import { PAIR_CLAIM_WAIT_MAX_MS } from '../../../src/protocol/bridge.ts';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/protocol/channel.ts';
import { pairFromTerminal } from '../../../bridge/src/mcp/pair-command.ts';
import { AGENT, FakeLink, SECRET, connectInMemory, credentialFor, saveCredential, stdioCredentialFile, tempHome, textOf } from './mcp-fake-link.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const CLAIM = 'c'.repeat(40);
const requested = (code = '483-192', id = 'pair_abcdefgh12') => ({ ok: true as const, data: { pairing_id: id, code, claim_secret: CLAIM, expires_at: '2030-01-01T00:00:00.000Z' } });
const pending = { ok: true as const, data: { status: 'pending' as const, code: '483-192', expires_at: '2030-01-01T00:00:00.000Z' } };
const paired = {
  ok: true as const,
  data: {
    status: 'paired' as const,
    agent_id: AGENT,
    token_id: 'tok_3f9a1c',
    token: SECRET,
    scope: ['*:*'],
    origins: ['http://localhost:4001'],
    resource_scope: '*',
    expires_at: '2030-01-01T00:00:00.000Z',
  },
};
const refusal = (code: string): Reply<never> => ({ ok: false, error: { code, message: `${code} from Steward`, retryable: false } });
const noTabs = { ok: true as const, data: { tabs: [] } };

async function exists(file: string) {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('pairing an MCP client', () => {
  it('presents the key the organisation issued to this client (--client-key-file) with its pairing request, and only there', async () => {
    const home = await tempHome();
    const claims: Reply<unknown>[] = [paired];
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => claims.shift()!, 'bridge/tabs': () => noTabs });
    const key = 'k3y-issued-by-the-organisation-0123';
    const session = await connectInMemory(link, home, { name: 'Claude Desktop', clientKey: key });
    closers.push(() => session.close());
    await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(link.calls[0]).toEqual({ type: 'bridge/pair-request', payload: { client: { name: 'Claude Desktop', version: '1.0.0', transport: 'stdio' }, keep: true, client_key: key } });
    expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/tabs']);
    expect(JSON.stringify(link.calls.slice(1))).not.toContain(key);
    // Nor is it written with the pairing.
    expect(await readFile(stdioCredentialFile(home), 'utf8')).not.toContain(key);
  });

  it('asks for a pairing, shows the code, collects the token once accepted, stores it 0600 in the credential file the launch line names, then calls with it; TOKEN_INVALID forgets it', async () => {
    const home = await tempHome();
    const claims: Reply<unknown>[] = [pending, paired];
    const tabs: Reply<unknown>[] = [noTabs, refusal('TOKEN_INVALID')];
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => claims.shift()!, 'bridge/tabs': () => tabs.shift()! });
    const file = path.join(home, 'config', 'desk.credential');
    const session = await connectInMemory(link, home, { name: 'Claude Desktop', credential: file });
    closers.push(() => session.close());

    const first = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(first.isError).toBe(true);
    expect(first.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(textOf(first)).toContain('483-192');
    expect(textOf(first)).toContain("Steward's side panel");
    expect(textOf(first)).toContain('"Claude Desktop"');
    expect(link.calls[0]).toEqual({ type: 'bridge/pair-request', payload: { client: { name: 'Claude Desktop', version: '1.0.0', transport: 'stdio' }, keep: true } });
    // The request is kept in the file (0600), so a later run of the client collects it.
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ status: 'pending', pairing_id: 'pair_abcdefgh12', claim_secret: CLAIM, code: '483-192' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(second.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(textOf(second)).toContain('483-192');
    expect(link.calls[1]).toEqual({ type: 'bridge/pair-claim', payload: { pairing_id: 'pair_abcdefgh12', claim_secret: CLAIM, wait_ms: 0 } });

    const third = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(third.isError).toBeFalsy();
    expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/pair-claim', 'bridge/tabs']);
    expect(link.calls[3]!.payload).toEqual({ auth: { agent_id: AGENT, token: SECRET } });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ status: 'paired', agent_id: AGENT, token: SECRET, client_name: 'Claude Desktop' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const revoked = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(revoked.isError).toBe(true);
    expect(revoked.structuredContent).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
    expect(textOf(revoked)).toMatch(/revoked or has expired in Steward/);
    expect(textOf(revoked)).toMatch(/pair this client again/);
    expect(await exists(file)).toBe(false);

    await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(link.types().at(-1)).toBe('bridge/pair-request');
  });

  for (const code of ['PAIRING_REFUSED', 'PAIRING_EXPIRED', 'PAIRING_UNKNOWN']) {
    it(`${code} is a clear error and the next call starts a new pairing request`, async () => {
      const codes = ['111-111', '222-222'];
      const link = new FakeLink({ 'bridge/pair-request': () => requested(codes.shift()), 'bridge/pair-claim': () => refusal(code) });
      const session = await connectInMemory(link, await tempHome(), { mode: 'legacy' });
      closers.push(() => session.close());
      await session.client.callTool({ name: 'steward_memory', arguments: {} });
      const ended = await session.client.callTool({ name: 'steward_memory', arguments: {} });
      expect(ended.isError).toBe(true);
      expect(ended.structuredContent).toMatchObject({ error: { code } });
      expect(textOf(ended)).toMatch(/next call starts a new pairing request/);
      const again = await session.client.callTool({ name: 'steward_memory', arguments: {} });
      expect(textOf(again)).toContain('222-222');
      expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/pair-request']);
    });
  }

  it('treats a corrupt credential file, or one others may read, as no credential', async () => {
    const home = await tempHome();
    const file = stdioCredentialFile(home);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ client_name: 'Test Client', agent_id: 'nope', token: 'x' }));
    await chmod(file, 0o600);
    const link = new FakeLink({ 'bridge/pair-request': () => requested() });
    const session = await connectInMemory(link, home);
    closers.push(() => session.close());
    const result = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(result.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(link.types()).toEqual(['bridge/pair-request']);

    const open = await tempHome();
    await saveCredential(open, credentialFor('Test Client'));
    await chmod(stdioCredentialFile(open), 0o644);
    const other = new FakeLink({ 'bridge/pair-request': () => requested() });
    const loose = await connectInMemory(other, open);
    closers.push(() => loose.close());
    expect((await loose.client.callTool({ name: 'steward_tabs', arguments: {} })).structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
  });
});

describe('a pairing belongs to the credential, not to the name a client gives', () => {
  it("a client that claims a paired client's name without its credential file pairs on its own; the paired one keeps working", async () => {
    const home = await tempHome();
    await saveCredential(home, credentialFor('Claude Desktop'));
    const link = new FakeLink({ 'bridge/pair-request': () => requested('777-111', 'pair_impostor001'), 'bridge/tabs': () => noTabs });
    const impostor = await connectInMemory(link, home, { name: 'Claude Desktop', credential: null });
    closers.push(() => impostor.close());
    const reply = await impostor.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(reply.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(textOf(reply)).toMatch(/started without a credential file.*--credential FILE/s);
    expect(link.calls[0]).toEqual({ type: 'bridge/pair-request', payload: { client: { name: 'Claude Desktop', version: '1.0.0', transport: 'stdio' }, keep: false } });
    expect(link.types()).not.toContain('bridge/tabs');

    const genuine = await connectInMemory(link, home, { name: 'Claude Desktop' });
    closers.push(() => genuine.close());
    expect((await genuine.client.callTool({ name: 'steward_tabs', arguments: {} })).isError).toBeFalsy();
    expect(link.calls.at(-1)).toEqual({ type: 'bridge/tabs', payload: { auth: { agent_id: AGENT, token: SECRET } } });
  });

  it('a one-shot client: its first run leaves the request in its file and exits; its next run (any name) collects the token', async () => {
    const home = await tempHome();
    const claims: Reply<unknown>[] = [paired];
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => claims.shift()!, 'bridge/tabs': () => noTabs });
    const first = await connectInMemory(link, home, { name: 'inspector-cli' });
    expect(textOf(await first.client.callTool({ name: 'steward_tabs', arguments: {} }))).toContain('483-192');
    await first.close();
    const second = await connectInMemory(link, home, { name: 'inspector-cli 2' });
    closers.push(() => second.close());
    expect((await second.client.callTool({ name: 'steward_tabs', arguments: {} })).isError).toBeFalsy();
    expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/tabs']);
    expect(JSON.parse(await readFile(stdioCredentialFile(home), 'utf8'))).toMatchObject({ status: 'paired', client_name: 'inspector-cli' });
  });
});

describe('steward-bridge pair', () => {
  it('continues the request a one-shot run left, shows its code once, waits, and writes the credential', async () => {
    const home = await tempHome();
    const file = stdioCredentialFile(home);
    const claims: Reply<unknown>[] = [pending, pending, paired];
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => claims.shift()! });
    const run = await connectInMemory(link, home, { name: 'inspector-cli' });
    await run.client.callTool({ name: 'steward_tabs', arguments: {} });
    await run.close();
    const said: string[] = [];
    const code = await pairFromTerminal({ link, credential: file, name: 'unused', log: () => undefined, say: (l) => said.push(l) });
    expect(code).toBe(0);
    expect(said.filter((l) => l.includes('483-192'))).toHaveLength(1);
    expect(said[0]).toContain('"inspector-cli"');
    expect(said.at(-1)).toMatch(/is paired as agent:mcp-test-client-1a2b/);
    expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/pair-claim', 'bridge/pair-claim']);
    // The first look shows the code at once; then each look waits in Steward for the person's decision (no polling here).
    expect(link.calls.filter((c) => c.type === 'bridge/pair-claim').map((c) => (c.payload as { wait_ms: number }).wait_ms)).toEqual([0, PAIR_CLAIM_WAIT_MAX_MS, PAIR_CLAIM_WAIT_MAX_MS]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ status: 'paired', token: SECRET });
  });

  it('opens a request of its own when the file holds none, and exits 1 when the person refuses', async () => {
    const home = await tempHome();
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => refusal('PAIRING_REFUSED') });
    const said: string[] = [];
    const code = await pairFromTerminal({ link, credential: stdioCredentialFile(home), name: 'MCP Inspector', log: () => undefined, say: (l) => said.push(l) });
    expect(code).toBe(1);
    expect(link.calls[0]).toEqual({ type: 'bridge/pair-request', payload: { client: { name: 'MCP Inspector', transport: 'stdio' }, keep: true } });
    expect(said.at(-1)).toMatch(/Not paired: PAIRING_REFUSED/);
    expect(await exists(stdioCredentialFile(home))).toBe(false);
  });
});
