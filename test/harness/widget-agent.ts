import { appendFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { encode } from 'gpt-tokenizer';
import { WIDGET_TASKS, answersFor, judge, withEpisode, type WidgetTask } from '../../sites/lab/widgets/tasks.ts';
import { AriaActor } from '../../sites/model/widget-agent/aria-actor.ts';
import { runEpisode, type Actor, type EpisodeRun } from '../../sites/model/widget-agent/episode.ts';
import { WIDGET_PLANS } from '../../sites/model/widget-agent/plans.ts';
import { StewardActor, type ToolCaller } from '../../sites/model/widget-agent/steward-actor.ts';
import { connectStdio, launchWithBridge, openSidePanel, pairClient, type BridgeBrowser, type McpClient } from './bridge-harness.ts';
import { CHROMIUM_FLAGS } from './browser.ts';
import { approvalOf, control, data, type Card } from './pipeline-helpers.ts';

/**
 * The scripted widget agent's two sides, for the bench (coverage.*) and the e2e check
 * (widgets-bridge.spec.ts): Steward as a paired MCP client sees it — Chromium with Steward and the
 * real bridge, the client over stdio, the person's approvals given on the side panel's channel —
 * and the anchor: a plain Chromium page read with ariaSnapshot. `runTask` runs one task's plan on
 * one side and judges it by what the lab's server received.
 */

export interface Side {
  /** Opens `url` and returns the episode's actor, once the page has loaded. */
  open(url: string, episode: string): Promise<{ actor: Actor; approvals: () => number; close: () => Promise<void> }>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits for the person's card for `action` and approves it, as the side panel's Approve does. */
async function approveCard(panel: Page, action: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { pending } = await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }));
    const card = pending.find((c) => c.action === action);
    if (card) {
      await data(control(panel, approvalOf(card)));
      return;
    }
    if (Date.now() > deadline) throw new Error(`no approval card for ${action} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** `STEWARD_WIDGET_LOOKS=<file>`: every look of every episode appended as a JSON line (Steward's with the snapshot it rendered), for working on the rendering offline. */
const DUMP = process.env.STEWARD_WIDGET_LOOKS;

function snapshotting(client: McpClient, world: BridgeBrowser, tabId: number, episode: string): ToolCaller {
  return {
    async call(tool, args) {
      const reply = await client.call(tool, args);
      if (tool === 'steward_observe' && DUMP) {
        const snapshot = await world.serviceWorker.evaluate(async (id) => {
          const api = (globalThis as unknown as { stewardObservation: { observeTab(id: number): Promise<{ data?: unknown }> } }).stewardObservation;
          return (await api.observeTab(id)).data;
        }, tabId);
        const tools = await world.serviceWorker.evaluate(async (id) => {
          const frames = ((await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] ?? []) as Array<{ tabId: number; frameId: number; tools: unknown[] }>;
          return frames.find((f) => f.tabId === id && f.frameId === 0)?.tools ?? [];
        }, tabId);
        appendFileSync(DUMP, `${JSON.stringify({ episode, view: 'steward', text: reply.text, snapshot, tools })}\n`);
      }
      return reply;
    },
  };
}

export async function stewardSide(lab: string): Promise<Side & { world: BridgeBrowser; client: McpClient; panel: Page }> {
  const world = await launchWithBridge({ nativeWebMcp: true, allowSites: [lab] });
  try {
    const panel = await openSidePanel(world);
    const client = await connectStdio(world, 'v2', 'Widget agent');
    // Some tasks buy something (tickets): the person lets the agent touch payment, and approves each card anyway.
    await pairClient(client, panel, { sites: [new URL(lab).origin], payment: true, scopes: '*:*' });
    return {
      world,
      client,
      panel,
      async open(url, episode) {
        // The person opens each task's page (the agent has read pages by now: a client that read
        // page content may open only links its tab shows, issue 27), then the agent finds its tab.
        const page = await world.context.newPage();
        await page.goto(url);
        await page.waitForLoadState('load');
        let tab: { tab_id: number } | undefined;
        for (let i = 0; i < 50 && !tab; i++) {
          const tabs = await client.call('steward_tabs');
          tab = (tabs.structured as { tabs?: Array<{ tab_id: number; url: string }> } | undefined)?.tabs?.find((t) => t.url.split('#')[0] === url.split('#')[0]);
          if (!tab) await page.waitForTimeout(100);
        }
        if (!tab) throw new Error(`the agent does not see the task's tab ${url}`);
        const caller = DUMP ? snapshotting(client, world, tab.tab_id, episode) : client;
        const actor = new StewardActor({ client: caller, tabId: tab.tab_id, keyPrefix: episode, approve: (action) => approveCard(panel, action) });
        await actor.ready();
        return { actor, approvals: () => actor.approvals, close: () => page.close() };
      },
      async close() {
        await client.close().catch(() => undefined);
        await world.close();
      },
    };
  } catch (error) {
    await world.close().catch(() => undefined);
    throw error;
  }
}

