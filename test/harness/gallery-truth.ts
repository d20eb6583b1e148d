/**
 * The truth benchmark's browser side (issue 14): every labelled gallery page in real Chromium with
 * the built extension, observed as the side panel observes a tab (`panel/observe-tab`): settled,
 * again after a quiet spell, and again after the label's real change made with Playwright. Used by
 * `npm run bench` (bench/truth.ts) and the e2e regression check (gallery-truth.spec.ts); the
 * scoring is bench/truth-scoring.ts.
 */
import type { Locator, Page } from '@playwright/test';
import type { GalleryLabel } from '../../sites/lab/gallery/label.ts';
import { scorePage, type ObservedView, type PageRun, type PageScore } from '../../bench/truth-scoring.ts';
import type { StewardBrowser } from './browser.ts';

/** How long a page is left alone before its "no action" observation. */
const QUIET_MS = 3_000;
/** After the page has settled (see `settle`): client-rendered pages draw their first frames. */
const RENDER_MS = 400;
/** The longest `settle` waits for custom elements, fonts and the network before observing anyway. */
const SETTLE_LIMIT_MS = 5_000;
/** A page whose requests go quiet this long has loaded what it loads (one that polls never does: SETTLE_LIMIT_MS). */
const NETWORK_QUIET_LIMIT_MS = 2_000;
/** After the real change: the page re-renders (the observation then settles on its own). */
const AFTER_CHANGE_MS = 300;
/** Pages in flight at once: most of a page's time is its quiet spell, so 8 overlap on two cores (51 pages: 72 s at 4, 43–48 s at 8, same scores). */
const DEFAULT_CONCURRENCY = 8;
/** A tab the observing panel page is pinned to that never exists, so the panel observes nothing itself. */
const NO_TAB = 2_000_000_000;

interface RawState {
  resource: { type: string; id: string };
  state: string;
  conflicts: string[];
  state_version: string | number;
  elements?: Array<{ ref: string; name: string; role: string }>;
  actions?: Array<{ action: string; target_ref?: string; title?: string }>;
  tools?: Array<{ name: string; title?: string }>;
  /** How sure Steward is of `resource` (`identified`, `guessed`, `unknown`); absent from older builds. */
  resource_identity?: { certainty?: string };
}

function view(s: RawState): ObservedView {
  return {
    resource: s.resource,
    resourceUnknown: s.resource_identity?.certainty === 'unknown',
    state: s.state,
    conflicts: s.conflicts,
    version: s.state_version,
    elements: (s.elements ?? []).map(({ ref, name, role }) => ({ ref, name, role })),
    actions: (s.actions ?? []).map(({ action, target_ref, title }) => ({ action, ...(target_ref ? { target_ref } : {}), ...(title ? { title } : {}) })),
    tools: (s.tools ?? []).flatMap((t) => [t.name, ...(t.title ? [t.title] : [])]),
  };
}

/** The fused ObservedState of a tab, asked for as the side panel asks (the worker settles it first). */
async function observe(panel: Page, tabId: number): Promise<ObservedView> {
  const reply = (await panel.evaluate((tabId) => chrome.runtime.sendMessage({ type: 'panel/observe-tab', tabId }), tabId)) as {
    ok: boolean;
    data?: { state: RawState | null; error?: string };
    error?: { message: string };
  };
  if (!reply.ok || !reply.data) throw new Error(`panel/observe-tab: ${reply.error?.message ?? 'no reply'}`);
  if (!reply.data.state) throw new Error(reply.data.error ?? 'no state');
  return view(reply.data.state);
}

