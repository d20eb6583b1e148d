import { originOf } from '../../base/origin.ts';
import { contractUrlFor, fetchContract } from '../../contract/discovery.ts';
import type { DiscoveredContract, HttpPort } from '../../contract/ports.ts';

/**
 * Which contract each site offers, as Steward last found it: discovered from a page's
 * `<link rel="agent-contract">` (the snapshot's `contractHref`) or, when the page has none, from
 * the `Link` header of the page's URL fetched by the worker without cookies. Only for sites the
 * person allowed Steward on; answers, found or not, are kept a few minutes so a page observed
 * again and again costs no requests.
 */

/** How long a discovered contract (or "none here") is trusted before it is fetched again. */
const CONTRACT_TTL_MS = 5 * 60_000;

interface CacheEntry {
  at: number;
  /** The contract URL tried, or `probe` when the page named none and its Link header was read. */
  tried: string;
  found?: DiscoveredContract;
}

export interface ContractRegistryDeps {
  http: HttpPort;
  /** The person's list of sites Steward may read (src/background/sites/). */
  allowed(origin: string): Promise<boolean>;
  now?: () => number;
}

export class ContractRegistry {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<DiscoveredContract | undefined>>();
  private readonly now: () => number;

  constructor(private readonly deps: ContractRegistryDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The contract the page's site offers, if any: from the page's link when it names one, else
   * from the page's `Link` header. Nothing is fetched for a site the person has not allowed.
   */
  async forPage(pageUrl: string, linkHref?: string): Promise<DiscoveredContract | undefined> {
    const origin = originOf(pageUrl);
    if (origin === undefined || !(await this.deps.allowed(origin))) return undefined;
    const named = linkHref !== undefined ? contractUrlFor({ pageUrl, linkHref }) : undefined;
    // A link to another origin (or junk) names nothing: the header may still.
    const tried = named?.ok ? named.value : 'probe';
    const cached = this.fresh(origin);
    if (cached && (tried === 'probe' ? cached.found !== undefined || cached.tried === 'probe' : (cached.found?.contract_url ?? cached.tried) === tried)) return cached.found;
    const key = `${origin} ${tried}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.discover(pageUrl, origin, tried).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The site's contract as last discovered, while fresh. */
  cached(origin: string): DiscoveredContract | undefined {
    return this.fresh(origin)?.found;
  }

  /**
   * The contract at a URL Steward already knows (a grant's), fetched again once the cached copy
   * is stale. Undefined when the site is not allowed or the fetch failed.
   */
  async refresh(origin: string, contractUrl: string): Promise<DiscoveredContract | undefined> {
    const cached = this.fresh(origin);
    if (cached?.found && cached.found.contract_url === contractUrl) return cached.found;
    if (!(await this.deps.allowed(origin))) return undefined;
    const key = `${origin} ${contractUrl}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchAt(origin, contractUrl).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  forget(origin: string): void {
    this.cache.delete(origin);
  }

  private fresh(origin: string): CacheEntry | undefined {
    const entry = this.cache.get(origin);
    return entry && this.now() - entry.at < CONTRACT_TTL_MS ? entry : undefined;
  }

  private async discover(pageUrl: string, origin: string, tried: string): Promise<DiscoveredContract | undefined> {
    if (tried !== 'probe') return this.fetchAt(origin, tried);
    const linkHeader = await this.linkHeaderOf(pageUrl);
    const named = linkHeader === undefined ? undefined : contractUrlFor({ pageUrl, linkHeader });
    if (!named?.ok) {
      this.cache.set(origin, { at: this.now(), tried });
      return undefined;
    }
    const found = await this.fetchAt(origin, named.value);
    // A header naming a contract that cannot be had counts as "none here" for pages without a link.
    if (!found) this.cache.set(origin, { ...this.cache.get(origin)!, tried });
    return found;
  }

  private async fetchAt(origin: string, contractUrl: string): Promise<DiscoveredContract | undefined> {
    const r = await fetchContract(this.deps.http, contractUrl, origin, this.now);
    this.cache.set(origin, { at: this.now(), tried: contractUrl, ...(r.ok ? { found: r.value } : {}) });
    return r.ok ? r.value : undefined;
  }

  /** The page's `Link` header, from a GET without the person's cookies; undefined if there is none or no answer. */
  private async linkHeaderOf(pageUrl: string): Promise<string | undefined> {
    try {
      const response = await this.deps.http.request({ method: 'GET', url: pageUrl.split('#')[0]!, headers: { accept: 'text/html' } });
      return response.headers.link;
    } catch {
      return undefined;
    }
  }
}