export async function anchorSide(): Promise<Side & { browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
  // The size of Steward's tabs (Playwright's persistent context), so both see the same layout.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  return {
    browser,
    context,
    async open(url) {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      return { actor: new AriaActor(page), approvals: () => 0, close: () => page.close() };
    },
    async close() {
      await browser.close();
    },
  };
}

export type ViewName = 'steward' | 'anchor';

export interface EpisodeOutcome {
  task: WidgetTask;
  view: ViewName;
  /** The episode id the page sent its answers under. */
  episode: string;
  solved: boolean;
  /** Why not: the agent's stop reason, or what the lab received instead. */
  reason?: string;
  /** What the lab received first for the episode. */
  first?: unknown;
  run: EpisodeRun;
  approvals: number;
  /** gpt-tokenizer tokens of each look read. */
  tokens: number[];
}

/** The lab's answers for an episode, waiting a little for one the page is still sending. */
async function answersAfter(lab: string, episode: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answers = await answersFor(lab, episode);
    if (answers.length > 0 || Date.now() > deadline) return answers;
    await sleep(100);
  }
}

export function widgetTask(id: string): WidgetTask {
  const task = WIDGET_TASKS.find((t) => t.id === id);
  if (!task) throw new Error(`no widget task ${id}`);
  return task;
}

/** One task on one side: open its page under a fresh episode, run the plan, judge by what the lab received. */
export async function runTask(side: Side, view: ViewName, task: WidgetTask, lab: string, runId: string): Promise<EpisodeOutcome> {
  const plan = WIDGET_PLANS.find((p) => p.task === task.id);
  if (!plan) throw new Error(`no plan for ${task.id}`);
  const episode = `wa-${runId}-${view[0]}-${task.id}`;
  const opened = await side.open(new URL(withEpisode(task.path, episode), lab).href, episode);
  try {
    const run = await runEpisode(plan, opened.actor);
    if (DUMP && view === 'anchor') for (const text of run.looks) appendFileSync(DUMP, `${JSON.stringify({ episode, view, text })}\n`);
    const answers = await answersAfter(lab, episode, run.done ? 2_000 : 300);
    const verdict = judge(task, answers);
    const caveats = run.notes.length > 0 ? ` (after ${run.notes.join('; ')})` : '';
    const why =
      run.reason ??
      (verdict.first === undefined ? 'the plan ran to its end, but the page sent no answer' : `the plan ran to its end, but the page's first answer was ${JSON.stringify(verdict.first)}`);
    return {
      task,
      view,
      episode,
      solved: verdict.solved,
      ...(verdict.solved ? {} : { reason: `${why}${caveats}` }),
      ...(verdict.first !== undefined ? { first: verdict.first } : {}),
      run,
      approvals: opened.approvals(),
      tokens: run.looks.map((t) => encode(t).length),
    };
  } finally {
    await opened.close().catch(() => undefined);
  }
}
