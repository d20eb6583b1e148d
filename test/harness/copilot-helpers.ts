import type { Page } from '@playwright/test';
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../../sites/model/scripted-server.ts';
import { grantHostAccess } from './browser.ts';
import { expect } from './fixtures.ts';
import { approvalOf, control, data, type Card } from './pipeline-helpers.ts';

/**
 * Helpers for the co-pilot's end-to-end tests: a scripted OpenAI-compatible model (the only fake),
 * Steward configured through its own side panel page (settings in chrome.storage.local, the key via
 * `copilot/set-key`), and runs started and watched over the panel channel exactly as the Co-pilot
 * view does.
 */

interface RunStep {
  n: number;
  status: string;
  thought?: string;
  action?: { name: string; via?: string; input: Record<string, unknown>; idempotency_key: string };
  approval_id?: string;
  outcome?: string;
  error?: string;
  evidence?: string;
  question?: string;
  answer?: string;
  partial?: string;
}

export interface Run {
  run_id: string;
  tabId: number;
  agent_id: string;
  token_id: string;
  status: string;
  steps: RunStep[];
  end?: { kind: 'done'; verified: boolean; claim: string; evidence?: string; why?: string } | { kind: 'stopped'; reason: string; detail: string };
  model_error?: { code: string; message: string };
}

export const MODEL_KEY = 'sk-e2e-scripted-0000';

export function startModel(replies: ScriptedReply[] = []): Promise<ScriptedModel> {
  return startScriptedModel({ replies });
}

/** Points Steward's co-pilot at `model` (as the Settings form saves it) and stores a key. */
export async function configureCopilot(panel: Page, model: Pick<ScriptedModel, 'url'>, copilot: Record<string, unknown> = {}): Promise<void> {
  // Chrome's grant of the model server's origin, as the person gave it when saving the endpoint.
  await grantHostAccess(panel, [model.url]);
  await panel.evaluate(
    async ({ url, copilot }) => {
      const key = 'steward.settings';
      const current = ((await chrome.storage.local.get(key))[key] ?? {}) as Record<string, unknown>;
      const settings = {
        polyfill_enabled: true,
        token_lifetime_minutes: 60,
        approval_window_minutes: 15,
        ...current,
        copilot: { provider: 'openai', endpoint: url, model: 'scripted', max_steps: 25, time_budget_minutes: 10, token_budget: 200_000, ...copilot },
      };
      await chrome.storage.local.set({ [key]: settings });
    },
    { url: model.url, copilot },
  );
  expect(await data(control(panel, { type: 'copilot/set-key', provider: 'openai', key: MODEL_KEY }))).toEqual({ has_key: true });
  await expect.poll(async () => (await data<{ ready: boolean }>(control(panel, { type: 'copilot/model-status' }))).ready).toBe(true);
}

export async function startRun(panel: Page, tabId: number, goal: string, grant?: Record<string, unknown>): Promise<Run> {
  return (await data<{ run: Run }>(control(panel, { type: 'copilot/start', tabId, goal, ...(grant ? { grant } : {}) }))).run;
}

export async function runOf(panel: Page, runId: string): Promise<Run | undefined> {
  const { runs } = await data<{ runs: Run[] }>(control(panel, { type: 'copilot/runs' }));
  return runs.find((r) => r.run_id === runId);
}

/**
 * Waits until the run (read over the panel channel) satisfies `ok`; returns it. A run that waits
 * on a question `ok` does not expect fails at once with the question (a scripted reply that could
 * not read the prompt asks the person), rather than when the wait times out.
 */
export async function waitForRun(panel: Page, runId: string, ok: (run: Run) => boolean, timeout = 30_000): Promise<Run> {
  let last: Run | undefined;
  await expect
    .poll(
      async () => {
        last = await runOf(panel, runId).catch(() => undefined);
        if (last && !ok(last) && last.status === 'awaiting_answer') throw new Error(`run ${runId} asks the person: ${last.steps.at(-1)?.question}`);
        return last !== undefined && ok(last);
      },
      { timeout, message: `run ${runId} never reached the state waited for` },
    )
    .toBe(true);
  return last!;
}

/** The ref of the element named `name` in the page rendering Steward sent to the model (`e12 button "Cancel order"`). */
export function refIn(body: { messages: Array<{ role: string; content: string }> }, role: string, name: string): string {
  const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const page = /<data kind="page" id="([^"]+)">\n(.*)\n<\/data id="\1">/.exec(user);
  const text = page ? (JSON.parse(page[2]!) as string) : user;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A control that follows one of the same role on its line leaves its role out (`e5 button "A" · e6 "B"`).
  const m = new RegExp(`(\\S+) ${role}~? "${escaped}"`).exec(text) ?? new RegExp(`· (\\S+) "${escaped}"`).exec(text);
  if (!m) throw new Error(`no ${role} "${name}" in the page Steward showed the model:\n${text.slice(0, 3000)}`);
  return m[1]!;
}

/** Approves any card the run waits on (the person says yes to what is on the allowed site) until it ends. */
export async function runToEnd(panel: Page, runId: string): Promise<Run> {
  const decided = new Set<string>();
  for (;;) {
    const run = await waitForRun(panel, runId, (r) => r.end !== undefined || r.steps.some((s) => s.status === 'awaiting_approval' && s.approval_id && !decided.has(s.approval_id)));
    if (run.end) return run;
    const { pending } = await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }));
    for (const card of pending.filter((c) => !decided.has(c.request_id))) {
      await data(control(panel, approvalOf(card)));
      decided.add(card.request_id);
    }
    for (const s of run.steps) if (s.approval_id) decided.add(s.approval_id);
  }
}
