import type { Reply } from '../../protocol/channel.ts';
import type { BridgeStatus, PairingView } from '../../protocol/bridge.ts';
import type { Data, Payload } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';

/**
 * What the control room may do with MCP clients pairing through the bridge (bound in
 * src/background/mcp/): list the requests waiting for the person, decide one, and see the
 * link's state. Minting the client's token happens inside `decide`, with the grant the person chose.
 */
export interface PairingControl {
  pending(): Promise<PairingView[]>;
  decide(message: Payload<PanelRequests, 'panel/pairing-decide'>): Promise<Reply<Data<PanelRequests, 'panel/pairing-decide'>>>;
  /** Refuses every request waiting from one source (a flood) at once. */
  refuseSource(source: string): Promise<{ refused: number }>;
  status(): Promise<BridgeStatus>;
}
