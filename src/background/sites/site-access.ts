import { SETTINGS_KEY, readSettings } from '../../protocol/settings.ts';
import { SITES_KEY, originPattern, readSiteAccess, type TabSiteStatus } from '../../protocol/site-access.ts';
import { z } from 'zod';
import { originOf } from '../../base/origin.ts';
import { browser } from '../core/browser.ts';
import { nativeBelief, planContentScripts, samePlan, type ContentScriptFiles } from './content-script-plan.ts';
import type { HostGrants } from './host-grants.ts';
import { lostSites, siteStanding } from './site-grants.ts';
import { combineSites, siteVerdict } from '../../protocol/policy-rules.ts';
import type { ManagedPolicy } from '../core/managed-policy.ts';

/** Whether this browser has native WebMCP, learned from a page's report, per browser version. */
const WEBMCP_KEY = 'steward.webmcp';
const WebMcpSeen = z.object({ native: z.boolean(), browser: z.string().max(300) });

export type SiteRefusal = { code: 'SITE_NOT_ALLOWED'; message: string; retryable: false };

const httpOrigin = (url: string | undefined): string | undefined => (url ? originOf(url) : undefined);

/** How the person's list stands against Chrome's grants, for the side panel. */
export interface SitesOverview {
  allowed: string[];
  waiting: string[];
  /** On the person's list, but the organisation's policy blocks them or does not list them: never read. */
  refused_by_policy: string[];
  /** Chrome still gives Steward every http(s) site, carried over from a version that asked for <all_urls>. */
  broad: boolean;
}

export interface SiteAccessDeps {
  files: ContentScriptFiles;
  grants: HostGrants;
  /** Sites no longer read (removed, or Chrome's access taken back): their open pages' reports are forgotten. */
  onSitesLost?: (origins: string[]) => void;
  /** The list or Chrome's grants changed: open side panels reload their site views. */
  onChanged?: () => void;
  /** Page scripts are registered only once content scripts are kept out of chrome.storage (storage-access.ts). */
  storageRestricted?: Promise<void>;
  /** The organisation's policy: its blocked sites (or the sites outside its allow list) are never read, whatever the person's list says. */
  policy?: Pick<ManagedPolicy, 'current' | 'ready' | 'onChange'>;
}

/**
 * The sites Steward may observe, applied to Chrome: a site is read when it is on the person's
 * list (chrome.storage, `steward.sites`) and Chrome grants Steward host access to it (asked for
 * by the side panel when the person allows the site; the person can take it back in
 * chrome://extensions). Content scripts are registered (chrome.scripting) for those origins only,
 * with the main-world script that matches the polyfill setting; every message to a tab passes
 * `gate` first, so a page whose site was removed is not read even while the scripts it already has
 * keep running until its next load. Reconciled at every worker start (an update included) and on
 * every change of the list or of Chrome's grants.
 */
export class SiteAccess {
  private listed: string[] = [];
  private allowed = new Set<string>();
  private waiting: string[] = [];
  private refused: string[] = [];
  private broad = false;
  private polyfill = true;
  /** A page reported native WebMCP in this browser version: the polyfill would never be used. */
  private native = false;
  private queue: Promise<void> = Promise.resolve();
  readonly ready: Promise<void>;

