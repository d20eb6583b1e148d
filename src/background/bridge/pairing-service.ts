import type { BridgeRequests } from '../../protocol/bridge.ts';
import type { Data, Payload, Reply } from '../../protocol/channel.ts';
import type { MintTokenRequest, PanelPush, TokenWithUsage } from '../../protocol/panel-channel.ts';
import type { z } from 'zod';
import type { PairingControl } from '../panel/pairings.ts';

/**
 * Pairing of MCP clients, in the worker: the bridge asks (`bridge/pair-request`) and collects
 * (`bridge/pair-claim`), the person decides in the side panel (PairingControl). Requests survive a
 * worker restart (chrome.storage.session); a token minted for a pairing is handed out once, to
 * the holder of the claim secret.
 */
export interface PairingService extends PairingControl {
  request(payload: Payload<BridgeRequests, 'bridge/pair-request'>): Promise<Reply<Data<BridgeRequests, 'bridge/pair-request'>>>;
  claim(payload: Payload<BridgeRequests, 'bridge/pair-claim'>): Promise<Reply<Data<BridgeRequests, 'bridge/pair-claim'>>>;
}

export interface PairingServiceDeps {
  /** Mints the client's token (pipeline.admin.mintToken): the secret exists only in this answer. */
  mintToken(request: z.output<typeof MintTokenRequest>): Promise<TokenWithUsage & { secret: string }>;
  revokeToken(tokenId: string): Promise<void>;
  push(message: PanelPush): void;
  /** Tells the person a pairing waits (badge, notification when no panel is open). */
  announce(clientName: string): void;
  /** The link's state, for `status()`. */
  linkStatus(): Promise<import('../../protocol/bridge.ts').BridgeStatus>;
}

export function createPairingService(_deps: PairingServiceDeps): PairingService {
  throw new Error('not built yet');
}