/** The tab whose top frame's content script reported this URL (so Steward's page script is up there). */
async function tabIdFor(browser: StewardBrowser, url: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const id = await browser.serviceWorker.evaluate(async (wanted) => {
      const frames = ((await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] ?? []) as Array<{ tabId: number; frameId: number; url: string }>;
      return frames.find((f) => f.frameId === 0 && f.url.split('#')[0] === wanted)?.tabId;
    }, url.split('#')[0]!);
    if (id !== undefined) return id;
    if (Date.now() > deadline) throw new Error(`Steward never heard from ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The control a person would use, found by role and name. Playwright's locators see into open
 * shadow roots (Shoelace's); a custom element that names itself with `label` rather than ARIA is
 * found by that attribute.
 */
async function control(page: Page, change: NonNullable<GalleryLabel['real_change']>): Promise<Locator> {
  const byRole = page.getByRole(change.role, { name: change.name, exact: true });
  if ((await byRole.count()) > 0) return byRole.first();
  const quoted = JSON.stringify(change.name);
  const labelled = page.locator(`[aria-label=${quoted}], [label=${quoted}]`);
  if ((await labelled.count()) > 0) return labelled.first();
  throw new Error(`no ${change.role} named "${change.name}" on the page`);
}

async function makeChange(page: Page, change: NonNullable<GalleryLabel['real_change']>): Promise<void> {
  const target = await control(page, change);
  if (change.role === 'combobox' && change.option !== undefined) {
    const native = await target.evaluate((el) => el instanceof HTMLSelectElement).catch(() => false);
    if (native) {
      await target.selectOption({ label: change.option }, { timeout: 10_000 });
      return;
    }
    await clickAsPerson(target);
    await page.getByRole('option', { name: change.option, exact: true }).first().click({ timeout: 10_000 });
    return;
  }
  await clickAsPerson(target);
}

/**
 * Clicks the control; one that is drawn by its shadow host rather than itself (Shoelace's switch
 * keeps an invisible input inside) gets the click a person gives: on the host they see.
 */
async function clickAsPerson(target: Locator): Promise<void> {
  const host = await target.evaluateHandle((el) => {
    const root = el.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  });
  const element = host.asElement();
  if (!element) {
    // A busy page (a countdown re-rendering, four pages loading on two cores) can take seconds to take a click.
    await target.click({ timeout: 15_000 });
    return;
  }
  try {
    await target.click({ timeout: 3_000 });
  } catch {
    await element.click({ timeout: 10_000 });
  }
}

/**
 * Waits until the page has done what loading does: its custom elements upgraded (Shoelace defines
 * its components after the load event), its fonts loaded and its requests quiet. Observing
 * before then would count the page still loading as a change nobody made.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(':not(:defined)').length === 0 && document.fonts.status === 'loaded', undefined, { timeout: SETTLE_LIMIT_MS }).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: NETWORK_QUIET_LIMIT_MS }).catch(() => undefined);
  await page.waitForTimeout(RENDER_MS);
}

async function runPage(browser: StewardBrowser, panel: Page, origin: string, label: GalleryLabel): Promise<PageRun> {
  const page = await browser.context.newPage();
  const run: PageRun = { label };
  try {
    await page.goto(new URL(label.path, origin).href, { waitUntil: 'load', timeout: 30_000 });
    await settle(page);
    const tabId = await tabIdFor(browser, page.url());
    run.first = await observe(panel, tabId);
    await page.waitForTimeout(QUIET_MS);
    run.idle = await observe(panel, tabId);
    if (label.real_change) {
      try {
        await makeChange(page, label.real_change);
        await page.waitForTimeout(AFTER_CHANGE_MS);
        run.changed = await observe(panel, tabId);
      } catch (error) {
        run.changeError = `could not make it: ${firstLine(error)}${lastLogLine(error)}`;
      }
    }
  } catch (error) {
    run.error = firstLine(error);
  } finally {
    await page.close().catch(() => undefined);
  }
  return run;
}

/** Playwright's last word on why an action timed out (`<div class="banner"> intercepts pointer events`). */
function lastLogLine(error: unknown): string {
  const log = error instanceof Error ? (error.message.split('Call log:')[1] ?? '') : '';
  const lines = log
    .split('\n')
    .map((l) => l.trim().replace(/^-\s*/, ''))
    .filter((l) => l !== '' && !/^waiting \d+ms$/.test(l) && !/^retrying/.test(l));
  const last = lines.at(-1);
  return last ? ` — ${last.slice(0, 200)}` : '';
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

export interface GalleryRun {
  scores: PageScore[];
  ms: number;
}

/**
 * Scores every labelled page on the lab site at `labOrigin`, in the given browser (one panel page
 * observes for all of them), a few pages at a time. The scores come back in the labels' order.
 */
export async function runGallery(browser: StewardBrowser, labOrigin: string, labels: readonly GalleryLabel[], concurrency = DEFAULT_CONCURRENCY): Promise<GalleryRun> {
  const started = Date.now();
  const panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/src/sidepanel/index.html?tabId=${NO_TAB}`);
  const scores: PageScore[] = new Array(labels.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < labels.length; i = next++) scores[i] = scorePage(await runPage(browser, panel, labOrigin, labels[i]!));
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, labels.length) }, worker));
  } finally {
    await panel.close().catch(() => undefined);
  }
  return { scores, ms: Date.now() - started };
}
