import { NAMESPACED_ACTION } from '../protocol/action-name.ts';
import type { AgentContract, ContractAction, TokenGrant } from '../protocol/agent-contract.ts';
import { resourceScopeCovers, type ResourceRef } from '../protocol/resource.ts';

/** The site scope an action needs: `orders.cancel` → `orders:cancel` (an un-namespaced name: the resource's namespace). */
function scopeForAction(contract: AgentContract, action: ContractAction): string {
  if (NAMESPACED_ACTION.test(action.name)) return action.name.replace('.', ':');
  const namespace = contract.resources.find((r) => r.type === action.resource_type)?.scope_namespace ?? action.resource_type;
  return `${namespace}:${action.name}`;
}

function scopeGranted(granted: readonly string[], needed: string): boolean {
  const namespace = needed.slice(0, needed.indexOf(':'));
  return granted.includes(needed) || granted.includes(`${namespace}:*`);
}

/** Whether the site's grant covers running `action` on `resource` (scope, resource scope, payment). */
export function grantCovers(contract: AgentContract, grant: TokenGrant, action: ContractAction, resource: ResourceRef): boolean {
  return scopeGranted(grant.scopes, scopeForAction(contract, action)) && grant.resource_scope.some((s) => resourceScopeCovers(s, resource)) && (!action.payment || grant.payment);
}
