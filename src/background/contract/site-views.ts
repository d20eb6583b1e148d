import { iso } from '../../base/clock.ts';
import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import type { DiscoveredContract } from '../../contract/ports.ts';
import { describeAuthRefusal } from '../../contract/refusals.ts';
import type { StoredSiteGrant } from '../../storage/contract-vault.ts';

/**
 * What the side panel is shown about a site's contract and Steward's grant for it: the offer and
 * the grant's public facts. Never the token.
 */
export function siteView(contract: DiscoveredContract, record: StoredSiteGrant | undefined, now: number): ContractSiteView {
  const doc = contract.contract;
  return {
    origin: contract.origin,
    site_name: doc.site.name,
    contract_url: contract.contract_url,
    offered_scopes: doc.auth.scopes,
    resource_types: doc.resources.map((r) => r.type),
    has_payment_actions: doc.actions.some((a) => a.payment),
    max_token_ttl_s: doc.auth.max_token_ttl_s,
    connection: connectionOf(doc.site.name, record, now),
  };
}

function connectionOf(siteName: string, record: StoredSiteGrant | undefined, now: number): ContractSiteView['connection'] {
  if (!record) return { status: 'none' };
  if (record.ended) return { status: 'ended', reason: record.ended.reason, message: record.ended.message, at: iso(record.ended.at) };
  const expiresAt = Date.parse(record.grant.expires_at);
  if (expiresAt <= now) return { status: 'ended', reason: 'token_expired', message: describeAuthRefusal(siteName, 'token_expired').person, at: iso(expiresAt) };
  const { grant } = record;
  return {
    status: 'connected',
    token_id: grant.token_id,
    scopes: grant.scopes,
    resource_scope: grant.resource_scope,
    payment: grant.payment,
    expires_at: grant.expires_at,
    granted_by: grant.granted_by,
    key_thumbprint: grant.key_thumbprint,
  };
}
