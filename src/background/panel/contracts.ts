import type { Data, Payload } from '../../protocol/channel.ts';
import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';

/**
 * What the control room may do with sites that publish an agent contract (bound in
 * src/background/contract/): see what the tab's site offers and what Steward holds, connect with
 * the person's consent (the site issues a token bound to Steward's agent key), disconnect.
 */
export interface ContractControl {
  siteForTab(tabId: number): Promise<ContractSiteView | null>;
  sites(): Promise<ContractSiteView[]>;
  connect(request: Payload<PanelRequests, 'panel/contract-connect'>): Promise<Data<PanelRequests, 'panel/contract-connect'>>;
  disconnect(origin: string): Promise<Data<PanelRequests, 'panel/contract-disconnect'>>;
}
