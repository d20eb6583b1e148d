import type { SiteErrorBody } from '../../protocol/agent-contract.ts';
import type { DiscoveredContract, SiteGrant } from '../../contract/ports.ts';
import { describeRefusal } from '../../contract/refusals.ts';
import type { ContractVault, StoredSiteGrant } from '../../storage/contract-vault.ts';
import type { ContractRegistry } from './contract-registry.ts';

/**
 * The grants sites issued to Steward, with the contract each was granted under. A grant is live
 * while the site has not refused it and it has not expired; the token never leaves this worker
 * (no panel view, no agent, no content script ever gets it).
 */

/** A grant Steward may use now, with its site's contract (refreshed when the cached copy is stale). */
export interface LiveGrant {
  grant: SiteGrant;
  contract: DiscoveredContract;
}

export interface SiteGrantsDeps {
  vault: () => Promise<ContractVault['grants']>;
  registry: ContractRegistry;
  /** A grant was stored, ended or forgotten (the panel's contract views change). */
  changed(): void;
  now?: () => number;
}

export const storedContract = (record: StoredSiteGrant): DiscoveredContract => ({
  origin: record.origin,
  contract_url: record.contract_url,
  contract: record.contract,
  fetched_at: record.granted_at,
});

export const siteGrantOf = ({ contract: _contract, ...grant }: StoredSiteGrant): SiteGrant => grant;

export class SiteGrants {
  private readonly now: () => number;

  constructor(private readonly deps: SiteGrantsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The origin's grant record, ended or not; a record that no longer reads as one counts as none. */
  async record(origin: string): Promise<StoredSiteGrant | undefined> {
    try {
      return await (await this.deps.vault()).get(origin);
    } catch (error) {
      console.warn('unreadable site grant for', origin, error);
      return undefined;
    }
  }

  async all(): Promise<StoredSiteGrant[]> {
    return (await this.deps.vault()).all();
  }

  /** Whether Steward holds a grant it may use for `origin` (not ended, not expired); no network. */
  async has(origin: string): Promise<StoredSiteGrant | undefined> {
    const record = await this.record(origin);
    return record && this.usable(record) ? record : undefined;
  }

  /** Whether a record already read may be used: not ended by the site, not expired. */
  usable(record: StoredSiteGrant): boolean {
    return !record.ended && Date.parse(record.grant.expires_at) > this.now();
  }

  /** The live grant for `origin` with its contract, fetched again when stale (the stored copy if the site does not answer). */
  async live(origin: string): Promise<LiveGrant | undefined> {
    const record = await this.has(origin);
    if (!record) return undefined;
    const fresh = await this.deps.registry.refresh(origin, record.contract_url);
    if (fresh && JSON.stringify(fresh.contract) !== JSON.stringify(record.contract)) {
      // The site changed its contract: later reads and the panel use the new one.
      await (await this.deps.vault()).put({ ...record, contract: fresh.contract }).catch((error) => console.warn('contract not updated', error));
    }
    return { grant: siteGrantOf(record), contract: fresh ?? storedContract(record) };
  }

  async keep(contract: DiscoveredContract, grant: SiteGrant): Promise<StoredSiteGrant> {
    const record: StoredSiteGrant = { ...grant, contract: contract.contract };
    await (await this.deps.vault()).put(record);
    this.deps.changed();
    return record;
  }

  async forget(origin: string): Promise<void> {
    await (await this.deps.vault()).delete(origin);
    this.deps.changed();
  }

  /**
   * The site refused the grant's token: when the refusal means the token can never work again
   * (revoked, expired, bound to another key), the grant is marked ended with the words the
   * person sees, and the panel is told. Returns whether it ended.
   */
  async endIfRefused(live: LiveGrant, refusal: SiteErrorBody): Promise<boolean> {
    const meaning = describeRefusal(live.contract.contract.site.name, refusal);
    if (!meaning.ends_grant) return false;
    const ended = { at: this.now(), reason: (meaning.reason ?? refusal.error.code.toLowerCase()).slice(0, 64), message: meaning.person.slice(0, 1024) };
    const changed = await (await this.deps.vault()).markEnded(live.grant.origin, live.grant.grant.token_id, ended);
    if (changed) this.deps.changed();
    return changed;
  }
}
