import type { Data, PayloadInput, Reply } from '../../../src/protocol/channel.ts';
import type { BridgeEvent, BridgeRequests } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from '../../../bridge/src/link/steward-link.ts';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveConnection } from '../../../bridge/src/mcp/index.ts';
import { fileSlot, httpCredentialFile, type ClientSlot } from '../../../bridge/src/mcp/credentials.ts';

/** What a client's credential file holds (pending or paired), as the slot writes it. */
type SlotState = Parameters<ClientSlot['write']>[0];

type Type = keyof BridgeRequests & string;
type Script = { [K in Type]?: (payload: PayloadInput<BridgeRequests, K>) => Reply<Data<BridgeRequests, K>> | Reply<unknown> };

/** The other side of the MCP server's only port: answers from a script and records every call. */
export class FakeLink implements StewardLink {
  readonly calls: { type: Type; payload: Record<string, unknown> }[] = [];
  /** The bridge's own asks for the client's page tools (after each call, on events), kept apart from the calls a test is about. */
  readonly pageToolCalls: Record<string, unknown>[] = [];
  closed = false;
  private readonly listeners = new Set<(event: BridgeEvent) => void>();
  constructor(public script: Script = {}) {}
  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  /** Steward telling every bridge process something changed. */
  emit(event: BridgeEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  call<K extends Type>(type: K, payload: PayloadInput<BridgeRequests, K>): Promise<Reply<Data<BridgeRequests, K>>> {
    const answer = this.script[type] as ((p: unknown) => Reply<unknown>) | undefined;
    if (type === 'bridge/page-tools') {
      this.pageToolCalls.push(payload as Record<string, unknown>);
      return Promise.resolve((answer ? answer(payload) : { ok: true, data: { tab: null, tools: [] } }) as Reply<Data<BridgeRequests, K>>);
    }
    this.calls.push({ type, payload: payload as Record<string, unknown> });
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

/** The credential file a stdio test client's launch line names (connectInMemory's default). */
export const stdioCredentialFile = (home: string) => path.join(home, 'client-credential.json');

/** A paired client's credential; `identity`: `stdio` (the file a stdio client names) or an HTTP client's `http:<bearer>:<name>`. */
export function credentialFor(clientName: string, agent = AGENT, token = SECRET, identity = 'stdio'): { identity: string; state: SlotState } {
  return {
    identity,
    state: {
      status: 'paired',
      client_name: clientName,
      agent_id: agent,
      token,
      token_id: 'tok_3f9a1c',
      expires_at: '2030-01-01T00:00:00.000Z',
      origins: ['http://localhost:4001'],
      scope: ['*:*'],
      saved_at: '2026-12-01T00:00:00.000Z',
    },
  };
}

export async function saveCredential(home: string, credential: { identity: string; state: SlotState }): Promise<void> {
  const file = credential.identity === 'stdio' ? stdioCredentialFile(home) : httpCredentialFile(home, credential.identity);
  await fileSlot(file, () => undefined, { keepsPending: true }).write(credential.state);
}

/** The real v2 client connected to the server over the SDK's in-memory transport (`auto` negotiates 2026-07-28; `legacy` is a 2025 initialize). */
/** `credential`: the file the client's launch line names (the home's client-credential.json by default; null: none). */
/** `onToolsChanged`: called when the server says its tool list changed (notifications/tools/list_changed). */
export async function connectInMemory(
  link: StewardLink,
  home: string,
  options: { name?: string; mode?: 'auto' | 'legacy'; credential?: string | null; clientKey?: string; onToolsChanged?: () => void } = {},
) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const credential = options.credential === null ? undefined : (options.credential ?? stdioCredentialFile(home));
  const connection = await serveConnection({ link, home, log: () => undefined, credential, clientKey: options.clientKey }, serverSide);
  const onToolsChanged = options.onToolsChanged;
  const client = new Client(
    { name: options.name ?? 'Test Client', version: '1.0.0' },
    { versionNegotiation: { mode: options.mode ?? 'auto' }, ...(onToolsChanged ? { listChanged: { tools: { onChanged: () => onToolsChanged(), autoRefresh: false } } } : {}) },
  );
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
