import { PAIR_CLAIM_WAIT_MAX_MS, type McpClientInfo } from '../../../src/protocol/bridge.ts';
import type { StewardLink } from '../link/steward-link.ts';
import { fileSlot } from './credentials.ts';
import { Pairing } from './pairing.ts';

export interface PairCommandOptions {
  link: StewardLink;
  /** The client's credential file (the one its launch line names with `serve --credential`). */
  credential: string;
  /** The name the pairing card shows, when this command opens the request. */
  name: string;
  log: (line: string) => void;
  /** The organisation's key for this client (policy mcpClientKeys), presented when asking to pair. */
  clientKey?: string | undefined;
  /** What the person reads in the terminal. */
  say: (line: string) => void;
  /** How long each look at the request waits for the person's decision (default: as long as Steward allows). */
  waitMs?: number;
}

/**
 * `steward-bridge pair --credential FILE`: completes a pairing from a terminal, for a client that
 * cannot wait for it (a CLI that calls once and exits). It continues the request a run of that
 * client left in FILE, or opens one, shows the code, waits while the person decides in Steward's
 * side panel, and writes the credential to FILE. Exit 0 once paired, 1 if refused, expired or
 * Steward is not there.
 */
export async function pairFromTerminal(options: PairCommandOptions): Promise<number> {
  const slot = fileSlot(options.credential, options.log, { keepsPending: true });
  const pairing = new Pairing(options.link, options.log, options.clientKey);
  const client: McpClientInfo = { name: options.name, transport: 'stdio' };
  let shown = '';
  for (;;) {
    const state = await slot.read();
    // The first look shows the code at once; later ones wait in Steward until the person decides.
    const outcome = await pairing.authFor(client, slot, undefined, shown ? (options.waitMs ?? PAIR_CLAIM_WAIT_MAX_MS) : 0);
    if (outcome.ok) {
      const paired = await slot.read();
      const who = paired?.status === 'paired' ? `"${paired.client_name}" is paired as ${paired.agent_id} (until ${paired.expires_at})` : 'Paired';
      options.say(
        state?.status === 'paired'
          ? `${who} already; ${options.credential} holds its credential.`
          : `${who}. Its credential is in ${options.credential}; start the client's bridge with \`steward-bridge serve --credential ${options.credential}\` (or STEWARD_BRIDGE_CREDENTIAL=${options.credential}).`,
      );
      return 0;
    }
    if (!outcome.waiting) {
      options.say(`Not paired: ${outcome.refusal ? `${outcome.refusal.code}: ${outcome.refusal.message}` : 'Steward refused.'}`);
      return 1;
    }
    if (outcome.waiting.code !== shown) {
      shown = outcome.waiting.code;
      const name = (await slot.read())?.client_name ?? options.name;
      options.say(`Pairing code ${shown}: in Steward's side panel, find the pairing request from "${name}", enter ${shown} and choose what to allow. Waiting…`);
    }
  }
}
