import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/protocol/channel.ts';
import { credentialFile } from '../../../bridge/src/mcp/credentials.ts';
import { AGENT, FakeLink, SECRET, connectInMemory, tempHome, textOf } from './mcp-fake-link.ts';

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
  it('asks for a pairing, shows the code, collects the token once accepted, stores it 0600, then calls with it; TOKEN_INVALID forgets it', async () => {
    const home = await tempHome();
    const claims: Reply<unknown>[] = [pending, paired];
    const tabs: Reply<unknown>[] = [noTabs, refusal('TOKEN_INVALID')];
    const link = new FakeLink({ 'bridge/pair-request': () => requested(), 'bridge/pair-claim': () => claims.shift()!, 'bridge/tabs': () => tabs.shift()! });
    const session = await connectInMemory(link, home, { name: 'Claude Desktop' });
    closers.push(() => session.close());
    const file = credentialFile(home, 'Claude Desktop');

    const first = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(first.isError).toBe(true);
    expect(first.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(textOf(first)).toContain('483-192');
    expect(textOf(first)).toContain("Steward's side panel");
    expect(textOf(first)).toContain('"Claude Desktop"');
    expect(link.calls[0]).toEqual({ type: 'bridge/pair-request', payload: { client: { name: 'Claude Desktop', version: '1.0.0', transport: 'stdio' } } });

    const second = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(second.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(textOf(second)).toContain('483-192');
    expect(link.calls[1]).toEqual({ type: 'bridge/pair-claim', payload: { pairing_id: 'pair_abcdefgh12', claim_secret: CLAIM } });
    expect(await exists(file)).toBe(false);

    const third = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(third.isError).toBeFalsy();
    expect(link.types()).toEqual(['bridge/pair-request', 'bridge/pair-claim', 'bridge/pair-claim', 'bridge/tabs']);
    expect(link.calls[3]!.payload).toEqual({ auth: { agent_id: AGENT, token: SECRET } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

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

  it('treats a corrupt credential file as no credential', async () => {
    const home = await tempHome();
    const file = credentialFile(home, 'Test Client');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ client_name: 'Test Client', agent_id: 'nope', token: 'x' }));
    await chmod(file, 0o600);
    const link = new FakeLink({ 'bridge/pair-request': () => requested() });
    const session = await connectInMemory(link, home);
    closers.push(() => session.close());
    const result = await session.client.callTool({ name: 'steward_tabs', arguments: {} });
    expect(result.structuredContent).toMatchObject({ error: { code: 'PAIRING_REQUIRED' } });
    expect(link.types()).toEqual(['bridge/pair-request']);
  });
});
