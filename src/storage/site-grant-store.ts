import type { StewardDb } from './db.ts';
import { StoredSiteGrant } from './contract-records.ts';
import { readValid } from './read.ts';

/**
 * The grants sites issued to Steward, one per origin. The token inside is a bearer secret for that
 * site: it stays here and in the worker's memory, and only the site's own requests carry it.
 */
export class SiteGrantStore {
  constructor(private readonly db: StewardDb) {}

  async get(origin: string): Promise<StoredSiteGrant | undefined> {
    const raw = await this.db.get('site_grants', origin);
    return raw === undefined ? undefined : readValid(StoredSiteGrant, raw, 'site_grants', origin);
  }

  /** Every grant, ended ones too (the panel lists them); a corrupt record is left out, not trusted. */
  async all(): Promise<StoredSiteGrant[]> {
    const raw = await this.db.getAll('site_grants');
    return raw.flatMap((r) => {
      const parsed = StoredSiteGrant.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** A new grant replaces the origin's old one (connecting again after it ended). */
  async put(record: StoredSiteGrant): Promise<void> {
    await this.db.put('site_grants', StoredSiteGrant.parse(record));
  }

  /**
   * Marks the grant ended (the site refused its token), only if it is still the grant with
   * `token_id`: a refusal of an old token never ends a newer one. Returns whether it changed.
   */
  async markEnded(origin: string, tokenId: string, ended: NonNullable<StoredSiteGrant['ended']>): Promise<boolean> {
    const tx = this.db.transaction('site_grants', 'readwrite');
    const raw = await tx.store.get(origin);
    if (raw === undefined) {
      await tx.done;
      return false;
    }
    const current = readValid(StoredSiteGrant, raw, 'site_grants', origin);
    if (current.grant.token_id !== tokenId || current.ended) {
      await tx.done;
      return false;
    }
    await tx.store.put(StoredSiteGrant.parse({ ...current, ended }));
    await tx.done;
    return true;
  }

  async delete(origin: string): Promise<void> {
    await this.db.delete('site_grants', origin);
  }
}
