import type { Page } from '@playwright/test';
import { encode } from 'gpt-tokenizer';
import { SMART_DOM_READER_BUNDLE } from '@mcp-b/smart-dom-reader/bundle-string';
import { observeLook } from '../bridge/src/mcp/look-text.ts';
import { approvalRule } from '../src/mcp/actions-view.ts';
import { observeReply } from '../src/mcp/observe-view.ts';
import { renderObserved, renderSnapshot } from '../src/observation/render/index.ts';
import { fuseWithDetail } from '../src/observation/fusion/index.ts';
import { shopAdapter } from '../src/observation/adapters/index.ts';
import type { PageSnapshot } from '../src/protocol/snapshot.ts';
import type { ToolDescriptor } from '../src/protocol/webmcp.ts';
import type { StewardBrowser } from '../test/harness/browser.ts';
import { median, type Row } from './report.ts';

const ANCHOR_BUDGET_MS = 60_000;
/**
 * How long every measured page is left alone after its load event. For a few seconds after
 * loading a big page the renderer is still busy (garbage collection of the parse, raster of the
 * first frames); a few quick measurements would fall entirely inside that window and slow ones
 * mostly after it. Every page, Steward's and each anchor's, waits the same.
 */
const SETTLE_MS = 3_000;
/**
 * Unmeasured calls every candidate (Steward and each anchor) makes after its first, cold one and
 * before the measured ones, so that the measured calls are the steady state an agent's session
 * sees, not the JIT warming up and the first capture's garbage being collected: at least
 * WARMUP_CALLS calls and WARMUP_MS of calling (a fast candidate makes more calls in that time). A
 * candidate whose first call took over WARM_AFTER_MS is warm after it and makes none.
 */
const WARMUP_CALLS = 3;
const WARMUP_MS = 1_000;
const WARM_AFTER_MS = 2_000;
const MAX_WARMUP_CALLS = 200;

/** Makes the warm-up calls (see WARMUP_CALLS); `call` answers false to stop early (an anchor out of budget). */
async function warmUp(firstMs: number, call: () => Promise<boolean>): Promise<void> {
  if (firstMs >= WARM_AFTER_MS) return;
  const start = performance.now();
  for (let calls = 0; calls < WARMUP_CALLS || (performance.now() - start < WARMUP_MS && calls < MAX_WARMUP_CALLS); calls++) {
    if (!(await call())) return;
  }
}

async function openSettled(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForTimeout(SETTLE_MS);
}

export interface ObserveCase {
  name: string;
  url: string;
}

/**
 * Small pages, where a look's fixed cost (the frame, the version) weighs most: gallery pages written
 * the way real sites are, and two lab pages where Steward reads more than the accessibility tree
 * (closed shadow roots; hidden, covered, offscreen and zero-size controls). The lab's widget pages
 * join them once they exist.
 */
export function smallObserveCases(lab: string): ObserveCase[] {
  return [
    { name: 'gallery-cookie-banner', url: `${lab}/gallery/html/h-cookie-banner` },
    { name: 'gallery-support-case', url: `${lab}/gallery/html/h-support-case` },
    { name: 'gallery-order-number', url: `${lab}/gallery/html/h-order-number-label` },
    { name: 'gallery-ticket-seat', url: `${lab}/gallery/html/h-ticket-seat` },
    { name: 'lab-visibility', url: `${lab}/visibility` },
    { name: 'lab-shadow', url: `${lab}/shadow` },
  ];
}

type SwObserve = { ms: number; ok: boolean; error?: string; snapshot?: PageSnapshot };

/** Steward's own path: the service worker asks the tab's content script for a snapshot. */
async function stewardObserve(browser: StewardBrowser, tabId: number, full: boolean, keep: boolean): Promise<SwObserve> {
  return browser.serviceWorker.evaluate(
    async ({ tabId, full, keep }) => {
      const api = (globalThis as unknown as { stewardObservation: { observeTab(id: number, o: { full: boolean }): Promise<{ ok: boolean; data?: unknown; error?: { message: string } }> } })
        .stewardObservation;
      const start = performance.now();
      const result = await api.observeTab(tabId, { full });
      const ms = performance.now() - start;
      return { ms, ok: result.ok, error: result.error?.message, snapshot: keep ? (result.data as never) : undefined };
    },
    { tabId, full, keep },
  );
}

/** The WebMCP tools Steward's registry holds for the tab's top frame. */
async function toolsOf(browser: StewardBrowser, tabId: number): Promise<ToolDescriptor[]> {
  return browser.serviceWorker.evaluate(async (tabId) => {
    const frames = ((await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] ?? []) as Array<{ tabId: number; frameId: number; tools: ToolDescriptor[] }>;
    return frames.find((f) => f.tabId === tabId && f.frameId === 0)?.tools ?? [];
  }, tabId);
}

/**
 * What observe.llm_tokens counts, and what of the page the co-pilot reads elsewhere in its prompt:
 * the prompt's own lines say it there once, so the rendering does not repeat it.
 */
