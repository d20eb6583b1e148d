import { systemClock } from '../../base/clock.ts';
import { createPairingBook, type PairingBook, type PairingBookPorts } from '../../mcp/pairing-book.ts';
import type { BridgeRequests, BridgeStatus, PairingClient } from '../../protocol/bridge.ts';
import type { Data, Payload, Reply } from '../../protocol/channel.ts';
import { browser } from '../core/browser.ts';
import type { PairingControl } from '../panel/pairings.ts';

/**
 * Pairing of MCP clients, in the worker: the bridge asks (`bridge/pair-request`) and collects
 * (`bridge/pair-claim`), the person decides in the side panel (PairingControl). Requests survive a
 * worker restart (chrome.storage.session); a token minted for a pairing is handed out once, to
 * the holder of the claim secret. The logic is the pure pairing book (src/mcp/).
 */
export interface PairingService extends PairingControl {
  /** `conn`: the host connection it came on (Steward's id for it), the part of its source the bridge cannot choose. */
  request(payload: { client: PairingClient; source?: string | undefined }, conn: string): Promise<Reply<Data<BridgeRequests, 'bridge/pair-request'>>>;
  claim(payload: Payload<BridgeRequests, 'bridge/pair-claim'>): Promise<Reply<Data<BridgeRequests, 'bridge/pair-claim'>>>;
  /** The bridge process that asked went away (its claim secret with it): the request ends, an uncollected token is revoked. */
  withdraw: PairingBook['withdraw'];
  /** Ends expired requests (revoking uncollected tokens); worth calling at worker start. */
  sweep: PairingBook['sweep'];
}

export interface PairingServiceDeps extends Pick<PairingBookPorts, 'mintToken' | 'revokeToken' | 'push' | 'announce'> {
  /** The link's state, for `status()`. */
  linkStatus(): Promise<BridgeStatus>;
}

/** The session area: survives a worker restart, gone with the browser, out of content scripts' reach (storage-access.ts). */
const KEY = 'bridge.pairings';

export function createPairingService(deps: PairingServiceDeps): PairingService {
  const book = createPairingBook({
    storage: {
      load: async () => (await browser.storage.session.get(KEY))[KEY],
      save: (records) => browser.storage.session.set({ [KEY]: records }),
    },
    clock: systemClock,
    random: (length) => crypto.getRandomValues(new Uint8Array(length)),
    mintToken: deps.mintToken,
    revokeToken: deps.revokeToken,
    push: deps.push,
    announce: deps.announce,
  });
  return {
    request: ({ client, source }, conn) => book.request(client, { conn, ...(source ? { sub: source } : {}) }),
    claim: (payload) => book.claim(payload),
    pending: () => book.pending(),
    decide: (message) => book.decide(message),
    refuseSource: (source) => book.refuseSource(source),
    withdraw: (pairingId) => book.withdraw(pairingId),
    sweep: () => book.sweep(),
    status: () => deps.linkStatus(),
  };
}