  constructor(private readonly deps: SiteAccessDeps) {
    this.ready = this.reload();
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && (changes[SITES_KEY] || changes[SETTINGS_KEY] || changes[WEBMCP_KEY])) void this.reload();
    });
    deps.grants.onChange(() => void this.reload());
    deps.policy?.onChange(() => void this.reload());
  }

  list(): string[] {
    return [...this.allowed].sort();
  }

  isAllowed(origin: string): boolean {
    return this.allowed.has(origin);
  }

  overview(): SitesOverview {
    return { allowed: this.list(), waiting: [...this.waiting], refused_by_policy: [...this.refused], broad: this.broad };
  }

  /**
   * Adds the site, registers the scripts, and starts observing its pages that are already open.
   * Chrome must already grant the site: the side panel asks Chrome in the person's click, then
   * calls this; a site Chrome refused is not added.
   */
  async allow(origin: string): Promise<{ allowed: string[]; tabs: number }> {
    await this.ready;
    const verdict = this.policyVerdict(origin);
    if (!verdict.ok) throw new Error(verdict.message);
    if (!(await this.deps.grants.granted([origin])).has(origin)) {
      throw new Error(`Chrome has not given Steward access to ${origin}. Allow the site from Steward's side panel: Chrome then asks you.`);
    }
    await this.store([...this.listed, origin]);
    let started = 0;
    for (const tab of await this.openTabs(origin)) {
      // Pages loaded before the site was allowed get the isolated world now (observation, native
      // WebMCP, actions); network evidence and the polyfill start with their next load.
      const ok = await browser.scripting.executeScript({ target: { tabId: tab, frameIds: [0] }, files: [this.deps.files.isolated] }).then(
        () => true,
        () => false,
      );
      if (ok) started++;
    }
    return { allowed: this.list(), tabs: started };
  }

  /** Takes the site off the list (its scripts go at once) and gives its access back to Chrome. */
  async remove(origin: string): Promise<{ allowed: string[]; tabs: number }> {
    await this.ready;
    // Counted while Steward can still see the site's tabs.
    const tabs = await this.openTabs(origin);
    await this.store(this.listed.filter((o) => o !== origin));
    // A broad grant carried over from an earlier version is not the site's own: it stays (Settings offers to narrow it).
    await this.deps.grants.release(origin).catch((e) => console.warn(`Steward could not give back its access to ${origin}`, e));
    return { allowed: this.list(), tabs: tabs.length };
  }

  /**
   * A page's WebMCP report. Once a top frame says "native", pages get the network-only main-world
   * script (about 5 KB instead of the polyfill's 300 KB parsed on every load); a top frame that
   * then finds no WebMCP at all brings the polyfill back (see `nativeBelief`). Kept per browser
   * version: an update or a different browser is asked again.
   */
  async noteWebMcpApi(api: 'native' | 'polyfill' | 'none', topFrame: boolean): Promise<void> {
    await this.ready;
    const native = nativeBelief(this.native, { api, topFrame });
    if (native === this.native) return;
    await browser.storage.local.set({ [WEBMCP_KEY]: { native, browser: navigator.userAgent.slice(0, 300) } });
    await this.reload();
  }

  /** Undefined when Steward may talk to the page in this tab; otherwise why not. */
  async gate(tabId: number): Promise<SiteRefusal | undefined> {
    await this.ready;
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    // No such tab: nothing to protect; the message itself fails with Chrome's own error.
    if (!tab) return undefined;
    const origin = httpOrigin(tab.url);
    if (origin === undefined) {
      return { code: 'SITE_NOT_ALLOWED', message: `Steward cannot read the page in tab ${tabId}: it is not a web page, or Chrome's site access keeps Steward out of it.`, retryable: false };
    }
    const verdict = this.policyVerdict(origin);
    if (!verdict.ok) return { code: 'SITE_NOT_ALLOWED', message: verdict.message, retryable: false };
    if (this.waiting.includes(origin)) {
      return { code: 'SITE_NOT_ALLOWED', message: `Chrome no longer gives Steward access to ${origin}. Allow the site again in Steward's side panel.`, retryable: false };
    }
    if (!this.allowed.has(origin)) {
      return { code: 'SITE_NOT_ALLOWED', message: `Steward is not allowed on ${origin}. Allow the site in Steward's side panel (This tab, or Settings).`, retryable: false };
    }
    return undefined;
  }

  /** How a tab stands; `observing` is decided by the caller (its content script reported). */
  async tabStatus(tabId: number, reported: (tabId: number, origin: string) => boolean): Promise<TabSiteStatus> {
    await this.ready;
    const tab = await browser.tabs.get(tabId).catch(() => undefined);
    const origin = httpOrigin(tab?.url);
    const allowed = origin !== undefined && this.allowed.has(origin);
    const verdict = origin !== undefined ? this.policyVerdict(origin) : ({ ok: true } as const);
    return {
      tabId,
      ...(origin ? { origin } : {}),
      ...(tab?.title ? { title: tab.title.slice(0, 2000) } : {}),
      allowed,
      ...(origin !== undefined && this.waiting.includes(origin) ? { waiting: true } : {}),
      ...(!verdict.ok ? { policy: verdict.reason } : {}),
      observing: allowed && reported(tabId, origin),
    };
  }

  private policyVerdict(origin: string) {
    return this.deps.policy ? siteVerdict(this.deps.policy.current(), origin) : ({ ok: true } as const);
  }

  private async openTabs(origin: string): Promise<number[]> {
    const tabs = await browser.tabs.query({ url: originPattern(origin) }).catch(() => []);
    return tabs.flatMap((t) => (t.id !== undefined && httpOrigin(t.url) === origin ? [t.id] : []));
  }

  private async store(listed: string[]): Promise<void> {
    const record = readSiteAccess({ allowed: listed });
    await browser.storage.local.set({ [SITES_KEY]: record });
    await this.reload();
  }

  /** Reads the record, Chrome's grants and the polyfill setting, then brings Chrome's registrations in line (one at a time). */
  private reload(): Promise<void> {
    const next = this.queue.then(async () => {
      // Nothing is registered before the policy's first reading is in (bounded: managed-policy.ts).
      await this.deps.policy?.ready;
      const items = await browser.storage.local.get([SITES_KEY, SETTINGS_KEY, WEBMCP_KEY]);
      const listed = readSiteAccess(items[SITES_KEY]).allowed;
      // The organisation's policy first: a site it refuses is never read, even if the person allowed it.
      const combined = this.deps.policy ? combineSites(listed, this.deps.policy.current()) : { allowed: listed, refused: [] };
      const [granted, broad] = await Promise.all([this.deps.grants.granted(combined.allowed), this.deps.grants.broad()]);
      const standing = siteStanding(combined.allowed, granted);
      const before = this.overview();
      this.listed = listed;
      this.allowed = new Set(standing.allowed);
      this.waiting = standing.waiting;
      this.refused = combined.refused;
      this.broad = broad.length > 0;
      this.polyfill = readSettings(items[SETTINGS_KEY]).polyfill_enabled;
      const seen = WebMcpSeen.safeParse(items[WEBMCP_KEY]);
      this.native = seen.success && seen.data.native && seen.data.browser === navigator.userAgent.slice(0, 300);
      await this.register();
      const lost = lostSites(before.allowed, standing.allowed);
      if (lost.length > 0) this.deps.onSitesLost?.(lost);
      if (JSON.stringify(before) !== JSON.stringify(this.overview())) this.deps.onChanged?.();
    });
    this.queue = next.catch((e) => console.error('Steward could not register its page scripts', e));
    return this.queue;
  }

  private async register(): Promise<void> {
    const restricted = await (this.deps.storageRestricted ?? Promise.resolve()).then(
      () => true,
      () => false,
    );
    // Fail closed: a content script that could write Steward's settings gets no page to run in.
    const plan = restricted ? planContentScripts([...this.allowed], this.polyfill && !this.native, this.deps.files) : [];
    if (!restricted) console.error('Steward could not keep content scripts out of chrome.storage; it observes no site');
    const registered = await browser.scripting.getRegisteredContentScripts();
    if (samePlan(registered, plan)) return;
    const ids = (list: ReadonlyArray<{ id: string }>) =>
      list
        .map((r) => r.id)
        .sort()
        .join();
    // Same scripts, new sites or files: updated in place, so no page loads in a gap without them.
    if (plan.length > 0 && ids(registered) === ids(plan)) return browser.scripting.updateContentScripts(plan);
    if (registered.length > 0) await browser.scripting.unregisterContentScripts({ ids: registered.map((r) => r.id) });
    if (plan.length > 0) await browser.scripting.registerContentScripts(plan);
  }
}
