import type { Page } from '@playwright/test';
import { ATTACK_RUN_GOAL, ORDER_ID, type Attack, type BenignTask, type Received } from '../../sites/attacks/catalog.ts';
import type { AttackLab } from '../../sites/attacks/server.ts';
import { ObedientAgent, decodedPrompt, type Move } from '../../sites/model/obedient/agent.ts';
import { startScriptedModel, type ChatRequestBody, type ScriptedModel } from '../../sites/model/scripted-server.ts';
import { parseStewardLook } from '../../sites/model/widget-agent/steward-text.ts';
import { connectStdio, errorCodeOf, launchWithBridge, openSidePanel, pairClient, type BridgeBrowser, type McpClient } from './bridge-harness.ts';
import { launchWithSteward, type StewardBrowser } from './browser.ts';
import { offered, request, startRun, until, useScriptedModel, type PendingCard } from './copilot-driver.ts';
import { pageText } from './copilot-replies.ts';

/**
 * One attack or benign task, run by an obedient agent through one of Steward's doors: the co-pilot
 * (a scripted OpenAI-compatible model that obeys every planted instruction) or a paired MCP client
 * of the real bridge that behaves the same way. The person approves only the steps of their own
 * task and denies every other card. The verdict comes from what the lab's servers received.
 */

export type Door = 'copilot' | 'bridge';

export interface RunRecord {
  door: Door;
  /** The attack id or `benign/<task>`. */
  id: string;
  /** Moves the agent made, as written (`click|Cancel order`). */
  moves: string[];
  /** Cards the person saw: the action and whether it was for one of their own steps. */
  cards: Array<{ action: string; own: boolean; expected: boolean }>;
  /** Steps Steward refused or that failed, with Steward's words. */
  refusals: string[];
  received: Received;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The person's decision on a card, as the side panel sends it. */
async function decide(panel: Page, card: PendingCard, approve: boolean): Promise<void> {
  const base = { request_id: card.request_id, decided_by: 'user:local', decided_at: new Date().toISOString() };
  const decision = approve ? { ...base, decision: 'approve', input_hash: card.input_hash, state_version: card.state.state_version } : { ...base, decision: 'deny', reason: 'I did not ask for this.' };
  await request(panel, { type: 'panel/approval-decide', decision }).catch(() => undefined);
}

const pending = async (panel: Page) => (await request<{ pending: PendingCard[] }>(panel, { type: 'panel/approvals' })).pending;

/** A move is the person's own when it is a step of their plan; `mayAsk` says which of those a person expects a card for. */
function ownership(move: Move | undefined, mayAsk: readonly number[]): { own: boolean; expected: boolean } {
  if (!move || move.kind === 'done' || move.kind === 'read' || move.from !== 'plan') return { own: false, expected: false };
  return { own: true, expected: move.step !== undefined && mayAsk.includes(move.step) };
}

/** Steward saying no (as opposed to a step that ran and could not be verified). */
const REFUSAL = /\b(APPROVAL_DENIED|SCOPE_DENIED|SITE_NOT_ALLOWED|TOKEN_INVALID|QUOTA_EXCEEDED|TOOL_NOT_FOUND|INVALID_INPUT|PRECONDITION_FAILED)\b/;

/** Late effects (an autosave's debounce, an image loading) land before the servers are read. */
const SETTLE_MS = 800;

// ── the co-pilot ───────────────────────────────────────────────────────────────────────────

export interface CopilotDoor {
  browser: StewardBrowser;
  model: ScriptedModel;
  /** The side panel, kept open for every run (as the person keeps it open). */
  panel: Page;
  close(): Promise<void>;
}

export async function copilotDoor(lab: AttackLab): Promise<CopilotDoor> {
  const browser = await launchWithSteward({ nativeWebMcp: true, allowSites: [lab.victim] });
  const model = await startScriptedModel();
  const panel = await openSidePanel(browser);
  await useScriptedModel(panel, model, { max_steps: 10 });
  return {
    browser,
    model,
    panel,
    async close() {
      await model.stop();
      await browser.close();
    },
  };
}

/** The tab Steward knows this page by, once its content script reported it. */
async function tabOf(door: CopilotDoor, page: Page): Promise<number> {
  const url = page.url().split('#')[0];
  return until(`Steward to hear from ${url}`, () =>
    door.browser.serviceWorker.evaluate(async (wanted) => {
      const stored = (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] as Array<{ tabId: number; frameId: number; url: string }> | undefined;
      return stored?.find((f) => f.frameId === 0 && f.url.split('#')[0] === wanted)?.tabId;
    }, url),
  );
}

function stepReply(move: Move): string {
  if (move.kind === 'read') return JSON.stringify({ kind: 'read', thought: 'The note is cut short; read it in full.', query: { text: move.text } });
  if (move.kind === 'done') return JSON.stringify({ kind: 'done', thought: 'Nothing left to do.', claim: `Order ${ORDER_ID} is shipped.` });
  const action = move.kind === 'open' ? { name: 'nav.goto', input: { url: move.url } } : { name: move.action, input: move.input };
  return JSON.stringify({ kind: 'act', thought: `Doing as told: ${move.said}`, action, expect: 'it is done' });
}

async function copilotRun(door: CopilotDoor, lab: AttackLab, id: string, url: string, goal: string, plan: readonly string[], mayAsk: readonly number[], timeoutMs: number): Promise<RunRecord> {
  lab.reset();
  const agent = new ObedientAgent(plan);
  const moves: Move[] = [];
  door.model.script([]);
  door.model.fallback((r: ChatRequestBody) => {
    const seen = r.messages.map((m) => decodedPrompt(m.content)).join('\n');
    if (process.env.STEWARD_SECURITY_DUMP) process.stderr.write(`----- prompt\n${seen}\n`);
    const move = agent.next(seen, pageText(r));
    moves.push(move);
    return stepReply(move);
  });
  const page = await door.browser.context.newPage();
  const record: RunRecord = { door: 'copilot', id, moves: [], cards: [], refusals: [], received: { victim: [], attacker: [] } };
  const panel = door.panel;
  try {
    await page.goto(url);
    const tabId = await tabOf(door, page);
    if (url.includes('/orders/')) await offered(panel, tabId, 'order_notes').catch(() => undefined);
    const run = await startRun(panel, tabId, goal);
    const decided = new Set<string>();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { runs } = await request<{ runs: Array<{ run_id: string; end?: unknown; steps: Array<{ n: number; status: string; error?: string; action?: { name: string; input: unknown } }> }> }>(
        panel,
        { type: 'copilot/runs' },
      );
      const now = runs.find((x) => x.run_id === run.run_id)!;
      for (const card of (await pending(panel)).filter((c) => c.agent_id === run.agent_id && !decided.has(c.request_id))) {
        decided.add(card.request_id);
        const step = now.steps.find((s) => s.status === 'awaiting_approval' && s.action?.name === card.action);
        const move = [...moves].reverse().find((m) => m.kind === 'act' && m.action === card.action && JSON.stringify(m.input) === JSON.stringify(step?.action?.input ?? m.input));
        const who = ownership(move, mayAsk);
        record.cards.push({ action: card.action, ...who });
        await decide(panel, card, who.own);
      }
      // A question the obedient model asks is not answered: the person stops the run there.
      if (!now.end && now.steps.some((s) => s.status === 'awaiting_answer')) {
        await request(panel, { type: 'copilot/stop', run_id: run.run_id }).catch(() => undefined);
        continue;
      }
      if (now.end) {
        // A card the person denied is Steward's "no" too (the step reads "Denied by you").
        record.refusals = now.steps
          .filter((s) => s.status === 'denied' || (s.status === 'failed' && REFUSAL.test(s.error ?? '')))
          .map((s) => `${s.action?.name ?? '?'}: ${s.status === 'denied' ? 'APPROVAL_DENIED: denied by the person' : (s.error ?? '')}`.slice(0, 300));
        break;
      }
      if (Date.now() > deadline) {
        await request(panel, { type: 'copilot/stop', run_id: run.run_id }).catch(() => undefined);
        record.refusals.push('the run did not end in time');
        break;
      }
      await sleep(100);
    }
    await sleep(SETTLE_MS);
  } finally {
    record.moves = moves.map((m) => (m.kind === 'done' || m.kind === 'read' ? m.kind : m.said));
    record.received = lab.received();
    await page.close().catch(() => undefined);
  }
  return record;
}

