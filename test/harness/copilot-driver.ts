import type { Page } from '@playwright/test';
import { encode } from 'gpt-tokenizer';
import type { CopilotRun } from '../../src/protocol/copilot.ts';
import type { ChatRequestBody, ScriptedModel } from '../../sites/model/scripted-server.ts';
import { grantHostAccess, type StewardBrowser } from './browser.ts';

/**
 * Drives a co-pilot run from the side panel page with the panel channel's own requests
 * (copilot/set-key, copilot/start, copilot/runs, panel/approvals), as the Co-pilot view does.
 * Plain polling, no test runner: the task benchmarks (bench/copilot.ts) drive runs the same way.
 */

type Envelope<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export async function request<T>(panel: Page, message: Record<string, unknown>): Promise<T> {
  const reply = (await panel.evaluate((m) => chrome.runtime.sendMessage(m), message)) as Envelope<T>;
  if (!reply.ok) throw new Error(`${String(message.type)} refused: ${reply.error.code}: ${reply.error.message}`);
  return reply.data;
}

/** Polls `probe` until it answers something other than undefined. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens Steward's side panel page as a tab, pinned to the tab of `page` (found as fixtures.ts finds it). */
export async function panelFor(steward: StewardBrowser, page: Page): Promise<{ panel: Page; tabId: number }> {
  const url = page.url().split('#')[0];
  const tabId = await until(`Steward to hear from ${url}`, () =>
    steward.serviceWorker.evaluate(async (wanted) => {
      const stored = (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'] as Array<{ tabId: number; frameId: number; url: string }> | undefined;
      return stored?.find((f) => f.frameId === 0 && f.url.split('#')[0] === wanted)?.tabId;
    }, url),
  );
  const panel = await steward.context.newPage();
  await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}`);
  return { panel, tabId };
}

/** Points Steward at the scripted model (settings in chrome.storage.local, the key through copilot/set-key). */
export async function useScriptedModel(panel: Page, model: ScriptedModel, copilot: { max_steps?: number; token_budget?: number } = {}): Promise<void> {
  // Chrome's grant of the model server's origin, as the person gave it when saving the endpoint.
  await grantHostAccess(panel, [model.url]);
  await panel.evaluate(
    async ({ url, copilot }) => {
      const key = 'steward.settings';
      const stored = ((await chrome.storage.local.get(key))[key] ?? {}) as { copilot?: Record<string, unknown> };
      const defaults = { max_steps: 25, time_budget_minutes: 10, token_budget: 200_000 };
      await chrome.storage.local.set({ [key]: { ...stored, copilot: { ...defaults, ...stored.copilot, ...copilot, provider: 'openai', endpoint: url, model: 'scripted' } } });
    },
    { url: model.url, copilot },
  );
  const { has_key } = await request<{ has_key: boolean }>(panel, { type: 'copilot/set-key', provider: 'openai', key: 'sk-scripted-test-key' });
  if (!has_key) throw new Error('copilot/set-key did not keep the key');
  await until('the scripted model to be ready', async () => ((await request<{ ready: boolean }>(panel, { type: 'copilot/model-status' })).ready ? true : undefined), 10_000);
}

/** Waits until Steward's observation of the tab offers `action` (WebMCP tools register after load). */
export async function offered(panel: Page, tabId: number, action: string): Promise<void> {
  await until(`the tab to offer ${action}`, async () => {
    const { state } = await request<{ state: { available_actions: string[] } | null }>(panel, { type: 'panel/observe-tab', tabId });
    return state?.available_actions.includes(action) ? true : undefined;
  });
}

export async function startRun(panel: Page, tabId: number, goal: string): Promise<CopilotRun> {
  return (await request<{ run: CopilotRun }>(panel, { type: 'copilot/start', tabId, goal })).run;
}

async function runOf(panel: Page, runId: string): Promise<CopilotRun> {
  const { runs } = await request<{ runs: CopilotRun[] }>(panel, { type: 'copilot/runs' });
  const run = runs.find((r) => r.run_id === runId);
  if (!run) throw new Error(`copilot/runs does not list ${runId}`);
  return run;
}

export interface PendingCard {
  request_id: string;
  agent_id: string;
  action: string;
  input_hash: string;
  state: { state_version: string | number };
}

/** The person's Approve on every card of this run's agent until the run ends (how the benchmarks stand in for the person). */
export async function approveUntilEnd(panel: Page, runId: string, timeout = 60_000): Promise<CopilotRun> {
  return until(
    `run ${runId} to end`,
    async () => {
      const run = await runOf(panel, runId);
      if (run.end) return run;
      // Nobody answers here: a scripted model asking the person is the measured run failing.
      if (run.status === 'awaiting_answer') throw new Error(`run ${runId} asks the person: ${run.steps.at(-1)?.question ?? ''}`);
      const { pending } = await request<{ pending: PendingCard[] }>(panel, { type: 'panel/approvals' });
      for (const card of pending.filter((c) => c.agent_id === run.agent_id)) {
        const decision = {
          request_id: card.request_id,
          decision: 'approve',
          decided_by: 'user:local',
          decided_at: new Date().toISOString(),
          input_hash: card.input_hash,
          state_version: card.state.state_version,
        };
        // A card decided meanwhile (expired, replaced after a re-observation) is simply skipped.
        await request(panel, { type: 'panel/approval-decide', decision }).catch(() => undefined);
      }
      return undefined;
    },
    timeout,
  );
}

/** Prompt tokens of every request the scripted model received (gpt-tokenizer, like observe.llm_tokens). */
export function promptTokens(requests: readonly ChatRequestBody[]): number {
  return requests.reduce((sum, r) => sum + r.messages.reduce((n, m) => n + encode(m.content).length, 0), 0);
}

/** A date at least a week ahead on which the clinic's doctor has `time` free (asked of the clinic's own API). */
export async function freeSlot(clinicUrl: string, doctor: string, time: string, from = 7): Promise<string> {
  for (let ahead = from; ahead < from + 60; ahead++) {
    const date = new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(new URL(`/api/slots?doctor=${doctor}&date=${date}`, clinicUrl));
    if (res.ok && ((await res.json()) as { slots: string[] }).slots.includes(time)) return date;
  }
  throw new Error(`${doctor} has no free ${time} in two months`);
}

/** The clinic server's own records: the ground truth for what a run booked or called. */
interface ClinicRecords {
  appointments: Array<{ id: string; doctor_id: string; date: string; time: string; patient_name: string; status: string }>;
  tool_calls: Array<{ method: string; path: string; source: string }>;
}
export const clinicRecords = async (url: string) => (await (await fetch(new URL('/__demo/state', url))).json()) as ClinicRecords;
