import { iso } from '../base/clock.ts';
import type { AvailableAction } from '../protocol/action.ts';
import type { AgentContract, ContractAction, SiteResourceState } from '../protocol/agent-contract.ts';
import { ObservedState, type Fact } from '../protocol/observed-state.ts';
import { ResourceId, type ResourceRef } from '../protocol/resource.ts';
import { grantCovers } from './grant-scope.ts';
import type { DiscoveredContract, SiteGrant } from './ports.ts';

/**
 * The site's own state as Steward's observation: the resource a page shows, the actions the
 * contract offers now (within what the site granted), those it offers only in other states, and
 * the ObservedState built from the contract alone or merged into a tab's observation.
 */

/** Raised when the page's own reading of the state is not the site's. */
const PAGE_STATE_DIFFERS = 'page_state_differs_from_contract';
/** Raised when the page seems to show another resource than the one the contract read. */
const PAGE_RESOURCE_DIFFERS = 'page_resource_differs_from_contract';

/** `/orders/{id}` → a pattern whose one group is the id; any other `{…}` never matches. */
function templatePattern(template: string): RegExp | undefined {
  if ((template.match(/\{id\}/g) ?? []).length !== 1) return undefined;
  const escaped = template.split('{id}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('([^/]+)')}/?$`);
}

/** The resource a page of the contract's site shows, from the resources' `page_path_template`. */
export function resourceForPage(contract: DiscoveredContract, pageUrl: string): ResourceRef | undefined {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== contract.origin) return undefined;
  for (const resource of contract.contract.resources) {
    const pattern = resource.page_path_template ? templatePattern(resource.page_path_template) : undefined;
    const match = pattern?.exec(url.pathname);
    if (!match) continue;
    let id: string;
    try {
      id = decodeURIComponent(match[1]!);
    } catch {
      continue;
    }
    if (ResourceId.safeParse(id).success) return { type: resource.type, id };
  }
  return undefined;
}

/** The contract's actions for this resource type that the grant covers. */
function grantedActions(contract: AgentContract, site: SiteResourceState, grant: SiteGrant): ContractAction[] {
  return contract.actions.filter((a) => a.resource_type === site.resource.type && grantCovers(contract, grant.grant, a, site.resource));
}

function describe(action: ContractAction): AvailableAction {
  return {
    action: action.name,
    via: 'site_contract',
    title: action.title,
    ...(action.description !== undefined ? { description: action.description } : {}),
    read_only: action.read_only,
    ...(action.read_only ? {} : { changes: action.changes }),
    consequential: action.consequential,
    payment: action.payment,
    untrusted_content: false,
    requires_approval: action.requires_approval,
    input_schema: action.input_schema,
  };
}

const listedNames = (site: SiteResourceState) => new Set(site.available_actions.map((item) => (typeof item === 'string' ? item : item.action)));

/**
 * What may be done now, via the contract: actions the contract allows in the current state, that
 * the site lists as available right now, and that the grant covers.
 */
function contractActions(contract: DiscoveredContract, site: SiteResourceState, grant: SiteGrant): AvailableAction[] {
  const listed = listedNames(site);
  return grantedActions(contract.contract, site, grant)
    .filter((a) => a.allowed_in_states.includes(site.state) && listed.has(a.name))
    .map(describe);
}

/** The contract's actions for this resource (within the grant) that its current state does not allow: asking is PRECONDITION_FAILED. */
function unavailableActions(contract: DiscoveredContract, site: SiteResourceState, grant: SiteGrant): NonNullable<ObservedState['unavailable_actions']> {
  return grantedActions(contract.contract, site, grant)
    .filter((a) => !a.allowed_in_states.includes(site.state))
    .map((a) => ({ action: a.name, allowed_in_states: a.allowed_in_states }));
}

function contractFacts(site: SiteResourceState): Fact[] {
  return Object.entries(site.facts).map(([name, value]) => ({ name, value, sources: ['site_contract'], confidence: 1 }));
}

/** The ObservedState from the contract alone (no tab shows the resource). `url`: where it was read. */
export function observeFromContract(contract: DiscoveredContract, site: SiteResourceState, grant: SiteGrant, url: string, now: number): ObservedState {
  const actions = contractActions(contract, site, grant);
  return ObservedState.parse({
    resource: site.resource,
    resource_identity: { certainty: 'identified', basis: `${contract.contract.site.name}'s agent contract`.slice(0, 300) },
    state: site.state,
    available_actions: actions.map((a) => a.action),
    actions,
    unavailable_actions: unavailableActions(contract, site, grant),
    source: 'site_contract',
    evidence: ['site_contract'],
    confidence: 1,
    conflicts: [],
    state_version: site.state_version,
    observed_at: iso(now),
    url,
    ...(site.title !== undefined ? { title: site.title } : {}),
    facts: contractFacts(site),
  });
}

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

/**
 * The tab's observation with the site's word on top: the contract's resource, state, integer
 * version, authority and actions (listed first), the page's own detail kept. An adapter's action
 * the contract also defines is dropped (the contract's is the real one); a page reading another
 * state than the site's is named as a conflict.
 */
export function mergeWithTab(tab: ObservedState, contractState: ObservedState): ObservedState {
  const definedByContract = new Set([...(contractState.actions ?? []).map((a) => a.action), ...(contractState.unavailable_actions ?? []).map((a) => a.action)]);
  const pageActions = (tab.actions ?? []).filter((a) => !(a.via === 'adapter' && definedByContract.has(a.action)));
  const keptPageNames = new Set(pageActions.map((a) => a.action));
  // A name only the dropped adapter actions carried goes with them.
  const pageNames = tab.available_actions.filter((name) => !definedByContract.has(name) || keptPageNames.has(name));
  const conflicts = [...tab.conflicts];
  if (tab.state !== contractState.state) conflicts.push(PAGE_STATE_DIFFERS);
  if (tab.resource.type !== contractState.resource.type || tab.resource.id !== contractState.resource.id) conflicts.push(PAGE_RESOURCE_DIFFERS);

  return ObservedState.parse({
    ...tab,
    resource: contractState.resource,
    resource_identity: contractState.resource_identity,
    state: contractState.state,
    state_version: contractState.state_version,
    source: 'site_contract',
    confidence: 1,
    evidence: unique(['site_contract', ...contractState.evidence, ...tab.evidence]),
    conflicts: unique(conflicts),
    facts: [...(contractState.facts ?? []), ...(tab.facts ?? [])],
    actions: [...(contractState.actions ?? []), ...pageActions],
    available_actions: unique([...contractState.available_actions, ...pageNames]),
    unavailable_actions: contractState.unavailable_actions ?? [],
    ...(tab.title === undefined && contractState.title !== undefined ? { title: contractState.title } : {}),
  });
}
