import { iso } from '../../base/clock.ts';
import type { DiscoveredContract } from '../../contract/ports.ts';
import { authRefusalPhrase, describeAuthRefusal } from '../../contract/refusals.ts';
import { AuthRefusalReason, type ContractSiteView } from '../../protocol/agent-contract.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
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

/**
 * Why a stored grant ended, as a phrase: the ending's reason says it all (site-grants.ts wrote the
 * English from the same reason). A reason Steward does not know keeps the English alone.
 */
function endedPhrase(siteName: string, reason: string): Phrase | undefined {
  if (reason === 'token_invalid') return phrase('contract_access_refused', { site: siteName });
  const known = AuthRefusalReason.safeParse(reason);
  return known.success ? authRefusalPhrase(siteName, known.data) : undefined;
}

function connectionOf(siteName: string, record: StoredSiteGrant | undefined, now: number): ContractSiteView['connection'] {
  if (!record) return { status: 'none' };
  if (record.ended) {
    const said = endedPhrase(siteName, record.ended.reason);
    return { status: 'ended', reason: record.ended.reason, message: record.ended.message, ...(said ? { message_said: said } : {}), at: iso(record.ended.at) };
  }
  const expiresAt = Date.parse(record.grant.expires_at);
  if (expiresAt <= now) {
    const expired = describeAuthRefusal(siteName, 'token_expired');
    return { status: 'ended', reason: 'token_expired', message: expired.person, message_said: expired.person_said, at: iso(expiresAt) };
  }
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
