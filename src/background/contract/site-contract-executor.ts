import { originOf } from '../../base/origin.ts';
import type { ExecutionCall, ExecutionReport, Executor, StatusCall } from '../../pipeline/ports.ts';
import type { ContractClient } from '../../contract/contract-client.ts';
import type { AcceptedPoller } from './accepted-poller.ts';
import type { LiveGrant, SiteGrants } from './site-grants.ts';

/**
 * The pipeline's site_contract path: runs an action through the site's Agent Action API with the
 * grant Steward holds for the site (signed, the token attached), and asks the site about one it
 * accepted. A refusal that ends the grant marks it ended (the panel asks the person to connect
 * again); an accepted action is followed until it settles.
 */

export interface SiteContractExecutorDeps {
  grants: SiteGrants;
  /** The client that signs with `origin`'s own agent key. */
  client(origin: string): Promise<ContractClient>;
  allowed(origin: string): Promise<boolean>;
  poller: AcceptedPoller;
}

const notSent = (message: string): ExecutionReport => ({ outcome: 'failed', message: message.slice(0, 4096), side_effect_possible: false });

/** The site an action is meant for: the contract endpoint it was read from, or the page the tab showed. */
function siteOf(call: ExecutionCall): string | undefined {
  return originOf(call.location.kind === 'contract' ? call.location.url : (call.observed?.url ?? ''));
}

export function siteContractExecutor(deps: SiteContractExecutorDeps): Executor {
  /** The grant for `origin`, when the person still allows the site and the agent's token covers it. */
  async function usable(origin: string | undefined, allowedOrigins?: readonly string[]): Promise<LiveGrant | string> {
    if (origin === undefined) return 'Steward cannot tell which site this action is for.';
    if (allowedOrigins && !allowedOrigins.includes(origin)) return `The agent's token does not cover ${origin}.`;
    if (!(await deps.allowed(origin))) return `Steward is not allowed on ${origin} any more.`;
    const live = await deps.grants.live(origin);
    return live ?? `Steward holds no live grant from ${origin}: the person connects the site in Steward's side panel.`;
  }

  async function afterRefusal(live: LiveGrant, report: ExecutionReport): Promise<ExecutionReport> {
    if (report.outcome === 'failed' && report.site_error) await deps.grants.endIfRefused(live, report.site_error);
    return report;
  }

  return {
    async execute(call: ExecutionCall): Promise<ExecutionReport> {
      const site = siteOf(call);
      // A resource is (origin, type, id): an action is sent only to the site of the resource it was asked for.
      if (call.resource.origin !== site)
        return notSent(`${call.resource.type} ${call.resource.id} is on ${call.resource.origin ?? 'no known site'}, not on ${site ?? 'a known site'}: nothing was sent.`);
      const live = await usable(site, call.allowed_origins);
      if (typeof live === 'string') return notSent(live);
      const report = await (await deps.client(live.contract.origin)).execute(live.contract, live.grant, call);
      if (report.outcome === 'accepted') deps.poller.watch(call.action_id);
      return afterRefusal(live, report);
    },

    async status(call: StatusCall): Promise<ExecutionReport> {
      const site = originOf(call.status_url);
      const live = call.resource.origin === undefined || call.resource.origin === site ? await usable(site) : 'the status URL is on another site than the resource';
      // Nothing can be asked, so nothing is settled: the action stays pending (the site may still finish it).
      if (typeof live === 'string') return { outcome: 'accepted', status_url: call.status_url };
      return afterRefusal(live, await (await deps.client(live.contract.origin)).status(live.contract, live.grant, call.status_url, call.resource));
    },
  };
}
