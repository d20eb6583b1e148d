import type { Data, PayloadInput, Reply } from '../../../src/protocol/channel.ts';
import type { BridgeEvent, BridgeRequests } from '../../../src/protocol/bridge.ts';

/**
 * The MCP server's way to Steward: one bridge request (src/protocol/bridge.ts) through the
 * native-messaging host's per-user socket to Steward's service worker, and its answer, parsed
 * with that request's reply schema. Never throws for Steward's refusals or a missing browser:
 * those are refusals (`STEWARD_UNAVAILABLE` when the browser is not connected, after waiting a
 * while for it to come back; retryable).
 */
export interface StewardLink {
  call<K extends keyof BridgeRequests & string>(type: K, payload: PayloadInput<BridgeRequests, K>): Promise<Reply<Data<BridgeRequests, K>>>;
  /** Listens to Steward's events (BridgeEvent, already checked); returns the way to stop listening. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
  /** Whether the link to Steward is up right now. */
  connected(): boolean;
  /** Closes the socket and stops reconnecting. */
  close(): Promise<void>;
}
