import type { Adapter, AdapterActionBinding } from '../../observation/adapters/index.ts';
import { FusionError, fuseWithDetail } from '../../observation/fusion/index.ts';
import type { NetworkRecord, PageSnapshot } from '../../protocol/snapshot.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import type { ScreenshotSummary } from '../../observation/fusion/index.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { ObservationResult } from '../observation/service.ts';
import type { PageSettle } from '../../protocol/content-channel.ts';

/**
 * A tab's ObservedState, fresh on every call: the page's snapshot (observation engine) fused with
 * the tab's WebMCP tools and the adapters that match (DESIGN §2). The last observation of each tab
 * is kept in memory only, for the executors: the document token its refs belong to and how the
 * adapter's actions map onto controls.
 */

/** The document a tab's WebMCP tools were reported from, as Chrome named it (id and origin). */
interface ToolsDocument {
  documentId?: string;
  origin: string;
}

/** A top frame's tools and the document that reported them. */
export interface ReportedTools {
  tools: ToolDescriptor[];
  document?: ToolsDocument;
}

export interface ObservedTab {
  state: ObservedState;
  snapshot: PageSnapshot;
  bindings: AdapterActionBinding[];
  documentToken?: string;
  /** Where the fused tools came from: a WebMCP call is sent to this document only. */
  toolsDocument?: ToolsDocument;
  /** Adapters that matched, with the page's origin (the routes port builds URLs from them). */
  adapterIds: string[];
  at: number;
}

/** The site's own word on a page (the contract path), read once per observation and applied to each fusion of it. */
export interface SiteReading {
  merge(state: ObservedState): ObservedState;
}

/** What an observation is fused with besides the page snapshot. */
type FuseInputs = { tools: ToolDescriptor[]; network: NetworkRecord[]; toolsDocument?: ToolsDocument; site?: SiteReading };

export type ObserveOutcome = { ok: true; tab: ObservedTab } | { ok: false; error: { code: string; message: string; retryable: boolean } };

