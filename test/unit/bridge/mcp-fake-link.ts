import type { Data, PayloadInput, Reply } from '../../../src/protocol/channel.ts';
import type { BridgeRequests } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from '../../../bridge/src/link/steward-link.ts';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveConnection } from '../../../bridge/src/mcp/index.ts';
import { fileCredentialStore, type Credential } from '../../../bridge/src/mcp/credentials.ts';

type Type = keyof BridgeRequests & string;
type Script = { [K in Type]?: (payload: PayloadInput<BridgeRequests, K>) => Reply<Data<BridgeRequests, K>> | Reply<unknown> };

/** The other side of the MCP server's only port: answers from a script and records every call. */
export class FakeLink implements StewardLink {
  readonly calls: { type: Type; payload: Record<string, unknown> }[] = [];
  closed = false;
  constructor(public script: Script = {}) {}
  call<K extends Type>(type: K, payload: PayloadInput<BridgeRequests, K>): Promise<Reply<Data<BridgeRequests, K>>> {
    this.calls.push({ type, payload: payload as Record<string, unknown> });
    const answer = this.script[type] as ((p: unknown) => Reply<unknown>) | undefined;
    const reply = answer ? answer(payload) : { ok: false as const, error: { code: 'STEWARD_UNAVAILABLE', message: 'The browser is not connected.', retryable: true } };
    return Promise.resolve(reply as Reply<Data<BridgeRequests, K>>);
  }
  connected(): boolean {
    return true;
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
  types(): Type[] {
    return this.calls.map((c) => c.type);
  }
}

export const tempHome = () => mkdtemp(path.join(tmpdir(), 'steward-bridge-test-'));

export const AGENT = 'agent:mcp-test-client-1a2b';
export const SECRET = `stw_secret_${'A'.repeat(43)}`;

export function credentialFor(clientName: string, agent = AGENT, token = SECRET): Credential {
  return {
    client_name: clientName,
    agent_id: agent,
    token,
    token_id: 'tok_3f9a1c',
    expires_at: '2030-01-01T00:00:00.000Z',
    origins: ['http://localhost:4001'],
    scope: ['*:*'],
    saved_at: '2026-12-01T00:00:00.000Z',
  };
}

export async function saveCredential(home: string, credential: Credential): Promise<void> {
  await fileCredentialStore(home, () => undefined).save(credential);
}

/** The real v2 client connected to the server over the SDK's in-memory transport (`auto` negotiates 2026-07-28; `legacy` is a 2025 initialize). */
export async function connectInMemory(link: StewardLink, home: string, options: { name?: string; mode?: 'auto' | 'legacy' } = {}) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const connection = await serveConnection({ link, home, log: () => undefined }, serverSide);
  const client = new Client({ name: options.name ?? 'Test Client', version: '1.0.0' }, { versionNegotiation: { mode: options.mode ?? 'auto' } });
  await client.connect(clientSide);
  return {
    client,
    connection,
    async close() {
      await client.close();
      await connection.close();
    },
  };
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
