import type { PanelPush } from '../../protocol/panel-channel.ts';
import { createContractClient } from '../../contract/contract-client.ts';
import type { HttpPort } from '../../contract/ports.ts';
import { openContractVault, type ContractVault } from '../../storage/contract-vault.ts';
import type { ContractControl } from '../panel/contracts.ts';
import type { ContractPorts } from '../ports/index.ts';
import { AcceptedPoller } from './accepted-poller.ts';
import { SiteAgentKeys } from './agent-key.ts';
import { contractControl, type TabPage } from './contract-control.ts';
import { ContractRegistry } from './contract-registry.ts';
import { contractState } from './contract-state.ts';
import { fetchHttpPort } from './http.ts';
import { siteContractExecutor } from './site-contract-executor.ts';
import { SiteGrants } from './site-grants.ts';

/**
 * The contract path in the service worker (DESIGN §6, issue 16): Steward's agent key, the sites'
 * contracts and grants, the client that signs every request, and what the rest of the worker
 * gets from them — the panel's ContractControl, the pipeline's site_contract executor, observe
 * and routes ports, and the tab observer's site reading.
 */

export interface ContractServiceDeps {
  /** The person's list of allowed sites: nothing is fetched from any other. */
  allowed(origin: string): Promise<boolean>;
  /** A tab's URL and the contract link its last snapshot showed. */
  tabPage(tabId: number): Promise<TabPage | undefined>;
  /** pipeline.recheck, for actions a site accepted. */
  recheck(actionId: string): Promise<{ finished: boolean } | undefined>;
  push(message: PanelPush): void;
  /** Defaults: the `steward` database and the worker's fetch; tests pass their own. */
  vault?: () => Promise<ContractVault>;
  http?: HttpPort;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

export interface ContractService extends ContractPorts {
  contracts: ContractControl;
}

export function createContractService(deps: ContractServiceDeps): ContractService {
  const now = deps.now ?? Date.now;
  let opening: Promise<ContractVault> | undefined;
  const vault = (): Promise<ContractVault> => {
    opening ??= (deps.vault ?? (() => openContractVault()))().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const http = deps.http ?? fetchHttpPort();
  const keys = new SiteAgentKeys(async () => (await vault()).agentKey, now);
  const registry = new ContractRegistry({ http, allowed: deps.allowed, now });
  const grants = new SiteGrants({ vault: async () => (await vault()).grants, registry, changed: () => deps.push({ type: 'panel/contracts-changed' }), now });
  const client = async (origin: string) => createContractClient({ http, key: await keys.get(origin), now });
  const poller = new AcceptedPoller({ recheck: deps.recheck, settled: () => deps.push({ type: 'panel/audit-changed' }), now, ...(deps.setTimer ? { setTimer: deps.setTimer } : {}) });
  const state = contractState({ grants, client, allowed: deps.allowed, now });
  return {
    contracts: contractControl({ registry, grants, client, tabPage: deps.tabPage, allowed: deps.allowed, now }),
    executor: siteContractExecutor({ grants, client, allowed: deps.allowed, poller }),
    observe: state.observe,
    routes: state.routes,
    siteState: state.forTab,
  };
}
