import type { CallToolResult } from '@modelcontextprotocol/server';
import type { McpClientInfo } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from '../link/steward-link.ts';
import type { ClientSlot, PendingState } from './credentials.ts';
import { errorResult, type ToolError } from './results.ts';
import { refusalResult } from './refusals.ts';

/** Who a paired client's calls are made as. */
export interface Auth {
  agent_id: string;
  token: string;
}

/**
 * Not (yet) paired: the tool result for the client, and for a terminal (`steward-bridge pair`) the
 * code while the request waits, or the refusal that ended it.
 */
export type AuthOutcome = { ok: true; auth: Auth } | { ok: false; result: CallToolResult; waiting?: { code: string }; refusal?: ToolError };

const ENDED = new Set(['PAIRING_REFUSED', 'PAIRING_EXPIRED', 'PAIRING_UNKNOWN']);

function pairingRequired(client: string, code: string, slot: ClientSlot): CallToolResult {
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
      slot.keepsPending
        ? `The pairing is kept in ${slot.where}: a later run of this client with the same file collects it.`
        : slot.where.startsWith('this bridge process')
          ? "This bridge was started without a credential file, so the pairing lasts only while it runs. To keep it, add `--credential FILE` (or the env var STEWARD_BRIDGE_CREDENTIAL=FILE) to the client's launch line."
          : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

type Outcome = { ok: false; result: CallToolResult; refusal: ToolError };
const refused = (error: ToolError): Outcome => ({ ok: false, result: refusalResult(error), refusal: error });

/**
 * The client side of pairing, per client slot (credentials.ts: a stdio process's credential file or
 * memory, an HTTP client's file): asks Steward for a pairing, collects the token once the person
 * accepts it in the side panel, keeps it in the slot, and forgets it when Steward says it is no
 * longer valid. The claim secret never leaves this process, or the slot's 0600 file.
 */
export class Pairing {
  /** One pairing step at a time per slot, so concurrent calls do not open two requests. */
  private readonly queues = new Map<ClientSlot, Promise<unknown>>();

  /** `clientKey`: the organisation's key for this process's one client (stdio, `pair`), presented when asking to pair. */
  constructor(
    private readonly link: StewardLink,
    private readonly log: (line: string) => void,
    private readonly clientKey?: string,
  ) {}

  /**
   * `source`: which client of this bridge process asks (the HTTP server's bearer), for Steward's per-source limits.
   * `waitMs`: a request already open waits up to this long for the person's decision (Steward answers when they decide).
   */
  authFor(client: McpClientInfo, slot: ClientSlot, source?: string, waitMs = 0): Promise<AuthOutcome> {
    const previous = this.queues.get(slot) ?? Promise.resolve();
    const next = previous.then(
      () => this.step(client, slot, source, waitMs),
      () => this.step(client, slot, source, waitMs),
    );
    this.queues.set(slot, next);
    void next.finally(() => {
      if (this.queues.get(slot) === next) this.queues.delete(slot);
    });
    return next;
  }

  /** Steward said the token is revoked or expired: drop it so the next call pairs again. */
  async forget(slot: ClientSlot, clientName: string): Promise<void> {
    this.log(`steward-bridge: the token of "${clientName}" is no longer valid; forgetting it`);
    await slot.clear();
  }

  private async step(client: McpClientInfo, slot: ClientSlot, source: string | undefined, waitMs: number): Promise<AuthOutcome> {
    const state = await slot.read();
    if (state?.status === 'paired') return { ok: true, auth: { agent_id: state.agent_id, token: state.token } };
    return state ? this.claim(slot, state, waitMs) : this.request(client, slot, source);
  }

  private async request(client: McpClientInfo, slot: ClientSlot, source: string | undefined): Promise<AuthOutcome> {
    const reply = await this.link.call('bridge/pair-request', {
      client,
      keep: slot.keepsPending,
      ...(source ? { source } : {}),
      ...(this.clientKey !== undefined ? { client_key: this.clientKey } : {}),
    });
    if (!reply.ok) return refused(reply.error);
    const { pairing_id, claim_secret, code, expires_at } = reply.data;
    await slot.write({ status: 'pending', client_name: client.name, pairing_id, claim_secret, code, expires_at, saved_at: new Date().toISOString() });
    this.log(`steward-bridge: pairing requested for "${client.name}" (${pairing_id}), kept in ${slot.where}`);
    return { ok: false, result: pairingRequired(client.name, code, slot), waiting: { code } };
  }

  private async claim(slot: ClientSlot, pending: PendingState, waitMs: number): Promise<AuthOutcome> {
    const reply = await this.link.call('bridge/pair-claim', { pairing_id: pending.pairing_id, claim_secret: pending.claim_secret, wait_ms: waitMs });
    if (!reply.ok) {
      if (ENDED.has(reply.error.code)) await slot.clear();
      return refused(reply.error);
    }
    // The name on the card is the one the request was made with (a one-shot client's next run may call itself otherwise).
    if (reply.data.status === 'pending') return { ok: false, result: pairingRequired(pending.client_name, reply.data.code, slot), waiting: { code: reply.data.code } };
    const paired = reply.data;
    await slot.write({
      status: 'paired',
      client_name: pending.client_name,
      agent_id: paired.agent_id,
      token: paired.token,
      token_id: paired.token_id,
      expires_at: paired.expires_at,
      origins: paired.origins,
      scope: paired.scope,
      resource_scope: paired.resource_scope,
      saved_at: new Date().toISOString(),
    });
    this.log(`steward-bridge: "${pending.client_name}" is paired as ${paired.agent_id}; its credential is in ${slot.where}`);
    return { ok: true, auth: { agent_id: paired.agent_id, token: paired.token } };
  }
}
