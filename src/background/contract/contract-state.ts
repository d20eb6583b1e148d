import { originOf } from '../../base/origin.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { resourceScopeCovers, type ResourceRef } from '../../protocol/resource.ts';
import type { Route } from '../../pipeline/ports.ts';
import type { ContractClient } from '../../contract/contract-client.ts';
import { mergeWithTab, observeFromContract, resourceForPage } from '../../contract/contract-observation.ts';
import { endpointUrl } from '../../contract/site-call.ts';
import type { SiteReading } from '../ports/tab-observer.ts';
import type { LiveGrant, SiteGrants } from './site-grants.ts';

/**
 * Reading a resource's state from its site's contract, for the pipeline and the tab observer:
 * the observe port's `{kind: 'contract'}` locations, the routes port's contract endpoints, and a
 * tab's observation with the site's own state merged in. All of it only where Steward holds a
 * live grant from the site, for a site the person allows; everywhere else nothing changes.
 */

/** The tab's page read from the site failed: the page's own observation stands, with this conflict. */
const CONTRACT_STATE_UNAVAILABLE = 'contract_state_unavailable';

export interface ContractStateDeps {
  grants: SiteGrants;
  /** The client that signs with `origin`'s own agent key. */
  client(origin: string): Promise<ContractClient>;
  allowed(origin: string): Promise<boolean>;
  now?: () => number;
}

/** Steward held a grant from the tab's site and the site ended it: the person connects again (panel). */
const CONTRACT_ACCESS_ENDED = 'contract_access_ended';

const accessEnded = (state: ObservedState): ObservedState => (state.conflicts.includes(CONTRACT_ACCESS_ENDED) ? state : { ...state, conflicts: [...state.conflicts, CONTRACT_ACCESS_ENDED] });

const unavailable = (state: ObservedState): ObservedState => (state.conflicts.includes(CONTRACT_STATE_UNAVAILABLE) ? state : { ...state, conflicts: [...state.conflicts, CONTRACT_STATE_UNAVAILABLE] });

const stateUrl = (live: LiveGrant, resource: ResourceRef) => endpointUrl(live.contract, live.contract.contract.endpoints.resource_state, { type: resource.type, id: resource.id });

/** Whether the grant lets Steward read this resource at all (its type in the contract, within the resource scope). */
function readable(live: LiveGrant, resource: ResourceRef): boolean {
  return live.contract.contract.resources.some((r) => r.type === resource.type) && live.grant.grant.resource_scope.some((s) => resourceScopeCovers(s, resource));
}

export function contractState(deps: ContractStateDeps) {
  const now = deps.now ?? Date.now;

  async function liveFor(origin: string | undefined): Promise<LiveGrant | undefined> {
    if (origin === undefined || !(await deps.allowed(origin))) return undefined;
    return deps.grants.live(origin);
  }

  /** The resource's state from the site, or why not (a refusal that ends the grant ends it). */
  async function read(live: LiveGrant, resource: ResourceRef) {
    const r = await (await deps.client(live.contract.origin)).readState(live.contract, live.grant, resource);
    if (!r.ok && r.error.code === 'refused') await deps.grants.endIfRefused(live, r.error.site_error);
    return r;
  }

  return {
    /** The observe port for `{kind: 'contract', url}`: the url must be the resource's state endpoint on a granted site. */
    async observe(url: string, resource: ResourceRef): Promise<ObservedState | null> {
      const origin = originOf(url);
      // A resource is (origin, type, id): another site's endpoint never stands for it.
      if (resource.origin !== undefined && origin !== resource.origin) return null;
      const live = await liveFor(origin);
      if (!live || !readable(live, resource) || stateUrl(live, resource) !== url) return null;
      const r = await read(live, resource);
      return r.ok ? observeFromContract(live.contract, r.value, live.grant, url, now()) : null;
    },

    /**
     * The routes port: the state endpoint of every granted site whose contract defines the
     * resource's type — only the resource's own site when it names one. Several sites may answer
     * for a resource that names none: the navigator then asks which (navigator.ts).
     */
    async routes(resource: ResourceRef): Promise<Route[]> {
      const routes: Route[] = [];
      for (const record of await deps.grants.all()) {
        if (!deps.grants.usable(record)) continue;
        if (resource.origin !== undefined && record.origin !== resource.origin) continue;
        const live = await liveFor(record.origin);
        const url = live && readable(live, resource) ? stateUrl(live, resource) : undefined;
        if (url) routes.push({ kind: 'site_contract', url });
      }
      return routes;
    },

    /**
     * The site's state for the resource a tab's page shows, when Steward holds a live grant from
     * the page's site: by the contract's page template, or the resource the page was fused as
     * when the contract defines its type. Undefined (the observation unchanged, no request made)
     * without a grant or a contract resource on the page.
     */
    async forTab(pageUrl: string, fused: ObservedState): Promise<SiteReading | undefined> {
      const origin = originOf(pageUrl);
      if (origin === undefined) return undefined;
      // A grant the site ended (revoked, expired): the page is read as a page again, and says so.
      const record = await deps.grants.record(origin);
      if (!record) return undefined;
      if (!deps.grants.usable(record)) return { merge: accessEnded };
      const live = await liveFor(origin);
      if (!live) return undefined;
      const named = fused.resource_identity?.certainty !== 'unknown' ? fused.resource : undefined;
      const resource = resourceForPage(live.contract, pageUrl) ?? (named && readable(live, named) ? named : undefined);
      if (!resource || !readable(live, resource)) return undefined;
      const r = await read(live, resource).catch(() => undefined);
      if (!r?.ok) {
        // This very read may be how Steward learns the site ended the grant (a refusal that ends it).
        const after = await deps.grants.record(origin);
        return { merge: after && !deps.grants.usable(after) ? accessEnded : unavailable };
      }
      const site = observeFromContract(live.contract, r.value, live.grant, pageUrl, now());
      return {
        merge: (state) => {
          try {
            return mergeWithTab(state, site);
          } catch (error) {
            console.warn('merging the site state failed', error);
            return unavailable(state);
          }
        },
      };
    },
  };
}