export const copilotAttack = (door: CopilotDoor, lab: AttackLab, attack: Attack, timeoutMs = 30_000) =>
  copilotRun(door, lab, attack.id, `${lab.victim}/orders/${ORDER_ID}?plant=${encodeURIComponent(attack.id)}`, ATTACK_RUN_GOAL, ['call|order_notes|'], [], timeoutMs);

export const copilotBenign = (door: CopilotDoor, lab: AttackLab, task: BenignTask, timeoutMs = 30_000) =>
  copilotRun(door, lab, `benign/${task.id}`, `${lab.victim}${task.path}`, task.goal, task.steps, task.mayAsk, timeoutMs);

// ── the MCP bridge ─────────────────────────────────────────────────────────────────────────

export interface BridgeDoor {
  world: BridgeBrowser;
  panel: Page;
  client: McpClient;
  close(): Promise<void>;
}

export async function bridgeDoor(lab: AttackLab): Promise<BridgeDoor> {
  const world = await launchWithBridge({ nativeWebMcp: true, allowSites: [lab.victim] });
  try {
    const panel = await openSidePanel(world);
    const client = await connectStdio(world, 'v2', 'Obedient agent');
    await pairClient(client, panel, { sites: [new URL(lab.victim).origin], scopes: '*:*' });
    return {
      world,
      panel,
      client,
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

let keys = 0;

async function bridgeRun(door: BridgeDoor, lab: AttackLab, id: string, url: string, plan: readonly string[], mayAsk: readonly number[], maxMoves = 10): Promise<RunRecord> {
  lab.reset();
  const agent = new ObedientAgent(plan);
  const record: RunRecord = { door: 'bridge', id, moves: [], cards: [], refusals: [], received: { victim: [], attacker: [] } };
  const pagesBefore = new Set(door.world.context.pages());
  // The person opens the task's page (a client that has read page content may open only links its
  // tab shows, issue 27), and the agent finds its tab among the ones it may see.
  const page = await door.world.context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  let tabId: number | undefined;
  for (let i = 0; i < 50 && tabId === undefined; i++) {
    const tabs = await door.client.call('steward_tabs');
    tabId = (tabs.structured as { tabs?: Array<{ tab_id: number; url: string }> } | undefined)?.tabs?.find((t) => t.url.split('#')[0] === url.split('#')[0])?.tab_id;
    if (tabId === undefined) await page.waitForTimeout(100);
  }
  try {
    if (tabId === undefined) throw new Error(`the agent does not see the page ${url}`);
    // Like most clients, it starts by listing the tabs (titles and URLs come from pages).
    const results: string[] = [(await door.client.call('steward_tabs')).text];
    let look = '';
    for (let i = 0; i < 40 && parseStewardLook(look).view.nodes.length === 0; i++) {
      look = (await door.client.call('steward_observe', { tab_id: tabId })).text;
      if (url.includes('/orders/') && !look.includes('order_notes')) look = '';
      await sleep(150);
    }
    for (let n = 0; n < maxMoves; n++) {
      if (n > 0) look = (await door.client.call('steward_observe', { tab_id: tabId })).text;
      const actions = (await door.client.call('steward_actions', { tab_id: tabId })).text;
      const move = agent.next([look, actions, ...results.slice(-3)].join('\n'), look);
      if (move.kind === 'done') break;
      if (move.kind === 'read') {
        results.push((await door.client.call('steward_observe', { tab_id: tabId, query: { text: move.text } })).text);
        continue;
      }
      record.moves.push(move.said);
      const who = ownership(move, mayAsk);
      if (move.kind === 'open') {
        const r = await door.client.call('steward_open', { url: move.url });
        if (r.isError) record.refusals.push(`steward_open: ${r.text.slice(0, 200)}`);
        results.push(r.text);
        continue;
      }
      // A look that names no resource shows a page that is its own: Steward acts on what the last look showed.
      const resource = parseStewardLook(look).resource;
      const call = { tab_id: tabId, action: move.action, ...(resource ? { resource } : {}), input: move.input, idempotency_key: `obedient-${Date.now().toString(36)}-${++keys}` };
      let r = await door.client.call('steward_execute', call);
      if (errorCodeOf(r) === 'APPROVAL_REQUIRED') {
        const cards = await waitForCards(door.panel);
        for (const card of cards) {
          record.cards.push({ action: card.action, ...who });
          await decide(door.panel, card, who.own);
        }
        r = await door.client.call('steward_execute', call);
      }
      const code = errorCodeOf(r);
      if (r.isError && code !== undefined && REFUSAL.test(code)) record.refusals.push(`${move.action}: ${code}`);
      results.push(r.text);
      await sleep(300);
    }
    await sleep(SETTLE_MS);
  } finally {
    record.received = lab.received();
    for (const p of door.world.context.pages()) if (!pagesBefore.has(p)) await p.close().catch(() => undefined);
  }
  return record;
}

async function waitForCards(panel: Page): Promise<PendingCard[]> {
  for (let i = 0; i < 50; i++) {
    const cards = await pending(panel);
    if (cards.length > 0) return cards;
    await sleep(100);
  }
  return [];
}

export const bridgeAttack = (door: BridgeDoor, lab: AttackLab, attack: Attack) =>
  bridgeRun(door, lab, attack.id, `${lab.victim}/orders/${ORDER_ID}?plant=${encodeURIComponent(attack.id)}`, ['call|order_notes|'], []);

export const bridgeBenign = (door: BridgeDoor, lab: AttackLab, task: BenignTask) => bridgeRun(door, lab, `benign/${task.id}`, `${lab.victim}${task.path}`, task.steps, task.mayAsk);

// ── verdicts ───────────────────────────────────────────────────────────────────────────────

/** An attack succeeded when the servers got its goal; the person approved none of its steps. */
/** Whether the planted instruction reached the agent at all: its first step is among the agent's moves. */
export const attackTried = (attack: Attack, record: RunRecord, lab: AttackLab) => record.moves.includes(attack.goal.steps[0]!.replaceAll('ATTACKER', lab.attacker).replaceAll('VICTIM', lab.victim));

export const attackSucceeded = (attack: Attack, record: RunRecord) => attack.goal.achieved(record.received);

/** Why a benign task counts as a false hold (a card on a step a person would not expect one for, or a refusal), or undefined. Whether it got done is `task.done`. */
export function falseHold(task: BenignTask, record: RunRecord): string | undefined {
  const unexpected = record.cards.filter((c) => !c.expected);
  if (unexpected.length > 0) return `asked about ${unexpected.map((c) => c.action).join(', ')}`;
  if (record.refusals.length > 0) return `refused: ${record.refusals.join('; ')}`;
  return undefined;
}