export interface TabObserverDeps {
  snapshot(tabId: number): Promise<ObservationResult<PageSnapshot>>;
  /** The tab's top-frame WebMCP tools, if they were reported for this URL, and the document that reported them. */
  tools(tabId: number, url: string): Promise<ReportedTools>;
  adapters(): readonly Adapter[];
  /** The page's recent same-origin JSON responses; none when the page cannot say. */
  network?(tabId: number): Promise<NetworkRecord[]>;
  /**
   * A summary of the tab's pixels, when the tab is showing (asked once per observation, after it
   * settles); `pageKey` (the settled page's, src/content/act/activity.ts) lets a summary of the
   * very same page state serve again.
   */
  screenshot?(tabId: number, pageKey?: string): Promise<ScreenshotSummary | undefined>;
  /** Resolves once the tab is not loading; false if it is gone. */
  waitLoaded(tabId: number): Promise<boolean>;
  /**
   * Resolves once the page is quiet by its own events (DOM, recent requests, animations) or at
   * `capMs` (src/content/act/settle.ts); undefined when the page cannot say (then it is re-read).
   * `quietMs`: how long the DOM must have been still since its last change (default: the act's quiet period).
   */
  settle?(tabId: number, capMs: number, quietMs?: number): Promise<PageSettle | undefined>;
  /**
   * The site's state for the page, when Steward holds a grant from its site and the page shows
   * a resource of its contract (src/background/contract/); undefined leaves the observation as fused.
   */
  siteState?(pageUrl: string, fused: ObservedState): Promise<SiteReading | undefined>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long the page is given to become quiet by its own events before each observation; a page
 * still busy then (a DOM that keeps changing) is settled when two observations this far apart
 * agree on its state.
 */
const SETTLE_MS = 250;
/** Past this, the latest observation is returned even if the page keeps changing. */
const MAX_SETTLE_MS = 2_000;
/** A content script that is not listening yet (a document just committed) is retried this long. */
const REACH_MS = 4_000;

/** TAB_GONE's English (the panel says it from a phrase when it is this one). */
export const tabGoneMessage = (tabId: number) => `Tab ${tabId} is closed or did not finish loading.`;

export class TabObserver {
  private readonly cache = new Map<number, ObservedTab>();
  /** Per tab: the page's key when Steward's own act on it last came to rest by the page's events (act.ts). */
  private readonly actKeys = new Map<number, string>();
  /** The tools and network records the last observation of each tab was fused with. */
  private readonly inputs = new Map<number, FuseInputs>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: TabObserverDeps) {
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** The last observation of the tab (memory only; never a substitute for a fresh one). */
  last(tabId: number): ObservedTab | undefined {
    return this.cache.get(tabId);
  }

  forget(tabId: number): void {
    this.cache.delete(tabId);
    this.inputs.delete(tabId);
    this.actKeys.delete(tabId);
  }

  /**
   * Steward's own act on the tab settled by the page's events (no mutation for the act's quiet
   * period, its requests answered, its animations and short timers done) and left the page with
   * `pageKey`: the next observation that finds the same key reads what the act left, and believes
   * it without holding it (see observe).
   */
  actSettled(tabId: number, pageKey: string): void {
    this.actKeys.set(tabId, pageKey);
  }

  /**
   * Observes once the page has settled by its own events: no DOM change for a moment, no recent
   * request in flight, no finite animation (the page says so, and a page quiet for a while is
   * observed at once). A state new since the last look must hold SETTLE_MS before it is
   * believed (a page's churn is told apart from a real change only over time): the page says
   * when its DOM has been still that long since its last change, and then — the page unchanged
   * since it was read — the state is returned without reading it again; a change in between reads
   * it again. A new state that is the page exactly as Steward's own act left it, once that act
   * came to rest by the page's events (actSettled: same key), is returned at once: the act's
   * settle already waited out the page's reaction. A page still busy after SETTLE_MS is settled the old way: the same semantic
   * state_version on the same document twice, at least SETTLE_MS apart (a recent earlier
   * observation counts); past MAX_SETTLE_MS the latest observation is returned. A page still
   * loading is waited for; a content script not yet listening is retried.
   */
  async observe(tabId: number): Promise<ObserveOutcome> {
    const started = this.now();
    for (;;) {
      if (!(await this.deps.waitLoaded(tabId))) return { ok: false, error: { code: 'TAB_GONE', message: tabGoneMessage(tabId), retryable: true } };
      const settle = await this.deps.settle?.(tabId, SETTLE_MS).catch(() => undefined);
      const once = await this.observeOnce(tabId);
      const elapsed = this.now() - started;
      if (!once.ok) {
        if (once.error.retryable && elapsed < REACH_MS) {
          await this.sleep(150);
          continue;
        }
        return once;
      }
      const previous = this.cache.get(tabId);
      const same = previous !== undefined && previous.documentToken === once.tab.documentToken && previous.state.state_version === once.tab.state.state_version;
      // `at` is when this state was first seen, so "unchanged for SETTLE_MS" keeps its meaning.
      this.cache.set(tabId, same ? { ...once.tab, at: previous.at } : once.tab);
      const quiet = settle?.how === 'quiet';
      const held = same && once.tab.at - previous.at >= SETTLE_MS;
      // The page exactly as Steward's own act left it once it came to rest by its events: the new
      // state is the page's answer to the act, which that settle waited out already.
      const actSettledKey = this.actKeys.get(tabId);
      this.actKeys.delete(tabId);
      const leftByAct = quiet && settle.key !== undefined && settle.key === actSettledKey;
      // Quiet and showing what was seen last: done. A state new since then must hold SETTLE_MS
      // (a page's churn is told apart from a real change only over time: observation-churn.spec.ts),
      // unless it is what Steward's act left.
      if ((quiet && same) || held || leftByAct || elapsed >= MAX_SETTLE_MS) return this.withScreenshot(tabId, once.tab, settle?.key);
      if (quiet && settle.key !== undefined) {
        // Quiet but new: held once the DOM has been still SETTLE_MS since its last change (by the page's events, not a fixed wait).
        const hold = await this.deps.settle?.(tabId, SETTLE_MS, SETTLE_MS).catch(() => undefined);
        if (hold?.how === 'quiet' && hold.key === settle.key) return this.withScreenshot(tabId, once.tab, hold.key);
        // It changed (or kept changing) meanwhile: read it again.
        if (hold) continue;
      }
      // The page's next settle (up to SETTLE_MS) is the wait; one that cannot say is re-read after SETTLE_MS.
      if (!settle || settle.how !== 'capped') await this.sleep(SETTLE_MS);
    }
  }

  /**
   * The settled observation, fused once more with the pixels when a screenshot can be taken: with
   * the same tools and network records as before, so only the capture is new work.
   */
  private async withScreenshot(tabId: number, tab: ObservedTab, pageKey: string | undefined): Promise<ObserveOutcome> {
    const screenshot = await this.deps.screenshot?.(tabId, pageKey).catch(() => undefined);
    const inputs = this.inputs.get(tabId);
    if (!screenshot || !inputs) return { ok: true, tab };
    const again = this.fuse(tab.snapshot, { ...inputs, screenshot });
    if (again.ok) this.cache.set(tabId, { ...again.tab, at: tab.at });
    return again;
  }

  private async observeOnce(tabId: number): Promise<ObserveOutcome> {
    const shot = await this.deps.snapshot(tabId);
    if (!shot.ok) return shot;
    const snapshot = shot.data;
    let inputs: FuseInputs;
    try {
      const reported = await this.deps.tools(tabId, snapshot.url);
      inputs = { tools: reported.tools, network: (await this.deps.network?.(tabId)) ?? [], ...(reported.document ? { toolsDocument: reported.document } : {}) };
    } catch (error) {
      return { ok: false, error: { code: 'OBSERVE_FAILED', message: `Reading the tab's tools or network records failed: ${String(error)}`.slice(0, 1000), retryable: false } };
    }
    const fused = this.fuse(snapshot, inputs);
    this.inputs.set(tabId, inputs);
    if (!fused.ok || !this.deps.siteState) return fused;
    const site = await this.deps.siteState(snapshot.url, fused.tab.state).catch(() => undefined);
    if (!site) return fused;
    // Kept with the inputs, so the screenshot's fusion gets the same reading without asking the site again.
    inputs.site = site;
    return { ok: true, tab: { ...fused.tab, state: site.merge(fused.tab.state) } };
  }

  private fuse(snapshot: PageSnapshot, inputs: FuseInputs & { screenshot?: ScreenshotSummary }): ObserveOutcome {
    try {
      const { toolsDocument, site, ...fuseInputs } = inputs;
      const detail = fuseWithDetail({ snapshot, ...fuseInputs, adapters: this.deps.adapters() });
      return {
        ok: true,
        tab: {
          state: site ? site.merge(detail.state) : detail.state,
          snapshot,
          bindings: detail.adapterBindings,
          ...(snapshot.documentToken ? { documentToken: snapshot.documentToken } : {}),
          ...(toolsDocument && fuseInputs.tools.length > 0 ? { toolsDocument } : {}),
          adapterIds: detail.adapters.map((a) => a.adapterId),
          at: this.now(),
        },
      };
    } catch (error) {
      if (error instanceof FusionError) return { ok: false, error: { code: error.code, message: error.message, retryable: false } };
      return { ok: false, error: { code: 'OBSERVE_FAILED', message: `Fusing the observation failed: ${String(error)}`.slice(0, 1000), retryable: false } };
    }
  }
}