const RENDERING_NOTE =
  "the co-pilot's rendering: the state (resource, state, source, confidence, conflicts), site actions and WebMCP tools (parameters, first sentence of the description, ! needs approval, $ payment), facts, the page's lines with each control's mark. In the prompt instead: the URL and whole state_version (its Current state line), the DOM steps' inputs, whole tool descriptions and input schemas (its action list), how to read the rendering (its system text).";

/** What observe.look_tokens counts. */
const LOOK_NOTE =
  "an MCP client's look: the whole text of steward_observe's answer (state_version line for a named resource in a known state, the untrusted frame, the rendering with the actions folded in), which is all a DOM step needs (its inputs are in steward_execute's schema, read once per session). The anchor is the ariaSnapshot of the same page, which an agent reads alone.";

/**
 * The page as loaded (the state the anchors see), fused here in Node as the service worker does,
 * with the same adapters, and read the way the co-pilot and an MCP client read it.
 */
function looks(snapshot: PageSnapshot, tools: ToolDescriptor[]): { copilot: string; mcp: string } {
  const state = fuseWithDetail({ snapshot, tools, adapters: [shopAdapter()] }).state;
  const tab = { tab_id: 1, url: state.url, title: state.title ?? '', origin: new URL(state.url).origin, active: true };
  return { copilot: renderObserved(snapshot, state), mcp: observeLook({ tab, ...observeReply(state, snapshot, {}, approvalRule(true)) }) };
}

