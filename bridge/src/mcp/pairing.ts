import type { CallToolResult } from '@modelcontextprotocol/server';
import type { McpClientInfo } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from '../link/steward-link.ts';
import type { CredentialStore } from './credentials.ts';
import { errorResult } from './results.ts';
import { refusalResult } from './refusals.ts';

/** Who a paired client's calls are made as. */
export interface Auth {
  agent_id: string;
  token: string;
}

interface PendingPairing {
  pairing_id: string;
  claim_secret: string;
  code: string;
}

export type AuthOutcome = { ok: true; auth: Auth } | { ok: false; result: CallToolResult };

const ENDED = new Set(['PAIRING_REFUSED', 'PAIRING_EXPIRED', 'PAIRING_UNKNOWN']);

function pairingRequired(client: string, code: string): CallToolResult {
  return errorResult(
    {
      code: 'PAIRING_REQUIRED',
      message: `This MCP client ("${client}") is not paired with Steward yet; pairing code ${code}.`,
      retryable: true,
      recovery_hint: 'Ask the person to accept the pairing in Steward, then call again.',
    },
    [
      `Steward needs the person's permission before "${client}" can use the browser.`,
      `Ask the person to open Steward's side panel in the browser, find the pairing request from "${client}", enter the code ${code} and choose what to allow.`,
      'Then call this tool again. Nothing has been done yet.',
    ].join('\n'),
  );
}

/**
 * The client side of pairing, per MCP client name: asks Steward for a pairing, collects the token
 * once the person accepts it in the side panel, keeps it (credentials.ts), and forgets it when
 * Steward says it is no longer valid. The claim secret never leaves this process.
 */
export class Pairing {
  private readonly pending = new Map<string, PendingPairing>();
  /** One pairing step at a time per client, so concurrent calls do not open two requests. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly link: StewardLink,
    private readonly store: CredentialStore,
    private readonly log: (line: string) => void,
  ) {}

  authFor(client: McpClientInfo): Promise<AuthOutcome> {
    const previous = this.queues.get(client.name) ?? Promise.resolve();
    const next = previous.then(
      () => this.step(client),
      () => this.step(client),
    );
    this.queues.set(client.name, next);
    void next.finally(() => {
      if (this.queues.get(client.name) === next) this.queues.delete(client.name);
    });
    return next;
  }

  /** Steward said the token is revoked or expired: drop it so the next call pairs again. */
  async forget(clientName: string): Promise<void> {
    this.log(`steward-bridge: the token of "${clientName}" is no longer valid; forgetting it`);
    await this.store.forget(clientName);
  }

  private async step(client: McpClientInfo): Promise<AuthOutcome> {
    const credential = await this.store.read(client.name);
    if (credential) return { ok: true, auth: { agent_id: credential.agent_id, token: credential.token } };
    const pending = this.pending.get(client.name);
    return pending ? this.claim(client, pending) : this.request(client);
  }

  private async request(client: McpClientInfo): Promise<AuthOutcome> {
    const reply = await this.link.call('bridge/pair-request', { client });
    if (!reply.ok) return { ok: false, result: refusalResult(reply.error) };
    const { pairing_id, claim_secret, code } = reply.data;
    this.pending.set(client.name, { pairing_id, claim_secret, code });
    this.log(`steward-bridge: pairing requested for "${client.name}" (${pairing_id})`);
    return { ok: false, result: pairingRequired(client.name, code) };
  }

  private async claim(client: McpClientInfo, pending: PendingPairing): Promise<AuthOutcome> {
    const reply = await this.link.call('bridge/pair-claim', { pairing_id: pending.pairing_id, claim_secret: pending.claim_secret });
    if (!reply.ok) {
      if (ENDED.has(reply.error.code)) this.pending.delete(client.name);
      return { ok: false, result: refusalResult(reply.error) };
    }
    if (reply.data.status === 'pending') return { ok: false, result: pairingRequired(client.name, reply.data.code) };
    const paired = reply.data;
    await this.store.save({
      client_name: client.name,
      agent_id: paired.agent_id,
      token: paired.token,
      token_id: paired.token_id,
      expires_at: paired.expires_at,
      origins: paired.origins,
      scope: paired.scope,
      resource_scope: paired.resource_scope,
      saved_at: new Date().toISOString(),
    });
    this.pending.delete(client.name);
    this.log(`steward-bridge: "${client.name}" is paired as ${paired.agent_id}`);
    return { ok: true, auth: { agent_id: paired.agent_id, token: paired.token } };
  }
}
