import { originOf } from '../../base/origin.ts';
import type { ContractConnectRequest, ContractSiteView } from '../../protocol/agent-contract.ts';
import type { ContractClient } from '../../contract/contract-client.ts';
import { describeRefusal } from '../../contract/refusals.ts';
import type { SiteCallError } from '../../contract/site-call.ts';
import type { ContractControl } from '../panel/contracts.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import type { ContractRegistry } from './contract-registry.ts';
import { siteGrantOf, storedContract, type SiteGrants } from './site-grants.ts';
import { siteView } from './site-views.ts';

/**
 * The side panel's door to the contract path (ContractControl): what the tab's site offers and
 * what Steward holds for it; connect (the site grants a token, bound to Steward's agent key, with
 * the person's session and consent); disconnect (revoked at the site as far as it answers, then
 * forgotten). Replies carry views and plain errors, never a token.
 */

/** The name a site shows the person for the agent it granted. */
const AGENT_NAME = 'Steward';

/** A tab's page as the worker knows it: its URL and the contract link its last snapshot showed. */
export interface TabPage {
  url: string;
  contractHref?: string;
}

export interface ContractControlDeps {
  registry: ContractRegistry;
  grants: SiteGrants;
  /** The client that signs with `origin`'s own agent key. */
  client(origin: string): Promise<ContractClient>;
  tabPage(tabId: number): Promise<TabPage | undefined>;
  allowed(origin: string): Promise<boolean>;
  now?: () => number;
}

/** A refusal for the panel: `said` is `message` as a phrase, so the panel says it in the person's language. */
type PanelError = { code: string; message: string; said?: Phrase };

function callError(siteName: string, error: SiteCallError): PanelError {
  if (error.code === 'refused') {
    const meaning = describeRefusal(siteName, error.site_error);
    return { code: meaning.reason ?? error.site_error.error.code, message: meaning.person, said: meaning.person_said };
  }
  const message = `${siteName}: ${error.message}`.slice(0, 2048);
  if (error.code === 'unreachable' && error.origin !== undefined && error.cause !== undefined)
    return { code: error.code, message, said: phrase('contract_unreachable', { site: siteName, origin: error.origin, error: error.cause }) };
  // Steward's own account of an answer that does not fit the contract, or of a request it did not
  // send, is technical: the person reads what it means, the account stays the English behind it.
  if (error.code === 'bad_response') return { code: error.code, message, said: phrase('contract_bad_answer', { site: siteName, status: error.status }) };
  if (error.code === 'not_sent') return { code: error.code, message, said: phrase('contract_not_sent', { site: siteName }) };
  return { code: error.code, message };
}

export function contractControl(deps: ContractControlDeps): ContractControl {
  const now = deps.now ?? Date.now;

  /** The contract for a site: fresh from discovery, else the one a grant was made under. */
  async function contractOf(origin: string) {
    const record = await deps.grants.record(origin);
    const fresh = deps.registry.cached(origin) ?? (record ? await deps.registry.refresh(origin, record.contract_url) : undefined);
    return { contract: fresh ?? (record ? storedContract(record) : undefined), record };
  }

  return {
    async siteForTab(tabId: number): Promise<ContractSiteView | null> {
      const page = await deps.tabPage(tabId);
      const origin = page ? originOf(page.url) : undefined;
      if (!page || origin === undefined || !(await deps.allowed(origin))) return null;
      const discovered = await deps.registry.forPage(page.url, page.contractHref);
      const record = await deps.grants.record(origin);
      const contract = discovered ?? (record ? storedContract(record) : undefined);
      return contract ? siteView(contract, record, now()) : null;
    },

    async sites(): Promise<ContractSiteView[]> {
      const records = await deps.grants.all();
      return records.map((record) => siteView(deps.registry.cached(record.origin) ?? storedContract(record), record, now()));
    },

    async connect(request: ContractConnectRequest) {
      const origin = originOf(request.origin);
      if (origin === undefined || origin !== request.origin.replace(/\/$/, ''))
        return { ok: false as const, error: { code: 'INVALID_INPUT', message: 'The site must be given as its origin, e.g. https://shop.example.', said: phrase('contract_bad_origin') } };
      if (!(await deps.allowed(origin)))
        return {
          ok: false as const,
          error: { code: 'SITE_NOT_ALLOWED', message: `Steward is not allowed on ${origin}. Allow the site first.`, said: phrase('contract_site_not_allowed', { origin }) },
        };
      const { contract, record: previous } = await contractOf(origin);
      if (!contract)
        return {
          ok: false as const,
          error: { code: 'NO_CONTRACT', message: `Steward has not found an agent contract on ${origin}. Open one of its pages and try again.`, said: phrase('contract_not_found', { origin }) },
        };
      const client = await deps.client(origin);
      const granted = await client.requestGrant(contract, {
        scopes: request.scopes,
        resource_scope: request.resource_scope,
        payment: request.payment,
        expires_in_s: request.expires_in_s,
        agent_name: AGENT_NAME,
      });
      if (!granted.ok) return { ok: false as const, error: callError(contract.contract.site.name, granted.error) };
      const record = await deps.grants.keep(contract, granted.value);
      // The grant it replaces is of no further use: tell the site, as far as it listens.
      if (previous && previous.grant.token_id !== record.grant.token_id && !previous.ended) {
        await client.revoke(contract, siteGrantOf(previous)).catch(() => undefined);
      }
      return { ok: true as const, site: siteView(contract, record, now()) };
    },

    async disconnect(origin: string) {
      const record = await deps.grants.record(origin);
      if (record) {
        const { contract } = await contractOf(origin);
        // Best effort: the site may be down; Steward forgets the token either way, and no one else holds it.
        if (contract && !record.ended) await (await deps.client(origin)).revoke(contract, siteGrantOf(record)).catch(() => undefined);
        await deps.grants.forget(origin);
      }
      return { ok: true as const };
    },
  };
}