async function tabIdFor(browser: StewardBrowser, url: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const id = await browser.serviceWorker.evaluate(async (wanted) => {
      const frames = ((await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] ?? []) as Array<{ tabId: number; frameId: number; url: string }>;
      return frames.find((f) => f.frameId === 0 && f.url === wanted)?.tabId;
    }, url);
    if (id !== undefined) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Steward never heard from ${url}`);
}

/**
 * The bench's small mutations, run in the page; each resolves once the page has rendered a frame
 * after it (two animation frames; a tab that renders nothing gives up after 200 ms), as pages
 * settle between an agent's steps.
 * - `text`: a word in the first cell changes, in place and at the same width (a status flips);
 *   the first call adds the word, which the caller leaves out of the timing.
 * - `shift`: a notice appears above the content, or goes away again: everything below moves.
 */
async function mutate({ kind, i }: { kind: 'text' | 'shift'; i: number }): Promise<void> {
  const main = document.querySelector('main') ?? document.body;
  if (kind === 'text') {
    let word = document.querySelector('[data-bench-word]');
    if (!word) {
      word = document.createElement('span');
      word.setAttribute('data-bench-word', '');
      (document.querySelector('main td, main p, td, p, h1') ?? main).appendChild(word);
    }
    word.textContent = i % 2 === 0 ? ' ·0' : ' ·1';
  } else {
    const notice = document.querySelector('[data-bench-notice]');
    if (notice) notice.remove();
    else main.insertAdjacentHTML('afterbegin', '<p data-bench-notice>Notice: the bench moved everything below this line.</p>');
  }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 200);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

/** Runs `fn` in the page and returns how long it took there. */
async function timeInPage(page: Page, fn: () => unknown): Promise<number> {
  return page.evaluate((source) => {
    const f = new Function(`return (${source})`)() as () => unknown;
    const start = performance.now();
    f();
    return performance.now() - start;
  }, fn.toString());
}

interface AnchorTimes {
  /** The first call on the freshly loaded page (cold). */
  first: number;
  /** The measured calls (after the warm-up). */
  times: number[];
  timedOut: boolean;
}

/** Measures an anchor on a fresh load of the page: once cold, the warm-up calls (see warmUp), then `runs` times, within ANCHOR_BUDGET_MS each. */
async function anchor(browser: StewardBrowser, url: string, runs: number, measure: (page: Page) => Promise<number>): Promise<AnchorTimes> {
  const page = await browser.context.newPage();
  const times: number[] = [];
  let timedOut = false;
  const timeOne = async (): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ANCHOR_BUDGET_MS)));
    const outcome = await Promise.race([measure(page), budget]).catch(() => 'timeout' as const);
    clearTimeout(timer);
    timedOut = outcome === 'timeout';
    times.push(outcome === 'timeout' ? ANCHOR_BUDGET_MS : outcome);
  };
  let warmups = 0;
  try {
    await openSettled(page, url);
    await timeOne();
    if (!timedOut) {
      await warmUp(times[0]!, async () => {
        await timeOne();
        return !timedOut;
      });
    }
    warmups = times.length - 1;
    for (let i = 0; i < runs && !timedOut; i++) await timeOne();
  } finally {
    // A renderer still busy with a runaway anchor is closed through CDP, which does not wait for it.
    const cdp = await page
      .context()
      .newCDPSession(page)
      .catch(() => undefined);
    const info = (await cdp?.send('Target.getTargetInfo').catch(() => undefined)) as { targetInfo?: { targetId: string } } | undefined;
    if (cdp && info?.targetInfo) await cdp.send('Target.closeTarget', { targetId: info.targetInfo.targetId }).catch(() => undefined);
    else await page.close().catch(() => undefined);
  }
  const [first = ANCHOR_BUDGET_MS, ...rest] = times;
  const measured = rest.slice(warmups);
  // A warm-up call that ran out of budget leaves only that call: its budget is the lower bound.
  return { first, times: measured.length > 0 ? measured : [times[times.length - 1] ?? first], timedOut };
}

const anchorName = (name: string, a: AnchorTimes) => (a.timedOut ? `${name} (over the ${ANCHOR_BUDGET_MS / 1000} s budget: lower bound)` : name);

/** observe.first_ms, observe.full_ms, observe.incremental_ms, observe.incremental_shift_ms, observe.llm_tokens and observe.look_tokens for one page, with anchors. */
export async function observeRows(browser: StewardBrowser, c: ObserveCase, runs: number): Promise<Row[]> {
  const page = await browser.context.newPage();
  await openSettled(page, c.url);
  const tabId = await tabIdFor(browser, page.url());

  // Steward: the first observation of the page (cold), full observations (fresh captures), then
  // incremental ones after small mutations.
  const first = await stewardObserve(browser, tabId, true, true);
  if (!first.ok || !first.snapshot) throw new Error(`Steward could not observe ${c.name}: ${first.error}`);
  await warmUp(first.ms, async () => (await stewardObserve(browser, tabId, true, false)).ok);
  const full: number[] = [];
  for (let i = 0; i < runs; i++) full.push((await stewardObserve(browser, tabId, true, false)).ms);
  // Incremental: after each small mutation (see `mutate`), the same call an agent step makes.
  const incremental: number[] = [];
  const shifted: number[] = [];
  await page.evaluate(mutate, { kind: 'text' as const, i: -1 });
  await stewardObserve(browser, tabId, false, false);
  for (let i = 0; i < runs; i++) {
    await page.evaluate(mutate, { kind: 'text' as const, i });
    incremental.push((await stewardObserve(browser, tabId, false, false)).ms);
    await page.evaluate(mutate, { kind: 'shift' as const, i });
    shifted.push((await stewardObserve(browser, tabId, false, false)).ms);
  }
  const snapshot = (await stewardObserve(browser, tabId, false, true)).snapshot!;
  const seen = looks(first.snapshot, await toolsOf(browser, tabId));

  await page.close().catch(() => undefined);

  // Anchors: same pages, same browser, same run. Each gets a fresh load of the page and a time
  // budget; past it the row records the budget as a lower bound and says so in the anchor's name.
  const floor = await anchor(browser, c.url, runs, async (p) =>
    timeInPage(p, () => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
      let n = 0;
      while (walker.nextNode()) n++;
      return n;
    }),
  );
  const smart = await anchor(browser, c.url, runs, async (p) => {
    await p.addScriptTag({ content: SMART_DOM_READER_BUNDLE });
    return timeInPage(p, () =>
      (globalThis as unknown as { SmartDOMReaderBundle: { executeExtraction(m: string, a: object): unknown } }).SmartDOMReaderBundle.executeExtraction('extractInteractive', {}),
    );
  });
  let ariaText = '';
  const aria = await anchor(browser, c.url, runs, async (p) => {
    const start = performance.now();
    ariaText = await p.locator('body').ariaSnapshot({ timeout: ANCHOR_BUDGET_MS });
    return performance.now() - start;
  });

  const fullMs = median(full);
  const tokens: Row = { metric: 'observe.llm_tokens', case: c.name, value: encode(seen.copilot).length, unit: 'tokens', better: 'lower', note: RENDERING_NOTE };
  const look: Row = { metric: 'observe.look_tokens', case: c.name, value: encode(seen.mcp).length, unit: 'tokens', better: 'lower', note: LOOK_NOTE };
  if (ariaText !== '') for (const r of [tokens, look]) Object.assign(r, { anchor: 'playwright.ariaSnapshot', anchor_value: encode(ariaText).length });
  // The page alone (no state, facts or tools), as the rendering was measured before it carried them.
  const pageTokens: Row = { metric: 'observe.llm_tokens_page', case: c.name, value: encode(renderSnapshot(first.snapshot)).length, unit: 'tokens', better: 'lower' };
  const row = (anchor: string, value: number): Row => ({ metric: 'observe.full_ms', case: c.name, value: fullMs, unit: 'ms', better: 'lower', anchor, anchor_value: value });
  return [
    { metric: 'observe.first_ms', case: c.name, value: first.ms, unit: 'ms', better: 'lower', anchor: anchorName('playwright.ariaSnapshot', aria), anchor_value: aria.first },
    row(anchorName('playwright.ariaSnapshot', aria), median(aria.times)),
    row(anchorName('mcp-b.smart-dom-reader', smart), median(smart.times)),
    row(anchorName('floor.treewalker', floor), median(floor.times)),
    { metric: 'observe.incremental_ms', case: c.name, value: median(incremental), unit: 'ms', better: 'lower' },
    { metric: 'observe.incremental_shift_ms', case: c.name, value: median(shifted), unit: 'ms', better: 'lower' },
    tokens,
    look,
    pageTokens,
    { metric: 'observe.elements', case: c.name, value: snapshot.elements.length, unit: 'elements', better: 'higher' },
  ];
}
