import type { Page } from '@playwright/test';
import type { ContractSiteView } from '../src/protocol/agent-contract.ts';
import type { ObservedState } from '../src/protocol/observed-state.ts';
import { request, until } from '../test/harness/copilot-driver.ts';

/**
 * Connecting Steward to a site's contract for the task benchmarks, with the panel channel's own
 * requests, as the side panel's consent form sends them (panel/contract-site, then
 * panel/contract-connect): the person grants only what a cancellation needs. Plain polling, no
 * test runner, like test/harness/copilot-driver.ts.
 */

export interface ContractGrant {
  scopes: string[];
  resource_scope: string[];
}

/** Read an order and cancel it, on any order: what "cancel ORD-1024" needs, nothing more (no payment). */
const CANCEL_GRANT: ContractGrant = { scopes: ['orders:read', 'orders:cancel'], resource_scope: ['order:*'] };

/** Whether Steward observes the tab through the site's contract and offers `action` on that path. */
export function observedThroughContract(state: ObservedState | null, action: string): boolean {
  return state?.source === 'site_contract' && (state.actions ?? []).some((a) => a.action === action && a.via === 'site_contract');
}

/**
 * Connects the tab's site (its contract discovered on the page) with the person's consent, then
 * waits until Steward observes the tab through the contract and offers `action` there.
 */
export async function connectContract(panel: Page, tabId: number, action: string, grant: ContractGrant = CANCEL_GRANT): Promise<ContractSiteView> {
  const site = await until('Steward to discover the tab’s contract', async () => (await request<{ site: ContractSiteView | null }>(panel, { type: 'panel/contract-site', tabId })).site ?? undefined);
  const offered = new Set(site.offered_scopes.map((s) => s.scope));
  const missing = grant.scopes.filter((s) => !offered.has(s));
  if (missing.length) throw new Error(`${site.origin} does not offer ${missing.join(', ')}`);
  const reply = await request<{ ok: true; site: ContractSiteView } | { ok: false; error: { code: string; message: string } }>(panel, {
    type: 'panel/contract-connect',
    origin: site.origin,
    ...grant,
    payment: false,
    expires_in_s: 3600,
  });
  if (!reply.ok) throw new Error(`connecting ${site.origin} failed: ${reply.error.code}: ${reply.error.message}`);
  if (reply.site.connection.status !== 'connected') throw new Error(`connecting ${site.origin} left it ${reply.site.connection.status}`);
  await until(`the tab to be observed through the contract, offering ${action}`, async () => {
    const { state } = await request<{ state: ObservedState | null }>(panel, { type: 'panel/observe-tab', tabId });
    return observedThroughContract(state, action) ? true : undefined;
  });
  return reply.site;
}

/** Revokes the grant at the site and forgets it (the next task case observes the site's pages again). */
export async function disconnectContract(panel: Page, origin: string): Promise<void> {
  const reply = await request<{ ok: boolean; error?: { code: string; message: string } }>(panel, { type: 'panel/contract-disconnect', origin });
  if (!reply.ok) throw new Error(`disconnecting ${origin} failed: ${reply.error?.code ?? ''}: ${reply.error?.message ?? ''}`);
}
